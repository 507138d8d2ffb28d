// SPDX-License-Identifier: GPL-2.0
/* Helpers: strbuf, option value parsers, atomic output files. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/atomic_file.h"
#include "util/parse.h"
#include "util/strbuf.h"

static void test_strbuf(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	assert_string_equal(sb.buf, "");
	strbuf_addstr(&sb, "abc");
	strbuf_addch(&sb, '-');
	strbuf_addf(&sb, "%d/%s", 42, "x");
	strbuf_addchars(&sb, '.', 3);
	assert_string_equal(sb.buf, "abc-42/x...");
	assert_int_equal(sb.len, 11);
	for (int i = 0; i < 10000; i++)
		strbuf_addch(&sb, 'z');
	assert_int_equal(sb.len, 10011);
	assert_int_equal(strlen(sb.buf), 10011);
	strbuf_reset(&sb);
	assert_string_equal(sb.buf, "");
	strbuf_addstr(&sb, "keep");
	char *s = strbuf_detach(&sb);
	assert_string_equal(s, "keep");
	assert_string_equal(sb.buf, "");
	free(s);
	assert_int_equal(strbuf_read_file(&sb, "/nonexistent/file"), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(strbuf_read_file(&sb, "/proc/self/stat"), 0);
	assert_true(sb.len > 10);
	strbuf_release(&sb);
}

static void test_parse_seconds(void **state)
{
	double d;

	assert_int_equal(parse_seconds("-d", "5", &d), 0);
	assert_true(d == 5);
	assert_int_equal(parse_seconds("-d", "0.25", &d), 0);
	assert_true(d == 0.25);
	assert_int_equal(parse_seconds("-d", "2m", &d), 0);
	assert_true(d == 120);
	assert_int_equal(parse_seconds("-d", "1h", &d), 0);
	assert_true(d == 3600);
	assert_int_equal(parse_seconds("-d", "abc", &d), -1);
	assert_int_equal(parse_seconds("-d", "", &d), -1);
	assert_int_equal(parse_seconds("-d", "0", &d), -1);
	assert_int_equal(parse_seconds("-d", "-1", &d), -1);
	assert_int_equal(parse_seconds("-d", "5x", &d), -1);
	assert_int_equal(parse_seconds("-d", "nan", &d), -1);
	assert_int_equal(parse_seconds("-d", "inf", &d), -1);
	assert_int_equal(parse_seconds("-d", "1e300", &d), -1);
}

static void test_parse_ulong_and_pids(void **state)
{
	unsigned long v;
	pid_t *pids = NULL;
	size_t n = 0;
	char buf[64];

	assert_int_equal(parse_ulong("-n", "10", 1, 20, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(parse_ulong("-n", "21", 1, 20, &v), -1);
	assert_int_equal(parse_ulong("-n", "-1", 0, 20, &v), -1);
	assert_int_equal(parse_ulong("-n", "1a", 0, 20, &v), -1);
	snprintf(buf, sizeof(buf), "%d,1", (int)getpid());
	assert_int_equal(parse_pid_list("-p", buf, &pids, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(pids[0], getpid());
	assert_int_equal(pids[1], 1);
	/* -p N,N, or a second -p N: one process, attached once */
	snprintf(buf, sizeof(buf), "%d,1,%d", (int)getpid(), (int)getpid());
	assert_int_equal(parse_pid_list("-p", buf, &pids, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(parse_pid_list("-p", "1,", &pids, &n), -1);
	assert_int_equal(parse_pid_list("-p", "abc", &pids, &n), -1);
	assert_int_equal(parse_pid_list("-p", "0", &pids, &n), -1);
	assert_int_equal(parse_pid_list("-p", "", &pids, &n), -1);
	assert_int_equal(parse_pid_list("-p", "99999999999", &pids, &n), -1);
	free(pids);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_atomic_file(void **state)
{
	char dir[] = "/tmp/kf-unit.XXXXXX";
	char path[128], buf[64];
	struct atomic_file af;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.json", dir);
	/* an aborted write leaves nothing behind */
	assert_int_equal(atomic_file_open(&af, path, 0), 0);
	fputs("partial", af.f);
	atomic_file_abort(&af);
	assert_int_equal(count_entries(dir), 0);
	/* a committed one replaces the target whole */
	assert_int_equal(atomic_file_open(&af, path, 0), 0);
	fputs("whole\n", af.f);
	assert_int_equal(atomic_file_commit(&af), 0);
	assert_int_equal(count_entries(dir), 1);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "whole\n");
	/* a directory that does not exist is an error, not a crash */
	assert_int_equal(atomic_file_open(&af, "/nonexistent/dir/out.json", 0), -1);
	/* a full disk: the write fails at commit and the old file stays */
	if (access("/dev/full", W_OK) == 0) {
		struct atomic_file full = {0};
		assert_int_equal(atomic_file_open(&full, path, 0), 0);
		fclose(full.f);
		full.f = fopen("/dev/full", "w");
		for (int i = 0; i < 100000; i++)
			fputs("x", full.f);
		assert_int_equal(atomic_file_commit(&full), -1);
		f = fopen(path, "r");
		assert_non_null(fgets(buf, sizeof(buf), f));
		fclose(f);
		assert_string_equal(buf, "whole\n");
	}
	unlink(path);
	assert_int_equal(count_entries(dir), 0);
	rmdir(dir);
}

/* Renaming over /dev/null would replace the device with a file: devices are written in place. */
static void test_atomic_file_devices_and_links(void **state)
{
	char dir[] = "/tmp/kf-unit.XXXXXX";
	char target[128], link[128], buf[64];
	struct atomic_file af;
	struct stat st;
	FILE *f;

	assert_int_equal(atomic_file_open(&af, "/dev/null", 0), 0);
	assert_null(af.tmp);
	fputs("discarded", af.f);
	assert_int_equal(atomic_file_commit(&af), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));

	/* a directory is an error, not a rename */
	assert_int_equal(atomic_file_open(&af, "/tmp", 0), -1);

	/* a link keeps pointing at its target, which gets the new content and keeps its mode */
	assert_non_null(mkdtemp(dir));
	snprintf(target, sizeof(target), "%s/real.json", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	f = fopen(target, "w");
	fputs("old\n", f);
	fclose(f);
	assert_int_equal(chmod(target, 0640), 0);
	assert_int_equal(symlink("real.json", link), 0);
	assert_int_equal(atomic_file_open(&af, link, 0), 0);
	fputs("new\n", af.f);
	assert_int_equal(atomic_file_commit(&af), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	f = fopen(target, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "new\n");
	assert_int_equal(count_entries(dir), 2);
	unlink(link);
	unlink(target);
	rmdir(dir);
}

/* The rule of every output (atomic_file.h): descriptors, specials, modes, other users' links. */
static void test_atomic_file_rule(void **state)
{
	char dir[] = "/tmp/kf-unit.XXXXXX", path[160], link[160], fdpath[32], buf[64];
	struct atomic_file af;
	struct stat st;
	mode_t old;
	int p[2];

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	/* the new file has no name until the commit (or a temporary one where O_TMPFILE is missing) */
	assert_int_equal(atomic_file_open(&af, path, 0), 0);
	assert_int_equal(count_entries(dir), af.tmp ? 1 : 0);
	fputs("x\n", af.f);
	assert_int_equal(atomic_file_commit(&af), 0);
	assert_int_equal(count_entries(dir), 1);
	/* new files: 0644 or 0600, & ~umask */
	unlink(path);
	old = umask(027);
	assert_int_equal(atomic_file_open(&af, path, 0), 0);
	assert_int_equal(atomic_file_commit(&af), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	unlink(path);
	assert_int_equal(atomic_file_open(&af, path, AF_PRIVATE), 0);
	assert_int_equal(atomic_file_commit(&af), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	umask(old);
	/* ours with special bits: the permissions stay, the bits go */
	assert_int_equal(chmod(path, 06755), 0);
	assert_int_equal(atomic_file_open(&af, path, 0), 0);
	assert_int_equal(atomic_file_commit(&af), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	/* /dev/fd/N is that descriptor; a read-only one is refused */
	assert_int_equal(pipe(p), 0);
	snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", p[1]);
	assert_int_equal(atomic_file_open(&af, fdpath, 0), 0);
	assert_null(af.tmp);
	fputs("through the pipe\n", af.f);
	assert_int_equal(atomic_file_commit(&af), 0);
	close(p[1]);
	assert_int_equal(read(p[0], buf, sizeof(buf)), 17);
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", p[0]);
	assert_int_equal(atomic_file_open(&af, fdpath, 0), -1);
	close(p[0]);
	/* a link of another user is never followed (root can make one to test it) */
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink("out", link), 0);
	if (geteuid() == 0 && lchown(link, 65534, 65534) == 0) {
		assert_int_equal(atomic_file_open(&af, link, 0), -1);
		snprintf(path, sizeof(path), "%s/link/x", dir);
		assert_int_equal(atomic_file_open(&af, path, 0), -1);
	}
	unlink(link);
	snprintf(path, sizeof(path), "%s/out", dir);
	unlink(path);
	/* an empty path, a trailing slash */
	assert_int_equal(atomic_file_open(&af, "", 0), -1);
	snprintf(path, sizeof(path), "%s/", dir);
	assert_int_equal(atomic_file_open(&af, path, 0), -1);
	assert_int_equal(count_entries(dir), 0);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_strbuf),
	    cmocka_unit_test(test_parse_seconds),
	    cmocka_unit_test(test_parse_ulong_and_pids),
	    cmocka_unit_test(test_atomic_file),
	    cmocka_unit_test(test_atomic_file_devices_and_links),
	    cmocka_unit_test(test_atomic_file_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
