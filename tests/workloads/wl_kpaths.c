// SPDX-License-Identifier: GPL-2.0
/*
 * Known kernel paths for record --kernel-functions: `eventfd` writes and reads an eventfd (fs/eventfd.c:
 * eventfd_write, eventfd_read), `unix` sends and receives over an AF_UNIX stream socketpair
 * (net/unix/af_unix.c: unix_stream_sendmsg, unix_stream_recvmsg). N rounds each (default 10).
 * `badfd` and `goodfd` make the same calls on a descriptor (fstat, dup, lseek, fcntl, pread64, ioctl, raw): on
 * 999, never open, each failing with EBADF; on an open eventfd: their EBADF branches are what the two differ in.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <unistd.h>

static int do_eventfd(int n)
{
	int fd = eventfd(0, EFD_CLOEXEC);
	uint64_t v = 1;

	if (fd < 0)
		return perror("eventfd"), 1;
	for (int i = 0; i < n; i++) {
		v = 1;
		if (write(fd, &v, sizeof(v)) != sizeof(v) || read(fd, &v, sizeof(v)) != sizeof(v))
			return perror("eventfd io"), 1;
	}
	close(fd);
	return 0;
}

static int do_unix(int n)
{
	int sv[2];
	char buf[64] = "kfootprint";

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return perror("socketpair"), 1;
	for (int i = 0; i < n; i++)
		if (send(sv[0], buf, sizeof(buf), 0) != sizeof(buf) ||
		    recv(sv[1], buf, sizeof(buf), MSG_WAITALL) != sizeof(buf))
			return perror("unix io"), 1;
	close(sv[0]);
	close(sv[1]);
	return 0;
}

static int do_fd(int n, int bad)
{
	int fd = bad ? 999 : eventfd(0, EFD_CLOEXEC);
	struct stat st;
	char c;
	int v;

	if (fd < 0)
		return perror("eventfd"), 1;
	for (int i = 0; i < n; i++) {
		long d = syscall(SYS_dup, fd);
		syscall(SYS_fstat, fd, &st);
		syscall(SYS_lseek, fd, 0L, SEEK_SET);
		syscall(SYS_fcntl, fd, F_GETFL);
		syscall(SYS_pread64, fd, &c, 1UL, 0L);
		syscall(SYS_ioctl, fd, FIONREAD, &v);
		if ((d < 0) != bad)
			return fprintf(stderr, "dup of %d: %s\n", fd, d < 0 ? "failed" : "worked"), 1;
		if (d >= 0)
			syscall(SYS_close, d);
	}
	if (!bad)
		close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 10;

	if (argc > 1 && !strcmp(argv[1], "eventfd"))
		return do_eventfd(n);
	if (argc > 1 && !strcmp(argv[1], "unix"))
		return do_unix(n);
	if (argc > 1 && (!strcmp(argv[1], "badfd") || !strcmp(argv[1], "goodfd")))
		return do_fd(n, argv[1][0] == 'b');
	fprintf(stderr, "usage: wl_kpaths eventfd|unix|badfd|goodfd [N]\n");
	return 2;
}
