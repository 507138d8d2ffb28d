/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_FOOTPRINT_JSON_H
#define KF_FOOTPRINT_JSON_H

#include <stddef.h>

#include "footprint/footprint.h"

/*
 * Internals of the kfootprint/1 reader and writer shared with tests and the fuzz harness; everyone else uses
 * fp__write_json(), fp__save() and fp__load() from footprint.h.
 */

/* Parses a document held in memory; `what` names it in messages ("kfootprint: 'what': why"). */
struct footprint *fp__load_mem(const char *buf, size_t len, const char *what);

/* Order of syscalls[] in the JSON and of most reports: calls descending, then name, then ABI. */
int fp_sysstat_cmp_calls(const void *a, const void *b);

/* The key of a per-process syscall: "openat" for the host ABI, "i386:open" for another one; buf >= 64. */
const char *fp_sysstat_key(const struct fp_sysstat *s, char *buf, size_t len);

/* An item's "kernel" member, the annotate stage's object; nothing when the item is not mapped. */
void fp_write_kernel(json_writer_t *w, const struct fp_annot *a);

#endif
