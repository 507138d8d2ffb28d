// SPDX-License-Identifier: GPL-2.0
/* The registry of backends (trace.h): -b auto tries them in this order. */
#include <stdio.h>
#include <string.h>

#include "trace/trace.h"

static const struct backend_entry backends[] = {
#ifndef KF_NO_BPF
    {&backend_bpf, false, "libbpf CO-RE programs counting in the kernel: near the untraced speed; root and BTF"},
#endif
    {&backend_ptrace, true, "PTRACE_SEIZE and PTRACE_GET_SYSCALL_INFO: exact, unprivileged, sees arguments"},
};

#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

const struct backend_entry *backend_find(const char *name)
{
	for (size_t i = 0; name && i < NBACKENDS; i++)
		if (!strcmp(backends[i].be->name, name))
			return &backends[i];
	return NULL;
}

const struct backend_entry *backend_at(size_t i)
{
	return i < NBACKENDS ? &backends[i] : NULL;
}

const char *backend_names(void)
{
	static char buf[128];

	if (!*buf) {
		size_t len = (size_t)snprintf(buf, sizeof(buf), "auto");

		for (size_t i = 0; i < NBACKENDS && len < sizeof(buf); i++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, ", %s", backends[i].be->name);
	}
	return buf;
}
