/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_H
#define KF_REPORT_H

#include <stdio.h>

#include "footprint/footprint.h"

/*
 * Renderers are pure functions of a footprint: they write to out and return 0, or -1 on a write error.
 *
 * Adding a format: one src/report/<name>.c with a `const struct renderer renderer_<name>`, its declaration
 * below and a row in renderers[] (report.c), the one registry: -F, --help, error messages and the tests take the
 * names from it. Then its expected output in tests/unit/test_report.c, and a line in README.md and the man page.
 */
struct renderer {
	const char *name;
	const char *help;
	int (*render)(const struct footprint *fp, FILE *out);
};

/* NULL when there is no such format. */
const struct renderer *renderer_find(const char *name);
/* The i-th renderer of the registry, NULL past the last. */
const struct renderer *renderer_at(size_t i);
/* "text, strace, rst, tree, json, csv" for messages and --help. */
const char *renderer_names(void);
/* The "formats:" section of --help: each name and its help. */
void renderer_help(FILE *out);

extern const struct renderer renderer_text;
extern const struct renderer renderer_strace;
extern const struct renderer renderer_rst;
extern const struct renderer renderer_tree;
extern const struct renderer renderer_json;
extern const struct renderer renderer_csv;
extern const struct renderer renderer_html;

#endif
