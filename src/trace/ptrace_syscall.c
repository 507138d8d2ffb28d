// SPDX-License-Identifier: GPL-2.0
/*
 * Syscall-entry and syscall-exit stops. PTRACE_GET_SYSCALL_INFO tells which of the two a stop is and the
 * audit arch of the call, so a 32-bit `int 0x80` call of a 64-bit process is named from the i386 table.
 * A call is remembered at entry and accounted once: at its exit, or as never returning when the task dies
 * or execs away in it, or when we detach from it mid-call.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>

#include "trace/ptrace_int.h"

/* Kernel-internal restart codes (include/linux/errno.h), seen by tracers on syscall exit. */
#define ERESTARTSYS	      512
#define ERESTART_RESTARTBLOCK 516

/* The call a -p task was in at attach, accounted as made (err: its result, when it had returned). */
static void account_at_attach(struct pt_state *st, struct pt_task *t, int abi, int nr, int err)
{
	fp__account(st->fp, t->group ? t->group->proc : NULL, (enum kf_abi)abi, nr, err, 1, 0);
	fp__at_attach(st->fp, (enum kf_abi)abi, nr, 1);
}

void pt_syscall_attach_stop(struct pt_state *st, struct pt_task *t)
{
	t->seized = false;
#if defined(__x86_64__)
	struct __ptrace_syscall_info info;
	struct user_regs_struct regs;
	const struct kf_syscall *rs;
	uint64_t nr;
	long ret;
	int abi;

	if (ptrace(PTRACE_GETREGS, t->tid, NULL, &regs) < 0 ||
	    ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(info), &info) < 0)
		return;
	/* orig_rax is -1 after any entry but a syscall's: the interrupt then found it in user space */
	nr = regs.orig_rax;
	ret = (long)regs.rax;
	if ((long)nr < 0 || (abi = kf_abi_of_call(info.arch, &nr)) < 0)
		return;
	if (ret >= -ERESTART_RESTARTBLOCK && ret <= -ERESTARTSYS) {
		/* cut by our interrupt: the kernel restarts it, as restart_syscall after ERESTART_RESTARTBLOCK */
		rs = ret == -ERESTART_RESTARTBLOCK ? kf_syscall_by_name((enum kf_abi)abi, "restart_syscall") : NULL;
		t->resume = true;
		t->resume_abi = (uint8_t)abi;
		t->resume_nr = (int)nr;
		t->resume_via = rs ? rs->nr : (int)nr;
		return;
	}
	account_at_attach(st, t, abi, (int)nr, ret < 0 && ret >= -4095 ? (int)-ret : 0);
#else
	(void)st;
#endif
}

static void on_entry(struct pt_state *st, struct pt_task *t, const struct __ptrace_syscall_info *info)
{
	uint64_t nr = info->entry.nr;
	int abi = kf_abi_of_call(info->arch, &nr);
	const struct kf_syscall *row;
	bool restart = false;

	if (t->in_call) /* an entry without the exit of the one before: cannot happen, but never lose a count */
		pt_syscall_abandon(st, t);
	if (t->resume) {
		/* the restart of the call it was in at attach, or (a handler ran first) that call ended unseen */
		t->resume = false;
		restart = abi == t->resume_abi && (int)nr == t->resume_via;
		if (!restart)
			account_at_attach(st, t, t->resume_abi, t->resume_nr, 0);
		else
			nr = (uint64_t)t->resume_nr;
	}
	if (abi < 0) {
		fp__lost(st->fp, 1);
		return;
	}
	row = kf_syscall_by_nr((enum kf_abi)abi, (long)nr);
	if (t->hidden) {
		/* Our child's own calls between fork and the workload's execve are not the workload's. */
		if (!row || !(row->flags & KF_SC_EXEC))
			return;
		t->hidden = false;
	}
	t->in_call = true;
	t->entered = true;
	t->at_attach = restart;
	t->abi = (uint8_t)abi;
	t->nr = (int)nr;
	memcpy(t->args, info->entry.args, sizeof(t->args));
	t->t_enter = fp__now_ns();
	t->is_open = false;
	t->takes_path = row && (row->flags & KF_SC_PATH);
	t->path_arg = t->takes_path ? row->path_arg : -1;
	if (row && (row->flags & KF_SC_OPEN))
		pt_open_enter(t, row);
	t->row = row;
	if (st->reach)
		pt_reach_enter(st, t, row);
	t->strs_ok = 0;
	if (st->opts->log && row) /* the log shows every path argument, read now, before the call changes it */
		for (int i = 0; i < 6; i++)
			if ((row->path_args & (1u << i)) && pt_read_string(t->tid, t->args[i], &t->strs[i]) == 0)
				t->strs_ok |= (uint8_t)(1u << i);
}

static struct kf_logcall log_call(const struct pt_task *t)
{
	struct kf_logcall c = {
	    .tid = t->tid, .abi = (enum kf_abi)t->abi, .nr = t->nr, .args = t->args, .t_enter = t->t_enter};

	for (int i = 0; i < 6; i++)
		c.strs[i] = (t->strs_ok & (1u << i)) ? t->strs[i] : NULL;
	return c;
}

/*
 * Which process and path a failure came from. Only an open's path is read at entry (its files list needs every
 * one); other path calls are read here, for failures only: a failed call left its argument string as it was,
 * and successful stat calls, most of them, cost no read.
 */
static void error_source(struct pt_state *st, struct pt_task *t, const struct fp_proc *p, int err)
{
	const char *path = NULL;

	if (t->is_open)
		path = t->path_ok ? t->path : NULL;
	else if (t->takes_path && t->path_arg >= 0 && pt_read_path(t, t->args[t->path_arg]) == 0)
		path = t->path;
	fp__error_source(st->fp, p, (enum kf_abi)t->abi, t->nr, err, path, 1);
}

static void on_exit(struct pt_state *st, struct pt_task *t, const struct __ptrace_syscall_info *info)
{
	struct fp_proc *p = t->group ? t->group->proc : NULL;
	int err = info->exit.is_error ? (int)-info->exit.rval : 0;

	if (!t->in_call) /* attached mid-call, or our own set-up: only entered calls count */
		return;
	/*
	 * Our PTRACE_INTERRUPT before detaching cut this call: the kernel restarts it once we are gone, so it
	 * has not failed; count it as entered and unfinished.
	 */
	if (t->detaching && err >= ERESTARTSYS && err <= ERESTART_RESTARTBLOCK) {
		pt_syscall_abandon(st, t);
		return;
	}
	t->in_call = false;
	fp__account(st->fp, p, (enum kf_abi)t->abi, t->nr, err, 1, t->at_attach ? 0 : fp__now_ns() - t->t_enter);
	if (t->at_attach)
		fp__at_attach(st->fp, (enum kf_abi)t->abi, t->nr, 1);
	t->at_attach = false;
	if (st->cpu >= 0 && !err && (t->nr == st->getaffinity_nr[t->abi] || t->nr == st->setaffinity_nr[t->abi]))
		pt_cpu_affinity_exit(st, t, info->exit.rval);
	if (t->is_open && t->path_ok)
		fp__open(st->fp, p, t->path, t->oflags, err, 1);
	t->reached[0] = '\0';
	if (st->reach)
		pt_reach_exit(st, t, p, err, info->exit.rval);
	if (err)
		error_source(st, t, p, err);
	if (st->opts->stops) /* --call-sites: the task is still stopped in the call, its user stack as it made it */
		trace_recording_syscall_exit(st->opts->stops, t->tid, t->group ? t->group->tgid : t->tid,
					     (enum kf_abi)t->abi, t->nr, err, t->reached);
	if (st->opts->log) {
		struct kf_logcall c = log_call(t);

		kf_log_call(&st->log, &c, info->exit.rval, info->exit.is_error);
	}
}

int pt_syscall_stop(struct pt_state *st, struct pt_task *t)
{
	struct __ptrace_syscall_info info;

	if (ptrace(PTRACE_GET_SYSCALL_INFO, t->tid, (void *)sizeof(info), &info) < 0)
		return -1; /* killed meanwhile: its exit status follows */
	if (info.op == PTRACE_SYSCALL_INFO_ENTRY)
		on_entry(st, t, &info);
	else if (info.op == PTRACE_SYSCALL_INFO_EXIT)
		on_exit(st, t, &info);
	return 0;
}

void pt_syscall_abandon(struct pt_state *st, struct pt_task *t)
{
	if (t->resume) { /* never restarted: gone, or detached, in the call it was in at attach */
		t->resume = false;
		account_at_attach(st, t, t->resume_abi, t->resume_nr, 0);
	}
	if (!t->in_call)
		return;
	t->in_call = false;
	fp__account(st->fp, t->group ? t->group->proc : NULL, (enum kf_abi)t->abi, t->nr, 0, 1,
		    t->at_attach ? 0 : fp__now_ns() - t->t_enter);
	if (t->at_attach)
		fp__at_attach(st->fp, (enum kf_abi)t->abi, t->nr, 1);
	t->at_attach = false;
	if (st->opts->log) {
		struct kf_logcall c = log_call(t);

		kf_log_noreturn(&st->log, &c);
	}
}

/* "Seccomp:" of /proc/TID/status: 3 (SECCOMP_MODE_DEAD) once a filter killed the task. */
static bool seccomp_dead(pid_t tid)
{
	char path[64], line[128];
	bool dead = false;
	int mode;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Seccomp:", 8)) {
			dead = sscanf(line + 8, "%d", &mode) == 1 && mode == 3;
			break;
		}
	fclose(f);
	return dead;
}

void pt_seccomp_exit(struct pt_state *st, struct pt_task *t)
{
	unsigned long status;

	/*
	 * A filter's kill is SIGSYS without a signal-delivery stop (the kernel forces it past the tracer), or
	 * no signal at all for one thread of several; the entry stop before it named the call. Only a task
	 * dying of SIGSYS is looked at twice.
	 */
	if (!t->entered || ptrace(PTRACE_GETEVENTMSG, t->tid, NULL, &status) < 0)
		return;
	if ((status & 0x7f) != SIGSYS || !seccomp_dead(t->tid))
		return;
	fp__seccomp_kill(st->fp, t->group ? t->group->proc : NULL, (enum kf_abi)t->abi, t->nr, 1);
}
