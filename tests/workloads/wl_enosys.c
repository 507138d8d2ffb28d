// SPDX-License-Identifier: GPL-2.0
/*
 * ENOSYS probes: 3 calls of a number no x86_64 table row has (400, in the gap 335..423), and 2 of uselib,
 * which has a row but is compiled out of kernels without CONFIG_USELIB (a weak sys_ni stub).
 */
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	for (int i = 0; i < 3; i++)
		syscall(400);
	for (int i = 0; i < 2; i++)
		syscall(SYS_uselib, (void *)0);
	return 0;
}
