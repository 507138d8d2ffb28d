/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TAILOR_ROUND_H
#define KF_TAILOR_ROUND_H

#include <stdint.h>

#include "tailor/kbuild.h"
#include "tailor/tailor.h"

/* What every round shares. */
struct tl_ctx {
	const char *src, *cache, *workdir;
	struct kt_index *idx;
	const struct mapdb *db;
	struct footprint *orig;
	char *const *argv; /* the command re-run in the guest */
	struct tl_wants wants;
	unsigned jobs, timeout_s;
	uint64_t cache_max;
};

struct tl_round {
	int round;
	struct kt_closure closure;
	char *fragment;
	struct tl_kernel kernel;
	char *bzimage, *dir, *initrd;
	struct tl_retest retest;
	struct footprint *fp; /* the re-test's footprint; NULL when the guest wrote none */
	struct tl_diffs diffs;
};

/* Closure, build, initramfs, re-test: 0 when the guest ran (r says how it went), -1 after a message. */
int tl_round(struct tl_ctx *x, int round, struct tl_round *r);
void tl_round_release(struct tl_round *r);

#endif
