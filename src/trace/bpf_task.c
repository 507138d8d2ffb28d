// SPDX-License-Identifier: GPL-2.0
/*
 * bpf backend: the workload's first tasks. A started command is forked held on a pipe before its execve, so
 * the programs are attached and its task storage is seeded before it runs a single instruction of its own;
 * attached processes get every thread seeded. Everything after that is followed in the kernel.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/kfrec.h"
#include "kfrec.skel.h"
#include "trace/bpf_int.h"
#include "util/error.h"
#include "util/xalloc.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* include/uapi/linux/pidfd.h: a pidfd for one thread (Linux 6.9) */
#endif

/* Gives one task its storage in the kernel: from then on its calls, forks and exits are followed. */
static int seed_task(struct bpf_session *s, pid_t tgid, pid_t tid, uint32_t proc, enum kf_task_state state)
{
	struct kf_task t = {.proc = proc, .enter_nr = -1, .state = state, .last_abi = KF_BPF_ABI_X86_64};
	int pidfd = (int)syscall(SYS_pidfd_open, tid, tid == tgid ? 0 : PIDFD_THREAD);
	int rc;

	if (pidfd < 0)
		return -errno;
	rc = bpf_map_update_elem(bpf_map__fd(s->skel->maps.tasks), &pidfd, &t, BPF_NOEXIST);
	rc = rc < 0 ? -errno : 0;
	close(pidfd);
	if (!rc)
		__atomic_fetch_add(&s->skel->bss->live_tasks, 1, __ATOMIC_SEQ_CST);
	return rc == -EEXIST ? 0 : rc;
}

int bpf_new_record(struct bpf_session *s, uint32_t proc, pid_t pid, pid_t ppid, uint32_t threads)
{
	struct kf_proc_rec *rec = s->rec;

	memset(rec, 0, sizeof(*rec));
	rec->p.h.type = KF_EV_PROC;
	rec->p.h.proc = proc;
	rec->p.h.pid = rec->p.h.tid = (__u32)pid;
	rec->p.start_ts = fp__now_ns();
	rec->p.ppid = (__u32)ppid;
	rec->p.threads = threads;
	/* ntasks 0: each task adds itself at its first event (task_of() in the kernel side). */
	if (bpf_map_update_elem(bpf_map__fd(s->skel->maps.procs), &proc, rec, BPF_NOEXIST) < 0)
		return perror_msg("bpf: creating the record of process %d", (int)pid);
	return 0;
}

int bpf_start_command(struct bpf_session *s, int *go_fd)
{
	pid_t pid = trace_start_command(s->opts, NULL, NULL, go_fd);

	if (pid < 0)
		return -1;
	s->root = pid;
	bpf_set_proc(s, 1, fp__proc_new(s->fp, pid, getpid(), fp__now_ns()));
	s->nlive = 1;
	return 0;
}

int bpf_follow_command(struct bpf_session *s)
{
	/* Its task is counted in the record of the process; the fp_proc already counts it. */
	int rc = bpf_new_record(s, 1, s->root, getpid(), 0);

	if (rc)
		return -1;
	rc = seed_task(s, s->root, s->root, 1, KF_TASK_WAIT_EXEC);
	if (rc < 0) {
		errno = -rc;
		return perror_msg("bpf: following the command (pid %d)", (int)s->root);
	}
	return 0;
}

int bpf_release_command(struct bpf_session *s, int go_fd)
{
	(void)s;
	return trace_release_command(go_fd);
}

/* Seeds the threads of one process not seeded yet; returns how many were new, or -1 after reporting. */
static int seed_threads(struct bpf_session *s, pid_t pid, uint32_t proc)
{
	char path[64];
	struct dirent *de;
	DIR *d;
	int added = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? error("-p %d: no such process", (int)pid) : perror_msg("'%s'", path);
	while ((de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		struct kf_task t;
		int pidfd, rc;

		if (*end || tid <= 0)
			continue;
		/* Already followed (seeded, or created by a followed thread since)? */
		pidfd = (int)syscall(SYS_pidfd_open, (pid_t)tid, tid == pid ? 0 : PIDFD_THREAD);
		if (pidfd < 0)
			continue; /* gone meanwhile */
		rc = bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.tasks), &pidfd, &t);
		close(pidfd);
		if (!rc)
			continue;
		rc = seed_task(s, pid, (pid_t)tid, proc, KF_TASK_ATTACHED);
		if (rc == -ESRCH || rc == -ENOENT)
			continue;
		if (rc < 0) {
			closedir(d);
			errno = -rc;
			return perror_msg("bpf: following -p %d thread %ld", (int)pid, tid);
		}
		added++;
	}
	closedir(d);
	return added;
}

static pid_t read_ppid(pid_t pid)
{
	char path[64], buf[512];
	FILE *f;
	pid_t ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		char *p = strrchr(buf, ')'); /* comm may contain spaces and parentheses */
		int v;

		if (p && sscanf(p + 1, " %*c %d", &v) == 1)
			ppid = v;
	}
	fclose(f);
	return ppid;
}

int bpf_attach_pids(struct bpf_session *s)
{
	const struct trace_opts *o = s->opts;

	for (size_t i = 0; i < o->npids; i++) {
		uint32_t proc = (uint32_t)i + 1;
		struct fp_proc *p;
		int n, total = 0;

		/* Before the first thread is seeded: the threads it starts are counted in the record. */
		if (bpf_new_record(s, proc, o->pids[i], read_ppid(o->pids[i]), 0))
			return -1;
		/* Threads started while we list are either seen by the next pass or created by a followed one. */
		while ((n = seed_threads(s, o->pids[i], proc)) > 0)
			total += n;
		if (n < 0)
			return -1;
		if (!total)
			return error("-p %d: no such process", (int)o->pids[i]);
		p = fp__proc_new(s->fp, o->pids[i], read_ppid(o->pids[i]), fp__now_ns());
		p->attached = true;
		p->threads = (uint32_t)total;
		trace_read_proc(p);
		bpf_set_proc(s, proc, p);
		s->nlive++;
		trace_say_attached(o->pids[i]);
	}
	return 0;
}
