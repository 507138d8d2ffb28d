// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel side of sampled kernel stacks (record --kernel-functions=sampled, src/trace/kstack.c): a cpu-clock
 * perf event on every CPU runs on_sample; when the interrupted task is one of the workload's, its kernel stack
 * goes into a stack map and the stack's count goes up. The workload's tasks are followed as the bpf backend
 * follows them: seeded by user space, then every task a followed task forks, dropped when they exit.
 */
#include "vmlinux.h"

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "kfstack.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KFS_MAX_TASKS);
	__type(key, __u32); /* task id (pid in the kernel's terms), initial pid namespace */
	__type(value, __u8);
} tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, KFS_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, KFS_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, KFS_MAX_STACKS);
	__type(key, struct kfs_key);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, KFS_NSTATS);
	__type(key, __u32);
	__type(value, __u64);
} stats SEC(".maps");

static void stat_inc(__u32 k)
{
	__u64 *v = bpf_map_lookup_elem(&stats, &k);

	if (v)
		(*v)++;
}

SEC("perf_event")
int kfs_sample(struct bpf_perf_event_data *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct task_struct *task;
	struct kfs_key key;
	__u64 one = 1, *n;
	long id;

	if (!tid || !bpf_map_lookup_elem(&tasks, &tid))
		return 0;
	stat_inc(KFS_SAMPLES);
	id = bpf_get_stackid(ctx, &stacks, 0);
	if (id < 0) {
		/* EFAULT: no kernel stack, the task was in user space; EEXIST: two stacks with one id */
		stat_inc(id == -14 ? KFS_USER : id == -17 ? KFS_COLLIDED : KFS_NOSTACK);
		return 0;
	}
	key.stack = (__u32)id;
	/* the syscall the task is in: orig_ax of its user registers (-1 outside one; x86 only) */
	key.nr = -1;
#ifdef __TARGET_ARCH_x86
	task = bpf_get_current_task_btf();
	key.nr = (__s32)BPF_CORE_READ((struct pt_regs *)bpf_task_pt_regs(task), orig_ax);
#else
	(void)task;
#endif
	n = bpf_map_lookup_elem(&counts, &key);
	if (n)
		__sync_fetch_and_add(n, 1);
	else if (bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST))
		stat_inc(KFS_FULL);
	return 0;
}

SEC("raw_tp/sched_process_fork")
int BPF_PROG(kfs_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptid = (__u32)BPF_CORE_READ(parent, pid), ctid = (__u32)BPF_CORE_READ(child, pid);
	__u8 one = 1;

	if (!bpf_map_lookup_elem(&tasks, &ptid))
		return 0;
	if (bpf_map_update_elem(&tasks, &ctid, &one, BPF_ANY))
		stat_inc(KFS_TASKS_FULL);
	return 0;
}

SEC("raw_tp/sched_process_exit")
int kfs_exit(void *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	bpf_map_delete_elem(&tasks, &tid);
	return 0;
}
