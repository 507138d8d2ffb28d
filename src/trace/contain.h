/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_CONTAIN_H
#define KF_TRACE_CONTAIN_H

/*
 * What happens to a started command's processes when observation ends, whatever ends it: -d, a stop signal to
 * kfootprint, a kfootprint failure, or kfootprint's own death (even by SIGKILL). Each process of the workload,
 * however it forks, double-forks, calls setsid or ignores signals, gets SIGTERM, then SIGKILL after
 * CONTAIN_KILL_GRACE_NS; with --keep-running it is left running instead, and kfootprint says so.
 *
 * The workload is a set that cannot miss a process:
 *  - cgroup mode: a cgroup v2 of its own, "kfootprint.PID" below kfootprint's own cgroup (the cgroup2 mount is
 *    found in /proc/self/mountinfo). The held command is cloned into it (or moved there before its execve);
 *    every descendant inherits it. SIGTERM goes to every pid of cgroup.procs, SIGKILL through cgroup.kill (which also
 * catches a fork in progress). A guardian process, forked before the command, waits on a pipe for kfootprint's end; if
 *    kfootprint dies without saying it is done, the guardian gives the workload the same treatment and removes
 *    the cgroup. It never runs the workload's code and acts only on that one cgroup, through a directory fd.
 *  - subreaper mode, where no cgroup2 can be made (not mounted, not writable: an unprivileged ptrace run):
 *    kfootprint is a child subreaper, so an orphan of the workload is reparented to it and the workload is
 *    kfootprint's descendants. kfootprint's own death is covered by PTRACE_O_EXITKILL (ptrace: every process)
 *    and the command's parent-death signal (bpf: its first process only).
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct footprint;
struct trace_opts;

#define CONTAIN_KILL_GRACE_NS 2000000000ull /* SIGTERM, then SIGKILL after this */
#define CONTAIN_INT_GRACE_NS  1000000000ull /* after kfootprint's own SIGINT: the command's time to end first */

struct contain;

/*
 * Prepares the containment of a command about to start: its cgroup and guardian, or the subreaper.
 * keep_running: whatever ends observation leaves the workload running. NULL after reporting an error.
 */
struct contain *contain_new(bool keep_running);
/* The cgroup directory a child can be cloned into (CLONE_INTO_CGROUP), or -1 (subreaper mode, NULL). */
int contain_cgroup_fd(const struct contain *c);
/*
 * Makes the held command (forked, not yet exec'd) the workload's first process; placed: it was born in the
 * cgroup already, else it is moved there. 0, or -1 after reporting.
 */
int contain_add(struct contain *c, pid_t pid, bool placed);
/* True when a guardian deals with kfootprint's death; false: the backend must kill the command with it. */
bool contain_guarded(const struct contain *c);
/* Sends sig to every live process of the workload; SIGKILL in cgroup mode through cgroup.kill. */
void contain_signal(struct contain *c, int sig);
/* True when no process of the workload is left (zombies do not count). */
bool contain_empty(struct contain *c);
/* Blocking: SIGTERM, up to CONTAIN_KILL_GRACE_NS to end, SIGKILL. True when nothing is left after that. */
bool contain_terminate(struct contain *c);
/*
 * After the backend returned: what is still running is left running and listed on stderr (keep_running),
 * or gets contain_terminate(); then the cgroup is removed and the guardian told to exit.
 */
void contain_end(struct contain *c);
/* Frees c (contain_end first). NULL is fine. */
void contain_free(struct contain *c);

/*
 * The end of observation, shared by the backends' loops: the -d deadline, the stop flag, and for a started
 * command the SIGTERM (after CONTAIN_INT_GRACE_NS when kfootprint got SIGINT, which a Ctrl-C at the
 * terminal sent to the command too), then the SIGKILL.
 */
struct trace_end {
	uint64_t deadline; /* -d: monotonic ns, 0 = none */
	uint64_t term_at;  /* SIGTERM due then, 0 = sent or not due */
	uint64_t kill_at;  /* SIGKILL due then, 0 = not armed */
	bool ending;	   /* observation is over */
	bool killed;	   /* SIGKILL sent */
	const char *why;   /* "interrupted" or "duration": the footprint's incomplete_why if a process was left */
};

enum trace_end_do {
	TRACE_END_RUN,	  /* go on observing */
	TRACE_END_DETACH, /* once: observation is over, leave the workload running (-p, --keep-running) */
};

void trace_end_init(struct trace_end *e, const struct trace_opts *o);
/*
 * Looks at the clock and the stop flag, sends what is due, and marks fp incomplete when observation ends on a
 * workload still running: detached from, or given SIGTERM (not one that ended by itself in the SIGINT grace).
 */
enum trace_end_do trace_end_step(struct trace_end *e, const struct trace_opts *o, struct footprint *fp);

#endif
