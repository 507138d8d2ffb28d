// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel functions of a footprint (record --kernel-functions): a hash by name, since a workload reaches tens
 * of thousands of distinct functions and a tracer reports every call. Names are not interned with
 * fp__intern(), whose linear search is meant for a few hundred syscall names.
 */
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "footprint/footprint_json_read.h"
#include "footprint/merge.h"
#include "util/xalloc.h"

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

struct fp_kfuncs *fp__kfuncs(struct footprint *fp, const char *method, bool exhaustive)
{
	if (!fp->kfuncs) {
		fp->kfuncs = xcalloc(1, sizeof(*fp->kfuncs));
		fp->kfuncs->method = method;
		fp->kfuncs->exhaustive = exhaustive;
	}
	return fp->kfuncs;
}

static void grow(struct fp_kfuncs *k)
{
	uint32_t cap = k->cap ? k->cap * 2 : 256;
	struct fp_kfunc **slots = xcalloc(cap, sizeof(*slots));

	for (uint32_t i = 0; i < k->cap; i++) {
		uint32_t j;

		if (!k->funcs[i])
			continue;
		for (j = name_hash(k->funcs[i]->name) & (cap - 1); slots[j]; j = (j + 1) & (cap - 1))
			;
		slots[j] = k->funcs[i];
	}
	free(k->funcs);
	k->funcs = slots;
	k->cap = cap;
}

struct fp_kfunc *fp__kfunc(struct footprint *fp, const char *name)
{
	struct fp_kfuncs *k = fp__kfuncs(fp, "function", true);
	uint32_t j;

	if (2 * (k->nfuncs + 1) > k->cap)
		grow(k);
	for (j = name_hash(name) & (k->cap - 1); k->funcs[j]; j = (j + 1) & (k->cap - 1))
		if (!strcmp(k->funcs[j]->name, name))
			return k->funcs[j];
	k->funcs[j] = xcalloc(1, sizeof(**k->funcs));
	k->funcs[j]->name = xstrdup(name);
	k->nfuncs++;
	return k->funcs[j];
}

/*
 * Keeps the FP_KFUNC_UNDER_MAX names first in byte order, as fp_errsrc_add_proc() does, so that merging stays
 * commutative and associative byte for byte.
 */
void fp_kfunc_add_under(struct fp_kfunc *f, const char *syscall, uint64_t n)
{
	uint32_t last = 0;

	for (uint32_t i = 0; i < f->nunder; i++) {
		if (!strcmp(f->under[i].syscall, syscall)) {
			f->under[i].hits += n;
			return;
		}
		if (strcmp(f->under[i].syscall, f->under[last].syscall) > 0)
			last = i;
	}
	if (f->nunder < FP_KFUNC_UNDER_MAX) {
		f->under = xrealloc(f->under, (f->nunder + 1) * sizeof(*f->under));
		f->under[f->nunder++] = (struct fp_kfunc_under){xstrdup(syscall), n};
	} else if (strcmp(syscall, f->under[last].syscall) < 0) {
		f->under_other += f->under[last].hits;
		free((char *)f->under[last].syscall);
		f->under[last] = (struct fp_kfunc_under){xstrdup(syscall), n};
	} else {
		f->under_other += n;
	}
}

void fp__kfunc_hit(struct footprint *fp, const char *name, const char *under_syscall, uint64_t n)
{
	struct fp_kfunc *f = fp__kfunc(fp, name);

	f->hits += n;
	if (under_syscall)
		fp_kfunc_add_under(f, under_syscall, n);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp((*(struct fp_kfunc *const *)a)->name, (*(struct fp_kfunc *const *)b)->name);
}

struct fp_kfunc **fp_kfuncs_sorted(const struct footprint *fp)
{
	const struct fp_kfuncs *k = fp->kfuncs;
	struct fp_kfunc **v = xcalloc((k ? k->nfuncs : 0) + 1, sizeof(*v));
	uint32_t n = 0;

	for (uint32_t i = 0; k && i < k->cap; i++)
		if (k->funcs[i])
			v[n++] = k->funcs[i];
	qsort(v, n, sizeof(*v), cmp_name);
	return v;
}

void fp_kfuncs_free(struct fp_kfuncs *k)
{
	if (!k)
		return;
	for (uint32_t i = 0; i < k->cap; i++) {
		struct fp_kfunc *f = k->funcs[i];

		if (!f)
			continue;
		for (uint32_t j = 0; j < f->nunder; j++)
			free((char *)f->under[j].syscall);
		free(f->under);
		free((char *)f->name);
		free(f);
	}
	free(k->funcs);
	free(k->why_not);
	free(k);
}

/*
 * Kernel functions are summed as error sources are (add_errsrc): an input whose sources are all new is added;
 * one holding every source m had replaces m's; one sharing only some cannot be split, so m's are kept and say
 * they are not exhaustive. The method is kept when every input has the same, else "mixed"; a source without
 * kernel functions makes the set not exhaustive.
 */
static void add(struct footprint *m, const struct footprint *in, uint32_t had)
{
	const struct fp_kfuncs *k = in->kfuncs;
	struct fp_kfuncs *mk;
	struct fp_kfunc **v;

	if (!k) {
		if (m->kfuncs)
			m->kfuncs->exhaustive = false;
		return;
	}
	mk = m->kfuncs;
	if (!mk) {
		mk = fp__kfuncs(m, k->method, k->exhaustive && !had);
	} else {
		if (strcmp(mk->method, k->method))
			mk->method = "mixed";
		mk->exhaustive = mk->exhaustive && k->exhaustive;
	}
	mk->lost = fp_sat_add(mk->lost, k->lost);
	if (k->why_not && (!mk->why_not || strcmp(k->why_not, mk->why_not) < 0)) {
		free(mk->why_not);
		mk->why_not = xstrdup(k->why_not);
	}
	v = fp_kfuncs_sorted(in);
	for (struct fp_kfunc **fpp = v; *fpp; fpp++) {
		const struct fp_kfunc *f = *fpp;
		struct fp_kfunc *to = fp__kfunc(m, f->name);

		to->hits = fp_sat_add(to->hits, f->hits);
		to->under_other = fp_sat_add(to->under_other, f->under_other);
		for (uint32_t i = 0; i < f->nunder; i++)
			fp_kfunc_add_under(to, f->under[i].syscall, f->under[i].hits);
	}
	free(v);
}

static void merge(struct footprint *m, const struct footprint *in, uint32_t had, enum fp_merge_how how)
{
	switch (how) {
	case FP_MERGE_ADD: add(m, in, had); break;
	case FP_MERGE_REPLACE:
		fp_kfuncs_free(m->kfuncs);
		m->kfuncs = NULL;
		add(m, in, 0);
		break;
	case FP_MERGE_PARTIAL:
		if (m->kfuncs)
			m->kfuncs->exhaustive = false;
		break;
	case FP_MERGE_NONE: break;
	}
}

static void release(struct footprint *fp)
{
	fp_kfuncs_free(fp->kfuncs);
	fp->kfuncs = NULL;
}

const struct fp_kind fp_kind_kfuncs = {"kernel_functions", release, merge, fp_kfuncs_write_json, ld_load_kfuncs};
