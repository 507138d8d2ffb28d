/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_BPF_KFCSITE_H
#define KF_BPF_KFCSITE_H

/* Shared by src/bpf/kfcsite.bpf.c and src/trace/bpf_csite.c: record -b bpf --call-sites. */
#include "kfreach.h"

#define KFC_MAX_TASKS 65536
#define KFC_MAX_KEYS  4096
#define KFC_FP_DEPTH  32   /* FP_CSITE_DEPTH_MAX */
#define KFC_STACK     8192 /* bytes of user stack copied from sp (perf record --call-graph dwarf takes 8192) */
#define KFC_RINGBUF   (8u << 20)
#define KFC_FRESH     2 /* tasks[]: a task forked, whose first sys_exit is the fork's return in it */

/* keys[]: the calls of each (syscall, errno, what it reached), to sample */
struct kfc_key {
	__s32 nr;
	__s32 err;   /* 0, or the positive errno */
	__u32 reach; /* a hash of the reach keys of the event (0: none), which every key's first event carries */
	__u32 pad;
};

/* One sampled call: its task, registers, frame-pointer stack and a copy of its user stack. */
struct kfc_event {
	__u32 tid, tgid;
	__u64 start; /* the process's start time (ns after boot): with tgid, names one process */
	__u32 gen;   /* the process's execs seen (gens[]): with tgid and start, names one program image */
	__s32 nr;
	__s32 err;
	__u32 nfp;	 /* frames in fp[] (bpf_get_stack's, frame pointers) */
	__u32 stack_len; /* bytes of stack[] read, 0 when none could be */
	__u32 pad;
	__u64 time; /* CLOCK_MONOTONIC ns at the call's exit: placed among the perf mmap records (bpf_cmaps.c) */
	__u64 ip, sp, bp;
	__u32 reach_hash; /* the key's */
	__u32 nreach;	  /* reach[0..nreach): what the call reached (the backend's keys, kfreach.h) */
	struct kf_reach_key reach[KF_REACH_LAST];
	__u64 fp[KFC_FP_DEPTH];
	__u8 stack[KFC_STACK];
};

/* stats[]: per CPU, summed by user space */
enum {
	KFC_CALLS,	/* calls of the workload's tasks */
	KFC_SAMPLED,	/* of those, sent to user space */
	KFC_LOST,	/* the ring buffer was full */
	KFC_KEYS_FULL,	/* keys[] was full: the call is sent, unsampled */
	KFC_TASKS_FULL, /* a task could not be followed */
	KFC_NOSTACK,	/* no byte of the user stack could be read */
	KFC_NSTATS
};

#endif
