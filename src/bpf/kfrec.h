/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_BPF_KFREC_H
#define KF_BPF_KFREC_H

/*
 * Types shared by the BPF side (kfrec.bpf.c) and the user side (src/trace/bpf*.c) of the bpf backend.
 * Fixed-width only: both sides must agree on every offset.
 */
#ifndef __bpf__
#include <linux/types.h>
#endif

#include "kfreach.h" /* the refinements' types */

/* ABI numbers: enum kf_abi (src/abi/abi.h) of the ABIs whose descriptor says bpf; the user side asserts it. */
#define KF_BPF_ABI_X86_64 0
#define KF_BPF_ABI_I386	  1
#define KF_BPF_ABI_X32	  2
#define KF_BPF_NABI	  3

/* Open-like calls the kernel side reports: numbers below KF_BPF_OPEN_NR_MAX, up to KF_BPF_OPEN_MAX of them. */
#define KF_BPF_OPEN_NR_MAX  512
#define KF_BPF_OPEN_MAX	    16
#define KF_BPF_PATH_MAX	    4096
#define KF_BPF_FILENAME_MAX 512
#define KF_BPF_ARGS_MAX	    2048

/* Calls accounted, per CPU, a cache line each: the live progress line's count, summed by the user side. */
#define KF_BPF_CPU_MAX 256
struct kf_cpu_count {
	__u64 calls;
	__u64 pad[7];
};

/* Per-task state, kept in task storage: it dies with the task. */
enum kf_task_state {
	KF_TASK_WAIT_EXEC = 0, /* the started command before its execve: its calls are kfootprint's */
	KF_TASK_FRESH,	       /* a new task: its first sys_exit is the child's side of fork/clone */
	KF_TASK_ACTIVE,
	KF_TASK_ATTACHED, /* seeded by -p: its first sys_exit may end a call entered before we watched */
};

struct kf_task {
	__u64 enter_ns;	   /* time mode: when the current call was entered */
	__u32 proc;	   /* process instance: unique per process, survives exec, never reused */
	__s32 enter_nr;	   /* time mode: the call being made, -1 when none was seen entering */
	__u8 enter_abi;	   /* time mode: its ABI */
	__u8 state;	   /* enum kf_task_state */
	__u8 last_abi;	   /* ABI of the task's last finished call (names an execve rewritten by exec) */
	__u8 exec_done;	   /* a successful exec happened since the last sys_exit */
	__u8 counted;	   /* counted in its process record's ntasks */
	__u8 seccomp_done; /* the call a seccomp filter killed it in is counted */
	__u8 binfmt;	   /* enum kf_binfmt (kfreach.h) of its exec, until the exec's sys_exit records it */
	__u8 pad;
	/*
	 * The run that gave the task this state (.bss run_gen): with cached maps (src/trace/bpf_cache.c) a task that
	 * outlived an earlier run still carries that run's storage, which counts as none.
	 */
	__u32 gen;
	__u32 pad2;
};

/*
 * The task storage value: the state above, and the task's own counts of its x86_64 calls that succeeded, by
 * number, with the time in them (calls of other ABIs, numbers past the arrays and failures go to the process
 * record). A call then costs the storage lookup the filter makes anyway and plain adds. The counts are folded
 * into the process record when the task ends (sched_process_exit), or read by user space at the end of the
 * recording for tasks still alive (src/trace/bpf_task.c, bpf_take_live()). The kernel's x86_64 numbers end at
 * 469 in 6.18; 480 of them and the cache of what its calls reached make the value 8 408 bytes, which each task
 * created allocates and zeroes.
 */
#define KF_TASK_NR 480
struct kf_task_rec {
	struct kf_task t;
	__u64 calls[KF_TASK_NR];
	__u64 ns[KF_TASK_NR];			    /* the time in them, in the time mode */
	struct kf_reach_pend reach[KF_REACH_CACHE]; /* what its calls reached, not yet in the `reach` hash */
	struct kf_reach_last last;		    /* with_csite_reach: what the call just ended reached */
};

/*
 * Who takes a live task's counts at the end of a recording, decided once per task by creating its `claims`
 * storage: the kernel side at the task's exit (it folds them into the record), or user space (it read them).
 */
#define KF_CLAIM_KERNEL 1
#define KF_CLAIM_USER	2

/*
 * Per-process counters, kept in the kernel for the life of the process and sent to user space once, when
 * it ends: one slot per ABI x call x errno it used. A slot's key is KF_SLOT_KEY(abi, nr, err); 0 is free.
 * err KF_ERR_SECCOMP_KILL counts the calls a seccomp filter killed the task in (the call itself is
 * counted in its own slot as well), KF_ERR_AT_ATTACH likewise the calls a -p task was in when it was seeded.
 * Calls with numbers past the key's range, or past the slots, go to the spill hash (struct kf_stat_key).
 */
#define KF_BPF_SLOTS		  128 /* a power of 2; processes of common programs use 10-50 */
#define KF_BPF_SLOT_PROBES	  16
#define KF_ERR_SECCOMP_KILL	  4096
#define KF_ERR_AT_ATTACH	  4097 /* calls in progress when -p attached (each counted in its own slot too) */
#define KF_SLOT_NR_MAX		  0xfffe
#define KF_SLOT_KEY(abi, nr, err) (((__u32)(abi) << 30) | ((__u32)(err) << 16) | ((__u32)(nr) + 1))
#define KF_SLOT_ABI(key)	  ((key) >> 30)
#define KF_SLOT_ERR(key)	  (((key) >> 16) & 0x1fff)
#define KF_SLOT_NR(key)		  ((int)((key)&0xffff) - 1)

struct kf_slot {
	__u32 key;
	__u32 told; /* failures (err != 0) whose process name a KF_EV_FAILS already told */
	__u64 calls;
	__u64 ns;
};

/* Key and value of the per-CPU spill hash: per process instance × ABI × call × errno. */
struct kf_stat_key {
	__u32 proc;
	__s32 nr;
	__u16 err; /* positive errno, 0 for success, KF_ERR_SECCOMP_KILL */
	__u8 abi;
	__u8 pad;
};

struct kf_stat_val {
	__u64 calls;
	__u64 ns;
};

/* One open-like call: where its path and flags are. */
struct kf_open_sc {
	__s32 nr; /* -1: unused slot */
	__u8 abi;
	__s8 path_arg;	/* argument index of the path */
	__s8 flags_arg; /* argument index of the flags (or of struct open_how *), -1: creat */
	__u8 how;	/* flags_arg points at struct open_how */
};

enum kf_event_type {
	KF_EV_FORK = 1,
	KF_EV_EXEC,
	KF_EV_PROC,
	KF_EV_OPEN,
	KF_EV_FAIL,
	KF_EV_FAILS,
};

/*
 * Pids are those of kfootprint's own pid namespace (0: not visible there); host_pid is the initial
 * namespace's. Events are sized to their content: only the used part of a record is sent.
 */
struct kf_ev_hdr {
	__u32 type;
	__u32 proc;
	__u32 pid; /* tgid */
	__u32 tid;
	__u64 ts; /* CLOCK_MONOTONIC ns (bpf_ktime_get_ns) */
};

struct kf_ev_fork {
	struct kf_ev_hdr h;
	__u32 parent_proc;
	__u32 ppid;
	__u32 host_pid;
	__u32 thread; /* a new thread of an existing process */
	char comm[16];
};

struct kf_ev_exec {
	struct kf_ev_hdr h;
	__u16 filename_len; /* with its NUL */
	__u16 args_len;
	__u32 host_pid;
	char comm[16];
	/* the program run, then NUL-separated argv: up to KF_BPF_ARGS_MAX - 1 bytes, may be cut */
	char data[KF_BPF_FILENAME_MAX + KF_BPF_ARGS_MAX];
};

/* KF_EV_PROC flags */
#define KF_PROC_ENDED	0x1 /* the process ended: status and h.ts (its end) are set */
#define KF_PROC_SPILLED 0x2 /* some of its counts are in the spill hash */
#define KF_PROC_FORKED	0x4 /* created by a followed task's fork (not seeded by kfootprint) */
#define KF_PROC_NOREC	0x8 /* an event for a process that has no record (the map was full) */

/*
 * The news that a process ended (h.ts: its end), and the head of its record. The record is the value of
 * the kernel's per-process map; user space takes it out of the map when this arrives.
 */
struct kf_ev_proc {
	struct kf_ev_hdr h;
	__u64 start_ts;
	__u32 parent_proc;
	__u32 ppid;
	__u32 host_pid;
	__s32 status; /* wait(2) status of the thread group */
	__u32 threads;
	__u32 execs;
	__u32 flags;
	__u32 ntasks;  /* tasks of the process still to pass sched_process_exit */
	char comm[16]; /* at fork, then at each exec */
};

struct kf_proc_rec {
	struct kf_ev_proc p;
	struct kf_slot slots[KF_BPF_SLOTS];
};

struct kf_ev_open {
	__u32 type;
	__u32 proc;
	__s32 ret;
	__s32 flags;
	char path[KF_BPF_PATH_MAX]; /* NUL-terminated; only its length is sent */
};

/*
 * A failed call that takes a path (KF_SC_PATH, numbers below KF_BPF_OPEN_NR_MAX): its source, sent at once.
 * For an open-like call it stands for its KF_EV_OPEN too. comm: the process's name as of its last exec, empty
 * when its record does not know it.
 */
struct kf_ev_fail {
	__u32 type;
	__u32 proc;
	__s32 nr;
	__u16 err;
	__u8 abi;
	__u8 path_ok; /* 0: the path could not be read */
	__s32 flags;  /* an open-like call's O_* flags */
	__u32 open;   /* 1 + its index in open_sc for an open-like call, else 0 */
	char comm[16];
	char path[KF_BPF_PATH_MAX]; /* NUL-terminated; only its length is sent */
};

/*
 * At an exec, the failures of the process's former image not told yet (slot key, count), under the name it
 * had: the failures of calls that take no path are told by their process's name at the time.
 */
struct kf_fail_count {
	__u32 key;
	__u32 calls;
};

struct kf_ev_fails {
	__u32 type;
	__u32 proc;
	__u32 n;
	__u32 pad;
	char comm[16];
	struct kf_fail_count v[KF_BPF_SLOTS];
};

#endif
