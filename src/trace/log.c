// SPDX-License-Identifier: GPL-2.0
/*
 * The --log writer: one line per call in the order the calls finished, in the manner of `strace -f -o`:
 * "PID [TIME ]name(args) = result". A call shows its real arguments only, as many as its SYSCALL_DEFINEn has
 * (all six registers when the tables do not know it), every path argument as a quoted string (read at the
 * call's entry), AT_FDCWD for a directory fd, and symbolic flags for the calls people read most (open, mmap,
 * mprotect, clone, socket, fcntl); anything else small or negative in decimal, the rest in hex. A failed call
 * ends in "= -1 ENOENT (No such file or directory)".
 * Lines go through the FILE's buffer, so a call costs no write(2) of its own.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <time.h>

#include "trace/ptrace_int.h"

struct flag {
	uint64_t value;
	const char *name;
};
#define F(x)          \
	{             \
		x, #x \
	}

/* The kernel's O_LARGEFILE: glibc's x86_64 headers define it as 0, the i386 ABI sets it in every open. */
#if defined(__x86_64__) || defined(__i386__)
#define KF_O_LARGEFILE 0100000
#else
#define KF_O_LARGEFILE O_LARGEFILE
#endif

/* Multi-bit values first (O_TMPFILE holds O_DIRECTORY, O_SYNC holds O_DSYNC), so each bit is named once. */
static const struct flag open_flags[] = {
    F(O_TMPFILE),   F(O_SYNC),	   F(O_CREAT),	 F(O_EXCL),    F(O_NOCTTY), F(O_TRUNC),
    F(O_APPEND),    F(O_NONBLOCK), F(O_DSYNC),	 F(O_ASYNC),   F(O_DIRECT), {KF_O_LARGEFILE, "O_LARGEFILE"},
    F(O_DIRECTORY), F(O_NOFOLLOW), F(O_NOATIME), F(O_CLOEXEC), F(O_PATH),   {0, NULL},
};
static const struct flag prot_flags[] = {
    F(PROT_READ), F(PROT_WRITE), F(PROT_EXEC), F(PROT_GROWSDOWN), F(PROT_GROWSUP), {0, NULL},
};
static const struct flag map_flags[] = {
    F(MAP_FIXED),      F(MAP_ANONYMOUS), F(MAP_32BIT),	   F(MAP_GROWSDOWN),	   F(MAP_DENYWRITE),
    F(MAP_EXECUTABLE), F(MAP_LOCKED),	 F(MAP_NORESERVE), F(MAP_POPULATE),	   F(MAP_NONBLOCK),
    F(MAP_STACK),      F(MAP_HUGETLB),	 F(MAP_SYNC),	   F(MAP_FIXED_NOREPLACE), {0, NULL},
};
static const struct flag clone_flags[] = {
    F(CLONE_VM),
    F(CLONE_FS),
    F(CLONE_FILES),
    F(CLONE_SIGHAND),
    F(CLONE_PIDFD),
    F(CLONE_PTRACE),
    F(CLONE_VFORK),
    F(CLONE_PARENT),
    F(CLONE_THREAD),
    F(CLONE_NEWNS),
    F(CLONE_SYSVSEM),
    F(CLONE_SETTLS),
    F(CLONE_PARENT_SETTID),
    F(CLONE_CHILD_CLEARTID),
    F(CLONE_UNTRACED),
    F(CLONE_CHILD_SETTID),
    F(CLONE_NEWCGROUP),
    F(CLONE_NEWUTS),
    F(CLONE_NEWIPC),
    F(CLONE_NEWUSER),
    F(CLONE_NEWPID),
    F(CLONE_NEWNET),
    F(CLONE_IO),
    {0, NULL},
};
static const struct flag sock_flags[] = {F(SOCK_NONBLOCK), F(SOCK_CLOEXEC), {0, NULL}};
/* Values, not bits. */
static const struct flag map_types[] = {F(MAP_SHARED), F(MAP_PRIVATE), F(MAP_SHARED_VALIDATE), {0, NULL}};
static const struct flag sock_types[] = {
    F(SOCK_STREAM), F(SOCK_DGRAM), F(SOCK_RAW), F(SOCK_RDM), F(SOCK_SEQPACKET), F(SOCK_DCCP), F(SOCK_PACKET), {0, NULL},
};
static const struct flag domains[] = {
    F(AF_UNSPEC), F(AF_UNIX),	   F(AF_INET),	F(AF_INET6), F(AF_NETLINK), F(AF_PACKET), F(AF_KEY),
    F(AF_ALG),	  F(AF_BLUETOOTH), F(AF_VSOCK), F(AF_CAN),   F(AF_TIPC),    F(AF_XDP),	  {0, NULL},
};
static const struct flag fcntl_cmds[] = {
    F(F_DUPFD),	    F(F_GETFD),	    F(F_SETFD),		F(F_GETFL),	 F(F_SETFL),	  F(F_GETLK),
    F(F_SETLK),	    F(F_SETLKW),    F(F_SETOWN),	F(F_GETOWN),	 F(F_SETSIG),	  F(F_GETSIG),
    F(F_SETOWN_EX), F(F_GETOWN_EX), F(F_OFD_GETLK),	F(F_OFD_SETLK),	 F(F_OFD_SETLKW), F(F_SETLEASE),
    F(F_GETLEASE),  F(F_NOTIFY),    F(F_DUPFD_CLOEXEC), F(F_SETPIPE_SZ), F(F_GETPIPE_SZ), F(F_ADD_SEALS),
    F(F_GET_SEALS), {0, NULL},
};
#undef F

/* fcntl commands that take no third argument (strace leaves it out). */
static bool fcntl_getter(uint64_t cmd)
{
	switch ((int)cmd) {
	case F_GETFD:
	case F_GETFL:
	case F_GETOWN:
	case F_GETSIG:
	case F_GETLEASE:
	case F_GETPIPE_SZ:
	case F_GET_SEALS: return true;
	default: return false;
	}
}

/* The decoded arguments of a call: which argument is shown how. */
enum dec { D_RAW, D_OFLAGS, D_MODE, D_PROT, D_MAPFLAGS, D_CLONE, D_DOMAIN, D_SOCKTYPE, D_FCNTL };
static const struct {
	const char *name;
	enum dec arg[4];
} decoders[] = {
    {"open", {D_RAW, D_OFLAGS, D_MODE}},
    {"openat", {D_RAW, D_RAW, D_OFLAGS, D_MODE}},
    {"creat", {D_RAW, D_MODE}},
    {"mkdir", {D_RAW, D_MODE}},
    {"mkdirat", {D_RAW, D_RAW, D_MODE}},
    {"chmod", {D_RAW, D_MODE}},
    {"fchmod", {D_RAW, D_MODE}},
    {"fchmodat", {D_RAW, D_RAW, D_MODE}},
    {"mmap", {D_RAW, D_RAW, D_PROT, D_MAPFLAGS}},
    {"mmap2", {D_RAW, D_RAW, D_PROT, D_MAPFLAGS}},
    {"mprotect", {D_RAW, D_RAW, D_PROT}},
    {"pkey_mprotect", {D_RAW, D_RAW, D_PROT}},
    {"clone", {D_CLONE}},
    {"socket", {D_DOMAIN, D_SOCKTYPE}},
    {"socketpair", {D_DOMAIN, D_SOCKTYPE}},
    {"fcntl", {D_RAW, D_FCNTL}},
    {"fcntl64", {D_RAW, D_FCNTL}},
};

static void put_num(FILE *log, unsigned bits, uint64_t v)
{
	int64_t s = (int64_t)v;

	if (bits == 32)
		v = (uint32_t)v;
	/* An int argument such as -1 often arrives with its upper 32 bits clear. */
	if (v <= 0xffffffffu && (int32_t)(uint32_t)v < 0 && (int32_t)(uint32_t)v >= -4096)
		s = (int32_t)(uint32_t)v;
	if (s >= -4096 && s < 65536)
		fprintf(log, "%" PRId64, s);
	else
		fprintf(log, "%#" PRIx64, v);
}

/* Names of the bits of v the table knows, '|'-joined after *sep, and what is left in hex. */
static void put_bits(FILE *log, uint64_t v, const struct flag *t, const char **sep)
{
	for (; t->name; t++) {
		if (t->value && (v & t->value) == t->value) {
			fprintf(log, "%s%s", *sep, t->name);
			*sep = "|";
			v &= ~t->value;
		}
	}
	if (v) {
		fprintf(log, "%s%#" PRIx64, *sep, v);
		*sep = "|";
	}
}

/* The name of a value (a value table), or false. */
static bool put_value(FILE *log, uint64_t v, const struct flag *t)
{
	for (; t->name; t++) {
		if (t->value == v) {
			fputs(t->name, log);
			return true;
		}
	}
	return false;
}

static void put_flags(FILE *log, uint64_t v, const struct flag *t, const char *none)
{
	const char *sep = "";

	if (!v && none) {
		fputs(none, log);
		return;
	}
	put_bits(log, v, t, &sep);
	if (!*sep)
		fputc('0', log);
}

static void put_decoded(FILE *log, enum dec d, uint64_t v)
{
	const char *sep = "";

	switch (d) {
	case D_OFLAGS:
		v = (uint32_t)v;
		fputs((v & O_ACCMODE) == O_WRONLY ? "O_WRONLY"
		      : (v & O_ACCMODE) == O_RDWR ? "O_RDWR"
						  : "O_RDONLY",
		      log);
		sep = "|";
		if ((v & O_ACCMODE) == O_ACCMODE)
			fputs("|O_ACCMODE", log);
		put_bits(log, v & ~(uint64_t)O_ACCMODE, open_flags, &sep);
		break;
	case D_MODE: fprintf(log, "%#" PRIo64, (uint64_t)(uint32_t)v); break;
	case D_PROT: put_flags(log, (uint32_t)v, prot_flags, "PROT_NONE"); break;
	case D_MAPFLAGS:
		v = (uint32_t)v;
		if (put_value(log, v & MAP_TYPE, map_types)) {
			sep = "|";
			v &= ~(uint64_t)MAP_TYPE;
		}
		put_bits(log, v, map_flags, &sep); /* an unknown type stays in the hex rest */
		if (!*sep)
			fputc('0', log);
		break;
	case D_CLONE:
		put_bits(log, v & ~(uint64_t)CSIGNAL, clone_flags, &sep);
		if (v & CSIGNAL)
			fprintf(log, "%s%s", sep, fp_signal_name((int)(v & CSIGNAL)));
		else if (!*sep)
			fputc('0', log);
		break;
	case D_DOMAIN:
		if (!put_value(log, (uint32_t)v, domains))
			put_num(log, 32, v);
		break;
	case D_SOCKTYPE:
		v = (uint32_t)v;
		if (!put_value(log, v & 0xf, sock_types))
			fprintf(log, "%" PRIu64, v & 0xf);
		sep = "|";
		put_bits(log, v & ~(uint64_t)0xf, sock_flags, &sep);
		break;
	case D_FCNTL:
		if (!put_value(log, (uint32_t)v, fcntl_cmds))
			put_num(log, 32, v);
		break;
	case D_RAW: break;
	}
}

void kf_log_init(struct kf_log *l, const struct trace_opts *o)
{
	struct timespec rt, mono;

	memset(l, 0, sizeof(*l));
	l->f = o->log;
	l->filter = o->filter;
	l->time = o->log_time;
	l->relative = o->log_relative;
	/* -t: a call's wall-clock time from its monotonic entry time, with no clock read of its own */
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	l->wall_off_ns = ((int64_t)rt.tv_sec - mono.tv_sec) * 1000000000 + (rt.tv_nsec - mono.tv_nsec);
}

/* "PID ", then strace's -t (10:22:33), -tt (10:22:33.123456), -ttt (1700000000.123456) or -r (0.000123). */
static void put_prefix(struct kf_log *l, pid_t tid, uint64_t mono_ns)
{
	fprintf(l->f, "%d ", (int)tid);
	if (l->relative) {
		uint64_t d = l->last_ns && mono_ns > l->last_ns ? mono_ns - l->last_ns : 0;

		fprintf(l->f, "%6" PRIu64 ".%06" PRIu64 " ", d / 1000000000, d / 1000 % 1000000);
		l->last_ns = mono_ns;
	}
	if (l->time) {
		int64_t wall = (int64_t)mono_ns + l->wall_off_ns;
		time_t sec = (time_t)(wall / 1000000000);
		long usec = (long)(wall % 1000000000 / 1000);
		struct tm tm;
		char buf[16];

		if (l->time >= 3) {
			fprintf(l->f, "%lld.%06ld ", (long long)sec, usec);
			return;
		}
		localtime_r(&sec, &tm);
		strftime(buf, sizeof(buf), "%H:%M:%S", &tm);
		if (l->time == 2)
			fprintf(l->f, "%s.%06ld ", buf, usec);
		else
			fprintf(l->f, "%s ", buf);
	}
}

/* A string as a C string literal, with quotes and control bytes escaped, so a line stays one line. */
static void put_string(FILE *log, const char *str)
{
	fputc('"', log);
	for (const unsigned char *c = (const unsigned char *)str; *c; c++) {
		if (*c == '"' || *c == '\\')
			fprintf(log, "\\%c", *c);
		else if (*c < 0x20 || *c == 0x7f)
			fprintf(log, "\\x%02x", *c);
		else
			fputc(*c, log);
	}
	fputc('"', log);
}

static void put_call(struct kf_log *l, const struct kf_logcall *c)
{
	const struct kf_syscall *row = kf_syscall_by_nr(c->abi, c->nr);
	unsigned bits = kf_abi_get(c->abi)->bits;
	int n = row && row->nargs >= 0 ? row->nargs : 6;
	const enum dec *dec = NULL;
	char buf[32];

	for (size_t i = 0; row && i < sizeof(decoders) / sizeof(decoders[0]); i++)
		if (!strcmp(decoders[i].name, row->name))
			dec = decoders[i].arg;
	put_prefix(l, c->tid, c->t_enter);
	fprintf(l->f, "%s(", kf_syscall_name(c->abi, c->nr, buf, sizeof(buf)));
	for (int i = 0; i < n; i++) {
		uint64_t v = bits == 32 ? (uint32_t)c->args[i] : c->args[i];
		enum dec d = dec && i < 4 ? dec[i] : D_RAW;

		/* strace's habit: open's mode only when the flags create a file, fcntl's value only for a set */
		if (d == D_MODE && i > 0 && !(c->args[i - 1] & (O_CREAT | __O_TMPFILE)) && dec[i - 1] == D_OFLAGS)
			break;
		if (i == 2 && dec && dec[1] == D_FCNTL && fcntl_getter(c->args[1]))
			break;
		if (i)
			fputs(", ", l->f);
		if (row && (row->path_args & (1u << i)) && c->strs[i])
			put_string(l->f, c->strs[i]);
		else if (row && (row->path_args & (1u << i)) && !v)
			fputs("NULL", l->f);
		else if (row && (row->dirfd_args & (1u << i)) && (int32_t)v == AT_FDCWD)
			fputs("AT_FDCWD", l->f);
		else if (d != D_RAW)
			put_decoded(l->f, d, v);
		else
			put_num(l->f, bits, v);
	}
	fputc(')', l->f);
}

void kf_log_call(struct kf_log *l, const struct kf_logcall *c, int64_t ret, bool err)
{
	if (l->filter && !fp_filter_call(l->filter, c->abi, c->nr, NULL, err))
		return;
	put_call(l, c);
	if (err)
		fprintf(l->f, " = -1 %s (%s)\n", fp_errno_name((int)-ret), strerror((int)-ret));
	else if (ret >= -4096 && ret < 65536)
		fprintf(l->f, " = %" PRId64 "\n", ret);
	else
		fprintf(l->f, " = %#" PRIx64 "\n", (uint64_t)ret);
}

void kf_log_noreturn(struct kf_log *l, const struct kf_logcall *c)
{
	if (l->filter && !fp_filter_call(l->filter, c->abi, c->nr, NULL, false))
		return;
	put_call(l, c);
	fputs(" = ?\n", l->f);
}

void kf_log_exit(struct kf_log *l, pid_t tid, struct fp_exit how)
{
	if (how.kind == FP_EXIT_NONE)
		return;
	put_prefix(l, tid, fp__now_ns());
	if (how.kind == FP_EXIT_SIGNAL)
		fprintf(l->f, "+++ killed by %s%s +++\n", fp_signal_name(how.value), how.core ? " (core dumped)" : "");
	else
		fprintf(l->f, "+++ exited with %d +++\n", how.value);
}
