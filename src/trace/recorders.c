// SPDX-License-Identifier: GPL-2.0
/* The recorders of other kinds of observation beside a backend, started and ended the same way (trace.h). */
#include "trace/trace.h"

/* trace_start_command()'s hook: every recorder follows the held command from its pid, then records. */
static int on_command(void *ctx, pid_t pid)
{
	struct trace_recording *rec = ctx;

	for (size_t i = 0; i < rec->n; i++)
		if (rec->rows[i]->add_pid(rec->state[i], pid, false) < 0 || rec->rows[i]->start(rec->state[i]) < 0)
			return -1;
	return 0;
}

int trace_recording_add(struct trace_recording *rec, const struct trace_recorder *r, const void *ropts,
			struct trace_opts *o, struct footprint *fp)
{
	void *s;

	if (rec->n == TRACE_RECORDERS_MAX)
		return -1;
	s = r->new (ropts, fp);
	rec->rows[rec->n] = r;
	rec->state[rec->n++] = s;
	if (r->syscall_exit || r->task_new || r->task_exit || r->before_exec)
		o->stops = rec;
	if (r->bpf_ready)
		o->joins = rec;
	if (o->argv) {
		o->on_command = on_command;
		o->on_command_ctx = rec;
		return 0;
	}
	for (size_t i = 0; i < o->npids; i++)
		r->add_pid(s, o->pids[i], true);
	r->start(s);
	return 0;
}

void trace_recording_syscall_exit(const struct trace_recording *rec, pid_t tid, pid_t tgid, enum kf_abi abi, int nr,
				  int err, const char *reached)
{
	for (size_t i = 0; i < rec->n; i++)
		if (rec->rows[i]->syscall_exit)
			rec->rows[i]->syscall_exit(rec->state[i], tid, tgid, abi, nr, err, reached);
}

void trace_recording_task_new(const struct trace_recording *rec, pid_t tid, pid_t tgid)
{
	for (size_t i = 0; rec && i < rec->n; i++)
		if (rec->rows[i]->task_new)
			rec->rows[i]->task_new(rec->state[i], tid, tgid);
}

void trace_recording_task_exit(const struct trace_recording *rec, pid_t tid, pid_t tgid)
{
	for (size_t i = 0; rec && i < rec->n; i++)
		if (rec->rows[i]->task_exit)
			rec->rows[i]->task_exit(rec->state[i], tid, tgid);
}

void trace_recording_before_exec(const struct trace_recording *rec)
{
	for (size_t i = 0; rec && i < rec->n; i++)
		if (rec->rows[i]->before_exec)
			rec->rows[i]->before_exec(rec->state[i]);
}

bool trace_recording_joins_bpf(const struct trace_recording *rec)
{
	for (size_t i = 0; rec && i < rec->n; i++)
		if (rec->rows[i]->joins_bpf && rec->rows[i]->joins_bpf(rec->state[i]))
			return true;
	return false;
}

void trace_recording_bpf_ready(const struct trace_recording *rec, const struct trace_bpf_shared *shared)
{
	for (size_t i = 0; rec && i < rec->n; i++)
		if (rec->rows[i]->bpf_ready)
			rec->rows[i]->bpf_ready(rec->state[i], shared);
}

void trace_recording_finish(struct trace_recording *rec, struct footprint *fp)
{
	for (size_t i = 0; i < rec->n; i++)
		rec->rows[i]->finish(rec->state[i], fp);
	rec->n = 0;
}
