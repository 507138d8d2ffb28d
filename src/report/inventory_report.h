/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_INVENTORY_REPORT_H
#define KF_REPORT_INVENTORY_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "inventory/inventory.h"
#include "report/format.h"
#include "util/strbuf.h"

/*
 * Renderers of an inventory (kfootprint inventory): pure functions writing to out, 0 or -1 on a write error.
 * top: how many rows the text and rst lists show (0: all); json and csv always hold every row. Adding one:
 * src/report/inventory_<name>.c and a row in renderers[] (inventory_text.c).
 */
struct inv_renderer {
	struct format f; /* heads the row: name, help (report/format.h) */
	int (*render)(const struct inventory *inv, size_t top, FILE *out);
};

const struct inv_renderer *inv_renderer_find(const char *name);
const char *inv_renderer_names(void); /* "text, json, csv, rst" */
void inv_renderer_help(FILE *out);    /* the "formats:" section of --help */
/* 0 when name is a format; else -1 after "unknown format 'name': expected one of ...". */
int inv_renderer_check(const char *name);

int inv_render_text(const struct inventory *inv, size_t top, FILE *out);
int inv_render_json(const struct inventory *inv, size_t top, FILE *out);
int inv_render_csv(const struct inventory *inv, size_t top, FILE *out);
int inv_render_rst(const struct inventory *inv, size_t top, FILE *out);

/* Shared: built-in, lib.a and module totals; the files observed; "syscall 12, function 3" of hits. */
struct inv_totals {
	size_t files[3], gen;
	long sloc[3];
	size_t seen_files, seen_opts;
	long seen_sloc;
};
void inv_totals(const struct inventory *inv, struct inv_totals *t);
void inv_add_hits(struct strbuf *sb, const uint64_t *hits);

#endif
