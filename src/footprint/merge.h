/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_FOOTPRINT_MERGE_H
#define KF_FOOTPRINT_MERGE_H

#include <stdint.h>

#include "footprint/footprint.h"
#include "util/sha256.h"

/*
 * Merged footprints (`kfootprint merge`, docs/reports.md "Merged footprints"). A merged footprint lists the
 * footprints that went into it as its sources (struct fp_source), each named by a digest: the SHA-256 of the
 * kfootprint/1 JSON this kfootprint writes for it. Each workload-wide syscall row keeps every source's share
 * (per_source) and its totals are their sums; each process keeps its source's index. Merging a merged
 * footprint adds its sources, never nests it; a source whose digest is already there is not added again. The
 * result depends only on the set of sources (their order is by start time, label, digest), so merging is
 * associative, commutative and idempotent, byte for byte in the written JSON.
 *
 * Memory: the merged footprint, i.e. distinct syscalls x sources plus the processes of every source; an input
 * is folded in and can be freed before the next one is loaded.
 */

/* The digest of a footprint that is not merged: hex[SHA256_HEX_LEN + 1]. */
void fp_digest(const struct footprint *fp, char *hex);

/* An empty merged footprint. */
struct footprint *fp_merge_new(void);
/*
 * Folds in a footprint (merged or not), copying what it takes: the sources whose digests m does not hold yet,
 * their shares of the syscall rows and their processes. Returns the number of sources added.
 */
uint32_t fp_merge_add(struct footprint *m, const struct footprint *in);
/* a + b, UINT64_MAX when past it: merged counts saturate. */
uint64_t fp_sat_add(uint64_t a, uint64_t b);
/* Puts the sources in order and sets the totals and the header (label: the merged footprint's, or NULL). */
void fp_merge_finish(struct footprint *m, const char *label);

#endif
