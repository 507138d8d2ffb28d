// SPDX-License-Identifier: GPL-2.0
/*
 * kfootprint boot (boot.h). What PID 1 does before init runs is a fork, a wait on a pipe (at most
 * ready_timeout) and the pipe's close: init inherits no descriptor of ours, the same signal dispositions (none
 * is changed in PID 1), session, working directory and environment, and the pid. Whatever fails on the
 * recorder's side, init is exec'd.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "boot/boot.h"
#include "boot/sdbus.h"
#include "footprint/footprint.h"
#include "trace/trace.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/xalloc.h"

#define RECORDER_COMM "kfootprint-boot"

void boot_env_opts(struct boot_opts *o)
{
	const char *v;
	double d;

	/*
	 * The kernel gives init its unknown x=y parameters as environment, but not those with a dot in the name
	 * (module parameters): kfootprint_duration=30, not kfootprint.duration=30.
	 */
	if ((v = getenv("kfootprint_init")))
		o->init = v;
	if ((v = getenv("kfootprint_output")))
		o->output = v;
	if ((v = getenv("kfootprint_backend")))
		o->backend = v;
	if ((v = getenv("kfootprint_until_file")))
		o->until_file = v;
	if ((v = getenv("kfootprint_until_target")))
		o->until_target = v;
	if ((v = getenv("kfootprint_duration")) && !parse_seconds("kfootprint_duration", v, &d))
		o->duration = d;
}

/* --- the real init ---------------------------------------------------------------------------------- */
static int exec_init(const struct boot_opts *o)
{
	static const char *const fallbacks[] = {"/sbin/init", "/etc/init", "/bin/init", "/bin/sh"};
	char *dflt[] = {NULL, NULL};
	extern char **environ;

	if (o->init_argv && o->init_argv[0]) {
		execve(o->init, o->init_argv, environ);
	} else {
		dflt[0] = (char *)o->init;
		execve(o->init, dflt, environ);
	}
	warning("boot: cannot run init '%s': %s: trying the kernel's fallbacks", o->init, strerror(errno));
	/* the kernel's own order when init= fails */
	for (size_t i = 0; i < sizeof(fallbacks) / sizeof(*fallbacks); i++) {
		dflt[0] = (char *)fallbacks[i];
		execve(fallbacks[i], dflt, environ);
	}
	return error("boot: no init could be run");
}

/* --- the recorder ----------------------------------------------------------------------------------- */
static volatile sig_atomic_t stop_signal;
static int ready_fd = -1;
static const struct boot_opts *until; /* the end condition: o->until_file or o->until_target */
static pthread_t watcher;
static bool watching;
static volatile sig_atomic_t watch_quit; /* the recording ended otherwise: the watcher ends */
/* why the recording ended, when an end condition ended it: the footprint's incomplete_why */
static char end_why[600];

static void on_stop(int sig)
{
	stop_signal = sig;
}

/*
 * Has the end condition come? A thread of its own: the ptrace backend owns SIGALRM and the real timer, and its
 * loop reads the stop flag on its own tick. A file is checked 4 times a second; a target is what systemd says on
 * its bus (sdbus.h), read as it comes.
 */
static void *watch_until(void *arg)
{
	struct sdbus_watch w;

	(void)arg;
	if (until->until_target)
		sdbus_watch_init(&w, until->until_target, NULL);
	while (!stop_signal && !watch_quit) {
		bool target = until->until_target && sdbus_watch_poll(&w, 250) > 0;

		if (target || (until->until_file && !access(until->until_file, F_OK))) {
			if (target)
				snprintf(end_why, sizeof(end_why), "target %s reached", until->until_target);
			else
				snprintf(end_why, sizeof(end_why), "file %s appeared", until->until_file);
			stop_signal = SIGTERM;
			break;
		}
		if (!until->until_target)
			usleep(250000);
	}
	if (until->until_target) {
		debug("boot: systemd's bus: %lu connection(s), %lu message(s) from PID 1, %lu call(s) of ours",
		      w.connects, w.msgs, w.calls);
		sdbus_watch_release(&w);
	}
	return NULL;
}

static void attached(pid_t tgid)
{
	(void)tgid;
	if (ready_fd >= 0) {
		(void)!write(ready_fd, "1", 1);
		close(ready_fd);
		ready_fd = -1;
	}
}

static char *default_output(void)
{
	char buf[128], stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(buf, sizeof(buf), "/var/log/kfootprint/boot-%s.json", stamp);
	return xstrdup(buf);
}

/* mkdir -p of path's directory (0755): the default one does not exist on a fresh system. */
static void make_parent(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');

	if (slash && slash != dir) {
		*slash = 0;
		for (char *p = dir + 1; *p; p++)
			if (*p == '/') {
				*p = 0;
				mkdir(dir, 0755);
				*p = '/';
			}
		mkdir(dir, 0755);
	}
	free(dir);
}

/*
 * The footprint stays in memory until it can be written: a read-only root is remounted read-write later in a
 * boot, /var/log may be a file system mounted later. Tried every second for write_timeout seconds.
 */
static int write_when_possible(const struct boot_opts *o, const struct footprint *fp, const char *path)
{
	double waited = 0;

	for (;;) {
		make_parent(path);
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		/* a probe before fp__save, whose failure would say so on the console every second */
		if (fd >= 0 || errno == EEXIST) {
			if (fd >= 0) {
				close(fd);
				unlink(path);
			}
			if (!fp__save(fp, path)) {
				fprintf(stderr, "kfootprint: boot: footprint written to %s\n", path);
				return 0;
			}
		}
		if (waited >= o->write_timeout)
			return error("boot: '%s': not writable within %.0f s: the footprint is lost", path, waited);
		sleep(1);
		waited += 1;
	}
}

static const struct backend *backend_named(const char *name, char *why, size_t len)
{
	const struct backend_entry *b = backend_find(name);

	if (!b) {
		snprintf(why, len, "unknown backend '%s': expected one of %s", name, backend_names());
		return NULL;
	}
	if (b->be->usable(why, len))
		return NULL;
	return b->be;
}

static int record(const struct boot_opts *o)
{
	pid_t pid1 = 1;
	struct trace_opts t = {.pids = &pid1, .npids = 1, .duration = o->duration, .stop = &stop_signal};
	struct footprint *fp = NULL;
	char why[256] = "";
	const char *names[2] = {o->backend && strcmp(o->backend, "auto") ? o->backend : "bpf", NULL};
	char *path = o->output ? xstrdup(o->output) : default_output();
	int rc = -1, stopped;

	if (!o->backend || !strcmp(o->backend, "auto"))
		names[1] = "ptrace";
	for (size_t i = 0; i < 2 && names[i] && rc < 0 && ready_fd >= 0; i++) {
		const struct backend *be = backend_named(names[i], why, sizeof(why));

		if (!be) {
			warning("boot: backend %s: %s", names[i], why);
			continue;
		}
		if (i)
			fprintf(stderr, "kfootprint: boot: using %s, %s cannot load\n", names[i], names[0]);
		fp__free(fp);
		fp = fp__new();
		fp__start(fp);
		fp->backend = xstrdup(be->name);
		fp->label = xstrdup("boot");
		fp->complete = true;
		rc = be->run(&t, fp);
	}
	/* the recorder could not attach: init runs anyway, now */
	attached(0);
	if (rc < 0) {
		fp__free(fp);
		free(path);
		return error("boot: nothing recorded: init runs untouched");
	}
	fp__finish(fp);
	stopped = stop_signal;
	/* joined before end_why is read: the watcher wrote it before it raised the stop */
	watch_quit = 1;
	if (watching)
		pthread_join(watcher, NULL);
	if (stopped && end_why[0]) {
		/* the backend says "interrupted" of any stop: the end condition's own words replace that */
		if (fp->incomplete_why && !strcmp(fp->incomplete_why, "interrupted")) {
			free(fp->incomplete_why);
			fp->incomplete_why = NULL;
		}
		fp__set_incomplete(fp, end_why);
		fprintf(stderr, "kfootprint: boot: recording ended: %s\n", end_why);
	} else if (stopped) {
		fp__set_incomplete(fp, "stopped");
	}
	rc = write_when_possible(o, fp, path);
	fp__free(fp);
	free(path);
	return rc;
}

static void recorder(const struct boot_opts *o, int fd)
{
	struct sigaction sa = {.sa_handler = on_stop};

	ready_fd = fd;
	prctl(PR_SET_NAME, RECORDER_COMM);
	/* a session of its own: init's is not ours to share, nor its terminal signals */
	setsid();
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (o->until_file || o->until_target) {
		until = o;
		watching = !pthread_create(&watcher, NULL, watch_until, NULL);
		if (!watching)
			warning("boot: cannot watch for '%s': recording ends otherwise",
				o->until_target ? o->until_target : o->until_file);
	}
	trace_attached_hook = attached;
	_exit(record(o) < 0 ? 1 : 0);
}

int boot_run(const struct boot_opts *o)
{
	int p[2];
	pid_t child;

	if (pipe2(p, O_CLOEXEC) < 0) {
		perror_msg("boot: pipe");
		return exec_init(o);
	}
	child = fork();
	if (child == 0) {
		close(p[0]);
		recorder(o, p[1]);
	}
	close(p[1]);
	if (child < 0) {
		perror_msg("boot: fork");
	} else {
		/* until the recorder holds PID 1 (one byte) or gave up (end of file), at most ready_timeout */
		struct pollfd w = {p[0], POLLIN, 0};
		char c;

		if (poll(&w, 1, (int)(o->ready_timeout * 1000)) == 1)
			(void)!read(p[0], &c, 1);
	}
	close(p[0]);
	return exec_init(o);
}

int boot_stop(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;

	if (!d)
		return perror_msg("boot --stop: /proc");
	while ((e = readdir(d))) {
		char path[64], comm[32] = "";
		long pid = strtol(e->d_name, NULL, 10);
		FILE *f;

		if (pid <= 1 || pid == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
		if (strcmp(comm, RECORDER_COMM))
			continue;
		if (kill((pid_t)pid, SIGTERM) < 0)
			warning("boot --stop: pid %ld: %s", pid, strerror(errno));
		else
			found++;
	}
	closedir(d);
	if (!found)
		return error("boot --stop: no kfootprint boot recorder is running");
	fprintf(stderr, "kfootprint: boot: recorder told to stop (%d)\n", found);
	return 0;
}
