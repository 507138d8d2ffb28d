/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_MAP_REPORT_H
#define KF_REPORT_MAP_REPORT_H

#include <stdio.h>

#include "kernel/kmap.h"

/*
 * Renderers of a mapping (kfootprint map, record --map): pure functions of a struct fp_kernel_map writing to
 * out, returning 0 or -1 on a write error. Their own table, apart from the footprint renderers: a mapping is
 * not a footprint. Adding one: src/report/map_<name>.c, a row in map_renderers[] (map_report.c), a test in
 * tests/integration/map_formats.sh and a section in docs/map.md.
 */
struct map_renderer {
	const char *name;
	const char *help;
	int (*render)(const struct fp_kernel_map *m, FILE *out);
};

const struct map_renderer *map_renderer_find(const char *name);
const char *map_renderer_names(void); /* "text, rst, json, kconfig" */

extern const struct map_renderer map_renderer_text;
extern const struct map_renderer map_renderer_rst;
extern const struct map_renderer map_renderer_json;
extern const struct map_renderer map_renderer_kconfig;

/*
 * record --map: maps a finished footprint with the built-in database (one mapping per ABI it used, x86_64
 * first) and renders it in format to out. 0, or -1 after reporting the error.
 */
int map_footprint_report(const struct footprint *fp, const char *format, FILE *out);

/*
 * record --map -o FILE: adds the mapping to the saved footprint, as DESIGN.md has it: syscalls[].kernel (the
 * row of `map -F json` without the counts the footprint already has) and a top-level "configs" roll-up (options
 * of i386 rows name them "i386:NAME"). The annotated JSON text (malloc'd), or NULL after reporting the error.
 */
char *map_annotate_footprint_json(const struct footprint *fp);

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
/* The JSON objects of one syscall row and one option of map -F json (map_json.c). */
struct json_object;
struct json_object *map_json_row(const struct fp_kernel_map *m, const struct kmap_row *r);
struct json_object *map_json_option(const struct kmap_opt *o);
/* "init/Kconfig:1650", or NULL when the option has no Kconfig entry. */
const char *map_opt_where(const struct kmap_opt *o, char *buf, size_t len);
/* The running value as shown: "y", "n", "unknown". */
const char *map_opt_running(const struct kmap_opt *o);

#endif
