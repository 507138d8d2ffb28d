// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the kfootprint/1 reader: any input must load or be refused with a message, never
 * crash or leak; what loads must round-trip (write -> load -> write gives the same bytes) and render in every
 * format. Built by `make fuzz-build` (clang -fsanitize=fuzzer,address,undefined).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "footprint/footprint_json.h"
#include "kmap/annotate.h"
#include "report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *to_json(const struct footprint *fp, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f || fp__write_json(fp, f) < 0 || fclose(f))
		abort();
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct footprint *fp = fp__load_mem((const char *)data, size, "fuzz"), *back;
	size_t alen, blen;
	char *a, *b;

	if (!fp)
		return 0;
	annotate_classes(fp); /* as kfootprint report does */
	a = to_json(fp, &alen);
	back = fp__load_mem(a, alen, "fuzz round trip");
	if (!back) {
		fprintf(stderr, "round trip: our own output did not load:\n%s", a);
		abort();
	}
	annotate_classes(back);
	b = to_json(back, &blen);
	if (alen != blen || memcmp(a, b, alen)) {
		fprintf(stderr, "round trip: bytes differ:\n--- first\n%s--- second\n%s", a, b);
		abort();
	}
	for (size_t i = 0; renderer_at(i); i++) { /* every format of the registry */
		char *out = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&out, &len);

		if (!f || renderer_at(i)->render(fp, f) < 0 || fclose(f))
			abort();
		free(out);
	}
	free(a);
	free(b);
	fp__free(back);
	fp__free(fp);
	return 0;
}
