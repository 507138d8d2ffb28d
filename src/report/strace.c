// SPDX-License-Identifier: GPL-2.0
/*
 * The layout of `strace -c` (strace 6.1, as installed on Debian 12), so that the two can be diffed: the same
 * columns and widths, rows sorted as strace sorts by default (time spent, descending; ties keep syscall number
 * order, as strace's stable sort of its number-ordered table does), one table per ABI with strace's
 * "System call usage summary for 32 bit mode:" line before the tables of non-native ABIs.
 *
 * strace -c never counts exit and exit_group (they do not return, and strace counts a call when it returns):
 * this format leaves them out too, and only this one.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "abi/syscalls.h"
#include "report/report.h"
#include "report/report_util.h"
#include "util/xalloc.h"

static int cmp_time(const void *a, const void *b)
{
	const struct fp_sysstat *x = *(const struct fp_sysstat *const *)a;
	const struct fp_sysstat *y = *(const struct fp_sysstat *const *)b;

	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	return strcmp(x->name, y->name);
}

static bool strace_counts(const struct fp_sysstat *s)
{
	const struct kf_syscall *row = kf_syscall_by_name(s->abi, s->name);

	if (row)
		return !(row->flags & KF_SC_NORETURN);
	return strcmp(s->name, "exit") && strcmp(s->name, "exit_group");
}

/* strace's personality names (on x86_64: "64 bit", "32 bit", "x32"), from the ABI's descriptor. */
static const char *mode_name(enum kf_abi abi)
{
	return kf_abi_get(abi)->strace_mode;
}

/* strace divides the time as a timespec by the calls, then truncates to microseconds: integer division. */
static uint64_t usecs_per_call(const struct fp_sysstat *s)
{
	return s->calls ? s->time_ns / s->calls / 1000 : 0;
}

static size_t num_width(uint64_t v)
{
	char buf[32];

	return (size_t)snprintf(buf, sizeof(buf), "%" PRIu64, v);
}

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

static void dashes(struct strbuf *sb, const size_t w[6])
{
	for (size_t c = 0; c < 6; c++) {
		if (c)
			strbuf_addch(sb, ' ');
		strbuf_addchars(sb, '-', w[c]);
	}
	strbuf_addch(sb, '\n');
}

static int table(FILE *out, struct fp_sysstat **rows, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	uint64_t calls = 0, errors = 0, avg_max = 0, total_ns = 0;
	size_t name_max = 0;
	double cum;

	for (size_t i = 0; i < n; i++) {
		uint64_t avg = usecs_per_call(rows[i]);

		calls += rows[i]->calls;
		errors += rows[i]->errors;
		total_ns += rows[i]->time_ns;
		if (avg > avg_max)
			avg_max = avg;
		name_max = max_sz(name_max, strlen(rows[i]->name));
	}
	cum = (double)total_ns / 1e9;
	char tmp[64];
	size_t w_sec = max_sz(11, (size_t)snprintf(tmp, sizeof(tmp), "%.6f", cum));
	size_t w_avg = max_sz(11, num_width(avg_max));
	size_t w_calls = max_sz(9, num_width(calls));
	size_t w_err = max_sz(9, num_width(errors));
	size_t w_name = max_sz(16, name_max + 1);
	const size_t w[6] = {6, w_sec, w_avg, w_calls, w_err, w_name};

	strbuf_addf(&sb, "%*s %*s %*s %*s %*s %s\n", 6, "% time", (int)w_sec, "seconds", (int)w_avg, "usecs/call",
		    (int)w_calls, "calls", (int)w_err, "errors", "syscall");
	dashes(&sb, w);
	for (size_t i = 0; i < n; i++) {
		const struct fp_sysstat *s = rows[i];
		double t = (double)s->time_ns / 1e9, pct = 100.0 * t;

		if (pct != 0.0) /* as strace: 0/0 must not become NaN */
			pct /= cum;
		strbuf_addf(&sb, "%6.2f %*.6f %*" PRIu64 " %*" PRIu64 " %*.0" PRIu64 " ", pct, (int)w_sec, t,
			    (int)w_avg, usecs_per_call(s), (int)w_calls, s->calls, (int)w_err, s->errors);
		rpt_add_display(&sb, s->name);
		strbuf_addch(&sb, '\n');
	}
	dashes(&sb, w);
	strbuf_addf(&sb, "%6.2f %*.6f %*" PRIu64 " %*" PRIu64 " %*.0" PRIu64 " total\n", 100.0, (int)w_sec, cum,
		    (int)w_avg, calls ? (uint64_t)(cum / (double)calls * 1e6) : 0, (int)w_calls, calls, (int)w_err,
		    errors);
	int ret = rpt_flush(&sb, out);

	strbuf_release(&sb);
	return ret;
}

static int render(const struct footprint *fp, FILE *out)
{
	struct fp_sysstat **all = fp_sctab_sorted(&fp->syscalls, cmp_time);
	struct fp_sysstat **rows = xcalloc(fp->syscalls.count + 1, sizeof(*rows));
	enum kf_abi host = kf_abi_host();
	/* Unlike strace, a footprint can miss calls: then a first line says so (a complete one diffs clean). */
	int ret = rpt_incomplete_line(fp, out);

	/* The native ABI first, as strace's personality 0, then the others in strace's personality order. */
	for (int k = -1; k < KF_ABI_NR && !ret; k++) {
		enum kf_abi abi = k < 0 ? host : (enum kf_abi)k;
		size_t n = 0;

		if (k >= 0 && abi == host)
			continue;
		for (struct fp_sysstat **sp = all; *sp; sp++)
			if ((*sp)->abi == abi && (*sp)->calls && strace_counts(*sp))
				rows[n++] = *sp;
		if (!n)
			continue;
		if (abi != host && fprintf(out, "System call usage summary for %s mode:\n", mode_name(abi)) < 0)
			ret = -1;
		if (!ret)
			ret = table(out, rows, n);
	}
	free(rows);
	free(all);
	return ret;
}

const struct renderer renderer_strace = {{"strace", "the layout of strace -c, to diff with it"}, render, NULL, false};
