// SPDX-License-Identifier: GPL-2.0
#include "abi/syscalls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syscalltbl.h"

/* The seed guide's spelling, so our tables read like its tables. */
static const char *const class_names[KF_CLASS_NR] = {
    [KF_CLASS_PROCESS] = "Process Mgmt.", [KF_CLASS_FS] = "Filesystem",		[KF_CLASS_MM] = "Memory Mgmt.",
    [KF_CLASS_NET] = "Network",		  [KF_CLASS_SIGNAL] = "Signal",		[KF_CLASS_TIME] = "Time",
    [KF_CLASS_FUTEX] = "Futex",		  [KF_CLASS_SCHED] = "Scheduler",	[KF_CLASS_IPC] = "IPC",
    [KF_CLASS_SECURITY] = "Security",	  [KF_CLASS_CAPABILITY] = "Capability", [KF_CLASS_BLOCK] = "Block I/O",
    [KF_CLASS_ASYNCIO] = "Async I/O",	  [KF_CLASS_MODULE] = "Modules",	[KF_CLASS_TRACE] = "Tracing",
    [KF_CLASS_SYSTEM] = "System",	  [KF_CLASS_ARCH] = "Arch-specific",	[KF_CLASS_NONE] = "Not implemented",
};

const char *kf_class_name(enum kf_class klass)
{
	return (unsigned)klass < KF_CLASS_NR ? class_names[klass] : "unknown";
}

/* In bit order of enum kf_strace_class. */
static const char *const strace_classes[] = {"file", "network", "process", "signal", "memory",
					     "ipc",  "desc",	"creds",   "clock"};

unsigned kf_strace_class_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(strace_classes) / sizeof(strace_classes[0]); i++)
		if (!strcmp(name, strace_classes[i]))
			return 1u << i;
	return 0;
}

const char *kf_strace_class_names(void)
{
	return "file, network, process, signal, memory, ipc, desc, creds, clock";
}

int kf_class_parse(const char *name, enum kf_class *klass)
{
	for (int i = 0; i < KF_CLASS_NR; i++) {
		if (!strcmp(name, class_names[i])) {
			*klass = (enum kf_class)i;
			return 0;
		}
	}
	return -1;
}

static const struct kf_sctbl *table(enum kf_abi abi)
{
	const struct kf_abi_desc *d = kf_abi_get(abi);

	return d ? d->table : NULL;
}

const struct kf_syscall *kf_syscall_by_nr(enum kf_abi abi, long nr)
{
	const struct kf_sctbl *t = table(abi);
	size_t lo = 0, hi;

	if (!t || nr < 0)
		return NULL;
	/* Rows are sorted by number, nearly dense: binary search handles the gaps (x86_64 335..423). */
	hi = t->len;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->rows[mid].nr == nr)
			return &t->rows[mid];
		if (t->rows[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct kf_syscall *kf_syscall_by_name(enum kf_abi abi, const char *name)
{
	const struct kf_sctbl *t = table(abi);
	size_t lo = 0, hi;

	if (!t)
		return NULL;
	hi = t->len;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct kf_syscall *row = &t->rows[t->by_name[mid]];
		int c = strcmp(name, row->name);

		if (!c)
			return row;
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

size_t kf_syscall_count(enum kf_abi abi)
{
	const struct kf_sctbl *t = table(abi);

	return t ? t->len : 0;
}

const struct kf_syscall *kf_syscall_at(enum kf_abi abi, size_t i)
{
	const struct kf_sctbl *t = table(abi);

	return t && i < t->len ? &t->rows[i] : NULL;
}

int kf_syscall_max_nr(enum kf_abi abi)
{
	const struct kf_sctbl *t = table(abi);

	return t && t->len ? t->rows[t->len - 1].nr : -1;
}

const char *kf_syscall_name(enum kf_abi abi, long nr, char *buf, size_t len)
{
	const struct kf_syscall *row = kf_syscall_by_nr(abi, nr);

	if (row)
		return row->name;
	snprintf(buf, len, "syscall_%ld", nr);
	return buf;
}
