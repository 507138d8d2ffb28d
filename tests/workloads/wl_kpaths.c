// SPDX-License-Identifier: GPL-2.0
/*
 * Known kernel paths for record --kernel-functions: `eventfd` writes and reads an eventfd (fs/eventfd.c:
 * eventfd_write, eventfd_read), `unix` sends and receives over an AF_UNIX stream socketpair
 * (net/unix/af_unix.c: unix_stream_sendmsg, unix_stream_recvmsg). N rounds each (default 10).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
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

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 10;

	if (argc > 1 && !strcmp(argv[1], "eventfd"))
		return do_eventfd(n);
	if (argc > 1 && !strcmp(argv[1], "unix"))
		return do_unix(n);
	fprintf(stderr, "usage: wl_kpaths eventfd|unix [N]\n");
	return 2;
}
