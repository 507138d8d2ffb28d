/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TAILOR_OUTMASK_H
#define KF_TAILOR_OUTMASK_H

#include <regex.h>
#include <stddef.h>

/*
 * tailor --stdout-mask ERE: what a workload prints that differs from run to run on any kernel (paxtest's
 * "28 quality bits (guessed)", a time, a pid) is masked in both standard outputs before the re-test's is held to
 * the reference run's. Each match of each mask, line by line, becomes the same placeholder; the rest must be the
 * same bytes. A mask says what may vary, in the report: nothing is masked unless asked.
 */
#define TL_MASKS_MAX 16

struct tl_masks {
	const char *src[TL_MASKS_MAX]; /* as given, for the report */
	regex_t re[TL_MASKS_MAX];
	size_t n;
};

/* Adds a POSIX extended regular expression: 0, or -1 after one line (a bad one, too many, one matching ""). */
int tl_masks_add(struct tl_masks *m, const char *ere);
void tl_masks_release(struct tl_masks *m);

/* Text with each match of every mask replaced, line by line (a NUL byte ends a line too); malloc'd. */
char *tl_masks_apply(const struct tl_masks *m, const char *text, size_t len, size_t *out_len);

/* Whether files a and b are the same once masked: 1, 0, or -1 when one cannot be read. */
int tl_masks_same_files(const struct tl_masks *m, const char *a, const char *b);

#endif
