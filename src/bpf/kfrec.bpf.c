// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel side of the bpf backend: follows the workload's tasks from sched_process_fork and counts its system
 * calls per process × ABI × call × errno in a record per process, which stays in the kernel until the
 * process ends. Forks, execs, ends of processes and opens go to a ring buffer.
 *
 * Raw tracepoints (raw_tp) are used rather than tracefs tracepoints: they call the program directly with
 * the tracepoint's arguments (no trace record is built first) and need no tracefs. Not tp_btf: attaching
 * those makes libbpf parse the whole kernel BTF (~120 ms here), and start-up counts on short workloads.
 * Kernel structures are read through CO-RE relocations (BPF_CORE_READ, or direct loads from the BTF pointer
 * of the current task), which the user side resolves against a minimal copy of the running kernel's BTF.
 *
 * The hot path (every sys_exit, and sys_enter in time mode) is one task-storage lookup for tasks that are
 * not the workload's; for those that are, with per_task, plain adds to the task's own counts in the value that
 * lookup found (folded into the process's record when the task ends), else one lookup of the process's record
 * and an atomic add to the slot of the call; nothing sent to user space.
 *
 * Nothing that matters is lost when user space falls behind: a record stays in the map until user space
 * takes it, also when the ring could not carry the news of its end, and a fork the ring could not carry
 * is known from the record. Only the exe and argv of an exec, the path of an open and the source of a
 * failure (its path, or at an exec the former name) travel through the ring alone; those are counted when
 * the ring is full.
 *
 * Parts with one job each live in headers of their own: kfevents.bpf.h (opens and failures' sources through the
 * ring), kfreach.bpf.h (what each call reached) and its kffile.bpf.h (the kind of the file behind an fd).
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
#define SECCOMP_MODE_DEAD     3 /* kernel/seccomp.c: set when a filter kills the task */
#define PROCS_MAX	      8192

/* Filled by the user side before load. */
const volatile bool with_time = true;
/* --no-time: each task counts its calls that succeeded in its own storage (struct kf_task_rec) */
const volatile bool per_task = false;
const volatile bool with_progress = true; /* the live status line wants cpu_calls */
/* [abi * KF_BPF_OPEN_NR_MAX + nr]: 0 for calls that open no path, else 1 + their index in open_sc */
const volatile __u8 open_slot[KF_BPF_NABI * KF_BPF_OPEN_NR_MAX];
const volatile struct kf_open_sc open_sc[KF_BPF_OPEN_MAX];
/* [abi * KF_BPF_OPEN_NR_MAX + nr]: 0 for calls that take no path (KF_SC_PATH), else 1 + its argument index */
const volatile __u8 path_slot[KF_BPF_NABI * KF_BPF_OPEN_NR_MAX];
/* [abi]; one more entry than ABIs, which per_abi() may name to the verifier but never reads */
const volatile __s32 nr_exit[KF_BPF_NABI + 1];
const volatile __s32 nr_exit_group[KF_BPF_NABI + 1];
const volatile __s32 nr_execve[KF_BPF_NABI + 1]; /* what exec writes into orig_ax for the new image's ABI */
const volatile __s32 nr_rt_sigreturn[KF_BPF_NABI + 1];
/* The inode of kfootprint's pid namespace, 0 when that is the initial one: pids are reported as it sees them. */
const volatile __u32 pidns_ino;
const volatile __u32 ring_wake_at; /* bytes waiting that wake the reader */

/* Read and written by the user side through the mmap'ed .bss. */
__u32 next_proc;   /* next process instance id */
__s64 live_tasks;  /* tracked tasks not yet exited */
__u64 lost_events; /* exec, open and failure events the ring had no room for */
__u64 lost_stats;  /* calls not counted: spill hash full */
__u64 nstats;	   /* spill entries created (the user side deletes those of ended processes) */
__u64 lost_tasks;  /* task storage could not be created */
__s64 npending;	   /* entries in `pending`: while 0, an unfollowed task costs one storage lookup */
struct kf_cpu_count cpu_calls[KF_BPF_CPU_MAX]; /* read only for the live progress line */
__u64 kept_ended;  /* ended processes whose end the ring could not carry: their records wait in `procs` */
__u64 late_forks;  /* forks the ring could not carry (the record tells them later) */
__u64 norec_procs; /* processes without a record (`procs` full): counted in the spill hash */
__u64 ring_high;   /* most bytes seen waiting in the ring */
__u32 ns_level1;   /* 1 + the level of kfootprint's pid namespace, found at the first event; 0 unknown */
__u32 handover;	   /* set by user space at the end: a task's exit folds its counts only if it claims them */
__u64 unsure_lost; /* folds `unsure` had no room for: user space cannot tell whether it read those too */
__u32 run_gen;	   /* this run: task storage of another (struct kf_task.gen) is not followed */

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct kf_task_rec);
} tasks SEC(".maps");

/*
 * With per_task, at the end of a recording: who takes the counts of a task still alive (KF_CLAIM_*). Whoever
 * creates a task's entry first decides, the kernel side at the task's exit or user space (by pidfd): creating
 * one is atomic, and task storage has no size to run out of.
 */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u32);
} claims SEC(".maps");

/*
 * Tasks (tid, as kfootprint sees it -> process instance) whose exit found neither claim (the storage was busy on
 * that CPU, or out of memory) and folded their counts: user space drops what it read of those.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u32);
} unsure SEC(".maps");

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

/* Calls of processes without a record, or past its slots: per process instance × ABI × call × errno. */
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

/*
 * The record of each process, from its fork until user space takes it after its end: memory follows the
 * processes alive or not yet read, up to PROCS_MAX (~3 KB each); not preallocated, so it costs nothing
 * at start-up.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, PROCS_MAX);
	__type(key, __u32);
	__type(value, struct kf_proc_rec);
} procs SEC(".maps");

/* A zeroed record to create new ones from (never written). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kf_proc_rec);
} proc_zero SEC(".maps");

/* Sized by the user side (RING_SIZE in src/trace/bpf.c). */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20);
} events SEC(".maps");

/*
 * Events do not wake the reader, which reads the ring every 50 ms anyway: a wake-up per event would put
 * kfootprint on a CPU for every file the workload opens. It is woken when ring_wake_at bytes wait, and by
 * the end of the last task, so that the end of the workload is seen at once.
 */
static __always_inline __u64 wakeup(void)
{
	__u64 avail = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);

	if (avail > ring_high)
		ring_high = avail; /* a figure for -v: a lost update only makes it smaller */
	return avail >= ring_wake_at ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/* Scratch space for the exec event, built here, then only the used length is sent. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kf_ev_exec);
} exec_scratch SEC(".maps");

/*
 * tab[abi], read at a bounded variable offset: a switch on abi would make abi a known constant on each of its
 * paths, and the verifier would walk the rest of the program once per ABI. The mask bounds the index itself
 * (the compiler may test a copy of it).
 */
static __always_inline __s32 per_abi(const volatile __s32 *tab, __u32 abi)
{
	if (abi >= KF_BPF_NABI)
		return -2;
	barrier_var(abi); /* or the compiler, knowing abi < 3, drops the mask */
	return tab[abi & 3];
}

/* The record of a process instance, or NULL (none: the map was full; or already taken by user space). */
static __always_inline struct kf_proc_rec *rec_of(__u32 proc)
{
	return bpf_map_lookup_elem(&procs, &proc);
}

/*
 * The slow paths of task_of(), for the current task: a task kfootprint seeded, at its first event, is
 * counted in its process's record; a child of a followed task, running for the first time, is adopted
 * (given its state from `pending`). Returns whether the task is followed now.
 */
static __always_inline int follow_current(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kf_task *t = bpf_task_storage_get(&tasks, task, 0, 0), *p;
	struct kf_proc_rec *r;
	__u32 tid;

	if (t) {
		r = rec_of(t->proc);
		if (r) {
			__sync_fetch_and_add(&r->p.ntasks, 1);
			t->counted = 1;
		}
		return 1;
	}
	tid = (__u32)bpf_get_current_pid_tgid();
	p = bpf_map_lookup_elem(&pending, &tid);
	if (!p)
		return 0;
	/* Created zeroed (its counts), then given its state: pending's values are the state alone. */
	t = bpf_task_storage_get(&tasks, task, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (t)
		__builtin_memcpy(t, p, sizeof(*t));
	if (!bpf_map_delete_elem(&pending, &tid))
		__sync_fetch_and_add(&npending, -1);
	if (!t) {
		__sync_fetch_and_add(&lost_tasks, 1);
		__sync_fetch_and_add(&live_tasks, -1);
		return 0;
	}
	return 1;
}

/*
 * The followed task's state, or NULL when the current task is not the workload's: one task-storage
 * lookup, and for tasks not followed, one look at the count of children waiting to be adopted.
 */
static __always_inline struct kf_task *task_of(struct task_struct *task)
{
	struct kf_task *t = bpf_task_storage_get(&tasks, task, 0, 0);

	/* An earlier run's (cached maps): a task that lived then, not in `pending`, which holds new tasks only. */
	if (t && t->gen != run_gen)
		return NULL;
	if (t ? t->counted : !npending)
		return t;
	if (!follow_current())
		return NULL;
	return bpf_task_storage_get(&tasks, task, 0, 0);
}

/*
 * The ABI of the current call and its number without the x32 bit. Without branches: the verifier then sees
 * one ABI of unknown value, not three constants, each of which it would follow through the rest of the
 * program (sys_exit: 2 997 instructions walked, 1 640 after).
 */
static __always_inline __u8 call_abi(struct task_struct *task, __s32 *nr)
{
	__u32 compat = (task->thread_info.status & TS_COMPAT) / TS_COMPAT;
	__u32 n = (__u32)*nr, x32 = (n & X32_SYSCALL_BIT) / X32_SYSCALL_BIT & ~(n >> 31) & ~compat & 1;

	*nr = (__s32)(n & ~(x32 * X32_SYSCALL_BIT));
	return (__u8)(compat | x32 << 1);
}

#define CALL(abi, nr) ((__u64)(abi) << 32 | (__u32)(nr))

/*
 * The number of a struct pid in kfootprint's pid namespace; 0 when it is not visible there. Not inlined:
 * the verifier walks its loop once per program, and not at all when kfootprint is in the initial namespace.
 */
static __noinline __u32 ns_nr(__u64 pid_addr)
{
	struct pid *pid = (struct pid *)pid_addr;
	struct upid *up;
	__u32 level, ino;
	__s32 lvl = (__s32)ns_level1 - 1; /* .bss, not .data: one map fewer to create at start-up */
	int nr = 0;

	if (!pid)
		return 0;
	level = BPF_CORE_READ(pid, level);
	if (lvl < 0) {
		/* Found once: every task we follow sees kfootprint's namespace at the same level. */
		for (__u32 i = 0; i < 32 && i <= level; i++) {
			up = &pid->numbers[0];
			up += i;
			ino = BPF_CORE_READ(up, ns, ns.inum);
			if (ino == pidns_ino) {
				lvl = i;
				ns_level1 = lvl + 1;
				break;
			}
		}
		if (lvl < 0)
			return 0;
	}
	if ((__u32)lvl > level)
		return 0;
	up = &pid->numbers[0];
	up += lvl & 31;
	bpf_core_read(&nr, sizeof(nr), &up->nr);
	return nr;
}

/* A task's thread id and thread-group id as kfootprint sees them. */
static __always_inline __u32 tid_of(struct task_struct *task)
{
	return pidns_ino ? ns_nr((__u64)BPF_CORE_READ(task, thread_pid)) : BPF_CORE_READ(task, pid);
}

static __always_inline __u32 tgid_of(struct task_struct *task)
{
	return pidns_ino ? ns_nr((__u64)BPF_CORE_READ(task, group_leader, thread_pid)) : BPF_CORE_READ(task, tgid);
}

static __always_inline void fill_hdr(struct kf_ev_hdr *h, __u32 type, __u32 proc, struct task_struct *task)
{
	h->type = type;
	h->proc = proc;
	h->pid = tgid_of(task);
	h->tid = tid_of(task);
	h->ts = bpf_ktime_get_ns();
}

#include "kfcount.bpf.h"
#include "kfevents.bpf.h"
#include "kfreach.bpf.h"

/* SECCOMP_MODE_DEAD: a seccomp filter killed the task in the call it is in. */
static __always_inline bool seccomp_killed(struct task_struct *task)
{
	if (!bpf_core_field_exists(task->seccomp))
		return false;
	return task->seccomp.mode == SECCOMP_MODE_DEAD;
}

/* The call a seccomp filter killed the current task in: counted as made, and marked as killed. */
static __always_inline int seccomp_kill(__u32 proc)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__s32 nr = BPF_CORE_READ((struct pt_regs *)bpf_task_pt_regs(task), orig_ax);
	__u8 abi = call_abi(task, &nr);

	tick();
	account(proc, CALL(abi, nr), 0, 1, 0);
	account(proc, CALL(abi, nr), KF_ERR_SECCOMP_KILL, 1, 0);
	return 0;
}

/* Once per task: sys_exit may see the killed call (a killed process), and then sched_process_exit. */
static __always_inline void account_seccomp_kill(struct kf_task *t)
{
	if (t->seccomp_done)
		return;
	t->seccomp_done = 1;
	seccomp_kill(t->proc);
}

/*
 * The rest of sys_exit, once the call is known (call: its ABI << 32 | its number): its result counted, and a
 * failure's source or an open sent. A global function: the verifier checks it once, not once for each way
 * sys_exit came to know the call (with --no-time: a new task, an exec, a sigreturn, the command's first
 * call; 1 633 instructions walked before).
 */
/* Returns the call's errno as counted (0: it succeeded or never returned to the workload). */
__noinline int count_exit(__u64 regs, __u32 proc, __u64 call, long ret, __u64 ns)
{
	__u32 abi = call >> 32, err = ret < 0 && ret >= -MAX_ERRNO ? -ret : 0, k;
	__s32 nr = (__s32)call;
	int lost;

	/*
	 * Interrupted by a SIGKILL (or an exit_group or exec of another thread), the call never returns to the
	 * workload: it is counted as made, like exit, without the restart code that nobody sees.
	 */
	if (err >= ERESTARTSYS && err <= ERESTART_RESTARTBLOCK &&
	    (BPF_CORE_READ(bpf_get_current_task_btf(), pending.signal.sig[0]) & (1ul << (SIGKILL - 1))))
		err = 0;
	tick();
	lost = account(proc, call, err, 1, ns);
	if (err) {
		/* Its source: the path and name now; without a path, the name is told from the record. */
		if (!lost && path_of(abi, nr))
			report_fail(regs, proc, abi, nr, err);
		return err;
	}
	k = open_of(abi, nr);
	if (k)
		report_open(regs, proc, abi, k - 1, ret);
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
	else if (t->state == KF_TASK_ATTACHED)
		t->state = KF_TASK_ACTIVE;
	return 0;
}

#if KF_ID_RDONLY_CAST
#define SYSCALL_NR(cast, regs, task)                                                     \
	((cast) ? ((struct pt_regs *)rdonly_cast((__u64)(regs), KF_ID_PT_REGS))->orig_ax \
		: ((struct pt_regs *)bpf_task_pt_regs(task))->orig_ax)
#else
#define SYSCALL_NR(cast, regs, task) (((struct pt_regs *)bpf_task_pt_regs(task))->orig_ax)
#endif

/* sys_exit; cast: files read with plain loads (kffile.bpf.h), in the program only the build kernel loads */
static __always_inline int sys_exit(struct pt_regs *regs, long ret, bool cast)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kf_task *t = task_of(task);
	__s32 nr;
	__u8 abi;
	__u64 ns = 0;
	int err;

	if (!t)
		return 0;
	if (with_time) {
		if (t->state == KF_TASK_ATTACHED) {
			/* -p: the call the task was in when it was seeded, counted (without its time) and marked */
			t->state = KF_TASK_ACTIVE;
			t->enter_nr = -1;
			nr = BPF_CORE_READ(regs, orig_ax);
			abi = call_abi(task, &nr);
			if (nr < 0)
				return 0;
			account(t->proc, CALL(abi, nr), KF_ERR_AT_ATTACH, 1, 0);
		} else if (t->state != KF_TASK_ACTIVE) {
			if (t->state != KF_TASK_WAIT_EXEC) /* fork's return in the child: counted in the parent */
				t->state = KF_TASK_ACTIVE;
			t->enter_nr = -1;
			return 0;
		} else if (t->enter_nr >= 0) {
			/* The call as it was entered: exec rewrites orig_ax and the compat status for the new image. */
			nr = t->enter_nr;
			abi = t->enter_abi;
			ns = bpf_ktime_get_ns() - t->enter_ns;
			t->enter_nr = -1;
		} else {
			/*
			 * An exit with no entry: seccomp (or a tracer) refused the call before the sys_enter
			 * tracepoint, which comes after them. It was made: counted with no time in it.
			 */
			if (seccomp_killed(task)) {
				account_seccomp_kill(t);
				return 0;
			}
			nr = BPF_CORE_READ(regs, orig_ax);
			abi = call_abi(task, &nr);
			if (nr < 0)
				return 0; /* a tracer cancelled it */
		}
	} else {
		if (t->state == KF_TASK_FRESH) {
			t->state = KF_TASK_ACTIVE;
			return 0;
		}
		if (seccomp_killed(task)) {
			account_seccomp_kill(t);
			return 0;
		}
		/*
		 * The same saved registers as regs, through the task's BTF pointer: a direct load, where reading
		 * regs (a plain pointer) costs a bpf_probe_read_kernel() on every call; regs itself typed by
		 * bpf_rdonly_cast() where it can be, which saves the helper call that finds them.
		 */
		nr = SYSCALL_NR(cast, regs, task);
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
		}
		/* -p: the call the task was in when it was seeded, marked (as with time) */
		if (t->state == KF_TASK_ATTACHED && nr >= 0)
			account(t->proc, CALL(abi, nr), KF_ERR_AT_ATTACH, 1, 0);
		t->state = KF_TASK_ACTIVE;
	}
	/*
	 * A call that succeeded, in the task's own counts: no process record to find, no atomic add (only the task
	 * itself writes them while it lives). An open still sends its path.
	 */
	if (per_task && abi == KF_BPF_ABI_X86_64 && (__u32)nr < KF_TASK_NR && !(ret < 0 && ret >= -MAX_ERRNO)) {
		struct kf_task_rec *tr = (struct kf_task_rec *)t;
		__u32 i = (__u32)nr;

		if (i < KF_TASK_NR) { /* said again on the register that indexes: the verifier's bound */
			tr->calls[i]++;
			if (with_time)
				tr->ns[i] += ns;
		}
		tick();
		i = open_of(abi, nr);
		if (i)
			report_open((__u64)regs, t->proc, abi, i - 1, ret);
		if (with_reach)
			reach_exit(t, abi, nr, 0, ret, (__u64)regs, cast);
		return 0;
	}
	err = count_exit((__u64)regs, t->proc, CALL(abi, nr), ret, ns);
	if (with_reach)
		reach_exit(t, abi, nr, err, ret, (__u64)regs, cast);
	return 0;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(kf_sys_exit, struct pt_regs *regs, long ret)
{
	return sys_exit(regs, ret, false);
}

#if KF_ID_RDONLY_CAST
SEC("raw_tp/sys_exit")
int BPF_PROG(kf_sys_exit_cast, struct pt_regs *regs, long ret)
{
	return sys_exit(regs, ret, true);
}
#endif

SEC("raw_tp/sched_process_fork")
int BPF_PROG(kf_fork, struct task_struct *parent, struct task_struct *child)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kf_task *pt = task_of(task);
	struct kf_task init = {.enter_nr = -1, .state = KF_TASK_FRESH, .counted = 1, .gen = run_gen};
	struct kf_ev_fork *ev;
	struct kf_proc_rec *r, *pr;
	__u32 tid, tgid, pid, ppid, zero = 0;
	char comm[16];
	void *blank;
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
	pr = rec_of(pt->proc);
	if (thread) {
		if (pr) {
			__sync_fetch_and_add(&pr->p.threads, 1);
			__sync_fetch_and_add(&pr->p.ntasks, 1);
		}
		return 0;
	}
	/*
	 * The child's name is its parent's program's, as of the parent's last exec (as ptrace names it), not a
	 * name the parent gave itself since with PR_SET_NAME.
	 */
	if (pr && pr->p.comm[0])
		__builtin_memcpy(comm, pr->p.comm, sizeof(comm));
	else
		bpf_get_current_comm(comm, sizeof(comm));
	/* A new process: its record, then the news of it for the tree (the record tells it too, later). */
	pid = tgid_of(child);
	ppid = tgid_of(task);
	blank = bpf_map_lookup_elem(&proc_zero, &zero);
	if (blank && !bpf_map_update_elem(&procs, &init.proc, blank, BPF_NOEXIST) && (r = rec_of(init.proc))) {
		r->p.h.type = KF_EV_PROC;
		r->p.h.proc = init.proc;
		r->p.h.pid = pid;
		r->p.h.tid = r->p.h.pid;
		r->p.start_ts = bpf_ktime_get_ns();
		r->p.parent_proc = pt->proc;
		r->p.ppid = ppid;
		r->p.host_pid = tgid;
		r->p.threads = 1;
		r->p.ntasks = 1;
		r->p.flags = KF_PROC_FORKED;
		__builtin_memcpy(r->p.comm, comm, sizeof(comm));
	} else {
		__sync_fetch_and_add(&norec_procs, 1);
	}
	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		__sync_fetch_and_add(&late_forks, 1);
		return 0;
	}
	ev->h.type = KF_EV_FORK;
	ev->h.proc = init.proc;
	ev->h.pid = pid;
	ev->h.tid = ev->h.pid;
	ev->h.ts = bpf_ktime_get_ns();
	ev->parent_proc = pt->proc;
	ev->ppid = ppid;
	ev->host_pid = tgid;
	ev->thread = 0;
	__builtin_memcpy(ev->comm, comm, sizeof(comm));
	bpf_ringbuf_submit(ev, wakeup());
	return 0;
}

SEC("raw_tp/sched_process_exec")
int BPF_PROG(kf_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kf_task *t = task_of(task);
	struct kf_ev_exec *ev;
	struct kf_proc_rec *r;
	unsigned long start, end, len;
	__u32 zero = 0;
	long n;

	if (!t)
		return 0;
	t->state = KF_TASK_ACTIVE;
	t->exec_done = 1;
	if (with_reach)
		t->binfmt = exec_binfmt(bprm);
	/* The record knows the new name too, should the event below find no room in the ring. */
	r = rec_of(t->proc);
	if (r) {
		tell_fails(t->proc, r);
		__sync_fetch_and_add(&r->p.execs, 1);
		bpf_get_current_comm(r->p.comm, sizeof(r->p.comm));
	}
	ev = bpf_map_lookup_elem(&exec_scratch, &zero);
	if (!ev)
		return 0;
	fill_hdr(&ev->h, KF_EV_EXEC, t->proc, task);
	ev->host_pid = BPF_CORE_READ(task, tgid);
	bpf_get_current_comm(ev->comm, sizeof(ev->comm));
	/* The program that runs: for a script, its interpreter (as /proc/PID/exe and ptrace say), not the script. */
	n = bpf_probe_read_kernel_str(ev->data, KF_BPF_FILENAME_MAX, BPF_CORE_READ(bprm, interp));
	if (n <= 0) {
		ev->data[0] = '\0';
		n = 1;
	}
	n &= KF_BPF_FILENAME_MAX - 1; /* at most 511 with the NUL: the args fit after it */
	ev->filename_len = n;
	start = BPF_CORE_READ(task, mm, arg_start);
	end = BPF_CORE_READ(task, mm, arg_end);
	len = end > start ? end - start : 0;
	/* One bound the verifier keeps all the way to the output's size: a single path through it. */
	if (len > KF_BPF_ARGS_MAX - 1)
		len = KF_BPF_ARGS_MAX - 1;
	len &= KF_BPF_ARGS_MAX - 1;
	if (!len || bpf_probe_read_user(ev->data + n, len, (void *)start))
		len = 0;
	ev->args_len = len;
	if (bpf_ringbuf_output(&events, ev, offsetof(struct kf_ev_exec, data) + n + len, wakeup()))
		__sync_fetch_and_add(&lost_events, 1);
	return 0;
}

/* The wait(2) status of the task's thread group (from the signal struct: the group's, or the leader's). */
static __always_inline __s32 group_status(struct task_struct *task)
{
	struct signal_struct *sig = BPF_CORE_READ(task, signal);

	return (BPF_CORE_READ(sig, flags) & SIGNAL_GROUP_EXIT) ? BPF_CORE_READ(sig, group_exit_code)
							       : BPF_CORE_READ(task, group_leader, exit_code);
}

/*
 * The process ended: its record says how, and its head goes through the ring. When the ring has no room,
 * the record stays in the map, marked ended, and user space finds it there. A process without a record
 * (the map was full) sends what is known of it, and nothing keeps it when the ring is full.
 */
static __always_inline void end_proc(struct task_struct *task, __u32 proc, struct kf_proc_rec *r, __u64 wake)
{
	struct kf_ev_proc ev = {};

	if (r) {
		r->p.status = group_status(task);
		r->p.h.ts = bpf_ktime_get_ns();
		if (!r->p.host_pid)
			r->p.host_pid = BPF_CORE_READ(task, tgid);
		__sync_fetch_and_or(&r->p.flags, KF_PROC_ENDED);
		__builtin_memcpy(&ev, &r->p, sizeof(ev));
	} else {
		fill_hdr(&ev.h, KF_EV_PROC, proc, task);
		ev.status = group_status(task);
		ev.host_pid = BPF_CORE_READ(task, tgid);
		ev.flags = KF_PROC_SPILLED | KF_PROC_NOREC;
	}
	ev.flags |= KF_PROC_ENDED;
	if (!bpf_ringbuf_output(&events, &ev, sizeof(ev), wake))
		return;
	if (r)
		__sync_fetch_and_add(&kept_ended, 1);
	else
		__sync_fetch_and_add(&lost_events, 1);
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(kf_exit, struct task_struct *p)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct kf_task *t = task_of(task);
	struct kf_proc_rec *r;
	__u64 wake;
	__s32 nr;
	__u8 abi;

	if (!t)
		return 0;
	if (seccomp_killed(task)) {
		/* SECCOMP_RET_KILL_THREAD of one thread of several: no sys_exit saw that call. */
		account_seccomp_kill(t);
	} else if (t->state == KF_TASK_ACTIVE) {
		/* exit and exit_group never reach sys_exit: count them here, once, in the task that made them. */
		if (with_time) {
			nr = t->enter_nr;
			abi = t->enter_abi;
		} else {
			nr = BPF_CORE_READ((struct pt_regs *)bpf_task_pt_regs(task), orig_ax);
			abi = call_abi(task, &nr);
		}
		if (nr >= 0 && (nr == per_abi(nr_exit, abi) || nr == per_abi(nr_exit_group, abi))) {
			tick();
			account(t->proc, CALL(abi, nr), 0, 1, 0);
		}
	}
	if (per_task)
		fold((struct kf_task_rec *)t, task);
	/* The end of the last task we follow wakes the reader, which then sees that nothing is left. */
	wake = live_tasks <= 1 ? BPF_RB_FORCE_WAKEUP : wakeup();
	/*
	 * The last task of the process that passes here ends it: every task counts its calls before, so the
	 * record is complete.
	 */
	r = rec_of(t->proc);
	if (r ? t->counted && __sync_fetch_and_add(&r->p.ntasks, -1) == 1 : !BPF_CORE_READ(task, signal, live.counter))
		end_proc(task, t->proc, r, wake);
	/* Last: the user side ends when no task is live, after reading the ring (the end of the process included). */
	__sync_fetch_and_add(&live_tasks, -1);
	bpf_task_storage_delete(&tasks, task);
	return 0;
}
