/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_H
#define KF_TRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "footprint/footprint.h"

/*
 * A backend starts or attaches to the workload, follows every task of it and feeds the footprint.
 * Backends live behind this one interface; record.c picks one.
 */

struct trace_opts {
	char **argv; /* command to start, or NULL when attaching */
	pid_t *pids; /* -p: processes to attach to */
	size_t npids;
	double duration;   /* -d: seconds of observation, 0 = until the workload ends */
	bool keep_running; /* on -d expiry of a started command: detach instead of stopping it */
	const char *user;  /* -u: run the command as this user */
	FILE *log;	   /* --log: chronological per-call log, or NULL */
	bool no_pin;	   /* --no-pin: leave CPU placement to the scheduler */
	bool no_time;	   /* --no-time: bpf counts calls and errors only, leaving sys_enter unhooked */
	/*
	 * Set asynchronously (Ctrl-C, SIGTERM, SIGHUP) to the signal number: the backend must stop observing,
	 * detach from attached processes or stop a started command (SIGTERM, then SIGKILL), and return.
	 */
	volatile sig_atomic_t *stop;
};

struct backend {
	const char *name;
	/* 0 when the backend can run here; otherwise -1 and a reason (no trailing newline) in why. */
	int (*usable)(char *why, size_t len);
	/*
	 * Runs the workload to its end (or to the end of observation) and fills fp: processes, syscalls,
	 * opens, exit, elapsed, complete. Returns 0, or -1 after reporting the error; on -1 the workload has
	 * been killed (started) or detached (attached), never left stopped.
	 */
	int (*run)(const struct trace_opts *opts, struct footprint *fp);
};

extern const struct backend backend_ptrace;
extern const struct backend backend_bpf;

/*
 * The one registry of backends (backends.c), in the order `-b auto` tries them: -b, --help, error messages and
 * the tests take the names from it. Adding a backend: src/trace/<name>*.c defining a const struct backend, its
 * declaration above, a row in the registry (what it sees, its help), tests, README.md and docs/.
 */
struct backend_entry {
	const struct backend *be;
	bool sees_args; /* sees each call's arguments: can write --log */
	const char *help;
};
/* NULL when no backend has that name (a build with NO_BPF=1 has no bpf). */
const struct backend_entry *backend_find(const char *name);
/* The i-th entry, NULL past the last. */
const struct backend_entry *backend_at(size_t i);
/* "auto, bpf, ptrace": auto, then the registry's names. */
const char *backend_names(void);

/*
 * The full path of a command as execvp would find it in PATH (without execvp's retry of a non-ELF file
 * through /bin/sh: the footprint is of the command given). NULL when not found; the caller frees it.
 */
char *trace_find_command(const char *name);

/*
 * Starts opts->argv held before its execve, so a backend can set itself up on the pid first and lose nothing
 * of the command. In the child: SIGPIPE back to default, the -u user taken on, then setup(ctx) (say, a CPU to
 * run on), then a wait for trace_release_command(); should the backend go away or close *go_fd instead, the
 * child exits 127 without running the command. Returns the pid and sets *go_fd, or -1 after reporting (a
 * missing command, an unknown user: nothing was started).
 */
pid_t trace_start_command(const struct trace_opts *opts, void (*setup)(const void *ctx), const void *ctx, int *go_fd);
/* Lets the held command exec, and closes go_fd. 0, or -1 after reporting. */
int trace_release_command(int go_fd);

/* Reads comm, exe and argv of a live process from /proc into p (best effort). */
void trace_read_proc(struct fp_proc *p);

/* Shared by backends: drops to the user named in opts->user (uid, gid, groups). Returns 0 or -1. */
int trace_drop_privileges(const char *user);
/* Parses a user name or uid into ids; 0 or -1 after reporting. */
int trace_lookup_user(const char *user, uid_t *uid, gid_t *gid, char **name);

#endif
