// SPDX-License-Identifier: GPL-2.0
/*
 * Threads whose calls alternate between several kinds of fd, for the bpf backend's per-task cache of what calls
 * reached (src/bpf/kfreach.bpf.h): each round makes 18 refinements of a task (more than its cache holds), and the
 * threads end at different times or outlive the recording. Thread i (1-4) makes 10 * i rounds, the main thread 5:
 * 105 rounds in every mode, all made before the line "done" on stdout. A round, on the task's own pipe, eventfd
 * and socket pair and the shared /dev/null, /dev/zero and the file DIR/f (DIR: default /dev/shm):
 *   write /dev/null, pipe, eventfd, socket; read /dev/zero, pipe, eventfd, socket; pwrite64 and pread64 the file;
 *   fstat (the syscall) each of the 6; ioctl(TCGETS) on /dev/null, which fails with ENOTTY.
 * Threads wait on semaphores (futex), not on fds: the only reads and writes are the rounds' (and "done").
 *   stagger  threads 1-4 end 20 ms apart, the process exits 0
 *   hold     threads 1 and 2 end, threads 3 and 4 and the main thread wait in pause() for ever
 *   trigger  as hold, but the rounds wait for SIGUSR1 (the pid is printed first): for attaching before them
 */
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

static int null_fd, zero_fd, file_fd;
static sem_t gate, done;
static int hold, gated;

static int round_of(int t)
{
	int p[2], sv[2], efd, fds[6];
	char buf[8] = "x";
	struct stat st;
	struct termios tio;
	uint64_t one = 1;

	if (pipe(p) || socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -1;
	efd = eventfd(0, 0);
	if (efd < 0)
		return -1;
	fds[0] = null_fd;
	fds[1] = zero_fd;
	fds[2] = p[0];
	fds[3] = efd;
	fds[4] = sv[0];
	fds[5] = file_fd;
	if (gated && sem_wait(&gate))
		return -1;
	for (int r = 0; r < t; r++) {
		if (write(null_fd, buf, 1) != 1 || read(zero_fd, buf, 1) != 1 || write(p[1], buf, 1) != 1 ||
		    read(p[0], buf, 1) != 1 || write(efd, &one, 8) != 8 || read(efd, buf, 8) != 8 ||
		    write(sv[0], buf, 1) != 1 || read(sv[1], buf, 1) != 1 || pwrite(file_fd, buf, 1, t) != 1 ||
		    pread(file_fd, buf, 1, t) != 1)
			return -1;
		for (int i = 0; i < 6; i++)
			if (syscall(SYS_fstat, fds[i], &st))
				return -1;
		if (ioctl(null_fd, TCGETS, &tio) == 0)
			return -1;
	}
	return 0;
}

static void *worker(void *arg)
{
	long i = (long)arg;
	struct timespec ts = {0, i * 20 * 1000 * 1000};

	if (round_of(10 * (int)i))
		exit(1);
	sem_post(&done);
	if (hold && i >= 3)
		for (;;)
			pause();
	nanosleep(&ts, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "stagger";
	char path[4096];
	pthread_t t[4];
	sigset_t set;
	int sig;

	snprintf(path, sizeof(path), "%s/f", argc > 2 ? argv[2] : "/dev/shm");
	null_fd = open("/dev/null", O_WRONLY);
	zero_fd = open("/dev/zero", O_RDONLY);
	file_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (null_fd < 0 || zero_fd < 0 || file_fd < 0 || sem_init(&gate, 0, 0) || sem_init(&done, 0, 0))
		return 1;
	unlink(path);
	hold = strcmp(mode, "stagger") != 0;
	gated = !strcmp(mode, "trigger");
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (gated && sigprocmask(SIG_BLOCK, &set, NULL))
		return 1;
	for (long i = 1; i <= 4; i++)
		if (pthread_create(&t[i - 1], NULL, worker, (void *)i))
			return 1;
	if (gated) {
		printf("%d\n", (int)getpid());
		fflush(stdout);
		if (sigwait(&set, &sig))
			return 1;
		for (int i = 0; i < 5; i++)
			sem_post(&gate);
	}
	if (round_of(5))
		return 1;
	for (int i = 0; i < 4; i++)
		sem_wait(&done);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	printf("done\n");
	fflush(stdout);
	if (hold)
		for (;;)
			pause();
	pthread_join(t[2], NULL);
	pthread_join(t[3], NULL);
	return 0;
}
