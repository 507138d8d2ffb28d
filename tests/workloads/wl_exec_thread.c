// SPDX-License-Identifier: GPL-2.0
/*
 * execve from a non-leader thread: the main thread waits in pthread_join while a second thread execs this
 * program as "after", which makes 2 getppid calls and exits 7. The kernel gives the exec'ing thread the
 * leader's tid: one process, 2 execve, exit code 7.
 */
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static char *self;

static void *execer(void *arg)
{
	char *nargv[] = {self, "after", NULL};
	extern char **environ;

	execve(self, nargv, environ);
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1 && !strcmp(argv[1], "after")) {
		syscall(SYS_getppid);
		syscall(SYS_getppid);
		return 7;
	}
	self = argv[0];
	if (pthread_create(&t, NULL, execer, NULL))
		return 1;
	pthread_join(t, NULL);
	return 1; /* not reached: the exec replaces the whole process */
}
