// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel side of the bpf backend: follows the workload's tasks from sched_process_fork and aggregates its
 * system calls per process × ABI × call × errno in a per-CPU hash. Lifecycle and opens go to a ring buffer.
 *
 * Raw tracepoints (raw_tp) are used rather than tracefs tracepoints: they call the program directly with
 * the tracepoint's arguments (no trace record is built first) and need no tracefs. Not tp_btf: attaching
 * those makes libbpf parse the whole kernel BTF (~120 ms here), and start-up counts on short workloads.
 * Kernel structures are read through CO-RE relocations (BPF_CORE_READ, or direct loads from the BTF pointer
 * of the current task), which the user side resolves against a minimal copy of the running kernel's BTF.
 *
 * The hot path (every sys_exit, and sys_enter in time mode) is one task-storage lookup for tasks that are
 * not the workload's, and one per-CPU hash update for those that are.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "kfrec.h"

char LICENSE[] SEC("license") = "GPL";

#define TS_COMPAT	      0x0002	 /* arch/x86/include/asm/thread_info.h: 32-bit syscall active */
#define X32_SYSCALL_BIT	      0x40000000 /* arch/x86/include/uapi/asm/unistd.h */
#define SIGNAL_GROUP_EXIT     0x00000004
#define MAX_ERRNO	      4095
#define ERESTARTSYS	      512 /* include/linux/errno.h: 512..516 are the kernel's restart codes */
#define ERESTART_RESTARTBLOCK 516
#define SIGKILL		      9
#define RING_SIZE	      (1 << 20)

/* Filled by the user side before load. */
const volatile bool with_time = true;
const volatile __u64 open_bits[KF_BPF_NABI * KF_BPF_OPEN_NR_MAX / 64]; /* [abi * 8 + nr / 64] */
const volatile struct kf_open_sc open_sc[KF_BPF_OPEN_MAX];
const volatile __s32 nr_exit[KF_BPF_NABI];
const volatile __s32 nr_exit_group[KF_BPF_NABI];
const volatile __s32 nr_execve[KF_BPF_NABI]; /* what exec writes into orig_ax for the new image's ABI */
const volatile __s32 nr_rt_sigreturn[KF_BPF_NABI];

/* Read and written by the user side through the mmap'ed .bss. */
__u32 next_proc;   /* next process instance id */
__s64 live_tasks;  /* tracked tasks not yet exited */
__u64 lost_events; /* ring buffer full */
__u64 lost_stats;  /* stats hash full */
__u64 nstats;	   /* stats entries created (the user side deletes those of ended processes) */
__u64 lost_tasks;  /* task storage could not be created */
__s64 npending;	   /* entries in `pending`: while 0, an unfollowed task costs one storage lookup */
struct kf_cpu_count cpu_calls[KF_BPF_CPU_MAX]; /* read only for the live progress line */

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct kf_task);
} tasks SEC(".maps");

/*
 * Children created by followed tasks, by tid, until they first run: a raw tracepoint gets the child as a
 * plain pointer, and task storage can only be created from the BTF pointer of the current task.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 4096);
	__type(key, __u32);
	__type(value, struct kf_task);
} pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	/*
	 * Not preallocated, and no bigger than needed: creating it costs ~1 ms per 16384 entries. The user side
	 * moves out the counts of ended processes when it is half full.
	 */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct kf_stat_key);
	__type(value, struct kf_stat_val);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, RING_SIZE); /* ~400 execs or ~10000 opens ahead of the reader; each MB costs start-up */
} events SEC(".maps");

/*
 * Opens, forks and execs do not wake the reader, which polls every 100 ms: a wake-up per event would put
 * kfootprint on a CPU for every file the workload opens. It is woken when the ring is half full, and by
 * every exit, so the end of the workload is seen at once.
 */
static __always_inline __u64 wakeup(void)
{
	return bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) > RING_SIZE / 2 ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* Scratch space for an open event: built here, then only its used length is copied to the ring. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kf_ev_open);
} open_scratch SEC(".maps");

/* tab[abi] with constant indexes only: the verifier cannot always carry a bound on abi through a spill. */
static __always_inline __s32 per_abi(const volatile __s32 *tab, __u32 abi)
{
	switch (abi) {
	case KF_BPF_ABI_X86_64: return tab[KF_BPF_ABI_X86_64];
	case KF_BPF_ABI_I386: return tab[KF_BPF_ABI_I386];
	case KF_BPF_ABI_X32: return tab[KF_BPF_ABI_X32];
	default: return -2;
	}
}

/* The followed task's state, or NULL when the current task is not the workload's. */
static __always_inline struct kf_task *task_of(struct task_struct *task)
{
	struct kf_task *t = bpf_task_storage_get(&tasks, task, 0, 0), *p;
	__u32 tid;

	if (t || !npending)
		return t;
	/* A child of a followed task, running for the first time: adopt it. */
	tid = (__u32)bpf_get_current_pid_tgid();
	p = bpf_map_lookup_elem(&pending, &tid);
	if (!p)
		return NULL;
	t = bpf_task_storage_get(&tasks, task, p, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!bpf_map_delete_elem(&pending, &tid))
		__sync_fetch_and_add(&npending, -1);
	if (!t) {
		__sync_fetch_and_add(&lost_tasks, 1);
		__sync_fetch_and_add(&live_tasks, -1);
	}
	return t;
}

/* The ABI of the current call and its number without the x32 bit. */
static __always_inline __u8 call_abi(struct task_struct *task, __s32 *nr)
{
	if (task->thread_info.status & TS_COMPAT)
		return KF_BPF_ABI_I386;
	if (*nr >= 0 && (*nr & X32_SYSCALL_BIT)) {
		*nr &= ~X32_SYSCALL_BIT;
		return KF_BPF_ABI_X32;
	}
	return KF_BPF_ABI_X86_64;
}

static __always_inline void account(__u32 proc, __u8 abi, __s32 nr, __u16 err, __u64 ns)
{
	struct kf_stat_key k = {.proc = proc, .nr = nr, .err = err, .abi = abi};
	struct kf_stat_val *v = bpf_map_lookup_elem(&stats, &k);

	if (!v) {
		struct kf_stat_val zero = {};

		if (!bpf_map_update_elem(&stats, &k, &zero, BPF_NOEXIST)) {
			__sync_fetch_and_add(&nstats, 1);
		} else if (!bpf_map_lookup_elem(&stats, &k)) {
			__sync_fetch_and_add(&lost_stats, 1);
			return;
		}
		v = bpf_map_lookup_elem(&stats, &k);
		if (!v)
			return;
	}
	/* Atomic: the syscall tracepoints may be preempted on this kernel, and a per-CPU value is shared. */
	__sync_fetch_and_add(&v->calls, 1);
	__sync_fetch_and_add(&cpu_calls[bpf_get_smp_processor_id() & (KF_BPF_CPU_MAX - 1)].calls, 1);
	if (ns)
		__sync_fetch_and_add(&v->ns, ns);
}

static __always_inline void fill_hdr(struct kf_ev_hdr *h, __u32 type, __u32 proc, struct task_struct *task)
{
	h->type = type;
	h->proc = proc;
	__u64 id = bpf_get_current_pid_tgid();

	h->pid = id >> 32;
	h->tid = (__u32)id;
	h->ts = bpf_ktime_get_ns();
}

static __always_inline unsigned long reg_arg(struct pt_regs *regs, __u8 abi, int i)
{
	if (abi == KF_BPF_ABI_I386) {
		switch (i) {
		case 0: return (__u32)BPF_CORE_READ(regs, bx);
		case 1: return (__u32)BPF_CORE_READ(regs, cx);
		case 2: return (__u32)BPF_CORE_READ(regs, dx);
		default: return (__u32)BPF_CORE_READ(regs, si);
		}
	}
	switch (i) {
	case 0: return BPF_CORE_READ(regs, di);
	case 1: return BPF_CORE_READ(regs, si);
	case 2: return BPF_CORE_READ(regs, dx);
	default: return BPF_CORE_READ(regs, r10);
	}
}

static __always_inline bool is_open(__u8 abi, __s32 nr)
{
	__u32 i = (__u32)abi * (KF_BPF_OPEN_NR_MAX / 64) + ((__u32)nr >> 6);

	/* One bound on the final index: the verifier loses the ones on abi and nr after a spill. */
	if (nr < 0 || nr >= KF_BPF_OPEN_NR_MAX || i >= KF_BPF_NABI * KF_BPF_OPEN_NR_MAX / 64)
		return false;
	return open_bits[i] & (1ull << (nr & 63));
}

static __noinline int report_open(struct pt_regs *regs, __u32 proc, __u32 abi, __s32 nr, long ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 zero = 0;
	struct kf_ev_open *ev = bpf_map_lookup_elem(&open_scratch, &zero);
	const char *path = NULL;
	long len;
	int flags = 0;

	if (!ev)
		return 0;
	for (int i = 0; i < KF_BPF_OPEN_MAX; i++) {
		if (open_sc[i].nr != nr || open_sc[i].abi != abi)
			continue;
		path = (const char *)reg_arg(regs, abi, open_sc[i].path_arg);
		if (open_sc[i].flags_arg < 0) {
			flags = 01 | 0100 | 01000; /* creat: O_WRONLY | O_CREAT | O_TRUNC */
		} else if (open_sc[i].how) {
			__u64 f = 0;

			bpf_probe_read_user(&f, sizeof(f), (void *)reg_arg(regs, abi, open_sc[i].flags_arg));
			flags = (int)f;
		} else {
			flags = (int)reg_arg(regs, abi, open_sc[i].flags_arg);
		}
		break;
	}
	if (!path)
		return 0;
	fill_hdr(&ev->h, KF_EV_OPEN, proc, task);
	ev->ret = ret;
	ev->flags = flags;
	ev->nr = nr;
	ev->abi = abi;
	len = bpf_probe_read_user_str(ev->path, sizeof(ev->path), path);
	if (len <= 0) {
		ev->path[0] = '\0';
		len = 1;
	}
	if (bpf_ringbuf_output(&events, ev, offsetof(struct kf_ev_open, path) + (len & (KF_BPF_PATH_MAX - 1)) + 1,
			       wakeup()))
		__sync_fetch_and_add(&lost_events, 1);
	return 0;
}

SEC("raw_tp/sys_enter")
int BPF_PROG(kf_sys_enter, struct pt_regs *regs, long id)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kf_task *t = task_of(task);
	__s32 nr = id;

	if (!t)
		return 0;
	t->enter_abi = call_abi(task, &nr);
	t->enter_nr = nr;
	t->enter_ns = bpf_ktime_get_ns();
	/* The started command is the workload from its execve on, as under ptrace: even when it fails. */
	if (t->state == KF_TASK_WAIT_EXEC && nr == per_abi(nr_execve, t->enter_abi))
		t->state = KF_TASK_ACTIVE;
	return 0;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(kf_sys_exit, struct pt_regs *regs, long ret)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kf_task *t = task_of(task);
	__s32 nr;
	__u8 abi;
	__u16 err;
	__u64 ns = 0;

	if (!t)
		return 0;
	if (with_time) {
		if (t->state != KF_TASK_ACTIVE) {
			if (t->state == KF_TASK_FRESH) /* the child's return from fork/clone: counted in the parent */
				t->state = KF_TASK_ACTIVE;
			t->enter_nr = -1;
			return 0;
		}
		/* The call as it was entered: exec rewrites orig_ax and the compat status for the new image. */
		if (t->enter_nr < 0)
			return 0; /* entered before we were watching */
		nr = t->enter_nr;
		abi = t->enter_abi;
		ns = bpf_ktime_get_ns() - t->enter_ns;
		t->enter_nr = -1;
	} else {
		if (t->state == KF_TASK_FRESH) {
			t->state = KF_TASK_ACTIVE;
			return 0;
		}
		nr = BPF_CORE_READ(regs, orig_ax);
		abi = call_abi(task, &nr);
		if (nr == -1) /* sigreturn sets orig_ax to -1 against restarts (i386 sigreturn is named so too) */
			nr = per_abi(nr_rt_sigreturn, abi);
		if (t->exec_done && nr == per_abi(nr_execve, abi)) {
			/* Named for the image that made the call (execveat cannot be told apart here). */
			abi = t->last_abi < KF_BPF_NABI ? t->last_abi : KF_BPF_ABI_X86_64;
			nr = per_abi(nr_execve, abi);
		}
		t->exec_done = 0;
		t->last_abi = abi;
		if (t->state == KF_TASK_WAIT_EXEC) {
			if (nr != per_abi(nr_execve, abi))
				return 0;
			t->state = KF_TASK_ACTIVE;
		}
	}
	err = ret < 0 && ret >= -MAX_ERRNO ? -ret : 0;
	/*
	 * Interrupted by a SIGKILL (or an exit_group or exec of another thread), the call never returns to the
	 * workload: it is counted as made, like exit, without the restart code that nobody sees.
	 */
	if (err >= ERESTARTSYS && err <= ERESTART_RESTARTBLOCK &&
	    (BPF_CORE_READ(task, pending.signal.sig[0]) & (1ul << (SIGKILL - 1))))
		err = 0;
	account(t->proc, abi, nr, err, ns);
	if (is_open(abi, nr))
		report_open(regs, t->proc, abi, nr, ret);
	return 0;
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(kf_fork, struct task_struct *parent, struct task_struct *child)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kf_task *pt = task_of(task);
	struct kf_task init = {.enter_nr = -1, .state = KF_TASK_FRESH};
	struct kf_ev_fork *ev;
	__u32 tid, tgid;
	bool thread;

	if (!pt)
		return 0;
	tid = BPF_CORE_READ(child, pid);
	tgid = BPF_CORE_READ(child, tgid);
	thread = tgid == bpf_get_current_pid_tgid() >> 32;
	init.last_abi = pt->last_abi;
	init.proc = thread ? pt->proc : __sync_fetch_and_add(&next_proc, 1);
	if (bpf_map_update_elem(&pending, &tid, &init, BPF_ANY)) {
		__sync_fetch_and_add(&lost_tasks, 1);
		return 0;
	}
	__sync_fetch_and_add(&npending, 1);
	__sync_fetch_and_add(&live_tasks, 1);
	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		__sync_fetch_and_add(&lost_events, 1);
		return 0;
	}
	ev->h.type = KF_EV_FORK;
	ev->h.proc = init.proc;
	ev->h.pid = tgid;
	ev->h.tid = tid;
	ev->h.ts = bpf_ktime_get_ns();
	ev->parent_proc = pt->proc;
	ev->ppid = bpf_get_current_pid_tgid() >> 32;
	ev->thread = thread;
	bpf_get_current_comm(ev->comm, sizeof(ev->comm));
	bpf_ringbuf_submit(ev, wakeup());
	return 0;
}

SEC("raw_tp/sched_process_exec")
int BPF_PROG(kf_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kf_task *t = task_of(task);
	struct kf_ev_exec *ev;
	unsigned long start, end, len;

	if (!t)
		return 0;
	t->state = KF_TASK_ACTIVE;
	t->exec_done = 1;
	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		__sync_fetch_and_add(&lost_events, 1);
		return 0;
	}
	fill_hdr(&ev->h, KF_EV_EXEC, t->proc, task);
	ev->old_tid = old_pid;
	bpf_get_current_comm(ev->comm, sizeof(ev->comm));
	if (bpf_probe_read_kernel_str(ev->filename, sizeof(ev->filename), BPF_CORE_READ(bprm, filename)) < 0)
		ev->filename[0] = '\0';
	start = BPF_CORE_READ(task, mm, arg_start);
	end = BPF_CORE_READ(task, mm, arg_end);
	len = end > start ? end - start : 0;
	if (len > sizeof(ev->args))
		len = sizeof(ev->args);
	ev->args_len = 0;
	if (len && !bpf_probe_read_user(ev->args, len & (KF_BPF_ARGS_MAX - 1) ?: KF_BPF_ARGS_MAX, (void *)start))
		ev->args_len = len;
	bpf_ringbuf_submit(ev, wakeup());
	return 0;
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(kf_exit, struct task_struct *p)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kf_task *t = task_of(task);
	struct kf_ev_exit *ev;
	__s32 nr;
	__u8 abi;

	if (!t)
		return 0;
	/* exit and exit_group never reach sys_exit: count them here, once, in the task that made them. */
	if (t->state == KF_TASK_ACTIVE) {
		if (with_time) {
			nr = t->enter_nr;
			abi = t->enter_abi;
		} else {
			nr = BPF_CORE_READ((struct pt_regs *)bpf_task_pt_regs(task), orig_ax);
			abi = call_abi(task, &nr);
		}
		if (nr >= 0 && (nr == per_abi(nr_exit, abi) || nr == per_abi(nr_exit_group, abi)))
			account(t->proc, abi, nr, 0, 0);
	}
	/* The last task of its group: read from the signal struct, since not every kernel passes group_dead. */
	if (!BPF_CORE_READ(task, signal, live.counter)) {
		struct signal_struct *sig = BPF_CORE_READ(task, signal);

		ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
		if (ev) {
			fill_hdr(&ev->h, KF_EV_EXIT, t->proc, task);
			ev->status = (BPF_CORE_READ(sig, flags) & SIGNAL_GROUP_EXIT)
					 ? BPF_CORE_READ(sig, group_exit_code)
					 : BPF_CORE_READ(task, group_leader, exit_code);
			ev->pad = 0;
			bpf_ringbuf_submit(ev, BPF_RB_FORCE_WAKEUP);
		} else {
			__sync_fetch_and_add(&lost_events, 1);
		}
	}
	/* Last: the user side ends when no task is live, after reading the ring (the exit event included). */
	__sync_fetch_and_add(&live_tasks, -1);
	bpf_task_storage_delete(&tasks, task);
	return 0;
}
