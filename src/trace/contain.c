// SPDX-License-Identifier: GPL-2.0
/*
 * Containment of a started command (see contain.h): the public contain_* API, subreaper mode, signalling the
 * workload, and the one sequence that ends it: SIGTERM to every process, SIGKILL after the grace period, or left
 * running with --keep-running. Its cgroup v2 is in contain_cgroup.c, the guardian in contain_guardian.c.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/contain_int.h"
#include "trace/trace.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define GIVE_UP_NS 5000000000ull /* after SIGKILL: a task stuck in the kernel is left, never waited on */
#define MAX_PASSES 64		 /* signal passes over a workload that keeps forking new processes */
#define SHOW_PIDS  16		 /* pids listed in the --keep-running line */

/* --- subreaper mode: the workload is kfootprint's descendants --------------------------------------- */

struct proc_ent {
	pid_t pid, ppid;
	char state;
	unsigned long long start;
	bool ours;
};

/* Every process of the machine, with the descendants of kfootprint marked. Returns how many; *out is freed. */
static size_t scan_descendants(const struct contain *c, struct proc_ent **out)
{
	struct proc_ent *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	bool more = true;
	DIR *d = opendir("/proc");

	while (d && (de = readdir(d))) {
		long pid = strtol(de->d_name, NULL, 10);
		struct trace_stat st;

		if (pid <= 0 || trace_read_stat((pid_t)pid, &st) < 0)
			continue;
		XGROW(v, cap, n + 1);
		v[n++] = (struct proc_ent){(pid_t)pid, st.ppid, st.state, st.start, st.ppid == c->self};
	}
	if (d)
		closedir(d);
	/* Descendants of descendants, until a pass marks no one new (the depth of the tree at most). */
	while (more) {
		more = false;
		for (size_t i = 0; i < n; i++) {
			if (v[i].ours)
				continue;
			for (size_t j = 0; j < n; j++)
				if (v[j].ours && v[j].pid == v[i].ppid) {
					v[i].ours = more = true;
					break;
				}
		}
	}
	*out = v;
	return n;
}

static bool live(const struct proc_ent *e)
{
	return e->ours && e->state != 'Z' && e->state != 'X';
}

/* --- signalling the workload ------------------------------------------------------------------------ */

/* The pids signalled in this round, sorted: a process handling SIGTERM gets it once, however many passes. */
struct sent {
	pid_t *v;
	size_t n, cap;
	size_t added; /* in this pass */
	int sig;
};

static bool sent_add(struct sent *s, pid_t pid)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->v[mid] == pid)
			return false;
		if (s->v[mid] < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		pid_t *v = realloc(s->v, cap * sizeof(*v)); /* no xrealloc: the guardian must never die of it */

		if (!v)
			return true; /* signal it anyway, possibly twice */
		s->v = v;
		s->cap = cap;
	}
	memmove(s->v + lo + 1, s->v + lo, (s->n - lo) * sizeof(*s->v));
	s->v[lo] = pid;
	s->n++;
	return true;
}

/*
 * Through a pidfd, after checking that the process it names is still the workload's: a pid read a moment ago
 * may have been reused by an unrelated process since, and that one must never get the signal.
 */
static void send_checked(struct contain *c, pid_t pid, int sig, unsigned long long start)
{
	int pfd = pidfd_open(pid);
	struct trace_stat st;
	bool ours;

	if (pfd < 0)
		return;
	if (c->cgroup)
		ours = cg_has_pid(c, pid);
	else
		ours = trace_read_stat(pid, &st) == 0 && st.start == start;
	if (ours && syscall(SYS_pidfd_send_signal, pfd, sig, NULL, 0) < 0 && errno != ESRCH)
		debug("containment: signal %d to pid %d: %s", sig, (int)pid, strerror(errno));
	close(pfd);
}

static void cg_signal_one(struct contain *c, pid_t pid, void *ctx)
{
	struct sent *s = ctx;

	if (sent_add(s, pid)) {
		s->added++;
		send_checked(c, pid, s->sig, 0);
	}
}

void contain_signal(struct contain *c, int sig)
{
	struct sent s = {.sig = sig};
	int pass = 0;

	if (!c)
		return;
	if (c->cgroup && sig == SIGKILL && c->has_kill) {
		/* The kernel kills every task of the cgroup, and a fork that races with it. */
		if (cg_kill(c) == 0)
			return;
		debug("containment: '%s/cgroup.kill': %s", c->path, strerror(errno));
	}
	/* Pass after pass, as long as one finds a process it did not signal yet (forked meanwhile). */
	do {
		s.added = 0;
		if (c->cgroup) {
			cg_each_pid_tree(c->dirfd, cg_signal_one, c, &s, 0);
		} else {
			struct proc_ent *v;
			size_t n = scan_descendants(c, &v);

			for (size_t i = 0; i < n; i++)
				if (live(&v[i]) && v[i].pid != c->guardian && sent_add(&s, v[i].pid)) {
					s.added++;
					send_checked(c, v[i].pid, sig, v[i].start);
				}
			free(v);
		}
	} while (s.added && ++pass < MAX_PASSES);
	debug("containment: signal %d sent to %zu processes", sig, s.n);
	free(s.v);
}

static bool scan_empty(struct contain *c)
{
	struct proc_ent *v;
	size_t n = scan_descendants(c, &v);
	bool empty = true;

	for (size_t i = 0; i < n && empty; i++)
		if (live(&v[i]) && v[i].pid != c->guardian)
			empty = false;
	free(v);
	return empty;
}

bool contain_empty(struct contain *c)
{
	uint64_t now;

	if (!c)
		return true;
	if (c->cgroup)
		return !cg_populated(c);
	/* A whole scan of /proc: not more often than every 50 ms, for a loop that asks every millisecond. */
	now = now_ns();
	if (!c->checked_ns || now - c->checked_ns >= 50000000ull) {
		c->checked_empty = scan_empty(c);
		c->checked_ns = now;
	}
	return c->checked_empty;
}

/* Reaps kfootprint's children that ended, but never the command's first process: its status is the backend's. */
static void reap_orphans(const struct contain *c)
{
	struct proc_ent *v;
	size_t n;

	if (c->cgroup)
		return; /* orphans went to init, not to kfootprint */
	n = scan_descendants(c, &v);
	for (size_t i = 0; i < n; i++)
		if (v[i].ppid == c->self && v[i].state == 'Z' && v[i].pid != c->root)
			waitpid(v[i].pid, NULL, WNOHANG);
	free(v);
}

static bool wait_empty(struct contain *c, uint64_t ns)
{
	uint64_t until = now_ns() + ns;

	for (;;) {
		c->checked_ns = 0;
		reap_orphans(c);
		if (contain_empty(c))
			return true;
		if (now_ns() >= until)
			return false;
		nap_ms(10);
	}
}

bool contain_terminate(struct contain *c)
{
	if (!c || contain_empty(c))
		return true;
	contain_signal(c, SIGTERM);
	if (wait_empty(c, CONTAIN_KILL_GRACE_NS))
		return true;
	contain_signal(c, SIGKILL);
	return wait_empty(c, GIVE_UP_NS);
}

/* --- leaving the workload running (--keep-running) ---------------------------------------------------- */

struct listing {
	struct strbuf sb;
	size_t n;
	int moved_to; /* cgroup mode: home's cgroup.procs, each pid moved there */
	size_t failed;
};

static void list_pid(struct listing *l, pid_t pid)
{
	if (l->n < SHOW_PIDS)
		strbuf_addf(&l->sb, "%s%d", l->n ? " " : "", (int)pid);
	else if (l->n == SHOW_PIDS)
		strbuf_addstr(&l->sb, " ...");
	l->n++;
}

static void cg_move_home(struct contain *c, pid_t pid, void *ctx)
{
	struct listing *l = ctx;
	char buf[24];
	int len = snprintf(buf, sizeof(buf), "%d", (int)pid);

	(void)c;
	if (write(l->moved_to, buf, (size_t)len) != len) {
		l->failed++;
		return;
	}
	list_pid(l, pid);
}

void contain_keep_running(struct contain *c, const char *prefix)
{
	struct listing l = {STRBUF_INIT, 0, -1, 0};

	if (c->cgroup) {
		int pass = 0;

		l.moved_to = openat(c->home_dirfd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
		/* Pass after pass: a process forking while it moves leaves its child behind. */
		while (l.moved_to >= 0 && cg_populated(c) && pass++ < MAX_PASSES && !l.failed)
			cg_each_pid(c->dirfd, cg_move_home, c, &l);
		if (l.moved_to >= 0)
			close(l.moved_to);
	} else {
		struct proc_ent *v;
		size_t n = scan_descendants(c, &v);

		for (size_t i = 0; i < n; i++)
			if (live(&v[i]) && v[i].pid != c->guardian)
				list_pid(&l, v[i].pid);
		free(v);
	}
	if (l.n)
		fprintf(stderr, "kfootprint: %sthe workload keeps running, untraced (--keep-running): %s %s\n", prefix,
			l.n == 1 ? "pid" : "pids", l.sb.buf);
	if (c->cgroup && cg_populated(c))
		fprintf(stderr, "kfootprint: %scgroup '%s': left in place, the workload still runs in it\n", prefix,
			c->path);
	strbuf_release(&l.sb);
}

/* --- setting up and ending ---------------------------------------------------------------------------- */

struct contain *contain_new(bool keep_running)
{
	struct contain *c = xcalloc(1, sizeof(*c));

	c->keep_running = keep_running;
	c->self = getpid();
	c->dirfd = c->home_dirfd = c->guardian_fd = -1;
	if (cg_make(c)) {
		if (guardian_start(c) < 0) {
			cg_remove(c, false);
			contain_free(c);
			return NULL;
		}
		debug("containment: cgroup '%s'%s, guardian pid %d", c->path, c->has_kill ? "" : " (no cgroup.kill)",
		      (int)c->guardian);
		return c;
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		perror_msg("containment: becoming a child subreaper");
		contain_free(c);
		return NULL;
	}
	debug("containment: no cgroup: kfootprint is a child subreaper");
	return c;
}

int contain_cgroup_fd(const struct contain *c)
{
	return c && c->cgroup ? c->dirfd : -1;
}

int contain_add(struct contain *c, pid_t pid, bool placed)
{
	if (!c)
		return 0;
	c->root = pid;
	if (!c->cgroup || placed)
		return 0;
	if (cg_join(c, pid) < 0)
		return perror_msg("cgroup '%s': moving the command in", c->path);
	return 0;
}

bool contain_guarded(const struct contain *c)
{
	return c && c->guardian;
}

void contain_end(struct contain *c)
{
	if (!c)
		return;
	reap_orphans(c);
	c->checked_ns = 0;
	if (!contain_empty(c)) {
		if (c->keep_running) {
			contain_keep_running(c, "");
		} else {
			/* The backend ended with processes of the workload it did not know of: they go the same way. */
			warning("processes of the workload are still running: stopping them (SIGTERM, then SIGKILL)");
			if (!contain_terminate(c))
				warning("processes of the workload still running after SIGKILL: leaving them");
		}
	}
	reap_orphans(c);
	cg_remove(c, false);
	guardian_release(c);
	if (!c->cgroup)
		prctl(PR_SET_CHILD_SUBREAPER, 0);
}

void contain_free(struct contain *c)
{
	if (!c)
		return;
	cg_remove(c, true);
	guardian_reap(c);
	if (c->dirfd >= 0)
		close(c->dirfd);
	if (c->home_dirfd >= 0)
		close(c->home_dirfd);
	free(c->path);
	free(c->relpath);
	free(c);
}

/* --- the end of observation ------------------------------------------------------------------------ */

void trace_end_init(struct trace_end *e, const struct trace_opts *o)
{
	memset(e, 0, sizeof(*e));
	if (o->duration > 0)
		e->deadline = now_ns() + (uint64_t)(o->duration * 1e9);
}

enum trace_end_do trace_end_step(struct trace_end *e, const struct trace_opts *o, struct footprint *fp)
{
	bool leave = !o->argv || o->keep_running;
	uint64_t now = now_ns();

	if (!e->ending) {
		if (!*o->stop && !(e->deadline && now >= e->deadline))
			return TRACE_END_RUN;
		e->ending = true;
		e->why = *o->stop ? "interrupted" : "duration";
		if (leave) {
			fp__set_incomplete(fp, e->why);
			return TRACE_END_DETACH;
		}
		/*
		 * A Ctrl-C at the terminal has reached the command too: give it the time to end in its own way (its
		 * SIGINT handler, its exit status) before SIGTERM, and SIGKILL after that.
		 */
		if (*o->stop == SIGINT) {
			e->term_at = now + CONTAIN_INT_GRACE_NS;
			return TRACE_END_RUN;
		}
		e->term_at = now;
	}
	if (leave)
		return TRACE_END_RUN;
	if (e->term_at && now >= e->term_at) {
		/*
		 * Only a workload still running now misses calls: one that ended by itself (a server's own SIGINT
		 * handler, a command that was ending anyway) was observed whole, and its footprint is complete.
		 */
		if (!contain_empty(o->contain))
			fp__set_incomplete(fp, e->why);
		debug("stopping the workload (SIGTERM)");
		e->term_at = 0;
		contain_signal(o->contain, SIGTERM);
		e->kill_at = now + CONTAIN_KILL_GRACE_NS;
	} else if (e->kill_at && !e->killed && now >= e->kill_at) {
		debug("stopping the workload (SIGKILL)");
		e->killed = true;
		contain_signal(o->contain, SIGKILL);
	}
	return TRACE_END_RUN;
}
