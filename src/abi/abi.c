// SPDX-License-Identifier: GPL-2.0
#include "abi/abi.h"

#include <string.h>

static const char *const abi_names[KF_ABI_NR] = {
    [KF_ABI_X86_64] = "x86_64",
    [KF_ABI_I386] = "i386",
    [KF_ABI_X32] = "x32",
    [KF_ABI_AARCH64] = "aarch64",
};

const char *kf_abi_name(enum kf_abi abi)
{
	return (unsigned)abi < KF_ABI_NR ? abi_names[abi] : "unknown";
}

int kf_abi_parse(const char *name, enum kf_abi *abi)
{
	for (int i = 0; i < KF_ABI_NR; i++) {
		if (!strcmp(name, abi_names[i])) {
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
