// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel side of record -b bpf --call-sites (src/trace/bpf_csite.c): a program of its own, loaded and attached only
 * when call sites are asked for, so that the backend's own sys_exit (kfrec.bpf.c) does no new work without them.
 * At the exit of each call of a workload task (followed as kfstack.bpf.c follows them), the first KFC_ALWAYS calls
 * of each (syscall, errno) and then one in every `every` go to user space with the task's user registers, its
 * frame-pointer stack (bpf_get_stack) and a copy of the KFC_STACK bytes above its stack pointer, which user space
 * unwinds with the modules' CFI (Debian's binaries keep no frame pointers). The other calls are only counted.
 * A process's execs are counted (gens[]) at begin_new_exec (sched_prepare_exec, Linux 6.10 on), before the new image
 * replaces the old mappings, or just after them on older kernels (sched_process_exec), so that user space can tell
 * whether the /proc/PID/maps it reads are those of the image an event was made in.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "kfcsite.h"
#include "kfrec.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 always = 32; /* calls of each key always sent */
const volatile __u32 every = 16;  /* past them, one call in every */
/*
 * What each call reached, which the backend's sys_exit (kfrec.bpf.c, attached first, so run first) leaves in its
 * task storage, shared with it (src/trace/bpf_csite.c gives this object the backend's map): set by this run's
 * call when its valid is run_gen, the run's generation.
 */
const volatile bool with_reach = false;
const volatile __u32 run_gen = 0;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct kf_task_rec);
} kf_tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KFC_MAX_TASKS);
	__type(key, __u32);  /* task id, initial pid namespace */
	__type(value, __u8); /* 1: followed; 0: the started command held before its exec, whose calls are ours;
			      * KFC_FRESH: followed, not past its first exit yet */
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KFC_MAX_TASKS);
	__type(key, __u32); /* tgid */
	__type(value, __u32);
} gens SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KFC_MAX_KEYS);
	__type(key, struct kfc_key);
	__type(value, __u64); /* calls */
} keys SEC(".maps");

/* What the calls of each key reached, by the key's hash: set with the key, read at the end (events may be lost) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, KFC_MAX_KEYS);
	__type(key, __u32);
	__type(value, struct kf_reach_last);
} key_reach SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, KFC_RINGBUF);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, KFC_NSTATS);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static void stat_inc(__u32 k)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &k);

	if (v)
		(*v)++;
}

/*
 * Whether this call of key k is one user space looks at: 0 no, 1 yes, 2 yes and at once (a key's first call: most
 * of a process's first calls are, and user space must read its maps while it lives).
 */
static int sample(const struct kfc_key *k)
{
	__u64 one = 1, *n = bpf_map_lookup_elem(&keys, k), c;

	if (!n) {
		if (bpf_map_update_elem(&keys, k, &one, BPF_NOEXIST) == 0)
			return 2;
		n = bpf_map_lookup_elem(&keys, k); /* another CPU made it */
		if (!n) {
			stat_inc(KFC_KEYS_FULL);
			return 1;
		}
	}
	c = __sync_fetch_and_add(n, 1);
	return c < always || (every && c % every == 0);
}

/* The keys the backend left for the call just ended (nr), taken: NULL when it left none for this one. */
static struct kf_reach_last *take_reach(struct task_struct *task, __s32 nr, __u32 *n)
{
	struct kf_task_rec *tr = bpf_task_storage_get(&kf_tasks, task, 0, 0);
	struct kf_reach_last *l;

	if (!tr || tr->last.valid != run_gen || tr->last.nr != nr)
		return NULL;
	l = &tr->last;
	l->valid = 0;
	*n = l->n;
	return *n ? l : NULL;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(kfc_sys_exit, struct pt_regs *regs, long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = (__u32)(id >> 32), *gen;
	struct task_struct *task;
	struct kfc_event *e;
	struct kf_reach_last *last;
	struct kfc_key k;
	__u32 nreach = 0;
	__u8 *followed;
	__u64 top;
	int how;

	followed = tid ? bpf_map_lookup_elem(&tasks, &tid) : NULL;
	if (!followed || !*followed)
		return 0;
	if (*followed == KFC_FRESH) { /* a new task's first exit: the fork's return in it, the parent's call */
		*followed = 1;
		return 0;
	}
	stat_inc(KFC_CALLS);
	k.nr = (__s32)BPF_CORE_READ(regs, orig_ax);
	if (k.nr < 0) /* sigreturn sets orig_ax to -1 against restarts */
		return 0;
	k.err = ret < 0 && ret >= -4095 ? (__s32)-ret : 0;
	k.reach = 0;
	k.pad = 0;
	task = bpf_get_current_task_btf();
	last = with_reach ? take_reach(task, k.nr, &nreach) : NULL;
	if (last)
		k.reach = last->hash;
	how = sample(&k);
	if (!how)
		return 0;
	if (how == 2 && last)
		bpf_map_update_elem(&key_reach, &k.reach, last, BPF_NOEXIST);
	e = bpf_ringbuf_reserve(&events, sizeof(*e), 0);
	if (!e) {
		stat_inc(KFC_LOST);
		return 0;
	}
	e->reach_hash = k.reach;
	e->nreach = 0;
	if (last && nreach <= KF_REACH_LAST) {
		__builtin_memcpy(e->reach, last->keys, sizeof(e->reach));
		e->nreach = nreach;
	}
	e->tid = tid;
	e->tgid = tgid;
	e->start = BPF_CORE_READ(task, group_leader, start_time);
	gen = bpf_map_lookup_elem(&gens, &tgid);
	e->gen = gen ? *gen : 0;
	e->nr = k.nr;
	e->err = k.err;
	e->pad = 0;
	e->time = bpf_ktime_get_ns();
	e->ip = BPF_CORE_READ(regs, ip);
	e->sp = BPF_CORE_READ(regs, sp);
	e->bp = BPF_CORE_READ(regs, bp);
	{
		long n = bpf_get_stack(ctx, e->fp, sizeof(e->fp), BPF_F_USER_STACK);

		e->nfp = n > 0 ? (__u32)n / 8 : 0;
	}
	/*
	 * From sp up: a fault past the stack's mapping (a thread's stack, near its top) fails the read whole, and
	 * zeroes it, so shorter reads are tried.
	 */
	/* the main thread's stack ends just past its environment strings: no further than that */
	top = BPF_CORE_READ(task, mm, env_end);
	e->stack_len = KFC_STACK;
	if (top > e->sp && top - e->sp < KFC_STACK)
		e->stack_len = (__u32)(top - e->sp) & (KFC_STACK - 1);
	if (!e->stack_len || bpf_probe_read_user(e->stack, e->stack_len, (void *)e->sp)) {
		e->stack_len = KFC_STACK / 4;
		if (bpf_probe_read_user(e->stack, KFC_STACK / 4, (void *)e->sp)) {
			e->stack_len = 512;
			if (bpf_probe_read_user(e->stack, 512, (void *)e->sp)) {
				e->stack_len = 0;
				stat_inc(KFC_NOSTACK);
			}
		}
	}
	stat_inc(KFC_SAMPLED);
	bpf_ringbuf_submit(e, how == 2 ? BPF_RB_FORCE_WAKEUP : 0);
	return 0;
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(kfc_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptid = (__u32)BPF_CORE_READ(parent, pid), ctid = (__u32)BPF_CORE_READ(child, pid);
	__u8 *followed = bpf_map_lookup_elem(&tasks, &ptid), v;

	if (!followed)
		return 0;
	v = *followed ? KFC_FRESH : 0;
	if (bpf_map_update_elem(&tasks, &ctid, &v, BPF_ANY))
		stat_inc(KFC_TASKS_FULL);
	return 0;
}

static void exec_seen(void)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = (__u32)(id >> 32), one = 1, *gen;
	__u8 *followed = bpf_map_lookup_elem(&tasks, &tid);

	if (!followed)
		return;
	*followed = 1; /* the started command, now itself */
	gen = bpf_map_lookup_elem(&gens, &tgid);
	if (gen)
		__sync_fetch_and_add(gen, 1);
	else
		bpf_map_update_elem(&gens, &tgid, &one, BPF_ANY);
}

/* Linux 6.10 on: at begin_new_exec, past the point where exec can fail and return, before the new mappings. */
SEC("raw_tp/sched_prepare_exec")
int kfc_prepare_exec(void *ctx)
{
	exec_seen();
	return 0;
}

/* Before 6.10 (not loaded where the other is): after the new mappings, which leaves user space a window. */
SEC("raw_tp/sched_process_exec")
int kfc_exec(void *ctx)
{
	exec_seen();
	return 0;
}

SEC("raw_tp/sched_process_exit")
int kfc_exit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, tgid = (__u32)(id >> 32);

	if (bpf_map_delete_elem(&tasks, &tid) == 0 && tid == tgid)
		bpf_map_delete_elem(&gens, &tgid);
	return 0;
}
