// SPDX-License-Identifier: GPL-2.0
/*
 * The charts of the HTML page, inline SVG: calls per subsystem class; time per class with the time spent waiting
 * apart (a server blocked in poll or accept for seconds is not its filesystem working: summed with the rest, that
 * wait made the headline of issue 23); the processes in time as bootchart draws them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_internal.h"
#include "report/report_util.h"
#include "util/xalloc.h"

#define CH_LABEL_W 170 /* class charts: the class column */
#define CH_BAR_W   420 /* the longest bar */
#define CH_ROW_H   20
#define CH_CHARS   22  /* what the class column holds, in characters */
#define TL_LABEL_W 300 /* timeline: the pid/name column */
#define TL_BAR_W   700 /* the time axis */
#define TL_EXIT_W  110 /* room after the axis for the exit status that follows a bar */
#define TL_W	   (TL_LABEL_W + TL_BAR_W + TL_EXIT_W)
#define TL_LANE_H  18 /* a lane holds its 11px label with room to spare */
#define TL_CHAR_W  7  /* an 11px monospace character is 6.6px wide */
#define TL_FEW	   16 /* up to this many processes: a lane each, in tree order; else a lane per name */

/*
 * The syscalls made to wait (for an fd, a connection, a child, a timer, a signal, a lock): their time is the
 * workload idle, not the kernel working. By table name; the i386 *_time64 variants are the same calls.
 */
static const char *const waiting[] = {
    "_newselect", "accept",	 "accept4",	 "clock_nanosleep", "epoll_pwait",     "epoll_pwait2",	  "epoll_wait",
    "futex",	  "futex_waitv", "io_getevents", "io_pgetevents",   "mq_timedreceive", "msgrcv",	  "nanosleep",
    "pause",	  "poll",	 "ppoll",	 "pselect6",	    "rt_sigsuspend",   "rt_sigtimedwait", "select",
    "semop",	  "semtimedop",	 "sigsuspend",	 "wait4",	    "waitid",	       "waitpid",
};

static bool is_waiting(const char *name)
{
	size_t n = strlen(name);

	if (n > 7 && !strcmp(name + n - 7, "_time64"))
		n -= 7;
	for (size_t i = 0; i < sizeof(waiting) / sizeof(*waiting); i++)
		if (strlen(waiting[i]) == n && !strncmp(waiting[i], name, n))
			return true;
	return false;
}

struct bar {
	const char *name;
	uint64_t v;
};

static int cmp_bar(const void *a, const void *b)
{
	const struct bar *x = a, *y = b;

	return x->v != y->v ? (x->v < y->v ? 1 : -1) : strcmp(x->name, y->name);
}

/* One row of a chart: its label, its bar scaled to max, the value's text after it. */
static void bar_row(struct strbuf *sb, size_t y, const char *cls, const struct bar *b, uint64_t max, const char *text)
{
	double w = (double)b->v * CH_BAR_W / (double)(max ? max : 1);

	strbuf_addf(sb, "<g class=\"row\" data-v=\"%" PRIu64 "\"><text class=\"lbl\" x=\"0\" y=\"%zu\">", b->v, y + 14);
	html_esc_cut(sb, b->name, CH_CHARS);
	strbuf_addf(sb,
		    "</text><rect class=\"%s\" x=\"%d\" y=\"%zu\" width=\"%.1f\" height=\"14\"/>"
		    "<text x=\"%.1f\" y=\"%zu\">%s</text></g>\n",
		    cls, CH_LABEL_W, y + 3, w < 1 && b->v ? 1.0 : w, CH_LABEL_W + w + 4, y + 14, text);
}

static void svg_open(struct strbuf *sb, const char *id, size_t rows)
{
	size_t h = rows * CH_ROW_H + 4;

	strbuf_addf(sb, "<svg id=\"%s\" role=\"img\" width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\">\n", id,
		    CH_LABEL_W + CH_BAR_W + 120, h, CH_LABEL_W + CH_BAR_W + 120, h);
}

void html_class_charts(struct strbuf *sb, const struct footprint *fp)
{
	size_t ng, nw = 0, y = 0;
	struct rpt_group *g = rpt_groups(fp, &ng);
	struct bar *calls = xcalloc(ng + 1, sizeof(*calls)), *work = xcalloc(ng + 1, sizeof(*work)), *wait = NULL;
	uint64_t maxc = 0, maxw = 0, maxi = 0, all_work = 0, all_wait = 0;
	size_t wcap = 0;

	for (size_t i = 0; i < ng; i++) {
		calls[i] = work[i] = (struct bar){g[i].klass, 0};
		for (size_t j = 0; j < g[i].n; j++) {
			const struct fp_sysstat *s = g[i].rows[j];

			calls[i].v += s->calls;
			if (!is_waiting(s->name)) {
				work[i].v += s->time_ns;
				continue;
			}
			XGROW(wait, wcap, nw + 1);
			wait[nw++] = (struct bar){s->name, s->time_ns};
			all_wait += s->time_ns;
		}
		all_work += work[i].v;
		maxc = calls[i].v > maxc ? calls[i].v : maxc;
		maxw = work[i].v > maxw ? work[i].v : maxw;
	}
	for (size_t i = 0; i < nw; i++)
		maxi = wait[i].v > maxi ? wait[i].v : maxi;
	if (ng)
		qsort(calls, ng, sizeof(*calls), cmp_bar);
	if (ng)
		qsort(work, ng, sizeof(*work), cmp_bar);
	if (nw)
		qsort(wait, nw, sizeof(*wait), cmp_bar);

	strbuf_addstr(sb, "<section id=\"charts\"><h2>Calls per subsystem class</h2>\n");
	if (!ng)
		strbuf_addstr(sb, "<p>no system calls recorded</p>\n");
	else
		svg_open(sb, "classes", ng);
	for (size_t i = 0; i < ng; i++) {
		char text[32];

		snprintf(text, sizeof(text), "%" PRIu64, calls[i].v);
		bar_row(sb, i * CH_ROW_H, "calls", &calls[i], maxc, text);
	}
	if (ng)
		strbuf_addstr(sb, "</svg>\n");

	strbuf_addstr(sb, "<h2>Time in system calls: working, and waiting apart</h2>\n");
	if (!all_work && !all_wait) {
		strbuf_addstr(sb, ng ? "<p>no times recorded</p>\n" : "");
	} else {
		size_t nwork = 0;

		while (nwork < ng && work[nwork].v)
			nwork++;
		strbuf_addf(sb,
			    "<p class=\"note\">%.3f ms working in the kernel; %.3f ms in calls made to wait (poll, "
			    "accept, wait4, futex, nanosleep...), charted apart on their own scale</p>\n",
			    (double)all_work / 1e6, (double)all_wait / 1e6);
		svg_open(sb, "times", nwork + (nw ? nw + 1 : 0));
		for (size_t i = 0; i < nwork; i++, y += CH_ROW_H) {
			char text[32];

			snprintf(text, sizeof(text), "%.3f ms", (double)work[i].v / 1e6);
			bar_row(sb, y, "time", &work[i], maxw, text);
		}
		if (nw) {
			strbuf_addf(sb, "<text class=\"lbl\" x=\"0\" y=\"%zu\">waiting, by system call:</text>\n",
				    y + 14);
			y += CH_ROW_H;
		}
		for (size_t i = 0; i < nw; i++, y += CH_ROW_H) {
			char text[32];

			snprintf(text, sizeof(text), "%.3f ms", (double)wait[i].v / 1e6);
			bar_row(sb, y, "wait", &wait[i], maxi, text);
		}
		strbuf_addstr(sb, "</svg>\n");
	}
	strbuf_addstr(sb, "</section>\n");
	free(calls);
	free(work);
	free(wait);
	rpt_groups_free(g, ng);
}

/* ---- the processes in time ---- */

struct tl {
	double total;
	size_t lanes;
	struct strbuf t;
};

static double tl_x(const struct tl *tl, double s)
{
	return TL_LABEL_W + (s < 0 ? 0 : s) * TL_BAR_W / tl->total;
}

static const char *bar_class(const struct fp_proc *p)
{
	return p->end_s < 0 ? "live" : p->exit.kind == FP_EXIT_SIGNAL ? "sig" : "run";
}

/* A process's bar from its start to its end (now, while it runs), at least 2px, its command line as its title. */
static double proc_bar(struct strbuf *sb, struct tl *tl, const struct fp_proc *p, size_t y, double *x0)
{
	double end = p->end_s < 0 ? tl->total : p->end_s, w = tl_x(tl, end) - tl_x(tl, p->start_s);

	w = w < 2 ? 2 : w;
	*x0 = tl_x(tl, p->start_s);
	if (*x0 + w > TL_LABEL_W + TL_BAR_W)
		*x0 = TL_LABEL_W + TL_BAR_W - w;
	strbuf_addf(sb, "<rect class=\"bar %s\" x=\"%.1f\" y=\"%zu\" width=\"%.1f\" height=\"%d\"><title>%d ",
		    bar_class(p), *x0, y + 3, w, TL_LANE_H - 6, (int)p->pid);
	if (p->argv && p->argv[0]) {
		rpt_add_argv(&tl->t, p->argv);
		html_esc_sb(sb, &tl->t);
	} else {
		html_esc(sb, html_proc_name(p));
	}
	strbuf_addstr(sb, ": ");
	rpt_add_exit(&tl->t, &p->exit);
	html_esc_sb(sb, &tl->t);
	strbuf_addf(sb, " (%.3f s to %.3f s)</title></rect>", p->start_s, end);
	return w;
}

/* A lane's background and its label, cut to what the label column holds from indent on. */
static void lane(struct strbuf *sb, struct tl *tl, size_t indent, const char *label, const char *more)
{
	size_t y = 20 + tl->lanes * TL_LANE_H, room = (TL_LABEL_W - 6 - indent) / TL_CHAR_W;

	strbuf_addf(sb, "<g class=\"lane-g\"><rect class=\"%s\" x=\"0\" y=\"%zu\" width=\"%d\" height=\"%d\"/>",
		    tl->lanes % 2 ? "lane2" : "lane", y, TL_W, TL_LANE_H);
	strbuf_addf(sb, "<text class=\"lbl\" x=\"%zu\" y=\"%zu\">", 2 + indent, y + 13);
	html_esc_cut(sb, label, room > strlen(more) ? room - strlen(more) : 1);
	strbuf_addstr(sb, more); /* our own text: a count */
	strbuf_addstr(sb, "</text>");
}

/* Per process: "pid name" indented by depth, the bar, then its exit status where there is room for it. */
static void lanes_per_process(struct strbuf *sb, struct tl *tl, const struct footprint *fp, const size_t *order,
			      const size_t *depth)
{
	for (size_t k = 0; k < fp->nprocs; k++, tl->lanes++) {
		const struct fp_proc *p = fp->procs[order[k]];
		size_t y = 20 + tl->lanes * TL_LANE_H, d = depth[order[k]] < TL_FEW ? depth[order[k]] : TL_FEW;
		char label[48];
		double x0, w;

		snprintf(label, sizeof(label), "%d ", (int)p->pid);
		strbuf_addstr(&tl->t, label);
		rpt_add_display(&tl->t, html_proc_name(p));
		lane(sb, tl, 8 * d, tl->t.buf, "");
		strbuf_reset(&tl->t);
		w = proc_bar(sb, tl, p, y, &x0);
		if (p->exit.kind != FP_EXIT_NONE) {
			double tw;

			rpt_add_exit(&tl->t, &p->exit);
			tw = (double)tl->t.len * TL_CHAR_W;
			if (x0 + w + 4 + tw <= TL_W - 2)
				strbuf_addf(sb, "<text x=\"%.1f\" y=\"%zu\">", x0 + w + 4, y + 13);
			else if (x0 - 4 - tw >= TL_LABEL_W)
				strbuf_addf(sb, "<text x=\"%.1f\" y=\"%zu\" text-anchor=\"end\">", x0 - 4, y + 13);
			else
				strbuf_reset(&tl->t); /* no room: the bar's title says it */
			if (tl->t.len) {
				html_esc_sb(sb, &tl->t);
				strbuf_addstr(sb, "</text>");
			}
		}
		strbuf_addstr(sb, "</g>\n");
	}
}

struct member {
	const char *name;
	size_t k; /* position in tree order */
};

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->k < y->k ? -1 : x->k > y->k;
}

struct group {
	size_t start, count; /* its members, a run of the sorted array */
	size_t first;	     /* its first member's position in tree order */
};

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * Per name: many processes (a shell script's helpers, a pyenv shim's 40) would be slivers in lanes too thin to
 * label; a lane per program name, in order of first appearance in the tree, holds a bar for each of its processes.
 * Grouped by sorting (names, then tree order): a chain of 10,000 processes of 10,000 names stays n log n.
 */
static void lanes_per_name(struct strbuf *sb, struct tl *tl, const struct footprint *fp, const size_t *order)
{
	size_t n = fp->nprocs, ng = 0;
	struct member *m = xcalloc(n + 1, sizeof(*m));
	struct group *g = xcalloc(n + 1, sizeof(*g));

	for (size_t k = 0; k < n; k++)
		m[k] = (struct member){html_proc_name(fp->procs[order[k]]), k};
	qsort(m, n, sizeof(*m), cmp_member);
	for (size_t i = 0; i < n; i++) {
		if (!i || strcmp(m[i].name, m[i - 1].name))
			g[ng++] = (struct group){i, 0, m[i].k};
		g[ng - 1].count++;
	}
	qsort(g, ng, sizeof(*g), cmp_group);
	for (size_t j = 0; j < ng; j++, tl->lanes++) {
		const struct fp_proc *p0 = fp->procs[order[g[j].first]];
		size_t y = 20 + tl->lanes * TL_LANE_H;
		char more[48];

		if (g[j].count > 1)
			snprintf(more, sizeof(more), " \xc3\x97%zu", g[j].count); /* U+00D7, the multiplication sign */
		else
			snprintf(more, sizeof(more), " (%d)", (int)p0->pid);
		lane(sb, tl, 0, html_proc_name(p0), more);
		strbuf_addstr(sb, "<title>");
		html_esc(sb, p0->exe ? p0->exe : html_proc_name(p0));
		strbuf_addf(sb, ": %zu process%s</title>", g[j].count, g[j].count == 1 ? "" : "es");
		for (size_t i = g[j].start; i < g[j].start + g[j].count; i++) {
			double x0;

			proc_bar(sb, tl, fp->procs[order[m[i].k]], y, &x0);
		}
		strbuf_addstr(sb, "</g>\n");
	}
	free(m);
	free(g);
}

void html_timeline(struct strbuf *sb, const struct footprint *fp, const size_t *order, const size_t *depth)
{
	struct tl tl = {fp->elapsed_s > 0 ? fp->elapsed_s : 0, 0, STRBUF_INIT};
	struct strbuf body = STRBUF_INIT;
	bool few = fp->nprocs <= TL_FEW;
	size_t h;

	for (size_t i = 0; i < fp->nprocs; i++)
		if (fp->procs[i]->end_s > tl.total)
			tl.total = fp->procs[i]->end_s;
	if (tl.total <= 0)
		tl.total = 1e-6;
	if (few)
		lanes_per_process(&body, &tl, fp, order, depth);
	else
		lanes_per_name(&body, &tl, fp, order);
	h = 20 + tl.lanes * TL_LANE_H + 2;
	strbuf_addf(sb,
		    "<h2>Processes</h2>\n<p class=\"note\">%zu process%s, %s; a bar from start to end (<span "
		    "class=\"label k-run\">exited</span> <span class=\"label k-sig\">killed by a signal</span> "
		    "<span class=\"label k-live\">still running</span>); hover a bar for its command line</p>\n",
		    fp->nprocs, fp->nprocs == 1 ? "" : "es",
		    few ? "a lane each in tree order" : "a lane per program name");
	strbuf_addf(sb,
		    "<div id=\"timeline-box\"><svg id=\"timeline\" role=\"img\" data-lanes=\"%s\" data-label-w=\"%d\" "
		    "width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\">",
		    few ? "process" : "name", TL_LABEL_W, TL_W, h, TL_W, h);
	for (int q = 0; q <= 4; q++) /* the axis: quarters of the run */
		strbuf_addf(sb, "<text x=\"%.1f\" y=\"12\"%s>%.3f s</text>", TL_LABEL_W + q * TL_BAR_W / 4.0,
			    q == 4 ? " text-anchor=\"end\""
			    : q	   ? " text-anchor=\"middle\""
				   : "",
			    tl.total * q / 4);
	strbuf_addch(sb, '\n');
	strbuf_add(sb, body.buf, body.len);
	strbuf_addstr(sb, "</svg></div>\n");
	strbuf_release(&body);
	strbuf_release(&tl.t);
}
