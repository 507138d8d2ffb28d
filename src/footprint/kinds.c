// SPDX-License-Identifier: GPL-2.0
/* The registry of kinds of observation beside the syscall rows (footprint.h struct fp_kind): a kind is a row. */
#include <stdlib.h>

#include "footprint/csite.h"
#include "footprint/kfunc.h"
#include "footprint/kline.h"

const struct fp_kind *const fp_kinds[] = {&fp_kind_kfuncs, &fp_kind_csites, &fp_kind_klines, NULL};

void **fp_kind_slot(struct footprint *fp, const struct fp_kind *k)
{
	for (size_t i = 0; fp_kinds[i]; i++)
		if (fp_kinds[i] == k)
			return &fp->kind_parts[i];
	abort(); /* a kind without its row: a programming error */
}

void *fp_kind_part(const struct footprint *fp, const struct fp_kind *k)
{
	return *fp_kind_slot((struct footprint *)fp, k);
}
