/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel side of the refinements (what each call reached), included by kfrec.bpf.c after reg_arg(): at a
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

#define KF_S_IFMT	 0170000
#define KF_S_IFSOCK	 0140000
#define KF_S_IFCHR	 0020000
#define KF_S_IFBLK	 0060000
#define KF_MAP_ANONYMOUS 0x20
#define KF_CSIGNAL	 0xff
/* CLONE_NEWTIME | CLONE_NEWNS | CLONE_NEWCGROUP | UTS | IPC | USER | PID | NET (include/uapi/linux/sched.h) */
#define KF_CLONE_NEW_ALL  0x7e020080u
#define KF_O_DIRECT	  040000
#define KF_O_PATH	  010000000
#define KF_O_TMPFILE	  020000000 /* __O_TMPFILE: O_TMPFILE is it with O_DIRECTORY */
#define KF_BPF_MAP_CREATE 0
#define KF_BPF_PROG_LOAD  5

/* Filled by the user side before load; with_reach false leaves all of this out of the verified programs. */
const volatile bool with_reach = true;
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

/* A new key on the stack is built here first: the map compares every byte of it. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct kf_reach_key);
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
 * One more call (failed when err) reached what k says. This and the functions below are global: the verifier
 * checks each once, not once per call site and state (inlined, the sys_exit program took 47 000 instructions
 * and 60 ms to verify; now ~2 000 more), and not at all with_reach false (never called).
 */
__noinline int reach_add(struct kf_reach_key *k, __u32 err)
{
	struct kf_reach_val *v;

	if (!k)
		return 0;
	v = bpf_map_lookup_elem(&reach, k);
	if (!v) {
		struct kf_reach_val zero = {};

		if (!bpf_map_update_elem(&reach, k, &zero, BPF_NOEXIST))
			__sync_fetch_and_add(&nreach, 1);
		v = bpf_map_lookup_elem(&reach, k);
		if (!v) {
			__sync_fetch_and_add(&lost_reach, 1);
			return 0;
		}
	}
	__sync_fetch_and_add(&v->calls, 1);
	if (err)
		__sync_fetch_and_add(&v->errors, 1);
	return 0;
}

static __always_inline bool str8_eq(const char *s, __u64 want)
{
	__u64 v;

	__builtin_memcpy(&v, s, sizeof(v));
	return v == want;
}

/* The first 8 bytes of "anon_inodefs", "sockfs", "tmpfs", "hugetlbfs", "memfd:" (NUL-padded), little-endian */
#define W_ANON_INO 0x6f6e695f6e6f6e61ull
#define W_SOCKFS   0x000073666b636f73ull
#define W_TMPFS	   0x0000007366706d74ull
#define W_HUGETLBF 0x66626c7465677568ull
#define W_MEMFD	   0x00003a64666d656dull

/*
 * The kind of the file at fd in the current task, into f; 0 when no file is there (f left zeroed). Only what
 * distinguishes the kind is read: the dentry name of anonymous inodes and memfds, never of ordinary files.
 */
__noinline int file_kind(int fd, struct kf_reach_file *f)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file **arr, *file = NULL;
	struct inode *ino;
	const char *name;
	int found = 0;
	__u32 max;

	max = BPF_CORE_READ(fdt, max_fds);
	if (!f || fd < 0 || (__u32)fd >= max)
		return 0;
	arr = BPF_CORE_READ(fdt, fd);
	bpf_probe_read_kernel(&file, sizeof(file), arr + fd);
	if (!file)
		return 0;
	found = 1;
	ino = BPF_CORE_READ(file, f_inode);
	f->mode = BPF_CORE_READ(ino, i_mode) & KF_S_IFMT;
	bpf_probe_read_kernel_str(f->fstype, sizeof(f->fstype), BPF_CORE_READ(ino, i_sb, s_type, name));
	if (f->mode == KF_S_IFCHR || f->mode == KF_S_IFBLK) {
		f->rdev = BPF_CORE_READ(ino, i_rdev);
		return found;
	}
	if (f->mode == KF_S_IFSOCK && str8_eq(f->fstype, W_SOCKFS)) {
		/* a socket's file: private_data is its struct socket (an O_PATH fd of a socket file is not) */
		struct socket *sock = BPF_CORE_READ(file, private_data);
		struct sock *sk = BPF_CORE_READ(sock, sk);

		f->family = BPF_CORE_READ(sk, __sk_common.skc_family);
		f->type = BPF_CORE_READ(sk, sk_type);
		f->protocol = BPF_CORE_READ(sk, sk_protocol);
		return found;
	}
	name = (const char *)BPF_CORE_READ(file, f_path.dentry, d_name.name);
	if (str8_eq(f->fstype, W_ANON_INO)) {
		bpf_probe_read_kernel_str(f->name, sizeof(f->name), name);
		return found;
	}
	if (str8_eq(f->fstype, W_TMPFS) || str8_eq(f->fstype, W_HUGETLBF)) {
		/* memfd_create's files live on the kernel's internal mount, attached nowhere: its own parent */
		struct vfsmount *vm = BPF_CORE_READ(file, f_path.mnt);
		struct mount *m = (void *)vm - bpf_core_field_offset(struct mount, mnt);
		char pre[8] = {};

		bpf_probe_read_kernel(pre, 6, name);
		if (str8_eq(pre, W_MEMFD) && BPF_CORE_READ(m, mnt_parent) == m)
			__builtin_memcpy(f->name, pre, sizeof(pre));
	}
	return found;
}

/* The CLONE_NEW* type of the namespace file at fd (setns with nstype 0), 0 when it is not one. */
static __always_inline __u32 ns_type_of(int fd)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
	struct file **arr, *file = NULL;
	struct ns_common *ns;
	char fstype[8] = {};

	if (fd < 0 || (__u32)fd >= BPF_CORE_READ(fdt, max_fds))
		return 0;
	arr = BPF_CORE_READ(fdt, fd);
	bpf_probe_read_kernel(&file, sizeof(file), arr + fd);
	if (!file)
		return 0;
	bpf_probe_read_kernel_str(fstype, sizeof(fstype), BPF_CORE_READ(file, f_inode, i_sb, s_type, name));
	if (!str8_eq(fstype, 0x736673666eull)) /* "nsfs" */
		return 0;
	ns = BPF_CORE_READ(file, f_inode, i_private);
	if (bpf_core_field_exists(ns->ns_type))
		return BPF_CORE_READ(ns, ns_type);
	return BPF_CORE_READ((struct ns_common___old *)ns, ops, type);
}

static __always_inline bool file_eq(const struct kf_reach_file *x, const struct kf_reach_file *y)
{
	const __u64 *a = (const __u64 *)x, *b = (const __u64 *)y;

	for (int i = 0; i < sizeof(*x) / 8; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* One refinement per CLONE_NEW* bit of flags. */
static __always_inline void reach_ns(struct kf_reach_key *k, __u32 flags, __u32 err)
{
	k->kind = KF_RK_NS;
	for (int i = 0; i < 8 && flags; i++) {
		k->val = flags & -flags;
		flags &= flags - 1;
		reach_add(k, err);
	}
}

static __always_inline __u64 user_u64(__u64 addr)
{
	__u64 v = 0;

	bpf_probe_read_user(&v, sizeof(v), (void *)addr);
	return v;
}

/*
 * What call (abi, nr) of process proc reached, at its sys_exit: the kinds of its fd arguments, and what its
 * reach_sc row's op decodes. binfmt: the format a successful exec ran (kf_task.binfmt).
 */
__noinline int reach_call(__u64 regs_addr, __u32 proc, __u32 abi_nr, __u32 err, __u32 binfmt)
{
	struct pt_regs *regs = (struct pt_regs *)regs_addr;
	__u32 zero = 0, abi = abi_nr >> 16, nr = abi_nr & 0xffff, i = abi * KF_REACH_NR_MAX + nr, flags;
	struct kf_reach_key *k = bpf_map_lookup_elem(&reach_scratch, &zero);
	struct kf_reach_file first;
	struct kf_reach_sc sc;
	int found = 0;
	__u64 a, b;

	if (!k || abi >= KF_BPF_NABI || nr >= KF_REACH_NR_MAX || i >= KF_BPF_NABI * KF_REACH_NR_MAX)
		return 0;
	sc = reach_sc[i];
	__builtin_memset(k, 0, sizeof(*k));
	k->proc = proc;
	k->nr = nr;
	k->abi = abi;
	a = sc.op ? reg_arg(regs, abi, sc.arg & 7) : 0;
	/* An fd with no file behind it (EBADF) reached nothing; an ioctl on it is still its command. */
	if (sc.fd[0] >= 0 && !(sc.op == KF_RO_MMAP && (a & KF_MAP_ANONYMOUS))) {
		k->kind = KF_RK_FD;
		found = file_kind((int)reg_arg(regs, abi, sc.fd[0] & 7), &k->f);
		if (found)
			reach_add(k, err);
		if (sc.op == KF_RO_IOCTL) {
			/* the command, made on that kind of file */
			k->kind = KF_RK_IOCTL;
			k->val = a;
			reach_add(k, err);
			k->val = 0;
		}
	}
	if (sc.fd[1] >= 0) {
		/* A second fd (sendfile, splice, tee, copy_file_range): a call reaches a kind once. */
		__builtin_memcpy(&first, &k->f, sizeof(first));
		__builtin_memset(&k->f, 0, sizeof(k->f));
		k->kind = KF_RK_FD;
		if (file_kind((int)reg_arg(regs, abi, sc.fd[1] & 7), &k->f) && !(found && file_eq(&first, &k->f)))
			reach_add(k, err);
	}
	__builtin_memset(&k->f, 0, sizeof(k->f));
	switch (sc.op) {
	case KF_RO_SOCKET:
		k->kind = KF_RK_SOCKET;
		k->f.family = a;
		k->f.type = reg_arg(regs, abi, 1) & 0xf; /* SOCK_TYPE_MASK: without SOCK_NONBLOCK, SOCK_CLOEXEC */
		k->f.protocol = reg_arg(regs, abi, 2);
		reach_add(k, err);
		return 0;
	case KF_RO_ADDR:
		if (!a || reg_arg(regs, abi, (sc.arg + 1) & 7) < 2)
			return 0;
		k->kind = KF_RK_AF;
		bpf_probe_read_user(&k->val, 2, (void *)a);
		reach_add(k, err);
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
		bpf_probe_read_user(&k->val, 2, (void *)a);
		reach_add(k, err);
		return 0;
	case KF_RO_EXEC:
		if (err || !binfmt)
			return 0;
		k->kind = KF_RK_BINFMT;
		k->val = binfmt;
		reach_add(k, err);
		return 0;
	case KF_RO_CLONE: reach_ns(k, a & KF_CLONE_NEW_ALL & ~KF_CSIGNAL, err); return 0;
	case KF_RO_CLONE3: reach_ns(k, user_u64(a) & KF_CLONE_NEW_ALL, err); return 0;
	case KF_RO_UNSHARE: reach_ns(k, a & KF_CLONE_NEW_ALL, err); return 0;
	case KF_RO_SETNS:
		flags = a & KF_CLONE_NEW_ALL;
		if (!a)
			flags = ns_type_of((int)reg_arg(regs, abi, 0)) & KF_CLONE_NEW_ALL;
		reach_ns(k, flags, err);
		return 0;
	case KF_RO_FSTYPE:
		if (!a || bpf_probe_read_user_str(k->f.name, sizeof(k->f.name), (void *)a) <= 1)
			return 0;
		k->kind = KF_RK_FSTYPE;
		reach_add(k, err);
		return 0;
	case KF_RO_PRCTL:
	case KF_RO_ARCH_PRCTL:
	case KF_RO_KEYCTL:
		k->kind = sc.op == KF_RO_PRCTL ? KF_RK_PRCTL : sc.op == KF_RO_KEYCTL ? KF_RK_KEYCTL : KF_RK_ARCH_PRCTL;
		k->val = a;
		reach_add(k, err);
		return 0;
	case KF_RO_BPF:
		k->kind = KF_RK_BPF_CMD;
		k->val = a;
		reach_add(k, err);
		if (a != KF_BPF_PROG_LOAD && a != KF_BPF_MAP_CREATE)
			return 0;
		/* prog_type and map_type are both the first member of union bpf_attr */
		k->kind = a == KF_BPF_PROG_LOAD ? KF_RK_BPF_PROG : KF_RK_BPF_MAP;
		k->val = user_u64(reg_arg(regs, abi, (sc.arg + 1) & 7));
		reach_add(k, err);
		return 0;
	case KF_RO_PERF:
		k->kind = KF_RK_PERF_TYPE;
		k->val = user_u64(a); /* struct perf_event_attr's first member */
		reach_add(k, err);
		return 0;
	case KF_RO_OPEN:
	case KF_RO_OPEN_HOW:
		flags = sc.op == KF_RO_OPEN_HOW ? user_u64(a) : a;
		k->kind = KF_RK_OFLAG;
		if (flags & KF_O_TMPFILE) {
			k->val = KF_O_TMPFILE;
			reach_add(k, err);
		}
		if (flags & KF_O_DIRECT) {
			k->val = KF_O_DIRECT;
			reach_add(k, err);
		}
		if (flags & KF_O_PATH) {
			k->val = KF_O_PATH;
			reach_add(k, err);
		}
		return 0;
	}
	return 0;
}

/* At a followed task's sys_exit: only the calls with a row do any of the work above. */
static __always_inline void reach_exit(struct pt_regs *regs, struct kf_task *t, __u8 abi, __s32 nr, __u16 err)
{
	__u32 i = (__u32)abi * KF_REACH_NR_MAX + (__u32)nr;

	if (nr < 0 || nr >= KF_REACH_NR_MAX || i >= KF_BPF_NABI * KF_REACH_NR_MAX)
		return;
	if (reach_sc[i].fd[0] < 0 && reach_sc[i].fd[1] < 0 && !reach_sc[i].op)
		return;
	reach_call((__u64)regs, t->proc, (__u32)abi << 16 | (__u32)nr, err, t->binfmt);
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
