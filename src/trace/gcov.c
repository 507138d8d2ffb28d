// SPDX-License-Identifier: GPL-2.0
/*
 * record --kernel-lines=gcov (gcov.h): the kernel's gcov counters (CONFIG_GCOV_KERNEL, tailor --measure gcov)
 * reset when recording starts and read when it ends. The kernel's gcov directory in debugfs mirrors the build
 * directory: a .gcda file per object (the counters, made when read) beside a link to its .gcno (the build's
 * notes, kept in the tailor cache). The .gcda files are copied into a private directory with the links, before
 * anything else runs, and GCC's own gcov reads them there (`gcov --json-format --stdout`, in batches), as lcov's
 * geninfo does: the gcov of the compiler that built the kernel, which knows its formats.
 * The counts are the whole guest's between the reset and the read: every task's, the kernel's own threads',
 * kfootprint's own; the footprint says so (whole_guest), and so does every output.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/gcov.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define GC_DIR	 "/sys/kernel/debug/gcov"
#define GC_BATCH 256 /* .gcda files per gcov run: well within ARG_MAX with the kernel's paths */

struct kl_gcov {
	struct fp_klines *k;
	char *dir;     /* the kernel's gcov directory */
	char *mounted; /* debugfs mounted here by kfootprint, or NULL */
	char *tmp;     /* the copies */
	char **gcda;   /* copied, relative to tmp */
	size_t ngcda, cap;
};

static void why_not(struct kl_gcov *g, const char *why)
{
	if (g->k->why_not)
		return;
	g->k->why_not = xstrdup(why);
	fprintf(stderr, "kfootprint: kernel lines: %s; recording the rest\n", why);
}

struct kl_gcov *kl_gcov_new(struct footprint *fp)
{
	struct kl_gcov *g = xcalloc(1, sizeof(*g));
	struct stat st;

	g->k = fp__klines(fp, FP_KLINE_GCOV);
	kl_kernel_identity(g->k);
	if (stat(GC_DIR, &st) == 0) {
		g->dir = xstrdup(GC_DIR);
		return g;
	}
	/* no debugfs where it usually is: one of its own, on a private directory, until the counters are read */
	char tmpl[] = "/tmp/kfootprint-debugfs.XXXXXX";
	if (!mkdtemp(tmpl)) {
		why_not(g, "no " GC_DIR ", and no directory to mount debugfs on");
		return g;
	}
	if (mount("debugfs", tmpl, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		char *why = xasprintf("no %s, and mounting debugfs: %s", GC_DIR, strerror(errno));
		why_not(g, why);
		free(why);
		rmdir(tmpl);
		return g;
	}
	g->mounted = xstrdup(tmpl);
	g->dir = xasprintf("%s/gcov", tmpl);
	if (stat(g->dir, &st) < 0)
		why_not(g, "the kernel has no gcov (CONFIG_GCOV_KERNEL): no gcov in debugfs; a measurement kernel has "
			   "it: kfootprint tailor --measure gcov");
	return g;
}

void kl_gcov_start(struct kl_gcov *g)
{
	if (g->k->why_not)
		return;
	char *reset = xasprintf("%s/reset", g->dir);
	int fd = open(reset, O_WRONLY | O_CLOEXEC);
	bool ok = fd >= 0 && write(fd, "1", 1) == 1;

	if (fd >= 0 && close(fd) < 0)
		ok = false;
	if (!ok) {
		char *why = xasprintf(
		    "%s: %s%s", reset, strerror(errno),
		    errno == ENOENT ? " (the kernel has no gcov: kfootprint tailor --measure gcov makes one)" : "");
		why_not(g, why);
		free(why);
	}
	free(reset);
}

/* A debugfs file (its size says 0) read whole into a new file. */
static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1;
	char buf[65536];
	ssize_t n = 0;

	if (in >= 0)
		out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	int rc = in >= 0 && out >= 0 && n == 0 ? 0 : -1;
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0)
		rc = -1;
	return rc;
}

/* dir/rel (a directory of the kernel's gcov tree) into tmp/rel: .gcda copied, .gcno links made again. */
static int copy_tree(struct kl_gcov *g, const char *rel)
{
	char *from = xasprintf("%s%s", g->dir, rel), *to = xasprintf("%s%s", g->tmp, rel);
	DIR *d = opendir(from);
	struct dirent *e;
	int rc = d && (mkdir(to, 0700) == 0 || errno == EEXIST) ? 0 : -1;

	while (rc == 0 && d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		size_t len = strlen(e->d_name);
		char *r = xasprintf("%s/%s", rel, e->d_name), *f = xasprintf("%s%s", g->dir, r),
		     *t = xasprintf("%s%s", g->tmp, r);
		char link[4096];
		ssize_t l;
		if (e->d_type == DT_DIR) {
			rc = copy_tree(g, r);
		} else if (len > 5 && !strcmp(e->d_name + len - 5, ".gcda")) {
			rc = copy_file(f, t);
			XGROW(g->gcda, g->cap, g->ngcda + 1);
			g->gcda[g->ngcda++] = xstrdup(r + 1);
		} else if (len > 5 && !strcmp(e->d_name + len - 5, ".gcno") &&
			   (l = readlink(f, link, sizeof(link) - 1)) > 0) {
			link[l] = '\0';
			rc = symlink(link, t);
		}
		free(r);
		free(f);
		free(t);
	}
	if (d)
		closedir(d);
	free(from);
	free(to);
	return rc;
}

static void remove_tree(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		char *p = xasprintf("%s/%s", path, e->d_name);
		if (e->d_type == DT_DIR)
			remove_tree(p);
		else
			unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

/* gcov on files [from, to) of g->gcda in tmp; its stdout into out. 0, or -1 with why. */
static int run_gcov(struct kl_gcov *g, size_t from, size_t to, struct strbuf *out, char *why, size_t len)
{
	char **argv = xcalloc(to - from + 6, sizeof(*argv));
	size_t n = 0;
	int p[2], status;

	argv[n++] = "gcov";
	argv[n++] = "--json-format";
	argv[n++] = "--stdout";
	argv[n++] = "--";
	for (size_t i = from; i < to; i++)
		argv[n++] = g->gcda[i];
	if (pipe2(p, O_CLOEXEC) < 0) {
		free(argv);
		return snprintf(why, len, "a pipe: %s", strerror(errno)), -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (chdir(g->tmp) < 0 || dup2(p[1], 1) < 0 || null < 0 || dup2(null, 2) < 0)
			_exit(126);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(p[1]);
	char buf[65536];
	ssize_t r;
	while (pid > 0 && ((r = read(p[0], buf, sizeof(buf))) > 0 || (r < 0 && errno == EINTR)))
		if (r > 0)
			strbuf_add(out, buf, (size_t)r);
	close(p[0]);
	free(argv);
	if (pid < 0)
		return snprintf(why, len, "fork: %s", strerror(errno)), -1;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return snprintf(why, len, "waiting for gcov: %s", strerror(errno)), -1;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return snprintf(why, len, "no gcov to read the counters with (GCC's, the kernel's compiler's)"), -1;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return snprintf(why, len, "gcov --json-format failed (exit %d) on %s", WEXITSTATUS(status),
				g->gcda[from]),
		       -1;
	return 0;
}

static void read_counters(struct kl_gcov *g)
{
	char tmpl[] = "/tmp/kfootprint-gcov.XXXXXX", why[512] = "";
	struct kl_glines acc = {0};

	if (!mkdtemp(tmpl)) {
		why_not(g, "no directory to copy the .gcda files into");
		return;
	}
	g->tmp = xstrdup(tmpl);
	/* the copies first, at once: gcov's runs would count into the files still to read */
	if (copy_tree(g, "") < 0)
		snprintf(why, sizeof(why), "copying %s: %s", g->dir, strerror(errno));
	else if (!g->ngcda)
		snprintf(why, sizeof(why), "%s holds no .gcda file: no object was built with gcov's counters", g->dir);
	for (size_t i = 0; !why[0] && i < g->ngcda; i += GC_BATCH) {
		struct strbuf out = STRBUF_INIT;
		char *err = NULL;
		size_t to = i + GC_BATCH < g->ngcda ? i + GC_BATCH : g->ngcda;
		if (run_gcov(g, i, to, &out, why, sizeof(why)) == 0 && kl_gcov_json(&acc, out.buf, out.len, &err) < 0)
			snprintf(why, sizeof(why), "%s", err);
		free(err);
		strbuf_release(&out);
	}
	if (why[0]) {
		kl_glines_release(&acc);
		why_not(g, why);
	} else {
		kl_glines_into(&acc, g->k);
	}
	remove_tree(g->tmp);
}

void kl_gcov_finish(struct kl_gcov *g, struct footprint *fp)
{
	if (fp && !g->k->why_not)
		read_counters(g);
	if (g->mounted) {
		umount2(g->mounted, MNT_DETACH);
		rmdir(g->mounted);
	}
	for (size_t i = 0; i < g->ngcda; i++)
		free(g->gcda[i]);
	free(g->gcda);
	free(g->tmp);
	free(g->mounted);
	free(g->dir);
	free(g);
}
