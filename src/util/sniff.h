/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_SNIFF_H
#define KF_UTIL_SNIFF_H

#include <stddef.h>

/* How many first bytes kf_sniff() looks at (it takes fewer). */
#define KF_SNIFF_LEN 4096

/*
 * What the first bytes of a file look like, for a reader's refusal: "an HTML page (kfootprint report -F html?)",
 * "an OCI seccomp profile (...)", "a footprint", "a gzip file (...)", "a kernel .config", "a strace log", ... A
 * static string, or NULL when they look like nothing known. The reader that asked says what it expected.
 */
const char *kf_sniff(const void *buf, size_t len);
/* What kf_sniff() returns for the kinds readers expect, compared by pointer: a reader says nothing new of them. */
extern const char kf_sniff_footprint[], kf_sniff_mapdb[], kf_sniff_config[];

#endif
