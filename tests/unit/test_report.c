// SPDX-License-Identifier: GPL-2.0
/* Every renderer's exact output for a footprint built by hand, and the edge cases they must survive. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "footprint/filter.h"
#include "footprint/csite.h"
#include "footprint/kfunc.h"
#include "fp_sample.h"
#include "kmap/annotate.h"
#include "kmap/mapdb.h"
#include "report/map_report.h"
#include "report/report.h"
#include "util/strbuf.h"

/* As kfootprint record and report do: the annotate stage, then the renderer. */
static char *render(const char *format, struct footprint *fp)
{
	const struct renderer *r = renderer_find(format);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	assert_non_null(r);
	annotate_classes(fp);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(r->render(fp, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* render() of a footprint already annotated, which it does not change (a view of one). */
static char *render_view(const char *format, const struct footprint *fp)
{
	const struct renderer *r = renderer_find(format);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	assert_non_null(r);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(r->render(fp, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void check(const char *format, struct footprint *fp, const char *want)
{
	char *got = render(format, fp);

	assert_string_equal(got, want);
	free(got);
}

static void test_table(void **state)
{
	assert_non_null(renderer_find("text"));
	assert_non_null(renderer_find("csv"));
	assert_null(renderer_find("pdf"));
	assert_null(renderer_find(""));
	assert_string_equal(renderer_names(), "text, strace, rst, tree, json, csv, html");
	for (const char *n = "text\0strace\0rst\0tree\0json\0csv\0"; *n; n += strlen(n) + 1)
		assert_string_equal(renderer_find(n)->f.name, n);
}

static void test_strace(void **state)
{
	struct footprint *fp = sample_fp();

	/* exit_group left out as strace -c does; ties would keep syscall number order; i386 in its own table */
	check("strace", fp,
	      "% time     seconds  usecs/call     calls    errors syscall\n"
	      "------ ----------- ----------- --------- --------- ----------------\n"
	      " 89.29    0.300000      100000         3         1 wait4\n"
	      "  7.14    0.024000        2000        12           read\n"
	      "  2.98    0.010000        1000        10         3 openat\n"
	      "  0.60    0.002000        1000         2           clone\n"
	      "------ ----------- ----------- --------- --------- ----------------\n"
	      "100.00    0.336000       12444        27         4 total\n"
	      "System call usage summary for 32 bit mode:\n"
	      "% time     seconds  usecs/call     calls    errors syscall\n"
	      "------ ----------- ----------- --------- --------- ----------------\n"
	      "100.00    0.002000        1000         2         1 open\n"
	      "------ ----------- ----------- --------- --------- ----------------\n"
	      "100.00    0.002000        1000         2         1 total\n");
	fp__free(fp);
}

static void test_strace_ties_and_widths(void **state)
{
	struct footprint *fp = fp__new();
	const enum kf_abi x64 = KF_ABI_X86_64;

	/* equal times keep syscall number order (read 0, close 3, ...); a zero total gives 0.00 %, not NaN */
	fp__account(fp, NULL, x64, sample_nr(x64, "close"), 0, 1, 0);
	fp__account(fp, NULL, x64, sample_nr(x64, "read"), 0, 1234567890, 0);
	fp__account(fp, NULL, x64, sample_nr(x64, "sched_get_priority_max"), EINVAL, 2, 0);
	check("strace", fp,
	      "% time     seconds  usecs/call      calls    errors syscall\n"
	      "------ ----------- ----------- ---------- --------- -----------------------\n"
	      "  0.00    0.000000           0 1234567890           read\n"
	      "  0.00    0.000000           0          1           close\n"
	      "  0.00    0.000000           0          2         2 sched_get_priority_max\n"
	      "------ ----------- ----------- ---------- --------- -----------------------\n"
	      "100.00    0.000000           0 1234567893         2 total\n");
	fp__free(fp);
}

static void test_tree(void **state)
{
	struct footprint *fp = sample_fp();

	check("tree", fp,
	      "# read N write M: files opened for reading / for writing (successful opens, the SystemTap study's "
	      "counts); run: fork to exit; then exit, threads, exec chain (a → b), argv\n"
	      " 100  sh    read   0 write   1 running...                  sh -c 'ls /tmp | wc -l'\n"
	      "   101  ls  read   3 write   1 run 0.25s   exit 0          ls /tmp\n"
	      "   102  wc  read   0 write   0 run 1.25s   SIGKILL (core)  wc -l\n");
	fp__free(fp);
}

/* Threads, an exec chain longer than the bound, an argv cut at its width on a UTF-8 character. */
static void test_tree_chain_threads_argv(void **state)
{
	struct footprint *fp = fp__new();
	struct fp_proc *p = fp__proc_new(fp, 7, 1, 0), *q = fp__proc_new(fp, 8, 7, MS(5));
	static const char *const progs[] = {"/bin/sh",	    "/usr/bin/env", "/bin/bash",
					    "/usr/bin/env", "/bin/sh",	    "/usr/bin/python3.11"};
	char **argv = sample_argv("python3", "-c", NULL);

	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++)
		fp__proc_exec(fp, p, progs[i], NULL, NULL);
	free(argv[1]);
	argv[1] = xstrdup("-c");
	argv[2] = xstrdup("print('€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€')");
	fp__proc_set_argv(p, argv);
	p->threads = 3;
	fp__proc_exit(fp, p, (struct fp_exit){FP_EXIT_CODE, 2, false}, MS(1500));
	fp__proc_exec(fp, q, "/bin/true", sample_argv("true", NULL, NULL), "true");
	fp__proc_exit(fp, q, (struct fp_exit){FP_EXIT_SIGNAL, SIGTERM, false}, MS(10));
	check("tree", fp,
	      "# read N write M: files opened for reading / for writing (successful opens, the SystemTap study's "
	      "counts); run: fork to exit; then exit, threads, exec chain (a → b), argv\n"
	      " 7    python3.11  read   0 write   0 run 1.50s  exit 2   threads 3  … → bash → env → sh → python3.11: "
	      "python3 -c 'print('\\''€€€…\n" /* 60 columns from the chain on */
	      "   8    true      read   0 write   0 run 0.01s  SIGTERM  true\n");
	fp__free(fp);
}

static void test_tree_deep_chain_and_names(void **state)
{
	struct footprint *fp = fp__new();
	char *out, *line;

	/* a chain of 5000 forks: no recursion to overflow; a name from exe when comm is unknown */
	for (int i = 0; i < 5000; i++) {
		struct fp_proc *p = fp__proc_new(fp, 1000000 + i, i ? 1000000 + i - 1 : 1, 0);

		snprintf(p->comm, sizeof(p->comm), "%s", i == 2 ? "" : i == 3 ? "t\x01x" : "c");
		if (i == 2)
			p->exe = xstrdup("/usr/bin/from-exe");
	}
	out = render("tree", fp);
	line = strstr(out, "1000002");
	assert_non_null(line);
	assert_memory_equal(line - 6, "\n     1000002  from-exe ", 24); /* depth 2: 1 + 4 spaces */
	assert_non_null(strstr(out, "1000003  t\\x01x "));
	line = strstr(out, "1004999");
	assert_non_null(line);
	/* depth 4999: indented as depth 40 (1 + 80 spaces), then the depth said */
	assert_memory_equal(line - 13, "[depth 4999] 1004999  c", 23);
	assert_int_equal(strspn(line - 13 - 81, " "), 81);
	assert_int_equal(line[-13 - 82], '\n');
	free(out);
	fp__free(fp);
}

/* Hostile strings stay text; a 5000-deep fork chain draws (no recursion); the page is one document. */
static void test_html_escapes_and_deep_chain(void **state)
{
	struct footprint *fp = fp__new();
	char *out;

	for (int i = 0; i < 5000; i++) {
		struct fp_proc *p = fp__proc_new(fp, 1000000 + i, i ? 1000000 + i - 1 : 1, 0);

		snprintf(p->comm, sizeof(p->comm), "%s", i == 1 ? "<b>\"'&\xff" : "c");
		if (i == 2)
			fp__open(fp, p, "/tmp/<script>x</script>", 0, 0, 1);
	}
	fp->argv = sample_argv("sh", "-c", "<img src=x>");
	out = render("html", fp);
	assert_non_null(strstr(out, "&lt;b&gt;&quot;&#39;&amp;\\xff"));
	assert_non_null(strstr(out, "/tmp/&lt;script&gt;x&lt;/script&gt;"));
	assert_non_null(strstr(out, "&#39;&lt;img src=x&gt;&#39;"));
	assert_null(strstr(out, "<b>\"'"));
	assert_null(strstr(out, "<img"));
	assert_ptr_equal(strstr(out, "<script"), strstr(out, "<script>document"));
	/* past 16 processes a lane per name: one for the 4999 "c", one for the hostile name */
	assert_non_null(strstr(out, ">c \xc3\x97"
				    "4999</text>"));
	assert_non_null(strstr(out, "&lt;b&gt;&quot;&#39;&amp;\\xff (1000001)</text>"));
	assert_string_equal(out + strlen(out) - 15, "</body></html>\n");
	free(out);
	fp__free(fp);
}

/* The page as the commands render it: with the built-in databases' view made before rendering. */
static char *render_html(struct footprint *fp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct text_opts t = {0};
	struct kmap_view view;

	assert_non_null(f);
	annotate_classes(fp);
	annotate_view(fp, &view, renderer_find("html")->closure);
	t.view = &view;
	assert_int_equal(renderer_render(renderer_find("html"), fp, &t, f), 0);
	kmap_view_release(&view);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The answer first (issue 23): options and sections, then the charts, then the tables; wait4's time kept apart. */
static void test_html_answer_first(void **state)
{
	struct footprint *fp = sample_fp();
	char *out = render_html(fp), *opts = strstr(out, "<table id=\"options\""), *times = strstr(out, "id=\"times\"");

	assert_non_null(opts);
	assert_true(opts < strstr(out, "<table id=\"sections\""));
	assert_true(strstr(out, "<table id=\"sections\"") < strstr(out, "id=\"classes\""));
	assert_true(strstr(out, "id=\"classes\"") < strstr(out, "id=\"timeline\""));
	assert_true(strstr(out, "id=\"timeline\"") < strstr(out, "id=\"syscalls\""));
	assert_true(strstr(out, "id=\"syscalls\"") < strstr(out, "id=\"sources\""));
	/* the summary says the answer's counts, as the text summary */
	assert_non_null(strstr(out, "<dd id=\"sum-kconfig\"><a href=\"#options\">"));
	/* two ABIs, two mappings: the options say which */
	assert_non_null(strstr(opts, "<th>ABI</th>"));
	assert_non_null(strstr(opts, "<span class=\"label want-y\">needed</span>"));
	/* what the closure over Kconfig brings in for them, labelled, after the needed ones, before the probed */
	assert_non_null(
	    strstr(opts, "<tr data-want=\"closure\"><td class=\"mono opt\">CONFIG_64BIT</td><td><span "
			 "class=\"label want-closure\">brought in</span></td><td>x86_64</td><td class=\"mono\">for "
			 "CONFIG_X86_64 (depends on 64BIT)</td>"));
	assert_true(strstr(opts, "data-want=\"closure\"") < strstr(opts, "data-want=\"off\""));
	assert_true(strstr(opts, "data-want=\"y\"") < strstr(opts, "data-want=\"abi\""));
	/* each section with its people, as the database has them */
	assert_non_null(strstr(out, "<td class=\"sec\">FILESYSTEMS (VFS and infrastructure)</td>"));
	assert_non_null(strstr(out, "<li>M: Alexander Viro &lt;viro@zeniv.linux.org.uk&gt;</li>"));
	assert_non_null(strstr(out, "<li>L: linux-fsdevel@vger.kernel.org</li>"));
	/* the class chart is of calls, the most first: Filesystem's 24 before Process Mgmt.'s 7 */
	assert_non_null(strstr(out, "<g class=\"row\" data-v=\"24\"><text class=\"lbl\" x=\"0\" y=\"14\">Filesystem"));
	/* time: Process Mgmt. works clone's 2 ms; wait4's 300 ms is waiting, charted apart */
	assert_non_null(times);
	assert_non_null(
	    strstr(times, "<g class=\"row\" data-v=\"2000000\"><text class=\"lbl\" x=\"0\" y=\"34\">Process Mgmt."));
	assert_non_null(strstr(
	    times, "data-v=\"300000000\"><text class=\"lbl\" x=\"0\" y=\"74\">wait4</text><rect class=\"wait\""));
	free(out);
	/* the renderer alone resolves nothing: no mapping of its own, no view, no options */
	out = render("html", fp);
	assert_null(strstr(out, "id=\"options\""));
	assert_non_null(strstr(out, "<p>not mapped"));
	free(out);
	fp__free(fp);
	(void)state;
}

/* A label is cut to its column, and says so; a few processes get a lane each, in tree order. */
static void test_html_label_cut(void **state)
{
	struct footprint *fp = sample_fp();
	struct fp_proc *p = fp__proc_new(fp, 103, 102, MS(120));
	char exe[300] = "/opt/", *out, *lbl;

	memset(exe + 5, 'x', 250);
	exe[255] = '\0';
	p->exe = xstrdup(exe);
	out = render_html(fp);
	assert_non_null(strstr(out, "data-lanes=\"process\""));
	lbl = strstr(out, "<text class=\"lbl\" x=\"18\" y=\"");
	assert_non_null(lbl); /* depth 2: indented 16 px */
	lbl = strstr(lbl, ">103 x");
	assert_non_null(lbl);
	/* (300 - 6 - 16) / 7 = 39 characters: "103 ", 34 x and the ellipsis */
	assert_int_equal(strspn(lbl + 5, "x"), 34);
	assert_memory_equal(lbl + 5 + 34, "\xe2\x80\xa6</text>", 10);
	free(out);
	fp__free(fp);
	(void)state;
}

static void test_csv(void **state)
{
	struct footprint *fp = sample_fp();
	struct fp_sysstat *s;

	check("csv", fp,
	      "abi,name,nr,calls,errors,time_s,class\n"
	      "x86_64,read,0,12,0,0.024000000,Filesystem\n"
	      "x86_64,openat,257,10,3,0.010000000,Filesystem\n"
	      "x86_64,wait4,61,3,1,0.300000000,Process Mgmt.\n"
	      "x86_64,clone,56,2,0,0.002000000,Process Mgmt.\n"
	      "x86_64,exit_group,231,2,0,0.000000000,Process Mgmt.\n"
	      "i386,open,5,2,1,0.002000000,Filesystem\n");
	/* RFC 4180 quoting of a class loaded from a file */
	s = fp_sctab_find(&fp->syscalls, KF_ABI_I386, 5);
	s->annot.klass = fp__intern(fp, "odd, \"quoted\"\nclass");
	char *out = render("csv", fp);
	assert_non_null(strstr(out, "i386,open,5,2,1,0.002000000,\"odd, \"\"quoted\"\"\nclass\"\n"));
	free(out);
	fp__free(fp);
}

/* The default layout: summary, one syscall table by time (strace -c's order), per-process tables for 3 processes. */
static char *render_text(struct footprint *fp, const struct text_opts *o);

/* The text report as the commands render it: with the built-in databases' view made before rendering. */
static void check_text(struct footprint *fp, const char *want)
{
	char *got = render_text(fp, NULL);

	assert_string_equal(got, want);
	free(got);
}

static void test_text(void **state)
{
	struct footprint *fp = sample_fp();

	check_text(fp,
		   "footprint:    complete\n"
		   "command:      sh -c 'ls /tmp | wc -l'\n"
		   "label:        startup\n"
		   "user:         root\n"
		   "backend:      ptrace\n"
		   "started at:   2026-11-29T10:00:00Z\n"
		   "elapsed:      0.500s\n"
		   "exit:         code 0\n"
		   "lost events:  0\n"
		   "summary:      31 calls, 5 errors (16.1%), 0.338000s in system calls, 6 syscalls, 3 processes\n"
		   "top classes:  Filesystem 24 (77%), Process Mgmt. 7 (23%) of 31 calls\n"
		   "kconfig:      1 option needed (Linux 6.1): COMPAT\n"
		   "maintainers:  1 section: FILESYSTEMS (VFS and infrastructure)\n"
		   "              see `kfootprint map FILE` for the chains\n"
		   "\n"
		   "system calls, by time\n"
		   "syscall      calls  errors  % time   seconds   \u00b5s/call  class\n"
		   "-----------  -----  ------  ------  --------  --------  -------------\n"
		   "wait4            3       1   88.76  0.300000  100000.0  Process Mgmt.\n"
		   "read            12            7.10  0.024000    2000.0  Filesystem\n"
		   "openat          10       3    2.96  0.010000    1000.0  Filesystem\n"
		   "clone            2            0.59  0.002000    1000.0  Process Mgmt.\n"
		   "open (i386)      2       1    0.59  0.002000    1000.0  Filesystem\n"
		   "exit_group       2            0.00  0.000000       0.0  Process Mgmt.\n"
		   "\n"
		   "per process\n"
		   "\n"
		   "pid 100 sh: 6 calls, 1 error, 0.302000s in system calls\n"
		   "  syscall     calls  errors  % time   seconds   \u00b5s/call\n"
		   "  ----------  -----  ------  ------  --------  --------\n"
		   "  wait4           3       1   99.34  0.300000  100000.0\n"
		   "  clone           2            0.66  0.002000    1000.0\n"
		   "  exit_group      1            0.00  0.000000       0.0\n"
		   "\n"
		   "pid 101 ls: 13 calls, 4 errors, 0.012000s in system calls\n"
		   "  syscall      calls  errors  % time   seconds  \u00b5s/call\n"
		   "  -----------  -----  ------  ------  --------  -------\n"
		   "  openat          10       3   83.33  0.010000   1000.0\n"
		   "  open (i386)      2       1   16.67  0.002000   1000.0\n"
		   "  exit_group       1            0.00  0.000000      0.0\n"
		   "\n"
		   "pid 102 wc: 12 calls, 0 errors, 0.024000s in system calls\n"
		   "  syscall  calls  errors  % time   seconds  \u00b5s/call\n"
		   "  -------  -----  ------  ------  --------  -------\n"
		   "  read        12          100.00  0.024000   2000.0\n"
		   "\n"
		   "processes\n"
		   "# read N write M: files opened for reading / for writing (successful opens, the SystemTap study's "
		   "counts); run: fork to exit; then exit, threads, exec chain (a → b), argv\n"
		   " 100  sh    read   0 write   1 running...                  sh -c 'ls /tmp | wc -l'\n"
		   "   101  ls  read   3 write   1 run 0.25s   exit 0          ls /tmp\n"
		   "   102  wc  read   0 write   0 run 1.25s   SIGKILL (core)  wc -l\n"
		   "\n"
		   "errors, by system call and errno: processes — paths\n"
		   "  (processes and paths were not recorded by the ptrace backend)\n"
		   "  openat ENOENT 3\n"
		   "  wait4 ECHILD 1\n"
		   "  open (i386) EACCES 1\n");
	fp__free(fp);
}

static char *render_text(struct footprint *fp, const struct text_opts *o);

/*
 * The errors section with sources: processes most failures first (four, then "others"), paths of one directory
 * as one glob group, eight groups at most, and what the model's bound of distinct paths left out.
 */
static void test_text_errors(void **state)
{
	struct footprint *fp = fp__new();
	const enum kf_abi x64 = KF_ABI_X86_64;
	int stat_nr = sample_nr(x64, "newfstatat"), open_nr = sample_nr(x64, "openat");
	const char *comms[] = {"a", "b", "c", "d", "e"};
	struct fp_proc *p[5];
	char path[64];
	char *out;

	fp->backend = xstrdup("ptrace");
	for (int i = 0; i < 5; i++) {
		p[i] = fp__proc_new(fp, 100 + i, 1, 0);
		fp__proc_exec(fp, p[i], "/bin/x", NULL, comms[i]);
	}
	/* 13 locale files of one directory and one elsewhere */
	for (int i = 0; i < 13; i++) {
		snprintf(path, sizeof(path), "/usr/lib/locale/C.UTF-8/LC_%c", 'A' + i);
		fp__account(fp, p[i % 2], x64, open_nr, ENOENT, 1, 0);
		fp__error_source(fp, p[i % 2], x64, open_nr, ENOENT, path, 1);
	}
	fp__account(fp, p[2], x64, open_nr, ENOENT, 2, 0);
	fp__error_source(fp, p[2], x64, open_nr, ENOENT, "/usr/lib/locale/locale-archive", 2);
	/* 70 directories, 1 failure each, from 5 processes: 64 paths kept, 8 groups shown */
	for (int i = 0; i < 70; i++) {
		snprintf(path, sizeof(path), "/d%02d/ls", i);
		fp__account(fp, p[i % 5], x64, stat_nr, ENOENT, 1, 0);
		fp__error_source(fp, p[i % 5], x64, stat_nr, ENOENT, path, 1);
	}
	out = render_text(fp, NULL);
	assert_non_null(strstr(out,
			       "errors, by system call and errno: processes — paths\n"
			       "  newfstatat ENOENT 70: a 14, b 14, c 14, d 14, others 14 — /d00/ls (1), /d01/ls (1), "
			       "/d02/ls (1), /d03/ls (1), /d04/ls (1), /d05/ls (1), /d06/ls (1), /d07/ls (1), "
			       "more paths (62)\n"
			       "  openat ENOENT 15: a 7, b 6, c 2 — /usr/lib/locale/C.UTF-8/LC_* (13), "
			       "/usr/lib/locale/locale-archive (2)\n"));
	assert_int_equal(fp_sctab_find(&fp->syscalls, x64, stat_nr)->errsrc[0].paths_other, 6);
	free(out);
	fp__free(fp);
}

/* The kernel functions section: totals and method, the top table, per syscall; a sampled set says so. */
static void test_text_kernel_functions(void **state)
{
	struct footprint *fp = fp__new();
	char *out;

	fp->backend = xstrdup("bpf");
	fp__kfuncs(fp, "function_graph", true);
	fp__kfunc_hit(fp, "eventfd_write", "write", 50);
	fp__kfunc_hit(fp, "__fdget_pos", "write", 50);
	fp__kfunc_hit(fp, "__fdget_pos", "read", 49);
	fp__kfunc_hit(fp, "eventfd_read", "read", 50);
	fp__kfunc_hit(fp, "handle_mm_fault", NULL, 3);
	out = render_text(fp, NULL);
	assert_non_null(
	    strstr(out, "\nkernel functions: 4 functions, 202 calls (function_graph tracer: exhaustive), 0 lost\n"
			"\n"
			"kernel functions, top 20 by calls\n"
			"function         calls  under syscalls\n"
			"---------------  -----  -----------------\n"
			"__fdget_pos         99  write 50, read 49\n"
			"eventfd_read        50  read 50\n"
			"eventfd_write       50  write 50\n"
			"handle_mm_fault      3\n"
			"\n"
			"kernel functions, by the syscall they ran under\n"
			"  write: 2 functions, 100 calls: __fdget_pos 50, eventfd_write 50\n"
			"  read: 2 functions, 99 calls: eventfd_read 50, __fdget_pos 49\n"));
	free(out);
	fp_kfuncs_of(fp)->method = "sampled";
	fp_kfuncs_of(fp)->exhaustive = false;
	out = render_text(fp, NULL);
	assert_non_null(strstr(out,
			       "\nkernel functions: 4 functions (sampled kernel stacks: sampled, not exhaustive), 0 "
			       "lost\n\nkernel functions, top 20 by samples (sampled, not exhaustive)\n"));
	free(out);
	fp_kfuncs_free(fp_kfuncs_of(fp));
	*fp_kind_slot(fp, &fp_kind_kfuncs) = NULL;
	fp__kfuncs(fp, "function", false)->why_not = xstrdup("the kernel refuses function tracing");
	out = render_text(fp, NULL);
	assert_non_null(strstr(out, "\nkernel functions: not recorded: the kernel refuses function tracing\n"));
	free(out);
	fp__free(fp);
}

/* The call sites section: per key (syscall, errno, what it reached), its most frequent stacks, a frame a line. */
static void test_text_call_sites(void **state)
{
	struct footprint *fp = fp__new();
	struct fp_csites *c = fp__csites(fp, 8);
	struct fp_csite_frame lib[3] = {
	    {.module = "/lib/libc.so.6", .offset = 0x108e07, .function = "eventfd"},
	    {.module = "/tmp/libkf.so", .offset = 0x1145, .function = "lib_f", .file = "/src/lib.c", .line = 13},
	    {.module = "/tmp/app", .offset = 0x11b8, .function = "main", .file = "main.c", .line = 26},
	};
	struct fp_csite_frame own[2] = {lib[0], {.module = "/tmp/app", .offset = 0x116b}};
	struct fp_csite_key *k = fp__csite_key(c, "eventfd2", 0, NULL);
	char *out;

	fp->backend = xstrdup("ptrace");
	fp_csite_add(k, own, 2, 2);
	fp_csite_add(k, lib, 3, 3);
	fp_csite_add(k, NULL, 0, 1);
	fp_csite_add(fp__csite_key(c, "read", 22, "fd pipe"), own, 1, 4);
	/* a view through -e shows the keys of the rows it keeps: close has none here */
	fp_csite_add(fp__csite_key(c, "close", 0, NULL), own, 1, 1);
	fp__account(fp, NULL, KF_ABI_X86_64, 290, 0, 6, 0); /* eventfd2 */
	fp__account(fp, NULL, KF_ABI_X86_64, 0, 22, 4, 0);  /* read, EINVAL */
	out = render_text(fp, NULL);
	assert_null(strstr(out, "  close"));
	assert_non_null(strstr(out, "\ncall sites: 2 keys (syscall, errno, what it reached), the innermost 8 frames\n"
				    "  eventfd2: 6 calls, 2 stacks, 1 without a stack\n"
				    "    3 calls from\n"
				    "      libc.so.6+0x108e07 eventfd\n"
				    "      libkf.so+0x1145 lib_f (lib.c:13)\n"
				    "      app+0x11b8 main (main.c:26)\n"
				    "    2 calls from\n"
				    "      libc.so.6+0x108e07 eventfd\n"
				    "      app+0x116b\n"
				    "  read EINVAL [fd pipe]: 4 calls, 1 stack\n"
				    "    4 calls from\n"
				    "      libc.so.6+0x108e07 eventfd\n"));
	free(out);
	fp__free(fp);
}

static char *render_text(struct footprint *fp, const struct text_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	annotate_classes(fp);
	/* as the commands do: the built-in databases' view for the summary, made before rendering */
	struct text_opts t = o ? *o : (struct text_opts){0};
	struct kmap_view view;
	annotate_view(fp, &view, renderer_find("text")->closure);
	t.view = &view;
	assert_int_equal(renderer_render(renderer_find("text"), fp, &t, f), 0);
	kmap_view_release(&view);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The rows of the first table after heading, names only, joined by spaces. */
static char *row_names(const char *out, const char *heading)
{
	const char *p = strstr(out, heading);
	struct strbuf sb = STRBUF_INIT;

	assert_non_null(p);
	p = strchr(strchr(strchr(p + 1, '\n') + 1, '\n') + 1, '\n') + 1; /* past the heading, column heads, dashes */
	while (*p && *p != '\n') {
		size_t n = strcspn(p, " \n");

		if (sb.len)
			strbuf_addch(&sb, ' ');
		strbuf_add(&sb, p, n);
		p = strchr(p, '\n') + 1;
	}
	return strbuf_detach(&sb);
}

/* -S: every key orders the rows, ties by calls then name; the heading says which order it is. */
static void test_text_sort(void **state)
{
	static const struct {
		const char *key, *rows;
	} want[] = {
	    {"calls", "read openat wait4 clone exit_group open"},
	    {"time", "wait4 read openat clone open exit_group"},
	    {"errors", "openat wait4 open read clone exit_group"},
	    {"name", "clone exit_group open openat read wait4"},
	};
	struct footprint *fp = sample_fp();

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct text_opts o = {.sort = want[i].key};
		char *out = render_text(fp, &o), heading[64], *rows;

		snprintf(heading, sizeof(heading), "\nsystem calls, by %s\n", want[i].key);
		rows = row_names(out, heading);
		assert_string_equal(rows, want[i].rows);
		free(rows);
		free(out);
		assert_int_equal(text_opts_check(&o, "text"), 0);
		assert_int_equal(text_opts_check(&o, "csv"), -1);
	}
	assert_int_equal(text_opts_check(&(struct text_opts){.sort = "size"}, "text"), -1);
	assert_int_equal(text_opts_check(&(struct text_opts){.by_class = true}, "strace"), -1);
	assert_int_equal(text_opts_check(&(struct text_opts){0}, "strace"), 0);
	fp__free(fp);
}

/* Without times (bpf --no-time) no time column, no time in the summary, and "time" sorts by calls. */
static void test_text_no_time(void **state)
{
	struct footprint *fp = sample_fp();
	struct text_opts o = {.sort = "time", .per_process = true};
	char *out;

	for (uint32_t i = 0; i < fp->syscalls.cap; i++)
		if (fp->syscalls.slots[i])
			fp->syscalls.slots[i]->time_ns = 0;
	for (size_t i = 0; i < fp->nprocs; i++)
		for (uint32_t j = 0; j < fp->procs[i]->syscalls.cap; j++)
			if (fp->procs[i]->syscalls.slots[j])
				fp->procs[i]->syscalls.slots[j]->time_ns = 0;
	out = render_text(fp, &o);
	assert_non_null(strstr(out, "\nsummary:      31 calls, 5 errors (16.1%), 6 syscalls, 3 processes\n"));
	assert_non_null(strstr(out, "\nsystem calls, by calls\n"
				    "syscall      calls  errors  class\n"
				    "-----------  -----  ------  -------------\n"
				    "read            12          Filesystem\n"));
	assert_non_null(strstr(out, "\npid 102 wc: 12 calls, 0 errors\n"
				    "  syscall  calls  errors\n"
				    "  -------  -----  ------\n"
				    "  read        12\n"));
	assert_null(strstr(out, "time"));
	assert_null(strstr(out, "s/call"));
	free(out);
	fp__free(fp);
}

/* Per-process tables: by default for 2 to 4 processes; -P for any number. */
static void test_text_per_process(void **state)
{
	struct footprint *fp = fp__new();
	struct text_opts with = {.per_process = true};
	char *out;

	for (int i = 0; i < 5; i++) {
		struct fp_proc *p = fp__proc_new(fp, 200 + i, i ? 200 : 1, 0);

		snprintf(p->comm, sizeof(p->comm), "p%d", i);
		fp__account(fp, p, KF_ABI_X86_64, sample_nr(KF_ABI_X86_64, "getppid"), 0, 1, 1000);
		out = render_text(fp, NULL);
		if (i >= 1 && i < TEXT_FEW_PROCS)
			assert_non_null(strstr(out, "\nper process\n"));
		else
			assert_null(strstr(out, "per process"));
		free(out);
		out = render_text(fp, &with);
		assert_non_null(
		    strstr(out, "\nper process\n\npid 200 p0: 1 call, 0 errors, 0.000001s in system calls\n"));
		free(out);
	}
	fp__free(fp);
}

/* --by-class: the seed guide's tables in place of the one syscall table; the summary and tree stay. */
/*
 * The summary's classes follow what each call reached: wc's 12 reads, 8 of them of a pipe, are 8 IPC and 4
 * Filesystem (with openat's 10 and open's 2); an ioctl on a socket is Network; the table keeps read's class. The
 * kconfig: line has what the socket's family needs.
 */
static void test_text_classes_by_reach(void **state)
{
	struct footprint *fp = sample_fp();
	struct fp_proc *wc = fp->procs[2];
	int ioctl_nr = kf_syscall_by_name(KF_ABI_X86_64, "ioctl")->nr;

	fp->reach = true;
	fp__reach(fp, wc, KF_ABI_X86_64, kf_syscall_by_name(KF_ABI_X86_64, "read")->nr, "fd", "pipe", NULL, 0, 8);
	fp__account(fp, wc, KF_ABI_X86_64, ioctl_nr, 0, 9, MS(1));
	fp__reach(fp, wc, KF_ABI_X86_64, ioctl_nr, "fd", "socket:AF_UNIX:SOCK_STREAM:0", NULL, 0, 9);
	fp__reach(fp, wc, KF_ABI_X86_64, ioctl_nr, "ioctl", "FIONREAD", "socket:AF_UNIX:SOCK_STREAM:0", 0, 9);
	/* the renderer alone resolves nothing: no view, no kconfig: line */
	char *out = render("text", fp);
	assert_null(strstr(out, "kconfig:"));
	free(out);
	out = render_text(fp, NULL);
	assert_non_null(strstr(out, "top classes:  Filesystem 16 (40%), Network 9 (22%), IPC 8 (20%) of 40 calls\n"));
	assert_non_null(strstr(out, "kconfig:      3 options needed (Linux 6.1): COMPAT, NET, UNIX\n"));
	assert_non_null(strstr(out, "read            12 "));
	free(out);
	fp__free(fp);
	(void)state;
}

/*
 * Every map format of every mapping in a view, one after the other: what the comparison below holds equal. The
 * fragment is left out: its closure over Kconfig is what only the whole database has (report.h's closure).
 */
static char *render_maps(const struct kmap_view *v)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < v->n; i++)
		for (size_t k = 0; map_renderer_at(k); k++) {
			const struct map_renderer *r = map_renderer_at(k);
			char *buf = NULL;

			if (!strcmp(r->f.name, "kconfig"))
				continue;
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);

			assert_non_null(f);
			if (!r->ready || !r->ready(v->maps[i]))
				assert_int_equal(r->render(v->maps[i], f), 0);
			assert_int_equal(fclose(f), 0);
			strbuf_addf(&sb, "== %s\n", r->f.name);
			strbuf_add(&sb, buf, len);
			free(buf);
		}
	return strbuf_detach(&sb);
}

/* The refinement a reach record of the database answers (kt_reach_keys()'s way back); a pattern gets a name. */
static void reach_of(const char *key, char *kind, char *value, size_t len)
{
	const char *v = strchr(key, ' ') + 1;
	size_t k = (size_t)(v - 1 - key);
	char name[128];

	snprintf(name, sizeof(name), "%s", v);
	if (name[0] && name[strlen(name) - 1] == '*')
		snprintf(name + strlen(name) - 1, sizeof(name) - strlen(name) + 1, "KF_TEST");
	snprintf(kind, len, "fd");
	if (!strncmp(key, "fs ", k + 1))
		snprintf(value, len, "file:%s", name);
	else if (!strncmp(key, "chr ", k + 1) || !strncmp(key, "blk ", k + 1))
		snprintf(value, len, "%.3s:%s%s", key, name, strchr(name, ':') ? "" : ":7");
	else if (!strncmp(key, "anon ", k + 1))
		snprintf(value, len, "anon:%s", name);
	else if (!strncmp(key, "af ", k + 1) || !strncmp(key, "proto ", k + 1))
		snprintf(kind, len, "socket"), snprintf(value, len, "%s", name);
	else if (!strncmp(key, "netlink ", k + 1))
		snprintf(kind, len, "socket"), snprintf(value, len, "AF_NETLINK:SOCK_RAW:%s", name);
	else
		snprintf(kind, len, "%.*s", (int)k, key), snprintf(value, len, "%s", name);
}

/*
 * The summary's database is read for the footprint alone (mapdb_parse_for()): a footprint of every syscall of
 * both ABIs, each reaching what a record of the database registers, maps the same through it as through the
 * whole database, in every map format; and the footprints of the other tests' shape do too.
 */
static void test_view_reduced_db(void **state)
{
	struct footprint *fp = sample_fp();
	struct fp_proc *p = fp->procs[0];
	struct kmap_view full, part;
	const enum kf_abi abis[] = {KF_ABI_X86_64, KF_ABI_I386};

	/*
	 * uretprobe (335, 6.11) is in a gap of 6.1's table, which only the highest number of the whole table tells
	 * from a newer syscall (kmap_row_note()). The sample as it is first, then the same with everything in it.
	 */
	assert_non_null(kf_syscall_by_name(KF_ABI_X86_64, "uretprobe"));
	fp__account(fp, p, KF_ABI_X86_64, kf_syscall_by_name(KF_ABI_X86_64, "uretprobe")->nr, 0, 1, 0);
	for (int round = 0; round < 2; round++) {
		annotate_view(fp, &full, true);
		annotate_view(fp, &part, false);
		assert_int_equal(full.n, part.n);
		assert_true(full.n > 0);
		char *x = render_maps(&full), *y = render_maps(&part);
		assert_string_equal(x, y);
		free(x);
		free(y);
		if (round) {
			/* read for fewer, not all: else this test shows nothing of the reduction */
			assert_true(part.dbs[0]->nopts < full.dbs[0]->nopts ||
				    part.dbs[0]->nreach < full.dbs[0]->nreach);
		} else {
			for (size_t a = 0; a < 2; a++) {
				for (size_t i = 0; i < kf_syscall_count(abis[a]); i++)
					fp__account(fp, p, abis[a], kf_syscall_at(abis[a], i)->nr, 0, 1, 0);
				for (size_t i = 0; a < full.n && i < full.dbs[a]->nreach; i++) {
					char kind[192], value[192];
					int nr = kf_syscall_by_name(abis[a], i % 2 ? "ioctl" : "openat")
						     ? kf_syscall_by_name(abis[a], i % 2 ? "ioctl" : "openat")->nr
						     : kf_syscall_at(abis[a], 0)->nr;

					reach_of(full.dbs[a]->reach[i]->name, kind, value, sizeof(kind));
					fp__reach(fp, p, abis[a], nr, kind, value, NULL, (int)(i % 3 ? 0 : ENOENT), 1);
				}
			}
			fp->reach = true;
		}
		kmap_view_release(&full);
		kmap_view_release(&part);
	}
	fp__free(fp);
	(void)state;
}

static void test_text_by_class(void **state)
{
	struct footprint *fp = sample_fp();
	struct text_opts o = {.by_class = true};
	char *out = render_text(fp, &o);

	assert_non_null(strstr(out, "top classes:  Filesystem 24 (77%), Process Mgmt. 7 (23%) of 31 calls\n"
				    "kconfig:      1 option needed (Linux 6.1): COMPAT\n"
				    "maintainers:  1 section: FILESYSTEMS (VFS and infrastructure)\n"
				    "              see `kfootprint map FILE` for the chains\n"
				    "\n"
				    "Process Mgmt.\n"
				    "System Call  # calls  errors  Linux Subsystem  System Call (API)\n"
				    "-----------  -------  ------  ---------------  -----------------\n"
				    "wait4              3       1  Process Mgmt.    sys_wait4()\n"));
	assert_non_null(strstr(out, "\nFilesystem\n"
				    "System Call  # calls  errors  Linux Subsystem  System Call (API)\n"
				    "-----------  -------  ------  ---------------  -----------------\n"
				    "read              12       0  Filesystem       sys_read()\n"
				    "openat            10       3  Filesystem       sys_openat()\n"
				    "open (i386)        2       1  Filesystem       sys_open()\n"
				    "\nper process\n"));
	assert_null(strstr(out, "system calls, by"));
	assert_non_null(strstr(out, "\nprocesses\n# read N write M: "));
	assert_non_null(strstr(out, "\n 100  sh "));
	free(out);
	fp__free(fp);
}

static void test_text_incomplete_attached_signal(void **state)
{
	struct footprint *fp = sample_fp();
	char *out;

	for (char **a = fp->argv; *a; a++)
		free(*a);
	free(fp->argv);
	fp->argv = NULL;
	fp->attached_pids = xcalloc(2, sizeof(pid_t));
	fp->attached_pids[0] = 12;
	fp->attached_pids[1] = 34;
	fp->nattached = 2;
	fp__set_incomplete(fp, "duration");
	fp->exit = (struct fp_exit){FP_EXIT_SIGNAL, SIGSEGV, true};
	out = render("text", fp);
	assert_memory_equal(out, "footprint:    INCOMPLETE: duration\nattached:     pids 12, 34\n", 60);
	assert_non_null(strstr(out, "\nexit:         signal SIGSEGV (core dumped)\n"));
	free(out);
	fp->exit.kind = FP_EXIT_NONE;
	out = render("text", fp);
	assert_non_null(strstr(out, "\nexit:         still running\n"));
	free(out);
	fp__free(fp);
}

/* What a seccomp filter killed: one header line per call, how many tasks, the first process hit. */
static void test_text_seccomp_kills(void **state)
{
	struct footprint *fp = sample_fp();
	char *out;

	fp__seccomp_kill(fp, fp->procs[1], KF_ABI_X86_64, sample_nr(KF_ABI_X86_64, "getppid"), 1);
	fp__seccomp_kill(fp, fp->procs[2], KF_ABI_X86_64, sample_nr(KF_ABI_X86_64, "getppid"), 2);
	fp__seccomp_kill(fp, fp->procs[2], KF_ABI_I386, sample_nr(KF_ABI_I386, "getpid"), 1);
	out = render("text", fp);
	assert_non_null(strstr(out, "exit:         code 0\n"
				    "seccomp kill: getppid, 3 tasks (first: pid 101 ls)\n"
				    "seccomp kill: getpid (i386), 1 task (first: pid 102 wc)\n"
				    "lost events:  0\n"));
	free(out);
	fp__free(fp);
}

/* Every format says that an incomplete footprint is incomplete, and why, in one wording. */
static void test_incomplete_every_format(void **state)
{
	struct footprint *fp = sample_fp();
	const char *why = "INCOMPLETE: lost events: 3 exec/open events (ring full)";
	char want[256], *out;

	fp__set_incomplete(fp, "lost events: 3 exec/open events (ring full)");
	fp__lost(fp, 3);
	out = render("text", fp);
	snprintf(want, sizeof(want), "footprint:    %s\ncommand:", why);
	assert_memory_equal(out, want, strlen(want));
	free(out);
	out = render("tree", fp);
	snprintf(want, sizeof(want), "footprint %s\n# read N write M", why);
	assert_memory_equal(out, want, strlen(want));
	free(out);
	out = render("strace", fp);
	snprintf(want, sizeof(want), "footprint %s\n%% time     seconds", why);
	assert_memory_equal(out, want, strlen(want));
	free(out);
	out = render("csv", fp);
	snprintf(want, sizeof(want), "\ni386,open,5,2,1,0.002000000,Filesystem\n# footprint %s\n", why);
	assert_string_equal(out + strlen(out) - strlen(want), want);
	free(out);
	out = render("rst", fp);
	snprintf(want, sizeof(want), "    sh -c 'ls /tmp | wc -l'\n\n.. warning:: The footprint is %s\n\n31 calls",
		 why);
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "3 processes (incomplete footprint).\n"));
	free(out);
	out = render("json", fp);
	assert_non_null(strstr(out, "\"complete\": false,\n"));
	assert_non_null(strstr(out, "\"incomplete_why\": \"lost events: 3 exec/open events (ring full)\",\n"));
	assert_non_null(strstr(out, "\"lost_events\": 3,\n"));
	free(out);
	/* A reason without the count gets it */
	free(fp->incomplete_why);
	fp->incomplete_why = xstrdup("lost events");
	out = render("tree", fp);
	assert_memory_equal(out, "footprint INCOMPLETE: lost events (3 lost)\n", 42);
	free(out);
	/* A complete footprint has none of it: strace's layout stays diffable with strace -c. */
	fp->complete = true;
	for (const char *n = "text\0strace\0rst\0tree\0csv\0"; *n; n += strlen(n) + 1) {
		out = render(n, fp);
		assert_null(strstr(out, "INCOMPLETE"));
		free(out);
	}
	fp__free(fp);
}

/* --by-class: classes in the seed's order whatever the counts; a class only a file knows goes last. */
static void test_text_class_order(void **state)
{
	struct footprint *fp = fp__new();
	const enum kf_abi x64 = KF_ABI_X86_64;
	char *out;

	fp__account(fp, NULL, x64, sample_nr(x64, "capget"), 0, 50, 0);
	fp__account(fp, NULL, x64, sample_nr(x64, "futex"), 0, 40, 0);
	fp__account(fp, NULL, x64, sample_nr(x64, "rt_sigaction"), 0, 30, 0);
	fp__account(fp, NULL, x64, sample_nr(x64, "socket"), 0, 20, 0);
	fp__account(fp, NULL, x64, sample_nr(x64, "mmap"), 0, 10, 0);
	fp__account(fp, NULL, x64, sample_nr(x64, "getpid"), 0, 5, 0);
	fp__account(fp, NULL, x64, 4000, ENOSYS, 1, 0);
	fp_sctab_find(&fp->syscalls, x64, 4000)->annot.klass = fp__intern(fp, "Zzz from a file");
	out = render_text(fp, &(struct text_opts){.by_class = true});
	const char *order[] = {"\nProcess Mgmt.\n", "\nMemory Mgmt.\n", "\nNetwork\n",	      "\nSignal\n",
			       "\nFutex\n",	    "\nCapability\n",	"\nZzz from a file\n"};
	const char *at = out;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *p = strstr(at, order[i]);

		if (!p)
			fail_msg("class %s missing or out of order in:\n%s", order[i], out);
		else
			at = p;
	}
	assert_non_null(strstr(out, "\nsyscall_4000        1       1  Zzz from a file  sys_syscall_4000()\n"));
	free(out);
	fp__free(fp);
}

static void test_rst(void **state)
{
	struct footprint *fp = sample_fp();
	char *out = render("rst", fp);

	assert_non_null(strstr(out, "System calls made by the workload\n"
				    "=================================\n\nCommand::\n\n    sh -c 'ls /tmp | wc -l'\n\n"
				    "31 calls, 5 errors, 6 system calls, 3 processes.\n\n"));
	assert_non_null(strstr(out, "Filesystem\n----------\n\n"
				    "+-------------+---------+--------+-----------------+-------------------+\n"
				    "| System Call | # calls | errors | Linux Subsystem | System Call (API) |\n"
				    "+=============+=========+========+=================+===================+\n"
				    "| read        | 12      | 0      | Filesystem      | sys_read()        |\n"
				    "+-------------+---------+--------+-----------------+-------------------+\n"
				    "| openat      | 10      | 3      | Filesystem      | sys_openat()      |\n"
				    "+-------------+---------+--------+-----------------+-------------------+\n"
				    "| open (i386) | 2       | 1      | Filesystem      | sys_open()        |\n"
				    "+-------------+---------+--------+-----------------+-------------------+\n\n"));
	assert_non_null(strstr(out, "Process Mgmt.\n-------------\n\n+"));
	assert_true(strstr(out, "Process Mgmt.\n") < strstr(out, "Filesystem\n"));
	free(out);
	fp__free(fp);
}

static void test_json_is_the_footprint(void **state)
{
	struct footprint *fp = sample_fp();
	char *a = render("json", fp), *b = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&b, &len);

	assert_int_equal(fp__write_json(fp, f), 0);
	fclose(f);
	assert_string_equal(a, b);
	free(a);
	free(b);
	fp__free(fp);
}

static void test_empty_footprint(void **state)
{
	struct footprint *fp = fp__new();
	char *out;

	out = render("text", fp);
	assert_non_null(strstr(out, "footprint:    complete\nattached:     ?\n"));
	assert_non_null(strstr(out, "backend:      ?\n"));
	assert_non_null(strstr(out, "\nno system calls recorded\n"));
	assert_null(strstr(out, "\nprocesses\n"));
	free(out);
	check("strace", fp, "");
	check("tree", fp, "");
	check("csv", fp, "abi,name,nr,calls,errors,time_s,class\n");
	out = render("rst", fp);
	assert_non_null(strstr(out, "0 calls, 0 errors, 0 system calls, 0 processes.\n"));
	free(out);
	out = render("json", fp);
	assert_non_null(strstr(out, "\"syscalls\": [],\n  \"processes\": []\n}\n"));
	free(out);
	fp__free(fp);
}

static void test_write_error_reported(void **state)
{
	struct footprint *fp = sample_fp();
	FILE *f = fopen("/dev/full", "w");

	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	for (const char *n = "text\0strace\0rst\0tree\0json\0csv\0"; *n; n += strlen(n) + 1)
		assert_int_equal(renderer_find(n)->render(fp, f), -1);
	fclose(f);
	fp__free(fp);
}

/* The footprint as its JSON writer has it. */
static char *json_of(const struct footprint *fp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fp__write_json(fp, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/*
 * record's -e is a view (fp_filter_view()): every format renders from it what it renders from the footprint the
 * filter changed (fp_filter_apply(), as report does), and the footprint under the view, which record saved, is
 * the same to the byte afterwards.
 */
static void test_filter_view(void **state)
{
	static const char *const exprs[][2] = {{"trace=read,write", NULL},
					       {"status=failed", NULL},
					       {"status=successful", NULL},
					       {"trace=!%file", "status=failed"},
					       {"trace=none", NULL}};
	static const char *const formats[] = {"text", "strace", "rst", "tree", "json", "csv", "html"};

	(void)state;
	for (size_t e = 0; e < sizeof(exprs) / sizeof(exprs[0]); e++) {
		for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++) {
			struct fp_filter f = {0};
			struct footprint *saved = sample_fp(), *changed = sample_fp();
			const struct footprint *view;
			char *before, *after, *want, *got;

			for (size_t i = 0; i < 2 && exprs[e][i]; i++)
				assert_int_equal(fp_filter_parse(&f, exprs[e][i]), 0);
			annotate_classes(saved);
			before = json_of(saved);
			view = fp_filter_view(&f, saved);
			assert_ptr_not_equal(view, saved);
			fp_filter_apply(&f, changed);
			want = render(formats[k], changed);
			got = render_view(formats[k], view);
			if (strcmp(want, got))
				fail_msg("-e %s -F %s: the view renders\n%s\nthe filtered footprint\n%s", exprs[e][0],
					 formats[k], got, want);
			fp_filter_view_free(view, saved);
			after = json_of(saved);
			assert_string_equal(after, before);
			free(before);
			free(after);
			free(want);
			free(got);
			fp__free(saved);
			fp__free(changed);
			fp_filter_release(&f);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_filter_view),
	    cmocka_unit_test(test_strace),
	    cmocka_unit_test(test_strace_ties_and_widths),
	    cmocka_unit_test(test_tree),
	    cmocka_unit_test(test_tree_chain_threads_argv),
	    cmocka_unit_test(test_tree_deep_chain_and_names),
	    cmocka_unit_test(test_html_escapes_and_deep_chain),
	    cmocka_unit_test(test_html_answer_first),
	    cmocka_unit_test(test_html_label_cut),
	    cmocka_unit_test(test_csv),
	    cmocka_unit_test(test_text),
	    cmocka_unit_test(test_text_errors),
	    cmocka_unit_test(test_text_incomplete_attached_signal),
	    cmocka_unit_test(test_incomplete_every_format),
	    cmocka_unit_test(test_text_seccomp_kills),
	    cmocka_unit_test(test_text_kernel_functions),
	    cmocka_unit_test(test_text_call_sites),
	    cmocka_unit_test(test_text_class_order),
	    cmocka_unit_test(test_text_sort),
	    cmocka_unit_test(test_text_no_time),
	    cmocka_unit_test(test_text_per_process),
	    cmocka_unit_test(test_text_by_class),
	    cmocka_unit_test(test_text_classes_by_reach),
	    cmocka_unit_test(test_view_reduced_db),
	    cmocka_unit_test(test_rst),
	    cmocka_unit_test(test_json_is_the_footprint),
	    cmocka_unit_test(test_empty_footprint),
	    cmocka_unit_test(test_write_error_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
