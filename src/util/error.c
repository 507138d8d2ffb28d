// SPDX-License-Identifier: GPL-2.0
#include "util/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int kf_verbose;

/* One fprintf per message, so lines from the tracer and the workload never interleave mid-line. */
static void vreport(const char *prefix, const char *fmt, va_list ap, const char *suffix)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "kfootprint: %s%s%s%s\n", prefix, buf, suffix ? ": " : "", suffix ? suffix : "");
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, NULL);
	va_end(ap);
	return -1;
}

int perror_msg(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, strerror(saved));
	va_end(ap);
	errno = saved;
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap, NULL);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("note: ", fmt, ap, NULL);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap, NULL);
	va_end(ap);
	exit(1);
}

void debug(const char *fmt, ...)
{
	va_list ap;

	if (!kf_verbose)
		return;
	va_start(ap, fmt);
	vreport("debug: ", fmt, ap, NULL);
	va_end(ap);
}
