// SPDX-License-Identifier: GPL-2.0
/* 4 threads, each making 10 getppid calls; the main thread makes 2. One process, 5 threads, 42 getppid. */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *worker(void *arg)
{
	for (int i = 0; i < 10; i++)
		syscall(SYS_getppid);
	return arg;
}

int main(void)
{
	pthread_t t[4];

	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, worker, NULL))
			return 1;
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	syscall(SYS_getppid);
	syscall(SYS_getppid);
	return 0;
}
