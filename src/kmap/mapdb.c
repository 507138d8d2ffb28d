// SPDX-License-Identifier: GPL-2.0
/*
 * The map database: a kt_index reduced to what mapping needs, saved as JSON one record a line (so a
 * regenerated database diffs line by line) and loaded back into the same kt_* structures, so the mapping code
 * never knows whether a tree or the built-in database answers.
 */
#include "kmap/mapdb.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/ktree.h"
#include "kernel/running.h"
#include "util/json_writer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int opt_cmp(const void *a, const void *b)
{
	return strcmp(((const struct mapdb_opt *)a)->name, ((const struct mapdb_opt *)b)->name);
}

const struct kt_syscall *mapdb_syscall(const struct mapdb *db, const char *name)
{
	for (size_t i = 0; i < db->nsys; i++)
		if (!strcmp(db->sys[i]->name, name))
			return db->sys[i]->status == KT_NOT_IN_TREE ? NULL : db->sys[i];
	return NULL;
}

const struct kt_syscall *mapdb_reach(const struct mapdb *db, const char *kind, const char *value)
{
	return kt_reach_find(db->reach, db->nreach, kind, value);
}

const char *mapdb_compat_entry(const struct mapdb *db, const char *name)
{
	for (size_t i = 0; db->compat && i < db->nsys; i++)
		if (!strcmp(db->sys[i]->name, name))
			return db->compat[i];
	return NULL;
}

const struct mapdb_opt *mapdb_option(const struct mapdb *db, const char *name)
{
	struct mapdb_opt key = {.name = name};

	return db->nopts ? bsearch(&key, db->opts, db->nopts, sizeof(*db->opts), opt_cmp) : NULL;
}

int mapdb_max_nr(const struct mapdb *db)
{
	int max = -1;

	for (size_t i = 0; i < db->nsys; i++) {
		const struct kf_syscall *s = kf_syscall_by_name(db->abi, db->sys[i]->name);

		if (db->sys[i]->status != KT_NOT_IN_TREE && s && s->nr > max)
			max = s->nr;
	}
	return max;
}

static void set_version(struct mapdb *db, const char *version)
{
	db->version = xstrdup(version ? version : "unknown");
	if (kf_parse_version(db->version, &db->ver, &db->patch))
		db->ver = db->patch = -1;
}

/* ---- from a live index ---------------------------------------------------------------------------------- */

static void add_opt_name(struct mapdb *db, size_t *cap, const char *name)
{
	for (size_t i = 0; i < db->nopts; i++)
		if (!strcmp(db->opts[i].name, name))
			return;
	XGROW(db->opts, *cap, db->nopts + 1);
	db->opts[db->nopts++] = (struct mapdb_opt){.name = name};
}

/* i386 rows name two entry points; the second is what a 64-bit kernel runs (IA32 emulation). */
static void read_compat_entries(struct mapdb *db)
{
	char *path = xasprintf("%s/%s", kt_index_srcdir(db->idx), kf_abi_get(db->abi)->tree_table);
	char *text = kt_read_file(path, NULL), *save = NULL;

	db->compat = xcalloc(db->nsys + 1, sizeof(*db->compat));
	free(path);
	if (!text)
		return; /* the rows keep their native entry; a tree without the table is the index's to report */
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char nr[16], abi[16], name[64], native[96], compat[96];

		if (l[0] == '#' || sscanf(l, "%15s %15s %63s %95s %95s", nr, abi, name, native, compat) != 5)
			continue;
		for (size_t i = 0; i < db->nsys; i++) {
			if (!strcmp(db->sys[i]->name, name) && !db->compat[i]) {
				db->compat[i] = xstrdup(compat);
				break;
			}
		}
	}
	free(text);
}

struct mapdb *mapdb_from_index(struct kt_index *idx, const char *config)
{
	struct mapdb *db = xcalloc(1, sizeof(*db));
	size_t cap = 0;

	db->idx = idx;
	db->abi = kt_index_abi(idx);
	set_version(db, kt_index_version(idx));
	db->origin = xstrdup(kt_index_srcdir(idx));
	db->config = xstrdup(config);
	db->nsys = kt_index_nsyscalls(idx);
	db->sys = xcalloc(db->nsys + 1, sizeof(*db->sys));
	db->nreach = kt_index_nreach(idx);
	db->reach = xcalloc(db->nreach + 1, sizeof(*db->reach));
	for (size_t i = 0; i < db->nreach; i++)
		db->reach[i] = kt_index_reach_at(idx, i);
	for (size_t i = 0; i < db->nsys + db->nreach; i++) {
		const struct kt_syscall *s = i < db->nsys ? kt_index_syscall_at(idx, i) : db->reach[i - db->nsys];

		if (i < db->nsys)
			db->sys[i] = s;
		for (size_t c = 0; c < s->nconds; c++) {
			if (s->conds[c].kind == KT_COND_ARCH_WANT)
				continue;
			for (size_t k = 0; k < s->conds[c].nsymbols; k++)
				add_opt_name(db, &cap, s->conds[c].symbols[k]);
			if (s->conds[c].option)
				add_opt_name(db, &cap, s->conds[c].option);
		}
		for (size_t k = 0; k < s->noptions; k++)
			add_opt_name(db, &cap, s->options[k]);
	}
	for (size_t i = 0; i < db->nopts; i++) {
		db->opts[i].opt = kt_index_option(idx, db->opts[i].name);
		db->opts[i].value = kt_index_option_value(idx, db->opts[i].name);
	}
	if (db->nopts)
		qsort(db->opts, db->nopts, sizeof(*db->opts), opt_cmp);
	if (kf_abi_get(db->abi)->tree_compat)
		read_compat_entries(db);
	return db;
}

int mapdb_closure(const struct mapdb *db, const struct kt_want *want, size_t n, struct kt_closure *out)
{
	memset(out, 0, sizeof(*out));
	if (db->idx)
		return kt_index_closure(db->idx, want, n, out);
	if (db->kfacts)
		return kt_kfacts_closure(db->kfacts, want, n, out);
	return -2;
}

bool mapdb_kconfig_known(const struct mapdb *db, const char *option)
{
	return db->idx ? kt_index_option(db->idx, option) != NULL : kt_kfacts_has(db->kfacts, option);
}

struct kt_kfacts *mapdb_index_kfacts(const struct mapdb *db)
{
	const char **roots = xcalloc(db->nopts + 1, sizeof(*roots));

	for (size_t i = 0; i < db->nopts; i++)
		roots[i] = db->opts[i].name;
	struct kt_kfacts *f = kt_kfacts_from_index(db->idx, roots, db->nopts);
	free(roots);
	return f;
}

/* ---- loading -------------------------------------------------------------------------------------------- */

/*
 * The writer's byte rule (json_writer.h) undone on every string of the parsed document, once, in place: the
 * bytes can only get fewer.
 */
static void unescape_tree(json_object *o)
{
	char *s;

	switch (json_object_get_type(o)) {
	case json_type_string:
		s = (char *)json_object_get_string(o);
		if (strchr(s, '\\'))
			jsonw_unescape_in_place(s);
		break;
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(o); i++)
			unescape_tree(json_object_array_get_idx(o, i));
		break;
	case json_type_object: {
		json_object_object_foreach(o, key, v)
		{
			(void)key;
			unescape_tree(v);
		}
		break;
	}
	default: break;
	}
}

/* Strings point into the parsed JSON document, which the database keeps until mapdb_free(). */
static char *get_str(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return (char *)json_object_get_string(v);
}

static int get_int(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int(v) : 0;
}

static bool get_bool(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

static json_object *get_array(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}

static char **get_strv(json_object *o, const char *key, size_t *n)
{
	json_object *a = get_array(o, key);
	char **v;

	*n = 0;
	if (!a)
		return NULL;
	v = xcalloc(json_object_array_length(a) + 1, sizeof(*v));
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(a, i));

		if (s)
			v[(*n)++] = (char *)s;
	}
	return v;
}

static int load_syscall(struct mapdb *db, json_object *o, struct kt_syscall *s, char **err)
{
	json_object *a;
	int st = kt_status_parse(get_str(o, "status"));

	s->name = get_str(o, "name");
	if (!s->name || st < 0) {
		*err = xasprintf("syscall record without a name or a known status");
		return -1;
	}
	s->status = (enum kt_status)st;
	s->entry = get_str(o, "entry");
	s->def_name = get_str(o, "def");
	s->macro = get_str(o, "macro");
	s->file = get_str(o, "file");
	s->line = get_int(o, "line");
	s->impl_name = get_str(o, "impl");
	s->impl_file = get_str(o, "impl_file");
	s->impl_line = get_int(o, "impl_line");
	s->object = get_str(o, "object");
	s->makefile = get_str(o, "makefile");
	s->makefile_line = get_int(o, "makefile_line");
	s->included_by = get_str(o, "included_by");
	a = get_array(o, "conds");
	if (a) {
		s->nconds = json_object_array_length(a);
		s->conds = xcalloc(s->nconds, sizeof(*s->conds));
		for (size_t i = 0; i < s->nconds; i++) {
			json_object *co = json_object_array_get_idx(a, i);
			struct kt_cond *c = &s->conds[i];
			int k = kt_cond_kind_parse(get_str(co, "kind"));

			if (k < 0) {
				*err = xasprintf("syscall '%s': unknown condition kind", s->name);
				return -1;
			}
			c->kind = (enum kt_cond_kind)k;
			c->option = get_str(co, "option");
			c->negated = get_bool(co, "negated");
			c->expr = get_str(co, "expr");
			c->where = get_str(co, "where");
			c->holds = get_bool(co, "holds");
			if (c->option) {
				c->symbols = xcalloc(2, sizeof(char *));
				c->symbols[0] = c->option;
				c->nsymbols = 1;
			} else {
				c->symbols = get_strv(co, "symbols", &c->nsymbols);
			}
		}
	}
	s->options = get_strv(o, "options", &s->noptions);
	a = get_array(o, "sections");
	if (a) {
		s->nsections = json_object_array_length(a);
		s->sections = xcalloc(s->nsections, sizeof(*s->sections));
		for (size_t i = 0; i < s->nsections; i++) {
			json_object *m = json_object_array_get_idx(a, i);
			int id = json_object_get_int(json_object_array_get_idx(m, 0));

			if (id < 0 || (size_t)id >= db->nsecs) {
				*err = xasprintf("syscall '%s': section %d out of range", s->name, id);
				return -1;
			}
			s->sections[i].section = &db->own_secs[id];
			s->sections[i].depth = json_object_get_int(json_object_array_get_idx(m, 1));
		}
	}
	s->optional = get_bool(o, "optional");
	s->alternatives = get_strv(o, "alternatives", &s->nalternatives);
	s->complete = get_bool(o, "complete");
	s->unresolved = get_str(o, "unresolved");
	s->not_built = get_str(o, "not_built");
	return 0;
}

static int load_option(json_object *o, struct mapdb_opt *m, struct kt_option *k)
{
	m->name = get_str(o, "name");
	m->value = get_str(o, "value");
	if (!m->name)
		return -1;
	if (!get_bool(o, "kconfig"))
		return 0;
	m->opt = k;
	k->name = (char *)m->name;
	k->file = get_str(o, "file");
	k->line = get_int(o, "line");
	k->type = get_str(o, "type");
	k->prompt = get_str(o, "prompt");
	k->prompt_if = get_str(o, "prompt_if");
	k->depends = get_str(o, "depends");
	k->defaults = get_str(o, "defaults");
	k->selected_by = get_strv(o, "selected_by", &k->nselected_by);
	k->implied_by = get_strv(o, "implied_by", &k->nimplied_by);
	k->help = get_str(o, "help");
	k->ndefinitions = get_int(o, "ndefinitions");
	return 0;
}

/* The "kconfig" records (mapdb_save.c kfact_record): the facts are copied, so the strv arrays are freed here. */
static int load_kfacts(struct mapdb *db, json_object *root, char **err)
{
	json_object *a = get_array(root, "kconfig");

	if (!a)
		return 0;
	db->kfacts = kt_kfacts_new(kf_abi_get(db->abi)->tree_arch);
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct kt_kfact k = {.name = get_str(o, "name")};
		char **defaults, **sel, **members;

		if (!k.name) {
			*err = xasprintf("kconfig record %zu without a name", i);
			return -1;
		}
		k.type = get_str(o, "type");
		k.prompt = get_bool(o, "prompt") ? "" : NULL;
		k.prompt_if = get_str(o, "prompt_if");
		k.depends = get_str(o, "depends");
		k.choice = get_str(o, "choice");
		defaults = get_strv(o, "defaults", &k.ndefaults);
		sel = get_strv(o, "selected_by", &k.nselected_by);
		members = get_strv(o, "members", &k.nmembers);
		k.defaults = (const char *const *)defaults;
		k.selected_by = (const char *const *)sel;
		k.members = (const char *const *)members;
		kt_kfacts_add(db->kfacts, &k);
		free(defaults);
		free(sel);
		free(members);
	}
	return 0;
}

struct mapdb *mapdb_parse(const char *text, const char *origin, char **err)
{
	enum json_tokener_error jerr;
	json_object *root = json_tokener_parse_verbose(text, &jerr), *a;
	struct mapdb *db;
	const char *schema;

	*err = NULL;
	if (!root) {
		*err = xasprintf("not JSON: %s", json_tokener_error_desc(jerr));
		return NULL;
	}
	unescape_tree(root);
	db = xcalloc(1, sizeof(*db));
	db->json = root;
	schema = get_str(root, "schema");
	if (!schema || strcmp(schema, MAPDB_SCHEMA)) {
		*err = xasprintf("schema is '%s', expected '%s'", schema ? schema : "", MAPDB_SCHEMA);
		goto fail;
	}
	if (!get_str(root, "abi") || kf_abi_parse(get_str(root, "abi"), &db->abi)) {
		*err = xasprintf("unknown abi");
		goto fail;
	}
	set_version(db, get_str(root, "tree"));
	db->origin = xstrdup(origin);
	db->config = xstrdup(get_str(root, "config") ? get_str(root, "config") : "unknown");
	a = get_array(root, "sections");
	db->nsecs = a ? json_object_array_length(a) : 0;
	db->own_secs = xcalloc(db->nsecs + 1, sizeof(*db->own_secs));
	for (size_t i = 0; i < db->nsecs; i++) {
		json_object *o = json_object_array_get_idx(a, i);
		struct kt_section *s = &db->own_secs[i];

		s->name = get_str(o, "name");
		s->status = get_str(o, "status");
		s->maintainers = get_strv(o, "maintainers", &s->nmaintainers);
		s->lists = get_strv(o, "lists", &s->nlists);
		if (!s->name) {
			*err = xasprintf("section %zu without a name", i);
			goto fail;
		}
	}
	a = get_array(root, "syscalls");
	db->nsys = a ? json_object_array_length(a) : 0;
	db->own_sys = xcalloc(db->nsys + 1, sizeof(*db->own_sys));
	db->sys = xcalloc(db->nsys + 1, sizeof(*db->sys));
	db->compat = xcalloc(db->nsys + 1, sizeof(*db->compat));
	for (size_t i = 0; i < db->nsys; i++) {
		char *why = NULL;

		db->sys[i] = &db->own_sys[i];
		if (get_str(json_object_array_get_idx(a, i), "compat"))
			db->compat[i] = xstrdup(get_str(json_object_array_get_idx(a, i), "compat"));
		if (load_syscall(db, json_object_array_get_idx(a, i), &db->own_sys[i], &why)) {
			*err = xasprintf("%s", why);
			free(why);
			goto fail;
		}
	}
	if (!db->nsys) {
		*err = xasprintf("no syscalls");
		goto fail;
	}
	a = get_array(root, "reach");
	db->nreach = a ? json_object_array_length(a) : 0;
	db->own_reach = xcalloc(db->nreach + 1, sizeof(*db->own_reach));
	db->reach = xcalloc(db->nreach + 1, sizeof(*db->reach));
	for (size_t i = 0; i < db->nreach; i++) {
		char *why = NULL;

		db->reach[i] = &db->own_reach[i];
		if (load_syscall(db, json_object_array_get_idx(a, i), &db->own_reach[i], &why)) {
			*err = xasprintf("reach %s", why);
			free(why);
			goto fail;
		}
	}
	a = get_array(root, "options");
	db->nopts = a ? json_object_array_length(a) : 0;
	db->opts = xcalloc(db->nopts + 1, sizeof(*db->opts));
	db->own_opts = xcalloc(db->nopts + 1, sizeof(*db->own_opts));
	for (size_t i = 0; i < db->nopts; i++) {
		if (load_option(json_object_array_get_idx(a, i), &db->opts[i], &db->own_opts[i])) {
			*err = xasprintf("option %zu without a name", i);
			goto fail;
		}
	}
	if (db->nopts)
		qsort(db->opts, db->nopts, sizeof(*db->opts), opt_cmp);
	if (load_kfacts(db, root, err))
		goto fail;
	return db;
fail:
	mapdb_free(db);
	return NULL;
}

static const char *builtin_text(enum kf_abi abi)
{
	for (size_t i = 0; i < mapdb_nbuiltins; i++)
		if (mapdb_builtins[i].abi == abi && *mapdb_builtins[i].text)
			return mapdb_builtins[i].text;
	return NULL;
}

bool mapdb_has_builtin(enum kf_abi abi)
{
	return builtin_text(abi) != NULL;
}

const char *mapdb_builtin_names(void)
{
	static char buf[256];

	if (!*buf) {
		size_t len = 0;

		for (size_t i = 0; i < mapdb_nbuiltins && len < sizeof(buf); i++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
						!i			   ? ""
						: i + 1 == mapdb_nbuiltins ? " and "
									   : ", ",
						kf_abi_name(mapdb_builtins[i].abi));
	}
	return buf;
}

struct mapdb *mapdb_builtin(enum kf_abi abi, char **err)
{
	const char *text = builtin_text(abi);
	struct mapdb *db;

	*err = NULL;
	if (!text) {
		*err = xasprintf("no built-in database for %s (there are %s): use --kernel-src", kf_abi_name(abi),
				 mapdb_builtin_names());
		return NULL;
	}
	db = mapdb_parse(text, "built-in database", err);
	if (!db) {
		char *why = *err;

		*err = xasprintf("built-in database for %s: %s", kf_abi_name(abi), why);
		free(why);
	}
	return db;
}

static void own_free(struct kt_syscall *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		struct kt_syscall *s = &v[i];

		for (size_t c = 0; c < s->nconds; c++)
			free(s->conds[c].symbols);
		free(s->conds);
		free(s->options);
		free(s->sections);
		free(s->alternatives);
	}
	free(v);
}

void mapdb_free(struct mapdb *db)
{
	if (!db)
		return;
	own_free(db->own_sys, db->nsys);
	own_free(db->own_reach, db->nreach);
	free(db->reach);
	if (db->own_opts) {
		for (size_t i = 0; i < db->nopts; i++) {
			free(db->own_opts[i].selected_by);
			free(db->own_opts[i].implied_by);
		}
		free(db->own_opts);
	}
	if (db->own_secs) {
		for (size_t i = 0; i < db->nsecs; i++) {
			free(db->own_secs[i].maintainers);
			free(db->own_secs[i].lists);
		}
		free(db->own_secs);
	}
	kt_kfacts_free(db->kfacts);
	if (db->json)
		json_object_put(db->json);
	if (db->idx)
		kt_index_free(db->idx);
	for (size_t i = 0; db->compat && i < db->nsys; i++)
		free(db->compat[i]);
	free(db->compat);
	free(db->sys);
	free(db->opts);
	free(db->version);
	free(db->origin);
	free(db->config);
	free(db);
}
