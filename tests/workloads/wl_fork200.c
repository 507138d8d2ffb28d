// SPDX-License-Identifier: GPL-2.0
/*
 * 200 children, each making one getppid and exiting with its index % 100; the last one kills itself with
 * SIGKILL instead. The parent reaps all with wait4: 201 processes, 200 fork-like calls, 200 wait4,
 * 200 getppid, one child ended by SIGKILL.
 */
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	for (int i = 0; i < 200; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return 1;
		if (pid == 0) {
			syscall(SYS_getppid);
			if (i == 199)
				syscall(SYS_kill, syscall(SYS_getpid), SIGKILL);
			_exit(i % 100);
		}
	}
	for (int i = 0; i < 200; i++) {
		int status;

		if (syscall(SYS_wait4, -1, &status, 0, NULL) < 0)
			return 1;
	}
	return 0;
}
