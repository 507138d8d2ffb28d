// SPDX-License-Identifier: GPL-2.0
/*
 * map -F lcov: the footprint's kernel lines as an lcov tracefile (geninfo(1)'s format), which lcov --summary reads
 * and genhtml turns into the usual coverage pages. One record per covered file: SF its path (absolute in
 * --kernel-src when given, so that genhtml finds the source), FN/FNDA the functions holding a covered line (at
 * their first covered line: functions never entered are not in the line table's view of a file, so they are not
 * listed), DA every compiled line of the file (the vmlinux line table's distinct lines, --vmlinux), 0 when not
 * covered, LF/LH their counts. Without --vmlinux, DA lists the covered lines only, and the record says nothing of
 * the lines not run: the renderer refuses that rather than give a tracefile where everything is covered.
 * gcov's counts (record --kernel-lines=gcov) are the whole guest's: the test name (TN) says so.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/klmap.h"
#include "report/map_report.h"
#include "util/error.h"
#include "util/xalloc.h"

struct fn {
	const char *name;
	uint32_t line;
	uint64_t count;
};

static int cmp_name(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

static int cmp_line(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

/* A function per name at its first line with its largest count, by line: sorted, since a file may hold thousands. */
static void functions(FILE *out, const struct fp_klines *k, const struct klm_file *f)
{
	struct fn *v = xcalloc(f->nlines + 1, sizeof(*v));
	size_t m = 0, n = 0, hit = 0;

	for (uint32_t i = f->first; i < f->first + f->nlines; i++)
		if (k->lines[i].function)
			v[m++] = (struct fn){k->lines[i].function, k->lines[i].line, k->lines[i].count};
	if (m)
		qsort(v, m, sizeof(*v), cmp_name);
	for (size_t i = 0; i < m; i++) {
		if (n && !strcmp(v[n - 1].name, v[i].name)) {
			if (v[i].count > v[n - 1].count)
				v[n - 1].count = v[i].count;
			continue;
		}
		v[n++] = v[i];
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_line);
	for (size_t j = 0; j < n; j++)
		fprintf(out, "FN:%" PRIu32 ",%s\n", v[j].line, v[j].name);
	for (size_t j = 0; j < n; j++)
		fprintf(out, "FNDA:%" PRIu64 ",%s\n", v[j].count, v[j].name);
	for (size_t j = 0; j < n; j++)
		hit += v[j].count > 0; /* gcov's functions of a file include those not run */
	fprintf(out, "FNF:%zu\nFNH:%zu\n", n, hit);
	free(v);
}

static int ready(const struct fp_kernel_map *m)
{
	if (!m->kl)
		return error("-F lcov: the footprint has no kernel lines (record --kernel-lines)");
	if (!m->kl->compiled)
		return error("-F lcov: needs --vmlinux, whose line table gives the lines that were not run");
	return 0;
}

static int render(const struct fp_kernel_map *m, FILE *out)
{
	const struct klmap *kl = m->kl;

	if (ready(m) < 0)
		return -1;
	/* the test name is what a tracefile has to say what its counts are (lcov: letters, digits, _) */
	fprintf(out, "TN:%s\n",
		kl->k->whole_guest ? "kfootprint_gcov_counts_of_the_whole_guest_not_the_workload_alone" : "kfootprint");
	for (size_t i = 0; i < kl->nfiles; i++) {
		const struct klm_file *f = &kl->files[i];
		const struct fp_kline_line *l = &kl->k->lines[f->first], *end = l + f->nlines;
		uint32_t lf = 0, lh = 0;

		if (kl->source_root && f->path[0] != '/')
			fprintf(out, "SF:%s/%s\n", kl->source_root, f->path);
		else
			fprintf(out, "SF:%s\n", f->path);
		functions(out, kl->k, f);
		/* the compiled lines and the covered ones, both sorted: a covered line the table lacks is listed too */
		for (uint32_t j = 0; j < f->ncompiled || l < end;) {
			uint32_t line = j < f->ncompiled ? f->compiled[j] : UINT32_MAX;
			uint64_t count = 0;

			if (l < end && l->line <= line) {
				line = l->line;
				count = l->count; /* gcov's 0: compiled and not run */
				j += j < f->ncompiled && f->compiled[j] == line;
				l++;
				lh += count > 0;
			} else
				j++;
			fprintf(out, "DA:%" PRIu32 ",%" PRIu64 "\n", line, count);
			lf++;
		}
		fprintf(out, "LF:%" PRIu32 "\nLH:%" PRIu32 "\nend_of_record\n", lf, lh);
	}
	return ferror(out) ? -1 : 0;
}

const struct map_renderer map_renderer_lcov = {
    {"lcov", "the footprint's kernel lines as an lcov tracefile (lcov --summary, genhtml); needs --vmlinux"},
    render,
    true,
    ready};
