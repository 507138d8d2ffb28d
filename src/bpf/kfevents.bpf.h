/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What goes through the ring besides forks, execs and ends (included by kfrec.bpf.c): the opens of the workload
 * and the sources of its failures (the path a failed call named, or at an exec the failures of the former image),
 * read at sys_exit from the call's registers.
 */

/* Scratch space for events sized to their content: built here, then only the used length is sent. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kf_ev_open);
} open_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kf_ev_fail);
} fail_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kf_ev_fails);
} fails_scratch SEC(".maps");

/*
 * Argument i (0-5) of the call: from the register that ABI passes it in, found through a table of CO-RE
 * offsets rather than a switch, whose every case the verifier would follow to the end of the program. At
 * sys_exit the saved user registers still hold the arguments (only ax has the result), also for a call
 * seccomp refused, which has no sys_enter. A global function: the verifier checks it once, not at each of
 * its callers.
 */
__noinline __u64 reg_arg_of(__u64 regs, __u32 abi, __s32 i)
{
	__u32 offs[16] = {
	    bpf_core_field_offset(struct pt_regs, di), bpf_core_field_offset(struct pt_regs, si),
	    bpf_core_field_offset(struct pt_regs, dx), bpf_core_field_offset(struct pt_regs, r10),
	    bpf_core_field_offset(struct pt_regs, r8), bpf_core_field_offset(struct pt_regs, r9),
	    bpf_core_field_offset(struct pt_regs, bx), bpf_core_field_offset(struct pt_regs, cx),
	    bpf_core_field_offset(struct pt_regs, dx), bpf_core_field_offset(struct pt_regs, si),
	    bpf_core_field_offset(struct pt_regs, di), bpf_core_field_offset(struct pt_regs, bp),
	};
	__u32 i386 = abi == KF_BPF_ABI_I386;
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (char *)regs + offs[(i386 * 6 + (__u32)i) & 15]);
	return v & (~0ull >> (i386 * 32)); /* an i386 register's upper half is not the argument's */
}

static __always_inline unsigned long reg_arg(struct pt_regs *regs, __u8 abi, int i)
{
	return reg_arg_of((__u64)regs, abi, i);
}

/* 1 + the index in open_sc of an open-like call, 0 for other calls. */
static __always_inline __u32 open_of(__u8 abi, __s32 nr)
{
	__u32 i = (__u32)abi * KF_BPF_OPEN_NR_MAX + (__u32)nr;

	/* One bound on the final index: the verifier loses the ones on abi and nr after a spill. */
	if (nr < 0 || nr >= KF_BPF_OPEN_NR_MAX || i >= KF_BPF_NABI * KF_BPF_OPEN_NR_MAX)
		return 0;
	return open_slot[i];
}

/* 1 + the argument index of the path of a call that takes one, 0 for other calls. */
static __always_inline __u32 path_of(__u8 abi, __s32 nr)
{
	__u32 i = (__u32)abi * KF_BPF_OPEN_NR_MAX + (__u32)nr;

	if (nr < 0 || nr >= KF_BPF_OPEN_NR_MAX || i >= KF_BPF_NABI * KF_BPF_OPEN_NR_MAX)
		return 0;
	return path_slot[i];
}

/* The O_* flags of open-like call k. */
static __always_inline int open_flags(struct pt_regs *regs, __u32 abi, __u32 k)
{
	__u64 f = 0;

	k &= KF_BPF_OPEN_MAX - 1;
	if (open_sc[k].flags_arg < 0)
		return 01 | 0100 | 01000; /* creat: O_WRONLY | O_CREAT | O_TRUNC */
	if (!open_sc[k].how)
		return (int)reg_arg(regs, abi, open_sc[k].flags_arg);
	bpf_probe_read_user(&f, sizeof(f), (void *)reg_arg(regs, abi, open_sc[k].flags_arg));
	return (int)f;
}

/*
 * The call's index in open_sc comes from a table, not from a search: a search that compares nr would make
 * the verifier walk what follows once for each open-like call.
 */
__noinline int report_open(__u64 regs_addr, __u32 proc, __u32 abi, __u32 k, long ret)
{
	struct pt_regs *regs = (struct pt_regs *)regs_addr;
	__u32 zero = 0;
	struct kf_ev_open *ev = bpf_map_lookup_elem(&open_scratch, &zero);
	const char *path;
	long len;

	if (!ev)
		return 0;
	k &= KF_BPF_OPEN_MAX - 1;
	path = (const char *)reg_arg(regs, abi, open_sc[k].path_arg);
	ev->flags = open_flags(regs, abi, k);
	ev->type = KF_EV_OPEN;
	ev->proc = proc;
	ev->ret = ret;
	/* A path that cannot be read leaves the buffer zeroed (the helper clears it): an empty path, length 0. */
	len = bpf_probe_read_user_str(ev->path, sizeof(ev->path), path);
	len &= ~(len >> 63);
	if (bpf_ringbuf_output(&events, ev, offsetof(struct kf_ev_open, path) + (len & (KF_BPF_PATH_MAX - 1)) + 1,
			       wakeup()))
		__sync_fetch_and_add(&lost_events, 1);
	return 0;
}

/*
 * A failed call that takes a path: its process's name and the path, read at sys_exit from the argument
 * register (the string is as the call left it, as ptrace reads it at its exit stop). Failures are few; a
 * storm of them costs an event each, sized to the path.
 */
__noinline int report_fail(__u64 regs_addr, __u32 proc, __u32 abi, __s32 nr, __u32 err)
{
	struct pt_regs *regs = (struct pt_regs *)regs_addr;
	__u32 zero = 0, k = open_of(abi, nr), arg = path_of(abi, nr) - 1;
	struct kf_ev_fail *ev = bpf_map_lookup_elem(&fail_scratch, &zero);
	struct kf_proc_rec *r = rec_of(proc);
	long len;

	if (!ev)
		return 0;
	ev->type = KF_EV_FAIL;
	ev->proc = proc;
	ev->nr = nr;
	ev->err = err;
	ev->abi = abi;
	ev->open = k;
	ev->flags = k ? open_flags(regs, abi, k - 1) : 0;
	if (r)
		__builtin_memcpy(ev->comm, r->p.comm, sizeof(ev->comm));
	else
		ev->comm[0] = '\0';
	len = bpf_probe_read_user_str(ev->path, sizeof(ev->path), (const char *)reg_arg(regs, abi, arg & 7));
	ev->path_ok = len > 0;
	len &= ~(len >> 63);
	if (bpf_ringbuf_output(&events, ev, offsetof(struct kf_ev_fail, path) + (len & (KF_BPF_PATH_MAX - 1)) + 1,
			       wakeup()))
		__sync_fetch_and_add(&lost_events, 1);
	return 0;
}

/*
 * The count of slots told is kept in the event (map memory), not on the stack: a count on the stack is a known
 * constant at each step, which made the verifier walk the callback once per possible count (17 733
 * instructions, 20-60 ms of start-up) rather than until its state repeats.
 */
struct fails_walk {
	struct kf_proc_rec *r;
	struct kf_ev_fails *ev;
};

/* One slot of tell_fails(). */
static long fails_slot(__u32 i, void *ctx)
{
	struct fails_walk *w = ctx;
	struct kf_slot *sl = &w->r->slots[i & (KF_BPF_SLOTS - 1)];
	__u32 key = sl->key, err = KF_SLOT_ERR(key), d, n;

	if (!key || !err || err >= KF_ERR_SECCOMP_KILL)
		return 0;
	d = (__u32)sl->calls - sl->told;
	if (!d)
		return 0;
	sl->told += d;
	n = w->ev->n;
	w->ev->v[n & (KF_BPF_SLOTS - 1)].key = key;
	w->ev->v[n & (KF_BPF_SLOTS - 1)].calls = d;
	w->ev->n = n + 1;
	return 0;
}

/*
 * At an exec, before the record takes the new name: the failures of the former image, under its name. The
 * process has one thread now (exec ended the others), so the slots do not change meanwhile.
 */
static __always_inline void tell_fails(__u32 proc, struct kf_proc_rec *r)
{
	__u32 zero = 0;
	struct fails_walk w = {.r = r, .ev = bpf_map_lookup_elem(&fails_scratch, &zero)};
	__u64 n;

	if (!w.ev)
		return;
	w.ev->n = 0;
	bpf_loop(KF_BPF_SLOTS, fails_slot, &w, 0);
	n = w.ev->n;
	if (!n)
		return;
	w.ev->type = KF_EV_FAILS;
	w.ev->proc = proc;
	__builtin_memcpy(w.ev->comm, r->p.comm, sizeof(w.ev->comm));
	if (n > KF_BPF_SLOTS)
		n = KF_BPF_SLOTS;
	if (bpf_ringbuf_output(&events, w.ev, offsetof(struct kf_ev_fails, v) + n * sizeof(struct kf_fail_count),
			       wakeup()))
		__sync_fetch_and_add(&lost_events, 1);
}
