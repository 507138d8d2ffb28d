// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the reader of gcov's JSON (trace/gcov.h, record --kernel-lines=gcov): any bytes must read
 * without a crash, a leak or a hang, and what is kept must be well formed: lines sorted by (file, line), each
 * distinct, numbered from 1. Built by `make fuzz-build`; tests/long/fuzz_long.sh runs it on tests/fuzz/gcov-seeds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/gcov.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kl_glines acc = {0};
	struct fp_klines *k = xcalloc(1, sizeof(*k));
	char *err = NULL;

	k->method = FP_KLINE_GCOV;
	if (kl_gcov_json(&acc, (const char *)data, size, &err) < 0) {
		if (!err || strchr(err, '\n'))
			abort();
		free(err);
		kl_glines_release(&acc);
	} else {
		kl_glines_into(&acc, k);
	}
	for (uint32_t i = 0; i < k->nlines; i++) {
		int c = i ? strcmp(k->lines[i - 1].file, k->lines[i].file) : -1;
		if (!k->lines[i].line || c > 0 || (c == 0 && k->lines[i - 1].line >= k->lines[i].line))
			abort();
	}
	fp_klines_free(k);
	return 0;
}
