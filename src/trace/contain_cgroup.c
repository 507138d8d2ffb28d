// SPDX-License-Identifier: GPL-2.0
/*
 * The workload's own cgroup v2 (see contain.h): finding kfootprint's cgroup through /proc/self/mountinfo, making
 * the workload's below it, moving a process in, listing and killing its processes, removing it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/contain_int.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

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

/* --- the workload's cgroup: its files and its processes ----------------------------------------------- */

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

/* Moves process pid into the workload's cgroup. 0, or -1 with errno set. */
int cg_join(const struct contain *c, pid_t pid)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%d", (int)pid);
	return cg_write(c->dirfd, "cgroup.procs", buf);
}

/* Kills every task of the cgroup through cgroup.kill (c->has_kill). 0, or -1 with errno set. */
int cg_kill(const struct contain *c)
{
	return cg_write(c->dirfd, "cgroup.kill", "1");
}

/* Calls fn for each pid listed in the cgroup's cgroup.procs (read in chunks: no allocation). -1: unreadable. */
int cg_each_pid(int dirfd, void (*fn)(struct contain *c, pid_t pid, void *ctx), struct contain *c, void *ctx)
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

/*
 * Calls fn with the name of each cgroup directly below dirfd. The directory is read through a descriptor of
 * its own (not dup(): that would share dirfd's offset).
 */
static void each_child(int dirfd, void (*fn)(int dirfd, const char *name, void *arg), void *arg)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (de->d_type == DT_DIR && strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			fn(dirfd, de->d_name, arg);
	closedir(d);
}

struct pid_walk {
	void (*fn)(struct contain *c, pid_t pid, void *ctx);
	struct contain *c;
	void *ctx;
	int depth;
};

static void each_pid_below(int dirfd, const char *name, void *arg)
{
	const struct pid_walk *w = arg;
	int sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (sub >= 0) {
		cg_each_pid_tree(sub, w->fn, w->c, w->ctx, w->depth + 1);
		close(sub);
	}
}

/* cg_each_pid over the cgroup and every cgroup below it: cgroup.procs lists only its own members. */
void cg_each_pid_tree(int dirfd, void (*fn)(struct contain *c, pid_t pid, void *ctx), struct contain *c, void *ctx,
		      int depth)
{
	struct pid_walk w = {fn, c, ctx, depth};

	cg_each_pid(dirfd, fn, c, ctx);
	if (depth < 32)
		each_child(dirfd, each_pid_below, &w);
}

/* Whether process pid is in the workload's cgroup, as its /proc/PID/cgroup says now. */
bool cg_has_pid(const struct contain *c, pid_t pid)
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

bool cg_populated(const struct contain *c)
{
	char buf[256];
	const char *p;

	if (cg_read(c->dirfd, "cgroup.events", buf, sizeof(buf)) < 0)
		return false; /* removed */
	p = strstr(buf, "populated ");
	return p && p[10] == '1';
}

/* --- making and removing it ---------------------------------------------------------------------------- */

/*
 * Removes a cgroup the workload made inside its own (a nested kfootprint, a container runtime) and those below
 * it: they are its, and its cgroup cannot go while they exist. Depth first; a cgroup still populated stays.
 */
static void remove_child(int dirfd, const char *name, void *arg)
{
	int sub = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (sub >= 0) {
		each_child(sub, remove_child, NULL);
		close(sub);
	}
	unlinkat(dirfd, name, AT_REMOVEDIR);
}

/* Removes the cgroup once it is empty (a task that has just been killed may hold it a moment). */
void cg_remove(struct contain *c, bool quiet)
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
		each_child(c->dirfd, remove_child, NULL);
		nap_ms(10);
	}
	c->removed = true;
	debug("containment: cgroup '%s' removed", c->path);
}

/* Makes the workload's cgroup below kfootprint's own; false when there is none to be had here. */
bool cg_make(struct contain *c)
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
