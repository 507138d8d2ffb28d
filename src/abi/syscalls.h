/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KERNEL_SYSCALLS_H
#define KF_KERNEL_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>

#include "abi/abi.h"

/*
 * Syscall tables, one per ABI, generated at build time from data/syscalls/ (extracted from the kernel's own
 * syscall_64.tbl, syscall_32.tbl and asm-generic/unistd.h; see data/README.md). Names never come from a
 * hand-kept list.
 */

/* Coarse subsystem classes, as in the seed guide's tables; derived from where the kernel implements a call. */
enum kf_class {
	KF_CLASS_PROCESS,    /* Process Mgmt. */
	KF_CLASS_FS,	     /* Filesystem */
	KF_CLASS_MM,	     /* Memory Mgmt. */
	KF_CLASS_NET,	     /* Network */
	KF_CLASS_SIGNAL,     /* Signal */
	KF_CLASS_TIME,	     /* Time */
	KF_CLASS_FUTEX,	     /* Futex */
	KF_CLASS_SCHED,	     /* Scheduler */
	KF_CLASS_IPC,	     /* IPC */
	KF_CLASS_SECURITY,   /* Security (LSM, landlock, keys, seccomp) */
	KF_CLASS_CAPABILITY, /* Capability */
	KF_CLASS_BLOCK,	     /* Block I/O (ioprio) */
	KF_CLASS_ASYNCIO,    /* Async I/O (aio, io_uring) */
	KF_CLASS_MODULE,     /* Modules */
	KF_CLASS_TRACE,	     /* Tracing & perf (perf_event_open, bpf, ptrace) */
	KF_CLASS_SYSTEM,     /* System (reboot, kexec, syslog, sysinfo, uname, hostname) */
	KF_CLASS_ARCH,	     /* Architecture-specific (arch_prctl, iopl, vm86, modify_ldt) */
	KF_CLASS_NONE,	     /* Not implemented by the kernel (afs_syscall, tuxcall, ...) */
	KF_CLASS_NR,
};

/* Behaviour flags the tracers and the model need. */
enum kf_sc_flags {
	KF_SC_OPEN = 1 << 0,	 /* opens a path: see path_arg / flags_arg */
	KF_SC_EXEC = 1 << 1,	 /* execve, execveat */
	KF_SC_NORETURN = 1 << 2, /* exit, exit_group: never returns to user space */
	KF_SC_FORK = 1 << 3,	 /* fork, vfork, clone, clone3 */
	KF_SC_OPEN_HOW = 1 << 4, /* openat2: flags_arg points at struct open_how */
	KF_SC_CREAT = 1 << 5,	 /* creat: no flags argument, O_WRONLY|O_CREAT|O_TRUNC implied */
	KF_SC_PATH = 1 << 6,	 /* takes a path it looks up (lookup column of data/syscalls/args.tsv): see path_arg */
};

/*
 * strace's classes of a call (its sysent flags TF, TN, TP, TS, TM, TI, TD, TC, TCL), for -e trace=%file and the
 * like: generated from strace's own tables (data/gen-strace-classes.sh).
 */
enum kf_strace_class {
	KF_ST_FILE = 1 << 0,
	KF_ST_NETWORK = 1 << 1,
	KF_ST_PROCESS = 1 << 2,
	KF_ST_SIGNAL = 1 << 3,
	KF_ST_MEMORY = 1 << 4,
	KF_ST_IPC = 1 << 5,
	KF_ST_DESC = 1 << 6,
	KF_ST_CREDS = 1 << 7,
	KF_ST_CLOCK = 1 << 8,
};

struct kf_syscall {
	const char *name;  /* table name, e.g. "stat" */
	const char *entry; /* kernel entry point without ABI prefix, e.g. "sys_newstat"; NULL when none */
	short nr;
	unsigned char abi;     /* enum kf_abi */
	unsigned char klass;   /* enum kf_class */
	unsigned char flags;   /* enum kf_sc_flags */
	signed char path_arg;  /* KF_SC_PATH (every KF_SC_OPEN is one): argument index of the path; -1 when none */
	signed char flags_arg; /* KF_SC_OPEN: argument index of the open flags (or struct open_how *) */
	/* From the kernel tree's SYSCALL_DEFINEn (data/gen-args.sh): */
	signed char nargs;	  /* its argument count; -1 when the tree has no definition for it */
	unsigned char path_args;  /* bit i: argument i is a path string */
	unsigned char dirfd_args; /* bit i: argument i is a directory fd (AT_FDCWD) */
	unsigned char fd_args;	  /* bit i: argument i is an fd whose file the call reaches (fp_reach "fd") */
	unsigned short strace;	  /* enum kf_strace_class bits */
};

const char *kf_class_name(enum kf_class klass);
/* "file" -> KF_ST_FILE (the name after strace's '%'); 0 when strace has no such class. */
unsigned kf_strace_class_parse(const char *name);
/* "file, network, ...": the names kf_strace_class_parse() knows. */
const char *kf_strace_class_names(void);
int kf_class_parse(const char *name, enum kf_class *klass);

/* NULL when the number has no row in that ABI's table. */
const struct kf_syscall *kf_syscall_by_nr(enum kf_abi abi, long nr);
/* NULL when the name is not in that ABI's table. */
const struct kf_syscall *kf_syscall_by_name(enum kf_abi abi, const char *name);
/* Rows of one ABI in number order, for iteration: 0 <= i < kf_syscall_count(abi). */
size_t kf_syscall_count(enum kf_abi abi);
const struct kf_syscall *kf_syscall_at(enum kf_abi abi, size_t i);
/* Highest number in the table (sizes per-ABI arrays). */
int kf_syscall_max_nr(enum kf_abi abi);
/* A printable name for any number: the table's row name, or "syscall_NNN" written into buf. */
const char *kf_syscall_name(enum kf_abi abi, long nr, char *buf, size_t len);

#endif
