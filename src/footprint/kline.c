// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lines of a footprint (record --kernel-lines): the tasks in the order kcov met them, the distinct PCs and
 * the lines each in a sorted array. A workload's kcov areas hold up to millions of PCs, of a few tens of thousands
 * of distinct ones, so an area is sorted once and merged into the set, never inserted PC by PC. Then the kind's row.
 */
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint_json_read.h"
#include "footprint/kline.h"
#include "util/xalloc.h"

struct fp_klines *fp__klines(struct footprint *fp, enum fp_kline_method m)
{
	struct fp_klines **k = (struct fp_klines **)fp_kind_slot(fp, &fp_kind_klines);

	if (!*k) {
		*k = xcalloc(1, sizeof(**k));
		(*k)->method = m;
		(*k)->whole_guest = m == FP_KLINE_GCOV;
	}
	return *k;
}

struct fp_kline_task *fp__kline_task(struct fp_klines *k, pid_t tid, pid_t tgid, const char *comm)
{
	struct fp_kline_task *t;

	k->tasks = xrealloc(k->tasks, ((size_t)k->ntasks + 1) * sizeof(*k->tasks));
	t = &k->tasks[k->ntasks++];
	*t = (struct fp_kline_task){.tid = tid, .tgid = tgid, .comm = comm ? xstrdup(comm) : NULL};
	return t;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

void fp_kline_add_pcs(struct fp_klines *k, const uint64_t *pcs, size_t n)
{
	uint64_t *s;
	struct fp_kline_pc *m;
	size_t ns = 0, i = 0, j = 0, o = 0;

	if (!n)
		return;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, pcs, n * sizeof(*s));
	qsort(s, n, sizeof(*s), u64_cmp);
	for (size_t r = 0; r < n; r++)
		if (!ns || s[ns - 1] != s[r])
			s[ns++] = s[r];
	m = xmalloc((k->npcs + ns) * sizeof(*m));
	while (i < k->npcs || j < ns) {
		if (j == ns || (i < k->npcs && k->pcs[i].pc < s[j]))
			m[o++] = k->pcs[i++];
		else if (i == k->npcs || s[j] < k->pcs[i].pc)
			m[o++] = (struct fp_kline_pc){.pc = s[j++], .hits = 1};
		else {
			m[o] = k->pcs[i++];
			m[o++].hits++;
			j++;
		}
	}
	free(s);
	free(k->pcs);
	k->pcs = m;
	k->npcs = (uint32_t)o;
}

static int line_cmp(const char *file, uint32_t line, const struct fp_kline_line *l)
{
	int c = strcmp(file, l->file);

	return c ? c : (line > l->line) - (line < l->line);
}

/* The index of (file, line), or the one it would take (*found false). */
static uint32_t line_at(const struct fp_klines *k, const char *file, uint32_t line, bool *found)
{
	uint32_t lo = 0, hi = k->nlines;

	*found = false;
	/* the symbolizer and gcov's reader add in order: the end first */
	if (k->nlines && line_cmp(file, line, &k->lines[k->nlines - 1]) > 0)
		return k->nlines;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = line_cmp(file, line, &k->lines[mid]);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void fp_kline_add_line(struct fp_klines *k, const char *file, uint32_t line, uint64_t count, const char *function)
{
	bool found;
	uint32_t at = line_at(k, file, line, &found);
	struct fp_kline_line *l;

	if (found) {
		l = &k->lines[at];
		l->count = __builtin_add_overflow(l->count, count, &l->count) ? UINT64_MAX : l->count;
		if (!l->function && function)
			l->function = xstrdup(function);
		return;
	}
	k->lines = xrealloc(k->lines, ((size_t)k->nlines + 1) * sizeof(*k->lines));
	memmove(&k->lines[at + 1], &k->lines[at], (k->nlines - at) * sizeof(*k->lines));
	k->nlines++;
	k->lines[at] = (struct fp_kline_line){
	    .file = xstrdup(file), .line = line, .count = count, .function = function ? xstrdup(function) : NULL};
}

const struct fp_kline_line *fp_kline_find(const struct fp_klines *k, const char *file, uint32_t line)
{
	bool found;
	uint32_t at = line_at(k, file, line, &found);

	return found ? &k->lines[at] : NULL;
}

void fp_klines_free(struct fp_klines *k)
{
	if (!k)
		return;
	for (uint32_t i = 0; i < k->ntasks; i++) {
		free(k->tasks[i].comm);
		free(k->tasks[i].why_not);
	}
	for (uint32_t i = 0; i < k->nlines; i++) {
		free(k->lines[i].file);
		free(k->lines[i].function);
	}
	free(k->tasks);
	free(k->pcs);
	free(k->lines);
	free(k->kernel_release);
	free(k->build_id);
	free(k->why_not);
	free(k->vmlinux);
	free(k);
}

static void release(struct footprint *fp)
{
	fp_klines_free(fp_klines_of(fp));
	*fp_kind_slot(fp, &fp_kind_klines) = NULL;
}

/* Until the member is written and read, merged and reported (the kind's next parts), a footprint keeps it alone. */
static void merge(struct footprint *m, const struct footprint *in, uint32_t had, enum fp_merge_how how)
{
	(void)m, (void)in, (void)had, (void)how;
}

static void write_json(json_writer_t *w, const struct footprint *fp)
{
	(void)w, (void)fp;
}

static int read_json(struct loader *ld)
{
	return ld_skip_value(ld);
}

extern const struct trace_recorder trace_recorder_kcov; /* trace/kcov.c */

const struct fp_kind fp_kind_klines = {
    .member = "kernel_lines",
    .recorder = &trace_recorder_kcov,
    .release = release,
    .merge = merge,
    .write_json = write_json,
    .read_json = read_json,
};
