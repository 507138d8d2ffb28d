// SPDX-License-Identifier: GPL-2.0
/*
 * The tracee's memory: what an open call names (the path string and, for openat2, struct open_how), read
 * with process_vm_readv (one call for a path that does not cross a page, no PEEKDATA loop), and the rare
 * write (a sched_getaffinity result, see ptrace_cpu.c). A kernel without CROSS_MEMORY_ATTACH (a tailored one:
 * tailor's re-test records in it) has neither call: there a word at a time with PTRACE_PEEKDATA and POKEDATA,
 * which need no optional kernel code.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace/ptrace_int.h"
#include "util/xalloc.h"

/* The aligned word at addr, through ptrace: 0, or -1 with errno (a word of all ones is data, not an error). */
static int peek(pid_t tid, uint64_t addr, long *word)
{
	errno = 0;
	*word = ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)addr, NULL);
	return errno ? -1 : 0;
}

/* n bytes at addr a word at a time, up to and with the first NUL when until_nul; how many bytes, or -1. */
static ssize_t peek_bytes(pid_t tid, uint64_t addr, char *buf, size_t n, bool until_nul)
{
	size_t got = 0;

	while (got < n) {
		uint64_t at = addr + got, base = at & ~(uint64_t)(sizeof(long) - 1);
		size_t off = (size_t)(at - base), take = sizeof(long) - off;
		long word;

		if (peek(tid, base, &word) < 0)
			return got ? (ssize_t)got : -1;
		if (take > n - got)
			take = n - got;
		memcpy(buf + got, (char *)&word + off, take);
		char *nul = until_nul ? memchr(buf + got, '\0', take) : NULL;
		got += take;
		if (nul)
			return (ssize_t)got;
	}
	return (ssize_t)got;
}

int pt_read_mem(pid_t tid, uint64_t addr, void *buf, size_t n)
{
	struct iovec local = {buf, n};
	struct iovec remote = {(void *)(uintptr_t)addr, n};
	ssize_t got = process_vm_readv(tid, &local, 1, &remote, 1, 0);

	if (got < 0 && errno == ENOSYS)
		got = peek_bytes(tid, addr, buf, n, false);
	return got == (ssize_t)n ? 0 : -1;
}

int pt_write_mem(pid_t tid, uint64_t addr, const void *buf, size_t n)
{
	struct iovec local = {(void *)buf, n};
	struct iovec remote = {(void *)(uintptr_t)addr, n};
	ssize_t put = process_vm_writev(tid, &local, 1, &remote, 1, 0);

	if (put >= 0 || errno != ENOSYS)
		return put == (ssize_t)n ? 0 : -1;
	/* word by word, the bytes around a partial word read first and put back as they were */
	for (size_t done = 0; done < n;) {
		uint64_t at = addr + done, base = at & ~(uint64_t)(sizeof(long) - 1);
		size_t off = (size_t)(at - base), take = sizeof(long) - off;
		long word;

		if (take > n - done)
			take = n - done;
		if ((off || take < sizeof(long)) && peek(tid, base, &word) < 0)
			return -1;
		memcpy((char *)&word + off, (const char *)buf + done, take);
		if (ptrace(PTRACE_POKEDATA, tid, (void *)(uintptr_t)base, (void *)word) < 0)
			return -1;
		done += take;
	}
	return 0;
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
		if (n < 0 && errno == ENOSYS)
			n = peek_bytes(tid, at, path + got, chunk, true);
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
