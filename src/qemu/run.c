// SPDX-License-Identifier: GPL-2.0
/*
 * Runs QEMU for kfootprint qemu: finds it in PATH, checks the kernel and initramfs before anything starts, reads
 * the serial console (QEMU's stdout) line by line, ends the guest when -d runs out, and turns what QEMU said on
 * stderr into one line when it could not boot the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <zlib.h>
#include <unistd.h>

#include "qemu/qemu.h"
#include "qemu/qemu_int.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The QEMU binary for arch, searched in PATH; NULL after a message. */
static char *find_qemu(const char *arch)
{
	const char *path = getenv("PATH");
	char *name, *found = NULL;

	if (asprintf(&name, "qemu-system-%s", arch) < 0)
		return NULL;
	for (const char *p = path ? path : ""; *p && !found;) {
		size_t n = strcspn(p, ":");
		char *cand;

		if (asprintf(&cand, "%.*s/%s", (int)n, p, name) < 0)
			break;
		if (n && !access(cand, X_OK))
			found = cand;
		else
			free(cand);
		p += n + (p[n] == ':');
	}
	if (!found)
		error("qemu: %s not found in PATH: install it (Debian: %s)", name,
		      !strcmp(arch, "aarch64") ? "qemu-system-arm" : "qemu-system-x86");
	free(name);
	return found;
}

/* A readable regular file, or one line saying why not. */
static int check_input(const char *what, const char *path)
{
	struct stat st;
	int fd;

	if (!path)
		return error("qemu: no %s: give --%s FILE", what, what);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return perror_msg("qemu: --%s '%s'", what, path);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return error("qemu: --%s '%s': not a regular file with content", what, path);
	}
	close(fd);
	return 0;
}

int kfq_check(const struct kfq_opts *o)
{
	if (check_input("kernel", o->kernel) < 0 || check_input("initrd", o->initrd) < 0)
		return -1;
	if (o->vmlinux && check_input("vmlinux", o->vmlinux) < 0)
		return -1;
	if (o->kallsyms && check_input("kallsyms", o->kallsyms) < 0)
		return -1;
	return 0;
}

const char *kfq_kernel_arch(const char *path, const char **what)
{
	unsigned char h[1024];
	gzFile gz = gzopen(path, "rb"); /* reads a file that is not gzip'd as it is */
	int n = gz ? gzread(gz, h, sizeof(h)) : -1;

	if (gz)
		gzclose(gz);
	if (n >= 20 && !memcmp(h, "\177ELF", 4)) {
		unsigned machine = h[18] | h[19] << 8;

		*what = "an ELF vmlinux";
		return machine == 62 ? "x86_64" : machine == 183 ? "aarch64" : NULL;
	}
	/* arm64's booting.rst: "ARM\x64" at 0x38; x86's boot protocol: "HdrS" at 0x202 */
	if (n >= 0x40 && !memcmp(h + 0x38, "ARM\x64", 4))
		return *what = "an arm64 Image", "aarch64";
	if (n >= 0x206 && !memcmp(h + 0x202, "HdrS", 4))
		return *what = "a bzImage", "x86_64";
	return NULL;
}

static void argv_add(char ***argv, size_t *n, const char *s)
{
	*argv = xrealloc(*argv, (*n + 2) * sizeof(**argv));
	(*argv)[(*n)++] = xstrdup(s);
	(*argv)[*n] = NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int kfq_qemu_start(struct kfq_qemu *q, const struct kfq_opts *o, const char *cmdline, char *const *extra)
{
	bool arm = !strcmp(o->arch, "aarch64");
	char **argv = NULL, *qemu, *append, mem[32];
	size_t n = 0;
	int out[2], err[2];

	memset(q, 0, sizeof(*q));
	q->pid = -1;
	qemu = find_qemu(o->arch);
	if (!qemu)
		return -1;
	snprintf(mem, sizeof(mem), "%u", o->mem_mb ? o->mem_mb : 512);
	if (asprintf(&append, "console=%s panic=-1 %s%s%s", arm ? "ttyAMA0" : "ttyS0 8250.nr_uarts=1", cmdline,
		     o->append ? " " : "", o->append ? o->append : "") < 0)
		return error("qemu: out of memory");
	argv_add(&argv, &n, qemu);
	/* one CPU: the tracepoint method tells tasks apart by the last sched_switch, the gdb one by vCPU 1 */
	const char *fixed[] = {
	    "-nodefaults", "-no-user-config", "-display", "none",    "-no-reboot", "-smp",    "1",	 "-m",	mem,
	    "-serial",	   "stdio",	      "-kernel",  o->kernel, "-initrd",	   o->initrd, "-append", append};
	if (arm) {
		argv_add(&argv, &n, "-M");
		argv_add(&argv, &n, "virt");
	}
	argv_add(&argv, &n, "-cpu");
	argv_add(&argv, &n, arm ? "cortex-a57" : "max");
	for (size_t i = 0; i < sizeof(fixed) / sizeof(*fixed); i++)
		argv_add(&argv, &n, fixed[i]);
	for (; extra && *extra; extra++)
		argv_add(&argv, &n, *extra);
	free(append);
	free(qemu);
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		fp_argv_free(argv);
		return perror_msg("qemu: pipe");
	}
	debug("qemu: running %s ... -append '%s'", argv[0], argv[n - 1 - (extra ? 0 : 0)]);
	q->pid = fork();
	if (q->pid < 0) {
		fp_argv_free(argv);
		return perror_msg("qemu: fork");
	}
	if (q->pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);

		/* a process group of its own: a Ctrl-C at the terminal reaches kfootprint, which ends the guest */
		setpgid(0, 0);
		if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	q->out = out[0];
	q->err = err[0];
	q->argv = argv;
	return 0;
}

/* Ends QEMU: SIGTERM (it exits cleanly), SIGKILL 2 s later. */
void kfq_qemu_stop(struct kfq_qemu *q)
{
	if (q->pid <= 0 || q->reaped)
		return;
	kill(q->pid, SIGTERM);
	for (int i = 0; i < 200; i++) {
		if (waitpid(q->pid, &q->status, WNOHANG) == q->pid) {
			q->reaped = true;
			return;
		}
		usleep(10000);
	}
	kill(q->pid, SIGKILL);
	if (waitpid(q->pid, &q->status, 0) == q->pid)
		q->reaped = true;
}

void kfq_qemu_release(struct kfq_qemu *q)
{
	kfq_qemu_stop(q);
	if (q->out > 0)
		close(q->out);
	if (q->err > 0)
		close(q->err);
	fp_argv_free(q->argv);
	free(q->errtext);
	memset(q, 0, sizeof(*q));
}

/* Appends what QEMU wrote on stderr (kept: the first KB says why it could not boot). */
static void read_err(struct kfq_qemu *q)
{
	char buf[1024];
	ssize_t r = read(q->err, buf, sizeof(buf));

	if (r <= 0) {
		close(q->err);
		q->err = -1;
		return;
	}
	if (q->errlen < 1024) {
		size_t keep = (size_t)r < 1024 - q->errlen ? (size_t)r : 1024 - q->errlen;

		q->errtext = xrealloc(q->errtext, q->errlen + keep + 1);
		memcpy(q->errtext + q->errlen, buf, keep);
		q->errlen += keep;
		q->errtext[q->errlen] = 0;
	}
}

int kfq_qemu_pump(struct kfq_qemu *q, short out_revents, short err_revents, void (*line)(void *ctx, const char *l),
		  void *ctx)
{
	char *s, *nl;
	ssize_t got;

	if (q->err >= 0 && err_revents)
		read_err(q);
	if (q->out < 0 || !out_revents)
		return 0;
	got = read(q->out, q->cbuf + q->clen, sizeof(q->cbuf) - 1 - q->clen);
	if (got < 0 && errno == EINTR)
		return 0;
	if (got <= 0) {
		if (q->clen) {
			q->cbuf[q->clen] = 0;
			line(ctx, q->cbuf);
			q->clen = 0;
		}
		close(q->out);
		q->out = -1;
		return 1;
	}
	q->clen += (size_t)got;
	q->cbuf[q->clen] = 0;
	for (s = q->cbuf; (nl = memchr(s, '\n', q->clen - (size_t)(s - q->cbuf))); s = nl + 1) {
		*nl = 0;
		if (nl > s && nl[-1] == '\r')
			nl[-1] = 0;
		line(ctx, s);
	}
	q->clen -= (size_t)(s - q->cbuf);
	memmove(q->cbuf, s, q->clen);
	/* a line longer than the buffer: what came so far is a line */
	if (q->clen == sizeof(q->cbuf) - 1) {
		q->cbuf[q->clen] = 0;
		line(ctx, q->cbuf);
		q->clen = 0;
	}
	return 0;
}

double kfq_now(void)
{
	return now_s();
}

void kfq_qemu_end(struct kfq_qemu *q)
{
	if (q->timed_out || q->interrupted)
		kfq_qemu_stop(q);
	else if (!q->reaped && waitpid(q->pid, &q->status, 0) == q->pid)
		q->reaped = true;
	while (q->err >= 0)
		read_err(q);
}

int kfq_qemu_console(struct kfq_qemu *q, double duration, volatile sig_atomic_t *stop,
		     void (*line)(void *ctx, const char *l), void *ctx)
{
	double end = duration > 0 ? now_s() + duration : 0;

	while (q->out >= 0) {
		struct pollfd p[2] = {{q->out, POLLIN, 0}, {q->err, POLLIN, 0}};
		int timeout = 250, r;

		if (end && end - now_s() <= 0) {
			q->timed_out = true;
			break;
		}
		if (end && (end - now_s()) * 1000 < timeout)
			timeout = (int)((end - now_s()) * 1000) + 1;
		if (stop && *stop) {
			q->interrupted = true;
			break;
		}
		r = poll(p, q->err >= 0 ? 2 : 1, timeout);
		if (r < 0 && errno != EINTR)
			return perror_msg("qemu: poll");
		if (r > 0)
			kfq_qemu_pump(q, p[0].revents, q->err >= 0 ? p[1].revents : 0, line, ctx);
	}
	kfq_qemu_end(q);
	return 0;
}

/* QEMU's first line on stderr, without its "qemu-system-x86_64: " prefix; "" when it said nothing. */
const char *kfq_qemu_said(const struct kfq_qemu *q)
{
	static char first[512];
	const char *s = q->errtext ? q->errtext : "", *c;
	size_t n;

	c = strstr(s, ": ");
	if (c && !strncmp(s, "qemu-system-", 12))
		s = c + 2;
	n = strcspn(s, "\n");
	snprintf(first, sizeof(first), "%.*s", (int)n, s);
	return first;
}
