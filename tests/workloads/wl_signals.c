// SPDX-License-Identifier: GPL-2.0
/*
 * Signals with a handler: 5 kill and 3 tgkill of SIGUSR1 to itself, each handled and returning through
 * rt_sigreturn (8 calls, none an error). The handler counts; the exit code is the count (8).
 */
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

int main(void)
{
	struct sigaction sa = {.sa_handler = on_usr1};
	pid_t pid = (pid_t)syscall(SYS_getpid);

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	for (int i = 0; i < 5; i++)
		syscall(SYS_kill, pid, SIGUSR1);
	for (int i = 0; i < 3; i++)
		syscall(SYS_tgkill, pid, pid, SIGUSR1);
	return handled;
}
