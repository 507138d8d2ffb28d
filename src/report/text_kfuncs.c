// SPDX-License-Identifier: GPL-2.0
// The text report's kernel functions sections (text_internal.h), for a footprint recorded with
// record --kernel-functions: totals, the most hit functions, and the functions under each syscall.
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_util.h"
#include "report/text_internal.h"
#include "util/xalloc.h"

#define KFUNC_TOP	 20 /* functions in the top table */
#define KFUNC_PER_SC_TOP 8  /* functions named per syscall */

static int cmp_kfunc_hits(const void *a, const void *b)
{
	const struct fp_kfunc *x = *(const struct fp_kfunc *const *)a, *y = *(const struct fp_kfunc *const *)b;

	if (x->hits != y->hits)
		return x->hits > y->hits ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* A syscall's row of the by-syscall list: the functions that ran under it, with their hits there. */
struct kf_sc {
	const char *name;
	uint64_t hits;
	struct kf_sc_fn {
		const char *name, *klass;
		uint64_t hits;
	} * fns;
	size_t n, cap;
};

static int cmp_kf_sc(const void *a, const void *b)
{
	const struct kf_sc *x = a, *y = b;

	if (x->hits != y->hits)
		return x->hits > y->hits ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_kf_sc_fn(const void *a, const void *b)
{
	const struct kf_sc_fn *x = a, *y = b;

	if (x->hits != y->hits)
		return x->hits > y->hits ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void kfuncs_by_syscall(struct strbuf *sb, struct fp_kfunc **v, size_t n, const char *unit)
{
	struct kf_sc *scs = NULL;
	size_t nsc = 0, cap = 0;

	for (size_t i = 0; i < n; i++) {
		for (uint32_t u = 0; u < v[i]->nunder; u++) {
			const struct fp_kfunc_under *un = &v[i]->under[u];
			size_t k = 0;

			while (k < nsc && strcmp(scs[k].name, un->syscall))
				k++;
			if (k == nsc) {
				XGROW(scs, cap, nsc + 1);
				scs[nsc++] = (struct kf_sc){un->syscall, 0, NULL, 0, 0};
			}
			XGROW(scs[k].fns, scs[k].cap, scs[k].n + 1);
			scs[k].fns[scs[k].n++] = (struct kf_sc_fn){v[i]->name, v[i]->annot.klass, un->hits};
			scs[k].hits += un->hits;
		}
	}
	if (!nsc)
		return;
	qsort(scs, nsc, sizeof(*scs), cmp_kf_sc);
	strbuf_addstr(sb, "\nkernel functions, by the syscall they ran under\n");
	for (size_t k = 0; k < nsc; k++) {
		struct kf_sc *c = &scs[k];
		const char *klasses[KFUNC_PER_SC_TOP];
		size_t nk = 0;

		qsort(c->fns, c->n, sizeof(*c->fns), cmp_kf_sc_fn);
		strbuf_addf(sb, "  %s: %zu %s, %" PRIu64 " %s:", c->name, c->n,
			    text_plural(c->n, "function", "functions"), c->hits, unit);
		for (size_t i = 0; i < c->n && i < KFUNC_PER_SC_TOP; i++)
			strbuf_addf(sb, "%s %s %" PRIu64, i ? "," : "", c->fns[i].name, c->fns[i].hits);
		if (c->n > KFUNC_PER_SC_TOP)
			strbuf_addstr(sb, ", ...");
		/* the subsystems, once the functions are mapped (kfootprint map) */
		for (size_t i = 0; i < c->n && nk < KFUNC_PER_SC_TOP; i++) {
			bool seen = !c->fns[i].klass;

			for (size_t j = 0; j < nk && !seen; j++)
				seen = !strcmp(klasses[j], c->fns[i].klass);
			if (!seen)
				klasses[nk++] = c->fns[i].klass;
		}
		for (size_t j = 0; j < nk; j++)
			strbuf_addf(sb, "%s%s", j ? ", " : " (subsystems: ", klasses[j]);
		strbuf_addstr(sb, nk ? ")\n" : "\n");
		free(c->fns);
	}
	free(scs);
}

/*
 * The kernel functions the workload ran: a line of totals and how they were recorded (a sampled set says it is
 * not exhaustive), the most hit ones, and per syscall the functions that ran under it.
 */
void text_kfuncs_section(struct strbuf *sb, const struct footprint *fp)
{
	const struct fp_kfuncs *k = fp->kfuncs;
	struct fp_kfunc **v;
	uint64_t hits = 0;
	bool sampled;

	if (!k)
		return;
	sampled = !strcmp(k->method, "sampled");
	strbuf_addstr(sb, "\nkernel functions: ");
	if (k->why_not && !k->nfuncs) {
		strbuf_addstr(sb, "not recorded: ");
		rpt_add_display(sb, k->why_not);
		strbuf_addch(sb, '\n');
		return;
	}
	v = fp_kfuncs_sorted(fp);
	for (uint32_t i = 0; i < k->nfuncs; i++)
		hits += v[i]->hits;
	qsort(v, k->nfuncs, sizeof(*v), cmp_kfunc_hits);
	strbuf_addf(sb, "%u %s", k->nfuncs, text_plural(k->nfuncs, "function", "functions"));
	if (!sampled)
		strbuf_addf(sb, ", %" PRIu64 " %s", hits, text_plural(hits, "call", "calls"));
	strbuf_addf(sb, " (%s%s: %s), %" PRIu64 " lost\n", sampled ? "sampled kernel stacks" : k->method,
		    !strcmp(k->method, "function") || !strcmp(k->method, "function_graph") ? " tracer" : "",
		    k->exhaustive ? "exhaustive" : "sampled, not exhaustive", k->lost);
	if (k->nfuncs) {
		struct text_table t = {.ncols = 3,
				       .heads = {"function", sampled ? "samples" : "calls", "under syscalls"},
				       .right = {false, true, false}};

		strbuf_addf(sb, "\nkernel functions, top %d by %s%s\n", KFUNC_TOP, sampled ? "samples" : "calls",
			    sampled ? " (sampled, not exhaustive)" : "");
		for (uint32_t i = 0; i < k->nfuncs && i < KFUNC_TOP; i++) {
			struct strbuf under = STRBUF_INIT;
			struct kf_sc_fn *u = xcalloc(v[i]->nunder + 1, sizeof(*u));
			char *cells[3];

			for (uint32_t j = 0; j < v[i]->nunder; j++)
				u[j] = (struct kf_sc_fn){v[i]->under[j].syscall, NULL, v[i]->under[j].hits};
			qsort(u, v[i]->nunder, sizeof(*u), cmp_kf_sc_fn);
			for (uint32_t j = 0; j < v[i]->nunder && j < 4; j++)
				strbuf_addf(&under, "%s%s %" PRIu64, j ? ", " : "", u[j].name, u[j].hits);
			free(u);
			if (v[i]->nunder > 4 || v[i]->under_other)
				strbuf_addstr(&under, ", ...");
			cells[0] = xstrdup(v[i]->name);
			cells[1] = xasprintf("%" PRIu64, v[i]->hits);
			cells[2] = strbuf_detach(&under);
			text_table_add(&t, cells);
		}
		text_table_print(sb, "", &t);
		kfuncs_by_syscall(sb, v, k->nfuncs, sampled ? "samples" : "calls");
	}
	free(v);
}
