// SPDX-License-Identifier: GPL-2.0
/*
 * A fork/vfork/exec chain. Without arguments: fork a child that execs this program as "forked" (3 getppid,
 * exit 3), then vfork a child that execs it as "vforked" (4 getppid, exit 4), and wait for both.
 * Processes: 3; execve: 3 (the first included); wait4: 2 that succeed (under any tracer a SIGCHLD that
 * arrives mid-wait adds an ERESTARTSYS retry, as strace shows too); exit codes 0, 3, 4.
 */
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int stage(int n, int code)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
	return code;
}

int main(int argc, char **argv)
{
	char *fargv[] = {argv[0], "forked", NULL};
	char *vargv[] = {argv[0], "vforked", NULL};
	extern char **environ;
	pid_t a, b;
	int status;

	if (argc > 1 && !strcmp(argv[1], "forked"))
		return stage(3, 3);
	if (argc > 1 && !strcmp(argv[1], "vforked"))
		return stage(4, 4);
	a = fork();
	if (a == 0) {
		execve(argv[0], fargv, environ);
		_exit(127);
	}
	b = vfork();
	if (b == 0) {
		execve(argv[0], vargv, environ);
		_exit(127);
	}
	if (a < 0 || b < 0)
		return 1;
	syscall(SYS_wait4, a, &status, 0, NULL);
	syscall(SYS_wait4, b, &status, 0, NULL);
	return 0;
}
