// SPDX-License-Identifier: GPL-2.0
// The kernel builder (kbuild.h): conf judges the fragment, the .config it makes names the build directory, make
// builds there. A build directory is complete when .kf-complete is in it; one without it (an interrupted or
// failed build) is built on by the next run with the same configuration, as make does.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "tailor/kbuild.h"
#include "tailor/spawn.h"
#include "util/error.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define COMPLETE ".kf-complete"

char *tl_cache_dir(void)
{
	const char *e = getenv("KF_TAILOR_CACHE");
	return xstrdup(e && *e ? e : "/var/cache/kfootprint/tailor");
}

/* mkdir -p, each level 0700 when new; an existing one must be a directory of ours, not a link. */
static int make_dirs(const char *path)
{
	char *p = xstrdup(path);
	for (char *s = p + 1;; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;
		*s = '\0';
		struct stat st;
		if (mkdir(p, 0700) < 0 && errno != EEXIST) {
			int rc = perror_msg("tailor: cannot create '%s'", p);
			free(p);
			return rc;
		}
		if (lstat(p, &st) < 0 || !S_ISDIR(st.st_mode)) {
			int rc = error("tailor: '%s' is not a directory", p);
			free(p);
			return rc;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return 0;
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return perror_msg("tailor: cannot write '%s'", path);
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	if (w != (ssize_t)n || close(fd) < 0) {
		int e = w < 0 ? errno : ENOSPC;
		unlink(path);
		errno = e;
		return perror_msg("tailor: cannot write '%s'", path);
	}
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

static void remove_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* "6.1.192" from VERSION, PATCHLEVEL and SUBLEVEL of the top Makefile; NULL when it is not a kernel tree. */
static char *tree_version(const char *src)
{
	char *mk = xasprintf("%s/Makefile", src);
	char *text = read_text(mk);
	free(mk);
	if (!text)
		return NULL;
	long v[3] = {-1, -1, -1};
	static const char *const keys[] = {"VERSION = ", "PATCHLEVEL = ", "SUBLEVEL = "};
	for (int i = 0; i < 3; i++) {
		const char *p = strstr(text, keys[i]);
		if (p && (p == text || p[-1] == '\n'))
			v[i] = strtol(p + strlen(keys[i]), NULL, 10);
	}
	free(text);
	if (v[0] < 0 || v[1] < 0)
		return NULL;
	return v[2] >= 0 ? xasprintf("%ld.%ld.%ld", v[0], v[1], v[2]) : xasprintf("%ld.%ld", v[0], v[1]);
}

char *tl_source(const char *srcdir, const char *cache)
{
	if (srcdir) {
		char *abs = realpath(srcdir, NULL);
		if (!abs) {
			perror_msg("tailor: '%s'", srcdir);
			return NULL;
		}
		char *kc = xasprintf("%s/Kconfig", abs), *v = tree_version(abs);
		bool tree = v && access(kc, R_OK) == 0;
		free(kc);
		free(v);
		if (!tree) {
			error("tailor: '%s': not a kernel tree (no Makefile with VERSION, or no Kconfig)", srcdir);
			free(abs);
			return NULL;
		}
		return abs;
	}
	static const char tarball[] = "/usr/src/linux-source-6.1.tar.xz";
	char *dir = xasprintf("%s/src", cache), *tree = xasprintf("%s/linux-source-6.1", dir);
	char *done = xasprintf("%s/" COMPLETE, tree), *lock = xasprintf("%s/.lock", dir);
	int fd = -1;
	if (access(done, F_OK) == 0)
		goto out;
	if (access(tarball, R_OK) < 0) {
		perror_msg("tailor: no kernel tree given and '%s' cannot be read (apt-get install linux-source-6.1)",
			   tarball);
		goto fail;
	}
	if (make_dirs(dir) < 0)
		goto fail;
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		perror_msg("tailor: '%s'", lock);
		goto fail;
	}
	if (access(done, F_OK) < 0) {
		/* extracted beside and renamed, so that an interrupted run never leaves half a tree to be used */
		char *tmp = xasprintf("%s/tmp.%d", dir, (int)getpid());
		remove_tree(tmp);
		remove_tree(tree);
		fprintf(stderr, "kfootprint: tailor: extracting %s (once)\n", tarball);
		char *argv[] = {"tar", "-xJf", (char *)tarball, "-C", tmp, NULL};
		int rc = mkdir(tmp, 0700) < 0 ? -1 : tl_spawn(argv, 2, NULL, NULL);
		char *inner = xasprintf("%s/linux-source-6.1", tmp);
		if (rc != 0 || rename(inner, tree) < 0 || write_text(done, "") < 0) {
			error("tailor: extracting '%s' failed%s", tarball, rc > 0 ? " (tar said why above)" : "");
			remove_tree(tmp);
			free(tmp);
			free(inner);
			goto fail;
		}
		remove_tree(tmp);
		free(tmp);
		free(inner);
	}
out:
	if (fd >= 0)
		close(fd);
	free(dir);
	free(done);
	free(lock);
	return tree;
fail:
	if (fd >= 0)
		close(fd);
	free(dir);
	free(done);
	free(lock);
	free(tree);
	return NULL;
}

/* The compiler's own words for itself: a new compiler makes a new build. */
static char *compiler_id(void)
{
	FILE *p = popen("${CC:-gcc} --version 2>/dev/null", "r");
	char line[512] = "";
	if (p) {
		if (!fgets(line, sizeof(line), p))
			line[0] = '\0';
		pclose(p);
	}
	line[strcspn(line, "\n")] = '\0';
	return xstrdup(line);
}

/* The key: the .config as conf wrote it, the tree (path, version, Makefile's mtime), the compiler. */
static void key_of(const struct tl_kernel *k, char key[17])
{
	struct sha256 h;
	char hex[65], *cc = compiler_id(), *mk = xasprintf("%s/Makefile", k->src);
	struct stat st = {0};
	stat(mk, &st);
	char *tree = xasprintf("%s\n%s\n%lld\n%s\n", k->src, k->version, (long long)st.st_mtime, cc);
	sha256_init(&h);
	sha256_update(&h, tree, strlen(tree));
	sha256_update(&h, k->config, strlen(k->config));
	sha256_final_hex(&h, hex);
	memcpy(key, hex, 16);
	key[16] = '\0';
	free(cc);
	free(mk);
	free(tree);
}

/*
 * A full disk, said so in one line: the log's last lines would only repeat it (or be missing: the log is on the
 * same disk). Full: the log says so, or less than a MiB is left where the make wrote.
 */
static bool log_says_full(const char *path, const char *where)
{
	char *text = read_text(path);
	struct statvfs v;
	bool full = (text && strstr(text, "No space left on device")) ||
		    (statvfs(where, &v) == 0 && (uint64_t)v.f_bavail * v.f_frsize < (1u << 20));
	free(text);
	if (full)
		error("tailor: %s: No space left on device", where);
	return full;
}

static void tail_log(const char *path, int lines)
{
	char *text = read_text(path);
	if (!text)
		return;
	const char *p = text + strlen(text);
	for (int n = 0; p > text && n <= lines; p--)
		n += p[-1] == '\n';
	fprintf(stderr, "%s%s", p == text ? "" : "...\n", p);
	free(text);
}

int tl_kernel_config(const char *src, const char *cache, const char *fragment, struct tl_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->src = xstrdup(src);
	k->version = tree_version(src);
	if (!k->version)
		return error("tailor: '%s': not a kernel tree (no Makefile with VERSION)", src);
	char *builds = xasprintf("%s/build", cache);
	if (make_dirs(builds) < 0) {
		free(builds);
		return -1;
	}
	char tmpl[PATH_MAX];
	snprintf(tmpl, sizeof(tmpl), "%s/conf.XXXXXX", builds);
	if (!mkdtemp(tmpl)) {
		int rc = perror_msg("tailor: cannot create a directory in '%s'", builds);
		free(builds);
		return rc;
	}
	char *frag = xasprintf("%s/fragment", tmpl), *log = xasprintf("%s/kconfig.log", tmpl);
	char *cfg = xasprintf("%s/.config", tmpl), *kdir = xasprintf("%s/kconfig-%s", cache, k->version);
	char *out = xasprintf("O=%s", kdir), *all = xasprintf("KCONFIG_ALLCONFIG=%s", frag);
	char *kcfg = xasprintf("KCONFIG_CONFIG=%s", cfg), *klock = xasprintf("%s.lock", kdir);
	int rc = write_text(frag, fragment);
	/*
	 * conf is built once, in a directory of its own (shared under a lock), and writes the .config where
	 * KCONFIG_CONFIG says: a configuration then takes a second, not the twenty of building conf again.
	 */
	int kfd = rc < 0 ? -1 : open(klock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (rc == 0 && (kfd < 0 || flock(kfd, LOCK_EX) < 0 || make_dirs(kdir) < 0))
		rc = perror_msg("tailor: '%s'", klock);
	if (rc == 0) {
		int lfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		char *argv[] = {"make", "-s", "-C", (char *)src, out, kcfg, all, "allnoconfig", NULL};
		int st = tl_spawn(argv, lfd, NULL, NULL);
		if (lfd >= 0)
			close(lfd);
		if (st != 0 && log_says_full(log, kdir)) {
			rc = -1;
			remove_tree(kdir); /* half a conf: never taken for one */
		} else if (st != 0) {
			rc = error("tailor: the tree's kconfig failed on the fragment (make allnoconfig: status %d):",
				   st);
			tail_log(log, 15);
		} else if (!(k->config = read_text(cfg))) {
			rc = perror_msg("tailor: no .config from kconfig in '%s'", tmpl);
		}
	}
	if (rc == 0) {
		key_of(k, k->key);
		k->dir = xasprintf("%s/%s", builds, k->key);
		char *done = xasprintf("%s/" COMPLETE, k->dir);
		struct stat st;
		if (stat(done, &st) == 0) {
			k->built = k->cached = true;
			utimensat(AT_FDCWD, done, NULL, 0); /* lately used: the last to be pruned */
		} else if (lstat(k->dir, &st) < 0 && rename(tmpl, k->dir) < 0) {
			rc = perror_msg("tailor: cannot create '%s'", k->dir);
		}
		/* else an unfinished build of the same configuration: make carries on with it */
		free(done);
	}
	if (kfd >= 0)
		close(kfd);
	if (access(tmpl, F_OK) == 0)
		remove_tree(tmpl);
	free(frag);
	free(log);
	free(cfg);
	free(kdir);
	free(out);
	free(all);
	free(kcfg);
	free(klock);
	free(builds);
	return rc;
}

struct progress {
	bool tty;
	unsigned objs;
	time_t start, shown;
	const char *last;
};

static void on_make_line(const char *line, void *ctx)
{
	struct progress *p = ctx;
	/* Kbuild's short lines: "  CC      kernel/fork.o", "  LD      vmlinux" */
	if (line[0] != ' ' || line[1] != ' ' || line[2] == ' ')
		return;
	p->objs += !strncmp(line + 2, "CC ", 3) || !strncmp(line + 2, "AS ", 3);
	time_t now = time(NULL);
	if (!p->tty || now == p->shown)
		return;
	p->shown = now;
	long s = (long)(now - p->start);
	fprintf(stderr, "\r\033[Kkfootprint: tailor: building: %u objects, %ldm%02lds: %.60s", p->objs, s / 60, s % 60,
		line + 2);
}

struct usage {
	char *path;
	time_t used;
	uint64_t bytes;
};

/* The disk a directory takes, links not followed; depth-bounded like the trees it measures. */
static uint64_t dir_bytes(int dfd, int depth)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	uint64_t sum = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		sum += (uint64_t)st.st_blocks * 512;
		if (S_ISDIR(st.st_mode) && depth < 64) {
			int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				sum += dir_bytes(sub, depth + 1);
		}
	}
	closedir(d);
	return sum;
}

/* The build directories by last use; what is over max goes, oldest first, never keep, never one in use. */
static void prune(const char *cache, const char *keep, uint64_t max)
{
	char *builds = xasprintf("%s/build", cache);
	DIR *d = opendir(builds);
	if (!d) {
		free(builds);
		return;
	}
	struct usage *u = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	for (struct dirent *e; (e = readdir(d));) {
		/* build directories only: not the locks beside them, nor a conf.* of a run under way */
		if (strlen(e->d_name) != 16 || strspn(e->d_name, "0123456789abcdef") != 16)
			continue;
		char *path = xasprintf("%s/%s", builds, e->d_name), *done = xasprintf("%s/" COMPLETE, path);
		struct stat st;
		time_t used = stat(done, &st) == 0 ? st.st_mtime : 0;
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		uint64_t bytes = fd >= 0 ? dir_bytes(fd, 0) : 0;
		XGROW(u, cap, n + 1);
		u[n++] = (struct usage){path, used, bytes};
		total += bytes;
		free(done);
	}
	closedir(d);
	while (total > max) {
		size_t old = SIZE_MAX;
		for (size_t i = 0; i < n; i++)
			if (u[i].path && strcmp(u[i].path, keep) && (old == SIZE_MAX || u[i].used < u[old].used))
				old = i;
		if (old == SIZE_MAX)
			break;
		debug("tailor: pruning %s (%llu MB)", u[old].path, (unsigned long long)(u[old].bytes >> 20));
		remove_tree(u[old].path);
		total -= u[old].bytes;
		free(u[old].path);
		u[old].path = NULL;
	}
	for (size_t i = 0; i < n; i++)
		free(u[i].path);
	free(u);
	free(builds);
}

int tl_kernel_build(struct tl_kernel *k, const char *cache, unsigned jobs, uint64_t max_bytes)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	int rc = 0;
	char *lock = xasprintf("%s.lock", k->dir);
	int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (lfd < 0 || flock(lfd, LOCK_EX) < 0) {
		rc = perror_msg("tailor: '%s'", lock);
		goto out;
	}
	char *done = xasprintf("%s/" COMPLETE, k->dir);
	if (access(done, F_OK) == 0) {
		k->built = true; /* another run built it while this one waited */
	} else {
		char *log = xasprintf("%s/build.log", k->dir), *out = xasprintf("O=%s", k->dir);
		char *j = xasprintf("-j%u", jobs ? jobs : 1);
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		struct progress p = {.tty = isatty(2), .start = time(NULL)};
		fprintf(stderr, "kfootprint: tailor: building Linux %s in %s (log: build.log)\n", k->version, k->dir);
		char *argv[] = {"make", "-C", k->src, out, j, "bzImage", NULL};
		int st = tl_spawn(argv, fd, on_make_line, &p);
		if (p.tty)
			fprintf(stderr, "\r\033[K");
		if (fd >= 0)
			close(fd);
		if (st != 0 && log_says_full(log, k->dir)) {
			rc = -1;
		} else if (st != 0) {
			rc = error("tailor: make bzImage failed (status %d), the log's last lines:", st);
			tail_log(log, 20);
		} else if (write_text(done, k->version) < 0) {
			rc = -1;
		} else {
			k->built = true;
		}
		free(log);
		free(out);
		free(j);
	}
	free(done);
	prune(cache, k->dir, max_bytes);
out:
	if (lfd >= 0)
		close(lfd);
	free(lock);
	clock_gettime(CLOCK_MONOTONIC, &b);
	k->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	return rc;
}

char *tl_kernel_file(const struct tl_kernel *k, const char *rel)
{
	return xasprintf("%s/%s", k->dir, rel);
}

void tl_kernel_release(struct tl_kernel *k)
{
	free(k->src);
	free(k->version);
	free(k->dir);
	free(k->config);
	memset(k, 0, sizeof(*k));
}
