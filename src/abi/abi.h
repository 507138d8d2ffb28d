/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_ABI_ABI_H
#define KF_ABI_ABI_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The system-call ABIs kfootprint knows: what a recorded call is (an ABI and a number), the vocabulary that
 * backends, the footprint model and the kernel knowledge share. This folder holds no kernel knowledge beyond
 * the generated syscall tables (abi/syscalls.h).
 *
 * Every fact about an ABI is in its one descriptor row (kf_abis[] in abi.c); nothing else tests for a particular
 * ABI. Adding one: a value here, a row there, and its table data/syscalls/<name>.tsv (data/README.md). That is
 * all ptrace recording, the reports and mapping with --kernel-src need; a built-in map database is a data file
 * and a row in src/kmap/mapdb_data.c; bpf recording also needs its kernel side (src/bpf/: how to tell its calls
 * apart and read their arguments), which CO-RE compiles per architecture.
 */
enum kf_abi {
	KF_ABI_X86_64,
	KF_ABI_I386,
	KF_ABI_X32,
	KF_ABI_AARCH64,
	KF_ABI_NR,
};

struct kf_sctbl; /* its generated syscall table (build/gen/syscalltbl.h) */

struct kf_abi_desc {
	enum kf_abi id;
	const char *name;	      /* "x86_64": in footprints, --abi and reports */
	unsigned bits;		      /* register width: a 32-bit ABI's arguments are 32-bit values */
	const struct kf_sctbl *table; /* kf_sctbl_<name>, generated from data/syscalls/<name>.tsv */
	/* recording */
	uint32_t audit_arch; /* AUDIT_ARCH_* that PTRACE_GET_SYSCALL_INFO reports for its calls */
	uint64_t nr_flag;    /* where ABIs share an audit arch, the bit marking its numbers (x32's __X32_SYSCALL_BIT) */
	bool bpf;	     /* the bpf backend records it: its KF_BPF_ABI_* number (src/bpf/kfrec.h) is id */
	const char *strace_mode;  /* strace -c's name for it: "System call usage summary for 32 bit mode:" */
	const char *seccomp_arch; /* libseccomp's and OCI runtime-spec's SCMP_ARCH_* for it; NULL: none */
	/* the kernel */
	const char
	    *kallsyms[3];	/* prefixes of its entry points in /proc/kallsyms, most specific first; none: unknown */
	const char *tree_arch;	/* arch/<tree_arch>/ of a kernel source tree */
	const char *tree_table; /* its syscall table in a tree; NULL: include/uapi/asm-generic/unistd.h */
	const char *tree_rows;	/* the values of the table's abi column that are its rows, space-separated */
	bool tree_compat;	/* the table's fifth column is the entry a 64-bit kernel runs (IA32 emulation) */
	const char *tree_on;	/* Kconfig symbols the ABI implies when mapping with no configuration */
	const char *tree_off;	/* and those it rules out */
};

/* The descriptor of an ABI; NULL when abi is out of range. */
const struct kf_abi_desc *kf_abi_get(enum kf_abi abi);
const char *kf_abi_name(enum kf_abi abi);
/* Returns 0 and sets *abi, or -1 when the name is not an ABI kfootprint knows. */
int kf_abi_parse(const char *name, enum kf_abi *abi);
/* The ABI of a native call on the machine kfootprint was built for. */
enum kf_abi kf_abi_host(void);
/*
 * The ABI of a call from the audit arch a tracer sees and its number, which loses the ABI's marker bit; -1 for
 * an arch kfootprint has no table for.
 */
int kf_abi_of_call(uint32_t audit_arch, uint64_t *nr);

#endif
