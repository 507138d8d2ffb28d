/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_ABI_ABI_H
#define KF_ABI_ABI_H

/*
 * The system-call ABIs kfootprint knows: what a recorded call is (an ABI and a number), the vocabulary that
 * backends, the footprint model and the kernel knowledge share. This folder holds no kernel knowledge beyond
 * the generated syscall tables (abi/syscalls.h).
 */
enum kf_abi {
	KF_ABI_X86_64,
	KF_ABI_I386,
	KF_ABI_X32,
	KF_ABI_AARCH64,
	KF_ABI_NR,
};

const char *kf_abi_name(enum kf_abi abi);
/* Returns 0 and sets *abi, or -1 when the name is not an ABI kfootprint knows. */
int kf_abi_parse(const char *name, enum kf_abi *abi);
/* The ABI of a native call on the machine kfootprint was built for. */
enum kf_abi kf_abi_host(void);

#endif
