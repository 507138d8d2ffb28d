// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the Makefile/Kbuild reader of the kernel tree index: any text must parse without a crash,
 * a leak or a hang, and every condition it yields must evaluate. Built by `make fuzz-build`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *lookup(void *ctx, const char *name)
{
	(void)ctx;
	return strlen(name) % 3 == 0 ? "y" : strlen(name) % 3 == 1 ? "m" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct kt_map vars = {0};
	struct kt_makefile mk;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	kt_map_put(&vars, "BITS", "64");
	kt_map_put(&vars, "SRCARCH", "x86");
	kt_map_put(&vars, "LOOP", "$(LOOP)"); /* self-reference must not recurse forever */
	kt_makefile_parse(&mk, "fuzz/Makefile", text, &vars);
	for (size_t i = 0; i < mk.nas; i++)
		for (size_t j = 0; j < mk.as[i].conds.n; j++)
			(void)kt_cond_eval(&mk.as[i].conds.v[j], lookup, NULL);
	kt_makefile_release(&mk);
	/* the same bytes as a #if expression */
	struct kt_condv cv = {0};
	bool ok;
	kt_cpp_conds(&cv, text, size & 1, KT_COND_SOURCE_IF, "fuzz.c:1");
	for (size_t i = 0; i < cv.n; i++)
		(void)kt_cond_eval(&cv.v[i], lookup, NULL);
	kt_condv_release(&cv);
	(void)kt_cpp_eval(text, lookup, NULL, &ok);
	kt_map_release(&vars, NULL);
	free(text);
	return 0;
}
