// SPDX-License-Identifier: GPL-2.0
/*
 * The guardian (see contain.h): a process forked before the command that outlives kfootprint for one moment, its
 * death, however it comes, and then ends the workload of its one cgroup as kfootprint would have.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/contain_int.h"
#include "util/error.h"

#define GUARDIAN_BYE 'x' /* from kfootprint: the workload is dealt with, exit */

/* Closes every descriptor but those in keep (sorted, ascending). */
static void close_all_but(const int *keep, size_t n)
{
	unsigned int lo = 0;

	for (size_t i = 0; i < n; i++) {
		if (keep[i] < 0 || (unsigned int)keep[i] < lo)
			continue;
		if ((unsigned int)keep[i] > lo)
			syscall(SYS_close_range, lo, (unsigned int)keep[i] - 1, 0);
		lo = (unsigned int)keep[i] + 1;
	}
	syscall(SYS_close_range, lo, ~0u, 0);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * ps and pgrep -f show the guardian as what it is, not as a second kfootprint running the workload's command
 * line: its argument area (arg_start, arg_end: fields 48 and 49 of /proc/self/stat) is rewritten in place.
 */
static void set_cmdline(const char *name)
{
	char buf[1024], *p, *save = NULL;
	unsigned long start = 0, end = 0;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), field = 2;
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	for (char *t = p ? strtok_r(p + 1, " ", &save) : NULL; t && field < 49; t = strtok_r(NULL, " ", &save)) {
		field++;
		if (field == 48)
			start = strtoul(t, NULL, 10);
		else if (field == 49)
			end = strtoul(t, NULL, 10);
	}
	if (!start || end <= start)
		return;
	memset((void *)start, 0, end - start);
	memcpy((void *)start, name, strlen(name) < end - start ? strlen(name) : end - start - 1);
}

/*
 * Outlives kfootprint for one moment: its death, however it comes. Waits for a byte (kfootprint is done: exit)
 * or end of file (kfootprint died without finishing): then gives the workload the documented treatment, and
 * removes the cgroup. It runs none of the workload's code and touches no other cgroup or process.
 */
__attribute__((noreturn)) static void guardian_main(struct contain *c, int rfd)
{
	static const int quiet[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGTSTP,
				    SIGTTIN, SIGTTOU, SIGPIPE, SIGUSR1, SIGUSR2};
	int keep[] = {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO, rfd, c->dirfd, c->home_dirfd};
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	char prefix[64], b = 0;
	ssize_t n;

	/* Its own session: a Ctrl-C or a kill of kfootprint's process group is not for it. */
	setsid();
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		signal(quiet[i], SIG_IGN);
	prctl(PR_SET_NAME, "kf-guardian");
	set_cmdline("kfootprint guardian");
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	/* Nothing of kfootprint's: not its output files, not its BPF links (which must go when it goes). */
	qsort(keep, sizeof(keep) / sizeof(keep[0]), sizeof(keep[0]), cmp_int);
	close_all_but(keep, sizeof(keep) / sizeof(keep[0]));
	if (chdir("/") < 0)
		_exit(1);
	do
		n = read(rfd, &b, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && b == GUARDIAN_BYE)
		_exit(0);
	/* kfootprint is gone without dealing with its workload. */
	snprintf(prefix, sizeof(prefix), "guardian: kfootprint (pid %d) died: ", (int)c->self);
	if (cg_populated(c)) {
		if (c->keep_running) {
			contain_keep_running(c, prefix);
		} else {
			fprintf(stderr, "kfootprint: %sstopping its workload (SIGTERM, then SIGKILL after %llu s)\n",
				prefix, CONTAIN_KILL_GRACE_NS / 1000000000ull);
			contain_terminate(c);
		}
	}
	cg_remove(c, true);
	_exit(0);
}

int guardian_start(struct contain *c)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return perror_msg("containment: pipe");
	fflush(NULL); /* the guardian must not write our buffered output a second time */
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return perror_msg("containment: starting the guardian");
	}
	if (pid == 0) {
		close(p[1]);
		guardian_main(c, p[0]);
	}
	close(p[0]);
	c->guardian = pid;
	c->guardian_fd = p[1];
	return 0;
}

/* Tells the guardian that the workload has been dealt with: it exits. */
void guardian_release(struct contain *c)
{
	char b = GUARDIAN_BYE;

	if (c->guardian_fd < 0)
		return;
	if (write(c->guardian_fd, &b, 1) != 1)
		debug("containment: telling the guardian: %s", strerror(errno));
	close(c->guardian_fd);
	c->guardian_fd = -1;
}

/*
 * Reaps the released guardian, at kfootprint's very end: by then it has long exited, and nothing waited for
 * it to be scheduled. Never waited on for long: someone may have stopped it (it exits once it runs again).
 */
void guardian_reap(struct contain *c)
{
	struct pollfd pfd = {.fd = -1, .events = POLLIN};

	if (!c->guardian)
		return;
	guardian_release(c);
	pfd.fd = pidfd_open(c->guardian);
	if (pfd.fd >= 0) {
		while (poll(&pfd, 1, 1000) < 0 && errno == EINTR)
			;
		close(pfd.fd);
	}
	waitpid(c->guardian, NULL, WNOHANG);
	c->guardian = 0;
}
