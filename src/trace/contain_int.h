/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_CONTAIN_INT_H
#define KF_TRACE_CONTAIN_INT_H

/*
 * Private to the containment of a started command (see contain.h): contain.c (the public API, subreaper mode,
 * signalling, the end of observation), contain_cgroup.c (the workload's cgroup v2), contain_guardian.c (the
 * guardian process).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "trace/contain.h"

struct contain {
	bool keep_running;
	bool cgroup;	 /* cgroup mode, else subreaper mode */
	bool has_kill;	 /* cgroup.kill exists (Linux 5.14) */
	int dirfd;	 /* the workload's cgroup directory */
	int home_dirfd;	 /* kfootprint's own cgroup, its parent */
	char name[48];	 /* its name in home */
	char *path;	 /* its full path, for messages */
	char *relpath;	 /* its path as /proc/PID/cgroup shows it */
	pid_t self;	 /* kfootprint */
	pid_t root;	 /* the command's first process */
	pid_t guardian;	 /* 0: none */
	int guardian_fd; /* write end of the guardian's pipe */
	bool removed;	 /* the cgroup is gone */
	uint64_t checked_ns;
	bool checked_empty; /* subreaper mode: the last scan, reused for 50 ms */
};

static inline uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline void nap_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static inline int pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* contain.c */
/*
 * Takes the running workload out of its cgroup (back into kfootprint's own), so that the cgroup can go, and
 * says on stderr what keeps running. prefix: who says it.
 */
void contain_keep_running(struct contain *c, const char *prefix);

/* contain_cgroup.c: c->cgroup mode only */
/* Makes the workload's cgroup below kfootprint's own; false when there is none to be had here. */
bool cg_make(struct contain *c);
/* Moves process pid into the workload's cgroup. 0, or -1 with errno set. */
int cg_join(const struct contain *c, pid_t pid);
/* Kills every task of the cgroup through cgroup.kill (c->has_kill). 0, or -1 with errno set. */
int cg_kill(const struct contain *c);
/* Calls fn for each pid listed in the cgroup's cgroup.procs (read in chunks: no allocation). -1: unreadable. */
int cg_each_pid(int dirfd, void (*fn)(struct contain *c, pid_t pid, void *ctx), struct contain *c, void *ctx);
/* cg_each_pid over the cgroup and every cgroup below it: cgroup.procs lists only its own members. */
void cg_each_pid_tree(int dirfd, void (*fn)(struct contain *c, pid_t pid, void *ctx), struct contain *c, void *ctx,
		      int depth);
/* Whether process pid is in the workload's cgroup, as its /proc/PID/cgroup says now. */
bool cg_has_pid(const struct contain *c, pid_t pid);
/* Whether a process is left in the cgroup or below it (false once it is removed). */
bool cg_populated(const struct contain *c);
/* Removes the cgroup once it is empty (a task that has just been killed may hold it a moment). */
void cg_remove(struct contain *c, bool quiet);

/* contain_guardian.c */
/* Forks the guardian (kfootprint's death ends the workload). 0, or -1 after reporting. */
int guardian_start(struct contain *c);
/* Tells the guardian that the workload has been dealt with: it exits. */
void guardian_release(struct contain *c);
/* Releases and reaps the guardian, at kfootprint's very end; never waits for long. */
void guardian_reap(struct contain *c);

#endif
