// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel functions through ftrace (ktrace.h): a private tracefs instance, instances/kfootprint-PID, so that
 * nothing global changes and another tracer (trace-cmd, a second kfootprint) keeps its own buffers and
 * filters. In it: the function_graph tracer (the function tracer where instances have no function_graph, as
 * before Linux 6.9), set_ftrace_pid with function-fork to follow the workload's tasks from before its execve,
 * funcgraph-irqs off, and the raw_syscalls events with set_event_pid and event-fork so that each function is
 * counted under the syscall its task was in. A thread reads the per-CPU trace_pipe_raw buffers while the
 * workload runs (ftrace_read.c) and counts by address; the names come from /proc/kallsyms at the end.
 *
 * The instance is removed on every way out kfootprint has; after a SIGKILL the next run removes it (its name
 * carries the dead pid).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "trace/ftrace_int.h"
#include "trace/ktrace.h"
#include "util/error.h"
#include "util/xalloc.h"

#define TRACEFS_MAGIC 0x74726163
#define TRACEFS_DIR   "/sys/kernel/tracing"
#define INSTANCE_PFX  "kfootprint-"
/*
 * The instance's buffer per CPU unless --kernel-buffer-kb: the kernel's default (1.4 MB, 60 000 function events)
 * lost 23 000 events of one exec in the guest on one vCPU, where the reader waits for the workload's CPU.
 */
#define DEFAULT_BUFFER_KB 8192

/* --- small tracefs helpers ------------------------------------------------------------------------ */

/* Writes s to dir/file (O_TRUNC unless append); 0, or -1 with errno. */
int ftr_write(const char *dir, const char *file, const char *s, bool append)
{
	char path[512];
	int fd, rc = 0;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	if (n != (ssize_t)strlen(s))
		rc = -1;
	if (close(fd) < 0 && !rc)
		rc = -1;
	return rc;
}

/* Reads dir/file into buf (NUL-terminated); bytes read, or -1 with errno. */
ssize_t ftr_read(const char *dir, const char *file, char *buf, size_t len)
{
	char path[512];
	ssize_t n, got = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (got + 1 < (ssize_t)len && (n = read(fd, buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got;
}

/* A word of a space-separated list, as available_tracers and trace_clock are. */
static bool has_word(const char *list, const char *word)
{
	size_t l = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += l)
		if ((p == list || p[-1] == ' ' || p[-1] == '[') && (!p[l] || strchr(" ]\n", p[l])))
			return true;
	return false;
}

static bool is_tracefs(const char *dir)
{
	struct statfs sf;

	return statfs(dir, &sf) == 0 && sf.f_type == TRACEFS_MAGIC;
}

/* tracefs at /sys/kernel/tracing, mounted when it is not (*mounted then says to unmount it). */
static int tracefs_root(bool *mounted, char *why, size_t len)
{
	*mounted = false;
	if (is_tracefs(TRACEFS_DIR))
		return 0;
	if (mount("nodev", TRACEFS_DIR, "tracefs", 0, NULL) < 0) {
		snprintf(why, len, "cannot mount tracefs on %s: %s", TRACEFS_DIR, strerror(errno));
		return -1;
	}
	*mounted = true;
	return 0;
}

/* Whether a pid is a running kfootprint (the owner of an instance named after it). */
static bool owner_alive(pid_t pid)
{
	char path[64], comm[64] = "";
	FILE *f;

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	return !strncmp(comm, "kfootprint", 10);
}

/* Turns an instance's tracing off and removes it; 0, or -1 with errno. */
static int instance_remove(const char *dir)
{
	ftr_write(dir, "tracing_on", "0", false);
	ftr_write(dir, "current_tracer", "nop", false);
	ftr_write(dir, "events/enable", "0", false);
	return rmdir(dir);
}

/* Instances a killed kfootprint left behind (SIGKILL, a crash): removed, and said. */
static void remove_stale(void)
{
	DIR *d = opendir(TRACEFS_DIR "/instances");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char dir[512], *end;
		long pid;

		if (strncmp(e->d_name, INSTANCE_PFX, strlen(INSTANCE_PFX)))
			continue;
		pid = strtol(e->d_name + strlen(INSTANCE_PFX), &end, 10);
		if (*end || pid <= 0 || pid == getpid() || owner_alive((pid_t)pid))
			continue;
		snprintf(dir, sizeof(dir), "%s/instances/%s", TRACEFS_DIR, e->d_name);
		if (instance_remove(dir) == 0)
			fprintf(stderr,
				"kfootprint: kernel functions: removed the tracing instance '%s' of a kfootprint "
				"that is gone (pid %ld)\n",
				e->d_name, pid);
		else
			fprintf(stderr,
				"kfootprint: kernel functions: cannot remove the stale tracing instance '%s': %s\n",
				e->d_name, strerror(errno));
	}
	closedir(d);
}

/* --- set up, start, finish ----------------------------------------------------------------------- */

/* Why a write to the instance failed: EPERM is the kernel saying no to function tracing as such. */
static void refused(char *why, size_t len, const char *what, const char *file, int err)
{
	if (err == EPERM || err == EACCES)
		snprintf(why, len,
			 "the kernel refuses function tracing (tracefs %s: %s; lockdown or a security policy)", file,
			 strerror(err));
	else
		snprintf(why, len, "%s: tracefs %s: %s", what, file, strerror(err));
}

struct ftr *ftr_new(enum kfr_mode mode, unsigned buffer_kb, char *why, size_t len)
{
	struct ftr *t = xcalloc(1, sizeof(*t));
	char buf[4096], num[32];
	const char *tracer;
	bool graph_ok, func_ok;

	if (geteuid() != 0) {
		snprintf(why, len, "tracing needs root");
		goto fail;
	}
	if (tracefs_root(&t->mounted, why, len) < 0)
		goto fail;
	remove_stale();
	snprintf(t->dir, sizeof(t->dir), "%s/instances/%s%d", TRACEFS_DIR, INSTANCE_PFX, (int)getpid());
	if (mkdir(t->dir, 0700) < 0) {
		snprintf(why, len, "cannot make a tracing instance '%s': %s%s", t->dir, strerror(errno),
			 errno == ENOENT ? " (tracefs without instances)" : "");
		goto fail;
	}
	t->made = true;
	if (ftr_read(t->dir, "available_tracers", buf, sizeof(buf)) < 0) {
		snprintf(why, len, "'%s/available_tracers': %s", t->dir, strerror(errno));
		goto fail;
	}
	graph_ok = has_word(buf, "function_graph");
	func_ok = has_word(buf, "function");
	if (mode == KFR_GRAPH && !graph_ok) {
		snprintf(why, len, "this kernel's tracing instances have no function_graph tracer (available: %.*s)",
			 (int)strcspn(buf, "\n"), buf);
		goto fail;
	}
	if (!graph_ok && !func_ok) {
		snprintf(why, len, "this kernel's tracing instances cannot trace functions (available tracers: %.*s)",
			 (int)strcspn(buf, "\n"), buf);
		goto fail;
	}
	t->graph = mode == KFR_GRAPH || (mode == KFR_AUTO && graph_ok);
	tracer = t->graph ? "function_graph" : "function";
	/* Nothing is recorded until ftr_start(): our own pid in the filters, tracing off. */
	snprintf(num, sizeof(num), "%d", (int)getpid());
	if (ftr_write(t->dir, "tracing_on", "0", false) < 0) {
		refused(why, len, "cannot hold tracing", "tracing_on", errno);
		goto fail;
	}
	if (ftr_write(t->dir, "set_ftrace_pid", num, false) < 0) {
		refused(why, len, "cannot filter by task", "set_ftrace_pid", errno);
		goto fail;
	}
	if (ftr_write(t->dir, "set_event_pid", num, false) < 0) {
		refused(why, len, "cannot filter events by task", "set_event_pid", errno);
		goto fail;
	}
	snprintf(num, sizeof(num), "%u", buffer_kb ? buffer_kb : DEFAULT_BUFFER_KB);
	if (ftr_write(t->dir, "buffer_size_kb", num, false) < 0) {
		snprintf(why, len, "the tracing buffer of %s KB per CPU%s: %s", num,
			 buffer_kb ? " (--kernel-buffer-kb)" : "", strerror(errno));
		goto fail;
	}
	if (ftr_write(t->dir, "options/function-fork", "1", false) < 0 ||
	    ftr_write(t->dir, "options/event-fork", "1", false) < 0) {
		snprintf(why, len, "'%s': cannot follow forks (options/function-fork, event-fork): %s", t->dir,
			 strerror(errno));
		goto fail;
	}
	if (t->graph) {
		/* the seed's -O nofuncgraph-irqs: interrupts are not the workload's doing */
		ftr_write(t->dir, "options/funcgraph-irqs", "0", false);
	}
	t->syscalls = ftr_write(t->dir, "events/raw_syscalls/sys_enter/enable", "1", false) == 0 &&
		      ftr_write(t->dir, "events/raw_syscalls/sys_exit/enable", "1", false) == 0;
	if (!t->syscalls)
		debug("kernel functions: no raw_syscalls events (%s): functions are not attributed to syscalls",
		      strerror(errno));
	if (ftr_write(t->dir, "current_tracer", tracer, false) < 0) {
		refused(why, len,
			t->graph ? "the function_graph tracer cannot start" : "the function tracer cannot start",
			"current_tracer", errno);
		goto fail;
	}
	t->tracer_set = true;
	if (ftr_reader_open(t, why, len) < 0)
		goto fail;
	if (mode == KFR_AUTO && !graph_ok)
		fprintf(stderr, "kfootprint: kernel functions: this kernel's tracing instances have no function_graph "
				"tracer: the function tracer counts the same calls\n");
	debug("kernel functions: %s tracer in '%s'", tracer, t->dir);
	return t;
fail:
	ftr_cleanup(t);
	free(t);
	return NULL;
}

int ftr_add_pid(struct ftr *t, pid_t pid)
{
	char num[32], path[64];
	DIR *d;
	struct dirent *e;
	int rc = 0;

	/* every thread: the filter is by task */
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d) {
		snprintf(num, sizeof(num), "%d", (int)pid);
		rc = ftr_write(t->dir, "set_ftrace_pid", num, t->npids > 0);
		if (!rc && t->syscalls)
			rc = ftr_write(t->dir, "set_event_pid", num, t->npids > 0);
	} else {
		while (!rc && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			rc = ftr_write(t->dir, "set_ftrace_pid", e->d_name, t->npids > 0);
			if (!rc && t->syscalls)
				rc = ftr_write(t->dir, "set_event_pid", e->d_name, t->npids > 0);
			t->npids++;
		}
		closedir(d);
	}
	t->npids++;
	if (rc < 0)
		return perror_msg("kernel functions: cannot follow pid %d: '%s/set_ftrace_pid'", (int)pid, t->dir);
	return 0;
}

int ftr_start(struct ftr *t)
{
	if (t->started)
		return 0;
	if (ftr_reader_start(t) < 0)
		return -1;
	if (ftr_write(t->dir, "tracing_on", "1", false) < 0)
		return perror_msg("kernel functions: '%s/tracing_on'", t->dir);
	t->started = true;
	return 0;
}

/* Everything the instance had, and the tracefs mount when we made it: every way out comes here. */
void ftr_cleanup(struct ftr *t)
{
	ftr_reader_close(t);
	if (t->made && instance_remove(t->dir) < 0)
		fprintf(stderr, "kfootprint: kernel functions: cannot remove the tracing instance '%s': %s\n", t->dir,
			strerror(errno));
	t->made = false;
	if (t->mounted && umount2(TRACEFS_DIR, MNT_DETACH) < 0)
		fprintf(stderr, "kfootprint: kernel functions: cannot unmount %s: %s\n", TRACEFS_DIR, strerror(errno));
	t->mounted = false;
}

/* per_cpu/cpuN/stats: what the buffer could not keep (overwritten, dropped, or lost to a commit overrun). */
static uint64_t lost_events(const struct ftr *t)
{
	uint64_t lost = 0;

	for (int i = 0; i < t->ncpu; i++) {
		char file[64], buf[1024];
		const char *keys[] = {"overrun: ", "commit overrun: ", "dropped events: "};

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", t->cpus[i].cpu);
		if (ftr_read(t->dir, file, buf, sizeof(buf)) <= 0)
			continue;
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			const char *p = strstr(buf, keys[k]);

			if (p && (p == buf || p[-1] == '\n'))
				lost += strtoull(p + strlen(keys[k]), NULL, 10);
		}
	}
	return lost;
}

void ftr_finish(struct ftr *t, struct ftr_result *res)
{
	struct ksyms *ksyms;
	uint64_t lost;

	ftr_write(t->dir, "tracing_on", "0", false);
	ftr_reader_stop(t);
	lost = lost_events(t) + t->missed;
	ksyms = t->ksyms; /* kept from the cleanup */
	t->ksyms = NULL;
	ftr_cleanup(t);
	if (res) {
		*res = (struct ftr_result){t->counts, ksyms, t->graph, lost, t->events, t->pages, t->reader_cpu_ns};
		free(t);
		return;
	}
	ksyms_free(ksyms);
	kfr_counts_release(&t->counts);
	free(t);
}
