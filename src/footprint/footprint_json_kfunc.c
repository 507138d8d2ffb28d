// SPDX-License-Identifier: GPL-2.0
/*
 * The kfootprint/1 "kernel_functions" member, written and read (footprint_json_read.h): the kernel functions a
 * workload executed. A function's "kernel" object is kept as its place
 * (fp_annot.loaded); the annotate stage makes the object itself again.
 */
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "footprint/footprint_json.h"
#include "footprint/footprint_json_read.h"
#include "util/xalloc.h"

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
		before = fp->kfuncs->nfuncs;
		f = fp__kfunc(fp, scratch.name);
		if (fp->kfuncs->nfuncs == before) {
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

int ld_load_kfuncs(struct loader *ld)
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
void fp_kfuncs_write_json(json_writer_t *w, const struct footprint *fp)
{
	const struct fp_kfuncs *k = fp->kfuncs;
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
