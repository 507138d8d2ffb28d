// SPDX-License-Identifier: GPL-2.0
/*
 * A whole initramfs for kfootprint qemu's tests: /init, static, no libc, so that PID 1 makes exactly the calls
 * below and nothing else (tests/integration/qemu.sh and tests/long/qemu_arm64.sh assert each count). -DHANG: the
 * same, then it never powers off (the -d test); -DLOOP=N: N more getpid first (the bench); -DKALLSYMS: instead,
 * /proc/kallsyms on the console, then the power-off (a dump of the kernel's symbols for the gdb method). x86_64,
 * or aarch64 (clang --target=aarch64-linux-gnu): the same calls under each one's numbers.
 */
#ifdef __aarch64__
#define NR_getpid  172
#define NR_getppid 173
#define NR_uname   160
#define NR_openat  56
#define NR_reboot  142
#define NR_exit	   93
#define NR_ppoll   73 /* arm64 has no pause */
#define NR_read	   63
#define NR_write   64
#define NR_mkdirat 34
#define NR_mount   40

static long sc5(long nr, long a, long b, long c, long d, long e)
{
	register long x8 asm("x8") = nr, x0 asm("x0") = a, x1 asm("x1") = b, x2 asm("x2") = c, x3 asm("x3") = d,
			 x4 asm("x4") = e;

	asm volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4) : "memory");
	return x0;
}
#else
#define NR_getpid  39
#define NR_getppid 110
#define NR_uname   63
#define NR_openat  257
#define NR_reboot  169
#define NR_exit	   60
#define NR_pause   34
#define NR_read	   0
#define NR_write   1
#define NR_mkdirat 258
#define NR_mount   165

static long sc5(long nr, long a, long b, long c, long d, long e)
{
	long ret;
	register long r10 asm("r10") = d, r8 asm("r8") = e;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
		     : "rcx", "r11", "memory");
	return ret;
}
#endif

static long sc(long nr, long a, long b, long c, long d)
{
	return sc5(nr, a, b, c, d, 0);
}

#ifdef KALLSYMS
/* /proc/kallsyms to the console: devtmpfs gives /dev/console, which an initramfs of /init alone lacks */
static void dump_kallsyms(void)
{
	static char buf[4096];
	long fd, out, n;

	sc(NR_mkdirat, -100, (long)"/dev", 0755, 0);
	sc(NR_mkdirat, -100, (long)"/proc", 0555, 0);
	sc5(NR_mount, (long)"devtmpfs", (long)"/dev", (long)"devtmpfs", 0, 0);
	sc5(NR_mount, (long)"proc", (long)"/proc", (long)"proc", 0, 0);
	out = sc(NR_openat, -100, (long)"/dev/console", 1 /* O_WRONLY */, 0);
	fd = sc(NR_openat, -100, (long)"/proc/kallsyms", 0, 0);
	while (fd >= 0 && out >= 0 && (n = sc(NR_read, fd, (long)buf, sizeof(buf), 0)) > 0)
		for (long off = 0, w; off < n; off += w)
			if ((w = sc(NR_write, out, (long)buf + off, n - off, 0)) <= 0)
				return;
}
#endif

void _start(void);
void _start(void)
{
	static char uts[390];

#ifdef KALLSYMS
	dump_kallsyms();
	sc(NR_reboot, 0xfee1dead, 0x28121969, 0x4321fedc, 0);
#endif
#ifdef LOOP
	/* bench/qemu_gdb.sh: LOOP more getpid calls, the breakpoint method's cost per call */
	for (volatile long i = 0; i < LOOP; i++)
		sc(NR_getpid, 0, 0, 0, 0);
#endif
	sc(NR_getpid, 0, 0, 0, 0); /* getpid x3 */
	sc(NR_getpid, 0, 0, 0, 0);
	sc(NR_getpid, 0, 0, 0, 0);
	sc(NR_getppid, 0, 0, 0, 0);	  /* getppid */
	sc(NR_uname, (long)uts, 0, 0, 0); /* uname x2 */
	sc(NR_uname, (long)uts, 0, 0, 0);
	sc(1000, 0, 0, 0, 0);				 /* no such call: ENOSYS */
	sc(NR_openat, -100, (long)"/nonexistent", 0, 0); /* openat: ENOENT */
#ifdef HANG
	for (;;)
#ifdef __aarch64__
		sc(NR_ppoll, 0, 0, 0, 0); /* ppoll of nothing, no timeout: sleeps for ever */
#else
		sc(NR_pause, 0, 0, 0, 0);
#endif
#endif
	sc(NR_reboot, 0xfee1dead, 0x28121969, 0x4321fedc, 0); /* reboot(LINUX_REBOOT_CMD_POWER_OFF) */
	for (;;)
		sc(NR_exit, 0, 0, 0, 0);
}
