// SPDX-License-Identifier: GPL-2.0
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"

/* Kernel-internal codes a tracer can see on syscall exit (a restarted or interrupted call). */
static const struct {
	int err;
	const char *name;
} kernel_errnos[] = {
    {512, "ERESTARTSYS"},
    {513, "ERESTARTNOINTR"},
    {514, "ERESTARTNOHAND"},
    {515, "ENOIOCTLCMD"},
    {516, "ERESTART_RESTARTBLOCK"},
    {517, "EPROBE_DEFER"},
    {518, "EOPENSTALE"},
    {519, "ENOPARAM"},
    {521, "EBADHANDLE"},
    {522, "ENOTSYNC"},
    {523, "EBADCOOKIE"},
    {524, "ENOTSUPP"},
    {525, "ETOOSMALL"},
    {526, "ESERVERFAULT"},
    {527, "EBADTYPE"},
    {528, "EJUKEBOX"},
    {529, "EIOCBQUEUED"},
    {530, "ERECALLCONFLICT"},
};

const char *fp_errno_name(int err)
{
	static __thread char buf[16];
	const char *s = err > 0 && err < 512 ? strerrorname_np(err) : NULL;

	if (s)
		return s;
	for (size_t i = 0; i < sizeof(kernel_errnos) / sizeof(kernel_errnos[0]); i++)
		if (kernel_errnos[i].err == err)
			return kernel_errnos[i].name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

int fp_errno_parse(const char *name)
{
	char *end;
	long v;

	if (name[0] != 'E')
		return -1;
	for (int e = 1; e < 512; e++) {
		const char *s = strerrorname_np(e);

		if (s && !strcmp(s, name))
			return e;
	}
	for (size_t i = 0; i < sizeof(kernel_errnos) / sizeof(kernel_errnos[0]); i++)
		if (!strcmp(kernel_errnos[i].name, name))
			return kernel_errnos[i].err;
	v = strtol(name + 1, &end, 10);
	return (*end || end == name + 1 || v <= 0 || v > 4095) ? -1 : (int)v;
}

const char *fp_signal_name(int sig)
{
	static __thread char buf[24];
	const char *s = sig > 0 ? sigabbrev_np(sig) : NULL;

	if (s) {
		snprintf(buf, sizeof(buf), "SIG%s", s);
		return buf;
	}
	if (sig >= SIGRTMIN && sig <= SIGRTMAX)
		snprintf(buf, sizeof(buf), "SIGRT%d", sig - SIGRTMIN);
	else
		snprintf(buf, sizeof(buf), "SIG%d", sig);
	return buf;
}

int fp_signal_parse(const char *name)
{
	char *end;
	long v;

	if (strncmp(name, "SIG", 3))
		return -1;
	for (int s = 1; s < SIGRTMIN; s++) {
		const char *a = sigabbrev_np(s);

		if (a && !strcmp(a, name + 3))
			return s;
	}
	if (!strncmp(name + 3, "RT", 2)) {
		v = strtol(name + 5, &end, 10);
		if (!*end && end != name + 5 && v >= 0 && SIGRTMIN + v <= SIGRTMAX)
			return SIGRTMIN + (int)v;
		return -1;
	}
	v = strtol(name + 3, &end, 10);
	return (*end || end == name + 3 || v <= 0 || v > 64) ? -1 : (int)v;
}
