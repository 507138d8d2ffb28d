// SPDX-License-Identifier: GPL-2.0
#include "util/parse.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/xalloc.h"

int parse_seconds(const char *opt, const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno)
		return error("invalid %s '%s': not a number of seconds", opt, s);
	if (*end == 'm' || *end == 'h' || *end == 's') {
		v *= *end == 'm' ? 60 : *end == 'h' ? 3600 : 1;
		end++;
	}
	if (*end)
		return error("invalid %s '%s': trailing characters after the number", opt, s);
	if (!isfinite(v) || v <= 0)
		return error("invalid %s '%s': must be a positive number of seconds", opt, s);
	if (v > 365 * 86400.0)
		return error("invalid %s '%s': longer than a year", opt, s);
	*out = v;
	return 0;
}

int parse_ulong(const char *opt, const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	if (!*s || *s == '-')
		return error("invalid %s '%s': not a non-negative integer", opt, s);
	v = strtoul(s, &end, 10);
	if (*end || errno)
		return error("invalid %s '%s': not a non-negative integer", opt, s);
	if (v < min || v > max)
		return error("invalid %s '%s': must be between %lu and %lu", opt, s, min, max);
	*out = v;
	return 0;
}

static bool has_pid(const pid_t *pids, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

int parse_pid_list(const char *opt, const char *s, pid_t **pids, size_t *n)
{
	const char *p = s;

	if (!*s)
		return error("invalid %s '': empty pid list", opt);
	while (*p) {
		char *end;
		long v;

		errno = 0;
		v = strtol(p, &end, 10);
		if (end == p || errno || v <= 0 || v > INT_MAX || (*end && *end != ','))
			return error("invalid %s '%s': not a list of process ids", opt, s);
		if (kill((pid_t)v, 0) < 0 && errno == ESRCH)
			return error("invalid %s '%s': no process %ld", opt, s, v);
		p = *end ? end + 1 : end;
		if (*end == ',' && !*p)
			return error("invalid %s '%s': trailing comma", opt, s);
		if (has_pid(*pids, *n, (pid_t)v))
			continue; /* -p N,N: one process, attached once */
		*pids = xrealloc(*pids, (*n + 1) * sizeof(**pids));
		(*pids)[(*n)++] = (pid_t)v;
	}
	return 0;
}
