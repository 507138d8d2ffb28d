// SPDX-License-Identifier: GPL-2.0
/*
 * Threads that end at different times, or outlive the recording (bpf --no-time counts per task: folded at a
 * task's exit, or taken from a live task at the end). Thread i (1-4) makes 10 * i getppid, the main thread 5:
 * 105 getppid in every mode, all made before the line "done" on stdout.
 *   stagger  threads 1-4 end 20 ms apart, the process exits 0
 *   hold     threads 1 and 2 end, threads 3 and 4 and the main thread wait in pause() for ever
 *   trigger  as hold, but the calls wait for SIGUSR1 (the pid is printed first): for attaching before them
 *   churn N  N threads make 100 getppid each and wait; after "done" they end 2 ms apart, then the main thread
 *            waits for ever: N * 100 + 5 getppid, whichever of them end while a recording ends
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int gate[2];  /* threads wait for a byte (trigger) */
static int done[2];  /* threads say their calls are made */
static int leave[2]; /* churn: a byte lets one thread end */
static int hold;

static void calls(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static void *worker(void *arg)
{
	long i = (long)arg;
	struct timespec ts = {0, i * 20 * 1000 * 1000};
	char c;

	if (gate[0] >= 0 && read(gate[0], &c, 1) != 1)
		return NULL;
	calls(10 * (int)i);
	if (write(done[1], "x", 1) != 1)
		return NULL;
	if (hold && i >= 3)
		for (;;)
			pause();
	nanosleep(&ts, NULL);
	return NULL;
}

static void *churner(void *arg)
{
	char c;

	calls(100);
	if (write(done[1], "x", 1) != 1 || read(leave[0], &c, 1) != 1)
		return arg;
	return arg;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "stagger";
	int n = argc > 2 ? atoi(argv[2]) : 0;
	pthread_t t[4096];
	char c;

	gate[0] = gate[1] = -1;
	if (pipe(done) || pipe(leave))
		return 1;
	if (!strcmp(mode, "churn")) {
		struct timespec ts = {0, 2 * 1000 * 1000};

		if (n <= 0 || n > 4096)
			return 2;
		for (int i = 0; i < n; i++)
			if (pthread_create(&t[i], NULL, churner, NULL))
				return 1;
		for (int i = 0; i < n; i++)
			if (read(done[0], &c, 1) != 1)
				return 1;
		calls(5);
		printf("done\n");
		fflush(stdout);
		for (int i = 0; i < n; i++) {
			if (write(leave[1], "x", 1) != 1)
				return 1;
			nanosleep(&ts, NULL);
		}
		for (int i = 0; i < n; i++)
			pthread_join(t[i], NULL);
		for (;;)
			pause();
	}
	hold = strcmp(mode, "stagger") != 0;
	if (!strcmp(mode, "trigger")) {
		sigset_t set;
		int sig;

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		if (sigprocmask(SIG_BLOCK, &set, NULL) || pipe(gate))
			return 1;
		for (long i = 1; i <= 4; i++)
			if (pthread_create(&t[i - 1], NULL, worker, (void *)i))
				return 1;
		printf("%d\n", (int)getpid());
		fflush(stdout);
		if (sigwait(&set, &sig) || write(gate[1], "xxxx", 4) != 4)
			return 1;
	} else {
		for (long i = 1; i <= 4; i++)
			if (pthread_create(&t[i - 1], NULL, worker, (void *)i))
				return 1;
	}
	for (int i = 0; i < 4; i++)
		if (read(done[0], &c, 1) != 1)
			return 1;
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	calls(5);
	printf("done\n");
	fflush(stdout);
	if (hold)
		for (;;)
			pause();
	pthread_join(t[2], NULL);
	pthread_join(t[3], NULL);
	return 0;
}
