// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the Kconfig reader of the kernel tree index: any text must parse without a crash, a leak
 * or a hang; every entry's depends and defaults must evaluate. Built by `make fuzz-build`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *lookup(void *ctx, const char *name)
{
	(void)ctx;
	return name[0] && name[0] < 'M' ? "y" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct kt_kconfig kc = {0};

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	kt_kconfig_parse(&kc, "fuzz/Kconfig", text);
	kt_kconfig_parse(&kc, "fuzz/Kconfig.again", text); /* a second definition of every symbol */
	kt_kconfig_finish(&kc);
	for (size_t i = 0; i < kc.opts.cap; i++) {
		const struct kt_option *o = kc.opts.vals[i];
		if (!kc.opts.keys[i])
			continue;
		if (o->depends)
			(void)kt_kexpr_eval(o->depends, lookup, NULL);
		struct kt_option_raw *r = kt_option_raw(&kc, o->name);
		for (size_t j = 0; r && j < r->defaults.n; j++)
			(void)kt_kexpr_eval(r->defaults.v[j], lookup, NULL);
	}
	(void)kt_kexpr_eval(text, lookup, NULL);
	kt_kconfig_release(&kc);
	free(text);
	return 0;
}
