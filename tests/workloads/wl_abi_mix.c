// SPDX-License-Identifier: GPL-2.0
/*
 * Two ABIs in one 64-bit process: 3 native getppid (x86_64 nr 110) and 2 getpid through `int $0x80`
 * (i386 nr 20), which the kernel runs from its i386 table.
 */
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	for (int i = 0; i < 3; i++)
		syscall(SYS_getppid);
	for (int i = 0; i < 2; i++) {
		long ret = 20; /* i386 __NR_getpid */

		__asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
	}
	return 0;
}
