// SPDX-License-Identifier: GPL-2.0
/*
 * Where the tracer runs. Every syscall of a traced task is two stops, and each stop switches from the
 * tracee to the tracer and back. Left to itself the scheduler puts the woken tracee on the idle CPU
 * (the tracer's is busy at that moment), so on a 2-vCPU VM each stop becomes a wake-up of a halted vCPU
 * in each direction, which costs far more than the stop itself. Pinning only the tracer does not change
 * that: the tracee still goes to the idle CPU. So a started command and the tracer share one CPU, as long
 * as the command runs at most PT_PIN_MAX_TASKS tasks at a time (a shell and its current child, a compiler
 * driver and its pass): beyond that, its processes could run in parallel, and one CPU would serialise them
 * behind the tracer, so every task gets its mask back and the tracer leaves its CPU (pt_cpu_release).
 *
 * The command must not notice: its descendants' thread pools (nproc, Go, xz -T0, sort --parallel) are
 * sized from sched_getaffinity, so that call's result is rewritten to the mask the command would have had
 * untraced (pt_cpu_fix_affinity). Attached processes (-p) are never moved.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ptrace_int.h"
#include "util/error.h"

int pt_cpu_choose(struct pt_state *st)
{
	st->cpu = st->pinned_cpu = -1;
	if (st->opts->no_pin || st->attach)
		return -1;
	if (sched_getaffinity(0, sizeof(st->saved_mask), &st->saved_mask) < 0)
		return -1;
	/* One CPU already: nothing to gain, and nothing to hide from sched_getaffinity. */
	if (CPU_COUNT(&st->saved_mask) < 2)
		return -1;
	st->cpu = sched_getcpu();
	if (st->cpu < 0 || !CPU_ISSET(st->cpu, &st->saved_mask))
		st->cpu = -1;
	st->pinned_cpu = st->cpu;
	for (int abi = 0; abi < KF_ABI_NR; abi++) {
		const struct kf_syscall *get = kf_syscall_by_name((enum kf_abi)abi, "sched_getaffinity");
		const struct kf_syscall *set = kf_syscall_by_name((enum kf_abi)abi, "sched_setaffinity");

		st->getaffinity_nr[abi] = get ? get->nr : -1;
		st->setaffinity_nr[abi] = set ? set->nr : -1;
	}
	return st->cpu;
}

int pt_cpu_pin(int cpu)
{
	cpu_set_t one;

	if (cpu < 0)
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one);
}

void pt_cpu_pin_tracer(struct pt_state *st)
{
	if (st->cpu < 0)
		return;
	if (pt_cpu_pin(st->cpu) < 0) {
		debug("cannot pin the tracer to CPU %d", st->cpu);
		return;
	}
	st->pinned = true;
	debug("tracer and command pinned to CPU %d", st->cpu);
}

/* The mask of a task that still has only our CPU in it goes back to the command's own. */
static void restore_task(const struct pt_state *st, pid_t tid)
{
	cpu_set_t got, one;

	CPU_ZERO(&one);
	CPU_SET(st->pinned_cpu, &one);
	if (sched_getaffinity(tid, sizeof(got), &got) == 0 && CPU_EQUAL(&got, &one))
		sched_setaffinity(tid, sizeof(st->saved_mask), &st->saved_mask);
}

static void restore_each(struct pt_state *st, struct pt_task *t)
{
	if (!t->own_affinity)
		restore_task(st, t->tid);
}

void pt_cpu_new_task(struct pt_state *st, struct pt_task *t)
{
	if (st->cpu >= 0 && st->ntasks > PT_PIN_MAX_TASKS) {
		debug("%u tasks: the command gets its CPUs back, the tracer leaves CPU %d", st->ntasks, st->cpu);
		st->cpu = -1;
		pt_tasks_each(st, restore_each);
		pt_cpu_unpin(st);
	} else if (st->cpu < 0 && st->pinned_cpu >= 0 && !t->own_affinity) {
		/* created by a pinned task before the release, and met only now */
		restore_task(st, t->tid);
	}
}

void pt_cpu_unpin(struct pt_state *st)
{
	if (st->pinned)
		sched_setaffinity(0, sizeof(st->saved_mask), &st->saved_mask);
	st->pinned = false;
}

void pt_cpu_affinity_exit(struct pt_state *st, struct pt_task *t, int64_t ret)
{
	size_t n = ret > (int64_t)sizeof(cpu_set_t) ? sizeof(cpu_set_t) : (size_t)ret;
	cpu_set_t got, one;

	if (t->nr == st->setaffinity_nr[t->abi]) {
		/* A task that chose its own mask (taskset, a thread pool pinning workers) sees it as it is. */
		struct pt_task *target = t->args[0] ? pt_task_find(st, (pid_t)t->args[0]) : t;

		if (target)
			target->own_affinity = true;
		return;
	}
	if (t->nr != st->getaffinity_nr[t->abi] || t->own_affinity || !ret)
		return;
	CPU_ZERO(&got);
	CPU_ZERO(&one);
	CPU_SET(st->cpu, &one);
	if (pt_read_mem(t->tid, t->args[2], &got, n) < 0 || !CPU_EQUAL(&got, &one))
		return;
	if (pt_write_mem(t->tid, t->args[2], &st->saved_mask, n) < 0)
		debug("task %d: cannot rewrite its sched_getaffinity result", (int)t->tid);
}
