// SPDX-License-Identifier: GPL-2.0
/*
 * The live status line of a recording on a terminal: elapsed time, calls per second, processes alive, lost
 * events. Backends call trace_progress() from their observe loops with counts they already keep; it draws at most
 * four times a second, from the first second on, over the same line of standard error, and
 * trace_progress_clear() erases it before anything else is written there.
 */
#include <inttypes.h>
#include <stdio.h>

#include "trace/trace.h"

#define FIRST_NS  1000000000ull /* a recording shorter than this shows nothing */
#define PERIOD_NS 250000000ull

static struct {
	uint64_t last_ns, last_calls;
	bool shown;
} pg;

void trace_progress(const struct trace_opts *o, const struct footprint *fp, uint64_t calls, uint64_t alive,
		    uint64_t lost)
{
	uint64_t now = fp__now_ns(), since = (uint64_t)(fp__rel_s(fp, now) * 1e9);
	double rate;

	if (!o->progress || since < FIRST_NS || now - pg.last_ns < PERIOD_NS)
		return;
	/* the rate over the last period; over the whole run for the first line */
	rate = pg.last_ns ? (double)(calls - pg.last_calls) * 1e9 / (double)(now - pg.last_ns)
			  : (double)calls * 1e9 / (double)since;
	fprintf(stderr, "\r\033[Kkfootprint: %.1f s, %.0f calls/s, %" PRIu64 " process%s alive, %" PRIu64 " lost",
		(double)since / 1e9, rate, alive, alive == 1 ? "" : "es", lost);
	fflush(stderr);
	pg.last_ns = now;
	pg.last_calls = calls;
	pg.shown = true;
}

void trace_progress_clear(void)
{
	if (!pg.shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	pg.shown = false;
}
