// SPDX-License-Identifier: GPL-2.0
/*
 * The tracee's memory: what an open call names (the path string and, for openat2, struct open_how), read
 * with process_vm_readv (one call for a path that does not cross a page, no PEEKDATA loop), and the rare
 * write (a sched_getaffinity result, see ptrace_cpu.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace/ptrace_int.h"
#include "util/xalloc.h"

int pt_read_mem(pid_t tid, uint64_t addr, void *buf, size_t n)
{
	struct iovec local = {buf, n};
	struct iovec remote = {(void *)(uintptr_t)addr, n};

	return process_vm_readv(tid, &local, 1, &remote, 1, 0) == (ssize_t)n ? 0 : -1;
}

int pt_write_mem(pid_t tid, uint64_t addr, const void *buf, size_t n)
{
	struct iovec local = {(void *)buf, n};
	struct iovec remote = {(void *)(uintptr_t)addr, n};

	return process_vm_writev(tid, &local, 1, &remote, 1, 0) == (ssize_t)n ? 0 : -1;
}

int pt_read_path(struct pt_task *t, uint64_t addr)
{
	return pt_read_string(t->tid, addr, &t->path);
}

int pt_read_string(pid_t tid, uint64_t addr, char **buf)
{
	size_t page = 4096, got = 0;
	char *path;

	if (!addr)
		return -1;
	if (!*buf)
		*buf = xmalloc(PATH_MAX);
	path = *buf;
	/*
	 * Read up to each page end at a time: process_vm_readv stops at the first unmapped page, and a
	 * string near the end of the last mapped page must still be read.
	 */
	while (got < PATH_MAX - 1) {
		uint64_t at = addr + got;
		size_t chunk = page - (size_t)(at & (page - 1));
		struct iovec local, remote;
		ssize_t n;
		char *nul;

		if (chunk > PATH_MAX - 1 - got)
			chunk = PATH_MAX - 1 - got;
		local = (struct iovec){path + got, chunk};
		remote = (struct iovec){(void *)(uintptr_t)at, chunk};
		n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			return -1;
		nul = memchr(path + got, '\0', (size_t)n);
		if (nul)
			return 0;
		got += (size_t)n;
	}
	path[PATH_MAX - 1] = '\0';
	return 0;
}

void pt_open_enter(struct pt_task *t, const struct kf_syscall *row)
{
	t->is_open = true;
	t->path_arg = row->path_arg;
	t->path_ok = pt_read_path(t, t->args[row->path_arg]) == 0;
	if (row->flags & KF_SC_CREAT) {
		t->oflags = O_WRONLY | O_CREAT | O_TRUNC;
	} else if (row->flags & KF_SC_OPEN_HOW) {
		uint64_t flags = 0; /* struct open_how starts with its u64 flags */

		if (pt_read_mem(t->tid, t->args[row->flags_arg], &flags, sizeof(flags)) < 0)
			flags = 0;
		t->oflags = (int)flags;
	} else {
		t->oflags = (int)t->args[row->flags_arg];
	}
}
