// SPDX-License-Identifier: GPL-2.0
/*
 * Runs argv[1..] as a kernel without CROSS_MEMORY_ATTACH would: a seccomp filter answers process_vm_readv and
 * process_vm_writev with ENOSYS (a tailored kernel has neither), every other call allowed. The filter is
 * inherited: kfootprint record under it reads its tracees' memory the other way.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 1, 0),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_writev, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = sizeof(f) / sizeof(f[0]), .filter = f};

	if (argc < 2) {
		fprintf(stderr, "usage: wl_no_cma COMMAND [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0) {
		fprintf(stderr, "wl_no_cma: seccomp: %s\n", strerror(errno));
		return 1;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "wl_no_cma: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
