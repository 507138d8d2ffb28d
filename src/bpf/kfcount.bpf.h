/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where calls are counted (included by kfrec.bpf.c): a process record's open-addressed slots, the spill hash for
 * calls that fit no record, account() choosing between them, and fold(), which moves a task's own counts
 * (struct kf_task_rec) into its process record when the task ends.
 */

struct slot_probe {
	struct kf_proc_rec *r;
	__u64 n;
	__u64 ns;
	__u32 key;
	__u32 h;
	bool done;
};

/* One probe of slot_add(): 1 ends the walk. */
static long probe_slot(__u32 i, void *ctx)
{
	struct slot_probe *pr = ctx;
	struct kf_slot *sl = &pr->r->slots[(pr->h + i) & (KF_BPF_SLOTS - 1)];
	__u32 k = sl->key;

	/* Threads of the process share the record: a free slot is taken with a compare-and-swap. */
	if (!k) {
		k = __sync_val_compare_and_swap(&sl->key, 0, pr->key);
		if (!k)
			k = pr->key;
	}
	if (k != pr->key)
		return 0;
	__sync_fetch_and_add(&sl->calls, pr->n);
	if (pr->ns)
		__sync_fetch_and_add(&sl->ns, pr->ns);
	pr->done = true;
	return 1;
}

/*
 * Adds n calls to the slot of key (open addressing, linear probing), taking a free one if needed; false when
 * the probes find no room. Through bpf_loop(): the verifier checks one probe, not each of them.
 */
static __always_inline bool slot_add(struct kf_proc_rec *r, __u32 key, __u64 n, __u64 ns)
{
	struct slot_probe pr = {.r = r, .n = n, .ns = ns, .key = key, .h = (key * 2654435761u) >> 16};
	struct kf_slot *sl = &r->slots[pr.h & (KF_BPF_SLOTS - 1)];

	/* Most calls find their slot at the first probe: counted here, without the loop's call per probe. */
	if (sl->key == key) {
		__sync_fetch_and_add(&sl->calls, n);
		if (ns)
			__sync_fetch_and_add(&sl->ns, ns);
		return true;
	}
	bpf_loop(KF_BPF_SLOT_PROBES, probe_slot, &pr, 0);
	return pr.done;
}

/* Calls that fit no record: the spill hash, which user space empties of ended processes. 1: not counted. */
static __always_inline int spill(__u32 proc, __u8 abi, __s32 nr, __u16 err, __u64 n, __u64 ns)
{
	struct kf_stat_key k = {.proc = proc, .nr = nr, .err = err, .abi = abi};
	struct kf_stat_val *v = bpf_map_lookup_elem(&stats, &k);

	if (!v) {
		struct kf_stat_val zero = {};

		if (!bpf_map_update_elem(&stats, &k, &zero, BPF_NOEXIST)) {
			__sync_fetch_and_add(&nstats, 1);
		} else if (!bpf_map_lookup_elem(&stats, &k)) {
			__sync_fetch_and_add(&lost_stats, 1);
			return 1;
		}
		v = bpf_map_lookup_elem(&stats, &k);
		if (!v)
			return 1;
	}
	/* Atomic: the syscall tracepoints may be preempted on this kernel, and a per-CPU value is shared. */
	__sync_fetch_and_add(&v->calls, n);
	if (ns)
		__sync_fetch_and_add(&v->ns, ns);
	return 0;
}

/*
 * The live progress line's count of calls: one cache line per CPU, so CPUs do not contend for it; not atomic, as
 * only a program preempted on the same CPU can lose an update, of a figure for the eye. Only when the line is
 * drawn.
 */
static __always_inline void tick(void)
{
	if (with_progress)
		cpu_calls[bpf_get_smp_processor_id() & (KF_BPF_CPU_MAX - 1)].calls++;
}

/*
 * Counts n calls (call: ABI << 32 | number) in the process record; 1 when no map had room for them (then a
 * failure has no source either: a source is never told for a call that is not counted). A global function:
 * the verifier checks it once per program, not at each of its callers (inlined, it cost 5 ms more start-up; its
 * probe loop unrolled, 1.5 ms).
 */
__noinline int account(__u32 proc, __u64 call, __u32 err, __u64 n, __u64 ns)
{
	struct kf_proc_rec *r = rec_of(proc);
	__u32 abi = call >> 32;
	__s32 nr = (__s32)call;

	if (r && nr >= 0 && nr <= KF_SLOT_NR_MAX && err <= KF_ERR_AT_ATTACH && abi < KF_BPF_NABI &&
	    slot_add(r, KF_SLOT_KEY(abi, nr, err), n, ns))
		return 0;
	if (r && !(r->p.flags & KF_PROC_SPILLED))
		__sync_fetch_and_or(&r->p.flags, KF_PROC_SPILLED);
	return spill(proc, abi, nr, err, n, ns);
}

/* kfreach.bpf.h: what the task's calls reached, from its cache into the `reach` hash */
__noinline int reach_flush(struct kf_task_rec *tr);

struct fold_walk {
	struct kf_task_rec *tr;
	__u32 proc;
};

/* One number of fold(). */
static long fold_one(__u32 i, void *ctx)
{
	struct fold_walk *w = ctx;
	__u64 *c, *d, n, ns;

	barrier_var(i);
	if (i >= KF_TASK_NR)
		return 1;
	c = &w->tr->calls[i];
	d = &w->tr->ns[i];
	n = *c;
	ns = *d;
	if (!n)
		return 0;
	*c = 0;
	*d = 0;
	account(w->proc, CALL(KF_BPF_ABI_X86_64, i), 0, n, ns);
	return 0;
}

/*
 * A task's own counts (per_task), into its process record when it ends, and what its calls reached still in its
 * cache into the `reach` hash: before the record can be taken, and the process's refinements with it. At the end
 * of a recording (handover), user space may have taken both already from a task still alive then; whoever
 * creates the task's `claims` entry first has them.
 */
static __always_inline void fold(struct kf_task_rec *tr, struct task_struct *task)
{
	struct fold_walk w = {.tr = tr, .proc = tr->t.proc};
	__u32 mine = KF_CLAIM_KERNEL, *c;

	if (*(volatile __u32 *)&handover) {
		c = bpf_task_storage_get(&claims, task, &mine, BPF_LOCAL_STORAGE_GET_F_CREATE);
		if (!c) /* created by user space meanwhile; or storage busy on this CPU, or no memory */
			c = bpf_task_storage_get(&claims, task, 0, 0);
		if (c && *c != KF_CLAIM_KERNEL)
			return;
		if (!c) {
			/* Not known who has them: folded, and said, so that user space drops them if it read them. */
			__u32 tid = tid_of(task);

			if (bpf_map_update_elem(&unsure, &tid, &w.proc, BPF_ANY))
				__sync_fetch_and_add(&unsure_lost, 1);
		}
	}
	bpf_loop(KF_TASK_NR, fold_one, &w, 0);
	reach_flush(tr);
}
