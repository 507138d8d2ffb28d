/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_DIFF_H
#define KF_REPORT_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "footprint/footprint.h"
#include "report/format.h"

/*
 * kfootprint diff: two annotated footprints compared item kind by item kind (syscalls with their ABI, errnos,
 * kernel options, processes by executable; a new kind of item is one row of diff_kinds[] in diff.c with its
 * collect function). An item is a key, an ABI where the kind has one, and a count on each side; the diff is
 * what was added, removed, or changed in count beyond the thresholds.
 *
 * A "need" is what makes `kfootprint diff` exit 1, so that CI can gate on it: an item added in NEW of a kind
 * whose row says so (a syscall of an ABI, a kernel option), and, with a fail ratio, an increase of a count
 * of a kind whose row allows it. The renderers (text, json schema kfootprint-diff/1, markdown) are pure
 * functions of a struct diff.
 */
#define DIFF_SCHEMA "kfootprint-diff/1"

struct diff_list;

struct diff_kind {
	const char *name;  /* "syscall": the JSON "kind" */
	const char *title; /* "syscalls": section headings */
	const char *unit;  /* what the counts count: "calls" */
	bool need;	   /* an item added in NEW is a need */
	bool count_need;   /* an increase beyond the fail ratio is a need */
	/* Adds the items of one side: diff_list_add() for each; the same key twice is summed. */
	void (*collect)(const struct footprint *fp, struct diff_list *out);
	/* NULL: every footprint has the kind; else whether fp has it: a side without it compares nothing. */
	bool (*present)(const struct footprint *fp);
};

/* A key (and ABI, or NULL) with count n; key is copied. */
void diff_list_add(struct diff_list *l, const char *key, const char *abi, uint64_t n);

enum diff_change { DIFF_SAME, DIFF_ADDED, DIFF_REMOVED, DIFF_MORE, DIFF_FEWER };

struct diff_item {
	const struct diff_kind *kind;
	char *key;	 /* "openat", "openat ENOENT", "EVENTFD", "/usr/bin/ls" */
	const char *abi; /* syscalls and errnos: "x86_64"; NULL for kinds without one */
	uint64_t old, new;
	enum diff_change change; /* never DIFF_SAME in struct diff */
	bool need;
};

struct diff_opts {
	double calls_ratio; /* a count change is listed when the larger count is >= calls_ratio * the smaller */
	uint64_t min_calls; /* ... and the counts differ by at least min_calls */
	double fail_ratio;  /* > 0: an increase by this ratio (and by min_calls) of a count_need kind is a need */
	bool all;	    /* list every count change, whatever the thresholds */
};

/* What the header says of a side. */
struct diff_side {
	const char *file; /* as given on the command line */
	char *workload;	  /* the command line, displayable */
	char *label;	  /* NULL when none */
	uint64_t calls;
	size_t procs;
};

struct diff {
	struct diff_opts opts;
	struct diff_side old, new;
	struct diff_item *items; /* by kind (table order), then key, then ABI */
	size_t nitems;
	size_t nadded, nremoved, nchanged, nneeds;
};

/* The kinds, in the order the renderers show them; NULL-terminated. */
extern const struct diff_kind *const diff_kinds[];

/*
 * Compares two footprints, annotated (classes and kernel maps: the options come from the maps). The items
 * take no pointer into either footprint but the ABI names (static). Never fails.
 */
struct diff *diff_build(const struct footprint *old, const char *old_file, const struct footprint *new,
			const char *new_file, const struct diff_opts *o);
void diff_free(struct diff *d);
/* "added", "removed", "more", "fewer". */
const char *diff_change_name(enum diff_change c);

/* The renderers: 0, or -1 on a write error. */
struct diff_format {
	struct format f; /* heads the row: name, help (report/format.h) */
	int (*render)(const struct diff *d, FILE *out);
};
const struct diff_format *diff_format_find(const char *name);
/* "text, json, markdown" */
const char *diff_format_names(void);
void diff_format_help(FILE *out);
/* 0 when name is a format; else -1 after "unknown format 'name': expected one of ...". */
int diff_format_check(const char *name);

#endif
