/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_BPF_KFREACH_H
#define KF_BPF_KFREACH_H

/*
 * What each call reached (refinements, issue 8), the types both sides of the bpf backend share: the kernel side
 * (kfreach.bpf.h) counts raw observations per process x call x what it reached in a hash map; the user side
 * (src/trace/bpf_reach.c) turns them into the model's (kind, value, fd) with the formatter ptrace uses too.
 * Fixed-width only.
 */
#ifndef __bpf__
#include <linux/types.h>
#endif

/* Calls with numbers below this have a row in reach_sc (x32's own calls go up to 547). */
#define KF_REACH_NR_MAX 1024
#define KF_REACH_MAX	16384 /* entries of the kernel's map: past them, refinements are counted as lost */

/* What the kernel side does for a call, besides the kind of the files behind fd[0] and fd[1]. */
enum kf_reach_op {
	KF_RO_NONE = 0,
	KF_RO_MMAP,    /* fd[0] only when the flags at arg have no MAP_ANONYMOUS */
	KF_RO_IOCTL,   /* the command at arg, with the kind of fd[0] */
	KF_RO_SOCKET,  /* the new socket's triple, else the arguments 0-2; arg: socketpair's fd pair */
	KF_RO_ADDR,    /* the family of the sockaddr at arg (its length at arg + 1) */
	KF_RO_MSGHDR,  /* the family of the msg_name of the msghdr at arg */
	KF_RO_EXEC,    /* the binary format of a successful exec */
	KF_RO_CLONE,   /* CLONE_NEW* flags at arg (clone: the low byte is the exit signal) */
	KF_RO_CLONE3,  /* CLONE_NEW* flags of the struct clone_args at arg */
	KF_RO_UNSHARE, /* CLONE_NEW* flags at arg */
	KF_RO_SETNS,   /* CLONE_NEW* flags at arg; 0: the namespace type of the nsfs file at fd argument 0 */
	KF_RO_FSTYPE,  /* the file system type name string at arg (mount, fsopen) */
	KF_RO_PRCTL,   /* the option at arg */
	KF_RO_ARCH_PRCTL,
	KF_RO_BPF,	/* command at arg; program or map type of the union bpf_attr at arg + 1 */
	KF_RO_PERF,	/* the type of the struct perf_event_attr at arg */
	KF_RO_KEYCTL,	/* the operation at arg */
	KF_RO_OPEN,	/* O_TMPFILE, O_DIRECT, O_PATH in the flags at arg */
	KF_RO_OPEN_HOW, /* the same in the struct open_how at arg */
	KF_RO_FCNTL,	/* the command at arg (not of a call that says EBADF) */
	KF_RO_SECCOMP,	/* the operation at arg */
};

/* One call's row, per ABI x number (rodata, filled by the user side). */
struct kf_reach_sc {
	__s8 fd[2]; /* argument indexes of fds whose kind is recorded, -1: none */
	__u8 op;    /* enum kf_reach_op */
	__s8 arg;   /* the op's argument index */
};

/* Kinds, as the key says them; the user side names them ("fd", "socket", ...). */
enum kf_reach_kind {
	KF_RK_FD = 1,
	KF_RK_SOCKET,
	KF_RK_AF,
	KF_RK_IOCTL,
	KF_RK_BINFMT,
	KF_RK_NS,
	KF_RK_FSTYPE,
	KF_RK_PRCTL,
	KF_RK_ARCH_PRCTL,
	KF_RK_BPF_CMD,
	KF_RK_BPF_PROG,
	KF_RK_BPF_MAP,
	KF_RK_PERF_TYPE,
	KF_RK_KEYCTL,
	KF_RK_OFLAG,
	KF_RK_FCNTL,
	KF_RK_SECCOMP, /* seccomp(2)'s operation; prctl(PR_SET_SECCOMP, mode)'s as kernel/seccomp.c maps it */
	KF_RK_FSOPTS,  /* a mount(2) with options (a non-empty data string): the filesystem type, as KF_RK_FSTYPE */
	KF_RK_NR,
};

/* KF_RK_BINFMT values: the kernel's struct linux_binfmt that took the file the call named. */
enum kf_binfmt {
	KF_BINFMT_NONE = 0,
	KF_BINFMT_ELF,
	KF_BINFMT_COMPAT_ELF,
	KF_BINFMT_SCRIPT,
	KF_BINFMT_MISC,
	KF_BINFMT_OTHER, /* none of the above (flat, or a format from a module) */
};

/*
 * The raw kind of a file: what struct kf_fdraw (src/abi/reach.h) takes. mode 0 and no fstype: no file at that fd.
 * Only the fields that matter for the file's type are set (the rest stay 0), so that the map's keys stay few. The
 * filesystem type is its struct file_system_type's address: its name is noted once, in the fsnames map.
 */
struct kf_reach_file {
	__u32 mode;		      /* i_mode & S_IFMT */
	__u32 rdev;		      /* chr/blk: i_rdev (the kernel's dev_t: major << 20 | minor) */
	__u16 family, type, protocol; /* sockets on sockfs */
	__u16 pad;
	__u64 fstype;  /* i_sb->s_type, a key of fsnames */
	char name[24]; /* the dentry name: anon inodes; "memfd:" for a memfd; mount's fstype argument */
};

#define KF_FSNAME_MAX 32
struct kf_reach_key {
	__u32 proc; /* process instance */
	__s16 nr;
	__u8 abi;
	__u8 kind; /* enum kf_reach_kind */
	__u32 val; /* ioctl command, option, CLONE_NEW* bit, type, O_* bit, binfmt */
	__u32 pad;
	struct kf_reach_file f; /* KF_RK_FD, KF_RK_SOCKET, KF_RK_IOCTL (its fd), KF_RK_FSTYPE (name) */
};

struct kf_reach_val {
	__u64 calls;
	__u64 errors;
};

/*
 * A task's refinements not yet in the `reach` hash (with per_task only): a small direct-mapped cache in its task
 * storage, found by a hash of the whole key and compared by value, so that a call that reaches what one of the
 * task's recent calls reached costs a compare and plain adds, not the hash map. Its entries go into the hash when
 * evicted and at the task's end; user space takes those of tasks alive at the end with their counts.
 */
#define KF_REACH_CACHE_BITS 3
#define KF_REACH_CACHE	    (1 << KF_REACH_CACHE_BITS)
struct kf_reach_pend {
	struct kf_reach_key key; /* kind 0: a free entry */
	__u64 calls;		 /* since it was put here, errors included */
	__u64 errors;
	__u64 contest; /* calls of other keys that found it here: past calls, it gives way */
};

/*
 * What the call a task has just ended reached, for record -b bpf --call-sites (src/bpf/kfcsite.bpf.c), whose
 * sys_exit program runs after the backend's (attached later) and takes it: its keys are the call-site key's
 * "reached". valid is the run's generation (struct kf_task.gen) when set by this run's call, 0 once taken.
 */
#define KF_REACH_LAST 8 /* past them (an unshare of every namespace and its fds), the string stops, as ptrace's */
struct kf_reach_last {
	__u32 valid;
	__u32 hash; /* of keys[0..n) but their proc, never 0 when n: the call-site key's (struct kfc_key) */
	__s16 nr;   /* the call, as the backend named it */
	__u8 n;	    /* keys[0..n) */
	__u8 pad;
	__u32 pad2;
	struct kf_reach_key keys[KF_REACH_LAST];
};

#endif
