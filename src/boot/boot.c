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
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sched.h>
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

/*
 * -v: each step of the hand-off on the kernel's clock (CLOCK_BOOTTIME, as /proc/uptime and printk's times
 * count), so that a boot's log says where the time before init went (make bench-boot, docs/benchmarks.md).
 */
__attribute__((format(printf, 1, 2))) static void mark(const char *fmt, ...)
{
	struct timespec ts;
	char what[128];
	va_list ap;

	if (!kf_verbose || clock_gettime(CLOCK_BOOTTIME, &ts))
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	debug("boot: %lld.%03ld s: %s", (long long)ts.tv_sec, ts.tv_nsec / 1000000, what);
}

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
	if ((v = getenv("kfootprint_ready_timeout")) && !parse_seconds("kfootprint_ready_timeout", v, &d))
		o->ready_timeout = d;
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
/* Set by the signal handlers and by the watcher: the backends' stop flag (trace_opts.stop). */
static volatile sig_atomic_t stop_signal;

/* The recorder's state, from its fork to the footprint written. */
struct boot_rec {
	const struct boot_opts *o; /* the end condition: o->until_file or o->until_target */
	int ready_fd;		   /* PID 1 waits on its other end; -1 once init is released */
	pthread_t watcher;
	bool watching;
	volatile sig_atomic_t watch_quit; /* the recording ended otherwise: the watcher ends */
	/* why the recording ended, when an end condition ended it: the footprint's incomplete_why */
	char end_why[600];
	bool init_ran_first; /* init was exec'd before the recorder held PID 1 */
	/* "/proc/1/root" once the recorder has a mount namespace of its own: init's paths are reached through it */
	const char *init_root;
};

/* path as init sees it (a relative one from /, the directory the kernel starts init in) */
static void in_init(const struct boot_rec *r, char *buf, size_t len, const char *path)
{
	snprintf(buf, len, "%s%s%s", r->init_root, *r->init_root && *path != '/' ? "/" : "", path);
}

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
	struct boot_rec *r = arg;
	const struct boot_opts *until = r->o;
	struct sdbus_watch w;
	char file[PATH_MAX], bus[PATH_MAX];

	if (until->until_file)
		in_init(r, file, sizeof(file), until->until_file);
	/* systemd's socket as init sees it: /run is mounted later, maybe where the recorder's mounts do not see */
	in_init(r, bus, sizeof(bus), "/run/systemd/private");
	if (until->until_target)
		sdbus_watch_init(&w, until->until_target, bus);
	while (!stop_signal && !r->watch_quit) {
		bool target = until->until_target && sdbus_watch_poll(&w, 250) > 0;

		if (target || (until->until_file && !access(file, F_OK))) {
			if (target)
				snprintf(r->end_why, sizeof(r->end_why), "target %s reached", until->until_target);
			else
				snprintf(r->end_why, sizeof(r->end_why), "file %s appeared", until->until_file);
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

/* Whether PID 1 still runs this program, kfootprint boot (it has not exec'd init yet). */
static bool pid1_is_us(void)
{
	struct stat self, pid1;

	return !stat("/proc/self/exe", &self) && !stat("/proc/1/exe", &pid1) && self.st_dev == pid1.st_dev &&
	       self.st_ino == pid1.st_ino;
}

/* trace_opts.on_attached: the recorder holds PID 1 (tgid), or gave up (0): init is released */
static void attached(void *ctx, pid_t tgid)
{
	struct boot_rec *r = ctx;

	if (r->ready_fd >= 0) {
		/*
		 * Attached before this look: PID 1 still kfootprint here means init's first call comes later.
		 * Otherwise PID 1 stopped waiting (ready_timeout) and init's first calls were missed.
		 */
		if (tgid && !pid1_is_us())
			r->init_ran_first = true;
		mark(tgid ? "recorder attached, init released" : "recorder gave up, init released");
		(void)!write(r->ready_fd, "1", 1);
		close(r->ready_fd);
		r->ready_fd = -1;
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

/* One try: 0 when the footprint is written to path, -1 when its directory is not writable (yet). */
static int try_write(const struct footprint *fp, const char *path)
{
	make_parent(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	/* a probe before fp__save, whose failure would say so on the console every second */
	if (fd < 0 && errno != EEXIST)
		return -1;
	if (fd >= 0) {
		close(fd);
		unlink(path);
	}
	if (fp__save(fp, path))
		return -1;
	fprintf(stderr, "kfootprint: boot: footprint written to %s\n", path);
	return 0;
}

/*
 * The same in init's mount namespace, where the recorder has one of its own (own_proc_sys): by a child, which
 * alone can join it (a process with threads cannot), as output files are never written through /proc/1/root
 * (its link reads "/", which the checked walk of every output path would take in the recorder's namespace).
 */
static int try_write_in_init_ns(const struct footprint *fp, const char *path)
{
	int status;
	pid_t child = fork();

	if (child == 0) {
		int ns = open("/proc/1/ns/mnt", O_RDONLY | O_CLOEXEC);

		if (ns < 0 || setns(ns, CLONE_NEWNS) < 0) {
			perror_msg("boot: joining init's mount namespace");
			_exit(2);
		}
		_exit(try_write(fp, path) ? 1 : 0);
	}
	if (child < 0 || waitpid(child, &status, 0) != child)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/*
 * The footprint stays in memory until it can be written: a read-only root is remounted read-write later in a
 * boot, /var/log may be a file system mounted later. Tried every second for write_timeout seconds.
 */
static int write_when_possible(const struct boot_rec *r, const struct footprint *fp, const char *path)
{
	const struct boot_opts *o = r->o;
	double waited = 0;

	while ((*r->init_root ? try_write_in_init_ns(fp, path) : try_write(fp, path)) < 0) {
		if (waited >= o->write_timeout)
			return error("boot: '%s': not writable within %.0f s: the footprint is lost", path, waited);
		sleep(1);
		waited += 1;
	}
	return 0;
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

static int record(struct boot_rec *r)
{
	const struct boot_opts *o = r->o;
	pid_t pid1 = 1;
	struct trace_opts t = {.pids = &pid1,
			       .npids = 1,
			       .duration = o->duration,
			       .stop = &stop_signal,
			       .on_attached = attached,
			       .on_attached_ctx = r};
	struct footprint *fp = NULL;
	char why[256] = "";
	const char *names[2] = {o->backend && strcmp(o->backend, "auto") ? o->backend : "bpf", NULL};
	char *path = o->output ? xstrdup(o->output) : default_output();
	int rc = -1, stopped;

	if (!o->backend || !strcmp(o->backend, "auto"))
		names[1] = "ptrace";
	for (size_t i = 0; i < 2 && names[i] && rc < 0 && r->ready_fd >= 0; i++) {
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
		mark("recorder starts the %s backend", names[i]);
		rc = be->run(&t, fp);
	}
	/* the recorder could not attach: init runs anyway, now */
	attached(r, 0);
	if (rc < 0) {
		fp__free(fp);
		free(path);
		return error("boot: nothing recorded: init runs untouched");
	}
	fp__finish(fp);
	stopped = stop_signal;
	/* joined before end_why is read: the watcher wrote it before it raised the stop */
	r->watch_quit = 1;
	if (r->watching)
		pthread_join(r->watcher, NULL);
	if (stopped && r->end_why[0]) {
		/* the backend says "interrupted" of any stop: the end condition's own words replace that */
		if (fp->incomplete_why && !strcmp(fp->incomplete_why, "interrupted")) {
			free(fp->incomplete_why);
			fp->incomplete_why = NULL;
		}
		fp__set_incomplete(fp, r->end_why);
		fprintf(stderr, "kfootprint: boot: recording ended: %s\n", r->end_why);
	} else if (stopped) {
		fp__set_incomplete(fp, "stopped");
	}
	if (r->init_ran_first) {
		/* first among the reasons: an end condition's is always there */
		char *was = fp->incomplete_why;

		warning("boot: init ran before the recorder attached (--ready-timeout): its first calls are missing");
		fp->incomplete_why =
		    xasprintf("init ran before recording was attached%s%s", was ? "; " : "", was ? was : "");
		fp->complete = false;
		free(was);
	}
	rc = write_when_possible(r, fp, path);
	fp__free(fp);
	free(path);
	return rc;
}

/*
 * The kernel starts init without /proc or /sys (an initramfs moves its own into the root before it hands over;
 * a system booted without one has neither), and both backends need them. The recorder then mounts its own in
 * a mount namespace of its own, so init still finds the mounts as the kernel left them, and reaches init's
 * later mounts (the end file's, the footprint's directory) through /proc/1/root.
 */
static void own_proc_sys(struct boot_rec *r)
{
	bool proc = !access("/proc/self/stat", F_OK), sys = !access("/sys/kernel", F_OK);

	if (proc && sys)
		return;
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		warning("boot: no /proc or /sys, and no mount namespace to mount them in: %s", strerror(errno));
		return;
	}
	if (!proc && mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		warning("boot: cannot mount /proc for the recorder: %s", strerror(errno));
	if (!sys && mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		warning("boot: cannot mount /sys for the recorder: %s", strerror(errno));
	r->init_root = "/proc/1/root";
	mark("recorder mounted its own%s%s", proc ? "" : " /proc", sys ? "" : " /sys");
}

static void recorder(const struct boot_opts *o, int fd)
{
	struct sigaction sa = {.sa_handler = on_stop};
	struct boot_rec r = {.o = o, .ready_fd = fd, .init_root = ""};

	mark("recorder forked");
	/* first: a mount namespace is unshared by a process whose threads do not share its file system state */
	own_proc_sys(&r);
	prctl(PR_SET_NAME, RECORDER_COMM);
	/* a session of its own: init's is not ours to share, nor its terminal signals */
	setsid();
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* PID 1 may have stopped waiting: the ready byte then meets a closed pipe, which is not fatal */
	signal(SIGPIPE, SIG_IGN);
	if (o->until_file || o->until_target) {
		r.watching = !pthread_create(&r.watcher, NULL, watch_until, &r);
		if (!r.watching)
			warning("boot: cannot watch for '%s': recording ends otherwise",
				o->until_target ? o->until_target : o->until_file);
	}
	_exit(record(&r) < 0 ? 1 : 0);
}

int boot_run(const struct boot_opts *o)
{
	int p[2];
	pid_t child;

	mark("kfootprint boot runs as PID 1");
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
	mark("PID 1 execs init");
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
