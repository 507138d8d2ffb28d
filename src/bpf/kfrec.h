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

/* ABI numbers: enum kf_abi (src/abi/abi.h) of the ABIs whose descriptor says bpf; the user side asserts it. */
#define KF_BPF_ABI_X86_64 0
#define KF_BPF_ABI_I386	  1
#define KF_BPF_ABI_X32	  2
#define KF_BPF_NABI	  3

/* Open-like calls the kernel side reports: bit maps of numbers below KF_BPF_OPEN_NR_MAX per ABI. */
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
};

struct kf_task {
	__u64 enter_ns; /* time mode: when the current call was entered */
	__u32 proc;	/* process instance: unique per process, survives exec, never reused */
	__s32 enter_nr; /* time mode: the call being made, -1 when none was seen entering */
	__u8 enter_abi; /* time mode: its ABI */
	__u8 state;	/* enum kf_task_state */
	__u8 last_abi;	/* ABI of the task's last finished call (names an execve rewritten by exec) */
	__u8 exec_done; /* a successful exec happened since the last sys_exit */
};

/* Key and value of the per-CPU stats hash: per process instance × ABI × call × errno. */
struct kf_stat_key {
	__u32 proc;
	__s32 nr;
	__u16 err; /* positive errno, 0 for success */
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
	KF_EV_EXIT,
	KF_EV_OPEN,
};

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
	__u32 thread; /* a new thread of an existing process */
	char comm[16];
};

struct kf_ev_exec {
	struct kf_ev_hdr h;
	__u32 old_tid;
	__u32 args_len;
	char comm[16];
	char filename[KF_BPF_FILENAME_MAX];
	char args[KF_BPF_ARGS_MAX]; /* NUL-separated, args_len bytes, may be cut */
};

struct kf_ev_exit {
	struct kf_ev_hdr h;
	__s32 status; /* wait(2) status of the thread group */
	__u32 pad;
};

struct kf_ev_open {
	struct kf_ev_hdr h;
	__s32 ret;
	__s32 flags;
	__s32 nr;
	__u32 abi;
	char path[KF_BPF_PATH_MAX]; /* NUL-terminated; only its length is sent */
};

#endif
