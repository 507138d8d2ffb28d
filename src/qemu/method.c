// SPDX-License-Identifier: GPL-2.0
/* kfq_run: the guest under QEMU with the method chosen, into a footprint. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "qemu/qemu.h"
#include "qemu/qemu_int.h"
#include "util/error.h"

volatile sig_atomic_t kfq_stop;

static void tp_line(void *ctx, const char *line)
{
	debug("console: %s", line);
	kfq_tp_line(ctx, line);
}

/* Why the guest gave nothing, in one line; -1. */
static int no_boot(const struct kfq_opts *o, const struct kfq_qemu *q, const char *last_words)
{
	const char *said = kfq_qemu_said(q);

	if (q->reaped && WIFEXITED(q->status) && WEXITSTATUS(q->status) != 0)
		return error("qemu: '%s': QEMU cannot boot it: %s", o->kernel,
			     *said ? said : "QEMU failed without a message");
	if (last_words)
		return error("qemu: '%s': the guest stopped before any syscall: %s", o->kernel, last_words);
	return error("qemu: '%s': no syscall on the console%s: the kernel has no syscall tracepoints "
		     "(CONFIG_FTRACE_SYSCALLS), or init never ran (try --method gdb, or a longer -d)",
		     o->kernel, q->timed_out ? " before -d ran out" : "");
}

static int run_tracepoint(const struct kfq_opts *o, struct footprint *fp, enum kf_abi abi)
{
	struct kfq_qemu q;
	struct kfq_sink *sink;
	struct kfq_tp *tp;
	int rc = 0;

	if (kfq_qemu_start(&q, o, kfq_tp_cmdline, NULL) < 0)
		return -1;
	sink = kfq_sink_new(fp, abi);
	tp = kfq_tp_new(sink, fp);
	if (kfq_qemu_console(&q, o->duration, &kfq_stop, tp_line, tp) < 0)
		rc = -1;
	kfq_sink_finish(sink);
	if (!rc && !fp__total_calls(fp))
		rc = no_boot(o, &q, kfq_tp_last_words(tp));
	if (!rc && q.timed_out)
		fp__set_incomplete(fp, "duration");
	if (!rc && q.interrupted)
		fp__set_incomplete(fp, "interrupted");
	if (!rc && kfq_tp_last_words(tp))
		warning("qemu: the guest said: %s", kfq_tp_last_words(tp));
	kfq_tp_free(tp);
	kfq_sink_free(sink);
	kfq_qemu_release(&q);
	return rc;
}

int kfq_run(const struct kfq_opts *o, struct footprint *fp)
{
	enum kf_abi abi;

	/* the guest's ABI is its architecture's native one, by the descriptor's name */
	if (kf_abi_parse(o->arch, &abi) < 0)
		return error("qemu: --arch '%s': no ABI of that name", o->arch);
	if (kfq_check(o) < 0)
		return -1;
	if (o->method == KFQ_GDB)
		return kfq_run_gdb(o, fp, abi);
	return run_tracepoint(o, fp, abi);
}
