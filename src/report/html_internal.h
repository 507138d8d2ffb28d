/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_HTML_INTERNAL_H
#define KF_REPORT_HTML_INTERNAL_H

/*
 * The parts of the HTML page (report.h: renderer_html) shared by its files: html.c (the page, the summary, the
 * syscall table, the files), html_kernel.c (the answer: options, MAINTAINERS sections, what the calls reached,
 * the sources) and html_charts.c (the class charts, the process timeline). Not for the other renderers.
 */

#include <stddef.h>

#include "footprint/footprint.h"
#include "util/strbuf.h"

struct kmap_view;
struct fp_kernel_map;

/* Text of the footprint, made displayable (rpt_add_display), then escaped for HTML text and quoted attributes. */
void html_esc(struct strbuf *sb, const char *s);
/* The same, cut to at most max characters (code points), the cut said by a trailing ellipsis. */
void html_esc_cut(struct strbuf *sb, const char *s, size_t max);
/* A strbuf already displayable (built by the report_util helpers), escaped, then emptied. */
void html_esc_sb(struct strbuf *sb, struct strbuf *src);
/* The process's comm, else its executable's base name, else "?". */
const char *html_proc_name(const struct fp_proc *p);

/*
 * The mappings the page shows: fp's own (record --map), else the view the command made from the built-in
 * databases (annotate_view), else none. *maps stays valid while fp and view live.
 */
size_t html_maps(const struct footprint *fp, const struct kmap_view *view, const struct fp_kernel_map *const **maps);

/* The summary's kconfig: and maintainers: lines (<dt>/<dd> pairs) pointing at the answer below; nothing unmapped. */
void html_answer_summary(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view);
/* The answer: the options needed with their labels, the MAINTAINERS sections, what the calls reached. */
void html_answer(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view);
/* Each syscall's source file, section, running status and options: the detail behind the answer. */
void html_sources(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view);

/* Per option needed, the tree of its call sites (record --call-sites): what needed it, the keys, their frames. */
void html_csites(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view);
/* The kernel lines (html_kline.c): per option and file from a mapping that placed them, else per file. */
void html_klines(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view);

/* Calls per subsystem class, then time per class apart from the time spent waiting (poll, accept, wait4...). */
void html_class_charts(struct strbuf *sb, const struct footprint *fp);
/*
 * The processes in time: a lane per process in tree order (order, depth: html.c's tree_order) when they are
 * few, else a lane per program name with a bar for each of its processes.
 */
void html_timeline(struct strbuf *sb, const struct footprint *fp, const size_t *order, const size_t *depth);

#endif
