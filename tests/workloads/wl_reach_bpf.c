// SPDX-License-Identifier: GPL-2.0
/*
 * Calls whose kernel path depends on their arguments, for tests/integration/reach_bpf.sh: bpf and ptrace must say
 * the same of each, and the test knows what each reached. Raw syscalls where libc would add calls of its own.
 * The fds and what each call reached (the value the footprint says):
 *   pipe: write 2 (one through an fd dup2'd over /dev/null), read 1, ioctl FIONREAD 1     fd pipe
 *   /dev/null: write 1, ioctl TCGETS 1 (ENOTTY)                                            fd chr:1:3
 *   an fd closed before: write 1 (EBADF)                                                  nothing
 *   /proc/self/stat, /sys/devices/system/cpu/online: read 1 each                          file:proc, file:sysfs
 *   O_TMPFILE in argv[1] (a tmpfs): openat oflag O_TMPFILE, write 1                       file:tmpfs
 *   memfd: write 1                                                                         memfd
 *   eventfd: write 1, read 1, epoll_ctl's target 1, then received over SCM_RIGHTS: fstat 1 anon:[eventfd]
 *   timerfd, signalfd: fcntl 1 each                                                       anon:[timerfd],
 * anon:[signalfd] socket AF_INET SOCK_DGRAM 0: bind, getsockname, sendto, sendmsg (to itself), recvfrom 2 socketpair
 * AF_UNIX SOCK_STREAM: sendmsg (SCM_RIGHTS, no address), recvmsg socket AF_NETLINK SOCK_RAW NETLINK_ROUTE; connect of
 * an AF_UNIX socket to a missing path (ENOENT) prctl PR_SET_NAME, PR_GET_NAME; keyctl KEYCTL_GET_KEYRING_ID; bpf
 * BPF_MAP_CREATE of a hash map; perf_event_open PERF_TYPE_SOFTWARE; open of "/" with O_PATH a child: unshare
 * CLONE_NEWNS|CLONE_NEWUTS, mount of a tmpfs on argv[1] in its own mount namespace argv[1]: an empty directory on a
 * tmpfs.
 */
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/keyctl.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static void read_file(const char *path)
{
	char buf[64];
	long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);

	syscall(SYS_read, fd, buf, sizeof(buf));
	syscall(SYS_close, fd);
}

/* An eventfd over a unix socket, and a look at it through the fd it arrives as. */
static void pass_fd(int efd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = {0}, byte = 'x';
	struct iovec iov = {.iov_base = &byte, .iov_len = 1};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf)};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	struct stat st;
	int sv[2], got;

	syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, sv);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &efd, sizeof(int));
	syscall(SYS_sendmsg, sv[0], &m, 0);
	memset(cbuf, 0, sizeof(cbuf));
	m.msg_controllen = sizeof(cbuf);
	syscall(SYS_recvmsg, sv[1], &m, 0);
	c = CMSG_FIRSTHDR(&m);
	if (!c)
		return;
	memcpy(&got, CMSG_DATA(c), sizeof(int));
	syscall(SYS_fstat, got, &st);
	syscall(SYS_close, got);
	syscall(SYS_close, sv[0]);
	syscall(SYS_close, sv[1]);
}

static void sockets(void)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	struct sockaddr_un u = {.sun_family = AF_UNIX, .sun_path = "/nonexistent/kf-reach.sock"};
	socklen_t len = sizeof(a);
	char buf[8];
	struct iovec iov = {.iov_base = buf, .iov_len = 1};
	struct msghdr m = {.msg_name = &a, .msg_namelen = sizeof(a), .msg_iov = &iov, .msg_iovlen = 1};
	long s = syscall(SYS_socket, AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), us, nl;

	syscall(SYS_bind, s, &a, sizeof(a));
	syscall(SYS_getsockname, s, &a, &len);
	syscall(SYS_sendto, s, "x", 1, 0, &a, sizeof(a));
	syscall(SYS_sendmsg, s, &m, 0);
	syscall(SYS_recvfrom, s, buf, sizeof(buf), MSG_DONTWAIT, NULL, NULL);
	syscall(SYS_recvfrom, s, buf, sizeof(buf), MSG_DONTWAIT, NULL, NULL);
	syscall(SYS_close, s);
	nl = syscall(SYS_socket, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	syscall(SYS_close, nl);
	us = syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
	syscall(SYS_connect, us, &u, sizeof(u));
	syscall(SYS_close, us);
}

static void options(void)
{
	char name[16];
	union bpf_attr attr = {.map_type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 4, .max_entries = 1};
	struct perf_event_attr pe = {.type = PERF_TYPE_SOFTWARE, .size = sizeof(pe), .config = PERF_COUNT_SW_DUMMY};
	long fd;

	syscall(SYS_prctl, PR_SET_NAME, "wl_reach_bpf", 0, 0, 0);
	syscall(SYS_prctl, PR_GET_NAME, name, 0, 0, 0);
	syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_PROCESS_KEYRING, 0);
	fd = syscall(SYS_bpf, BPF_MAP_CREATE, &attr, sizeof(attr));
	syscall(SYS_close, fd);
	fd = syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0);
	syscall(SYS_close, fd);
	fd = syscall(SYS_openat, AT_FDCWD, "/", O_PATH);
	syscall(SYS_close, fd);
}

static void namespaces(const char *dir)
{
	pid_t pid = fork();

	if (pid == 0) {
		syscall(SYS_unshare, CLONE_NEWNS | CLONE_NEWUTS);
		syscall(SYS_mount, NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
		syscall(SYS_mount, "kf-reach", dir, "tmpfs", 0, NULL);
		syscall(SYS_exit_group, 0);
	}
	waitpid(pid, NULL, 0);
}

int main(int argc, char **argv)
{
	struct epoll_event ev = {.events = EPOLLIN};
	uint64_t one = 1;
	sigset_t mask;
	int p[2], n, v, efd, ep, fd;
	struct termios t;
	char c;

	if (argc != 2) {
		fprintf(stderr, "usage: wl_reach_bpf TMPFS-DIR\n");
		return 2;
	}
	syscall(SYS_pipe2, p, 0);
	n = (int)syscall(SYS_openat, AT_FDCWD, "/dev/null", O_WRONLY);
	syscall(SYS_write, p[1], "x", 1);
	syscall(SYS_read, p[0], &c, 1);
	syscall(SYS_ioctl, p[0], FIONREAD, &v);
	syscall(SYS_write, n, "x", 1);
	syscall(SYS_ioctl, n, TCGETS, &t);
	syscall(SYS_dup2, p[1], n); /* n is the pipe now */
	syscall(SYS_write, n, "y", 1);
	syscall(SYS_close, n);
	syscall(SYS_write, n, "z", 1); /* EBADF */
	read_file("/proc/self/stat");
	read_file("/sys/devices/system/cpu/online");
	fd = (int)syscall(SYS_openat, AT_FDCWD, argv[1], O_TMPFILE | O_RDWR, 0600);
	syscall(SYS_write, fd, "x", 1);
	syscall(SYS_close, fd);
	fd = (int)syscall(SYS_memfd_create, "kf-reach", 0);
	syscall(SYS_write, fd, "x", 1);
	syscall(SYS_close, fd);
	efd = (int)syscall(SYS_eventfd2, 0, 0);
	syscall(SYS_write, efd, &one, sizeof(one));
	syscall(SYS_read, efd, &one, sizeof(one));
	ep = (int)syscall(SYS_epoll_create1, 0);
	syscall(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, efd, &ev);
	pass_fd(efd);
	fd = (int)syscall(SYS_timerfd_create, CLOCK_MONOTONIC, 0);
	syscall(SYS_fcntl, fd, F_GETFL);
	syscall(SYS_close, fd);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	fd = (int)syscall(SYS_signalfd4, -1, &mask, 8, 0);
	syscall(SYS_fcntl, fd, F_GETFL);
	syscall(SYS_close, fd);
	sockets();
	options();
	namespaces(argv[1]);
	return 0;
}
