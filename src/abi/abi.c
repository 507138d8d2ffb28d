// SPDX-License-Identifier: GPL-2.0
/* One descriptor per ABI: everything kfootprint knows about it (abi.h). */
#include "abi/abi.h"

#include <linux/audit.h>
#include <string.h>

#include "syscalltbl.h"

static const struct kf_abi_desc abis[KF_ABI_NR] = {
    [KF_ABI_X86_64] =
	{
	    .id = KF_ABI_X86_64,
	    .name = "x86_64",
	    .bits = 64,
	    .table = &kf_sctbl_x86_64,
	    .audit_arch = AUDIT_ARCH_X86_64,
	    .bpf = true,
	    .strace_mode = "64 bit",
	    .seccomp_arch = "SCMP_ARCH_X86_64",
	    .kallsyms = {"__x64_"},
	    .tree_arch = "x86",
	    .tree_table = "arch/x86/entry/syscalls/syscall_64.tbl",
	    .tree_rows = "common 64",
	    .tree_on = "X86 MMU X86_64 64BIT",
	    .tree_off = "X86_32",
	},
    [KF_ABI_I386] =
	{
	    .id = KF_ABI_I386,
	    .name = "i386",
	    .bits = 32,
	    .table = &kf_sctbl_i386,
	    .audit_arch = AUDIT_ARCH_I386,
	    .bpf = true,
	    .strace_mode = "32 bit",
	    .seccomp_arch = "SCMP_ARCH_X86",
	    .kallsyms = {"__ia32_compat_", "__ia32_"},
	    .tree_arch = "x86",
	    .tree_table = "arch/x86/entry/syscalls/syscall_32.tbl",
	    .tree_rows = "i386",
	    .tree_compat = true,
	    .tree_on = "X86 MMU X86_32",
	    .tree_off = "X86_64 64BIT",
	},
    [KF_ABI_X32] =
	{
	    .id = KF_ABI_X32,
	    .name = "x32",
	    .bits = 64,
	    .table = &kf_sctbl_x32,
	    .audit_arch = AUDIT_ARCH_X86_64,
	    .nr_flag = 0x40000000, /* __X32_SYSCALL_BIT */
	    .bpf = true,
	    .strace_mode = "x32",
	    .seccomp_arch = "SCMP_ARCH_X32",
	    .kallsyms = {"__x32_compat_", "__x64_"},
	    .tree_arch = "x86",
	    .tree_table = "arch/x86/entry/syscalls/syscall_64.tbl",
	    .tree_rows = "common x32",
	    .tree_on = "X86 MMU X86_64 64BIT",
	    .tree_off = "X86_32",
	},
    [KF_ABI_AARCH64] =
	{
	    .id = KF_ABI_AARCH64,
	    .name = "aarch64",
	    .bits = 64,
	    .table = &kf_sctbl_aarch64,
	    .audit_arch = AUDIT_ARCH_AARCH64,
	    .strace_mode = "64 bit",
	    .seccomp_arch = "SCMP_ARCH_AARCH64",
	    .tree_arch = "arm64",
	    .tree_on = "ARM64 64BIT MMU",
	    .tree_off = "",
	},
};

const struct kf_abi_desc *kf_abi_get(enum kf_abi abi)
{
	return (unsigned)abi < KF_ABI_NR ? &abis[abi] : NULL;
}

const char *kf_abi_name(enum kf_abi abi)
{
	return (unsigned)abi < KF_ABI_NR ? abis[abi].name : "unknown";
}

int kf_abi_parse(const char *name, enum kf_abi *abi)
{
	for (int i = 0; i < KF_ABI_NR; i++) {
		if (!strcmp(name, abis[i].name)) {
			*abi = (enum kf_abi)i;
			return 0;
		}
	}
	return -1;
}

enum kf_abi kf_abi_host(void)
{
#if defined(__x86_64__) && defined(__ILP32__)
	return KF_ABI_X32;
#elif defined(__x86_64__)
	return KF_ABI_X86_64;
#elif defined(__i386__)
	return KF_ABI_I386;
#elif defined(__aarch64__)
	return KF_ABI_AARCH64;
#else
#error "kfootprint: no syscall table for this architecture"
#endif
}

int kf_abi_of_call(uint32_t audit_arch, uint64_t *nr)
{
	int plain = -1;

	for (int i = 0; i < KF_ABI_NR; i++) {
		if (abis[i].audit_arch != audit_arch)
			continue;
		if (abis[i].nr_flag && (*nr & abis[i].nr_flag)) {
			*nr &= ~abis[i].nr_flag;
			return i;
		}
		if (!abis[i].nr_flag && plain < 0)
			plain = i;
	}
	return plain;
}
