// SPDX-License-Identifier: GPL-2.0
/*
 * An init in front of the real one, for kfootprint boot's tests: static, no libc, its very first instruction
 * makes the one getcpu call of the whole boot, then it execs its arguments (argv[1]: the real init) with the
 * same environment. A footprint holding that call recorded the first syscall the init kfootprint boot execs
 * made (tests/integration/boot.sh, boot_guest.sh). x86_64 only.
 */
static long sc(long nr, long a, long b, long c)
{
	long ret;

	asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory");
	return ret;
}

void first_main(long *sp);
void first_main(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);

	sc(309, 0, 0, 0); /* getcpu(NULL, NULL, NULL) */
	if (argc > 1)
		sc(59, (long)argv[1], (long)(argv + 1), (long)(argv + argc + 1)); /* execve */
	sc(60, 127, 0, 0);							  /* exit */
}

/* the kernel's initial stack: argc, argv[], NULL, envp[], NULL */
asm(".globl _start\n"
    "_start:\n"
    "	mov %rsp, %rdi\n"
    "	and $-16, %rsp\n"
    "	call first_main\n"
    "	hlt\n");
