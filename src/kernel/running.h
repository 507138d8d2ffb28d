/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KERNEL_RUNNING_H
#define KF_KERNEL_RUNNING_H

#include <stdbool.h>
#include <stddef.h>

#include "abi/abi.h"

/*
 * What the running kernel has: its release (uname), its configuration (/proc/config.gz) and which syscall
 * entry points are compiled in (/proc/kallsyms). Each source is optional: a kernel without IKCONFIG_PROC or a
 * kallsyms hidden by kptr_restrict leaves that part unknown, never an error.
 */

/* Where a syscall's entry point stands in the running kernel. */
enum kf_run_status {
	KF_RUN_UNKNOWN, /* kallsyms not readable */
	KF_RUN_BUILTIN, /* a strong (T) __x64_sys_* symbol: the implementation is compiled in */
	KF_RUN_STUB,	/* only the weak (W) COND_SYSCALL stub: every call returns ENOSYS */
	KF_RUN_ABSENT,	/* no entry point of that name at all */
};

struct kf_sym; /* private to running.c */
struct kf_cfg; /* private to running.c */

struct kf_running {
	char release[65];	 /* uname -r */
	int version, patchlevel; /* from release; -1 when it does not parse */
	bool have_config;	 /* config was read */
	bool have_kallsyms;	 /* kallsyms was read and shows syscall entry points */
	char *config_why;	 /* why not, when !have_config */
	char *kallsyms_why;	 /* why not, when !have_kallsyms */
	struct kf_cfg *cfg;	 /* sorted by name */
	size_t ncfg;
	struct kf_sym *syms; /* sorted by name */
	size_t nsyms;
};

/*
 * Reads the running kernel. config_path and kallsyms_path default to /proc/config.gz and /proc/kallsyms
 * when NULL (tests pass their own files; a plain text config is read too, zlib handles both). Never fails:
 * what cannot be read is recorded in *_why.
 */
void kf_running__load(struct kf_running *r, const char *config_path, const char *kallsyms_path);
void kf_running__release(struct kf_running *r);

/*
 * The value of an option (name with or without "CONFIG_"): "y", "m", a string or number as written, or "n"
 * when the config does not set it. NULL when the config is unknown.
 */
const char *kf_running_config(const struct kf_running *r, const char *option);
/* Whether the config names the option at all (set, or "is not set"); false when the config is unknown. */
bool kf_running_config_listed(const struct kf_running *r, const char *option);

/*
 * The status of a syscall whose table entry point is `entry` ("sys_newstat", with or without the "sys_"),
 * for an ABI as the running kernel dispatches it: the entry point under the prefixes of the ABI's descriptor
 * (abi.h), __x64_sys_* for x86_64, __ia32_compat_sys_* or __ia32_sys_* for i386.
 */
enum kf_run_status kf_running_syscall(const struct kf_running *r, enum kf_abi abi, const char *entry);
const char *kf_run_status_name(enum kf_run_status s); /* "built-in", "stub", "absent", "unknown" */

/* Parses "6.18.44-fc" into 6, 18; returns -1 when it does not start with two numbers. */
int kf_parse_version(const char *release, int *version, int *patchlevel);

#endif
