// SPDX-License-Identifier: GPL-2.0
/* The registry of kinds of observation beside the syscall rows (footprint.h struct fp_kind): a kind is a row. */
#include "footprint/footprint.h"

extern const struct fp_kind fp_kind_kfuncs; /* kfunc.c */

const struct fp_kind *const fp_kinds[] = {&fp_kind_kfuncs, NULL};
