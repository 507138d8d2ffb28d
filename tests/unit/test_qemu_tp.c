// SPDX-License-Identifier: GPL-2.0
/* kfootprint qemu's tracepoint reader: console lines as the 6.1 kernel prints them, into a footprint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "footprint/footprint.h"
#include "qemu/qemu.h"

static struct footprint *read_lines(const char *const *lines)
{
	struct footprint *fp = fp__new();
	struct kfq_sink *sink;
	struct kfq_tp *tp;

	fp__start(fp);
	sink = kfq_sink_new(fp, KF_ABI_X86_64);
	tp = kfq_tp_new(sink, fp);
	for (; *lines; lines++)
		kfq_tp_line(tp, *lines);
	kfq_sink_finish(sink);
	kfq_tp_free(tp);
	kfq_sink_free(sink);
	return fp;
}

static uint64_t calls(struct footprint *fp, pid_t pid, int nr, uint64_t *errors)
{
	struct fp_proc *p = NULL;

	for (size_t i = 0; i < fp->nprocs; i++)
		if (fp->procs[i]->pid == pid)
			p = fp->procs[i];
	assert_non_null(p);
	struct fp_sysstat *s = fp_sctab_find(&p->syscalls, KF_ABI_X86_64, nr);

	if (errors)
		*errors = s ? s->errors : 0;
	return s ? s->calls : 0;
}

/* PID 1 execs, forks a child that writes, fails an open and exits 3; a kernel thread's events are not theirs. */
static void test_tree_and_calls(void **state)
{
	static const char *const lines[] = {
	    "[    0.681435] sched_process_fork: comm=swapper/0 pid=0 child_comm=swapper/0 child_pid=1",
	    "[    0.700000] sched_process_fork: comm=kthreadd pid=2 child_comm=kthreadd child_pid=69",
	    "[    1.000000] sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> "
	    "next_comm=swapper/0 next_pid=1 next_prio=120",
	    "[    1.100000] sched_process_exec: filename=/init pid=1 old_pid=1",
	    "[    1.100100] sys_exit: NR 59 = 0", /* the kernel's execve of init: no entry, ignored */
	    "[    1.200000] sys_enter: NR 39 (0, 0, 0, 0, 27, 0)",
	    "[    1.200010] sys_exit: NR 39 = 1",
	    "[    1.300000] sys_enter: NR 56 (1200011, 0, 0, 0, 0, 0)",
	    "[    1.300100] sched_process_fork: comm=init pid=1 child_comm=init child_pid=70",
	    "[    1.300200] sys_exit: NR 56 = 70",
	    "[    1.300300] sched_switch: prev_comm=init prev_pid=1 prev_prio=120 prev_state=S ==> "
	    "next_comm=init next_pid=70 next_prio=120",
	    "[    1.300400] sys_exit: NR 56 = 0", /* the child's return from clone: no entry, ignored */
	    "hello from the child[    1.400000] sys_enter: NR 1 (1, 4000, 5, 0, 0, 0)",
	    "[    1.400100] sys_exit: NR 1 = 5",
	    "[    1.500000] sys_enter: NR 257 (ffffffffffffff9c, 402000, 0, 0, 3f, 0)",
	    "[    1.500200] sys_exit: NR 257 = -2",
	    "[    1.600000] sys_enter: NR 231 (3, 0, 0, 0, 0, 0)",
	    "[    1.600100] sched_process_exit: comm=init pid=70 prio=120",
	    "[    1.600200] sched_switch: prev_comm=init prev_pid=70 prev_prio=120 prev_state=X ==> "
	    "next_comm=kworker/0:1 next_pid=69 next_prio=120",
	    "[    1.600300] sched_switch: prev_comm=kworker/0:1 prev_pid=69 prev_prio=120 prev_state=I ==> "
	    "next_comm=init next_pid=1 next_prio=120",
	    "[    1.700000] sys_enter: NR 169 (fee1dead, 28121969, 4321fedc, 0, 3f, 0)",
	    "** 5 printk messages dropped **",
	    NULL,
	};
	struct footprint *fp = read_lines(lines);
	struct fp_proc *child;
	uint64_t err;

	(void)state;
	assert_int_equal(fp->nprocs, 2);
	assert_int_equal(fp->procs[0]->pid, 1);
	assert_string_equal(fp->procs[0]->exe, "/init");
	assert_string_equal(fp->procs[0]->comm, "init");
	child = fp->procs[1];
	assert_int_equal(child->pid, 70);
	assert_int_equal(child->ppid, 1);
	assert_int_equal(child->exit.kind, FP_EXIT_CODE);
	assert_int_equal(child->exit.value, 3);
	assert_int_equal(calls(fp, 1, 39, NULL), 1);
	assert_int_equal(calls(fp, 1, 56, NULL), 1);
	assert_int_equal(calls(fp, 1, 59, NULL), 0);
	assert_int_equal(calls(fp, 1, 169, NULL), 1);
	assert_int_equal(calls(fp, 70, 1, NULL), 1);
	assert_int_equal(calls(fp, 70, 56, NULL), 0);
	assert_int_equal(calls(fp, 70, 257, &err), 1);
	assert_int_equal(err, 1);
	assert_int_equal(calls(fp, 70, 231, NULL), 1);
	assert_int_equal(fp__total_calls(fp), 6);
	assert_int_equal(fp->lost_events, 5);
	/* the write's time, from printk's stamps */
	assert_int_equal(fp_sctab_find(&fp->syscalls, KF_ABI_X86_64, 1)->time_ns, 100000);
	assert_true(fp->elapsed_s > 1.69 && fp->elapsed_s < 1.71);
	fp__free(fp);
}

/* Lines cut short, a task never switched in, numbers out of range: nothing counted, nothing crashes. */
static void test_garbage(void **state)
{
	static const char *const lines[] = {
	    "[    1.000000] sys_enter: NR 39 (0, 0, 0, 0, 27, 0)", /* no task switched in yet */
	    "[    1.0",
	    "] sys_enter: NR ",
	    "[    1.100000] sched_switch: prev_pid=0 ==> next_pid=99999999999",
	    "[    1.100000] sched_process_exec: filename=/x",
	    "[    1.100000] sched_process_fork: comm=a pid=-5 child_comm=b child_pid=7",
	    "** x printk messages dropped **",
	    "",
	    NULL,
	};
	struct footprint *fp = read_lines(lines);

	(void)state;
	assert_int_equal(fp->nprocs, 0);
	assert_int_equal(fp__total_calls(fp), 0);
	fp__free(fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tree_and_calls),
	    cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
