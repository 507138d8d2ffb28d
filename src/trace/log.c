// SPDX-License-Identifier: GPL-2.0
/*
 * The --log writer: one line per call in the order the calls finished, in the manner of `strace -f -o`.
 * Arguments are raw (the tables do not say how many a call takes, so all six registers are shown): small
 * values and negative ones such as AT_FDCWD in decimal, anything else (pointers, masks) in hex; the path of
 * an open call, which the tracer reads anyway, as a quoted string.
 * Lines go through the FILE's buffer, so a call costs no write(2) of its own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trace/ptrace_int.h"

static void put_arg(FILE *log, enum kf_abi abi, uint64_t v)
{
	int64_t s = (int64_t)v;

	if (kf_abi_get(abi)->bits == 32)
		v = (uint32_t)v;
	/* An int argument such as AT_FDCWD or -1 often arrives with its upper 32 bits clear. */
	if (v <= 0xffffffffu && (int32_t)(uint32_t)v < 0 && (int32_t)(uint32_t)v >= -4096)
		s = (int32_t)(uint32_t)v;
	if (s >= -4096 && s < 65536)
		fprintf(log, "%" PRId64, s);
	else
		fprintf(log, "%#" PRIx64, v);
}

/* A path as a C string literal, with quotes and control bytes escaped, so a line stays one line. */
static void put_path(FILE *log, const char *path)
{
	fputc('"', log);
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(log, "\\%c", *c);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(log, "\\x%02x", *c);
		else
			fputc(*c, log);
	}
	fputc('"', log);
}

static void put_call(FILE *log, pid_t tid, enum kf_abi abi, int nr, const uint64_t args[6], const char *path,
		     int path_arg)
{
	char buf[32];

	fprintf(log, "%d %s(", (int)tid, kf_syscall_name(abi, nr, buf, sizeof(buf)));
	for (int i = 0; i < 6; i++) {
		if (i)
			fputs(", ", log);
		if (path && i == path_arg)
			put_path(log, path);
		else
			put_arg(log, abi, args[i]);
	}
	fputc(')', log);
}

void kf_log_call(FILE *log, pid_t tid, enum kf_abi abi, int nr, const uint64_t args[6], const char *path, int path_arg,
		 int64_t ret, bool err)
{
	put_call(log, tid, abi, nr, args, path, path_arg);
	if (err)
		fprintf(log, " = -1 %s (%s)\n", fp_errno_name((int)-ret), strerror((int)-ret));
	else if (ret >= -4096 && ret < 65536)
		fprintf(log, " = %" PRId64 "\n", ret);
	else
		fprintf(log, " = %#" PRIx64 "\n", (uint64_t)ret);
}

void kf_log_noreturn(FILE *log, pid_t tid, enum kf_abi abi, int nr, const uint64_t args[6])
{
	put_call(log, tid, abi, nr, args, NULL, -1);
	fputs(" = ?\n", log);
}

void kf_log_exit(FILE *log, pid_t tid, struct fp_exit how)
{
	if (how.kind == FP_EXIT_SIGNAL)
		fprintf(log, "%d +++ killed by %s%s +++\n", (int)tid, fp_signal_name(how.value),
			how.core ? " (core dumped)" : "");
	else if (how.kind == FP_EXIT_CODE)
		fprintf(log, "%d +++ exited with %d +++\n", (int)tid, how.value);
}
