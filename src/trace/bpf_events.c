// SPDX-License-Identifier: GPL-2.0
/*
 * bpf backend: what the kernel side reports, turned into the footprint. Lifecycle and opens arrive through
 * the ring buffer while the workload runs; the per-call aggregates are read once, at the end.
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

static char **dup_argv(char *const *argv)
{
	size_t n = 0;
	char **v;

	if (!argv)
		return NULL;
	while (argv[n])
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(argv[i]);
	return v;
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

static void on_fork(struct bpf_session *s, const struct kf_ev_fork *ev)
{
	struct fp_proc *parent = bpf_proc(s, ev->parent_proc), *p;

	if (ev->thread) {
		if (parent)
			parent->threads++;
		return;
	}
	p = fp__proc_new(s->fp, (pid_t)ev->h.pid, (pid_t)ev->ppid, ev->h.ts);
	/* Until it execs, a child runs its parent's program. */
	memcpy(p->comm, ev->comm, sizeof(p->comm) - 1);
	if (parent) {
		p->exe = parent->exe ? xstrdup(parent->exe) : NULL;
		p->argv = dup_argv(parent->argv);
	}
	bpf_set_proc(s, ev->h.proc, p);
	s->nlive++;
}

static void on_exec(struct bpf_session *s, const struct kf_ev_exec *ev)
{
	struct fp_proc *p = bpf_proc(s, ev->h.proc);
	char path[64], exe[PATH_MAX], filename[KF_BPF_FILENAME_MAX];
	char comm[sizeof(ev->comm) + 1];
	ssize_t n;

	if (!p)
		return;
	memcpy(filename, ev->filename, sizeof(filename));
	filename[sizeof(filename) - 1] = '\0';
	memcpy(comm, ev->comm, sizeof(ev->comm));
	comm[sizeof(ev->comm)] = '\0';
	/*
	 * The resolved path, as /proc/PID/exe shows it: events are read in batches, so the process may be gone
	 * by now and an absolute name is resolved here; a relative one needs the process's cwd, from /proc.
	 */
	n = -1;
	if (filename[0] == '/' && realpath(filename, exe))
		n = (ssize_t)strlen(exe);
	if (n < 0) {
		snprintf(path, sizeof(path), "/proc/%u/exe", ev->h.pid);
		n = readlink(path, exe, sizeof(exe) - 1);
		if (n > 0)
			exe[n] = '\0';
	}
	fp__proc_exec(s->fp, p, n > 0 ? exe : filename, NULL, comm);
	if (ev->args_len)
		fp__proc_set_argv(
		    p, split_args(ev->args, ev->args_len < sizeof(ev->args) ? ev->args_len : sizeof(ev->args)));
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

static void on_exit_event(struct bpf_session *s, const struct kf_ev_exit *ev)
{
	struct fp_proc *p = bpf_proc(s, ev->h.proc);

	if (!p || p->end_s >= 0)
		return;
	fp__proc_exit(s->fp, p, decode_status(ev->status), ev->h.ts);
	if (s->nlive)
		s->nlive--;
}

static void on_open(struct bpf_session *s, const struct kf_ev_open *ev, size_t size)
{
	size_t max = size - offsetof(struct kf_ev_open, path);
	char *path = xstrndup(ev->path, strnlen(ev->path, max));
	int err = ev->ret < 0 && ev->ret >= -4095 ? -ev->ret : 0;

	fp__open(s->fp, bpf_proc(s, ev->h.proc), path, ev->flags, err, 1);
	free(path);
}

int bpf_on_event(void *ctx, void *data, size_t size)
{
	struct bpf_session *s = ctx;
	const struct kf_ev_hdr *h = data;

	if (size < sizeof(*h))
		return 0;
	s->events++;
	switch (h->type) {
	case KF_EV_FORK:
		if (size >= sizeof(struct kf_ev_fork))
			on_fork(s, data);
		break;
	case KF_EV_EXEC:
		if (size >= sizeof(struct kf_ev_exec))
			on_exec(s, data);
		break;
	case KF_EV_EXIT:
		if (size >= sizeof(struct kf_ev_exit))
			on_exit_event(s, data);
		break;
	case KF_EV_OPEN:
		if (size > offsetof(struct kf_ev_open, path))
			on_open(s, data, size);
		break;
	default: break;
	}
	return 0;
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
		if (calls && key.abi < KF_ABI_NR)
			fp__account(s->fp, bpf_proc(s, key.proc), (enum kf_abi)key.abi, key.nr, key.err, calls, ns);
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
		debug("backend bpf: moved %zu call counts of ended processes out of the kernel", ndone);
	free(done);
	free(vals);
	return rc;
}
