// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint method's reader. The kernel enables the events at boot (trace_event=) and, with tp_printk,
 * prints each one on the console as it happens, with printk's timestamp:
 *
 *   [   11.968013] sys_enter: NR 39 (0, 0, 0, 0, 27, 0)
 *   [   11.975943] sys_exit: NR 39 = 1
 *   [   12.006810] sched_switch: prev_comm=rcu_preempt prev_pid=15 ... ==> next_comm=init next_pid=1 next_prio=120
 *
 * tp_printk prints an event's fields only, not the task that made it: sched_switch says who runs next, and the
 * guest has one CPU, so every event belongs to the task that last switched in. A console line may follow what a
 * task wrote to the console without a newline: an event is found anywhere in its line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu/qemu.h"
#include "util/xalloc.h"

const char kfq_tp_cmdline[] = "loglevel=5 tp_printk trace_buf_size=64k "
			      "trace_event=raw_syscalls:sys_enter,raw_syscalls:sys_exit,sched:sched_switch,"
			      "sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit";

struct kfq_tp {
	struct kfq_sink *sink;
	struct footprint *fp;
	pid_t current; /* the task the last sched_switch switched to */
	char *last_words;
};

struct kfq_tp *kfq_tp_new(struct kfq_sink *sink, struct footprint *fp)
{
	struct kfq_tp *tp = xcalloc(1, sizeof(*tp));

	tp->sink = sink;
	tp->fp = fp;
	return tp;
}

/* "[   11.968013] " before the event at ev: its time in ns; 0 when there is none. */
static uint64_t stamp(const char *line, const char *ev)
{
	const char *open = NULL;
	unsigned long sec, usec;

	for (const char *c = ev; c > line; c--)
		if (c[-1] == '[') {
			open = c;
			break;
		}
	if (!open || sscanf(open, "%lu.%lu]", &sec, &usec) != 2)
		return 0;
	return (uint64_t)sec * 1000000000ull + (uint64_t)usec * 1000ull;
}

/* The value after "key=" in s, as a pid. */
static int field_pid(const char *s, const char *key, pid_t *out)
{
	const char *f = strstr(s, key);
	long v;

	if (!f || sscanf(f + strlen(key), "%ld", &v) != 1 || v < 0 || v > 1 << 22)
		return -1;
	*out = (pid_t)v;
	return 0;
}

void kfq_tp_line(struct kfq_tp *tp, const char *line)
{
	const char *ev;
	long nr, ret;
	unsigned long long a0;
	pid_t a, b;
	unsigned long dropped;

	if ((ev = strstr(line, "] sys_enter: NR "))) {
		if (sscanf(ev + 16, "%ld (%llx", &nr, &a0) == 2 && tp->current > 0)
			kfq_sink_enter(tp->sink, tp->current, tp->current, nr, a0, stamp(line, ev + 1));
	} else if ((ev = strstr(line, "] sys_exit: NR "))) {
		if (sscanf(ev + 15, "%ld = %ld", &nr, &ret) == 2 && tp->current > 0)
			kfq_sink_exit(tp->sink, tp->current, tp->current, nr, ret, stamp(line, ev + 1));
	} else if ((ev = strstr(line, "] sched_switch: "))) {
		if (!field_pid(strstr(ev, "==>") ? strstr(ev, "==>") : ev, "next_pid=", &a))
			tp->current = a;
	} else if ((ev = strstr(line, "] sched_process_fork: "))) {
		if (!field_pid(ev, " pid=", &a) && !field_pid(ev, "child_pid=", &b))
			kfq_sink_fork(tp->sink, a, b, stamp(line, ev + 1));
	} else if ((ev = strstr(line, "] sched_process_exec: filename="))) {
		const char *f = ev + 31, *end = strstr(f, " pid=");

		if (end && !field_pid(end, " pid=", &a)) {
			char *name = xstrndup(f, (size_t)(end - f));

			kfq_sink_exec(tp->sink, a, name, stamp(line, ev + 1));
			free(name);
		}
	} else if ((ev = strstr(line, "] sched_process_exit: "))) {
		if (!field_pid(ev, " pid=", &a))
			kfq_sink_task_exit(tp->sink, a, stamp(line, ev + 1));
	} else if ((ev = strstr(line, "** ")) && sscanf(ev, "** %lu printk messages dropped **", &dropped) == 1) {
		/* the console fell behind and printk's ring overwrote events */
		fp__lost(tp->fp, dropped);
	} else if (!tp->last_words && (strstr(line, "Kernel panic") || strstr(line, "BUG: ") || strstr(line, "Oops"))) {
		const char *m = strstr(line, "] ");

		tp->last_words = xstrdup(m ? m + 2 : line);
	}
}

const char *kfq_tp_last_words(const struct kfq_tp *tp)
{
	return tp->last_words;
}

void kfq_tp_free(struct kfq_tp *tp)
{
	if (!tp)
		return;
	free(tp->last_words);
	free(tp);
}
