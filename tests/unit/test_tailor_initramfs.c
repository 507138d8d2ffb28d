// SPDX-License-Identifier: GPL-2.0
/*
 * tailor's initramfs from a footprint: the programs and files it names, their ELF interpreter and libraries, the
 * links on the way (Debian's /bin, /lib and /lib64 are links into /usr). The archive is listed by GNU cpio, then
 * extracted and its program run chrooted into it: what the initramfs holds is enough for the program to run.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "footprint/footprint.h"
#include "tailor/initramfs.h"

static char dir[] = "/tmp/kf-initramfs-test.XXXXXX";

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = NULL;
	if (asprintf(&cmd, "rm -rf '%s'", dir) > 0 && system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	free(cmd);
	return 0;
}

static char *run(const char *fmt, const char *arg)
{
	char *cmd = NULL, *out = NULL;
	size_t cap = 0;
	assert_true(asprintf(&cmd, fmt, arg, arg) > 0);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	ssize_t n = getdelim(&out, &cap, '\0', p);
	assert_int_equal(pclose(p), 0);
	free(cmd);
	if (n < 0) {
		free(out);
		out = strdup("");
	}
	return out;
}

static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; (p = strstr(p, name)); p += n)
		if ((p == list || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return true;
	return false;
}

static void test_from_footprint(void **state)
{
	if (access("/usr/bin/ls", X_OK) < 0 || access("/usr/sbin/chroot", X_OK) < 0 ||
	    access("/usr/bin/cpio", X_OK) < 0)
		skip();
	struct footprint *fp = fp__new();
	struct fp_proc *p = fp__proc_new(fp, 100, 1, 0);
	char **argv = calloc(3, sizeof(*argv)); /* the footprint's to free */
	assert_non_null(argv);
	argv[0] = strdup("ls");
	argv[1] = strdup("/");
	fp__proc_exec(fp, p, "/bin/ls", argv, "ls");
	fp__open(fp, p, "/etc/ld.so.cache", O_RDONLY, 0, 1);
	fp__open(fp, p, "/proc/filesystems", O_RDONLY, 0, 1); /* the guest's own */
	fp__open(fp, p, "/nonexistent/file", O_RDONLY, 2, 1); /* failed: not carried */
	struct tl_cpio *c = tl_cpio_new();
	assert_int_equal(tl_cpio_add_footprint(c, fp), 0);
	const char init[] = "#!/bin/ls\n";
	tl_cpio_add_data(c, "/init", 0755, init, sizeof(init) - 1);
	tl_cpio_add_dir(c, "/proc");
	char *path = NULL;
	assert_true(asprintf(&path, "%s/initrd.cpio", dir) > 0);
	FILE *out = fopen(path, "w");
	assert_non_null(out);
	assert_int_equal(tl_cpio_write(c, out), 0);
	assert_int_equal(fclose(out), 0);

	char *list = run("cpio -it --quiet < '%s'", path);
	assert_true(listed(list, "bin"));				 /* the link */
	assert_true(listed(list, "usr/bin/ls"));			 /* its target */
	assert_true(listed(list, "lib64"));				 /* PT_INTERP's link */
	assert_true(listed(list, "usr/lib/x86_64-linux-gnu/libc.so.6")); /* DT_NEEDED of libselinux, of ls */
	assert_true(listed(list, "usr/lib/x86_64-linux-gnu/libselinux.so.1"));
	assert_true(listed(list, "etc/ld.so.cache"));
	assert_true(listed(list, "init"));
	assert_true(listed(list, "proc"));
	assert_false(listed(list, "proc/filesystems"));
	assert_false(listed(list, "nonexistent"));
	free(list);
	char *links = run("cpio -itv --quiet < '%s' | grep -c -- '-> usr/bin'", path);
	assert_int_equal(atoi(links), 1);
	free(links);

	/* extracted, the program runs in it alone */
	char *root = NULL;
	assert_true(asprintf(&root, "%s/root", dir) > 0);
	char *cmd = NULL;
	assert_true(asprintf(&cmd, "mkdir '%s' && cd '%s' && cpio -id --quiet < '%s'", root, root, path) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	char *ls = run("chroot '%s' /bin/ls / && true '%s'", root);
	assert_true(listed(ls, "usr"));
	assert_true(listed(ls, "init"));
	free(ls);

	/* the same footprint, the same bytes */
	struct tl_cpio *again = tl_cpio_new();
	assert_int_equal(tl_cpio_add_footprint(again, fp), 0);
	tl_cpio_add_data(again, "/init", 0755, init, sizeof(init) - 1);
	tl_cpio_add_dir(again, "/proc");
	assert_int_equal(tl_cpio_count(again), tl_cpio_count(c));
	char *p2 = NULL;
	assert_true(asprintf(&p2, "%s/again.cpio", dir) > 0);
	out = fopen(p2, "w");
	assert_int_equal(tl_cpio_write(again, out), 0);
	fclose(out);
	assert_true(asprintf(&cmd, "cmp -s '%s' '%s'", path, p2) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(p2);
	tl_cpio_free(again);
	tl_cpio_free(c);
	fp__free(fp);
	free(root);
	free(path);
}

/* The archive of a footprint, written to dir/NAME, as GNU cpio lists it (the caller frees it). */
static char *listing(const struct footprint *fp, const char *name)
{
	struct tl_cpio *c = tl_cpio_new();
	char *path = NULL;
	assert_int_equal(tl_cpio_add_footprint(c, fp), 0);
	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	FILE *out = fopen(path, "w");
	assert_non_null(out);
	assert_int_equal(tl_cpio_write(c, out), 0);
	assert_int_equal(fclose(out), 0);
	char *list = run("cpio -it --quiet < '%s' && true '%s'", path);
	tl_cpio_free(c);
	free(path);
	return list;
}

/* a command started as /bin/busybox: its exe is the resolved /usr/bin one, and the /bin link comes from argv[0] */
static void test_started_by_argv0(void **state)
{
	if (access("/usr/bin/ls", X_OK) < 0 || access("/usr/bin/cpio", X_OK) < 0)
		skip();
	struct footprint *fp = fp__new();
	const char *const starts[] = {"/bin/ls", "/nonexistent/ls", "ls"};
	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		struct fp_proc *p = fp__proc_new(fp, 200 + (pid_t)i, 1, 0);
		char **argv = calloc(2, sizeof(*argv));
		assert_non_null(argv);
		argv[0] = strdup(starts[i]);
		fp__proc_exec(fp, p, "/usr/bin/ls", argv, "ls");
	}
	char *list = listing(fp, "argv0.cpio"); /* a start path that does not exist is no error */
	assert_true(listed(list, "usr/bin/ls"));
	assert_true(listed(list, "bin")); /* the link, from argv[0] alone */
	assert_false(listed(list, "nonexistent"));
	assert_false(listed(list, "ls"));
	free(list);
	fp__free(fp);
}

/* a server given its root (httpd -h DIR) opens index.html relative to it: the file comes from under DIR */
static void test_relative_to_argv_dir(void **state)
{
	if (access("/usr/bin/ls", X_OK) < 0 || access("/usr/bin/cpio", X_OK) < 0)
		skip();
	char *www = NULL, *page = NULL, *cmd = NULL;
	assert_true(asprintf(&www, "%s/www", dir) > 0 && asprintf(&page, "%s/www/index.html", dir) > 0);
	assert_true(asprintf(&cmd, "mkdir -p '%s' && echo page > '%s'", www, page) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	struct footprint *fp = fp__new();
	struct fp_proc *p = fp__proc_new(fp, 300, 1, 0);
	char **argv = calloc(5, sizeof(*argv));
	assert_non_null(argv);
	argv[0] = strdup("/usr/bin/ls");
	argv[1] = strdup("-h");
	argv[2] = strdup(www);
	argv[3] = strdup("/usr/bin/ls"); /* a file, not a directory: nothing resolved against it */
	fp__proc_exec(fp, p, "/usr/bin/ls", argv, "ls");
	fp__open(fp, p, "index.html", O_RDONLY, 0, 1);
	fp__open(fp, p, "missing.html", O_RDONLY, 0, 1); /* under no directory of its argv: left out */
	char *list = listing(fp, "rel.cpio");
	assert_true(listed(list, page + 1));
	assert_true(listed(list, www + 1));
	assert_false(strstr(list, "missing.html"));
	assert_false(strstr(list, "usr/bin/ls/"));
	free(list);
	fp__free(fp);
	free(page);
	free(www);
}

/*
 * a command run from a directory opens files relative to it (cat data.txt) and is given a relative directory
 * (-h www): both resolve against the cwd the recorder saw at its exec
 */
static void test_relative_to_cwd(void **state)
{
	if (access("/usr/bin/cat", X_OK) < 0 || access("/usr/bin/cpio", X_OK) < 0)
		skip();
	char *work = NULL, *cmd = NULL;
	assert_true(asprintf(&work, "%s/work", dir) > 0);
	assert_true(asprintf(&cmd,
			     "mkdir -p '%s/sub' '%s/www' && echo d > '%s/sub/data.txt' && echo p > '%s/www/p.html'",
			     work, work, work, work) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	struct footprint *fp = fp__new();
	struct fp_proc *p = fp__proc_new(fp, 300, 1, 0);
	char **argv = calloc(4, sizeof(*argv));
	assert_non_null(argv);
	argv[0] = strdup("cat");
	argv[1] = strdup("-h");
	argv[2] = strdup("www");
	fp__proc_exec(fp, p, "/usr/bin/cat", argv, "cat");
	p->cwd = strdup(work);
	fp__open(fp, p, "sub/data.txt", O_RDONLY, 0, 1);
	fp__open(fp, p, "p.html", O_RDONLY, 0, 1);
	fp__open(fp, p, "nowhere.txt", O_RDONLY, 0, 1);
	char *list = listing(fp, "cwd.cpio");
	char *data = NULL, *page = NULL;
	assert_true(asprintf(&data, "%s/sub/data.txt", work + 1) > 0 && asprintf(&page, "%s/www/p.html", work + 1) > 0);
	assert_true(listed(list, work + 1));
	assert_true(listed(list, data));
	assert_true(listed(list, page));
	assert_false(strstr(list, "nowhere.txt"));
	free(data);
	free(page);
	free(list);
	fp__free(fp);
	free(work);
}

static void test_bad_input(void **state)
{
	struct tl_cpio *c = tl_cpio_new();
	assert_int_equal(tl_cpio_add_host(c, "relative/path"), -1);
	assert_int_equal(tl_cpio_add_host(c, "/nonexistent/file"), 1);
	assert_int_equal(tl_cpio_add_host(c, "/dev/null"), 1);
	char *loop = NULL;
	assert_true(asprintf(&loop, "%s/loop", dir) > 0);
	assert_int_equal(symlink("loop", loop), 0); /* a link to itself */
	assert_int_equal(tl_cpio_add_host(c, loop), -1);
	free(loop);
	/* a FILE that cannot be written */
	FILE *full = fopen("/dev/full", "w");
	if (full) {
		tl_cpio_add_data(c, "/x", 0644, "x", 1);
		setvbuf(full, NULL, _IONBF, 0);
		assert_int_equal(tl_cpio_write(c, full), -1);
		fclose(full);
	}
	tl_cpio_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_from_footprint),
	    cmocka_unit_test(test_started_by_argv0),
	    cmocka_unit_test(test_relative_to_argv_dir),
	    cmocka_unit_test(test_relative_to_cwd),
	    cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
