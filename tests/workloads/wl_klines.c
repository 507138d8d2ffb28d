// SPDX-License-Identifier: GPL-2.0
/*
 * Not run: the fixture of the kernel lines' symbolization (tests/integration/kernel_lines.sh), a program with
 * DWARF whose functions' addresses stand for kcov PCs: a static inline always inlined into its caller (its lines
 * are counted as its own), an error path and an #ifdef CONFIG_ block the test never covers, and a _text symbol as a
 * vmlinux has, to undo a made-up KASLR slide with.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

__asm__(".text\n.globl _text\n_text:\n");

static inline __attribute__((always_inline)) int kl_twice(int x)
{
	return 2 * x;
}

__attribute__((noinline)) int kl_covered(int x)
{
	int y = kl_twice(x);

	return y + 1;
}

__attribute__((noinline)) int kl_error_path(int fd)
{
	if (fd < 0)
		return -EBADF;
#ifdef CONFIG_KL_FIXTURE /* built with -DCONFIG_KL_FIXTURE by the test: compiled, never entered */
	if (fd > 1000)
		fd = 1000;
#endif
	return fd + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("%d %d\n", kl_covered(argc), kl_error_path(argc));
	return 0;
}
