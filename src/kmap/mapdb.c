// SPDX-License-Identifier: GPL-2.0
/*
 * The map database: a kt_index reduced to what mapping needs, saved as JSON one record a line (so a
 * regenerated database diffs line by line) and loaded back into the same kt_* structures, so the mapping code
 * never knows whether a tree or the built-in database answers.
 */
#include "kmap/mapdb.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/mapdb_int.h"
#include "ktree/ktree.h"
#include "kernel/running.h"
#include "util/arena.h"
#include "util/xalloc.h"

int mapdb_opt_cmp(const void *a, const void *b)
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

	return db->nopts ? bsearch(&key, db->opts, db->nopts, sizeof(*db->opts), mapdb_opt_cmp) : NULL;
}

int mapdb_max_nr(const struct mapdb *db)
{
	int max = db->others_max_nr;

	for (size_t i = 0; i < db->nsys; i++) {
		const struct kf_syscall *s = kf_syscall_by_name(db->abi, db->sys[i]->name);

		if (db->sys[i]->status != KT_NOT_IN_TREE && s && s->nr > max)
			max = s->nr;
	}
	return max;
}

void mapdb_set_version(struct mapdb *db, const char *version)
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
	db->others_max_nr = -1;
	db->abi = kt_index_abi(idx);
	mapdb_set_version(db, kt_index_version(idx));
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
		qsort(db->opts, db->nopts, sizeof(*db->opts), mapdb_opt_cmp);
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

static struct mapdb *builtin(enum kf_abi abi, const struct mapdb_want *want, char **err)
{
	const char *text = builtin_text(abi);
	struct mapdb *db;

	*err = NULL;
	if (!text) {
		*err = xasprintf("no built-in database for %s (there are %s): use --kernel-src", kf_abi_name(abi),
				 mapdb_builtin_names());
		return NULL;
	}
	db = want ? mapdb_parse_for(text, "built-in database", want, err) : mapdb_parse(text, "built-in database", err);
	if (!db) {
		char *why = *err;

		*err = xasprintf("built-in database for %s: %s", kf_abi_name(abi), why);
		free(why);
	}
	return db;
}

struct mapdb *mapdb_builtin(enum kf_abi abi, char **err)
{
	return builtin(abi, NULL, err);
}

struct mapdb *mapdb_builtin_for(enum kf_abi abi, const struct mapdb_want *want, char **err)
{
	return builtin(abi, want, err);
}

void mapdb_free(struct mapdb *db)
{
	if (!db)
		return;
	/* a loaded database's records: their strings and lists are in the arena */
	free(db->own_sys);
	free(db->own_reach);
	free(db->own_opts);
	free(db->own_secs);
	kt_kfacts_free(db->kfacts);
	arena_release(&db->mem);
	free(db->reach);
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
