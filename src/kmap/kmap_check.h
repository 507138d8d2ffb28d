/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_KMAP_CHECK_H
#define KF_KMAP_KMAP_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kmap/kmap.h"

/*
 * The mapping's self-check against the running kernel (issue 25): a call that succeeded on the kernel that
 * recorded it cannot need an option that kernel has off. When the footprint was recorded on the running kernel
 * (its release is the footprint's host_kernel) and /proc/config.gz was read, every required syscall or refinement
 * with a successful call whose path needs an option the running kernel has not set ("n"; or, when the tree and the
 * running kernel are one version, not named by its configuration at all) is a contradiction: a mapping error of
 * kfootprint's, never the workload's.
 */
struct kmap_contra {
	const char *option;  /* "DNOTIFY" */
	const char *running; /* "n" or "absent" */
	const char *by;	     /* the syscall or the refinement's label ("fcntl F_NOTIFY") */
	uint64_t ok;	     /* its calls that succeeded */
};

enum kmap_check_state {
	KMAP_CHECKED,
	KMAP_CHECK_NO_FOOTPRINT, /* named syscalls: no calls to check */
	KMAP_CHECK_NO_CONFIG,	 /* the running kernel's configuration is not known */
	KMAP_CHECK_OTHER_KERNEL, /* the footprint was recorded on another kernel (or says not which) */
};

/* The contradictions of m (*out malloc'd, of *n); returns the state: only KMAP_CHECKED found any. */
enum kmap_check_state kmap_check(const struct fp_kernel_map *m, struct kmap_contra **out, size_t *n);
/* "checked", "no footprint", "no running configuration", "recorded on another kernel" */
const char *kmap_check_state_name(enum kmap_check_state s);

#endif
