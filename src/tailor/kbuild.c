// SPDX-License-Identifier: GPL-2.0
// The kernel builder (kbuild.h): conf judges the fragment, the .config it makes names the build directory, make
// builds there. A build is complete when root has taken its outputs and written kernels/KEY/.kf-complete; one
// without it (an interrupted or failed build) is built on by the next run with the same configuration, as make
// does.
//
// Privilege: the tree's code (conf, make, its scripts and host programs) runs as the build user (spawn.h) in a
// build directory of its own; the cache's own directories, the locks, the marker of a complete build and the
// outputs root takes out of a build (kernels/KEY: bzImage, vmlinux, .config, each a regular file reached without
// a link) are root's. The build user can spoil only its own builds, never make root read or write elsewhere.
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

/* A build's outputs that root takes: the path in the build directory, the name in kernels/KEY. */
static const struct {
	const char *rel, *name;
} outputs[] = {{"arch/x86/boot/bzImage", "bzImage"}, {"vmlinux", "vmlinux"}, {".config", ".config"}};

char *tl_cache_dir(void)
{
	const char *e = getenv("KF_TAILOR_CACHE");
	return xstrdup(e && *e ? e : "/var/cache/kfootprint/tailor");
}

/*
 * mkdir -p, each level 0711 when new (the build user passes through to its directories, lists and writes
 * none); an existing one must be a directory, not a link.
 */
static int make_dirs(const char *path)
{
	char *p = xstrdup(path);
	for (char *s = p + 1;; s++) {
		if (*s && *s != '/')
			continue;
		char c = *s;
		*s = '\0';
		struct stat st;
		if (mkdir(p, 0711) < 0 && errno != EEXIST) {
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

/* A file of the build user's, read by root: a regular file under dir, no link on the way (tl_open_inside). */
static char *read_inside(const char *dir, const char *rel)
{
	int fd = tl_open_inside(dir, rel);
	if (fd < 0)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(&sb, buf, (size_t)n);
	close(fd);
	if (n < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/* rel under the build directory dir (read as read_inside does) copied to path, root's, whole or not at all. */
static int take_output(const char *dir, const char *rel, const char *path)
{
	int in = tl_open_inside(dir, rel);
	if (in < 0)
		return perror_msg("tailor: the build's '%s' (a regular file, reached without a link)", rel);
	char *tmp = xasprintf("%s.tmp", path);
	int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	char buf[65536];
	ssize_t n = 0;
	int rc = out < 0 ? -1 : 0;
	while (rc == 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			rc = -1;
	if (n < 0)
		rc = -1;
	if ((out >= 0 && close(out) < 0) || rc < 0 || rename(tmp, path) < 0) {
		rc = perror_msg("tailor: cannot write '%s'", path);
		unlink(tmp);
	}
	close(in);
	free(tmp);
	return rc;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
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

/* Each entry under dfd (closed here) given to uid:gid, links themselves, never what they name. */
static int give_at(int dfd, uid_t uid, gid_t gid, int depth)
{
	DIR *d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -1;
	}
	int rc = 0;
	for (struct dirent *e; rc == 0 && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fchownat(dirfd(d), e->d_name, uid, gid, AT_SYMLINK_NOFOLLOW) < 0)
			rc = -1;
		struct stat st;
		if (rc == 0 && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)) {
			int sub = depth < 64
				      ? openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
				      : -1;
			rc = sub < 0 ? -1 : give_at(sub, uid, gid, depth + 1);
		}
	}
	closedir(d);
	return rc;
}

/*
 * A tree root alone wrote (an older kfootprint's build, made as root) given to the build user, to carry on
 * with; what cannot be given is removed, to be built again.
 */
static void give_tree(const char *path, const struct tl_builder *b)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fchown(fd, b->uid, b->gid) < 0 || give_at(dup(fd), b->uid, b->gid, 0) < 0)
		remove_tree(path);
	if (fd >= 0)
		close(fd);
}

/*
 * The cache's own directory (the cache, build/, src/, kernels/): made, and when it is root's and the build user
 * runs as another, opened to passing through (0711: a cache made by an older kfootprint was 0700).
 */
static int cache_dir(const char *path, const struct tl_builder *b)
{
	if (make_dirs(path) < 0)
		return -1;
	struct stat st;
	if (b->drop && lstat(path, &st) == 0 && st.st_uid == 0 && (st.st_mode & 0011) != 0011 &&
	    chmod(path, (st.st_mode & 07777) | 0111) < 0)
		return perror_msg("tailor: '%s'", path);
	return 0;
}

/* A directory the build user writes in: made its own; one another user owns (an older run's) is made anew. */
static int builder_dir(const char *path, const struct tl_builder *b)
{
	struct stat st;
	if (lstat(path, &st) == 0 && (!S_ISDIR(st.st_mode) || st.st_uid != b->uid || st.st_gid != b->gid))
		remove_tree(path);
	if ((mkdir(path, 0755) < 0 && errno != EEXIST) || lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return perror_msg("tailor: cannot create '%s'", path);
	if ((st.st_uid != b->uid || st.st_gid != b->gid) && lchown(path, b->uid, b->gid) < 0)
		return perror_msg("tailor: cannot give '%s' to the build user %s", path, b->name);
	return 0;
}

/* The tree is the build user's to read, never to write: a tree it cannot read (under /root, 0700) is said. */
static int builder_reads(const struct tl_builder *b, const char *src)
{
	if (!b->drop)
		return 0;
	char *mk = xasprintf("%s/Makefile", src);
	int e = tl_builder_access(b, mk);
	free(mk);
	if (e) {
		errno = e;
		return perror_msg("tailor: the build user %s cannot read the tree '%s' (a directory above it is closed "
				  "to it, as /root is): give --kernel-src a tree it can read, or KF_TAILOR_USER",
				  b->name, src);
	}
	return 0;
}

/* "6.1.192" from VERSION, PATCHLEVEL and SUBLEVEL of the top Makefile; NULL when it is not a kernel tree. */
static char *tree_version(const char *src)
{
	char *mk = xasprintf("%s/Makefile", src);
	char *text = tl_read_text(mk);
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
	if (access(done, F_OK) == 0) {
		struct tl_builder b;
		if (tl_builder_get(&b) < 0 || cache_dir(cache, &b) < 0 || cache_dir(dir, &b) < 0)
			goto fail;
		goto out;
	}
	if (access(tarball, R_OK) < 0) {
		perror_msg("tailor: no kernel tree given and '%s' cannot be read (apt-get install linux-source-6.1)",
			   tarball);
		goto fail;
	}
	struct tl_builder b;
	if (tl_builder_get(&b) < 0 || cache_dir(cache, &b) < 0 || cache_dir(dir, &b) < 0)
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
		/* Debian's own package's file, unpacked by root: owned by root, so the build user only reads it */
		char *argv[] = {"tar", "--no-same-owner", "--no-same-permissions", "-xJf", (char *)tarball, "-C", tmp,
				NULL};
		int rc = mkdir(tmp, 0711) < 0 ? -1 : tl_spawn(argv, 2, NULL, NULL);
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
 * conf's answer kept: conf is a function of the fragment, the tree and the compiler (its toolchain tests), so the
 * .config it wrote for the same three is the same. <cache>/conf/HASH is root's (the cache's directories are, and
 * the build user cannot write there), read only as a regular file of root's. A rerun then needs no conf: 4 s of
 * make as the build user here, twice (the tailored kernel and tinyconfig's for the figures).
 */
static char *memo_path(const char *cache, const char *src, const char *version, const char *fragment)
{
	struct sha256 h;
	char hex[65], *cc = compiler_id(), *mk = xasprintf("%s/Makefile", src);
	struct stat st = {0};
	stat(mk, &st);
	char *tree = xasprintf("conf\n%s\n%s\n%lld\n%s\n", src, version, (long long)st.st_mtime, cc);
	sha256_init(&h);
	sha256_update(&h, tree, strlen(tree));
	sha256_update(&h, fragment, strlen(fragment));
	sha256_final_hex(&h, hex);
	free(cc);
	free(mk);
	free(tree);
	return xasprintf("%s/conf/%s", cache, hex);
}

static char *memo_read(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	close(fd);
	return tl_read_text(path);
}

/* Best effort: without it the next run asks conf again. */
static void memo_write(const char *path, const char *config)
{
	char *dir = xstrdup(path), *tmp = xasprintf("%s.%d", path, (int)getpid());
	*strrchr(dir, '/') = '\0';
	if ((mkdir(dir, 0700) == 0 || errno == EEXIST) && write_text(tmp, config) == 0 && rename(tmp, path) < 0)
		unlink(tmp);
	free(dir);
	free(tmp);
}

/*
 * A full disk, said so in one line: the log's last lines would only repeat it (or be missing: the log is on the
 * same disk). Full: the log says so, or less than a MiB is left where the make wrote.
 */
static bool log_says_full(const char *path, const char *where)
{
	char *text = tl_read_text(path);
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
	char *text = tl_read_text(path);
	if (!text)
		return;
	const char *p = text + strlen(text);
	for (int n = 0; p > text && n <= lines; p--)
		n += p[-1] == '\n';
	fprintf(stderr, "%s%s", p == text ? "" : "...\n", p);
	free(text);
}

/*
 * The build directory of a configuration that an older kfootprint built as root: its outputs are root's own
 * work, taken as they are (kernels/KEY); then the directory is the build user's, as a new one would be.
 */
static bool outputs_complete(const struct tl_kernel *k)
{
	char *done = xasprintf("%s/" COMPLETE, k->out);
	struct stat st;
	bool ok = stat(done, &st) == 0;
	if (ok)
		utimensat(AT_FDCWD, done, NULL, 0); /* lately used: the last to be pruned */
	free(done);
	return ok;
}

static int take_outputs(struct tl_kernel *k);

static void adopt_root_build(struct tl_kernel *k, const struct tl_builder *b)
{
	struct stat st;
	char *old = xasprintf("%s/" COMPLETE, k->dir);
	if (b->drop && lstat(k->dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 && lstat(old, &st) == 0 &&
	    take_outputs(k) == 0)
		debug("tailor: %s: a build made as root, its outputs taken", k->dir);
	free(old);
}

static int config_stage(const char *src, const char *cache, const char *fragment, struct tl_kernel *k)
{
	memset(k, 0, sizeof(*k));
	k->src = xstrdup(src);
	k->version = tree_version(src);
	if (!k->version)
		return error("tailor: '%s': not a kernel tree (no Makefile with VERSION)", src);
	struct tl_builder bu;
	if (tl_builder_get(&bu) < 0 || builder_reads(&bu, src) < 0)
		return -1;
	char *builds = xasprintf("%s/build", cache), *kernels = xasprintf("%s/kernels", cache);
	if (cache_dir(cache, &bu) < 0 || cache_dir(builds, &bu) < 0 || cache_dir(kernels, &bu) < 0) {
		free(builds);
		free(kernels);
		return -1;
	}
	char *memo = memo_path(cache, src, k->version, fragment);
	if ((k->config = memo_read(memo))) {
		key_of(k, k->key);
		k->dir = xasprintf("%s/%s", builds, k->key);
		k->out = xasprintf("%s/%s", kernels, k->key);
		if (outputs_complete(k)) {
			debug("tailor: conf's .config of this fragment kept (%s): %s, built", memo, k->key);
			k->built = k->cached = true;
			free(memo);
			free(builds);
			free(kernels);
			return 0;
		}
		free(k->config);
		free(k->dir);
		free(k->out);
		k->config = k->dir = k->out = NULL; /* not built: conf makes the build directory as it always does */
	}
	char tmpl[PATH_MAX];
	snprintf(tmpl, sizeof(tmpl), "%s/conf.XXXXXX", builds);
	if (!mkdtemp(tmpl) || lchown(tmpl, bu.uid, bu.gid) < 0 || chmod(tmpl, 0755) < 0) {
		int rc = perror_msg("tailor: cannot create a directory in '%s' for the build user", builds);
		free(memo);
		free(builds);
		free(kernels);
		return rc;
	}
	/* the log is root's, out of the build user's reach: root reads it back (its tail, on a failure) */
	char *frag = xasprintf("%s/fragment", tmpl), *log = xasprintf("%s/kconfig-%d.log", kernels, (int)getpid());
	char *cfg = xasprintf("%s/.config", tmpl), *kdir = xasprintf("%s/kconfig-%s", cache, k->version);
	char *out = xasprintf("O=%s", kdir), *all = xasprintf("KCONFIG_ALLCONFIG=%s", frag);
	char *kcfg = xasprintf("KCONFIG_CONFIG=%s", cfg), *klock = xasprintf("%s.lock", kdir);
	int rc = write_text(frag, fragment);
	/*
	 * conf is built once, in a directory of its own (shared under a lock), and writes the .config where
	 * KCONFIG_CONFIG says: a configuration then takes a second, not the twenty of building conf again.
	 */
	int kfd = rc < 0 ? -1 : open(klock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (rc == 0 && (kfd < 0 || flock(kfd, LOCK_EX) < 0))
		rc = perror_msg("tailor: '%s'", klock);
	if (rc == 0 && builder_dir(kdir, &bu) < 0)
		rc = -1;
	if (rc == 0) {
		int lfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
		char *argv[] = {"make", "-s", "-C", (char *)src, out, kcfg, all, "allnoconfig", NULL};
		int st = tl_spawn_as(&bu, argv, lfd, NULL, NULL);
		if (lfd >= 0)
			close(lfd);
		if (st != 0 && log_says_full(log, kdir)) {
			rc = -1;
			remove_tree(kdir); /* half a conf: never taken for one */
		} else if (st != 0) {
			rc = error("tailor: the tree's kconfig failed on the fragment (make allnoconfig: status %d):",
				   st);
			tail_log(log, 15);
		} else if (!(k->config = read_inside(tmpl, ".config"))) {
			rc = perror_msg("tailor: no .config from kconfig in '%s'", tmpl);
		} else {
			memo_write(memo, k->config);
		}
	}
	if (rc == 0) {
		key_of(k, k->key);
		k->dir = xasprintf("%s/%s", builds, k->key);
		k->out = xasprintf("%s/%s", kernels, k->key);
		if (!outputs_complete(k))
			adopt_root_build(k, &bu);
		struct stat st;
		if (outputs_complete(k)) {
			k->built = k->cached = true;
		} else if (lstat(k->dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0 && bu.drop) {
			give_tree(k->dir, &bu); /* an older kfootprint's unfinished build, as root: carried on */
		} else if (lstat(k->dir, &st) == 0 && (st.st_uid != bu.uid || !S_ISDIR(st.st_mode))) {
			remove_tree(k->dir); /* another user's, unfinished: begun again as the build user's */
		}
		if (!k->built && lstat(k->dir, &st) < 0 && rename(tmpl, k->dir) < 0)
			rc = perror_msg("tailor: cannot create '%s'", k->dir);
		/* else an unfinished build of the same configuration: make carries on with it */
	}
	if (kfd >= 0)
		close(kfd);
	if (access(tmpl, F_OK) == 0)
		remove_tree(tmpl);
	unlink(log);
	free(frag);
	free(log);
	free(cfg);
	free(kdir);
	free(out);
	free(all);
	free(kcfg);
	free(klock);
	free(memo);
	free(builds);
	free(kernels);
	return rc;
}

/* The kernel step's time starts with conf (or the kept answer): the rerun's figure is this and the build's. */
int tl_kernel_config(const char *src, const char *cache, const char *fragment, struct tl_kernel *k)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	int rc = config_stage(src, cache, fragment, k);
	clock_gettime(CLOCK_MONOTONIC, &b);
	k->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	return rc;
}

/* Root takes the build's outputs into k->out, then marks it complete there, where the build user cannot write. */
static int take_outputs(struct tl_kernel *k)
{
	if (make_dirs(k->out) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
		char *to = xasprintf("%s/%s", k->out, outputs[i].name);
		int rc = take_output(k->dir, outputs[i].rel, to);
		free(to);
		if (rc < 0)
			return -1;
	}
	char *done = xasprintf("%s/" COMPLETE, k->out);
	int rc = write_text(done, k->version);
	free(done);
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
		char *path = xasprintf("%s/%s", builds, e->d_name);
		char *done = xasprintf("%s/kernels/%s/" COMPLETE, cache, e->d_name);
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
		char *kout = xasprintf("%s/kernels/%s", cache, strrchr(u[old].path, '/') + 1);
		remove_tree(kout);
		free(kout);
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
	struct tl_builder bu;
	if (lfd < 0 || flock(lfd, LOCK_EX) < 0) {
		rc = perror_msg("tailor: '%s'", lock);
		goto out;
	}
	if (outputs_complete(k)) {
		k->built = true; /* another run built it while this one waited */
	} else if (tl_builder_get(&bu) < 0 || builder_reads(&bu, k->src) < 0 || make_dirs(k->out) < 0) {
		rc = -1;
	} else {
		/* the log in root's k->out: the build user could make one in its directory a link to anywhere */
		char *log = xasprintf("%s/build.log", k->out), *out = xasprintf("O=%s", k->dir);
		char *j = xasprintf("-j%u", jobs ? jobs : 1);
		int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
		struct progress p = {.tty = isatty(2), .start = time(NULL)};
		fprintf(stderr, "kfootprint: tailor: building Linux %s in %s as %s (log: %s)\n", k->version, k->dir,
			bu.name, log);
		char *argv[] = {"make", "-C", k->src, out, j, "bzImage", NULL};
		int st = tl_spawn_as(&bu, argv, fd, on_make_line, &p);
		if (p.tty)
			fprintf(stderr, "\r\033[K");
		if (fd >= 0)
			close(fd);
		if (st != 0 && log_says_full(log, k->dir)) {
			rc = -1;
		} else if (st != 0) {
			rc = error("tailor: make bzImage failed (status %d), the log's last lines:", st);
			tail_log(log, 20);
		} else if (take_outputs(k) < 0) {
			rc = -1;
		} else {
			k->built = true;
		}
		free(log);
		free(out);
		free(j);
	}
	if (!k->cached) /* a kernel taken from the cache added nothing to prune */
		prune(cache, k->dir, max_bytes);
out:
	if (lfd >= 0)
		close(lfd);
	free(lock);
	clock_gettime(CLOCK_MONOTONIC, &b);
	k->seconds += (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	return rc;
}

char *tl_kernel_file(const struct tl_kernel *k, const char *rel)
{
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		if (!strcmp(rel, outputs[i].rel))
			return xasprintf("%s/%s", k->out, outputs[i].name);
	return xasprintf("%s/%s", k->dir, rel);
}

void tl_kernel_release(struct tl_kernel *k)
{
	free(k->src);
	free(k->version);
	free(k->dir);
	free(k->out);
	free(k->config);
	memset(k, 0, sizeof(*k));
}
