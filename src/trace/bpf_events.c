// SPDX-License-Identifier: GPL-2.0
/*
 * bpf backend: what the kernel side reports, turned into the footprint. Forks, execs, opens and the ends of
 * processes arrive through the ring buffer while the workload runs; at the end of a process, its record
 * (counts per call and errno, threads, how it ended) is taken out of the kernel's map.
 *
 * Error sources: a failure of a call that takes a path arrives at once with its path and process name
 * (KF_EV_FAIL). Other failures are only counted in the record; they are told under the name the process had
 * when it made them: at each exec the kernel sends those of the former image (KF_EV_FAILS), and the record,
 * at the end, those of the last one (its slots' calls past `told`).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/kfrec.h"
#include "kfrec.skel.h"
#include "trace/bpf_int.h"
#include "util/error.h"
#include "util/xalloc.h"

_Static_assert(KF_BPF_ABI_X86_64 == KF_ABI_X86_64 && KF_BPF_ABI_I386 == KF_ABI_I386 && KF_BPF_ABI_X32 == KF_ABI_X32,
	       "kfrec.h ABI numbers must equal enum kf_abi");

struct fp_proc *bpf_proc(struct bpf_session *s, uint32_t proc)
{
	return proc < s->byproc_cap ? s->byproc[proc] : NULL;
}

void bpf_set_proc(struct bpf_session *s, uint32_t proc, struct fp_proc *p)
{
	XGROW(s->byproc, s->byproc_cap, (size_t)proc + 1);
	s->byproc[proc] = p;
}

/* argv from the new image's argument area: NUL-separated strings, possibly cut at the end. */
static char **split_args(const char *buf, size_t len)
{
	size_t n = 0, i;
	char **v;

	for (i = 0; i < len; i += strnlen(buf + i, len - i) + 1)
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	n = 0;
	for (i = 0; i < len; i += strnlen(buf + i, len - i) + 1)
		v[n++] = xstrndup(buf + i, strnlen(buf + i, len - i));
	return v;
}

static void set_host_pid(struct fp_proc *p, uint32_t host_pid)
{
	p->host_pid = host_pid && (pid_t)host_pid != p->pid ? (pid_t)host_pid : 0;
}

/* A new process: until it execs, it runs its parent's program. */
static struct fp_proc *new_proc(struct bpf_session *s, uint32_t proc, uint32_t parent_proc, pid_t pid, pid_t ppid,
				uint64_t ts, const char *comm16)
{
	struct fp_proc *parent = bpf_proc(s, parent_proc), *p;

	p = fp__proc_new(s->fp, pid, ppid, ts);
	memcpy(p->comm, comm16, sizeof(p->comm) - 1);
	if (parent) {
		p->exe = parent->exe ? xstrdup(parent->exe) : NULL;
		p->argv = fp_argv_dup(parent->argv);
	}
	bpf_set_proc(s, proc, p);
	s->nlive++;
	return p;
}

static void on_fork(struct bpf_session *s, const struct kf_ev_fork *ev)
{
	struct fp_proc *p;

	if (ev->thread || bpf_proc(s, ev->h.proc))
		return;
	p = new_proc(s, ev->h.proc, ev->parent_proc, (pid_t)ev->h.pid, (pid_t)ev->ppid, ev->h.ts, ev->comm);
	set_host_pid(p, ev->host_pid);
}

static void on_exec(struct bpf_session *s, const struct kf_ev_exec *ev, size_t size)
{
	struct fp_proc *p = bpf_proc(s, ev->h.proc);
	char path[64], exe[PATH_MAX], filename[KF_BPF_FILENAME_MAX];
	char comm[sizeof(ev->comm) + 1];
	size_t have = size - offsetof(struct kf_ev_exec, data), flen = ev->filename_len, alen = ev->args_len;
	ssize_t n;

	if (!p)
		return;
	if (flen > have || flen > sizeof(filename))
		flen = 0;
	if (alen > have - flen)
		alen = have - flen;
	memcpy(filename, ev->data, flen);
	filename[flen ? flen - 1 : 0] = '\0';
	memcpy(comm, ev->comm, sizeof(ev->comm));
	comm[sizeof(ev->comm)] = '\0';
	/*
	 * The resolved path, as /proc/PID/exe shows it: events are read in batches, so the process may be gone
	 * by now and an absolute name is resolved here; a relative one needs the process's cwd, from /proc
	 * (numbered as the namespace that mounted it sees the process).
	 */
	n = -1;
	if (filename[0] == '/' && realpath(filename, exe))
		n = (ssize_t)strlen(exe);
	if (n < 0) {
		snprintf(path, sizeof(path), "/proc/%u/exe", s->proc_is_ns || !ev->host_pid ? ev->h.pid : ev->host_pid);
		n = readlink(path, exe, sizeof(exe) - 1);
		if (n > 0)
			exe[n] = '\0';
	}
	fp__proc_exec(s->fp, p, n > 0 ? exe : filename, NULL, comm);
	if (alen)
		fp__proc_set_argv(p, split_args(ev->data + flen, alen));
}

/* Whether failures of (abi, nr) come with their path, one KF_EV_FAIL each (then not from the counts). */
static bool sends_path(const struct bpf_session *s, unsigned int abi, int nr)
{
	return abi < KF_BPF_NABI && nr >= 0 && nr < KF_BPF_OPEN_NR_MAX && s->path_slot[abi * KF_BPF_OPEN_NR_MAX + nr];
}

/* n failures of a call without a path (a path call's come as KF_EV_FAIL), under the name comm16 or p's. */
static void count_source(struct bpf_session *s, const char *comm16, const struct fp_proc *p, unsigned int abi, int nr,
			 int err, uint64_t n)
{
	char comm[17];

	if (!n || !err || err >= KF_ERR_SECCOMP_KILL || abi >= KF_ABI_NR || sends_path(s, abi, nr))
		return;
	if (comm16 && comm16[0]) {
		memcpy(comm, comm16, 16);
		comm[16] = '\0';
	} else {
		snprintf(comm, sizeof(comm), "%s", p && p->comm[0] ? p->comm : "?");
	}
	fp__error_source_comm(s->fp, comm, (enum kf_abi)abi, nr, err, NULL, n);
}

static struct fp_exit decode_status(int status)
{
	struct fp_exit how = {.kind = FP_EXIT_CODE};

	if (WIFSIGNALED(status)) {
		how.kind = FP_EXIT_SIGNAL;
		how.value = WTERMSIG(status);
		how.core = WCOREDUMP(status);
	} else {
		how.value = WEXITSTATUS(status);
	}
	return how;
}

/* What a process's record (or, without one, the news of its end) tells: into the footprint. */
static void apply_proc(struct bpf_session *s, const struct kf_ev_proc *h, const struct kf_slot *slots, size_t nslots)
{
	struct fp_proc *p = bpf_proc(s, h->h.proc);

	if (!p) {
		/* Its fork event was lost, or never sent: the record knows the same. */
		p = new_proc(s, h->h.proc, h->parent_proc, (pid_t)h->h.pid, (pid_t)h->ppid,
			     h->start_ts ? h->start_ts : h->h.ts, h->comm);
		s->late_procs++;
	}
	if (h->host_pid)
		set_host_pid(p, h->host_pid);
	if (!(h->flags & KF_PROC_NOREC)) {
		/* A forked process's record counts all its tasks; kfootprint's own ones count those born since. */
		if (h->flags & KF_PROC_FORKED)
			p->threads = h->threads;
		else
			p->threads += h->threads;
		if (h->execs > p->execs) {
			/*
			 * Its last exec event found the ring full: the name is the record's, and what ran and with
			 * which arguments is not known (rather than its former image's).
			 */
			fp__proc_exec(s->fp, p, NULL, NULL, h->comm);
			p->execs = h->execs;
			free(p->exe);
			p->exe = NULL;
			fp__proc_set_argv(p, NULL);
		}
	}
	for (size_t i = 0; i < nslots; i++) {
		const struct kf_slot *sl = &slots[i];
		enum kf_abi abi = (enum kf_abi)KF_SLOT_ABI(sl->key);
		int nr = KF_SLOT_NR(sl->key), err = (int)KF_SLOT_ERR(sl->key);

		if (!sl->key || !sl->calls || abi >= KF_ABI_NR)
			continue;
		if (err == KF_ERR_SECCOMP_KILL) {
			fp__seccomp_kill(s->fp, p, abi, nr, sl->calls);
		} else if (err == KF_ERR_AT_ATTACH) {
			fp__at_attach(s->fp, abi, nr, sl->calls);
		} else {
			fp__account(s->fp, p, abi, nr, err, sl->calls, sl->ns);
			/* the failures not told at an exec: the last image's, under the record's name */
			count_source(s, h->comm, p, abi, nr, err, (__u32)sl->calls - sl->told);
		}
	}
	if (!(h->flags & KF_PROC_ENDED))
		return;
	if (p->end_s < 0) {
		fp__proc_exit(s->fp, p, decode_status(h->status), h->h.ts);
		if (s->nlive)
			s->nlive--;
	} else {
		/* Told twice (threads ending at once): the later word is the last task's. */
		p->exit = decode_status(h->status);
		p->end_s = fp__rel_s(s->fp, h->h.ts);
	}
}

/* The news that a process ended: its record is taken out of the kernel, now complete. */
static void on_proc(struct bpf_session *s, const struct kf_ev_proc *ev)
{
	struct kf_proc_rec *rec = s->rec;
	uint32_t proc = ev->h.proc;

	struct fp_proc *p;

	if (!(ev->flags & KF_PROC_NOREC)) {
		if (!bpf_map_lookup_and_delete_elem(bpf_map__fd(s->skel->maps.procs), &proc, rec)) {
			apply_proc(s, &rec->p, rec->slots, KF_BPF_SLOTS);
			s->recs_taken++;
			return;
		}
		/* A sweep of ended records (bpf_read_procs) took it before this news was read: all is told. */
		p = bpf_proc(s, proc);
		if (p && p->end_s >= 0)
			return;
	}
	apply_proc(s, ev, NULL, 0);
}

static void on_fail(struct bpf_session *s, const struct kf_ev_fail *ev, size_t size)
{
	struct fp_proc *p = bpf_proc(s, ev->proc);
	size_t max = size - offsetof(struct kf_ev_fail, path);
	char *path = xstrndup(ev->path, strnlen(ev->path, max));
	char comm[17];

	if (ev->open)
		fp__open(s->fp, p, path, ev->flags, ev->err, 1);
	if (ev->comm[0]) {
		memcpy(comm, ev->comm, 16);
		comm[16] = '\0';
	} else {
		snprintf(comm, sizeof(comm), "%s", p && p->comm[0] ? p->comm : "?");
	}
	if (ev->abi < KF_ABI_NR)
		fp__error_source_comm(s->fp, comm, (enum kf_abi)ev->abi, ev->nr, ev->err, ev->path_ok ? path : NULL, 1);
	free(path);
}

static void on_fails(struct bpf_session *s, const struct kf_ev_fails *ev, size_t size)
{
	struct fp_proc *p = bpf_proc(s, ev->proc);
	size_t n = (size - offsetof(struct kf_ev_fails, v)) / sizeof(ev->v[0]);

	if (n > ev->n)
		n = ev->n;
	for (size_t i = 0; i < n; i++) {
		__u32 key = ev->v[i].key;

		count_source(s, ev->comm, p, KF_SLOT_ABI(key), KF_SLOT_NR(key), (int)KF_SLOT_ERR(key), ev->v[i].calls);
	}
}

static void on_open(struct bpf_session *s, const struct kf_ev_open *ev, size_t size)
{
	size_t max = size - offsetof(struct kf_ev_open, path);
	char *path = xstrndup(ev->path, strnlen(ev->path, max));
	int err = ev->ret < 0 && ev->ret >= -4095 ? -ev->ret : 0;

	fp__open(s->fp, bpf_proc(s, ev->proc), path, ev->flags, err, 1);
	free(path);
}

int bpf_on_event(void *ctx, void *data, size_t size)
{
	struct bpf_session *s = ctx;
	const __u32 *type = data;

	if (size < sizeof(*type))
		return 0;
	s->events++;
	s->bytes += size;
	switch (*type) {
	case KF_EV_FORK:
		if (size >= sizeof(struct kf_ev_fork))
			on_fork(s, data);
		break;
	case KF_EV_EXEC:
		if (size >= offsetof(struct kf_ev_exec, data))
			on_exec(s, data, size);
		break;
	case KF_EV_PROC:
		if (size >= sizeof(struct kf_ev_proc))
			on_proc(s, data);
		break;
	case KF_EV_OPEN:
		if (size > offsetof(struct kf_ev_open, path))
			on_open(s, data, size);
		break;
	case KF_EV_FAIL:
		if (size > offsetof(struct kf_ev_fail, path))
			on_fail(s, data, size);
		break;
	case KF_EV_FAILS:
		if (size >= offsetof(struct kf_ev_fails, v))
			on_fails(s, data, size);
		break;
	default: break;
	}
	return 0;
}

int bpf_read_procs(struct bpf_session *s, bool ended_only)
{
	int fd = bpf_map__fd(s->skel->maps.procs);
	struct kf_proc_rec *rec = s->rec;
	uint32_t key, next, *keys = NULL;
	size_t nkeys = 0, cap = 0, taken = 0;
	void *prev = NULL;
	int rc = 0;

	/* Keys first: deleting while walking would restart the walk. */
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		XGROW(keys, cap, nkeys + 1);
		keys[nkeys++] = key = next;
		prev = &key;
	}
	if (errno != ENOENT)
		rc = perror_msg("bpf: reading the process records");
	for (size_t i = 0; i < nkeys; i++) {
		if (bpf_map_lookup_elem(fd, &keys[i], rec) < 0)
			continue;
		if (ended_only && !(rec->p.flags & KF_PROC_ENDED))
			continue;
		if (rec->p.flags & KF_PROC_ENDED)
			bpf_map_delete_elem(fd, &keys[i]);
		apply_proc(s, &rec->p, rec->slots, KF_BPF_SLOTS);
		taken++;
	}
	if (ended_only)
		s->recs_taken += taken;
	if (taken && ended_only)
		debug("backend bpf: took %zu records of ended processes the ring could not tell of", taken);
	free(keys);
	return rc;
}

/* Whether the counts of this process instance are final: it ended, so no call can add to them. */
static bool proc_ended(struct bpf_session *s, uint32_t proc)
{
	struct fp_proc *p = bpf_proc(s, proc);

	return p && p->end_s >= 0;
}

int bpf_read_stats(struct bpf_session *s, bool ended_only)
{
	int fd = bpf_map__fd(s->skel->maps.stats);
	int ncpu = libbpf_num_possible_cpus();
	struct kf_stat_key key, next, *done = NULL;
	struct kf_stat_val *vals;
	size_t ndone = 0, done_cap = 0;
	void *prev = NULL;
	int rc = 0;

	if (ncpu <= 0)
		return error("bpf: counting possible CPUs: %s", strerror(-ncpu));
	vals = xcalloc((size_t)ncpu, sizeof(*vals));
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		uint64_t calls = 0, ns = 0;

		key = next;
		prev = &key;
		if (ended_only && !proc_ended(s, key.proc))
			continue;
		if (bpf_map_lookup_elem(fd, &key, vals) < 0)
			continue;
		for (int c = 0; c < ncpu; c++) {
			calls += vals[c].calls;
			ns += vals[c].ns;
		}
		if (calls && key.abi < KF_ABI_NR && key.err == KF_ERR_SECCOMP_KILL)
			fp__seccomp_kill(s->fp, bpf_proc(s, key.proc), (enum kf_abi)key.abi, key.nr, calls);
		else if (calls && key.abi < KF_ABI_NR && key.err == KF_ERR_AT_ATTACH)
			fp__at_attach(s->fp, (enum kf_abi)key.abi, key.nr, calls);
		else if (calls && key.abi < KF_ABI_NR) {
			fp__account(s->fp, bpf_proc(s, key.proc), (enum kf_abi)key.abi, key.nr, key.err, calls, ns);
			/* no record: the process's name as user space knows it last */
			count_source(s, NULL, bpf_proc(s, key.proc), key.abi, key.nr, key.err, calls);
		}
		if (ended_only) {
			XGROW(done, done_cap, ndone + 1);
			done[ndone++] = key;
		}
	}
	if (errno != ENOENT)
		rc = perror_msg("bpf: reading the call counts");
	/* Deleted after the walk, which deleting would restart. Counted: the kernel side counts inserts. */
	for (size_t i = 0; i < ndone; i++)
		if (!bpf_map_delete_elem(fd, &done[i]))
			s->stats_drained++;
	if (ended_only)
		debug("backend bpf: moved %zu spilled call counts of ended processes out of the kernel", ndone);
	free(done);
	free(vals);
	return rc;
}

struct by_start {
	struct fp_proc *p;
	size_t i;
};

static int cmp_start(const void *a, const void *b)
{
	const struct by_start *x = a, *y = b;

	if (x->p->start_s != y->p->start_s)
		return x->p->start_s < y->p->start_s ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void bpf_order_procs(struct bpf_session *s)
{
	struct footprint *fp = s->fp;
	struct by_start *v;

	/* The tree finds a parent among the processes before its child: order by start, ties as they came. */
	if (!s->late_procs)
		return;
	v = xcalloc(fp->nprocs + 1, sizeof(*v));
	for (size_t i = 0; i < fp->nprocs; i++)
		v[i] = (struct by_start){fp->procs[i], i};
	qsort(v, fp->nprocs, sizeof(*v), cmp_start);
	for (size_t i = 0; i < fp->nprocs; i++)
		fp->procs[i] = v[i].p;
	free(v);
}
