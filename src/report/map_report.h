/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_MAP_REPORT_H
#define KF_REPORT_MAP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "kmap/kmap.h"

/*
 * Renderers of a mapping (kfootprint map, record --map): pure functions of a struct fp_kernel_map writing to
 * out, returning 0 or -1 on a write error. Their own table, apart from the footprint renderers: a mapping is
 * not a footprint. Adding one: src/report/map_<name>.c, a row in map_renderers[] (map_report.c), the one
 * registry the names come from everywhere, a test in tests/integration/map_formats.sh and a section in
 * docs/map.md.
 */
struct map_renderer {
	const char *name;
	const char *help;
	int (*render)(const struct fp_kernel_map *m, FILE *out);
};

const struct map_renderer *map_renderer_find(const char *name);
const struct map_renderer *map_renderer_at(size_t i); /* NULL past the last */
const char *map_renderer_names(void);		      /* "text, rst, json, kconfig" */
void map_renderer_help(FILE *out);		      /* the "formats:" section of --help */

extern const struct map_renderer map_renderer_text;
extern const struct map_renderer map_renderer_rst;
extern const struct map_renderer map_renderer_json;
extern const struct map_renderer map_renderer_kconfig;

/*
 * record --map: renders every mapping the annotate stage attached to fp (annotate_builtin()) in format, one
 * after the other; after_report: a text or rst map is set apart from the report before it by a blank line.
 * 0, or -1 after reporting the error.
 */
int map_render_attached(const struct footprint *fp, const char *format, bool after_report, FILE *out);

/*
 * The "Kernel functions" part of a mapping whose footprint has them (m->kf), map_kfuncs.c: the text part, the
 * JSON member "kernel_functions" (null when none), the Kconfig fragment's lines, and the one-line summaries.
 */
void map_kfuncs_text(const struct kfmap *kf, FILE *out);
void map_kfuncs_json(json_writer_t *w, const struct kfmap *kf);
/* The self-check against the running kernel (map_check.c, kmap/kmap_check.h): lines of the text, "self_check". */
void map_check_text(const struct fp_kernel_map *m, FILE *out);
void map_check_json(json_writer_t *w, const struct fp_kernel_map *m);
void map_kfuncs_kconfig(const struct fp_kernel_map *m, FILE *out);
/* "7 functions: 4 with one definition, 0 resolved by DWARF, ..." */
const char *map_kfuncs_summary(const struct kfmap *kf, char *buf, size_t len);
/* "function_graph, exhaustive, 0 lost" or "sampled, not exhaustive, 0 lost" */
const char *map_kfuncs_method(const struct kfmap *kf, char *buf, size_t len);

/* Shared by the renderers. */
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
