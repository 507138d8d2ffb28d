// SPDX-License-Identifier: GPL-2.0
/*
 * Guest events into a footprint, whichever method saw them. A task's open call is kept until its return, its
 * exit or the end: calls are counted once, at their entry's number, as strace -c counts them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/syscalls.h"
#include "qemu/qemu.h"
#include "util/xalloc.h"

struct kfq_task {
	pid_t pid;
	pid_t ppid; /* from the fork event, for a task first seen later */
	bool open;  /* a call entered and not returned */
	long nr;
	pid_t proc; /* the process the open call is accounted to */
	uint64_t arg0, t_enter;
	struct kfq_task *next;
};

#define KFQ_TASK_HASH 1024

struct kfq_sink {
	struct footprint *fp;
	enum kf_abi abi;
	/* exit and exit_group in the guest's ABI (its syscall table): their first argument is the exit code */
	long exit_nr[2];
	struct kfq_task *hash[KFQ_TASK_HASH];
	uint64_t events, t_last;
};

struct kfq_sink *kfq_sink_new(struct footprint *fp, enum kf_abi abi)
{
	struct kfq_sink *s = xcalloc(1, sizeof(*s));

	s->fp = fp;
	s->abi = abi;
	for (size_t i = 0; i < 2; i++) {
		const struct kf_syscall *sc = kf_syscall_by_name(abi, i ? "exit_group" : "exit");

		s->exit_nr[i] = sc ? sc->nr : -1;
	}
	return s;
}

static bool is_exit_call(const struct kfq_sink *s, long nr)
{
	return nr >= 0 && (nr == s->exit_nr[0] || nr == s->exit_nr[1]);
}

static struct kfq_task *task(struct kfq_sink *s, pid_t pid)
{
	struct kfq_task **h = &s->hash[(unsigned)pid % KFQ_TASK_HASH], *t;

	for (t = *h; t; t = t->next)
		if (t->pid == pid)
			return t;
	t = xcalloc(1, sizeof(*t));
	t->pid = pid;
	t->next = *h;
	*h = t;
	return t;
}

/* The guest's clock as the footprint's: its times are seconds since the guest booted. */
static uint64_t mono(struct kfq_sink *s, uint64_t t_ns)
{
	if (t_ns > s->t_last)
		s->t_last = t_ns;
	s->events++;
	return s->fp->t0_ns + t_ns;
}

/* The process of pid, made when first seen (its parent from its fork event, if one was seen). */
static struct fp_proc *proc(struct kfq_sink *s, pid_t pid, uint64_t t_ns)
{
	struct fp_proc *p = fp__proc_find(s->fp, pid);

	if (!p)
		p = fp__proc_new(s->fp, pid, task(s, pid)->ppid, mono(s, t_ns));
	return p;
}

static void account(struct kfq_sink *s, struct fp_proc *p, struct kfq_task *t, long ret, bool returned, uint64_t t_ns)
{
	int err = returned && ret < 0 && ret >= -4095 ? (int)-ret : 0;

	fp__account(s->fp, p, s->abi, (int)t->nr, err, 1, returned && t_ns > t->t_enter ? t_ns - t->t_enter : 0);
	t->open = false;
}

void kfq_sink_enter(struct kfq_sink *s, pid_t pid, pid_t tid, long nr, uint64_t arg0, uint64_t t_ns)
{
	struct fp_proc *p = proc(s, pid, t_ns);
	struct kfq_task *t = task(s, tid);

	mono(s, t_ns);
	/* an entry without its return: the method missed it (a signal's restart, a lost line) */
	if (t->open)
		account(s, p, t, 0, false, t_ns);
	t->open = true;
	t->proc = pid;
	t->nr = nr;
	t->arg0 = arg0;
	t->t_enter = t_ns;
}

void kfq_sink_exit(struct kfq_sink *s, pid_t pid, pid_t tid, long nr, long ret, uint64_t t_ns)
{
	struct kfq_task *t = task(s, tid);

	mono(s, t_ns);
	if (!t->open || t->nr != nr)
		return;
	account(s, proc(s, pid, t_ns), t, ret, true, t_ns);
}

void kfq_sink_fork(struct kfq_sink *s, pid_t parent, pid_t child, uint64_t t_ns)
{
	uint64_t m = mono(s, t_ns);

	task(s, child)->ppid = parent;
	/* a kernel thread's children are kernel threads until they exec (a usermode helper): made then */
	if (fp__proc_find(s->fp, parent))
		fp__proc_new(s->fp, child, parent, m);
}

void kfq_sink_exec(struct kfq_sink *s, pid_t pid, const char *filename, uint64_t t_ns)
{
	struct fp_proc *p = proc(s, pid, t_ns);
	const char *base = strrchr(filename, '/');

	base = base && base[1] ? base + 1 : filename;
	fp__proc_exec(s->fp, p, filename, NULL, NULL);
	snprintf(p->comm, sizeof(p->comm), "%s", base);
}

void kfq_sink_task_exit(struct kfq_sink *s, pid_t pid, uint64_t t_ns)
{
	struct fp_proc *p = fp__proc_find(s->fp, pid);
	struct kfq_task *t = task(s, pid);
	struct fp_exit how = {FP_EXIT_NONE, 0, false};
	uint64_t m = mono(s, t_ns);

	if (!p)
		return;
	if (t->open) {
		if (is_exit_call(s, t->nr))
			how = (struct fp_exit){FP_EXIT_CODE, (int)(t->arg0 & 0xff), false};
		account(s, p, t, 0, false, t_ns);
	}
	fp__proc_exit(s->fp, p, how, m);
}

void kfq_sink_finish(struct kfq_sink *s)
{
	for (size_t i = 0; i < KFQ_TASK_HASH; i++)
		for (struct kfq_task *t = s->hash[i]; t; t = t->next)
			if (t->open)
				account(s, proc(s, t->proc, s->t_last), t, 0, false, s->t_last);
	s->fp->elapsed_s = (double)s->t_last / 1e9;
}

uint64_t kfq_sink_events(const struct kfq_sink *s)
{
	return s->events;
}

void kfq_sink_free(struct kfq_sink *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < KFQ_TASK_HASH; i++)
		for (struct kfq_task *t = s->hash[i], *n; t; t = n) {
			n = t->next;
			free(t);
		}
	free(s);
}
