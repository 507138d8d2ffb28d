// SPDX-License-Identifier: GPL-2.0
/*
 * The report sections of the kind "kernel functions" (kind_report.h), for a footprint recorded with record
 * --kernel-functions. The text report's: totals, the most hit functions, and the functions under each syscall.
 * A mapping's: how the names were resolved, the roll-ups per directory, option and MAINTAINERS section, and each
 * function's chain, as text, as the JSON member, as reStructuredText tables; and the heading of the functions'
 * part of the Kconfig fragment (whose lines come from the mapping's needs, map_kconfig.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/kfunc.h"
#include "kmap/kfmap.h"
#include "report/kind_report.h"
#include "report/map_report.h"
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
static void text_section(struct strbuf *sb, const struct footprint *fp)
{
	const struct fp_kfuncs *k = fp_kfuncs_of(fp);
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

static const char *summary(const struct kfmap *kf, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%zu functions: %zu with one definition, %zu resolved by DWARF, %zu by symbol order, %zu ambiguous, "
		 "%zu not in the source tree",
		 kf->nrows, kf->count[KFM_UNIQUE], kf->count[KFM_DWARF], kf->count[KFM_KALLSYMS],
		 kf->count[KFM_AMBIGUOUS], kf->count[KFM_UNKNOWN]);
	return buf;
}

static const char *method(const struct kfmap *kf, char *buf, size_t len)
{
	if (kf->exhaustive)
		snprintf(buf, len, "%s, exhaustive, %" PRIu64 " lost", kf->method, kf->lost);
	else if (!strcmp(kf->method, "sampled"))
		snprintf(buf, len, "sampled, not exhaustive, %" PRIu64 " lost", kf->lost);
	else
		snprintf(buf, len, "%s, partly sampled, not exhaustive, %" PRIu64 " lost", kf->method, kf->lost);
	return buf;
}

static void counts(FILE *out, const char *title, const char *prefix, const struct kfm_count *v, size_t n)
{
	size_t width = 0;

	fprintf(out, "\nby %s: %zu (functions, hits)\n", title, n);
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i].key) + strlen(prefix) > width)
			width = strlen(v[i].key) + strlen(prefix);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %s%-*s  %5zu  %" PRIu64 "\n", prefix, (int)(width - strlen(prefix)), v[i].key,
			v[i].funcs, v[i].hits);
}

static void map_text_kf(const struct kfmap *kf, FILE *out)
{
	char buf[1024];

	fprintf(out, "\nKernel functions (%s)\n", method(kf, buf, sizeof(buf)));
	fprintf(out, "source:         Linux %s (%s)%s%s\n", kf->db->version, kf->db->origin, kf->db->scope ? "; " : "",
		kf->db->scope ? kf->db->scope : "");
	fprintf(out, "%s\n", summary(kf, buf, sizeof(buf)));
	fprintf(out, "symbol order:   %s%s%s\n", kf->kallsyms ? kf->kallsyms : "not used",
		kf->kallsyms_note ? ": " : "", kf->kallsyms_note ? kf->kallsyms_note : "");
	fprintf(out, "DWARF:          %s\n",
		kf->vmlinux	 ? kf->vmlinux
		: kf->dwarf_note ? kf->dwarf_note
				 : "not used (no --vmlinux)");
	if (kf->db->unparsed)
		fprintf(out, "not indexed:    %zu MACRO(...) { definitions of the tree (%s)\n", kf->db->unparsed,
			kf->db->unparsed_top);
	counts(out, "directory", "", kf->dirs, kf->ndirs);
	counts(out, "option", "CONFIG_", kf->opts, kf->nopts);
	counts(out, "MAINTAINERS section", "", kf->sections, kf->nsections);
	counts(out, "file", "", kf->files, kf->nfiles);
	fprintf(out, "\n%zu functions, each with its chain\n", kf->nrows);
	for (size_t i = 0; i < kf->nrows; i++) {
		const struct kfm_row *r = &kf->rows[i];

		fprintf(out, "%s  hits %" PRIu64 "  [%s]\n", r->name, r->hits, kfm_how_name(r->how));
		if (r->file >= 0) {
			const struct kfdb_file *f = kfdb_file(kf->db, (uint32_t)r->file);

			fprintf(out, "    %-12s%s\n", "defined at", kfm_row_where(r, buf, sizeof(buf)));
			if (f->object)
				fprintf(out, "    %-12s%s by %s:%d%s%s\n", "built as", f->object,
					f->makefile ? f->makefile : "?", f->mline,
					f->included_by ? ", #included by " : "", f->included_by ? f->included_by : "");
			else if (f->why)
				fprintf(out, "    %-12s%s\n", "built as", f->why);
			fprintf(out, "    %-12s", "options");
			for (size_t k = 0; k < f->nopts; k++)
				fprintf(out, "%s%s", k ? ", " : "", f->opts[k]);
			fprintf(out, "%s\n", f->nopts ? "" : f->object ? "none: always built" : "none known");
			fprintf(out, "    %-12s%s\n", "section", f->section ? f->section : "none");
		} else if (r->ncands) {
			fprintf(out, "    %-12s", "candidates");
			for (size_t k = 0; k < r->ncands; k++)
				fprintf(out, "%s%s:%d", k ? ", " : "", kf->db->files[r->cands[k].file].path,
					r->cands[k].line);
			fputc('\n', out);
		}
		if (r->note)
			fprintf(out, "    %-12s%s\n", "note", r->note);
	}
}

static void map_json_kf(json_writer_t *w, const struct kfmap *kf)
{
	jsonw_name(w, "kernel_functions");
	if (!kf) {
		jsonw_null(w);
		return;
	}
	jsonw_start_object(w);
	jsonw_name(w, "summary");
	kfmap_json(w, kf);
	jsonw_name(w, "functions");
	jsonw_start_array(w);
	for (size_t i = 0; i < kf->nrows; i++) {
		const struct kfm_row *r = &kf->rows[i];

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "name", r->name);
		jsonw_u64_field(w, "hits", r->hits);
		jsonw_name(w, "kernel");
		kfmap_json_row(w, r);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
}

static void kf_counts(FILE *out, const char *col, const char *prefix, const struct kfm_count *v, size_t n)
{
	const char *cols[] = {col, "Functions", "Hits"};
	char buf[512];

	if (!n) {
		fputs("None.\n\n", out);
		return;
	}
	rst_header_rows(out, cols, 3);
	for (size_t i = 0; i < n; i++) {
		rst_cell_start(out, true);
		snprintf(buf, sizeof(buf), "%s%s", prefix, v[i].key);
		rst_lit(out, buf);
		fprintf(out, "\n     - %zu\n     - %" PRIu64 "\n", v[i].funcs, v[i].hits);
	}
	fputc('\n', out);
}

static void map_rst_kf(FILE *out, const struct kfmap *kf)
{
	static const char *const cols[] = {
	    "Function", "Hits", "Resolved by", "Defined at", "Options", "MAINTAINERS section", "Notes"};
	char buf[1024];

	rst_heading(out, "Kernel functions", '-');
	fputs(":Recorded: ", out);
	rst_esc(out, method(kf, buf, sizeof(buf)));
	fputs("\n:Resolution: ", out);
	rst_esc(out, summary(kf, buf, sizeof(buf)));
	fputs("\n:Symbol order: ", out);
	rst_esc(out, kf->kallsyms ? kf->kallsyms : "not used");
	if (kf->kallsyms_note) {
		fputs(" (", out);
		rst_esc(out, kf->kallsyms_note);
		fputc(')', out);
	}
	fputs("\n:DWARF: ", out);
	rst_esc(out, kf->vmlinux ? kf->vmlinux : kf->dwarf_note ? kf->dwarf_note : "not used");
	fputs("\n\n", out);
	rst_heading(out, "Kernel functions per directory", '~');
	kf_counts(out, "Directory", "", kf->dirs, kf->ndirs);
	rst_heading(out, "Kernel functions per option", '~');
	kf_counts(out, "Option", "CONFIG_", kf->opts, kf->nopts);
	rst_heading(out, "Kernel functions per MAINTAINERS section", '~');
	kf_counts(out, "Section", "", kf->sections, kf->nsections);
	rst_heading(out, "Kernel functions, each with its chain", '~');
	rst_header_rows(out, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t i = 0; i < kf->nrows; i++) {
		const struct kfm_row *r = &kf->rows[i];
		const struct kfdb_file *f = r->file >= 0 ? kfdb_file(kf->db, (uint32_t)r->file) : NULL;

		rst_cell_start(out, true);
		rst_lit(out, r->name);
		fprintf(out, "\n     - %" PRIu64 "\n", r->hits);
		rst_cell_text(out, kfm_how_name(r->how));
		rst_cell_lit(out, kfm_row_where(r, buf, sizeof(buf)));
		rst_cell_list(out, f ? f->opts : NULL, f ? f->nopts : 0, true);
		rst_cell_text(out, f ? f->section : NULL);
		rst_cell_text(out, r->note);
	}
	fputc('\n', out);
}

static void map_text(const struct fp_kernel_map *m, FILE *out)
{
	if (m->kf)
		map_text_kf(m->kf, out);
}

static void map_json(json_writer_t *w, const struct fp_kernel_map *m)
{
	map_json_kf(w, m->kf);
}

static void map_rst(const struct fp_kernel_map *m, FILE *out)
{
	if (m->kf)
		map_rst_kf(out, m->kf);
}

static void map_kconfig(const struct fp_kernel_map *m, FILE *out)
{
	const struct kfmap *kf = m->kf;
	char how[256], sum[512];

	if (!kf)
		return;
	fprintf(out, "\n# kernel functions (%s): %s\n", method(kf, how, sizeof(how)), summary(kf, sum, sizeof(sum)));
	if (kf->count[KFM_AMBIGUOUS] || kf->count[KFM_UNKNOWN])
		fputs("# the options of ambiguous functions and of those not in the source tree are not included\n",
		      out);
}

const struct kind_report kfuncs_report = {
    .text = text_section,
    .map_text = map_text,
    .map_json = map_json,
    .map_rst = map_rst,
    .map_kconfig = map_kconfig,
};
