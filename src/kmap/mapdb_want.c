// SPDX-License-Identifier: GPL-2.0
// What mapdb_parse_for() keeps of a saved database: the records a footprint asks for, and the options and
// sections they name, judged member by member as the loader (mapdb_load.c) reads them.
#include <stdlib.h>
#include <string.h>

#include "kmap/mapdb_load.h"
#include "ktree/ktree.h"
#include "util/xalloc.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool in_sorted(char *const *v, size_t n, const char *name)
{
	return n && bsearch(&name, v, n, sizeof(*v), cmp_str);
}

static char **sorted_copy(char **v, size_t *n)
{
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

void mapdb_want_init(struct load *L, const struct mapdb_want *w)
{
	size_t nr = 0, nf = 0;

	L->want = w;
	L->want_sys = xcalloc(w->nsyscalls + 1, sizeof(char *));
	for (size_t i = 0; i < w->nsyscalls; i++)
		L->want_sys[i] = xstrdup(w->syscalls[i]);
	L->nwant_sys = w->nsyscalls;
	sorted_copy(L->want_sys, &L->nwant_sys);
	L->want_reach = xcalloc(4 * w->nreach + 1, sizeof(char *));
	L->want_first = xcalloc(w->nreach + 1, sizeof(char *));
	for (size_t i = 0; i < w->nreach; i++) {
		size_t nk = kt_reach_keys(w->reach_kind[i], w->reach_value[i], L->want_reach + nr, 4);

		if (nk)
			L->want_first[nf++] = xstrdup(L->want_reach[nr]);
		nr += nk;
	}
	L->nwant_reach = nr;
	L->nwant_first = nf;
	sorted_copy(L->want_reach, &L->nwant_reach);
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void mapdb_want_release(struct load *L)
{
	free_strv(L->want_sys, L->nwant_sys);
	free_strv(L->want_reach, L->nwant_reach);
	free_strv(L->want_first, L->nwant_first);
	free(L->need_opts);
	free(L->need_secs);
	free(L->others);
}

/* A reach record kt_reach_find() could answer with for a wanted refinement: one of its keys, or a pattern. */
static bool reach_wanted(const struct load *L, const char *name)
{
	size_t len = strlen(name);

	if (in_sorted(L->want_reach, L->nwant_reach, name))
		return true;
	if (!len || name[len - 1] != '*')
		return false;
	for (size_t i = 0; i < L->nwant_first; i++)
		if (!strncmp(name, L->want_first[i], len - 1))
			return true;
	return false;
}

static void need_opt(struct load *L, const char *name)
{
	if (!name)
		return;
	XGROW(L->need_opts, L->need_opts_cap, L->nneed_opts + 1);
	L->need_opts[L->nneed_opts++] = name;
}

/* A kept record's options and sections, which the file holds after the records. */
void mapdb_need_of(struct load *L, const struct sys_rec *r)
{
	for (size_t c = 0; c < r->s.nconds; c++) {
		need_opt(L, r->s.conds[c].option);
		for (size_t k = 0; k < r->s.conds[c].nsymbols; k++)
			need_opt(L, r->s.conds[c].symbols[k]);
	}
	for (size_t k = 0; k < r->s.noptions; k++)
		need_opt(L, r->s.options[k]);
	for (size_t k = 0; k < r->s.nsections; k++) {
		int id = r->x.sec_ids[k];

		if (id < 0 || id > 1 << 20)
			continue; /* out of range: build() says so */
		if ((size_t)id >= L->need_secs_cap) {
			size_t old = L->need_secs_cap;

			XGROW(L->need_secs, L->need_secs_cap, (size_t)id + 1);
			memset(L->need_secs + old, 0, (L->need_secs_cap - old) * sizeof(*L->need_secs));
		}
		L->need_secs[id] = true;
	}
}

/*
 * Another syscall is left out, its name kept for mapdb_max_nr(): a saved database holds only rows of the tree's
 * table (mapdb_save() leaves out the others), so every name counts there.
 */
enum verdict mapdb_judge_sys(struct load *L, const char *key, const void *rec)
{
	const struct sys_rec *r = rec;

	if (strcmp(key, "name") || !r->s.name)
		return V_ASK;
	if (in_sorted(L->want_sys, L->nwant_sys, r->s.name))
		return V_ALL;
	XGROW(L->others, L->others_cap, L->nothers + 1);
	L->others[L->nothers++] = r->s.name;
	return V_DROP;
}

enum verdict mapdb_judge_reach(struct load *L, const char *key, const void *rec)
{
	const struct sys_rec *r = rec;

	if (strcmp(key, "name"))
		return V_ASK;
	return r->s.name && reach_wanted(L, r->s.name) ? V_ALL : V_DROP;
}

enum verdict mapdb_judge_opt(struct load *L, const char *key, const void *rec)
{
	const struct opt_rec *o = rec;

	if (strcmp(key, "name"))
		return V_ASK;
	if (!L->need_opts_sorted) {
		size_t n = 0;

		if (L->nneed_opts)
			qsort(L->need_opts, L->nneed_opts, sizeof(*L->need_opts), cmp_str);
		for (size_t i = 0; i < L->nneed_opts; i++)
			if (!n || strcmp(L->need_opts[n - 1], L->need_opts[i]))
				L->need_opts[n++] = L->need_opts[i];
		L->nneed_opts = n;
		L->need_opts_sorted = true;
	}
	return o->k.name && in_sorted((char *const *)L->need_opts, L->nneed_opts, o->k.name) ? V_ALL : V_DROP;
}

/* A section no kept record names keeps its name alone: the records name sections by position. */
enum verdict mapdb_judge_sec(struct load *L, const char *key, const void *rec)
{
	(void)rec;
	if (strcmp(key, "name"))
		return V_ASK;
	return L->nsecs < L->need_secs_cap && L->need_secs[L->nsecs] ? V_ALL : V_CLOSE;
}
