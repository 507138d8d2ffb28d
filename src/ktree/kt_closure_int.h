/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KTREE_KT_CLOSURE_INT_H
#define KF_KTREE_KT_CLOSURE_INT_H

#include "ktree/kt_internal.h"

/*
 * The closure over a parsed Kconfig (kt_closure.c), for kt_index_closure() and the unit tests: arch is what
 * $(ARCH) and $(SRCARCH) expand to ("x86"), forced the space-separated symbols on whatever is assigned (the ABI's
 * tree_on, "X86 X86_64 64BIT MMU"). Returns 0 when every wanted value can hold, -1 when out->unmet says why not.
 */
int kt_closure_solve(const struct kt_kconfig *kc, const char *arch, const char *forced, const struct kt_want *want,
		     size_t n, struct kt_closure *out);
void kt_need_release(struct kt_need *n);

#endif
