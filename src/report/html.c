// SPDX-License-Identifier: GPL-2.0
/*
 * One self-contained HTML page: summary, a chart of calls and time per subsystem class, the syscall table with
 * errnos, the process tree as a timeline, the files of each process and, when the annotate stage mapped the
 * footprint, the options and source files. Charts are inline SVG drawn here, so the page reads without
 * JavaScript; the one small script only makes the tables sortable. Nothing is fetched: the page's policy
 * forbids every network request.
 *
 * Every string of the footprint (argv, paths, comm, label) is hostile: it is made displayable (bytes that are
 * not UTF-8 and control bytes become \xHH, as in the text report) and then escaped for HTML text and attributes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/annotate.h"
#include "footprint/footprint_json.h"
#include "kmap/kmap.h"
#include "report/report.h"
#include "report/report_util.h"
#include "util/xalloc.h"

#define TL_LABEL_W 300 /* timeline: width of the pid/name column */
#define TL_BAR_W   700 /* timeline: width of the time axis */
#define TL_ROW_H   14
#define CH_BAR_W   420 /* class chart: width of the longest bar */

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;margin:.4em 0}th,td{padding:2px 8px;border-bottom:1px solid #eee;"
    "text-align:left;vertical-align:top}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
    "th{background:#f4f4f4}table[data-sortable] th{cursor:pointer}th[aria-sort=ascending]::after{content:' \\25b2'}"
    "th[aria-sort=descending]::after{content:' \\25bc'}code,.mono{font-family:ui-monospace,monospace}"
    ".bad{color:#b00}dl.sum{display:grid;grid-template-columns:max-content auto;gap:2px 1em}dt{font-weight:600}"
    "dd{margin:0}details{margin:2px 0}summary{cursor:pointer}svg text{font:11px ui-monospace,monospace}"
    "table.f td:first-child{font-family:ui-monospace,monospace}table.f td+td,table.f th+th{text-align:right}"
    ".calls{fill:#4a78c2}.time{fill:#e09a3a}.run{fill:#7aa874}.live{fill:#c9a13a}.sig{fill:#c2574a}";

/* Sorts a table by the clicked column: numeric by data-v when the cells have it, else by text. */
static const char js[] =
    "document.querySelectorAll('table.sortable').forEach(function(t){"
    "var hs=t.tHead.rows[0].cells;Array.prototype.forEach.call(hs,function(h,i){h.addEventListener('click',"
    "function(){var d=h.getAttribute('aria-sort')==='descending'?1:-1,b=t.tBodies[0],"
    "r=Array.prototype.slice.call(b.rows);r.sort(function(x,y){var p=x.cells[i],q=y.cells[i],"
    "a=p.dataset.v,c=q.dataset.v;var k=(a!==undefined&&c!==undefined)?(+a)-(+c):"
    "p.textContent.localeCompare(q.textContent);return d*k;});"
    "Array.prototype.forEach.call(hs,function(o){o.removeAttribute('aria-sort');});"
    "h.setAttribute('aria-sort',d>0?'ascending':'descending');r.forEach(function(x){b.appendChild(x);});});});"
    "t.setAttribute('data-sortable','1');});";

/* Text of the footprint, made displayable, then escaped for HTML text and quoted attributes. */
static void add_esc(struct strbuf *sb, const char *s)
{
	struct strbuf d = STRBUF_INIT;

	rpt_add_display(&d, s ? s : "");
	for (const char *c = d.buf; *c; c++) {
		switch (*c) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		default: strbuf_addch(sb, *c); break;
		}
	}
	strbuf_release(&d);
}

/* A strbuf already displayable (built by the report_util helpers), escaped. */
static void add_esc_sb(struct strbuf *sb, struct strbuf *src)
{
	add_esc(sb, src->buf);
	strbuf_reset(src);
}

static const char *proc_name(const struct fp_proc *p)
{
	const char *name = p->comm;

	if (!*name && p->exe) {
		name = strrchr(p->exe, '/');
		name = name ? name + 1 : p->exe;
	}
	return *name ? name : "?";
}

static void summary(struct strbuf *sb, const struct footprint *fp)
{
	struct strbuf t = STRBUF_INIT;
	size_t nsc = fp->syscalls.count;

	strbuf_addstr(sb, "<h1>kfootprint: ");
	rpt_add_workload(&t, fp);
	add_esc_sb(sb, &t);
	strbuf_addstr(sb, "</h1>\n<section id=\"summary\"><dl class=\"sum\">\n<dt>footprint</dt><dd");
	if (fp->complete) {
		strbuf_addstr(sb, ">complete");
	} else {
		strbuf_addstr(sb, " class=\"bad\">INCOMPLETE: ");
		add_esc(sb, fp->incomplete_why ? fp->incomplete_why : "unknown");
	}
	strbuf_addstr(sb, fp->argv ? "</dd>\n<dt>command</dt><dd class=\"mono\">" : "</dd>\n<dt>attached</dt><dd>");
	rpt_add_workload(&t, fp);
	add_esc_sb(sb, &t);
	if (fp->label) {
		strbuf_addstr(sb, "</dd>\n<dt>label</dt><dd>");
		add_esc(sb, fp->label);
	}
	if (fp->user) {
		strbuf_addstr(sb, "</dd>\n<dt>user</dt><dd>");
		add_esc(sb, fp->user);
	}
	strbuf_addstr(sb, "</dd>\n<dt>backend</dt><dd>");
	add_esc(sb, fp->backend ? fp->backend : "?");
	strbuf_addstr(sb, "</dd>\n<dt>host</dt><dd>");
	add_esc(sb, fp->host_kernel ? fp->host_kernel : "?");
	strbuf_addch(sb, ' ');
	add_esc(sb, fp->host_arch ? fp->host_arch : "");
	strbuf_addstr(sb, "</dd>\n<dt>started at</dt><dd>");
	add_esc(sb, fp->started_at ? fp->started_at : "?");
	strbuf_addf(sb, "</dd>\n<dt>elapsed</dt><dd>%.3f s</dd>\n<dt>exit</dt><dd>", fp->elapsed_s);
	rpt_add_exit(&t, &fp->exit);
	add_esc_sb(sb, &t);
	strbuf_addf(sb, "</dd>\n<dt>lost events</dt><dd%s>%" PRIu64 "</dd>\n", fp->lost_events ? " class=\"bad\"" : "",
		    fp->lost_events);
	strbuf_addf(sb,
		    "<dt>totals</dt><dd id=\"totals\">%" PRIu64 " calls, %" PRIu64
		    " errors, %zu syscall%s, %zu process%s</dd>\n</dl></section>\n",
		    fp__total_calls(fp), fp__total_errors(fp), nsc, nsc == 1 ? "" : "s", fp->nprocs,
		    fp->nprocs == 1 ? "" : "es");
	strbuf_release(&t);
}

/* Calls and time per class, two bars each, scaled to the largest of each. */
static void class_chart(struct strbuf *sb, const struct footprint *fp)
{
	size_t ng, h;
	struct rpt_group *g = rpt_groups(fp, &ng);
	uint64_t *calls = xcalloc(ng + 1, sizeof(*calls)), *ns = xcalloc(ng + 1, sizeof(*ns)), maxc = 1, maxt = 1;

	for (size_t i = 0; i < ng; i++) {
		for (size_t j = 0; j < g[i].n; j++) {
			calls[i] += g[i].rows[j]->calls;
			ns[i] += g[i].rows[j]->time_ns;
		}
		maxc = calls[i] > maxc ? calls[i] : maxc;
		maxt = ns[i] > maxt ? ns[i] : maxt;
	}
	h = ng * 30 + 24;
	strbuf_addstr(sb, "<h2>Calls and time per subsystem class</h2>\n");
	if (!ng)
		strbuf_addstr(sb, "<p>no system calls recorded</p>\n");
	else
		strbuf_addf(
		    sb,
		    "<svg id=\"classes\" role=\"img\" width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\">"
		    "<rect class=\"calls\" x=\"160\" y=\"4\" width=\"10\" height=\"10\"/><text x=\"174\" y=\"13\">"
		    "calls</text><rect class=\"time\" x=\"230\" y=\"4\" width=\"10\" height=\"10\"/>"
		    "<text x=\"244\" y=\"13\">time in the call</text>\n",
		    CH_BAR_W + 320, h, CH_BAR_W + 320, h);
	for (size_t i = 0; i < ng; i++) {
		size_t y = 24 + i * 30;
		double wc = (double)calls[i] * CH_BAR_W / (double)maxc, wt = (double)ns[i] * CH_BAR_W / (double)maxt;

		strbuf_addf(sb, "<g><text x=\"0\" y=\"%zu\">", y + 14);
		add_esc(sb, g[i].klass);
		strbuf_addf(sb,
			    "</text><rect class=\"calls\" x=\"160\" y=\"%zu\" width=\"%.1f\" height=\"11\"/>"
			    "<text x=\"%.1f\" y=\"%zu\">%" PRIu64 "</text>"
			    "<rect class=\"time\" x=\"160\" y=\"%zu\" width=\"%.1f\" height=\"11\"/>"
			    "<text x=\"%.1f\" y=\"%zu\">%.3f ms</text></g>\n",
			    y, wc, 164 + wc, y + 10, calls[i], y + 13, wt, 164 + wt, y + 23, (double)ns[i] / 1e6);
	}
	if (ng)
		strbuf_addstr(sb, "</svg>\n");
	free(calls);
	free(ns);
	rpt_groups_free(g, ng);
}

static void syscall_table(struct strbuf *sb, const struct footprint *fp)
{
	struct fp_sysstat **v = fp_sctab_sorted(&fp->syscalls, fp_sysstat_cmp_calls);

	strbuf_addstr(sb, "<h2>System calls</h2>\n<table id=\"syscalls\" class=\"sortable\"><thead><tr><th>System call"
			  "</th><th>Class</th><th class=\"n\"># calls</th><th class=\"n\">errors</th><th>errnos</th>"
			  "<th class=\"n\">time (ms)</th><th>System Call (API)</th></tr></thead><tbody>\n");
	for (struct fp_sysstat **sp = v; *sp; sp++) {
		const struct fp_sysstat *s = *sp;
		char nbuf[96], abuf[96];

		strbuf_addstr(sb, "<tr><td class=\"mono\">");
		add_esc(sb, rpt_sc_name(s, nbuf, sizeof(nbuf)));
		strbuf_addstr(sb, "</td><td>");
		add_esc(sb, fp_sysstat_class(s));
		strbuf_addf(sb,
			    "</td><td class=\"n\" data-v=\"%" PRIu64 "\">%" PRIu64
			    "</td><td class=\"n\" data-v=\"%" PRIu64 "\">%" PRIu64 "</td><td>",
			    s->calls, s->calls, s->errors, s->errors);
		for (uint32_t i = 0; i < s->nerrnos; i++)
			strbuf_addf(sb, "%s%s&nbsp;%" PRIu64, i ? ", " : "", fp_errno_name(s->errnos[i].err),
				    s->errnos[i].count);
		strbuf_addf(sb, "</td><td class=\"n\" data-v=\"%" PRIu64 "\">%.3f</td><td class=\"mono\">", s->time_ns,
			    (double)s->time_ns / 1e6);
		add_esc(sb, fp_sysstat_api(s, abuf, sizeof(abuf)));
		strbuf_addstr(sb, "()</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
	free(v);
}

/*
 * Processes in tree order (children after their parent, in order of appearance), with their depth. The parent
 * is fp__parent()'s (the latest process with that pid started no later), found here by index.
 */
static size_t *tree_order(const struct footprint *fp, size_t *depth)
{
	size_t n = fp->nprocs, *parent = fp__parents(fp), *first = xcalloc(n + 1, sizeof(size_t));
	size_t *next = xcalloc(n + 1, sizeof(size_t)), *last = xcalloc(n + 1, sizeof(size_t));
	size_t *order = xcalloc(n + 1, sizeof(size_t)), *stack = xcalloc(n + 1, sizeof(size_t)), no = 0, sp = 0;

	for (size_t i = 0; i < n; i++) { /* indexes + 1; 0: none */
		if (!parent[i])
			continue;
		if (last[parent[i] - 1])
			next[last[parent[i] - 1] - 1] = i + 1;
		else
			first[parent[i] - 1] = i + 1;
		last[parent[i] - 1] = i + 1;
	}
	for (size_t r = n; r-- > 0;) /* roots pushed in reverse, so that they pop in order */
		if (!parent[r]) {
			depth[r] = 0;
			stack[sp++] = r + 1;
		}
	while (sp) {
		size_t i = stack[--sp] - 1, base = sp;

		order[no++] = i;
		for (size_t c = first[i]; c; c = next[c - 1]) {
			depth[c - 1] = depth[i] + 1;
			stack[sp++] = c;
		}
		for (size_t a = base, b = sp ? sp - 1 : 0; a < b; a++, b--) {
			size_t t = stack[a];

			stack[a] = stack[b];
			stack[b] = t;
		}
	}
	free(parent);
	free(first);
	free(next);
	free(last);
	free(stack);
	return order;
}

/* The process tree as bootchart draws it: one row per process, a bar from its start to its end. */
static void timeline(struct strbuf *sb, const struct footprint *fp, const size_t *order, const size_t *depth)
{
	size_t n = fp->nprocs, h = n * TL_ROW_H + 20;
	double total = fp->elapsed_s > 0 ? fp->elapsed_s : 0;
	struct strbuf t = STRBUF_INIT;

	for (size_t i = 0; i < n; i++)
		if (fp->procs[i]->end_s > total)
			total = fp->procs[i]->end_s;
	if (total <= 0)
		total = 1e-6;
	strbuf_addf(sb,
		    "<h2>Processes</h2>\n<svg id=\"timeline\" role=\"img\" width=\"%d\" height=\"%zu\" "
		    "viewBox=\"0 0 %d %zu\"><text x=\"%d\" y=\"11\">0 s</text><text x=\"%d\" y=\"11\" "
		    "text-anchor=\"end\">%.3f s</text>\n",
		    TL_LABEL_W + TL_BAR_W + 90, h, TL_LABEL_W + TL_BAR_W + 90, h, TL_LABEL_W, TL_LABEL_W + TL_BAR_W,
		    total);
	for (size_t k = 0; k < n; k++) {
		const struct fp_proc *p = fp->procs[order[k]];
		size_t y = 16 + k * TL_ROW_H, d = depth[order[k]] < 20 ? depth[order[k]] : 20;
		double end = p->end_s < 0 ? total : p->end_s, x0 = p->start_s * TL_BAR_W / total;
		double w = (end - p->start_s) * TL_BAR_W / total;
		const char *cls = p->end_s < 0 ? "live" : p->exit.kind == FP_EXIT_SIGNAL ? "sig" : "run";

		strbuf_addf(sb, "<g><title>%d ", (int)p->pid);
		if (p->argv && p->argv[0]) {
			rpt_add_argv(&t, p->argv);
			add_esc_sb(sb, &t);
		} else {
			add_esc(sb, proc_name(p));
		}
		strbuf_addstr(sb, ": ");
		rpt_add_exit(&t, &p->exit);
		add_esc_sb(sb, &t);
		strbuf_addf(sb, "</title><text x=\"%zu\" y=\"%zu\">%d ", 2 + 8 * d, y + 10, (int)p->pid);
		add_esc(sb, proc_name(p));
		strbuf_addf(sb, "</text><rect class=\"%s\" x=\"%.1f\" y=\"%zu\" width=\"%.1f\" height=\"%d\"/>", cls,
			    TL_LABEL_W + x0, y + 1, w < 1 ? 1.0 : w, TL_ROW_H - 3);
		if (p->exit.kind != FP_EXIT_NONE) {
			rpt_add_exit(&t, &p->exit);
			strbuf_addf(sb, "<text x=\"%.1f\" y=\"%zu\">", TL_LABEL_W + x0 + (w < 1 ? 1.0 : w) + 3, y + 10);
			add_esc_sb(sb, &t);
			strbuf_addstr(sb, "</text>");
		}
		strbuf_addstr(sb, "</g>\n");
	}
	strbuf_addstr(sb, "</svg>\n");
	strbuf_release(&t);
}

static void proc_files(struct strbuf *sb, const struct footprint *fp, const size_t *order)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addstr(sb, "<h2>Files per process</h2>\n<div id=\"files\">\n");
	for (size_t k = 0; k < fp->nprocs; k++) {
		const struct fp_proc *p = fp->procs[order[k]];
		struct fp_file **files = fp_proc_files_sorted(p);

		strbuf_addf(sb, "<details><summary>%d <b>", (int)p->pid);
		add_esc(sb, proc_name(p));
		strbuf_addstr(sb, "</b> ");
		rpt_add_exit(&t, &p->exit);
		add_esc_sb(sb, &t);
		strbuf_addf(sb, ", %u file%s, read %" PRIu64 " write %" PRIu64 "</summary>", p->nfiles,
			    p->nfiles == 1 ? "" : "s", p->opens_read, p->opens_write);
		if (p->exe || p->argv) {
			strbuf_addstr(sb, "<p class=\"mono\">");
			add_esc(sb, p->exe);
			if (p->argv && p->argv[0]) {
				strbuf_addstr(sb, "<br>");
				rpt_add_argv(&t, p->argv);
				add_esc_sb(sb, &t);
			}
			strbuf_addstr(sb, "</p>");
		}
		/* Some 20,000 rows for 5,000 processes: HTML's short form (no end tags) keeps the page small. */
		if (p->nfiles)
			strbuf_addstr(sb, "<table class=\"f\"><tr><th>path<th>read<th>write<th>errors");
		for (uint32_t i = 0; i < p->nfiles; i++) {
			strbuf_addstr(sb, "\n<tr><td>");
			add_esc(sb, files[i]->path);
			strbuf_addf(sb, "<td>%" PRIu64 "<td>%" PRIu64 "<td>%" PRIu64, files[i]->opens_read,
				    files[i]->opens_write, files[i]->errors);
		}
		strbuf_addstr(sb, p->nfiles ? "</table></details>\n" : "</details>\n");
		free(files);
	}
	strbuf_addstr(sb, "</div>\n");
	strbuf_release(&t);
}

/* What the annotate stage mapped: each syscall's source and options, then the options' roll-up. */
static void kernel_map(struct strbuf *sb, const struct footprint *fp)
{
	const struct fp_kernel_map *const *maps;
	size_t nmaps = annotate_maps(fp, &maps);

	if (!nmaps)
		return;
	strbuf_addstr(sb, "<h2>Kernel source and options</h2>\n<table id=\"sources\" class=\"sortable\"><thead><tr>"
			  "<th>System call</th><th>ABI</th><th>defined at</th><th>running</th><th>options</th></tr>"
			  "</thead><tbody>\n");
	for (size_t m = 0; m < nmaps; m++) {
		for (size_t i = 0; i < maps[m]->nrows; i++) {
			const struct kmap_row *r = &maps[m]->rows[i];
			char buf[512];

			strbuf_addstr(sb, "<tr><td class=\"mono\">");
			add_esc(sb, r->name);
			strbuf_addstr(sb, "</td><td>");
			add_esc(sb, kf_abi_name(r->abi));
			strbuf_addstr(sb, "</td><td class=\"mono\">");
			add_esc(sb, kmap_row_where(r, buf, sizeof(buf)) ? buf : "");
			strbuf_addstr(sb, "</td><td>");
			add_esc(sb, kf_run_status_name(r->running));
			strbuf_addstr(sb, "</td><td class=\"mono\">");
			for (size_t o = 0; o < r->nopts; o++) {
				if (o)
					strbuf_addstr(sb, ", ");
				add_esc(sb, r->opts[o]);
			}
			strbuf_addstr(sb, "</td></tr>\n");
		}
	}
	strbuf_addstr(sb, "</tbody></table>\n<table id=\"options\" class=\"sortable\"><thead><tr><th>option</th>"
			  "<th>running</th><th>needed by</th></tr></thead><tbody>\n");
	for (size_t m = 0; m < nmaps; m++) {
		for (size_t i = 0; i < maps[m]->nopts; i++) {
			const struct kmap_opt *o = &maps[m]->opts[i];

			strbuf_addstr(sb, "<tr><td class=\"mono\">CONFIG_");
			add_esc(sb, o->name);
			strbuf_addstr(sb, "</td><td>");
			add_esc(sb, o->running ? o->running : "unknown");
			strbuf_addstr(sb, "</td><td class=\"mono\">");
			for (size_t j = 0; j < o->nneeded; j++) {
				if (j)
					strbuf_addstr(sb, ", ");
				add_esc(sb, o->needed_by[j]);
			}
			strbuf_addstr(sb, "</td></tr>\n");
		}
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

static int render(const struct footprint *fp, FILE *out)
{
	struct strbuf sb = STRBUF_INIT, t = STRBUF_INIT;
	size_t *depth = xcalloc(fp->nprocs + 1, sizeof(*depth)), *order = tree_order(fp, depth);
	int ret;

	strbuf_addstr(&sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
			   "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n<title>kfootprint: ");
	rpt_add_workload(&t, fp);
	add_esc_sb(&sb, &t);
	strbuf_addf(&sb, "</title>\n<style>%s</style></head><body>\n", css);
	summary(&sb, fp);
	class_chart(&sb, fp);
	syscall_table(&sb, fp);
	ret = rpt_flush(&sb, out);
	if (!ret && fp->nprocs) {
		timeline(&sb, fp, order, depth);
		ret = rpt_flush(&sb, out);
	}
	if (!ret && fp->nprocs) {
		proc_files(&sb, fp, order);
		ret = rpt_flush(&sb, out);
	}
	if (!ret) {
		kernel_map(&sb, fp);
		strbuf_addf(&sb, "<script>%s</script>\n</body></html>\n", js);
		ret = rpt_flush(&sb, out);
	}
	strbuf_release(&sb);
	strbuf_release(&t);
	free(order);
	free(depth);
	return ret;
}

const struct renderer renderer_html = {
    {"html", "one self-contained page: summary, class chart, sortable syscall table, process timeline, files"},
    render,
    NULL};
