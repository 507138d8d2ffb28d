/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_PTRACE_INT_H
#define KF_TRACE_PTRACE_INT_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "abi/syscalls.h"
#include "footprint/filter.h"
#include "footprint/footprint.h"
#include "trace/contain.h"
#include "trace/trace.h"

/*
 * Private to the ptrace backend (ptrace*.c, log.c). One tracer thread owns all of this; nothing here is
 * touched from a signal handler.
 */

/* A thread group we trace: its footprint process and how many of its tasks we still hold. */
struct pt_group {
	pid_t tgid;
	uint32_t ntasks;
	struct fp_proc *proc;
	struct pt_fdcache *fdc; /* the kinds of its fds (ptrace_reach.c); NULL until a call took one */
	struct pt_group *next;	/* hash chain */
};

/* One traced task (thread). Allocated at its first sight, freed at its death or detach. */
struct pt_task {
	pid_t tid;
	struct pt_group *group;
	struct pt_task *next;	   /* hash chain */
	bool in_call;		   /* between a syscall-entry stop and its exit stop */
	bool hidden;		   /* the started command before its execve: our own set-up, not the workload's */
	bool detaching;		   /* observation is over: detach at its next stop */
	bool own_affinity;	   /* it (or its creator) set its own CPU mask: sched_getaffinity is not rewritten */
	bool entered;		   /* abi and nr below name its last call (in progress or not) */
	bool unannounced;	   /* known from its own first stop: its creator's fork event is still to come */
	bool seized;		   /* -p: its first stop, which tells the call it was in, is still to come */
	bool resume;		   /* -p: it was in resume_nr, cut by our interrupt: its next entry is its restart */
	bool at_attach;		   /* the call in progress is the one it was in at attach (fp__at_attach) */
	bool born;		   /* created while traced, its first stop still to come (recorders' task_new) */
	int resume_nr, resume_via; /* the call, and the number it restarts as (restart_syscall, or itself) */
	uint8_t resume_abi;
	/* The call in progress (in_call), or its last one. */
	uint8_t abi;
	int nr;
	uint64_t args[6];
	uint64_t t_enter;
	/* An open in progress: its path (buffer reused across calls) and flags; path_ok when the read worked. */
	bool is_open;
	bool path_ok;
	bool takes_path; /* the call looks up a path (KF_SC_PATH): read at its exit if it failed */
	signed char path_arg;
	int oflags;
	char *path;
	const struct kf_syscall *row; /* its table row; NULL for a number the table lacks */
	const char *binfmt;	      /* an exec in progress: the binary format its program will load with (static) */
	/* --log: the path arguments of the call in progress (buffers reused), strs_ok bit i when read */
	char *strs[6];
	uint8_t strs_ok;
	/* --call-sites (opts->stops): what the call reached, "kind value[, kind value]", as fp__reach was told */
	char reached[128];
};

/* --log's state (log.c). */
struct kf_log {
	FILE *f;
	struct fp_filter *filter; /* -e trace=, -e status=: which calls get a line; NULL: all */
	int time;		  /* -t 1, -tt 2, -ttt 3 */
	bool relative;		  /* -r */
	int64_t wall_off_ns;	  /* CLOCK_REALTIME - CLOCK_MONOTONIC at the start */
	uint64_t last_ns;	  /* -r: the entry time of the previous line's call */
};

struct pt_state {
	const struct trace_opts *opts;
	struct footprint *fp;
	pid_t root;		 /* the started command's pid, 0 when attaching */
	bool attach;		 /* -p */
	struct trace_end end;	 /* the end of observation (-d, a stop signal), and of a started command */
	struct fp_proc *fp_root; /* whose exit becomes the workload's: the command, or the first -p process */

	int cpu;		       /* the CPU the tracer and the command share now, or -1 */
	int pinned_cpu;		       /* the CPU they shared at the start, or -1 */
	int getaffinity_nr[KF_ABI_NR]; /* sched_getaffinity's number per ABI: its result is rewritten */
	int setaffinity_nr[KF_ABI_NR]; /* sched_setaffinity's: after it, the task's own mask is the truth */
	bool pinned;		       /* the tracer runs on one CPU; saved_mask is its mask before */
	cpu_set_t saved_mask;

	struct pt_task **tasks; /* hash by tid */
	uint32_t tasks_cap, ntasks;
	struct kf_log log;	  /* --log, when opts->log */
	struct pt_reach *reach;	  /* what calls reached (ptrace_reach.c); NULL with --no-reach */
	struct pt_group **groups; /* hash by tgid */
	uint32_t groups_cap, ngroups;
	/* Tasks that ended before their creator's fork event was read: that event must not bring them back. */
	pid_t early_dead[64];
	uint32_t nearly_dead;
};

/* --- ptrace_tasks.c: the task and thread-group tables --- */
struct pt_task *pt_task_find(const struct pt_state *st, pid_t tid);
/* A new task of group g (NULL: not known yet); g->ntasks is incremented. */
struct pt_task *pt_task_add(struct pt_state *st, pid_t tid, struct pt_group *g);
void pt_task_set_group(struct pt_task *t, struct pt_group *g);
/* Forgets a task; its group keeps existing until pt_group_remove. */
void pt_task_remove(struct pt_state *st, struct pt_task *t);
/* The task now has another tid (execve from a non-leader thread takes the leader's tid). */
void pt_task_rekey(struct pt_state *st, struct pt_task *t, pid_t tid);
struct pt_group *pt_group_find(const struct pt_state *st, pid_t tgid);
struct pt_group *pt_group_add(struct pt_state *st, pid_t tgid, struct fp_proc *proc);
void pt_group_remove(struct pt_state *st, struct pt_group *g);
/* Calls fn for every task; fn may not add or remove tasks. */
void pt_tasks_each(struct pt_state *st, void (*fn)(struct pt_state *, struct pt_task *));
void pt_tables_release(struct pt_state *st);

/* --- ptrace_open.c: reading the tracee's memory --- */
/* Reads a NUL-terminated string at addr into *buf (allocated PATH_MAX bytes when NULL, at most that); 0 or -1. */
int pt_read_string(pid_t tid, uint64_t addr, char **buf);
/* The same into t->path. */
int pt_read_path(struct pt_task *t, uint64_t addr);
/* Reads n bytes at addr; 0 or -1. */
int pt_read_mem(pid_t tid, uint64_t addr, void *buf, size_t n);
/* Writes n bytes at addr; 0 or -1. */
int pt_write_mem(pid_t tid, uint64_t addr, const void *buf, size_t n);
/* At an open's entry: remembers path and flags of the call in t (t->nr, t->args already set). */
void pt_open_enter(struct pt_task *t, const struct kf_syscall *row);

/* --- ptrace_syscall.c: syscall stops --- */
/* Handles a syscall stop of t; returns 0, or -1 when the task vanished. */
int pt_syscall_stop(struct pt_state *st, struct pt_task *t);
/* Accounts the call t is in as one that never returned (task died, exec'd away, or we detached). */
void pt_syscall_abandon(struct pt_state *st, struct pt_task *t);
/*
 * -p, a seized task's first stop (our interrupt's): the call it was in, if any, is counted as in progress at attach,
 * as the bpf backend counts it: once it has returned, with its result, or else at its restart's end (under its
 * own name, not restart_syscall's), or as never returning.
 */
void pt_syscall_attach_stop(struct pt_state *st, struct pt_task *t);
/* At t's PTRACE_EVENT_EXIT: when a seccomp filter killed it, records the call it killed it in. */
void pt_seccomp_exit(struct pt_state *st, struct pt_task *t);

/* --- ptrace_reach.c: what each call reached --- */
/* Sets up (per-ABI dispatch, the kernel's internal filesystems) and sets fp->reach. */
void pt_reach_init(struct pt_state *st);
void pt_reach_release(struct pt_state *st);
/* At a call's entry (row: its table row, or NULL): what must be read before the call runs (an exec's program). */
void pt_reach_enter(struct pt_state *st, struct pt_task *t, const struct kf_syscall *row);
/* At its exit, after fp__account(): what it reached, with err as for fp__account and its return value. */
void pt_reach_exit(struct pt_state *st, struct pt_task *t, struct fp_proc *p, int err, int64_t ret);
/* The group exec'd: its close-on-exec fds are gone. */
void pt_reach_exec(struct pt_group *g);
/* Frees what a group holds for this (its fd kinds). */
void pt_reach_group_free(struct pt_group *g);

/* --- ptrace_cpu.c: where the tracer runs --- */
/* Picks the placement and the CPU (the one the tracer runs on now); the CPU, or -1 for no pinning. */
int pt_cpu_choose(struct pt_state *st);
/* Pins the calling process to one CPU; 0 or -1. Used in the started command's child before its execve. */
int pt_cpu_pin(int cpu);
/* Pins the tracer to st->cpu (after the fork: the command pins itself before its execve). */
void pt_cpu_pin_tracer(struct pt_state *st);
/* Gives the tracer its former CPU mask back. */
void pt_cpu_unpin(struct pt_state *st);
/* A task was added: past PT_PIN_MAX_TASKS live tasks, the command and the tracer leave the shared CPU. */
void pt_cpu_new_task(struct pt_state *st, struct pt_task *t);
#define PT_PIN_MAX_TASKS 3
/* At a successful sched_{get,set}affinity's exit: keeps the one-CPU mask invisible to the command. */
void pt_cpu_affinity_exit(struct pt_state *st, struct pt_task *t, int64_t ret);

/* --- log.c: the --log writer --- */
/* A finished (or abandoned) call, as the log shows it. */
struct kf_logcall {
	pid_t tid;
	enum kf_abi abi;
	int nr;
	const uint64_t *args; /* six */
	const char *strs[6];  /* the path arguments read at entry; NULL where none (or unreadable) */
	uint64_t t_enter;     /* monotonic ns */
};
void kf_log_init(struct kf_log *l, const struct trace_opts *o);
/* "PID [TIME ]name(args) = ret", or "= -1 ENOENT (No such file or directory)", unless the filter hides it. */
void kf_log_call(struct kf_log *l, const struct kf_logcall *c, int64_t ret, bool err);
/* A call that never returned: "PID name(args) = ?". */
void kf_log_noreturn(struct kf_log *l, const struct kf_logcall *c);
/* "PID +++ exited with N +++" / "+++ killed by SIGKILL +++", as strace writes them. */
void kf_log_exit(struct kf_log *l, pid_t tid, struct fp_exit how);

#endif
