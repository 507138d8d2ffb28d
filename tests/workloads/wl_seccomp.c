// SPDX-License-Identifier: GPL-2.0
/*
 * Installs a seccomp filter that answers getppid with one action, then makes 3 getpid calls and 5 getppid
 * calls (argv[1] names the action):
 *   errno        SECCOMP_RET_ERRNO(EPERM): 5 getppid, all EPERM; exit 0
 *   trace        SECCOMP_RET_TRACE with no seccomp tracer: 5 getppid, all ENOSYS; exit 0
 *   trap         SECCOMP_RET_TRAP: each getppid raises SIGSYS, whose handler makes it return 7; 5 rt_sigreturn;
 *                exit 0
 *   notify       SECCOMP_RET_USER_NOTIF: a supervisor thread (started before the filter, so not under it)
 *                answers EACCES; 5 getppid, all EACCES; exit 0
 *   kill         SECCOMP_RET_KILL_PROCESS: the first getppid kills the process with SIGSYS (1 getppid, made and
 *                never returning)
 *   kill-thread  SECCOMP_RET_KILL_THREAD in a second thread (the filter is its own): that thread dies in its
 *                first getppid, the main thread joins it and exits 0 (1 getppid)
 * In every mode, one prlimit64 first (no core file from SIGSYS), then one prctl(PR_SET_NO_NEW_PRIVS) and one
 * seccomp(SET_MODE_FILTER) succeed (kill-thread: in the second thread). The filter allows every other call.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static unsigned int action;
static int listener = -1;

static long install(unsigned int flags)
{
	struct sock_filter f[] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, action),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = sizeof(f) / sizeof(f[0]), .filter = f};

	if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

static void calls(void)
{
	for (int i = 0; i < 3; i++)
		syscall(SYS_getpid);
	for (int i = 0; i < 5; i++)
		syscall(SYS_getppid);
}

static void on_sigsys(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	((ucontext_t *)uc)->uc_mcontext.gregs[REG_RAX] = 7;
}

static void *supervise(void *arg)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	(void)arg;
	while (__atomic_load_n(&listener, __ATOMIC_ACQUIRE) < 0)
		;
	for (int i = 0; i < 5; i++) {
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req))
			return NULL;
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.error = -EACCES;
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp))
			return NULL;
	}
	return NULL;
}

static void *killed_thread(void *arg)
{
	(void)arg;
	if (install(0))
		return NULL;
	calls();
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	struct rlimit nocore = {0, 0};
	pthread_t th;
	long fd;

	setrlimit(RLIMIT_CORE, &nocore);

	if (!strcmp(mode, "errno")) {
		action = SECCOMP_RET_ERRNO | EPERM;
	} else if (!strcmp(mode, "trace")) {
		action = SECCOMP_RET_TRACE;
	} else if (!strcmp(mode, "trap")) {
		struct sigaction sa = {.sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO};

		action = SECCOMP_RET_TRAP;
		sigaction(SIGSYS, &sa, NULL);
	} else if (!strcmp(mode, "notify")) {
		action = SECCOMP_RET_USER_NOTIF;
		if (pthread_create(&th, NULL, supervise, NULL))
			return 2;
		fd = install(SECCOMP_FILTER_FLAG_NEW_LISTENER);
		if (fd < 0)
			return 3;
		__atomic_store_n(&listener, (int)fd, __ATOMIC_RELEASE);
		calls();
		pthread_join(th, NULL);
		return 0;
	} else if (!strcmp(mode, "kill")) {
		action = SECCOMP_RET_KILL_PROCESS;
	} else if (!strcmp(mode, "kill-thread")) {
		action = SECCOMP_RET_KILL_THREAD;
		if (pthread_create(&th, NULL, killed_thread, NULL))
			return 2;
		pthread_join(th, NULL);
		return 0;
	} else {
		fprintf(stderr, "usage: wl_seccomp errno|trace|trap|notify|kill|kill-thread\n");
		return 2;
	}
	if (install(0))
		return 3;
	calls();
	return 0;
}
