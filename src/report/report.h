/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_H
#define KF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "footprint/footprint.h"
#include "report/format.h"

/*
 * Renderers are pure functions of a footprint: they write to out and return 0, or -1 on a write error.
 *
 * Adding a format: one src/report/<name>.c with a `const struct renderer renderer_<name>`, its declaration
 * below and a row in renderers[] (report.c), the one registry (report/format.h's shape, as the map, inventory
 * and diff formats): -F, --help, error messages and the tests take the names from it. Then its expected output in
 * tests/unit/test_report.c, and a line in docs/output.md and the man page.
 */
struct text_opts;
struct renderer {
	struct format f; /* heads the row: name, help */
	int (*render)(const struct footprint *fp, FILE *out);
	/* The same with the text report's options (record and report -S, -P, --by-class); NULL: it takes none. */
	int (*render_opts)(const struct footprint *fp, const struct text_opts *o, FILE *out);
	/* It reads the Kconfig closure of the view (annotate_view()'s databases, then loaded with their Kconfig facts,
	 * the larger half: the text summary does not need them). */
	bool closure;
};

/* NULL when there is no such format. */
const struct renderer *renderer_find(const char *name);
/* The i-th renderer of the registry, NULL past the last. */
const struct renderer *renderer_at(size_t i);
/* "text, strace, rst, tree, json, csv" for messages and --help. */
const char *renderer_names(void);
/* The "formats:" section of --help: each name and its help. */
void renderer_help(FILE *out);
/* 0 when name is a format; else -1 after "unknown format 'name': expected one of ...". */
int renderer_check(const char *name);

/*
 * Options of the text report, given to record and report (-S, -P, --by-class); the other formats have none.
 * The commands keep them in their options struct and render through renderer_render().
 */
struct kmap_view;
struct text_opts {
	const char *sort; /* -S: calls, time, errors, name; NULL: time when the footprint has times, else calls */
	bool per_process; /* -P: a table per process whatever their number (without: when 2 to TEXT_FEW_PROCS) */
	bool by_class;	  /* --by-class: a table per subsystem class in place of the one syscall table */
	/* the built-in databases' mapping for the summary's kconfig: and maintainers: lines, made by the command
	 * before rendering (annotate_view) for a footprint that has no mapping of its own; NULL: no such lines */
	const struct kmap_view *view;
};
#define TEXT_FEW_PROCS 4

/* "calls, time, errors, name": the -S keys. */
const char *text_sort_names(void);
/* 0, or -1 after a message: an unknown -S key, or text options given with another format. */
int text_opts_check(const struct text_opts *o, const char *format);
/* The text report with its options (NULL: the defaults, as renderer_text.render). */
int text_render(const struct footprint *fp, const struct text_opts *o, FILE *out);
/* Renders fp with r, passing o to the text report; what commands call. */
int renderer_render(const struct renderer *r, const struct footprint *fp, const struct text_opts *o, FILE *out);

extern const struct renderer renderer_text;
extern const struct renderer renderer_strace;
extern const struct renderer renderer_rst;
extern const struct renderer renderer_tree;
extern const struct renderer renderer_json;
extern const struct renderer renderer_csv;
extern const struct renderer renderer_html;

#endif
