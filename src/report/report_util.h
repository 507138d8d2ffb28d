/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_UTIL_H
#define KF_REPORT_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include "footprint/footprint.h"
#include "util/strbuf.h"

/* Helpers shared by the renderers in src/report/; not part of the report.h interface. */

/*
 * Appends s for display on a terminal or in a document: control bytes and bytes that are not valid UTF-8
 * become \xHH, so a path from the workload can neither garble a terminal nor break a table.
 */
void rpt_add_display(struct strbuf *sb, const char *s);
/* Appends argv joined by spaces, each word quoted for a POSIX shell when it needs it, then made displayable. */
void rpt_add_argv(struct strbuf *sb, char *const *argv);
/* The workload in one line: the command, or "pids 12, 34" when attached, or "?" when neither is known. */
void rpt_add_workload(struct strbuf *sb, const struct footprint *fp);
/*
 * "INCOMPLETE: why (N lost)": how every format says that the footprint misses something (events lost, an
 * observation cut short), and why; the count is added when the reason does not give one. Only for a
 * footprint that is not complete.
 */
void rpt_add_incomplete(struct strbuf *sb, const struct footprint *fp);
/* For a footprint that is not complete, "footprint INCOMPLETE: ..." as a line of its own to out; rpt_flush()'s result.
 */
int rpt_incomplete_line(const struct footprint *fp, FILE *out);
/* Appends s (NULL: empty) as an RFC 4180 field: quoted, its quotes doubled, when it holds a comma, a quote, CR or LF.
 */
void rpt_add_csv_field(struct strbuf *sb, const char *s);
/* "code 0", "signal SIGKILL (core dumped)", "still running". */
void rpt_add_exit(struct strbuf *sb, const struct fp_exit *e);
/* A syscall's display name: "openat", or "open (i386)" for an ABI other than the host's. */
const char *rpt_sc_name(const struct fp_sysstat *s, char *buf, size_t len);

/* The workload-wide syscalls grouped by class, classes in the seed's order, rows by calls then name. */
struct rpt_group {
	const char *klass;
	struct fp_sysstat **rows;
	size_t n;
};
/* Returns the groups (caller calls rpt_groups_free); *n is their number. */
struct rpt_group *rpt_groups(const struct footprint *fp, size_t *n);
void rpt_groups_free(struct rpt_group *g, size_t n);

/* The process tree as `tree` prints it (used by `text` too). Returns 0 or -1 on a write error. */
int rpt_tree(const struct footprint *fp, FILE *out);

/* Writes the strbuf's contents; -1 on a write error. */
int rpt_flush(struct strbuf *sb, FILE *out);

#endif
