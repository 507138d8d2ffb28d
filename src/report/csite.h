/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_CSITE_H
#define KF_REPORT_CSITE_H

/*
 * Call sites (footprint/csite.h) in one line, for the renderers that name them beside something else: map's
 * options, seccomp's rules, the html page's option tree.
 */
#include <stdio.h>

#include "footprint/csite.h"
#include "util/strbuf.h"

struct fp_kernel_map;

/* "libkfcsite.so kf_csite_lib_eventfd", or "app+0x1139" where no symbol covers the frame. */
void csite_frame_short(struct strbuf *sb, const struct fp_csite_frame *f);
/* The stack's innermost max frames, joined by " <- ", and " <- ..." when it has more. */
void csite_stack_line(struct strbuf *sb, const struct fp_csite_stack *s, uint32_t max);
/* The key's stacks, most calls first (malloc'd); *n set to how many of them to show. */
const struct fp_csite_stack **csite_top(const struct fp_csite_key *k, uint32_t *n);
/*
 * map -F kconfig: comment lines under an option naming the call sites of its needers (none where the mapping has
 * no call sites), never a word "CONFIG_X" that merge_config.sh would take for a value.
 */
void csite_kconfig(FILE *out, const struct fp_kernel_map *m, const char *const *needed_by, size_t n);

#endif
