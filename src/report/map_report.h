/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_MAP_REPORT_H
#define KF_REPORT_MAP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "kmap/kmap.h"
#include "report/format.h"

/*
 * Renderers of a mapping (kfootprint map, record --map): pure functions of a struct fp_kernel_map writing to
 * out, returning 0 or -1 on a write error. Their own table, apart from the footprint renderers: a mapping is
 * not a footprint. Adding one: src/report/map_<name>.c, a row in map_renderers[] (map_report.c), the one
 * registry the names come from everywhere, a test in tests/integration/map_formats.sh and a section in
 * docs/map.md.
 */
struct map_renderer {
	struct format f; /* heads the row: name, help (report/format.h) */
	int (*render)(const struct fp_kernel_map *m, FILE *out);
	bool document; /* a document of its own (JSON, a fragment): record --map sets it apart by no blank line */
	/* Whether m has what the format needs: 0, or -1 after a message, before any output is begun; or NULL. */
	int (*ready)(const struct fp_kernel_map *m);
};

const struct map_renderer *map_renderer_find(const char *name);
const struct map_renderer *map_renderer_at(size_t i); /* NULL past the last */
const char *map_renderer_names(void);		      /* "text, rst, json, kconfig" */
void map_renderer_help(FILE *out);		      /* the "formats:" section of --help */
/* 0 when name is a map format; else -1 after "unknown NOUN 'name': expected one of ..." */
int map_renderer_check(const char *noun, const char *name);

extern const struct map_renderer map_renderer_text;
extern const struct map_renderer map_renderer_rst;
extern const struct map_renderer map_renderer_json;
extern const struct map_renderer map_renderer_kconfig;
extern const struct map_renderer map_renderer_lcov;

/*
 * record --map: renders every mapping the annotate stage attached to fp (annotate_builtin()) in format, one
 * after the other; after_report: a text or rst map is set apart from the report before it by a blank line.
 * 0, or -1 after reporting the error.
 */
int map_render_attached(const struct footprint *fp, const char *format, bool after_report, FILE *out);

/* The self-check against the running kernel (map_check.c, kmap/kmap_check.h): lines of the text, "self_check". */
void map_check_text(const struct fp_kernel_map *m, FILE *out);
void map_check_json(json_writer_t *w, const struct fp_kernel_map *m);
/* Shared by the renderers. */
/* reStructuredText (map_rst.c): escaped text, a ``literal``, list-table cells and rows, a heading. */
void rst_esc(FILE *out, const char *s);
void rst_lit(FILE *out, const char *s);
void rst_cell_start(FILE *out, bool first);
void rst_cell_list(FILE *out, const char *const *v, size_t n, bool literal);
void rst_cell_text(FILE *out, const char *s);
void rst_cell_lit(FILE *out, const char *s);
void rst_heading(FILE *out, const char *title, char under);
void rst_header_rows(FILE *out, const char *const *names, size_t n);
/* "Linux 6.1.192 (built-in database; configuration: ...)" */
const char *map_tree_line(const struct fp_kernel_map *m, char *buf, size_t len);
/* "6.18.44 (config: /proc/config.gz, syscalls: /proc/kallsyms)" or the reasons they are unknown */
const char *map_running_line(const struct fp_kernel_map *m, char *buf, size_t len);
/* Counts for the summary line. */
struct map_counts {
	size_t rows, required, probes, newer, unresolved;
};
void map_count(const struct fp_kernel_map *m, struct map_counts *c);
/* "init/Kconfig:1650", or NULL when the option has no Kconfig entry. */
const char *map_opt_where(const struct kmap_opt *o, char *buf, size_t len);
/* The running value as shown: "y", "n", "unknown". */
const char *map_opt_running(const struct kmap_opt *o);

#endif
