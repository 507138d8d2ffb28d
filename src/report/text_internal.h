/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_TEXT_INTERNAL_H
#define KF_REPORT_TEXT_INTERNAL_H

/*
 * The parts of the text report (report.h: text_render) shared by its files: text.c (header, syscall and class
 * tables, per-process tables, errors), text_reach.c (what the calls reached), each kind's section (kind_report.h)
 * and text_table.c (the aligned tables they print). Not for the other renderers.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "footprint/footprint.h"
#include "util/strbuf.h"

#define TEXT_MAXCOLS 7

/* A table of strings: names left, numbers right, columns two spaces apart, trailing blanks dropped. */
struct text_table {
	size_t ncols, nrows, cap;
	const char *heads[TEXT_MAXCOLS];
	bool right[TEXT_MAXCOLS];
	char **cells; /* nrows x ncols */
};
/* Appends a row of ncols malloc'd cells, which the table then owns. */
void text_table_add(struct text_table *t, char *const cells[]);
/* Appends the heads, a line of dashes and the rows, each line after indent; frees the cells. */
void text_table_print(struct strbuf *sb, const char *indent, struct text_table *t);

static inline const char *text_plural(uint64_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/* Orders fp_sysstat pointers (fp_sctab_sorted) by calls, most first; ties by name, then ABI. */
int text_cmp_calls(const void *a, const void *b);

/* "reached, by system call": per syscall, the fd kinds, sockets, ioctl commands... it reached; or nothing. */
void text_reached_section(struct strbuf *sb, const struct footprint *fp);
/*
 * The summary's answer (text_summary.c): "top classes:" by what each call reached, and "kconfig:" and
 * "maintainers:", what the kernel needs for the workload, from the footprint's maps or the built-in databases.
 */
void text_summary_classes(struct strbuf *sb, const struct footprint *fp);
/* "at attach:    read 1 (...)": the calls -p found in progress (struct fp_sysstat.at_attach); nothing when none. */
void text_summary_at_attach(struct strbuf *sb, const struct footprint *fp);
struct kmap_view;
void text_summary_kernel(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view);
/* "kernel functions": totals, the top table and the functions under each syscall; nothing when not recorded. */

#endif
