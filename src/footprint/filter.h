/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_FOOTPRINT_FILTER_H
#define KF_FOOTPRINT_FILTER_H

#include <stdbool.h>

#include "abi/abi.h"
#include "footprint/footprint.h"

/*
 * strace's -e trace=SET and -e status=SET, for what is shown: the report (fp_filter_apply() on the footprint
 * `report` loaded; record's through fp_filter_view(), which leaves the footprint it saved as it was) and the
 * --log lines (fp_filter_call()). A saved footprint keeps every call.
 *
 * SET is a comma list of syscall names (of any ABI's table), strace's classes (%file, %network, %process,
 * %signal, %memory, %ipc, %desc, %creds, %clock, from strace's own tables: abi/syscalls.h), "all" or "none";
 * a leading '!' negates the whole set (trace=!close,read: every call but those two), as strace's does. Several
 * -e trace= add up. status=SET: successful, failed, all, or a negation (!failed).
 */
struct fp_filter_op {
	bool out;	  /* a negated set: the matching calls are taken out */
	unsigned classes; /* enum kf_strace_class bits; 0 with name NULL: all */
	const char *name; /* a syscall name; NULL for a class or all */
};

struct fp_filter {
	struct fp_filter_op *ops; /* in order: the last op a call matches decides */
	size_t nops;
	bool trace;		       /* a trace= was given: calls matching no op are left out */
	bool failed;		       /* status= was given: show failed calls ... */
	bool successful;	       /* ... successful ones (both or neither: all) */
	signed char *cache[KF_ABI_NR]; /* per ABI, by number: 1 in, 0 out, -1 not computed yet */
	int cache_len[KF_ABI_NR];
};

/* Adds one -e EXPR ("trace=SET", "status=SET", or a bare SET for trace); 0, or -1 after a one-line message. */
int fp_filter_parse(struct fp_filter *f, const char *expr);
/* Any trace= or status= was given. */
bool fp_filter_active(const struct fp_filter *f);
/* Whether a call of (abi, nr), named name when its number has no row, is shown. */
bool fp_filter_call(struct fp_filter *f, enum kf_abi abi, int nr, const char *name, bool failed);
/*
 * Leaves in fp only what the filter shows: syscall rows (workload-wide, per process, per source) of the traced
 * set, their failed or successful calls (a row's time is kept only when all its calls are of the kind shown:
 * the footprint does not split time by outcome), and the files list when an open call is in the set (failed or
 * successful opens as status says).
 */
void fp_filter_apply(struct fp_filter *f, struct footprint *fp);
/*
 * The filter as a view of fp, which is not changed: fp itself when no -e was given, else a footprint that shows
 * what fp_filter_apply() leaves, whose syscall rows (workload-wide and per process) and files are its own and
 * whose everything else (header, annotations, kinds' parts) is fp's, borrowed: fp must outlive it. For record,
 * whose saved footprint keeps every call and whose report and map show only the filtered ones.
 */
const struct footprint *fp_filter_view(struct fp_filter *f, const struct footprint *fp);
/* Frees a view (nothing when it is fp). */
void fp_filter_view_free(const struct footprint *view, const struct footprint *fp);
void fp_filter_release(struct fp_filter *f);

#endif
