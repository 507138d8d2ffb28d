// SPDX-License-Identifier: GPL-2.0
/* Makes 2 getppid calls, then kills itself with SIGKILL: the shell would report 137 (128 + 9). */
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	syscall(SYS_getppid);
	syscall(SYS_getppid);
	syscall(SYS_kill, syscall(SYS_getpid), SIGKILL);
	return 0;
}
