// SPDX-License-Identifier: GPL-2.0
/*
 * One object of every kind what-a-call-reached knows, each probed once with fstatfs(2) (an fd call no libc start-up
 * makes), and calls whose arguments name what they reach: the expectations are in tests/integration/reach_expect.sh,
 * which every backend's test reads. For each object it could make, it writes "made TAG" to stdout (with write(2):
 * stdio would ioctl the terminal); "skip TAG: why" for one the kernel refused here.
 *   argv[1]: a scratch directory on the root filesystem (file:FS, O_DIRECT)
 * Raw syscalls throughout, so that libc adds nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/io_uring.h>
#include <linux/netlink.h>
#include <linux/perf_event.h>
#include <linux/userfaultfd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static void say(const char *what, const char *tag, const char *why)
{
	char line[256];
	int n = snprintf(line, sizeof(line), "%s %s%s%s\n", what, tag, why ? ": " : "", why ? why : "");

	if (write(1, line, (size_t)n) < 0)
		_exit(3);
}

/* fstatfs on fd, once: the probe every object gets; the fd stays open (the next object gets another number). */
static void probe(const char *tag, long fd)
{
	struct statfs sfs;

	if (fd < 0) {
		say("skip", tag, strerror(errno));
		return;
	}
	syscall(SYS_fstatfs, fd, &sfs);
	say("made", tag, NULL);
}

static long path_fd(const char *path, int flags)
{
	return syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC);
}

static long bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

static void files(const char *scratch)
{
	char path[4096];
	int p[2];

	snprintf(path, sizeof(path), "%s/kf-reach-file", scratch);
	probe("rootfs_file", path_fd(path, O_RDWR | O_CREAT));
	syscall(SYS_unlinkat, AT_FDCWD, path, 0);
	syscall(SYS_pipe2, p, O_CLOEXEC);
	probe("pipe", p[0]);
	/* FIONREAD on the pipe */
	{
		int n;

		syscall(SYS_ioctl, p[0], FIONREAD, &n);
	}
	syscall(SYS_mknodat, AT_FDCWD, "/dev/shm/kf-reach-fifo", S_IFIFO | 0600, 0);
	probe("fifo", path_fd("/dev/shm/kf-reach-fifo", O_RDWR | O_NONBLOCK));
	syscall(SYS_unlinkat, AT_FDCWD, "/dev/shm/kf-reach-fifo", 0);
	probe("tmpfs_file", path_fd("/dev/shm/kf-reach-file", O_RDWR | O_CREAT));
	syscall(SYS_unlinkat, AT_FDCWD, "/dev/shm/kf-reach-file", 0);
	probe("tmpfs_dir", path_fd("/dev/shm", O_RDONLY | O_DIRECTORY));
	probe("proc_file", path_fd("/proc/self/status", O_RDONLY));
	probe("proc_dir", path_fd("/proc", O_RDONLY | O_DIRECTORY));
	probe("sysfs_file", path_fd("/sys/kernel/uevent_seqnum", O_RDONLY));
	probe("sysfs_dir", path_fd("/sys/kernel", O_RDONLY | O_DIRECTORY));
	probe("devtmpfs_dir", path_fd("/dev", O_RDONLY | O_DIRECTORY));
	probe("cgroup2_dir", path_fd("/sys/fs/cgroup/unified", O_RDONLY | O_DIRECTORY));
	probe("null", path_fd("/dev/null", O_RDWR));
	probe("loop0", path_fd("/dev/loop0", O_RDONLY));
	probe("nsfs", path_fd("/proc/self/ns/net", O_RDONLY));
	probe("memfd", syscall(SYS_memfd_create, "kf-reach", MFD_CLOEXEC));
	{
		long fd = path_fd("/dev/ptmx", O_RDWR | O_NOCTTY);
		struct termios tio;

		probe("ptmx", fd);
		if (fd >= 0)
			syscall(SYS_ioctl, fd, TCGETS, &tio);
	}
	/* open flags: O_TMPFILE on tmpfs, O_PATH, O_DIRECT on the root filesystem (its failure counts as well) */
	syscall(SYS_openat, AT_FDCWD, "/dev/shm", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	syscall(SYS_openat, AT_FDCWD, "/", O_PATH | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/kf-reach-direct", scratch);
	syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CREAT | O_DIRECT | O_CLOEXEC, 0600);
	syscall(SYS_unlinkat, AT_FDCWD, path, 0);
}

static void sockets(void)
{
	struct sockaddr_in in = {
	    .sin_family = AF_INET, .sin_port = htons(9), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	struct sockaddr_in6 in6 = {.sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT};
	struct sockaddr_nl nl = {.nl_family = AF_NETLINK};
	struct sockaddr_un un = {.sun_family = AF_UNIX, .sun_path = "/nonexistent/kf-reach.sock"};
	struct msghdr msg = {.msg_name = &un, .msg_namelen = sizeof(un)};
	char buf[512];
	struct ifconf ifc = {.ifc_len = sizeof(buf), .ifc_buf = buf};
	int sv[2];
	long fd;

	if (syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0)
		probe("unix_stream", sv[0]);
	else
		probe("unix_stream", -1);
	fd = syscall(SYS_socket, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	probe("unix_dgram", fd);
	syscall(SYS_connect, fd, &un, sizeof(un));
	syscall(SYS_sendmsg, fd, &msg, 0);
	fd = syscall(SYS_socket, AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	probe("inet_tcp", fd);
	fd = syscall(SYS_socket, AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	probe("inet_udp", fd);
	syscall(SYS_sendto, fd, "x", 1, 0, &in, sizeof(in));
	syscall(SYS_ioctl, fd, SIOCGIFCONF, &ifc);
	fd = syscall(SYS_socket, AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	probe("inet6_tcp", fd);
	syscall(SYS_bind, fd, &in6, sizeof(in6));
	fd = syscall(SYS_socket, AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	probe("netlink_route", fd);
	syscall(SYS_bind, fd, &nl, sizeof(nl));
	probe("packet", syscall(SYS_socket, AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL)));
}

static void anon_inodes(void)
{
	struct epoll_event ev = {.events = EPOLLIN};
	struct io_uring_params up = {0};
	struct perf_event_attr pa = {
	    .type = PERF_TYPE_SOFTWARE, .size = sizeof(pa), .config = PERF_COUNT_SW_DUMMY, .disabled = 1};
	struct bpf_insn prog[] = {
	    {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
	    {.code = BPF_JMP | BPF_EXIT},
	};
	union bpf_attr attr;
	sigset_t mask;
	long efd, epfd;

	efd = syscall(SYS_eventfd2, 0, EFD_CLOEXEC);
	probe("eventfd", efd);
	epfd = syscall(SYS_epoll_create1, EPOLL_CLOEXEC);
	probe("eventpoll", epfd);
	syscall(SYS_epoll_ctl, epfd, EPOLL_CTL_ADD, efd, &ev); /* its target: the eventfd */
	probe("timerfd", syscall(SYS_timerfd_create, CLOCK_MONOTONIC, TFD_CLOEXEC));
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	probe("signalfd", syscall(SYS_signalfd4, -1, &mask, 8, SFD_CLOEXEC));
	probe("inotify", syscall(SYS_inotify_init1, IN_CLOEXEC));
	probe("fanotify", syscall(SYS_fanotify_init, FAN_CLASS_NOTIF | FAN_CLOEXEC, O_RDONLY));
	probe("io_uring", syscall(SYS_io_uring_setup, 1, &up));
	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = 4;
	attr.max_entries = 1;
	probe("bpf_map", bpf(BPF_MAP_CREATE, &attr));
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)prog;
	attr.insn_cnt = 2;
	attr.license = (unsigned long)"GPL";
	probe("bpf_prog", bpf(BPF_PROG_LOAD, &attr));
	probe("perf_event", syscall(SYS_perf_event_open, &pa, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
	probe("userfaultfd", syscall(SYS_userfaultfd, O_CLOEXEC));
	probe("pidfd", syscall(SYS_pidfd_open, getpid(), 0));
}

/* An fd whose kind changes between calls (dup2 over it), then a closed one (EBADF: nothing reached). */
static void changing_fd(void)
{
	long x = syscall(SYS_eventfd2, 0, EFD_CLOEXEC), null = path_fd("/dev/null", O_RDWR);

	syscall(SYS_lseek, x, 0, SEEK_CUR); /* ESPIPE, on [eventfd] */
	syscall(SYS_dup2, null, x);
	syscall(SYS_lseek, x, 0, SEEK_CUR); /* on /dev/null now */
	syscall(SYS_close, x);
	syscall(SYS_lseek, x, 0, SEEK_CUR); /* EBADF */
	say("made", "dup2", NULL);
}

/* A memfd passed over a unix socket (SCM_RIGHTS) to a child, which fsyncs it under its own fd number. */
static void passed_fd(void)
{
	char cbuf[CMSG_SPACE(sizeof(int))], byte = 'x';
	struct iovec iov = {&byte, 1};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf)};
	struct cmsghdr *c;
	int sv[2], mfd = (int)syscall(SYS_memfd_create, "kf-passed", MFD_CLOEXEC);
	pid_t pid;

	if (mfd < 0 || syscall(SYS_socketpair, AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		if (syscall(SYS_recvmsg, sv[1], &msg, 0) == 1) {
			c = CMSG_FIRSTHDR(&msg);
			if (c && c->cmsg_type == SCM_RIGHTS) {
				int fd;

				memcpy(&fd, CMSG_DATA(c), sizeof(fd));
				syscall(SYS_fsync, fd);
			}
		}
		_exit(0);
	}
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &mfd, sizeof(mfd));
	msg.msg_name = NULL;
	syscall(SYS_sendmsg, sv[0], &msg, 0);
	waitpid(pid, NULL, 0);
	say("made", "scm_rights", NULL);
}

static void options(void)
{
	union bpf_attr attr;
	long fd;

	syscall(SYS_prctl, PR_SET_NAME, "wl_reach", 0, 0, 0);
	syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* KEY_SPEC_SESSION_KEYRING */, 0);
	fd = syscall(SYS_open, "/proc/self/ns/uts", O_RDONLY | O_CLOEXEC);
	syscall(SYS_setns, fd, 0); /* nstype 0: the kind of the namespace the fd is of */
	fd = syscall(SYS_fsopen, "tmpfs", 0x1 /* FSOPEN_CLOEXEC */);
	if (fd >= 0)
		say("made", "fsopen", NULL);
	else
		say("skip", "fsopen", strerror(errno));
	memset(&attr, 0, sizeof(attr));
	bpf(BPF_MAP_GET_NEXT_ID, &attr); /* a command that names no type */
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: wl_reach SCRATCH-DIR\n");
		return 2;
	}
	files(argv[1]);
	sockets();
	anon_inodes();
	changing_fd();
	passed_fd();
	options();
	return 0;
}
