// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the MAINTAINERS reader of the kernel tree index: any text must parse and match paths
 * without a crash, a leak or a hang (F:/X: globs with '*' and [...] classes, N: regexes). Built by
 * `make fuzz-build`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {"fs/eventfd.c", "kernel/futex/syscalls.c", "net/socket.c", "x", ""};
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct kt_maint *m = kt_maint_parse(text, NULL);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct kt_section_match *r;
		size_t n = kt_maint_match(m, paths[i], &r);
		for (size_t j = 1; j < n; j++)
			if (r[j - 1].depth < r[j].depth)
				abort(); /* most specific first */
		free(r);
	}
	/* the input's first line as a path, against itself */
	char *nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	struct kt_section_match *r;
	kt_maint_match(m, text, &r);
	free(r);
	kt_maint_free(m);
	free(text);
	return 0;
}
