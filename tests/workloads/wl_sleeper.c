// SPDX-License-Identifier: GPL-2.0
/*
 * A long-running workload for attach and duration tests: forever, one getppid and a 20 ms nanosleep. With
 * an argument N, a thread does the same, so attaching must seize two tasks. Prints its pid once ready.
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void *loop(void *arg)
{
	struct timespec ts = {0, 20 * 1000 * 1000};

	for (;;) {
		syscall(SYS_getppid);
		syscall(SYS_nanosleep, &ts, NULL);
	}
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t;

	(void)argv;
	if (argc > 1 && pthread_create(&t, NULL, loop, NULL))
		return 1;
	printf("%d\n", (int)getpid());
	fflush(stdout);
	loop(NULL);
	return 0;
}
