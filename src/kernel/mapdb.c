// SPDX-License-Identifier: GPL-2.0
/*
 * The map database: a kt_index reduced to what mapping needs, saved as JSON one record a line (so a
 * regenerated database diffs line by line) and loaded back into the same kt_* structures, so the mapping code
 * never knows whether a tree or the built-in database answers.
 */
#include "kernel/mapdb.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kt_internal.h"
#include "kernel/running.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define MAPDB_SCHEMA "kfootprint-mapdb/1"

static const char *const cond_kinds[] = {
    [KT_COND_MAKEFILE_OBJ] = "makefile-obj", [KT_COND_MAKEFILE_VAR] = "makefile-var",
    [KT_COND_MAKEFILE_DIR] = "makefile-dir", [KT_COND_MAKEFILE_IF] = "makefile-if",
    [KT_COND_SOURCE_IF] = "source-if",	     [KT_COND_INCLUDE] = "include",
    [KT_COND_ARCH_WANT] = "arch-want",
};

static const char *const statuses[] = {
    [KT_RESOLVED] = "resolved",		  [KT_NO_ENTRY] = "no-entry",	[KT_NI_SYSCALL] = "ni-syscall",
    [KT_NO_DEFINITION] = "no-definition", [KT_NOT_BUILT] = "not-built", [KT_NOT_IN_TREE] = "not-in-tree",
};

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
	char *path = xasprintf("%s/arch/x86/entry/syscalls/syscall_32.tbl", kt_index_srcdir(db->idx));
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
	for (size_t i = 0; i < db->nsys; i++) {
		const struct kt_syscall *s = kt_index_syscall_at(idx, i);

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
	if (db->abi == KF_ABI_I386)
		read_compat_entries(db);
	return db;
}

/* ---- saving --------------------------------------------------------------------------------------------- */

static void put_str(json_object *o, const char *key, const char *v)
{
	if (v)
		json_object_object_add(o, key, json_object_new_string(v));
}

static void put_int(json_object *o, const char *key, int v)
{
	if (v)
		json_object_object_add(o, key, json_object_new_int(v));
}

static void put_strv(json_object *o, const char *key, char *const *v, size_t n)
{
	json_object *a;

	if (!n)
		return;
	a = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	json_object_object_add(o, key, a);
}

/* Sections are saved once and referred to by position; collects them in first-use order. */
static size_t section_id(const struct kt_section ***secs, size_t *n, size_t *cap, const struct kt_section *s)
{
	for (size_t i = 0; i < *n; i++)
		if ((*secs)[i] == s)
			return i;
	XGROW(*secs, *cap, *n + 1);
	(*secs)[*n] = s;
	return (*n)++;
}

static json_object *syscall_json(const struct kt_syscall *s, const char *compat, const struct kt_section ***secs,
				 size_t *nsecs, size_t *cap)
{
	json_object *o = json_object_new_object();

	put_str(o, "name", s->name);
	put_str(o, "entry", s->entry);
	put_str(o, "compat", compat);
	put_str(o, "def", s->def_name);
	put_str(o, "macro", s->macro);
	put_str(o, "status", statuses[s->status]);
	put_str(o, "file", s->file);
	put_int(o, "line", s->line);
	put_str(o, "impl", s->impl_name);
	put_str(o, "impl_file", s->impl_file);
	put_int(o, "impl_line", s->impl_line);
	put_str(o, "object", s->object);
	put_str(o, "makefile", s->makefile);
	put_int(o, "makefile_line", s->makefile_line);
	put_str(o, "included_by", s->included_by);
	if (s->nconds) {
		json_object *a = json_object_new_array();

		for (size_t i = 0; i < s->nconds; i++) {
			const struct kt_cond *c = &s->conds[i];
			json_object *co = json_object_new_object();

			put_str(co, "kind", cond_kinds[c->kind]);
			put_str(co, "option", c->option);
			if (c->negated)
				json_object_object_add(co, "negated", json_object_new_boolean(1));
			put_str(co, "expr", c->expr);
			put_str(co, "where", c->where);
			if (!c->option)
				put_strv(co, "symbols", c->symbols, c->nsymbols);
			json_object_object_add(co, "holds", json_object_new_boolean(c->holds));
			json_object_array_add(a, co);
		}
		json_object_object_add(o, "conds", a);
	}
	put_strv(o, "options", s->options, s->noptions);
	if (s->nsections) {
		json_object *a = json_object_new_array();

		for (size_t i = 0; i < s->nsections; i++) {
			json_object *m = json_object_new_array();

			json_object_array_add(
			    m, json_object_new_int((int)section_id(secs, nsecs, cap, s->sections[i].section)));
			json_object_array_add(m, json_object_new_int(s->sections[i].depth));
			json_object_array_add(a, m);
		}
		json_object_object_add(o, "sections", a);
	}
	if (s->optional)
		json_object_object_add(o, "optional", json_object_new_boolean(1));
	put_strv(o, "alternatives", s->alternatives, s->nalternatives);
	json_object_object_add(o, "complete", json_object_new_boolean(s->complete));
	put_str(o, "unresolved", s->unresolved);
	put_str(o, "not_built", s->not_built);
	return o;
}

static json_object *option_json(const struct mapdb_opt *m)
{
	json_object *o = json_object_new_object();
	const struct kt_option *k = m->opt;

	put_str(o, "name", m->name);
	put_str(o, "value", m->value);
	if (!k)
		return o;
	put_str(o, "file", k->file);
	put_int(o, "line", k->line);
	put_str(o, "type", k->type);
	put_str(o, "prompt", k->prompt);
	put_str(o, "prompt_if", k->prompt_if);
	put_str(o, "depends", k->depends);
	put_str(o, "defaults", k->defaults);
	put_strv(o, "selected_by", k->selected_by, k->nselected_by);
	put_strv(o, "implied_by", k->implied_by, k->nimplied_by);
	put_str(o, "help", k->help);
	put_int(o, "ndefinitions", k->ndefinitions);
	json_object_object_add(o, "kconfig", json_object_new_boolean(1));
	return o;
}

static json_object *section_json(const struct kt_section *s)
{
	json_object *o = json_object_new_object();

	put_str(o, "name", s->name);
	put_str(o, "status", s->status);
	put_strv(o, "maintainers", s->maintainers, s->nmaintainers);
	put_strv(o, "lists", s->lists, s->nlists);
	return o;
}

static size_t tree_rows(const struct mapdb *db)
{
	size_t n = 0;

	for (size_t i = 0; i < db->nsys; i++)
		n += db->sys[i]->status != KT_NOT_IN_TREE;
	return n;
}

static int put_line(FILE *out, json_object *o, bool last)
{
	int rc = fprintf(out, "%s%s\n",
			 json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE),
			 last ? "" : ",");

	json_object_put(o);
	return rc < 0 ? -1 : 0;
}

int mapdb_save(const struct mapdb *db, FILE *out)
{
	const struct kt_section **secs = NULL;
	size_t nsecs = 0, cap = 0;
	json_object *head = json_object_new_object();
	int rc = 0;

	put_str(head, "schema", MAPDB_SCHEMA);
	put_str(head, "tree", db->version);
	put_str(head, "abi", kf_abi_name(db->abi));
	put_str(head, "config", db->config);
	put_str(head, "generated_by", "kfootprint " KF_VERSION " map --save-db");
	/* The head object opens the document; the arrays follow it, one record a line. */
	{
		const char *h =
		    json_object_to_json_string_ext(head, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
		size_t hl = strlen(h);

		if (fprintf(out, "%.*s,\n\"syscalls\": [\n", (int)(hl - 1), h) < 0)
			rc = -1;
	}
	json_object_put(head);
	/* Rows the tree's table lacks say nothing about the tree: a database lists the tree's own rows only. */
	for (size_t i = 0, left = tree_rows(db); i < db->nsys && !rc; i++)
		if (db->sys[i]->status != KT_NOT_IN_TREE)
			rc = put_line(out,
				      syscall_json(db->sys[i], db->compat ? db->compat[i] : NULL, &secs, &nsecs, &cap),
				      --left == 0);
	if (!rc && fputs("],\n\"options\": [\n", out) < 0)
		rc = -1;
	for (size_t i = 0; i < db->nopts && !rc; i++)
		rc = put_line(out, option_json(&db->opts[i]), i + 1 == db->nopts);
	if (!rc && fputs("],\n\"sections\": [\n", out) < 0)
		rc = -1;
	for (size_t i = 0; i < nsecs && !rc; i++)
		rc = put_line(out, section_json(secs[i]), i + 1 == nsecs);
	if (!rc && fputs("]}\n", out) < 0)
		rc = -1;
	free(secs);
	return rc;
}

/* ---- loading -------------------------------------------------------------------------------------------- */

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

static int lookup(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

static int load_syscall(struct mapdb *db, json_object *o, struct kt_syscall *s, char **err)
{
	json_object *a;
	int st = lookup(statuses, sizeof(statuses) / sizeof(statuses[0]), get_str(o, "status"));

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
			int k = lookup(cond_kinds, sizeof(cond_kinds) / sizeof(cond_kinds[0]), get_str(co, "kind"));

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
	return db;
fail:
	mapdb_free(db);
	return NULL;
}

struct mapdb *mapdb_builtin(enum kf_abi abi, char **err)
{
	const char *text = abi == KF_ABI_X86_64 ? kf_mapdb_x86_64 : abi == KF_ABI_I386 ? kf_mapdb_i386 : "";
	struct mapdb *db;

	*err = NULL;
	if (!*text) {
		*err = xasprintf("no built-in database for %s (there are x86_64 and i386): use --kernel-src",
				 kf_abi_name(abi));
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

void mapdb_free(struct mapdb *db)
{
	if (!db)
		return;
	if (db->own_sys) {
		for (size_t i = 0; i < db->nsys; i++) {
			struct kt_syscall *s = &db->own_sys[i];

			for (size_t c = 0; c < s->nconds; c++)
				free(s->conds[c].symbols);
			free(s->conds);
			free(s->options);
			free(s->sections);
			free(s->alternatives);
		}
		free(db->own_sys);
	}
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
