// SPDX-License-Identifier: GPL-2.0
/*
 * A whole initramfs for kfootprint qemu's tests: /init, static, no libc, so that PID 1 makes exactly the calls
 * below and nothing else (tests/integration/qemu.sh asserts each count). -DHANG: the same, then it never powers
 * off (the -d test); -DLOOP=N: N more getpid first (the bench). x86_64 only.
 */
static long sc(long nr, long a, long b, long c, long d)
{
	long ret;
	register long r10 asm("r10") = d;

	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10) : "rcx", "r11", "memory");
	return ret;
}

void _start(void);
void _start(void)
{
	static char uts[390];

#ifdef LOOP
	/* bench/qemu_gdb.sh: LOOP more getpid calls, the breakpoint method's cost per call */
	for (volatile long i = 0; i < LOOP; i++)
		sc(39, 0, 0, 0, 0);
#endif
	sc(39, 0, 0, 0, 0); /* getpid x3 */
	sc(39, 0, 0, 0, 0);
	sc(39, 0, 0, 0, 0);
	sc(110, 0, 0, 0, 0);	    /* getppid */
	sc(63, (long)uts, 0, 0, 0); /* uname x2 */
	sc(63, (long)uts, 0, 0, 0);
	sc(1000, 0, 0, 0, 0);			   /* no such call: ENOSYS */
	sc(257, -100, (long)"/nonexistent", 0, 0); /* openat: ENOENT */
#ifdef HANG
	for (;;)
		sc(34, 0, 0, 0, 0); /* pause */
#endif
	sc(169, 0xfee1dead, 0x28121969, 0x4321fedc, 0); /* reboot(LINUX_REBOOT_CMD_POWER_OFF) */
	for (;;)
		sc(60, 0, 0, 0, 0);
}
