// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel functions of a footprint (record --kernel-functions): a hash by name, since a workload reaches tens
 * of thousands of distinct functions and a tracer reports every call. Names are not interned with
 * fp__intern(), whose linear search is meant for a few hundred syscall names. Then its kfootprint/1 member,
 * "kernel_functions", written and read (footprint_json_read.h): a function's "kernel" object is kept as its place
 * (fp_annot.loaded); the annotate stage makes the object itself again. Last, the kind's row.
 */
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint_json.h"
#include "footprint/footprint_json_read.h"
#include "footprint/kfunc.h"
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
	struct fp_kfuncs **k = (struct fp_kfuncs **)fp_kind_slot(fp, &fp_kind_kfuncs);

	if (!*k) {
		*k = xcalloc(1, sizeof(**k));
		(*k)->method = method;
		(*k)->exhaustive = exhaustive;
	}
	return *k;
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
	const struct fp_kfuncs *k = fp_kfuncs_of(fp);
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
	const struct fp_kfuncs *k = fp_kfuncs_of(in);
	struct fp_kfuncs *mk;
	struct fp_kfunc **v;

	if (!k) {
		if (fp_kfuncs_of(m))
			fp_kfuncs_of(m)->exhaustive = false;
		return;
	}
	mk = fp_kfuncs_of(m);
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
		fp_kfuncs_free(fp_kfuncs_of(m));
		*fp_kind_slot(m, &fp_kind_kfuncs) = NULL;
		add(m, in, 0);
		break;
	case FP_MERGE_PARTIAL:
		if (fp_kfuncs_of(m))
			fp_kfuncs_of(m)->exhaustive = false;
		break;
	case FP_MERGE_NONE: break;
	}
}

static void release(struct footprint *fp)
{
	fp_kfuncs_free(fp_kfuncs_of(fp));
	*fp_kind_slot(fp, &fp_kind_kfuncs) = NULL;
}

/* A kernel symbol as kallsyms prints it: no empty name, no space or control byte, bounded. */
static bool valid_symbol(const char *s, size_t len)
{
	if (!len || len > 512 || strlen(s) != len)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

/* One member of a function's "under": syscall name -> hits, into the function being read. */
static int load_under(struct loader *ld, const char *ctx, void *arg)
{
	struct fp_kfunc *f = arg;
	char name[64];
	uint64_t hits = 0;
	uint32_t before = f->nunder;
	enum jr_event ev;

	if (!ld_valid_sc_name(ld->jr.text.buf) || ld->jr.text.len >= sizeof(name))
		return ld_fail(ld, ctx, NULL, "'%.64s' is not a syscall name", ld->jr.text.buf);
	snprintf(name, sizeof(name), "%s", ld->jr.text.buf);
	if (f->nunder == FP_KFUNC_UNDER_MAX)
		return ld_fail(ld, ctx, NULL, "more than %u syscalls", FP_KFUNC_UNDER_MAX);
	if (ld_value_of(ld, ctx, name, JR_NUMBER, true, OPT, &ev) < 0 ||
	    ld_to_count(ld, ctx, name, COUNT_MAX, &hits) < 0)
		return -1;
	fp_kfunc_add_under(f, name, hits);
	if (f->nunder == before)
		return ld_fail(ld, ctx, name, "given twice");
	return 0;
}

/* {"name", "hits", "under", "under_other", "kernel"} */
static int load_func(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"name", "hits", "under", "under_other", "kernel"};
	enum { NAME, HITS, UNDER, UNDER_OTHER, KERNEL };
	const struct fp_kplace *place = NULL;
	struct footprint *fp = ld->fp;
	struct fp_kfunc scratch = {0}, *f;
	uint64_t sum = 0;
	uint32_t seen = 0, before;
	bool over = false;
	enum jr_event ev;
	int k, rc;

	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case NAME:
			rc = ld_value_of(ld, ctx, "name", JR_STRING, false, OPT, &ev);
			if (rc > 0 && !valid_symbol(ld->jr.text.buf, ld->jr.text.len))
				rc = ld_fail(ld, ctx, "name", "'%.64s' is not a kernel symbol", ld->jr.text.buf);
			if (rc > 0)
				scratch.name = xstrdup(ld->jr.text.buf);
			break;
		case HITS: rc = ld_get_count(ld, ctx, "hits", COUNT_MAX, &scratch.hits); break;
		case UNDER: rc = ld_keyed(ld, ctx, "under", load_under, &scratch); break;
		case UNDER_OTHER: rc = ld_get_count(ld, ctx, "under_other", COUNT_MAX, &scratch.under_other); break;
		case KERNEL: rc = ld_get_place(ld, &place); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			break;
	}
	if (rc >= 0 && (!(seen & 1u << NAME) || !(seen & 1u << HITS)))
		rc = ld_fail(ld, ctx, seen & 1u << NAME ? "hits" : "name", "missing");
	over = __builtin_add_overflow(sum, scratch.under_other, &sum);
	for (uint32_t i = 0; i < scratch.nunder; i++)
		over |= __builtin_add_overflow(sum, scratch.under[i].hits, &sum);
	if (rc >= 0 && (over || sum > scratch.hits))
		rc = ld_fail(ld, ctx, "under", "the hits add up to more than the function's");
	if (rc >= 0) {
		before = fp_kfuncs_of(fp)->nfuncs;
		f = fp__kfunc(fp, scratch.name);
		if (fp_kfuncs_of(fp)->nfuncs == before) {
			rc = ld_fail(ld, ctx, "name", "'%.64s' given twice", scratch.name);
		} else {
			f->hits = scratch.hits;
			f->under = scratch.under;
			f->nunder = scratch.nunder;
			f->under_other = scratch.under_other;
			f->annot.loaded = place;
			scratch.under = NULL;
			scratch.nunder = 0;
		}
	}
	for (uint32_t i = 0; i < scratch.nunder; i++)
		free((char *)scratch.under[i].syscall);
	free(scratch.under);
	free((char *)scratch.name);
	return rc < 0 ? -1 : 0;
}

static const char *const methods[] = {"function_graph", "function", "sampled", "mixed"};

static int read_json(struct loader *ld)
{
	static const char *const names[] = {"method", "exhaustive", "lost", "why_not", "functions"};
	enum { METHOD, EXHAUSTIVE, LOST, WHY_NOT, FUNCTIONS };
	const char *ctx = "kernel_functions";
	struct fp_kfuncs *kf;
	uint32_t seen = 0;
	enum jr_event ev;
	int k, rc;

	rc = ld_value_of(ld, "", ctx, JR_OBJECT, false, OPT, &ev);
	if (rc <= 0)
		return rc;
	kf = fp__kfuncs(ld->fp, NULL, false);
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case METHOD:
			rc = ld_value_of(ld, ctx, "method", JR_STRING, false, OPT, &ev);
			for (size_t i = 0; rc > 0 && i < sizeof(methods) / sizeof(methods[0]); i++)
				if (!strcmp(methods[i], ld->jr.text.buf))
					kf->method = methods[i];
			if (rc > 0 && !kf->method)
				rc = ld_fail(ld, ctx, "method", "unknown method '%.64s'", ld->jr.text.buf);
			break;
		case EXHAUSTIVE: rc = ld_get_bool(ld, ctx, "exhaustive", &kf->exhaustive); break;
		case LOST: rc = ld_get_count(ld, ctx, "lost", COUNT_MAX, &kf->lost); break;
		case WHY_NOT: rc = ld_get_str(ld, ctx, "why_not", &kf->why_not); break;
		case FUNCTIONS: rc = ld_objects(ld, ctx, "functions", load_func, NULL); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	for (int i = METHOD; i <= LOST; i++)
		if (!(seen & 1u << i))
			return ld_fail(ld, ctx, names[i], "missing");
	if (!(seen & 1u << FUNCTIONS))
		return ld_fail(ld, ctx, "functions", "missing");
	if (!strcmp(kf->method, "sampled") && kf->exhaustive)
		return ld_fail(ld, ctx, "exhaustive", "sampled stacks are not exhaustive");
	return 0;
}

static int cmp_under(const void *a, const void *b)
{
	return strcmp(((const struct fp_kfunc_under *)a)->syscall, ((const struct fp_kfunc_under *)b)->syscall);
}

/*
 * "kernel_functions": {"method", "exhaustive", "lost", "why_not" (when set), "functions": [{"name", "hits",
 * "under": {"write": 3} (when known), "kernel": {...} (when mapped)}]}, functions by name.
 */
static void write_json(json_writer_t *w, const struct footprint *fp)
{
	const struct fp_kfuncs *k = fp_kfuncs_of(fp);
	struct fp_kfunc **v;

	if (!k)
		return;
	v = fp_kfuncs_sorted(fp);

	jsonw_name(w, "kernel_functions");
	jsonw_start_object(w);
	jsonw_string_field(w, "method", k->method);
	jsonw_bool_field(w, "exhaustive", k->exhaustive);
	jsonw_u64_field(w, "lost", k->lost);
	if (k->why_not)
		jsonw_string_field(w, "why_not", k->why_not);
	jsonw_name(w, "functions");
	jsonw_start_array(w);
	for (struct fp_kfunc **fpp = v; *fpp; fpp++) {
		const struct fp_kfunc *f = *fpp;

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "name", f->name);
		jsonw_u64_field(w, "hits", f->hits);
		if (f->nunder || f->under_other) {
			struct fp_kfunc_under *u = xcalloc(f->nunder + 1, sizeof(*u));

			memcpy(u, f->under, f->nunder * sizeof(*u));
			qsort(u, f->nunder, sizeof(*u), cmp_under);
			jsonw_name(w, "under");
			jsonw_start_object_inline(w);
			for (uint32_t i = 0; i < f->nunder; i++)
				jsonw_u64_field(w, u[i].syscall, u[i].hits);
			jsonw_end_object(w);
			free(u);
			if (f->under_other)
				jsonw_u64_field(w, "under_other", f->under_other);
		}
		fp_write_kernel(w, &f->annot);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
	free(v);
}

/* The kind's parts in the stages above the model (declared there; an incomplete type is all a row needs). */
extern const struct trace_recorder trace_recorder_kfuncs; /* trace/kfuncs.c */
extern const struct kind_annotator kfmap_annotator;	  /* kmap/kfmap.c */
extern const struct kind_report kfuncs_report;		  /* report/kfuncs.c */

const struct fp_kind fp_kind_kfuncs = {
    .member = "kernel_functions",
    .release = release,
    .merge = merge,
    .write_json = write_json,
    .read_json = read_json,
    .recorder = &trace_recorder_kfuncs,
    .annotator = &kfmap_annotator,
    .report = &kfuncs_report,
};
