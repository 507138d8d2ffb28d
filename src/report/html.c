// SPDX-License-Identifier: GPL-2.0
/*
 * One self-contained HTML page, the answer first: the summary, the Kconfig options the calls need and the
 * MAINTAINERS sections of that code, what the calls reached (html_kernel.c); then the charts of calls and time per
 * subsystem class and the processes in time (html_charts.c); then the syscall table with errnos, each syscall's
 * source and options, and the files of each process. Charts are inline SVG drawn here, so the page reads without
 * JavaScript; the one small script only makes the tables sortable. Nothing is fetched: the page's policy
 * forbids every network request.
 *
 * The kernel part comes from the footprint's own mapping (record --map), else from the view of the built-in
 * databases the command made before rendering (text_opts.view): the renderer resolves nothing.
 *
 * Every string of the footprint (argv, paths, comm, label) is hostile: it is made displayable (bytes that are
 * not UTF-8 and control bytes become \xHH, as in the text report) and then escaped for HTML text and attributes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint_json.h"
#include "report/html_internal.h"
#include "report/report.h"
#include "report/report_util.h"
#include "util/utf8.h"
#include "util/xalloc.h"

static const char css[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em;border-bottom:1px solid #ccc}h3{font-size:1em}"
    "table{border-collapse:collapse;margin:.4em 0}th,td{padding:2px 8px;border-bottom:1px solid #eee;"
    "text-align:left;vertical-align:top}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
    "th{background:#f4f4f4}table[data-sortable] th{cursor:pointer}th[aria-sort=ascending]::after{content:' \\25b2'}"
    "th[aria-sort=descending]::after{content:' \\25bc'}code,.mono{font-family:ui-monospace,monospace}"
    ".bad{color:#b00}dl.sum{display:grid;grid-template-columns:max-content auto;gap:2px 1em}dt{font-weight:600}"
    "dd{margin:0}details{margin:2px 0}summary{cursor:pointer}svg text{font:11px ui-monospace,monospace}"
    "table.f td:first-child{font-family:ui-monospace,monospace}table.f td+td,table.f th+th{text-align:right}"
    ".label{display:inline-block;padding:0 5px;border-radius:3px;font-size:.85em;background:#eee;white-space:nowrap}"
    "#options td:last-child,#reached td:nth-child(5){min-width:20em}"
    ".want-y{background:#d6ecd2}.want-off{background:#f3e2c4}.want-probe{background:#e4e4f2}"
    "ul.addr{margin:0;padding-left:1.1em}.note{color:#555;font-size:.9em}"
    "rect.bar{fill-opacity:.8;stroke:#fff;stroke-width:.6}.calls{fill:#4a78c2}.time{fill:#e09a3a}.wait{fill:#b8b8b8}."
    "run{fill:#7aa874}.live{fill:#c9a13a}"
    ".sig{fill:#c2574a}.k-run{background:#7aa874}.k-sig{background:#c2574a}.k-live{background:#c9a13a}"
    "ul.cs{margin:0;padding-left:1.2em;list-style:'\\2190  '}#cs-options{list-style:none;padding-left:0}"
    ".lane{fill:#f6f6f6}.lane2{fill:#fff}#timeline-box{max-height:640px;overflow-y:auto}";

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

void html_esc(struct strbuf *sb, const char *s)
{
	html_esc_cut(sb, s, SIZE_MAX);
}

void html_esc_cut(struct strbuf *sb, const char *s, size_t max)
{
	struct strbuf d = STRBUF_INIT;
	size_t n = 0;

	rpt_add_display(&d, s ? s : "");
	for (const char *c = d.buf; *c; c++) {
		/* displayable text is valid UTF-8: count the starts of sequences, and cut before one */
		if (((unsigned char)*c & 0xc0) != 0x80 && n++ == max - 1 && c[utf8_seq_len((const unsigned char *)c)]) {
			strbuf_addstr(sb, "\xe2\x80\xa6"); /* U+2026, the ellipsis */
			break;
		}
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

void html_esc_sb(struct strbuf *sb, struct strbuf *src)
{
	html_esc(sb, src->buf);
	strbuf_reset(src);
}

const char *html_proc_name(const struct fp_proc *p)
{
	const char *name = p->comm;

	if (!*name && p->exe) {
		name = strrchr(p->exe, '/');
		name = name ? name + 1 : p->exe;
	}
	return *name ? name : "?";
}

static void summary(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view)
{
	struct strbuf t = STRBUF_INIT;
	size_t nsc = fp->syscalls.count;

	strbuf_addstr(sb, "<h1>kfootprint: ");
	rpt_add_workload(&t, fp);
	html_esc_sb(sb, &t);
	strbuf_addstr(sb, "</h1>\n<section id=\"summary\"><dl class=\"sum\">\n<dt>footprint</dt><dd");
	if (fp->complete) {
		strbuf_addstr(sb, ">complete");
	} else {
		strbuf_addstr(sb, " class=\"bad\">INCOMPLETE: ");
		html_esc(sb, fp->incomplete_why ? fp->incomplete_why : "unknown");
	}
	strbuf_addstr(sb, fp->argv ? "</dd>\n<dt>command</dt><dd class=\"mono\">" : "</dd>\n<dt>attached</dt><dd>");
	rpt_add_workload(&t, fp);
	html_esc_sb(sb, &t);
	if (fp->label) {
		strbuf_addstr(sb, "</dd>\n<dt>label</dt><dd>");
		html_esc(sb, fp->label);
	}
	if (fp->user) {
		strbuf_addstr(sb, "</dd>\n<dt>user</dt><dd>");
		html_esc(sb, fp->user);
	}
	strbuf_addstr(sb, "</dd>\n<dt>backend</dt><dd>");
	html_esc(sb, fp->backend ? fp->backend : "?");
	strbuf_addstr(sb, "</dd>\n<dt>host</dt><dd>");
	html_esc(sb, fp->host_kernel ? fp->host_kernel : "?");
	strbuf_addch(sb, ' ');
	html_esc(sb, fp->host_arch ? fp->host_arch : "");
	strbuf_addstr(sb, "</dd>\n<dt>started at</dt><dd>");
	html_esc(sb, fp->started_at ? fp->started_at : "?");
	strbuf_addf(sb, "</dd>\n<dt>elapsed</dt><dd>%.3f s</dd>\n<dt>exit</dt><dd>", fp->elapsed_s);
	rpt_add_exit(&t, &fp->exit);
	html_esc_sb(sb, &t);
	strbuf_addf(sb, "</dd>\n<dt>lost events</dt><dd%s>%" PRIu64 "</dd>\n", fp->lost_events ? " class=\"bad\"" : "",
		    fp->lost_events);
	strbuf_addf(sb,
		    "<dt>totals</dt><dd id=\"totals\">%" PRIu64 " calls, %" PRIu64
		    " errors, %zu syscall%s, %zu process%s</dd>\n",
		    fp__total_calls(fp), fp__total_errors(fp), nsc, nsc == 1 ? "" : "s", fp->nprocs,
		    fp->nprocs == 1 ? "" : "es");
	html_answer_summary(sb, fp, view);
	strbuf_addstr(sb, "</dl></section>\n");
	strbuf_release(&t);
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
		html_esc(sb, rpt_sc_name(s, nbuf, sizeof(nbuf)));
		strbuf_addstr(sb, "</td><td>");
		html_esc(sb, fp_sysstat_class(s));
		strbuf_addf(sb,
			    "</td><td class=\"n\" data-v=\"%" PRIu64 "\">%" PRIu64
			    "</td><td class=\"n\" data-v=\"%" PRIu64 "\">%" PRIu64 "</td><td>",
			    s->calls, s->calls, s->errors, s->errors);
		for (uint32_t i = 0; i < s->nerrnos; i++)
			strbuf_addf(sb, "%s%s&nbsp;%" PRIu64, i ? ", " : "", fp_errno_name(s->errnos[i].err),
				    s->errnos[i].count);
		strbuf_addf(sb, "</td><td class=\"n\" data-v=\"%" PRIu64 "\">%.3f</td><td class=\"mono\">", s->time_ns,
			    (double)s->time_ns / 1e6);
		html_esc(sb, fp_sysstat_api(s, abuf, sizeof(abuf)));
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

static void proc_files(struct strbuf *sb, const struct footprint *fp, const size_t *order)
{
	struct strbuf t = STRBUF_INIT;

	strbuf_addstr(sb, "<h2>Files per process</h2>\n<div id=\"files\">\n");
	for (size_t k = 0; k < fp->nprocs; k++) {
		const struct fp_proc *p = fp->procs[order[k]];
		struct fp_file **files = fp_proc_files_sorted(p);

		strbuf_addf(sb, "<details><summary>%d <b>", (int)p->pid);
		html_esc(sb, html_proc_name(p));
		strbuf_addstr(sb, "</b> ");
		rpt_add_exit(&t, &p->exit);
		html_esc_sb(sb, &t);
		strbuf_addf(sb, ", %u file%s, read %" PRIu64 " write %" PRIu64 "</summary>", p->nfiles,
			    p->nfiles == 1 ? "" : "s", p->opens_read, p->opens_write);
		if (p->exe || p->argv) {
			strbuf_addstr(sb, "<p class=\"mono\">");
			html_esc(sb, p->exe);
			if (p->argv && p->argv[0]) {
				strbuf_addstr(sb, "<br>");
				rpt_add_argv(&t, p->argv);
				html_esc_sb(sb, &t);
			}
			strbuf_addstr(sb, "</p>");
		}
		/* Some 20,000 rows for 5,000 processes: HTML's short form (no end tags) keeps the page small. */
		if (p->nfiles)
			strbuf_addstr(sb, "<table class=\"f\"><tr><th>path<th>read<th>write<th>errors");
		for (uint32_t i = 0; i < p->nfiles; i++) {
			strbuf_addstr(sb, "\n<tr><td>");
			html_esc(sb, files[i]->path);
			strbuf_addf(sb, "<td>%" PRIu64 "<td>%" PRIu64 "<td>%" PRIu64, files[i]->opens_read,
				    files[i]->opens_write, files[i]->errors);
		}
		strbuf_addstr(sb, p->nfiles ? "</table></details>\n" : "</details>\n");
		free(files);
	}
	strbuf_addstr(sb, "</div>\n");
	strbuf_release(&t);
}

static int render_opts(const struct footprint *fp, const struct text_opts *o, FILE *out)
{
	struct strbuf sb = STRBUF_INIT, t = STRBUF_INIT;
	size_t *depth = xcalloc(fp->nprocs + 1, sizeof(*depth)), *order = tree_order(fp, depth);
	const struct kmap_view *view = o ? o->view : NULL;
	int ret;

	strbuf_addstr(&sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
			   "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n<title>kfootprint: ");
	rpt_add_workload(&t, fp);
	html_esc_sb(&sb, &t);
	strbuf_addf(&sb, "</title>\n<style>%s</style></head><body>\n", css);
	/* the answer first (issue 23): what the kernel must have, then the charts, then the detail */
	summary(&sb, fp, view);
	html_answer(&sb, fp, view);
	html_csites(&sb, fp, view);
	html_klines(&sb, fp, view);
	ret = rpt_flush(&sb, out);
	if (!ret) {
		html_class_charts(&sb, fp);
		if (fp->nprocs)
			html_timeline(&sb, fp, order, depth);
		ret = rpt_flush(&sb, out);
	}
	if (!ret) {
		syscall_table(&sb, fp);
		html_sources(&sb, fp, view);
		ret = rpt_flush(&sb, out);
	}
	if (!ret && fp->nprocs) {
		proc_files(&sb, fp, order);
		ret = rpt_flush(&sb, out);
	}
	if (!ret) {
		strbuf_addf(&sb, "<script>%s</script>\n</body></html>\n", js);
		ret = rpt_flush(&sb, out);
	}
	strbuf_release(&sb);
	strbuf_release(&t);
	free(order);
	free(depth);
	return ret;
}

/* Without the command's view: a footprint mapped by record --map still shows its mapping. */
static int render(const struct footprint *fp, FILE *out)
{
	return render_opts(fp, NULL, out);
}

const struct renderer renderer_html = {
    {"html", "one self-contained page: the options and MAINTAINERS sections needed, charts, sortable tables, files"},
    render,
    render_opts,
    true};
