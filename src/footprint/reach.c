// SPDX-License-Identifier: GPL-2.0
/*
 * What each call reached (struct fp_reach): a row's refinements are a small array searched linearly. A row has a
 * handful in practice (write: a pipe, a tty, a file system or two), and its strings are interned in the footprint,
 * so a match is mostly a pointer compare. Bounded by FP_REACH_MAX: the kept set is the refinements first in byte
 * order, so a refinement is kept iff fewer than FP_REACH_MAX smaller ones were ever seen: what is kept, and its
 * counts, do not depend on the order of calls or of merged footprints.
 */
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "util/xalloc.h"

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int cmp_opt(const char *a, const char *b)
{
	if (!a || !b)
		return a ? 1 : b ? -1 : 0;
	return strcmp(a, b);
}

int fp_reach_cmp_key(const struct fp_reach *a, const struct fp_reach *b)
{
	int c = strcmp(a->kind, b->kind);

	if (!c)
		c = strcmp(a->value, b->value);
	return c ? c : cmp_opt(a->fd, b->fd);
}

struct fp_reach *fp_sysstat_find_reach(const struct fp_sysstat *s, const char *kind, const char *value, const char *fd)
{
	for (uint32_t i = 0; i < s->nreach; i++) {
		struct fp_reach *r = &s->reach[i];

		if (same(r->value, value) && same(r->kind, kind) && same(r->fd, fd))
			return r;
	}
	return NULL;
}

struct fp_reach *fp_sysstat_add_reach(struct fp_sysstat *s, const char *kind, const char *value, const char *fd,
				      uint64_t calls, uint64_t errors)
{
	struct fp_reach *r = fp_sysstat_find_reach(s, kind, value, fd);
	struct fp_reach key = {.kind = kind, .value = value, .fd = fd};
	uint32_t last = 0;

	if (r) {
		r->calls += calls;
		r->errors += errors;
		return r;
	}
	if (s->nreach < FP_REACH_MAX) {
		if (s->nreach == s->reach_cap) {
			s->reach_cap = s->reach_cap ? 2 * s->reach_cap : 4;
			s->reach = xrealloc(s->reach, s->reach_cap * sizeof(*s->reach));
		}
		r = &s->reach[s->nreach++];
	} else {
		/* full: the new one replaces the last in byte order if it comes before it */
		for (uint32_t i = 1; i < s->nreach; i++)
			if (fp_reach_cmp_key(&s->reach[i], &s->reach[last]) > 0)
				last = i;
		if (fp_reach_cmp_key(&key, &s->reach[last]) > 0) {
			s->reach_other += calls;
			return NULL;
		}
		r = &s->reach[last];
		s->reach_other += r->calls;
	}
	*r = key;
	r->calls = calls;
	r->errors = errors;
	return r;
}

static int cmp_count(const void *a, const void *b)
{
	const struct fp_reach *x = *(const struct fp_reach *const *)a, *y = *(const struct fp_reach *const *)b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return fp_reach_cmp_key(x, y);
}

struct fp_reach **fp_sysstat_reach_sorted(const struct fp_sysstat *s)
{
	struct fp_reach **v = xcalloc(s->nreach + 1, sizeof(*v));

	for (uint32_t i = 0; i < s->nreach; i++)
		v[i] = &s->reach[i];
	qsort(v, s->nreach, sizeof(*v), cmp_count);
	return v;
}

void fp_sysstat_reach_release(struct fp_sysstat *s)
{
	free(s->reach);
	s->reach = NULL;
	s->nreach = s->reach_cap = 0;
	s->reach_other = 0;
}

/* Whether s has, or would keep, the refinement (kind, value, fd). */
static bool kept(const struct fp_sysstat *s, const char *kind, const char *value, const char *fd)
{
	struct fp_reach key = {.kind = kind, .value = value, .fd = fd};

	if (s->nreach < FP_REACH_MAX || fp_sysstat_find_reach(s, kind, value, fd))
		return true;
	for (uint32_t i = 0; i < s->nreach; i++)
		if (fp_reach_cmp_key(&key, &s->reach[i]) < 0)
			return true;
	return false;
}

/* Adds to a kept refinement (its strings interned), or counts the calls in reach_other. */
static void add_or_count(struct fp_sysstat *s, const char *kind, const char *value, const char *fd, uint64_t n, int err)
{
	if (kept(s, kind, value, fd))
		fp_sysstat_add_reach(s, kind, value, fd, n, err ? n : 0);
	else
		s->reach_other += n;
}

void fp__reach(struct footprint *fp, struct fp_proc *p, enum kf_abi abi, int nr, const char *kind, const char *value,
	       const char *fd, int err, uint64_t n)
{
	struct fp_sysstat *s = fp_sctab_find(&fp->syscalls, abi, nr);

	fp->reach = true;
	if (!n || !kind || !value)
		return;
	if (!s) {
		/* a backend that reports refinements before the counts (bpf): the row, with none yet */
		fp__account(fp, NULL, abi, nr, 0, 0, 0);
		s = fp_sctab_find(&fp->syscalls, abi, nr);
	}
	/*
	 * Interned only when a row keeps it: a value the workload made up (a mount type) that the full row counts in
	 * reach_other costs no memory.
	 */
	if (kept(s, kind, value, fd) || (p && kept(fp_sctab_get(&p->syscalls, abi, nr, s->name), kind, value, fd))) {
		kind = fp__intern(fp, kind);
		value = fp__intern(fp, value);
		fd = fd ? fp__intern(fp, fd) : NULL;
	}
	add_or_count(s, kind, value, fd, n, err);
	if (p)
		add_or_count(fp_sctab_get(&p->syscalls, abi, nr, s->name), kind, value, fd, n, err);
}
