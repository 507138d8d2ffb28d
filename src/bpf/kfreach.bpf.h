/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel side of the refinements (what each call reached), included by kfrec.bpf.c after account(): at a
 * followed task's sys_exit, for the calls whose reach_sc row asks for it, the kind of the file behind an fd
 * argument (through current->files, CO-RE on struct file, inode, super_block, dentry, socket, sock) and
 * the decoded arguments are counted per process x call x what it reached in the `reach` hash. Aggregates
 * only, nothing per call goes to user space, which reads the map at the end (and drains the entries of
 * ended processes when it fills up, as it does the spill hash).
 *
 * At sys_exit the saved user registers still hold the arguments, in both time modes; the fd table is as the
 * call left it, as ptrace sees it at its exit stop.
 */
#include "kfreach.h"

#define KF_MAP_ANONYMOUS 0x20
/* CLONE_NEWTIME | CLONE_NEWNS | CLONE_NEWCGROUP | UTS | IPC | USER | PID | NET (include/uapi/linux/sched.h) */
#define KF_CLONE_NEW_ALL       0x7e020080u
#define KF_O_DIRECT	       040000
#define KF_O_PATH	       010000000
#define KF_O_DIRECTORY	       0200000
#define KF_EBADF	       9
#define KF_PR_SET_SECCOMP      22 /* linux/prctl.h */
#define KF_SECCOMP_MODE_STRICT 1  /* linux/seccomp.h */
#define KF_SECCOMP_MODE_FILTER 2
#define KF_O_TMPFILE	       020000000 /* __O_TMPFILE: O_TMPFILE is it with O_DIRECTORY */
#define KF_BPF_MAP_CREATE      0
#define KF_BPF_PROG_LOAD       5

/* Filled by the user side before load; with_reach false leaves all of this out of the verified programs. */
const volatile bool with_reach = true;
/* record --call-sites: each call's keys also left in its task's storage (struct kf_reach_last) for kfcsite.bpf.c */
const volatile bool with_csite_reach = false;
const volatile struct kf_reach_sc reach_sc[KF_BPF_NABI * KF_REACH_NR_MAX];

__u64 lost_reach; /* refinements not counted: the map was full */
__u64 nreach;	  /* entries created (the user side deletes those of ended processes) */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	/* Not preallocated: it costs nothing at start-up, and a workload uses a few hundred entries. */
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, KF_REACH_MAX);
	__type(key, struct kf_reach_key);
	__type(value, struct kf_reach_val);
} reach SEC(".maps");

/* The name of each filesystem type seen, by the address of its struct file_system_type. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 512);
	__type(key, __u64);
	__type(value, char[KF_FSNAME_MAX]);
} fsnames SEC(".maps");

/*
 * A call's key is built here, not on the stack, and with it the kind of its first fd: the stack of reach_call()
 * and of what it calls must stay within 512 bytes, rounded up to 32 at each call (6.1's helper reads of a file
 * take 296 of them).
 */
struct reach_scratch_val {
	struct kf_reach_key k;
	struct kf_reach_file first; /* a call with two fds: the kind of the first */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct reach_scratch_val);
} reach_scratch SEC(".maps");

/* binfmt_misc took the file an exec named (kprobe below): the exec's bprm, by thread id. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u64);
} misc_bprm SEC(".maps");

/* Older kernels keep the namespace type in the operations (struct proc_ns_operations.type before 6.18). */
struct proc_ns_operations___old {
	int type;
} __attribute__((preserve_access_index));

struct ns_common___old {
	const struct proc_ns_operations___old *ops;
} __attribute__((preserve_access_index));

/*
 * calls more calls (errors of them failed) reached what k says: into the `reach` hash; 0 when the map had no room.
 * This and the functions below are global: the verifier checks each once, not once per call site and state
 * (inlined, the sys_exit program took 47 000 instructions and 60 ms to verify; now ~2 000 more), and not at all
 * with_reach false (never called).
 */
__noinline int reach_put(struct kf_reach_key *k, __u64 calls, __u64 errors)
{
	struct kf_reach_key key;
	struct kf_reach_val *v;

	if (!k)
		return 0;
	/*
	 * A global function's pointer argument is plain memory to the verifier, which kernels before 6.5 or so
	 * refuse as a map key (6.1: "R2 type=mem expected=fp, ... map_value"): the key goes through the stack.
	 */
	__builtin_memcpy(&key, k, sizeof(key));
	v = bpf_map_lookup_elem(&reach, &key);
	if (!v) {
		struct kf_reach_val zero = {};

		if (!bpf_map_update_elem(&reach, &key, &zero, BPF_NOEXIST)) {
			__sync_fetch_and_add(&nreach, 1);
			/* a new key: its filesystem type's name, when that is new too */
			if (key.f.fstype && !bpf_map_lookup_elem(&fsnames, &key.f.fstype)) {
				char name[KF_FSNAME_MAX] = {};
				struct file_system_type *t = (void *)key.f.fstype;

				bpf_probe_read_kernel_str(name, sizeof(name), BPF_CORE_READ(t, name));
				bpf_map_update_elem(&fsnames, &key.f.fstype, name, BPF_NOEXIST);
			}
		}
		v = bpf_map_lookup_elem(&reach, &key);
		if (!v) {
			__sync_fetch_and_add(&lost_reach, calls);
			return 0;
		}
	}
	__sync_fetch_and_add(&v->calls, calls);
	if (errors)
		__sync_fetch_and_add(&v->errors, errors);
	return 1;
}

_Static_assert(sizeof(struct kf_reach_key) == 64, "the cache hashes and compares the key as 8 words");
_Static_assert(sizeof(struct kf_reach_file) == 48, "file_eq() compares 6 words");

static __always_inline bool key_eq(const struct kf_reach_key *x, const struct kf_reach_key *y)
{
	const __u64 *a = (const __u64 *)x, *b = (const __u64 *)y;

	return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) | (a[4] ^ b[4]) | (a[5] ^ b[5]) |
		(a[6] ^ b[6]) | (a[7] ^ b[7])) == 0;
}

/*
 * One more call of the task tr (failed when err) reached what k says. With per_task, into the task's cache
 * (struct kf_reach_pend) when k is in its entry there: compared by value, so it is exact whatever became of the
 * files since. Otherwise into the hash, and k takes the entry when it is free or has had fewer calls than the
 * misses it saw since it was put there (whose calls then go into the hash): a hash operation and a half per call
 * at worst, when keys that share an entry take turns. Without per_task, user space could not take the cache of a
 * task alive at the end (no pidfd of a thread): straight into the hash.
 */
__noinline int reach_add(struct kf_task_rec *tr, struct kf_reach_key *k, __u32 err)
{
	const __u64 *w = (const __u64 *)k;
	__u64 fail = (__u64)(-(__s64)err) >> 63; /* err != 0, without a branch for the verifier to walk twice */
	struct kf_reach_pend *e;
	__u64 h;

	if (!k || !tr)
		return 0;
	if (with_csite_reach) {
		__u32 n = tr->last.n;
		__u64 c = tr->last.hash;

		if (n < KF_REACH_LAST) {
			__builtin_memcpy(&tr->last.keys[n], k, sizeof(*k));
			tr->last.n = (__u8)(n + 1);
			/* FNV-1a over the key's words but proc (not the call site's): straight code, no loop */
			c = (c ^ (w[0] >> 32)) * 0x100000001b3ull;
			c = (c ^ w[1]) * 0x100000001b3ull;
			c = (c ^ w[2]) * 0x100000001b3ull;
			c = (c ^ w[3]) * 0x100000001b3ull;
			c = (c ^ w[4]) * 0x100000001b3ull;
			c = (c ^ w[5]) * 0x100000001b3ull;
			c = (c ^ w[6]) * 0x100000001b3ull;
			c = (c ^ w[7]) * 0x100000001b3ull;
			tr->last.hash = (__u32)(c ^ (c >> 32)) | 1;
		}
	}
	if (!per_task)
		return reach_put(k, 1, fail);
	/* The words that tell a task's keys apart: the call, kind and value, mode and device, socket, fs type. */
	h = (w[0] ^ w[1] ^ w[2] ^ w[3] ^ w[4]) * 0x9e3779b97f4a7c15ull;
	e = &tr->reach[h >> (64 - KF_REACH_CACHE_BITS)];
	if (key_eq(&e->key, k)) {
		e->calls++;
		e->errors += fail;
		return 1;
	}
	/* The hash has every key that enters the cache (and its filesystem type's name): user space names them. */
	if (!reach_put(k, 1, fail))
		return 0;
	if (e->key.kind && ++e->contest <= e->calls)
		return 1;
	if (e->calls) /* a free entry has none */
		reach_put(&e->key, e->calls, e->errors);
	__builtin_memcpy(&e->key, k, sizeof(e->key));
	e->calls = 0;
	e->errors = 0;
	e->contest = 0;
	return 1;
}

/* One entry of reach_flush(); ctx: the task's value, through the stack (where bpf_loop() wants it). */
static long flush_one(__u32 i, void *ctx)
{
	struct kf_task_rec *tr = *(struct kf_task_rec **)ctx;
	struct kf_reach_pend *e;

	barrier_var(i);
	if (!tr || i >= KF_REACH_CACHE)
		return 1;
	e = &tr->reach[i];
	if (e->key.kind && e->calls)
		reach_put(&e->key, e->calls, e->errors);
	e->calls = 0;
	return 0;
}

/*
 * The task's refinements still in its cache, into the hash: at its end, where its counts are folded (fold()).
 * Through bpf_loop(): the verifier checks one entry, not each of them.
 */
__noinline int reach_flush(struct kf_task_rec *tr)
{
	if (with_reach && tr)
		bpf_loop(KF_REACH_CACHE, flush_one, &tr, 0);
	return 0;
}

#include "kffile.bpf.h"

/* The CLONE_NEW* type of the namespace file at fd (setns with nstype 0), 0 when it is not one. */
static __always_inline __u32 ns_type_of(int fd, bool cast)
{
	struct file *file = (struct file *)FD_FILE(cast, fd);
	struct ns_common *ns;
	char fstype[8] = {};

	if (!file)
		return 0;
	bpf_probe_read_kernel_str(fstype, sizeof(fstype), BPF_CORE_READ(file, f_inode, i_sb, s_type, name));
	if (!str8_eq(fstype, 0x7366736eull)) /* "nsfs" */
		return 0;
	ns = BPF_CORE_READ(file, f_inode, i_private);
	if (bpf_core_field_exists(ns->ns_type))
		return BPF_CORE_READ(ns, ns_type);
	return BPF_CORE_READ((struct ns_common___old *)ns, ops, type);
}

static __always_inline bool file_eq(const struct kf_reach_file *x, const struct kf_reach_file *y)
{
	const __u64 *a = (const __u64 *)x, *b = (const __u64 *)y;

	/* one branch, not one a word: fewer paths for the verifier to walk */
	return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) | (a[3] ^ b[3]) | (a[4] ^ b[4]) | (a[5] ^ b[5])) == 0;
}

/* Argument i of a call of that ABI in saved registers r: inlined into the two ways of finding r below. */
static __always_inline __u64 regs_arg(const struct pt_regs *r, __u32 abi, __u32 i)
{
	if (abi == KF_BPF_ABI_I386) {
		switch (i) {
		case 0: return (__u32)r->bx;
		case 1: return (__u32)r->cx;
		case 2: return (__u32)r->dx;
		case 3: return (__u32)r->si;
		case 4: return (__u32)r->di;
		default: return (__u32)r->bp;
		}
	}
	switch (i) {
	case 0: return r->di;
	case 1: return r->si;
	case 2: return r->dx;
	case 3: return r->r10;
	case 4: return r->r8;
	default: return r->r9;
	}
}

/*
 * Argument i of the current call, loaded from the task's saved registers through their BTF pointer (no helper
 * call): at sys_exit they still hold the arguments. A global function: inlined, each of its callers' unknown
 * index made the verifier walk its twelve ways again (3 000 of the 4 200 instructions sys_exit walked).
 */
__noinline __u64 call_arg(__u32 abi, __u32 i)
{
	return regs_arg((struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf()), abi, i);
}

#if KF_ID_RDONLY_CAST
/*
 * call_arg() from the registers sys_exit was given (regs, a plain pointer in a raw tracepoint) typed with
 * bpf_rdonly_cast(): plain loads, not the two helper calls that find the task's registers.
 */
__noinline __u64 call_arg_regs(__u64 regs, __u32 abi, __u32 i)
{
	return regs_arg(rdonly_cast(regs, KF_ID_PT_REGS), abi, i);
}
#define ARG(i) (cast ? call_arg_regs(regs, abi, (i)) : call_arg(abi, (i)))
#else
#define ARG(i) call_arg(abi, (i))
#endif

/* One refinement per CLONE_NEW* bit of flags. Global: its loop is walked once, not at each of its 4 callers. */
__noinline int reach_ns(struct kf_task_rec *tr, struct kf_reach_key *k, __u32 flags, __u32 err)
{
	if (!k)
		return 0;
	k->kind = KF_RK_NS;
	for (int i = 0; i < 8 && flags; i++) {
		k->val = flags & -flags;
		flags &= flags - 1;
		reach_add(tr, k, err);
	}
	return 0;
}

static __always_inline __u64 user_u64(__u64 addr)
{
	__u64 v = 0;

	bpf_probe_read_user(&v, sizeof(v), (void *)addr);
	return v;
}

/*
 * What call (abi, nr) of task tr reached, at its sys_exit: the kinds of its fd arguments, and what its
 * reach_sc row's op decodes. binfmt: the format a successful exec ran (kf_task.binfmt).
 */
static __always_inline int reach_call_body(struct kf_task_rec *tr, __u32 abi_nr, __u32 err_fmt, __s64 ret, __u64 regs,
					   bool cast)
{
	__u32 err = err_fmt & 0xffff, binfmt = err_fmt >> 16;
	__u32 zero = 0, abi = abi_nr >> 16, nr = abi_nr & 0xffff, i = abi * KF_REACH_NR_MAX + nr, flags;
	struct reach_scratch_val *scr = bpf_map_lookup_elem(&reach_scratch, &zero);
	struct kf_reach_key *k;
	struct kf_reach_sc sc;
	int found = 0;
	__u64 a, b;

	if (!tr || !scr || abi >= KF_BPF_NABI || nr >= KF_REACH_NR_MAX || i >= KF_BPF_NABI * KF_REACH_NR_MAX)
		return 0;
	k = &scr->k;
	sc = reach_sc[i];
	__builtin_memset(k, 0, sizeof(*k));
	k->proc = tr->t.proc;
	k->nr = nr;
	k->abi = abi;
	a = sc.op ? ARG(sc.arg & 7) : 0;
	/*
	 * A call that says EBADF reached no file, nor an ioctl command (an fd with no file behind it, or one not open
	 * for that); an fd with no file otherwise reached nothing, but an ioctl on it is still its command.
	 */
	if (err == KF_EBADF)
		sc.fd[0] = sc.fd[1] = -1;
	if (sc.fd[0] >= 0 && !(sc.op == KF_RO_MMAP && (a & KF_MAP_ANONYMOUS))) {
		k->kind = KF_RK_FD;
		found = FILE_KIND(cast, (int)ARG(sc.fd[0] & 7), &k->f);
		if (found)
			reach_add(tr, k, err);
		if (sc.op == KF_RO_IOCTL) {
			/* the command, made on that kind of file */
			k->kind = KF_RK_IOCTL;
			k->val = a;
			reach_add(tr, k, err);
			k->val = 0;
		}
	}
	if (sc.fd[1] >= 0) {
		/* A second fd (sendfile, splice, tee, copy_file_range): a call reaches a kind once. */
		__builtin_memcpy(&scr->first, &k->f, sizeof(scr->first));
		__builtin_memset(&k->f, 0, sizeof(k->f));
		k->kind = KF_RK_FD;
		if (FILE_KIND(cast, (int)ARG(sc.fd[1] & 7), &k->f) && !(found && file_eq(&scr->first, &k->f)))
			reach_add(tr, k, err);
	}
	/* most calls (read, write, fstat...) have only their fds: done */
	if (sc.op <= KF_RO_IOCTL) /* KF_RO_NONE, KF_RO_MMAP, KF_RO_IOCTL */
		return 0;
	__builtin_memset(&k->f, 0, sizeof(k->f));
	switch (sc.op) {
	case KF_RO_SOCKET:
		/* the kernel's triple, as the new socket says it (the protocol socket() chose for 0), else the
		 * arguments */
		k->kind = KF_RK_SOCKET;
		if (!err) {
			int fd = ret;

			/* socketpair: the first of the two fds it wrote at arg */
			if (sc.arg && bpf_probe_read_user(&fd, sizeof(fd), (void *)a))
				fd = -1;
			if (FILE_KIND(cast, fd, &k->f) && k->f.mode == KF_S_IFSOCK) {
				__u16 family = k->f.family, type = k->f.type, protocol = k->f.protocol;

				__builtin_memset(&k->f, 0, sizeof(k->f));
				k->f.family = family;
				k->f.type = type;
				k->f.protocol = protocol;
				reach_add(tr, k, err);
				return 0;
			}
			__builtin_memset(&k->f, 0, sizeof(k->f));
		}
		k->f.family = ARG(0);
		k->f.type = ARG(1) & 0xf; /* SOCK_TYPE_MASK: without SOCK_NONBLOCK, SOCK_CLOEXEC */
		k->f.protocol = ARG(2);
		reach_add(tr, k, err);
		return 0;
	case KF_RO_ADDR:
		if (!a || ARG((sc.arg + 1) & 7) < 2)
			return 0;
		k->kind = KF_RK_AF;
		if (bpf_probe_read_user(&k->val, 2, (void *)a) == 0)
			reach_add(tr, k, err);
		return 0;
	case KF_RO_MSGHDR:
		/* struct msghdr: msg_name, msg_namelen; in the 32-bit ABIs, struct compat_msghdr */
		if (abi == KF_BPF_ABI_X86_64) {
			b = user_u64(a + 8) & 0xffffffff;
			a = user_u64(a);
		} else {
			b = user_u64(a) >> 32;
			a = user_u64(a) & 0xffffffff;
		}
		if (!a || b < 2)
			return 0;
		k->kind = KF_RK_AF;
		if (bpf_probe_read_user(&k->val, 2, (void *)a) == 0)
			reach_add(tr, k, err);
		return 0;
	case KF_RO_EXEC:
		if (err || !binfmt)
			return 0;
		k->kind = KF_RK_BINFMT;
		k->val = binfmt;
		reach_add(tr, k, err);
		return 0;
	case KF_RO_CLONE: reach_ns(tr, k, a & KF_CLONE_NEW_ALL, err); return 0; /* no signal number has bit 7 */
	case KF_RO_CLONE3: reach_ns(tr, k, user_u64(a) & KF_CLONE_NEW_ALL, err); return 0;
	case KF_RO_UNSHARE: reach_ns(tr, k, a & KF_CLONE_NEW_ALL, err); return 0;
	case KF_RO_SETNS:
		/* nstype 0: the type of the namespace the fd is of, as a successful call found it */
		flags = a & KF_CLONE_NEW_ALL;
		if (!a && !err)
			flags = ns_type_of((int)ARG(0), cast) & KF_CLONE_NEW_ALL;
		reach_ns(tr, k, flags, err);
		return 0;
	case KF_RO_FSTYPE:
		if (!a || bpf_probe_read_user_str(k->f.name, sizeof(k->f.name), (void *)a) <= 1)
			return 0;
		k->kind = KF_RK_FSTYPE;
		reach_add(tr, k, err);
		/* mount(2) with options, a non-empty data string: the code that parses them (fsopen has none) */
		b = sc.arg == 2 ? ARG(4) : 0;
		a = 0; /* its first byte */
		if (b && !bpf_probe_read_user(&a, 1, (void *)b) && a) {
			k->kind = KF_RK_FSOPTS;
			reach_add(tr, k, err);
		}
		return 0;
	case KF_RO_FCNTL:
	case KF_RO_PRCTL:
	case KF_RO_ARCH_PRCTL:
	case KF_RO_KEYCTL:
	case KF_RO_SECCOMP:
		if (sc.op == KF_RO_FCNTL && err == KF_EBADF)
			return 0; /* as an ioctl's command: no file, no command */
		k->kind = sc.op == KF_RO_PRCTL	   ? KF_RK_PRCTL
			  : sc.op == KF_RO_KEYCTL  ? KF_RK_KEYCTL
			  : sc.op == KF_RO_FCNTL   ? KF_RK_FCNTL
			  : sc.op == KF_RO_SECCOMP ? KF_RK_SECCOMP
						   : KF_RK_ARCH_PRCTL;
		k->val = a;
		reach_add(tr, k, err);
		/* prctl(PR_SET_SECCOMP, mode) is the seccomp operation of that mode (kernel/seccomp.c) */
		b = sc.op == KF_RO_PRCTL && a == KF_PR_SET_SECCOMP ? ARG(1) : 0;
		if (b == KF_SECCOMP_MODE_STRICT || b == KF_SECCOMP_MODE_FILTER) {
			k->kind = KF_RK_SECCOMP;
			k->val = b - 1; /* SECCOMP_SET_MODE_STRICT 0, SECCOMP_SET_MODE_FILTER 1 */
			reach_add(tr, k, err);
		}
		return 0;
	case KF_RO_BPF:
		k->kind = KF_RK_BPF_CMD;
		k->val = a;
		reach_add(tr, k, err);
		if (a != KF_BPF_PROG_LOAD && a != KF_BPF_MAP_CREATE)
			return 0;
		/* prog_type and map_type are both the first member of union bpf_attr */
		k->kind = a == KF_BPF_PROG_LOAD ? KF_RK_BPF_PROG : KF_RK_BPF_MAP;
		if (!bpf_probe_read_user(&k->val, sizeof(k->val), (void *)ARG((sc.arg + 1) & 7)))
			reach_add(tr, k, err);
		return 0;
	case KF_RO_PERF:
		k->kind = KF_RK_PERF_TYPE;
		if (!bpf_probe_read_user(&k->val, sizeof(k->val),
					 (void *)a)) /* struct perf_event_attr's first member */
			reach_add(tr, k, err);
		return 0;
	case KF_RO_OPEN:
	case KF_RO_OPEN_HOW:
		flags = sc.op == KF_RO_OPEN_HOW ? user_u64(a) : a;
		k->kind = KF_RK_OFLAG;
		if ((flags & (KF_O_TMPFILE | KF_O_DIRECTORY)) == (KF_O_TMPFILE | KF_O_DIRECTORY)) {
			k->val = KF_O_TMPFILE;
			reach_add(tr, k, err);
		}
		if (flags & KF_O_DIRECT) {
			k->val = KF_O_DIRECT;
			reach_add(tr, k, err);
		}
		if (flags & KF_O_PATH) {
			k->val = KF_O_PATH;
			reach_add(tr, k, err);
		}
		return 0;
	}
	return 0;
}

/* The two ways of reading (kffile.bpf.h), each in the sys_exit program that loads it. err_fmt: errno | binfmt << 16 */
__noinline int reach_call(struct kf_task_rec *tr, __u32 abi_nr, __u32 err_fmt, __s64 ret, __u64 regs)
{
	return reach_call_body(tr, abi_nr, err_fmt, ret, regs, false);
}

#if KF_ID_RDONLY_CAST
__noinline int reach_call_cast(struct kf_task_rec *tr, __u32 abi_nr, __u32 err_fmt, __s64 ret, __u64 regs)
{
	return reach_call_body(tr, abi_nr, err_fmt, ret, regs, true);
}
#define REACH_CALL(cast, ...) ((cast) ? reach_call_cast(__VA_ARGS__) : reach_call(__VA_ARGS__))
#else
#define REACH_CALL(cast, ...) reach_call(__VA_ARGS__)
#endif

/* At a followed task's sys_exit: only the calls with a row do any of the work above. */
static __always_inline void reach_exit(struct kf_task *t, __u8 abi, __s32 nr, __u16 err, long ret, __u64 regs,
				       bool cast)
{
	__u32 i = (__u32)abi * KF_REACH_NR_MAX + (__u32)nr;

	if (with_csite_reach) { /* set for every call, so that none is taken for another's */
		struct kf_task_rec *tr = (struct kf_task_rec *)t;

		tr->last.n = 0;
		tr->last.hash = 0x811c9dc5; /* FNV's offset basis, folded to 32 bits as the hash is */
		tr->last.nr = (__s16)nr;
		tr->last.valid = run_gen;
	}
	if (nr < 0 || nr >= KF_REACH_NR_MAX || i >= KF_BPF_NABI * KF_REACH_NR_MAX)
		return;
	if (reach_sc[i].fd[0] < 0 && reach_sc[i].fd[1] < 0 && !reach_sc[i].op)
		return;
	REACH_CALL(cast, (struct kf_task_rec *)t, (__u32)abi << 16 | (__u32)nr, err | (__u32)t->binfmt << 16, ret,
		   regs);
	t->binfmt = 0;
}

/*
 * The format that took the file an exec named (the first of a chain: a script run by an ELF interpreter is a
 * script). Every format but ELF puts an interpreter in bprm->interp, which starts as bprm->filename;
 * binfmt_misc is told from binfmt_script by the kprobe below; an ELF by its class in bprm->buf, which holds
 * the start of the file finally run.
 */
static __always_inline __u8 exec_binfmt(struct linux_binprm *bprm)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 *misc = bpf_map_lookup_elem(&misc_bprm, &tid);
	unsigned char buf[5] = {};

	if (misc) {
		bool was = *misc == (__u64)bprm;

		bpf_map_delete_elem(&misc_bprm, &tid);
		if (was)
			return KF_BINFMT_MISC;
	}
	if (BPF_CORE_READ(bprm, interp) != BPF_CORE_READ(bprm, filename))
		return KF_BINFMT_SCRIPT;
	bpf_probe_read_kernel(buf, sizeof(buf), &bprm->buf[0]);
	if (buf[0] != 0x7f || buf[1] != 'E' || buf[2] != 'L' || buf[3] != 'F')
		return KF_BINFMT_OTHER;
	return buf[4] == 1 ? KF_BINFMT_COMPAT_ELF : KF_BINFMT_ELF; /* EI_CLASS: ELFCLASS32, ELFCLASS64 */
}

/*
 * binfmt_misc is asked only for files no other format took; entered with the file the exec named (no
 * interpreter yet), it is the first format of the chain when the exec succeeds. Loaded only where the
 * kernel has binfmt_misc.
 */
SEC("kprobe/load_misc_binary")
int BPF_KPROBE(kf_misc, struct linux_binprm *bprm)
{
	struct task_struct *task = bpf_get_current_task_btf();
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 v = (__u64)bprm;

	if (!with_reach || !bpf_task_storage_get(&tasks, task, 0, 0))
		return 0;
	if (BPF_CORE_READ(bprm, interp) == BPF_CORE_READ(bprm, filename))
		bpf_map_update_elem(&misc_bprm, &tid, &v, BPF_ANY);
	return 0;
}
