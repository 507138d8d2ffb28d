/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_FORMAT_H
#define KF_REPORT_FORMAT_H

#include <stddef.h>
#include <stdio.h>

/*
 * The one shape of a renderer registry (footprints, maps, inventories, diffs): each renderer struct begins with
 * a struct format, and its registry is a struct format_table listing those heads. Lookup, the name list of -F's
 * help and of "expected one of ...", the "formats:" section of --help and the unknown-format error all come from
 * the table, so a format is one row. What a renderer renders (a footprint, a mapping, ...) is its struct's own
 * typed member; the typed find of each registry is format_find() and container_of.
 */
struct format {
	const char *name;
	const char *help;
};

struct format_table {
	int width;			  /* --help's name column */
	const struct format *const *rows; /* NULL-terminated, in the order listed */
	char names[128];		  /* "text, json, csv": made on first format_names() */
};

/* NULL when there is no such name (or name is NULL). */
const struct format *format_find(const struct format_table *t, const char *name);
/* The i-th row, NULL past the last. */
const struct format *format_at(const struct format_table *t, size_t i);
/* "text, strace, rst": for messages and --help. */
const char *format_names(struct format_table *t);
/* The "formats:" section of --help: each name and its help. */
void format_help(const struct format_table *t, FILE *out);
/* 0 when name is a row; else -1 after "unknown <noun> 'name': expected one of ..." (noun NULL: "format"). */
int format_check(struct format_table *t, const char *noun, const char *name);

/* The struct of type T whose member M is the format p points at; NULL for NULL. */
#define FORMAT_OF(p, T, M) ((p) ? (const T *)(const void *)((const char *)(p)-offsetof(T, M)) : (const T *)NULL)

#endif
