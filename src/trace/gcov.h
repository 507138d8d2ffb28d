/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_GCOV_H
#define KF_TRACE_GCOV_H

/*
 * record --kernel-lines=gcov (gcov.c) and its reader of GCC's own gcov output (gcov_json.c): the kernel's gcov
 * counters reset before the workload and read after, the .gcda files copied out of debugfs and given with the
 * build's .gcno files to GCC's `gcov --json-format --stdout`, as lcov's geninfo does, whose lines become the
 * footprint's kernel lines (method gcov) with their counts: the whole guest's, never the workload's alone.
 */
#include <stddef.h>
#include <stdint.h>

#include "footprint/kline.h"

/* The lines read so far, before they go into a footprint: kept apart, sorted once (k's rows are a sorted array). */
struct kl_gline {
	const char *file; /* one of files[] */
	uint32_t line;
	uint64_t count;
	const char *function; /* one of strs[], or NULL */
};
struct kl_glines {
	struct kl_gline *v;
	size_t n, cap;
	char **strs; /* the files' and functions' names, each once per file of a document */
	size_t nstrs, scap;
};

/*
 * Reads the documents of `gcov --json-format --stdout` (one a line, as gcov writes them) into acc. A file is
 * named relative to the tree: the object's compile directory (the document's current_working_directory) and the
 * source tree it links as `source` (kbuild's O=) are taken off its path. 0, or -1 with *err one line (owned by
 * the caller), acc then holding the lines read before.
 */
int kl_gcov_json(struct kl_glines *acc, const char *text, size_t len, char **err);
/* acc's lines into k, counts summed over the objects that compiled a line (a header's inline code), each
 * line's function its first one; acc emptied. */
void kl_glines_into(struct kl_glines *acc, struct fp_klines *k);
void kl_glines_release(struct kl_glines *acc);

/* The recorder's half in kcov.c's --kernel-lines: NULL never; what cannot be done is said in k->why_not. */
struct kl_gcov;
struct kl_gcov *kl_gcov_new(struct footprint *fp);
void kl_gcov_start(struct kl_gcov *g);			      /* the counters reset */
void kl_gcov_finish(struct kl_gcov *g, struct footprint *fp); /* fp NULL: tear down only; frees g */

/* The running kernel's release, build id and _text into k (kcov.c). */
void kl_kernel_identity(struct fp_klines *k);

#endif
