// SPDX-License-Identifier: GPL-2.0
/*
 * What /proc says of a process, and the checks -p makes before either backend attaches: the same refusals
 * and the same thread-to-process resolution for ptrace and bpf, each as one line.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace.h"
#include "util/error.h"

#define PF_KTHREAD 0x00200000 /* include/linux/sched.h: a kernel thread */

int trace_read_stat(pid_t pid, struct trace_stat *st)
{
	char path[64], buf[1024], *open_paren, *close_paren;
	unsigned long long start = 0;
	unsigned long flags = 0;
	int fd, ppid = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0) {
		errno = n < 0 ? errno : ESRCH;
		return -1;
	}
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: it runs from the first '(' to the last ')'. */
	open_paren = strchr(buf, '(');
	close_paren = strrchr(buf, ')');
	if (!open_paren || !close_paren || close_paren < open_paren ||
	    sscanf(close_paren + 1, " %c %d %*d %*d %*d %*d %lu %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
		   &st->state, &ppid, &flags, &start) != 4) {
		errno = EINVAL;
		return -1;
	}
	*close_paren = '\0';
	snprintf(st->comm, sizeof(st->comm), "%s", open_paren + 1);
	st->ppid = ppid;
	st->kthread = flags & PF_KTHREAD;
	st->start = start;
	return 0;
}

/* A numeric field of /proc/PID/status ("Tgid:", "TracerPid:"); -1 when absent or unreadable. */
long trace_status_field(pid_t pid, const char *field)
{
	char path[64], line[256];
	size_t flen = strlen(field);
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, flen)) {
			v = strtol(line + flen, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/* True when every task of process pid has exited: a zombie waiting for its parent to reap it. */
static bool is_zombie(pid_t pid)
{
	char path[64];
	struct dirent *de;
	bool live = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return false;
	/* A leader that called pthread_exit is a zombie while its other threads run on: the process lives. */
	while (!live && (de = readdir(d))) {
		struct trace_stat st;
		long tid = strtol(de->d_name, NULL, 10);

		if (tid > 0 && trace_read_stat((pid_t)tid, &st) == 0 && st.state != 'Z' && st.state != 'X')
			live = true;
	}
	closedir(d);
	return !live;
}

/* Whether /proc/PID/exe names a program: a kernel thread has none (ENOENT). */
static bool has_exe(pid_t pid)
{
	char path[64], target[PATH_MAX];

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	return readlink(path, target, sizeof(target)) >= 0 || errno != ENOENT;
}

int trace_check_pids(pid_t *pids, size_t *npids)
{
	size_t kept = 0;

	for (size_t i = 0; i < *npids; i++) {
		pid_t pid = pids[i];
		struct trace_stat st;
		long tgid;
		bool dup = false;

		if (trace_read_stat(pid, &st) < 0)
			return error("-p %d: no such process", (int)pid);
		/* Kernel threads have no user space to trace; neither backend could follow their calls. */
		if (st.kthread || ((st.ppid == 2 || pid == 2) && !has_exe(pid)))
			return error("-p %d: is a kernel thread (%s)", (int)pid, st.comm);
		tgid = trace_status_field(pid, "Tgid:");
		if (tgid <= 0)
			return error("-p %d: no such process", (int)pid);
		if (tgid == getpid())
			return error("-p %d: is kfootprint itself", (int)pid);
		if (tgid != pid) {
			struct trace_stat pst;

			if (trace_read_stat((pid_t)tgid, &pst) < 0)
				snprintf(pst.comm, sizeof(pst.comm), "?");
			fprintf(stderr,
				"kfootprint: -p %d: a thread of process %ld (%s): attaching to the whole process\n",
				(int)pid, tgid, pst.comm);
			pid = (pid_t)tgid;
		}
		if (is_zombie(pid))
			return error("-p %d: is a zombie: it has exited, and its parent (pid %d) has not reaped it",
				     (int)pid, (int)st.ppid);
		for (size_t j = 0; j < kept; j++)
			dup |= pids[j] == pid;
		if (dup) {
			debug("-p %d: given twice: attached once", (int)pid);
			continue;
		}
		pids[kept++] = pid;
	}
	*npids = kept;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

void trace_say_attached(const struct trace_opts *opts, pid_t tgid)
{
	struct trace_stat st;
	char path[64];
	pid_t tids[17];
	size_t n = 0, all = 0;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		long tid = strtol(e->d_name, NULL, 10);

		if (tid <= 0)
			continue;
		if (n < sizeof(tids) / sizeof(tids[0]))
			tids[n++] = (pid_t)tid;
		all++;
	}
	if (d)
		closedir(d);
	qsort(tids, n, sizeof(tids[0]), cmp_pid);
	if (trace_read_stat(tgid, &st) < 0)
		snprintf(st.comm, sizeof(st.comm), "?");
	/* One line, as a user of strace -p expects to see what was caught; a long thread list is cut. */
	fprintf(stderr, "kfootprint: attached to %d (%s), thread%s", (int)tgid, st.comm, all == 1 ? "" : "s");
	for (size_t i = 0; i < n && i < 16; i++)
		fprintf(stderr, " %d", (int)tids[i]);
	if (all > 16)
		fprintf(stderr, " ... (%zu in all)", all);
	fputc('\n', stderr);
	if (opts->on_attached)
		opts->on_attached(opts->on_attached_ctx, tgid);
}
