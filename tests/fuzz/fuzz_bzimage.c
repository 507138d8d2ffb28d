// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the bzImage extractor (src/qemu/bzimage.c): any file must give the ELF vmlinux or NULL
 * and one line, without a crash, a leak, a hang or an allocation beyond what its size bounds. Built by
 * `make fuzz-build`; tests/integration/qemu_bzimage.sh runs it briefly from bzImages it makes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "qemu/qemu_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len;
	unsigned char *out = kfq_bzimage_vmlinux("fuzz", data, size, &len);

	if (out && (len < 4 || memcmp(out, "\177ELF", 4)))
		abort(); /* only an ELF comes out */
	free(out);
	return 0;
}
