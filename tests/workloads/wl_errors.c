// SPDX-License-Identifier: GPL-2.0
/*
 * Error paths with known errnos, through raw syscalls so libc adds nothing:
 *   openat of a missing file      7 x ENOENT
 *   close of a bad descriptor     5 x EBADF
 *   mkdirat of an existing dir    3 x EEXIST
 *   openat2 of a missing file     2 x ENOENT (flags read from struct open_how)
 * and successful opens of a scratch file: 3 for reading, 2 for writing (one O_RDWR counts as both),
 * one creat. argv[1]: the scratch file to use.
 */
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct open_how how = {.flags = O_RDONLY};
	long fd;

	if (argc != 2) {
		fprintf(stderr, "usage: wl_errors SCRATCH-FILE\n");
		return 2;
	}
	for (int i = 0; i < 7; i++)
		syscall(SYS_openat, AT_FDCWD, "/nonexistent/kf-missing", O_RDONLY);
	for (int i = 0; i < 5; i++)
		syscall(SYS_close, 999);
	for (int i = 0; i < 3; i++)
		syscall(SYS_mkdirat, AT_FDCWD, "/", 0755);
	for (int i = 0; i < 2; i++)
		syscall(SYS_openat2, AT_FDCWD, "/nonexistent/kf-missing2", &how, sizeof(how));
	fd = syscall(SYS_creat, argv[1], 0600);
	syscall(SYS_close, fd);
	fd = syscall(SYS_openat, AT_FDCWD, argv[1], O_WRONLY | O_TRUNC);
	syscall(SYS_close, fd);
	fd = syscall(SYS_openat, AT_FDCWD, argv[1], O_RDWR);
	syscall(SYS_close, fd);
	for (int i = 0; i < 2; i++) {
		fd = syscall(SYS_openat, AT_FDCWD, argv[1], O_RDONLY);
		syscall(SYS_close, fd);
	}
	return 0;
}
