/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_H
#define KF_TRACE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "footprint/filter.h"
#include "footprint/footprint.h"

struct contain;

/*
 * A backend starts or attaches to the workload, follows every task of it and feeds the footprint.
 * Backends live behind this one interface; record.c picks one.
 */

/*
 * What a started command inherits from kfootprint's own start, so that it runs as it would without kfootprint
 * (inherit.c): the ignored signals (nohup, `trap '' INT`), the signal mask, the umask and the resource limits.
 * Its process group, session and controlling terminal are kfootprint's, untouched: it is in the foreground
 * when kfootprint is.
 */
struct trace_inherit {
	bool captured;
	sigset_t ignored;
	sigset_t mask;
	mode_t umask;
	struct rlimit rlim[RLIM_NLIMITS];
	bool rlim_ok[RLIM_NLIMITS];
};
/* At the start of a command, before kfootprint changes any of it. */
void trace_inherit_capture(struct trace_inherit *in);
/* Whether sig was ignored when captured (kfootprint then leaves it ignored for itself too); false on NULL. */
bool trace_inherit_ignored(const struct trace_inherit *in, int sig);
/* In the started child before its execve: all of it back as captured (a warning on what cannot be); NULL: none. */
void trace_inherit_restore(const struct trace_inherit *in);

struct trace_opts {
	const struct trace_inherit *inherit; /* what a started command gets back (NULL: kfootprint's as they are) */
	char **argv;			     /* command to start, or NULL when attaching */
	pid_t *pids;			     /* -p: processes to attach to */
	size_t npids;
	double duration;	  /* -d: seconds of observation, 0 = until the workload ends */
	bool keep_running;	  /* on -d expiry of a started command: detach instead of stopping it */
	const char *user;	  /* -u: run the command as this user */
	FILE *log;		  /* --log: chronological per-call log, or NULL */
	int log_time;		  /* --log lines: -t 1, -tt 2, -ttt 3 (strace's timestamps) */
	bool log_relative;	  /* -r: the time since the previous line's call */
	struct fp_filter *filter; /* -e trace=, -e status=: which calls the log shows; NULL: all */
	bool no_pin;		  /* --no-pin: leave CPU placement to the scheduler */
	bool no_time;		  /* --no-time: bpf counts calls and errors only, leaving sys_enter unhooked */
	bool reach;		  /* record what each call reached (fp__reach); off with --no-reach */
	/*
	 * Set asynchronously (Ctrl-C, SIGTERM, SIGHUP) to the signal number: the backend must stop observing,
	 * detach from attached processes or stop a started command (SIGTERM, then SIGKILL), and return.
	 */
	volatile sig_atomic_t *stop;
	/* A started command's containment (trace/contain.h): how every process of it is stopped or left running. */
	struct contain *contain;
	bool progress; /* draw the live status line on stderr (a terminal, no -q) */
	/*
	 * Called by trace_start_command() with the held command's pid, before it may exec (record
	 * --kernel-functions: its tracing follows the pid from there); NULL for none. -1 stops the command.
	 */
	int (*on_command)(void *ctx, pid_t pid);
	void *on_command_ctx;
	/*
	 * -p: called by trace_say_attached() once a process is held (kfootprint boot lets init run once its
	 * recorder holds PID 1); NULL for none.
	 */
	void (*on_attached)(void *ctx, pid_t tgid);
	void *on_attached_ctx;
	/*
	 * The recorders that look at each call's task at its stop (struct trace_recorder's syscall_exit), which a
	 * backend that stops at calls gives each call (trace_recording_syscall_exit()); NULL: none, nothing to call.
	 */
	const struct trace_recording *stops;
	/* The recorders whose bpf programs join the bpf backend's (struct trace_recorder's bpf_ready); NULL: none. */
	const struct trace_recording *joins;
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

/*
 * The recorder of a kind of observation beside the backend that records the syscalls (struct fp_kind's
 * recorder). It follows the workload's tasks from the started command's pid, held before its execve, or from the
 * attached pids, and fills its part of the footprint when observation ends. `record` takes its options (where
 * its table's OPT_GROUP is) and starts each one asked for through struct trace_recording.
 */
struct kf_option;
/* The bpf backend's maps that a recorder's own bpf programs share (struct trace_recorder's bpf_ready). */
struct trace_bpf_shared {
	int tasks_fd;	  /* its task storage (struct kf_task_rec): the reach of each call just ended, in .last */
	int fsnames_fd;	  /* the names of the filesystem types its reach keys give by address */
	uint32_t run_gen; /* this run's generation (struct kf_task.gen) */
	bool reach;	  /* its sys_exit leaves each call's reach (with_csite_reach): not with --no-reach */
};
struct trace_recorder {
	const char *name;
	/* Its options of record, their values in its own struct (values); NULL: none. */
	const struct kf_option *options;
	void *values;
	/* Checks them: 1, asked for (new() is given values); 0, not asked for; or -1 after a message. */
	int (*check)(void);
	/* Sets up, nothing runs yet; never NULL (what cannot run here is said, and the footprint says why not). */
	void *(*new)(const void *opts, struct footprint *fp);
	/* A task to follow, with its children: the started command (attached false) or a pid of -p (true). */
	int (*add_pid)(void *r, pid_t pid, bool attached);
	int (*start)(void *r); /* after the first add_pid: recording on */
	/* Stops, fills fp (NULL: the recording failed, only tear down), removes its state and frees r. */
	void (*finish)(void *r, struct footprint *fp);
	/*
	 * For a kind that looks at the task where a call stops (call sites): the exit of each call of the workload, the
	 * task still stopped in it (abi, nr and err as fp__account's; reached: what it reached, "kind value[, kind
	 * value]", "" for nothing or with --no-reach). NULL for none. Only a backend that stops at
	 * calls (struct backend_entry's sees_args) gives it: record refuses another with needs_stops, a format
	 * given the backend's name and the one to use ("--call-sites: the %s backend cannot ...: use -b %s").
	 */
	void (*syscall_exit)(void *r, pid_t tid, pid_t tgid, enum kf_abi abi, int nr, int err, const char *reached);
	const char *needs_stops;
	/*
	 * For a kind set up inside each task (kernel lines: kcov): a task born during recording, at its first stop,
	 * before it has run a user instruction (the recorder may run calls in it and must give it back as it found
	 * it); the exit stop of each task (PTRACE_EVENT_EXIT), still alive; and the started command's child just
	 * before its execve (async-signal-safe, fork's copy of r). NULL for none; like syscall_exit, given by a
	 * backend that stops at calls only (needs_stops).
	 */
	void (*task_new)(void *r, pid_t tid, pid_t tgid);
	void (*task_exit)(void *r, pid_t tid, pid_t tgid);
	void (*before_exec)(void *r);
	/*
	 * For a kind whose bpf programs join the bpf backend's (call sites, which take what each call reached from the
	 * backend's task storage): asked before the backend loads, whether it does (then the backend's sys_exit leaves
	 * each call's reach there); then, the backend's programs attached and the workload not run yet, its maps: the
	 * kind loads and attaches its own programs there, after the backend's, so that they run after them. NULL: none.
	 */
	bool (*joins_bpf)(void *r);
	void (*bpf_ready)(void *r, const struct trace_bpf_shared *shared);
};

/* The recorders of one run, beside its backend. Zeroed to begin with. */
#define TRACE_RECORDERS_MAX 4
struct trace_recording {
	const struct trace_recorder *rows[TRACE_RECORDERS_MAX];
	void *state[TRACE_RECORDERS_MAX];
	size_t n;
};

/*
 * Sets r up for the workload of o: a started command's pid comes through o's on_command hook (which rec then
 * owns), attached pids are given now and r starts. 0, or -1 when rec is full.
 */
int trace_recording_add(struct trace_recording *rec, const struct trace_recorder *r, const void *ropts,
			struct trace_opts *o, struct footprint *fp);
/* The exit of a call, for each recorder of rec with a syscall_exit (a backend calls it when opts->stops). */
void trace_recording_syscall_exit(const struct trace_recording *rec, pid_t tid, pid_t tgid, enum kf_abi abi, int nr,
				  int err, const char *reached);
/* A new task's first stop, a task's exit stop, the command's child before its execve (rec may be NULL). */
void trace_recording_task_new(const struct trace_recording *rec, pid_t tid, pid_t tgid);
void trace_recording_task_exit(const struct trace_recording *rec, pid_t tid, pid_t tgid);
void trace_recording_before_exec(const struct trace_recording *rec);
/* Whether a recorder of rec joins the bpf backend's programs; then, loaded, the backend gives it its maps. */
bool trace_recording_joins_bpf(const struct trace_recording *rec);
void trace_recording_bpf_ready(const struct trace_recording *rec, const struct trace_bpf_shared *shared);
/* The end of observation: each recorder stops and fills fp (NULL: tear down only). rec is empty after. */
void trace_recording_finish(struct trace_recording *rec, struct footprint *fp);

extern const struct backend backend_ptrace;
extern const struct backend backend_bpf;

/*
 * The one registry of backends (backends.c), in the order `-b auto` tries them: -b, --help, error messages and
 * the tests take the names from it. Adding a backend: src/trace/<name>*.c defining a const struct backend, its
 * declaration above, a row in the registry (what it sees, its help), tests, docs/backends.md and docs/.
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
 * A command named without a slash (found in PATH) whose file begins with "#!" is a script, a shim often: says
 * once on stderr that its interpreter's processes are part of the footprint. Silent otherwise.
 */
void trace_note_script(const char *name);

/*
 * Starts opts->argv held before its execve, so a backend can set itself up on the pid first and lose nothing
 * of the command. In the child: the -u user taken on, a parent-death SIGKILL when no
 * guardian contains it (trace/contain.h), then setup(ctx) (say, a CPU to run on), then a wait for
 * trace_release_command(), then opts->inherit restored; should the backend go away or close *go_fd instead, the child
 * exits 127 without running the command. The held child is put into opts->contain. Returns the pid and sets *go_fd, or
 * -1 after reporting (a missing command, an unknown user: nothing was started).
 */
pid_t trace_start_command(const struct trace_opts *opts, void (*setup)(const void *ctx), const void *ctx, int *go_fd);
/* Lets the held command exec, and closes go_fd. 0, or -1 after reporting. */
int trace_release_command(int go_fd);

/* What /proc/PID/stat says of a task. */
struct trace_stat {
	char state; /* R, S, D, Z, ... */
	pid_t ppid;
	bool kthread;		  /* PF_KTHREAD */
	unsigned long long start; /* start time in clock ticks after boot: with the pid, names one process */
	char comm[64];
};
/* 0, or -1 with errno set (ESRCH/ENOENT: no such task). */
int trace_read_stat(pid_t pid, struct trace_stat *st);
/* A numeric field of /proc/PID/status ("Tgid:", "TracerPid:"); -1 when absent or unreadable. */
long trace_status_field(pid_t pid, const char *field);
/*
 * -p, for both backends: each pid must name a live user-space process other than kfootprint; a thread's id
 * becomes its process's (said on stderr); a pid given twice is attached once. Rewrites pids and *npids in
 * place. 0, or -1 after reporting "-p N: why" in one line.
 */
int trace_check_pids(pid_t *pids, size_t *npids);
/*
 * -p, both backends, once attached: "kfootprint: attached to 1234 (sleep), threads 1234 1235" on stderr, then
 * opts->on_attached.
 */
void trace_say_attached(const struct trace_opts *opts, pid_t tgid);
/* Reads comm, exe and argv of a live process from /proc into p (best effort). */
void trace_read_proc(struct fp_proc *p);
/* p's cwd from /proc/PID/cwd (pid: as this process's /proc names it); kept as it was when it cannot be read. */
void trace_read_cwd(struct fp_proc *p, pid_t pid);

/*
 * The live status line (progress.c), when opts->progress: backends call trace_progress() often (it draws at most
 * 4 times a second, after the first second) with the calls counted so far, the processes alive and the events
 * lost; trace_progress_clear() erases it before the report.
 */
void trace_progress(const struct trace_opts *opts, const struct footprint *fp, uint64_t calls, uint64_t alive,
		    uint64_t lost);
void trace_progress_clear(void);

/* Shared by backends: drops to the user named in opts->user (uid, gid, groups). Returns 0 or -1. */
int trace_drop_privileges(const char *user);
/* Parses a user name or uid into ids; 0 or -1 after reporting. */
int trace_lookup_user(const char *user, uid_t *uid, gid_t *gid, char **name);

#endif
