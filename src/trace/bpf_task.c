// SPDX-License-Identifier: GPL-2.0
/*
 * bpf backend: the workload's first tasks. A started command is forked held on a pipe before its execve, so
 * the programs are attached and its task storage is seeded before it runs a single instruction of its own;
 * attached processes get every thread seeded. Everything after that is followed in the kernel.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/membarrier.h>
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
	struct kf_task_rec *t = xcalloc(1, sizeof(*t));
	int pidfd = (int)syscall(SYS_pidfd_open, tid, tid == tgid ? 0 : PIDFD_THREAD);
	int rc;

	t->t = (struct kf_task){
	    .proc = proc, .enter_nr = -1, .state = state, .last_abi = KF_BPF_ABI_X86_64, .gen = s->run_gen};
	if (pidfd < 0) {
		rc = -errno;
		free(t);
		return rc;
	}
	rc = bpf_map_update_elem(bpf_map__fd(s->skel->maps.tasks), &pidfd, t, BPF_NOEXIST);
	rc = rc < 0 ? -errno : 0;
	/* An earlier run's state (cached maps), which the programs leave alone: replaced, counts zeroed. */
	if (rc == -EEXIST && !bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.tasks), &pidfd, t) &&
	    t->t.gen != s->run_gen) {
		memset(t, 0, sizeof(*t));
		t->t = (struct kf_task){
		    .proc = proc, .enter_nr = -1, .state = state, .last_abi = KF_BPF_ABI_X86_64, .gen = s->run_gen};
		rc = bpf_map_update_elem(bpf_map__fd(s->skel->maps.tasks), &pidfd, t, BPF_EXIST) < 0 ? -errno : 0;
	}
	free(t);
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

/*
 * The call a seeded thread is in, read after seeding: should the thread still be in state KF_TASK_ATTACHED at the
 * end, it has crossed no syscall boundary since, and this is the call it was in all along.
 */
static void remember_call(struct bpf_session *s, pid_t pid, pid_t tid, uint32_t proc)
{
	char path[64], buf[32] = "";
	long nr = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", (int)pid, (int)tid);
	f = fopen(path, "re");
	if (f) {
		/* "NR ARGS... SP PC" in a call, "-1 SP PC" in user space, "running" on a CPU: in no call then */
		if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%ld", &nr) != 1)
			nr = -1;
		fclose(f);
	}
	if (nr < 0)
		return;
	XGROW(s->at_attach, s->at_attach_cap, s->nat_attach + 1);
	s->at_attach[s->nat_attach++] = (struct bpf_at_attach){pid, tid, proc, nr};
}

int bpf_count_at_attach(struct bpf_session *s)
{
	struct kf_task_rec *t = xcalloc(1, sizeof(*t));

	for (size_t i = 0; i < s->nat_attach; i++) {
		const struct bpf_at_attach *a = &s->at_attach[i];
		int pidfd = (int)syscall(SYS_pidfd_open, a->tid, a->tid == a->pid ? 0 : PIDFD_THREAD);
		int rc;

		if (pidfd < 0)
			continue; /* ended: the kernel side saw its call return, or its exit in it */
		rc = bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.tasks), &pidfd, t);
		close(pidfd);
		if (rc < 0 || t->t.gen != s->run_gen || t->t.state != KF_TASK_ATTACHED || !bpf_proc(s, a->proc))
			continue;
		/* /proc numbers a 32-bit task's call from its own table, and says nothing of its ABI: x86_64 here */
		fp__account(s->fp, bpf_proc(s, a->proc), KF_ABI_X86_64, (int)a->nr, 0, 1, 0);
		fp__at_attach(s->fp, KF_ABI_X86_64, (int)a->nr, 1);
	}
	free(t);
	return 0;
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
		struct kf_task_rec *t;
		int pidfd, rc;

		if (*end || tid <= 0)
			continue;
		/* Already followed (seeded, or created by a followed thread since)? */
		pidfd = (int)syscall(SYS_pidfd_open, (pid_t)tid, tid == pid ? 0 : PIDFD_THREAD);
		if (pidfd < 0)
			continue; /* gone meanwhile */
		t = xcalloc(1, sizeof(*t));
		rc = bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.tasks), &pidfd, t);
		if (!rc && t->t.gen != s->run_gen)
			rc = -1; /* an earlier run's (cached maps): not followed */
		free(t);
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
		remember_call(s, pid, (pid_t)tid, proc);
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
		trace_say_attached(o, o->pids[i]);
	}
	return 0;
}

/* The counts of one task alive at the end, taken by user space. */
struct bpf_live {
	uint32_t proc;
	pid_t tid;
	uint64_t calls[KF_TASK_NR];
	uint64_t ns[KF_TASK_NR];
	struct kf_reach_pend reach[KF_REACH_CACHE]; /* what its calls reached, not yet in the kernel's hash */
};

bool bpf_per_task_usable(void)
{
	/* A thread's pidfd (Linux 6.9) is the key to its storage; membarrier's global command waits for a grace period
	 */
	int fd = (int)syscall(SYS_pidfd_open, getpid(), PIDFD_THREAD);
	long cmds = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);

	if (fd < 0) {
		debug("backend bpf: no pidfd of a thread (%s): calls counted in the process records", strerror(errno));
		return false;
	}
	close(fd);
	if (cmds < 0 || !(cmds & MEMBARRIER_CMD_GLOBAL)) {
		debug("backend bpf: no membarrier(MEMBARRIER_CMD_GLOBAL): calls counted in the process records");
		return false;
	}
	return true;
}

/* The counts of thread tid of pid, when it is followed, unless its exit took them; 0, or -1 after reporting. */
static int take_task(struct bpf_session *s, pid_t pid, pid_t tid, struct kf_task_rec *t)
{
	uint32_t who = KF_CLAIM_USER;
	int pidfd = (int)syscall(SYS_pidfd_open, tid, tid == pid ? 0 : PIDFD_THREAD);
	int rc;

	if (pidfd < 0)
		return 0; /* ended: its exit folded its counts */
	rc = bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.tasks), &pidfd, t);
	if (rc < 0) {
		close(pidfd);
		return errno == ENOENT || errno == ESRCH ? 0
							 : perror_msg("bpf: reading the counts of task %d", (int)tid);
	}
	if (t->t.gen != s->run_gen) {
		close(pidfd); /* an earlier run's state (cached maps): not followed in this one */
		return 0;
	}
	/*
	 * Read first, then claimed: nothing counts any more, and only the task's exit can take the counts too. If it
	 * claimed them first (its entry exists), its fold has them and what was read is dropped.
	 */
	rc = bpf_map_update_elem(bpf_map__fd(s->skel->maps.claims), &pidfd, &who, BPF_NOEXIST);
	rc = rc < 0 ? errno : 0;
	close(pidfd);
	if (rc == EEXIST || rc == ENOENT || rc == ESRCH) {
		s->live_folded++;
		return 0;
	}
	if (rc) {
		/* what those calls reached is lost with them: a footprint that says so is incomplete */
		for (int i = 0; i < KF_TASK_NR; i++)
			s->lost_live += t->calls[i];
		for (int i = 0; i < KF_REACH_CACHE; i++)
			s->lost_live += t->reach[i].key.kind ? t->reach[i].calls : 0;
		return 0;
	}
	XGROW(s->live, s->live_cap, s->nlive_taken + 1);
	s->live[s->nlive_taken].proc = t->t.proc;
	s->live[s->nlive_taken].tid = tid;
	memcpy(s->live[s->nlive_taken].calls, t->calls, sizeof(t->calls));
	memcpy(s->live[s->nlive_taken].ns, t->ns, sizeof(t->ns));
	memcpy(s->live[s->nlive_taken].reach, t->reach, sizeof(t->reach));
	s->nlive_taken++;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return x < y ? -1 : x > y;
}

/* The processes that may have live followed tasks: every record not ended, every process not seen ending. */
static size_t live_pids(struct bpf_session *s, pid_t **out)
{
	int fd = bpf_map__fd(s->skel->maps.procs);
	struct kf_proc_rec *rec = s->rec;
	uint32_t key, next;
	void *prev = NULL;
	pid_t *v = NULL;
	size_t n = 0, cap = 0, k = 0;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, rec) < 0 || (rec->p.flags & KF_PROC_ENDED) || !rec->p.h.pid)
			continue;
		XGROW(v, cap, n + 1);
		v[n++] = (pid_t)rec->p.h.pid;
	}
	for (size_t i = 0; i < s->fp->nprocs; i++) {
		if (s->fp->procs[i]->end_s >= 0 || s->fp->procs[i]->pid <= 0)
			continue;
		XGROW(v, cap, n + 1);
		v[n++] = s->fp->procs[i]->pid;
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_pid);
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	*out = v;
	return k;
}

int bpf_take_live(struct bpf_session *s)
{
	struct kf_task_rec *t;
	pid_t *pids = NULL;
	size_t npids;
	int rc = 0;

	/* Counting ends here: sys_enter and sys_exit (either sys_exit) are detached, the rest stays for now. */
	bpf_detach(s, "kf_sys_e");
	if (!s->per_task || __atomic_load_n(&s->skel->bss->live_tasks, __ATOMIC_SEQ_CST) <= 0)
		return 0;
	/*
	 * From now on a task's exit folds its counts only if it claims them. After a grace period, every exit that
	 * did not see this has folded and deleted its storage, and every sys_exit run that began before the detach
	 * has ended: what is read below no longer moves.
	 */
	__atomic_store_n(&s->skel->bss->handover, 1, __ATOMIC_SEQ_CST);
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) < 0)
		return perror_msg("bpf: ending the recording: membarrier");
	ring_buffer__consume(s->rb); /* the processes started lately */
	npids = live_pids(s, &pids);
	t = xcalloc(1, sizeof(*t));
	for (size_t i = 0; i < npids && !rc; i++) {
		char path[64];
		struct dirent *de;
		DIR *d;

		snprintf(path, sizeof(path), "/proc/%d/task", (int)pids[i]);
		d = opendir(path);
		if (!d)
			continue; /* ended: its tasks' exits folded their counts */
		while (!rc && (de = readdir(d))) {
			char *end;
			long tid = strtol(de->d_name, &end, 10);

			if (!*end && tid > 0)
				rc = take_task(s, pids[i], (pid_t)tid, t);
		}
		closedir(d);
	}
	debug("backend bpf: at the end, the counts of %zu live tasks taken, %llu folded by their exit meanwhile",
	      s->nlive_taken, (unsigned long long)s->live_folded);
	free(t);
	free(pids);
	return rc;
}

int bpf_release_claims(struct bpf_session *s)
{
	int fd = bpf_map__fd(s->skel->maps.claims), rc = 0;

	/*
	 * Only user space's claims outlive their task: the kernel side claims a task in its sched_process_exit, after
	 * which the task never runs a program again and its storage goes with it.
	 */
	for (size_t k = 0; k < s->nlive_taken; k++) {
		int pidfd = (int)syscall(SYS_pidfd_open, s->live[k].tid, PIDFD_THREAD);

		if (pidfd < 0) {
			if (errno != ESRCH)
				rc = -1;
			continue; /* ended: its storage with it */
		}
		if (bpf_map_delete_elem(fd, &pidfd) < 0 && errno != ENOENT && errno != ESRCH)
			rc = -1;
		close(pidfd);
	}
	if (rc)
		debug("backend bpf: a claim of a live task could not be removed: the cache will be rebuilt");
	return rc;
}

void bpf_apply_live(struct bpf_session *s)
{
	int fd = bpf_map__fd(s->skel->maps.unsure);
	uint32_t key, next, proc;
	void *prev = NULL;

	/* Tasks whose exit folded their counts not knowing whether they were taken here: theirs are in the record. */
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &proc) < 0)
			continue;
		for (size_t k = 0; k < s->nlive_taken; k++)
			if (s->live[k].tid == (pid_t)key && s->live[k].proc == proc) {
				debug("backend bpf: task %u: its exit folded its counts too: what was read of them "
				      "dropped",
				      key);
				s->live[k].proc = 0;
			}
	}
	for (size_t k = 0; k < s->nlive_taken; k++) {
		struct fp_proc *p = bpf_proc(s, s->live[k].proc);

		if (!s->live[k].proc)
			continue;
		for (int i = 0; i < KF_TASK_NR; i++)
			if (s->live[k].calls[i])
				fp__account(s->fp, p, KF_ABI_X86_64, i, 0, s->live[k].calls[i], s->live[k].ns[i]);
		bpf_reach_taken(s, s->live[k].reach, KF_REACH_CACHE);
	}
}
