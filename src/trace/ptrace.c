// SPDX-License-Identifier: GPL-2.0
/*
 * The ptrace backend: starts the command (or seizes running processes), follows every task with
 * PTRACE_O_TRACE{CLONE,FORK,VFORK,EXEC,EXIT}, and turns each stop into footprint events. The wait loop
 * is one waitpid, one PTRACE_GET_SYSCALL_INFO and one restart per stop: no other tracer syscall on the
 * hot path. Signals are passed through exactly (signal-delivery-stop injection) and group-stops are
 * held with PTRACE_LISTEN, so `kill -STOP/-CONT` acts on the workload as it does untraced.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/ptrace_int.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define PT_OPTIONS                                                                                                     \
	(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC | \
	 PTRACE_O_TRACEEXIT)
#define TICK_US 100000 /* how often a blocked wait looks at the clock and the stop flag */

/* Set by SIGALRM: the wait loop checks the deadline and the stop flag. The only state a handler touches. */
static volatile sig_atomic_t pt_tick;

static void on_tick(int sig)
{
	(void)sig;
	pt_tick = 1;
}

static int usable(char *why, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	/* Yama mode 3 forbids every ptrace attach, even by root. */
	if (strbuf_read_file(&sb, "/proc/sys/kernel/yama/ptrace_scope") == 0 && atoi(sb.buf) == 3) {
		snprintf(why, len, "ptrace is disabled (kernel.yama.ptrace_scope = 3)");
		rc = -1;
	}
	strbuf_release(&sb);
	return rc;
}

/* --- resuming and forgetting tasks ------------------------------------------------------------------ */

static void forget_group_if_empty(struct pt_state *st, struct pt_group *g)
{
	if (g && !g->ntasks)
		pt_group_remove(st, g);
}

/* Lets a stopped task run on: to its next syscall stop, in group-stop (listen), or away (detach). */
static void resume(struct pt_state *st, struct pt_task *t, int sig, bool listen)
{
	if (t->detaching) {
		struct pt_group *g = t->group;

		pt_syscall_abandon(st, t);
		/* The signal of a signal-delivery-stop goes with the detach, so the workload still gets it. */
		if (ptrace(PTRACE_DETACH, t->tid, NULL, (void *)(long)sig) < 0 && errno != ESRCH)
			perror_msg("detaching from task %d", (int)t->tid);
		pt_task_remove(st, t);
		forget_group_if_empty(st, g);
		return;
	}
	if (ptrace(listen ? PTRACE_LISTEN : PTRACE_SYSCALL, t->tid, NULL, (void *)(long)(listen ? 0 : sig)) < 0 &&
	    errno != ESRCH)
		perror_msg("resuming task %d", (int)t->tid);
}

static bool detach_mode(const struct pt_state *st)
{
	return st->attach || st->opts->keep_running;
}

/* --- events ----------------------------------------------------------------------------------------- */

static struct fp_exit exit_of(int status)
{
	struct fp_exit how = {FP_EXIT_NONE, 0, false};

	if (WIFEXITED(status)) {
		how.kind = FP_EXIT_CODE;
		how.value = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		how.kind = FP_EXIT_SIGNAL;
		how.value = WTERMSIG(status);
		how.core = WCOREDUMP(status);
	}
	return how;
}

static void task_died(struct pt_state *st, struct pt_task *t, int status)
{
	struct pt_group *g = t->group;
	struct fp_exit how = exit_of(status);
	bool leader = g && t->tid == g->tgid;

	pt_syscall_abandon(st, t); /* killed in a call: it was entered, so it counts */
	if (st->opts->log)
		kf_log_exit(&st->log, t->tid, how);
	if (t->unannounced) { /* a short life: the fork event that created it is still queued */
		st->early_dead[st->nearly_dead % (sizeof(st->early_dead) / sizeof(st->early_dead[0]))] = t->tid;
		st->nearly_dead++;
	}
	pt_task_remove(st, t);
	if (!g)
		return;
	/* The leader's status is reported last and carries the group's exit code (exit_group, fatal signal). */
	if ((leader || !g->ntasks) && g->proc->live) {
		fp__proc_exit(st->fp, g->proc, how, fp__now_ns());
		if (g->proc == st->fp_root)
			st->fp->exit = how;
	}
	forget_group_if_empty(st, g);
}

/* The clone flags of the fork-like call t is in: clone's first argument, or clone3's clone_args.flags. */
static uint64_t clone_flags(const struct pt_task *t)
{
	const struct kf_syscall *row = t->in_call ? kf_syscall_by_nr((enum kf_abi)t->abi, t->nr) : NULL;
	uint64_t flags = 0;

	if (!row)
		return 0;
	if (!strcmp(row->name, "clone"))
		return t->args[0];
	if (!strcmp(row->name, "clone3") && pt_read_mem(t->tid, t->args[0], &flags, sizeof(flags)) == 0)
		return flags;
	return 0;
}

static void copy_image(struct fp_proc *to, const struct fp_proc *from)
{
	size_t n = 0;
	char **argv;

	memcpy(to->comm, from->comm, sizeof(to->comm));
	if (from->exe)
		to->exe = xstrdup(from->exe);
	if (!from->argv)
		return;
	while (from->argv[n])
		n++;
	argv = xcalloc(n + 1, sizeof(*argv));
	for (size_t i = 0; i < n; i++)
		argv[i] = xstrdup(from->argv[i]);
	fp__proc_set_argv(to, argv);
}

/* A new thread group: a footprint process that starts with its creator's image (fork copies it). */
static struct pt_group *new_group(struct pt_state *st, pid_t tgid, pid_t ppid)
{
	struct fp_proc *p = fp__proc_new(st->fp, tgid, ppid, fp__now_ns());
	struct pt_group *parent = pt_group_find(st, ppid);

	if (parent)
		copy_image(p, parent->proc);
	if (st->end.killed)
		kill(tgid, SIGKILL);
	return pt_group_add(st, tgid, p);
}

/* A task we know nothing of yet: its group from /proc, once per task, off the per-call path. */
static struct pt_task *new_task(struct pt_state *st, pid_t tid, pid_t tgid, pid_t ppid)
{
	struct pt_group *g;
	struct pt_task *t;

	if (tgid == tid) {
		g = new_group(st, tid, ppid);
	} else {
		g = pt_group_find(st, tgid);
		if (!g) /* a thread of a group we have not met: cannot happen with TRACECLONE, but stay whole */
			g = new_group(st, tgid, ppid);
		else
			g->proc->threads++;
	}
	t = pt_task_add(st, tid, g);
	t->detaching = st->end.ending && detach_mode(st);
	t->born = st->opts->stops != NULL;
	return t;
}

/* Whether tid is a task that ended before its creator's fork event came (and forgets it). */
static bool died_unannounced(struct pt_state *st, pid_t tid)
{
	uint32_t n = st->nearly_dead < sizeof(st->early_dead) / sizeof(st->early_dead[0])
			 ? st->nearly_dead
			 : sizeof(st->early_dead) / sizeof(st->early_dead[0]);

	for (uint32_t i = 0; i < n; i++) {
		if (st->early_dead[i] == tid) {
			st->early_dead[i] = 0;
			return true;
		}
	}
	return false;
}

static void on_fork(struct pt_state *st, struct pt_task *t)
{
	unsigned long msg = 0;
	struct pt_task *nt;
	uint64_t flags;
	pid_t tid;

	if (ptrace(PTRACE_GETEVENTMSG, t->tid, NULL, &msg) < 0 || !t->group)
		return;
	tid = (pid_t)msg;
	nt = pt_task_find(st, tid);
	if (nt)
		nt->unannounced = false;
	if (!nt && died_unannounced(st, tid))
		return; /* its first stop came first, and it lived and died before this event was read */
	if (!nt) {	/* else its first stop came first, and registered it */
		flags = clone_flags(t);
		if (flags & CLONE_THREAD)
			nt = new_task(st, tid, t->group->tgid, t->group->proc->ppid);
		else /* CLONE_PARENT makes the new process a sibling of its creator */
			nt = new_task(st, tid, tid, (flags & CLONE_PARENT) ? t->group->proc->ppid : t->group->tgid);
	}
	nt->own_affinity = t->own_affinity; /* the CPU mask is inherited */
	pt_cpu_new_task(st, nt);
}

/*
 * PTRACE_EVENT_EXEC arrives with the thread-group id. When a non-leader thread exec'd, it has taken the
 * leader's tid: the old leader is gone without a death report, and the exec'ing task's state moves over.
 */
static struct pt_task *on_exec(struct pt_state *st, pid_t tid)
{
	unsigned long former = 0;
	struct pt_task *t = pt_task_find(st, tid);

	if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &former) == 0 && (pid_t)former != tid) {
		struct pt_task *execer = pt_task_find(st, (pid_t)former);

		if (execer) {
			if (t) {
				pt_syscall_abandon(st, t);
				pt_task_remove(st, t);
			}
			pt_task_rekey(st, execer, tid);
			t = execer;
		}
	}
	if (t && t->group) {
		pt_reach_exec(t->group);
		trace_read_proc(t->group->proc);
		fp__proc_exec(st->fp, t->group->proc, NULL, NULL, NULL);
	}
	return t;
}

static bool is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

static void handle(struct pt_state *st, pid_t tid, int status)
{
	struct pt_task *t;
	int sig, event;

	if (WIFSTOPPED(status) && (unsigned)status >> 16 == PTRACE_EVENT_EXEC) {
		t = on_exec(st, tid);
		if (t)
			resume(st, t, 0, false);
		return;
	}
	t = pt_task_find(st, tid);
	if (!t) {
		long tgid, ppid;

		if (!WIFSTOPPED(status))
			return; /* a task we detached from, or our started command after --keep-running */
		/* A new task whose creator's fork event is still queued: /proc says whose it is. */
		tgid = trace_status_field(tid, "Tgid:");
		ppid = trace_status_field(tid, "PPid:");
		t = new_task(st, tid, tgid > 0 ? (pid_t)tgid : tid, ppid > 0 ? (pid_t)ppid : 0);
		t->unannounced = true;
		pt_cpu_new_task(st, t);
	}
	if (WIFEXITED(status) || WIFSIGNALED(status)) {
		task_died(st, t, status);
		return;
	}
	if (!WIFSTOPPED(status))
		return;
	sig = WSTOPSIG(status);
	event = (unsigned)status >> 16;
	if (sig == (SIGTRAP | 0x80)) {
		pt_syscall_stop(st, t);
		resume(st, t, 0, false);
		return;
	}
	/*
	 * event 0 is a signal-delivery-stop: the signal is delivered exactly. PTRACE_EVENT_STOP is a group-stop
	 * (a stop signal: held with PTRACE_LISTEN), our PTRACE_INTERRUPT or a new task's first stop (SIGTRAP).
	 */
	switch (event) {
	case 0: resume(st, t, sig, false); break;
	case PTRACE_EVENT_STOP:
		if (t->born) { /* its first stop: before its first instruction */
			t->born = false;
			trace_recording_task_new(st->opts->stops, t->tid, t->group ? t->group->tgid : t->tid);
		}
		if (t->seized)
			pt_syscall_attach_stop(st, t);
		resume(st, t, 0, is_stop_signal(sig));
		break;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		on_fork(st, t);
		resume(st, t, 0, false);
		break;
	case PTRACE_EVENT_EXIT: /* the call it is in (exit_group, or one a fatal signal cut) never returns */
		trace_recording_task_exit(st->opts->stops, t->tid, t->group ? t->group->tgid : t->tid);
		pt_syscall_abandon(st, t);
		pt_seccomp_exit(st, t);
		resume(st, t, 0, false);
		break;
	default: resume(st, t, 0, false); break;
	}
}

/* --- ending observation ----------------------------------------------------------------------------- */

static void interrupt_task(struct pt_state *st, struct pt_task *t)
{
	(void)st;
	t->detaching = true;
	if (ptrace(PTRACE_INTERRUPT, t->tid, NULL, NULL) < 0 && errno != ESRCH)
		perror_msg("interrupting task %d", (int)t->tid);
}

static void signal_groups(struct pt_state *st, int sig)
{
	for (uint32_t i = 0; i < st->groups_cap; i++)
		for (struct pt_group *g = st->groups[i]; g; g = g->next)
			kill(g->tgid, sig);
}

/* The stop flag or the deadline: contain.c signals a started command's whole workload when its time comes. */
static void check_end(struct pt_state *st)
{
	pt_tick = 0;
	if (st->opts->progress)
		trace_progress(st->opts, st->fp, fp__total_calls(st->fp), st->ngroups, st->fp->lost_events);
	if (trace_end_step(&st->end, st->opts, st->fp) == TRACE_END_DETACH)
		pt_tasks_each(st, interrupt_task);
}

static int arm_tick(bool on)
{
	struct itimerval it = {{0, on ? TICK_US : 0}, {0, on ? TICK_US : 0}};
	struct sigaction sa = {.sa_handler = on ? on_tick : SIG_DFL};

	/* No SA_RESTART: the tick must make a blocked waitpid return. */
	sigemptyset(&sa.sa_mask);
	if (on && sigaction(SIGALRM, &sa, NULL) < 0)
		return perror_msg("sigaction");
	if (setitimer(ITIMER_REAL, &it, NULL) < 0)
		return perror_msg("setitimer");
	if (!on)
		sigaction(SIGALRM, &sa, NULL);
	return 0;
}

static int trace_loop(struct pt_state *st)
{
	while (st->ntasks) {
		int status;
		pid_t tid;

		if (pt_tick || *st->opts->stop)
			check_end(st);
		tid = waitpid(-1, &status, __WALL);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				break;
			return perror_msg("waitpid");
		}
		handle(st, tid, status);
	}
	return 0;
}

/* --- starting a command ----------------------------------------------------------------------------- */

/* In the held child: run on the tracer's CPU (see ptrace_cpu.c). */
static void pin_child(const void *ctx)
{
	int cpu = *(const int *)ctx;

	if (cpu >= 0 && pt_cpu_pin(cpu) < 0)
		debug("cannot pin the command to CPU %d", cpu);
}

/*
 * The child blocks on a pipe until it has been seized, interrupted and set to stop at syscalls, so the
 * workload is traced from the execve on. Its own calls before the execve are hidden from the footprint.
 */
static int start_command(struct pt_state *st)
{
	int go_fd, status;
	struct pt_task *t;
	struct pt_group *g;
	pid_t pid = trace_start_command(st->opts, pin_child, &st->cpu, &go_fd);
	/*
	 * kfootprint's death kills the tracees (EXITKILL) unless a guardian gives them the same end as any other
	 * (contain.h), or --keep-running leaves them running: then the kernel detaches them.
	 */
	long options = PT_OPTIONS;

	if (!st->opts->keep_running && !contain_guarded(st->opts->contain))
		options |= PTRACE_O_EXITKILL;
	if (pid < 0)
		return -1;
	if (ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)options) < 0 ||
	    ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) < 0) {
		perror_msg("ptrace: seizing the command");
		kill(pid, SIGKILL);
		close(go_fd);
		waitpid(pid, &status, 0);
		return -1;
	}
	while (waitpid(pid, &status, __WALL) < 0) {
		if (errno != EINTR) {
			perror_msg("waitpid");
			kill(pid, SIGKILL);
			close(go_fd);
			return -1;
		}
	}
	st->root = pid;
	st->fp_root = fp__proc_new(st->fp, pid, getpid(), fp__now_ns());
	g = pt_group_add(st, pid, st->fp_root);
	t = pt_task_add(st, pid, g);
	t->hidden = true;
	if (WIFSTOPPED(status))
		resume(st, t, 0, false);
	else
		handle(st, pid, status);
	trace_release_command(go_fd);
	return 0;
}

/* --- attaching to running processes ---------------------------------------------------------------- */

/* Why PTRACE_SEIZE said EPERM, when /proc tells: another tracer holds it, or it is a kernel thread. */
static int attach_refused(pid_t pid)
{
	int saved = errno;
	long tracer = trace_status_field(pid, "TracerPid:");
	struct trace_stat st;

	if (tracer > 0) {
		if (trace_read_stat((pid_t)tracer, &st) < 0)
			snprintf(st.comm, sizeof(st.comm), "?");
		return error("-p %d: already traced by %ld (%s)", (int)pid, tracer, st.comm);
	}
	if (trace_read_stat(pid, &st) == 0 && st.kthread)
		return error("-p %d: is a kernel thread (%s)", (int)pid, st.comm);
	errno = saved;
	return perror_msg("ptrace: attaching to process %d", (int)pid);
}

/* Seizes every thread of g not seized yet; returns how many were new, or -1 when none could be. */
static int seize_threads(struct pt_state *st, struct pt_group *g)
{
	char path[64];
	struct dirent *de;
	int added = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)g->tgid);
	d = opendir(path);
	if (!d)
		return perror_msg("'%s'", path);
	while ((de = readdir(d))) {
		pid_t tid = (pid_t)atoi(de->d_name);

		if (tid <= 0 || pt_task_find(st, tid))
			continue;
		if (ptrace(PTRACE_SEIZE, tid, NULL, (void *)(long)PT_OPTIONS) < 0) {
			/* Gone meanwhile, or auto-attached already through a traced sibling's clone. */
			if (errno != ESRCH && errno != EPERM)
				perror_msg("ptrace: seizing task %d", (int)tid);
			if (tid == g->tgid && errno == EPERM && !g->ntasks) {
				closedir(d);
				return attach_refused(tid);
			}
			continue;
		}
		pt_task_add(st, tid, g)->seized = true;
		if (ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) < 0 && errno != ESRCH)
			perror_msg("ptrace: interrupting task %d", (int)tid);
		added++;
	}
	closedir(d);
	return added;
}

static int attach_all(struct pt_state *st)
{
	for (size_t i = 0; i < st->opts->npids; i++) {
		long tgid = trace_status_field(st->opts->pids[i], "Tgid:");
		struct fp_proc *p;
		struct pt_group *g;
		int n;

		if (tgid <= 0)
			return error("process %d: no such process", (int)st->opts->pids[i]);
		if (pt_group_find(st, (pid_t)tgid))
			continue;
		p = fp__proc_new(st->fp, (pid_t)tgid, (pid_t)trace_status_field((pid_t)tgid, "PPid:"), fp__now_ns());
		p->attached = true;
		p->threads = 0;
		trace_read_proc(p);
		g = pt_group_add(st, (pid_t)tgid, p);
		if (!st->fp_root)
			st->fp_root = p;
		/* Threads may be created while we attach: scan until a pass finds none we could seize. */
		while ((n = seize_threads(st, g)) > 0)
			p->threads += (uint32_t)n;
		if (n < 0 && !g->ntasks) {
			pt_group_remove(st, g);
			return -1;
		}
		trace_say_attached(st->opts, (pid_t)tgid);
	}
	return 0;
}

/* A failed start or attach: leave nothing stopped and nothing of ours running. */
static void abort_tracing(struct pt_state *st)
{
	st->end.ending = true;
	if (st->attach)
		pt_tasks_each(st, interrupt_task);
	else
		signal_groups(st, SIGKILL);
	trace_loop(st);
}

static int run(const struct trace_opts *opts, struct footprint *fp)
{
	struct pt_state st = {.opts = opts, .fp = fp, .attach = opts->npids > 0};
	int rc;

	if (opts->log)
		kf_log_init(&st.log, opts);
	fp->error_sources = true; /* every failure's process and path (src/trace/ptrace_syscall.c) */
	if (opts->reach)
		pt_reach_init(&st);
	trace_end_init(&st.end, opts);
	pt_cpu_choose(&st);
	rc = st.attach ? attach_all(&st) : start_command(&st);
	pt_cpu_pin_tracer(&st);
	if (rc < 0) {
		abort_tracing(&st);
	} else if (arm_tick(true) < 0) {
		abort_tracing(&st);
		rc = -1;
	} else {
		rc = trace_loop(&st);
		arm_tick(false);
	}
	pt_cpu_unpin(&st);
	pt_tables_release(&st);
	pt_reach_release(&st);
	return rc;
}

const struct backend backend_ptrace = {"ptrace", usable, run};
