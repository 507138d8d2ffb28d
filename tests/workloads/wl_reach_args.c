// SPDX-License-Identifier: GPL-2.0
/*
 * Calls whose arguments choose optional kernel code that their name does not, for tests/integration/reach_args.sh
 * (issue 25): each must be decoded by both backends and mapped to the code that handles it. Raw syscalls, one of
 * each, in this order:
 *   socket AF_NETLINK: NETLINK_ROUTE (SOCK_RAW), NETLINK_SOCK_DIAG (SOCK_DGRAM), NETLINK_KOBJECT_UEVENT (SOCK_DGRAM)
 *   openat /dev/fuse (misc 10:229), fstat, ioctl FUSE_DEV_IOC_CLONE of fd -1 (an error);
 *   fstat of /dev/loop-control (misc 10:237) when it exists
 *   fcntl F_NOTIFY (DN_CREATE, then 0) on argv[1], F_SETLEASE F_RDLCK, F_GETLEASE, F_SETLEASE F_UNLCK on a file
 *   made in it, F_ADD_SEALS and F_GET_SEALS on a sealable memfd
 *   a child: prctl PR_SET_NO_NEW_PRIVS, seccomp SECCOMP_GET_ACTION_AVAIL, seccomp SECCOMP_SET_MODE_FILTER and
 *   prctl PR_SET_SECCOMP SECCOMP_MODE_FILTER, both with a filter that allows everything
 *   a child: unshare CLONE_NEWNS, mount of / MS_REC|MS_PRIVATE, mount of a tmpfs with options "size=1m,mode=0700"
 *   on argv[1]/mnt, umount2 of it
 *   pipe2, write and read of a byte through it (IPC by what they reached); socket AF_INET SOCK_DGRAM, ioctl
 *   FIONREAD on it (Network)
 * argv[1]: an empty directory.
 */
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define FUSE_DEV_IOC_CLONE _IOR(229, 0, uint32_t) /* linux/fuse.h */

static int in_child(int (*fn)(const char *), const char *arg)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return 1;
	if (pid == 0)
		_exit(fn(arg));
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

static int seccomp_child(const char *unused)
{
	struct sock_filter allow[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
	struct sock_fprog prog = {.len = 1, .filter = allow};
	uint32_t action = SECCOMP_RET_LOG;

	(void)unused;
	if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return 2;
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action);
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return 3;
	if (syscall(SYS_prctl, PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
		return 4;
	return 0;
}

static int tmpfs_child(const char *dir)
{
	char mnt[4096];

	snprintf(mnt, sizeof(mnt), "%s/mnt", dir);
	if (syscall(SYS_unshare, CLONE_NEWNS) < 0)
		return 5;
	if (syscall(SYS_mount, NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return 6;
	if (syscall(SYS_mount, "kf", mnt, "tmpfs", 0, "size=1m,mode=0700") < 0)
		return 7;
	syscall(SYS_umount2, mnt, 0);
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	struct stat st;
	int fd, dfd, mfd, bad = -1;

	if (argc != 2) {
		fprintf(stderr, "usage: wl_reach_args DIR\n");
		return 2;
	}
	syscall(SYS_close, syscall(SYS_socket, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE));
	syscall(SYS_close, syscall(SYS_socket, AF_NETLINK, SOCK_DGRAM, NETLINK_SOCK_DIAG));
	syscall(SYS_close, syscall(SYS_socket, AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT));

	fd = (int)syscall(SYS_openat, AT_FDCWD, "/dev/fuse", O_RDWR);
	if (fd >= 0) {
		syscall(SYS_fstat, fd, &st);
		syscall(SYS_ioctl, fd, FUSE_DEV_IOC_CLONE, &bad);
		syscall(SYS_close, fd);
	}
	fd = (int)syscall(SYS_openat, AT_FDCWD, "/dev/loop-control", O_RDONLY);
	if (fd >= 0) {
		syscall(SYS_fstat, fd, &st);
		syscall(SYS_close, fd);
	}

	dfd = (int)syscall(SYS_openat, AT_FDCWD, argv[1], O_RDONLY | O_DIRECTORY);
	if (dfd < 0 || syscall(SYS_fcntl, dfd, F_NOTIFY, DN_CREATE) < 0 || syscall(SYS_fcntl, dfd, F_NOTIFY, 0) < 0)
		return 10;
	snprintf(path, sizeof(path), "%s/leased", argv[1]);
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDWR | O_CREAT, 0600);
	syscall(SYS_close, fd);
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
	if (fd < 0 || syscall(SYS_fcntl, fd, F_SETLEASE, F_RDLCK) < 0 ||
	    syscall(SYS_fcntl, fd, F_GETLEASE) != F_RDLCK || syscall(SYS_fcntl, fd, F_SETLEASE, F_UNLCK) < 0)
		return 11;
	syscall(SYS_close, fd);
	mfd = (int)syscall(SYS_memfd_create, "kf-sealed", MFD_ALLOW_SEALING);
	if (mfd < 0 || syscall(SYS_fcntl, mfd, F_ADD_SEALS, F_SEAL_SHRINK) < 0 ||
	    syscall(SYS_fcntl, mfd, F_GET_SEALS) != F_SEAL_SHRINK)
		return 12;
	syscall(SYS_close, mfd);
	syscall(SYS_close, dfd);

	int p[2], n = 0;
	char byte = 'x';
	if (syscall(SYS_pipe2, p, 0) < 0 || syscall(SYS_write, p[1], &byte, 1) != 1 ||
	    syscall(SYS_read, p[0], &byte, 1) != 1)
		return 14;
	syscall(SYS_close, p[0]);
	syscall(SYS_close, p[1]);
	fd = (int)syscall(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || syscall(SYS_ioctl, fd, FIONREAD, &n) < 0)
		return 15;
	syscall(SYS_close, fd);

	snprintf(path, sizeof(path), "%s/mnt", argv[1]);
	if (mkdir(path, 0700) < 0)
		return 13;
	return in_child(seccomp_child, NULL) || in_child(tmpfs_child, argv[1]);
}
