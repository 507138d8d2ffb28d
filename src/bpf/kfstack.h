/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_BPF_KFSTACK_H
#define KF_BPF_KFSTACK_H

/* Shared by src/bpf/kfstack.bpf.c and src/trace/kstack.c. */
#define KFS_MAX_TASKS	65536
#define KFS_MAX_STACKS	16384
#define KFS_STACK_DEPTH 127 /* PERF_MAX_STACK_DEPTH */

/* counts[]: samples per (kernel stack, syscall the task was in) */
struct kfs_key {
	__u32 stack;
	__s32 nr; /* -1: not in a syscall */
};

/* stats[]: per CPU, summed by user space */
enum {
	KFS_SAMPLES,	/* samples of the workload's tasks */
	KFS_USER,	/* of those, in user space (no kernel stack) */
	KFS_NOSTACK,	/* the kernel stack could not be read */
	KFS_COLLIDED,	/* two stacks with one id: the sample is lost */
	KFS_FULL,	/* the counts map was full */
	KFS_TASKS_FULL, /* a task could not be followed */
	KFS_NSTATS
};

#endif
