// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the #if-block scanner of kernel lines (ktree/kt_ifblk.h): any bytes must scan without a
 * crash, a leak or a hang, and every block kept must be well formed. Built by `make fuzz-build`.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ktree/kt_ifblk.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kt_ifblk *v;
	size_t n;
	char why[128];

	if (kt_ifblk_scan((const char *)data, size, &v, &n, why, sizeof(why)) < 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!v[i].nopts || !v[i].directive || v[i].first <= v[i].directive || v[i].last + 1 < v[i].first)
			abort();
	kt_ifblk_free(v, n);
	return 0;
}
