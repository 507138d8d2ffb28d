// SPDX-License-Identifier: GPL-2.0
/*
 * Containment of a started command (see contain.h): its own cgroup v2 and a guardian, or kfootprint as a
 * child subreaper, and the one sequence that ends it: SIGTERM to every process, SIGKILL after the grace period,
 * or left running with --keep-running.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/contain.h"
#include "trace/trace.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define GIVE_UP_NS   5000000000ull /* after SIGKILL: a task stuck in the kernel is left, never waited on */
#define MAX_PASSES   64		   /* signal passes over a workload that keeps forking new processes */
#define SHOW_PIDS    16		   /* pids listed in the --keep-running line */
#define GUARDIAN_BYE 'x'	   /* from kfootprint: the workload is dealt with, exit */

struct contain {
	bool keep_running;
	bool cgroup;	 /* cgroup mode, else subreaper mode */
	bool has_kill;	 /* cgroup.kill exists (Linux 5.14) */
	int dirfd;	 /* the workload's cgroup directory */
	int home_dirfd;	 /* kfootprint's own cgroup, its parent */
	char name[48];	 /* its name in home */
	char *path;	 /* its full path, for messages */
	char *relpath;	 /* its path as /proc/PID/cgroup shows it */
	pid_t self;	 /* kfootprint */
	pid_t root;	 /* the command's first process */
	pid_t guardian;	 /* 0: none */
	int guardian_fd; /* write end of the guardian's pipe */
	bool removed;	 /* the cgroup is gone */
	uint64_t checked_ns;
	bool checked_empty; /* subreaper mode: the last scan, reused for 50 ms */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void nap_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* --- finding kfootprint's cgroup -------------------------------------------------------------------- */

/* Decodes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/*
 * The directory of kfootprint's own cgroup v2 (a cgroup2 mount from /proc/self/mountinfo, whose root is a
 * prefix of the "0::" line of /proc/self/cgroup), and that path as /proc shows it. NULL when there is none.
 */
static char *own_cgroup_dir(char **rel)
{
	struct strbuf cg = STRBUF_INIT;
	char line[4096], *own = NULL, *dir = NULL;
	FILE *f;

	if (strbuf_read_file(&cg, "/proc/self/cgroup") == 0) {
		for (char *l = cg.buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
			if (!strncmp(l, "0::", 3)) {
				own = xstrndup(l + 3, strcspn(l + 3, "\n"));
				break;
			}
	}
	strbuf_release(&cg);
	if (!own || *own != '/') {
		free(own);
		return NULL;
	}
	f = fopen("/proc/self/mountinfo", "re");
	while (f && !dir && fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - "), *field[5], *save = NULL, *fstype;
		int n = 0;
		size_t rlen;

		if (!sep)
			continue;
		*sep = '\0';
		fstype = strtok_r(sep + 3, " ", &save);
		if (!fstype || strcmp(fstype, "cgroup2"))
			continue;
		save = NULL;
		for (char *t = strtok_r(line, " ", &save); t && n < 5; t = strtok_r(NULL, " ", &save))
			field[n++] = t;
		if (n < 5)
			continue;
		unescape(field[3]); /* the mount's root within the hierarchy */
		unescape(field[4]); /* where it is mounted */
		rlen = strcmp(field[3], "/") ? strlen(field[3]) : 0;
		if (strncmp(own, field[3], rlen) || (own[rlen] && own[rlen] != '/'))
			continue;
		dir = xasprintf("%s%s", field[4], strcmp(own + rlen, "/") ? own + rlen : "");
	}
	if (f)
		fclose(f);
	if (dir)
		*rel = own;
	else
		free(own);
	return dir;
}

/* Reads a small file of the cgroup; -1 when unreadable. */
static ssize_t cg_read(int dirfd, const char *file, char *buf, size_t len)
{
	int fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

static int cg_write(int dirfd, const char *file, const char *val)
{
	int fd = openat(dirfd, file, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

/* Calls fn for each pid listed in the cgroup's cgroup.procs (read in chunks: no allocation). -1: unreadable. */
static int each_cg_pid(int dirfd, void (*fn)(struct contain *c, pid_t pid, void *ctx), struct contain *c, void *ctx)
{
	int fd = openat(dirfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	char buf[4096];
	long v = -1;
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] >= '0' && buf[i] <= '9') {
				v = (v < 0 ? 0 : v * 10) + (buf[i] - '0');
			} else {
				if (v > 0)
					fn(c, (pid_t)v, ctx);
				v = -1;
			}
		}
	}
	if (v > 0)
		fn(c, (pid_t)v, ctx);
	close(fd);
	return 0;
}

/* each_cg_pid over the cgroup and every cgroup below it: cgroup.procs lists only its own members. */
static void each_cg_pid_tree(int dirfd, void (*fn)(struct contain *c, pid_t pid, void *ctx), struct contain *c,
			     void *ctx, int depth)
{
	int fd;
	DIR *d;
	struct dirent *de;

	each_cg_pid(dirfd, fn, c, ctx);
	fd = depth < 32 ? openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1; /* own offset */
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		int sub;

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sub >= 0) {
			each_cg_pid_tree(sub, fn, c, ctx, depth + 1);
			close(sub);
		}
	}
	closedir(d);
}

/* Whether process pid is in the workload's cgroup, as its /proc/PID/cgroup says now. */
static bool in_cgroup(const struct contain *c, pid_t pid)
{
	char path[64], buf[4096];
	int fd;
	ssize_t n;
	size_t rlen = strlen(c->relpath);

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* Its cgroup or one below it, which the workload made (a nested kfootprint, a container runtime). */
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, "0::", 3))
			return !strncmp(l + 3, c->relpath, rlen) &&
			       (l[3 + rlen] == '\n' || l[3 + rlen] == '/' || !l[3 + rlen]);
	return false;
}

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
		ours = in_cgroup(c, pid);
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
		if (cg_write(c->dirfd, "cgroup.kill", "1") == 0)
			return;
		debug("containment: '%s/cgroup.kill': %s", c->path, strerror(errno));
	}
	/* Pass after pass, as long as one finds a process it did not signal yet (forked meanwhile). */
	do {
		s.added = 0;
		if (c->cgroup) {
			each_cg_pid_tree(c->dirfd, cg_signal_one, c, &s, 0);
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

static bool cg_populated(const struct contain *c)
{
	char buf[256];
	const char *p;

	if (cg_read(c->dirfd, "cgroup.events", buf, sizeof(buf)) < 0)
		return false; /* removed */
	p = strstr(buf, "populated ");
	return p && p[10] == '1';
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

/*
 * Takes the running workload out of its cgroup (back into kfootprint's own), so that the cgroup can go, and
 * says on stderr what keeps running. prefix: who says it.
 */
static void release(struct contain *c, const char *prefix)
{
	struct listing l = {STRBUF_INIT, 0, -1, 0};

	if (c->cgroup) {
		int pass = 0;

		l.moved_to = openat(c->home_dirfd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
		/* Pass after pass: a process forking while it moves leaves its child behind. */
		while (l.moved_to >= 0 && cg_populated(c) && pass++ < MAX_PASSES && !l.failed)
			each_cg_pid(c->dirfd, cg_move_home, c, &l);
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

/*
 * Removes the cgroups the workload made inside its own (a nested kfootprint, a container runtime): they are
 * its, and its cgroup cannot go while they exist. Depth first; a cgroup still populated stays.
 */
static void remove_children(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* own offset: not dup() */
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		int sub;

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sub >= 0) {
			remove_children(sub);
			close(sub);
		}
		unlinkat(dirfd, de->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

/* Removes the cgroup once it is empty (a task that has just been killed may hold it a moment). */
static void remove_cgroup(struct contain *c, bool quiet)
{
	uint64_t until = now_ns() + 1000000000ull;

	if (!c->cgroup || c->dirfd < 0 || c->removed)
		return;
	while (unlinkat(c->home_dirfd, c->name, AT_REMOVEDIR) < 0) {
		if (errno == ENOENT)
			break;
		if (errno != EBUSY || now_ns() >= until || cg_populated(c)) {
			if (!quiet && !(c->keep_running && cg_populated(c)))
				perror_msg("removing cgroup '%s'", c->path);
			return;
		}
		remove_children(c->dirfd);
		nap_ms(10);
	}
	c->removed = true;
	debug("containment: cgroup '%s' removed", c->path);
}

/* --- the guardian -------------------------------------------------------------------------------------- */

/* Closes every descriptor but those in keep (sorted, ascending). */
static void close_all_but(const int *keep, size_t n)
{
	unsigned int lo = 0;

	for (size_t i = 0; i < n; i++) {
		if (keep[i] < 0 || (unsigned int)keep[i] < lo)
			continue;
		if ((unsigned int)keep[i] > lo)
			syscall(SYS_close_range, lo, (unsigned int)keep[i] - 1, 0);
		lo = (unsigned int)keep[i] + 1;
	}
	syscall(SYS_close_range, lo, ~0u, 0);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/*
 * ps and pgrep -f show the guardian as what it is, not as a second kfootprint running the workload's command
 * line: its argument area (arg_start, arg_end: fields 48 and 49 of /proc/self/stat) is rewritten in place.
 */
static void set_cmdline(const char *name)
{
	char buf[1024], *p, *save = NULL;
	unsigned long start = 0, end = 0;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC), field = 2;
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	for (char *t = p ? strtok_r(p + 1, " ", &save) : NULL; t && field < 49; t = strtok_r(NULL, " ", &save)) {
		field++;
		if (field == 48)
			start = strtoul(t, NULL, 10);
		else if (field == 49)
			end = strtoul(t, NULL, 10);
	}
	if (!start || end <= start)
		return;
	memset((void *)start, 0, end - start);
	memcpy((void *)start, name, strlen(name) < end - start ? strlen(name) : end - start - 1);
}

/*
 * Outlives kfootprint for one moment: its death, however it comes. Waits for a byte (kfootprint is done: exit)
 * or end of file (kfootprint died without finishing): then gives the workload the documented treatment, and
 * removes the cgroup. It runs none of the workload's code and touches no other cgroup or process.
 */
__attribute__((noreturn)) static void guardian_main(struct contain *c, int rfd)
{
	static const int quiet[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGTSTP,
				    SIGTTIN, SIGTTOU, SIGPIPE, SIGUSR1, SIGUSR2};
	int keep[] = {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO, rfd, c->dirfd, c->home_dirfd};
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	char prefix[64], b = 0;
	ssize_t n;

	/* Its own session: a Ctrl-C or a kill of kfootprint's process group is not for it. */
	setsid();
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++)
		signal(quiet[i], SIG_IGN);
	prctl(PR_SET_NAME, "kf-guardian");
	set_cmdline("kfootprint guardian");
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	/* Nothing of kfootprint's: not its output files, not its BPF links (which must go when it goes). */
	qsort(keep, sizeof(keep) / sizeof(keep[0]), sizeof(keep[0]), cmp_int);
	close_all_but(keep, sizeof(keep) / sizeof(keep[0]));
	if (chdir("/") < 0)
		_exit(1);
	do
		n = read(rfd, &b, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && b == GUARDIAN_BYE)
		_exit(0);
	/* kfootprint is gone without dealing with its workload. */
	snprintf(prefix, sizeof(prefix), "guardian: kfootprint (pid %d) died: ", (int)c->self);
	if (cg_populated(c)) {
		if (c->keep_running) {
			release(c, prefix);
		} else {
			fprintf(stderr, "kfootprint: %sstopping its workload (SIGTERM, then SIGKILL after %llu s)\n",
				prefix, CONTAIN_KILL_GRACE_NS / 1000000000ull);
			contain_terminate(c);
		}
	}
	remove_cgroup(c, true);
	_exit(0);
}

static int start_guardian(struct contain *c)
{
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return perror_msg("containment: pipe");
	fflush(NULL); /* the guardian must not write our buffered output a second time */
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return perror_msg("containment: starting the guardian");
	}
	if (pid == 0) {
		close(p[1]);
		guardian_main(c, p[0]);
	}
	close(p[0]);
	c->guardian = pid;
	c->guardian_fd = p[1];
	return 0;
}

/* Tells the guardian that the workload has been dealt with: it exits. */
static void release_guardian(struct contain *c)
{
	char b = GUARDIAN_BYE;

	if (c->guardian_fd < 0)
		return;
	if (write(c->guardian_fd, &b, 1) != 1)
		debug("containment: telling the guardian: %s", strerror(errno));
	close(c->guardian_fd);
	c->guardian_fd = -1;
}

/*
 * Reaps the released guardian, at kfootprint's very end: by then it has long exited, and nothing waited for
 * it to be scheduled. Never waited on for long: someone may have stopped it (it exits once it runs again).
 */
static void reap_guardian(struct contain *c)
{
	struct pollfd pfd = {.fd = -1, .events = POLLIN};

	if (!c->guardian)
		return;
	release_guardian(c);
	pfd.fd = pidfd_open(c->guardian);
	if (pfd.fd >= 0) {
		while (poll(&pfd, 1, 1000) < 0 && errno == EINTR)
			;
		close(pfd.fd);
	}
	waitpid(c->guardian, NULL, WNOHANG);
	c->guardian = 0;
}

/* --- setting up ---------------------------------------------------------------------------------------- */

/* Makes the workload's cgroup below kfootprint's own; false when there is none to be had here. */
static bool make_cgroup(struct contain *c)
{
	char *rel = NULL, *home = own_cgroup_dir(&rel), type[64];

	if (!home) {
		debug("containment: no cgroup2 hierarchy holds kfootprint");
		return false;
	}
	c->home_dirfd = open(home, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->home_dirfd < 0) {
		debug("containment: '%s': %s", home, strerror(errno));
		goto fail;
	}
	for (int i = 0;; i++) {
		if (i)
			snprintf(c->name, sizeof(c->name), "kfootprint.%d.%d", (int)c->self, i);
		else
			snprintf(c->name, sizeof(c->name), "kfootprint.%d", (int)c->self);
		if (mkdirat(c->home_dirfd, c->name, 0755) == 0)
			break;
		/* Left by a kfootprint of the same pid that was killed with its guardian: empty, so it can go. */
		if (errno == EEXIST && unlinkat(c->home_dirfd, c->name, AT_REMOVEDIR) == 0 &&
		    mkdirat(c->home_dirfd, c->name, 0755) == 0)
			break;
		if (errno != EEXIST || i == 4) {
			debug("containment: cannot make a cgroup in '%s': %s", home, strerror(errno));
			goto fail;
		}
	}
	c->path = xasprintf("%s/%s", home, c->name);
	c->relpath = xasprintf("%s/%s", strcmp(rel, "/") ? rel : "", c->name);
	c->dirfd = openat(c->home_dirfd, c->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* Below a threaded cgroup a new one is "domain invalid" and takes no process. */
	if (c->dirfd < 0 || cg_read(c->dirfd, "cgroup.type", type, sizeof(type)) < 0 || strncmp(type, "domain\n", 7)) {
		debug("containment: cgroup '%s' cannot hold the workload", c->path);
		if (c->dirfd >= 0)
			close(c->dirfd);
		c->dirfd = -1;
		unlinkat(c->home_dirfd, c->name, AT_REMOVEDIR);
		goto fail;
	}
	c->has_kill = faccessat(c->dirfd, "cgroup.kill", W_OK, 0) == 0;
	c->cgroup = true;
	free(home);
	free(rel);
	return true;
fail:
	free(c->path);
	free(c->relpath);
	c->path = c->relpath = NULL;
	if (c->home_dirfd >= 0)
		close(c->home_dirfd);
	c->home_dirfd = -1;
	free(home);
	free(rel);
	return false;
}

struct contain *contain_new(bool keep_running)
{
	struct contain *c = xcalloc(1, sizeof(*c));

	c->keep_running = keep_running;
	c->self = getpid();
	c->dirfd = c->home_dirfd = c->guardian_fd = -1;
	if (make_cgroup(c)) {
		if (start_guardian(c) < 0) {
			remove_cgroup(c, false);
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
	char buf[24];

	if (!c)
		return 0;
	c->root = pid;
	if (!c->cgroup || placed)
		return 0;
	snprintf(buf, sizeof(buf), "%d", (int)pid);
	if (cg_write(c->dirfd, "cgroup.procs", buf) < 0)
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
			release(c, "");
		} else {
			/* The backend ended with processes of the workload it did not know of: they go the same way. */
			warning("processes of the workload are still running: stopping them (SIGTERM, then SIGKILL)");
			if (!contain_terminate(c))
				warning("processes of the workload still running after SIGKILL: leaving them");
		}
	}
	reap_orphans(c);
	remove_cgroup(c, false);
	release_guardian(c);
	if (!c->cgroup)
		prctl(PR_SET_CHILD_SUBREAPER, 0);
}

void contain_free(struct contain *c)
{
	if (!c)
		return;
	remove_cgroup(c, true);
	reap_guardian(c);
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
		fp__set_incomplete(fp, *o->stop ? "interrupted" : "duration");
		if (leave)
			return TRACE_END_DETACH;
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
