// SPDX-License-Identifier: GPL-2.0
/* The footprint model: accounting, processes, files, name tables. */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "abi/syscalls.h"
#include "footprint/footprint.h"

static void test_account_counts_calls_errors_errnos(void **state)
{
	struct footprint *fp = fp__new();
	const struct kf_syscall *openat = kf_syscall_by_name(KF_ABI_X86_64, "openat");
	struct fp_proc *p = fp__proc_new(fp, 100, 1, fp__now_ns());

	assert_non_null(openat);
	fp__account(fp, p, KF_ABI_X86_64, openat->nr, 0, 3, 300);
	fp__account(fp, p, KF_ABI_X86_64, openat->nr, 2 /* ENOENT */, 2, 20);
	fp__account(fp, p, KF_ABI_X86_64, openat->nr, 13 /* EACCES */, 1, 10);
	fp__account(fp, p, KF_ABI_X86_64, openat->nr, 2, 1, 10);

	struct fp_sysstat *s = fp_sctab_find(&fp->syscalls, KF_ABI_X86_64, openat->nr);
	assert_non_null(s);
	assert_string_equal(s->name, "openat");
	assert_int_equal(s->calls, 7);
	assert_int_equal(s->errors, 4);
	assert_int_equal(s->time_ns, 340);
	assert_int_equal(s->nerrnos, 2);
	assert_int_equal(s->errnos[0].err, 2);
	assert_int_equal(s->errnos[0].count, 3);
	assert_int_equal(s->errnos[1].err, 13);
	assert_int_equal(s->errnos[1].count, 1);

	struct fp_sysstat *ps = fp_sctab_find(&p->syscalls, KF_ABI_X86_64, openat->nr);
	assert_non_null(ps);
	assert_int_equal(ps->calls, 7);
	assert_int_equal(ps->errors, 4);
	assert_int_equal(fp__total_calls(fp), 7);
	assert_int_equal(fp__total_errors(fp), 4);
	fp__free(fp);
}

static void test_abis_are_distinct_and_unknown_numbers_named(void **state)
{
	struct footprint *fp = fp__new();

	/* 5 is fstat on x86_64 but open on i386: same number, different rows. */
	fp__account(fp, NULL, KF_ABI_X86_64, 5, 0, 1, 0);
	fp__account(fp, NULL, KF_ABI_I386, 5, 0, 2, 0);
	fp__account(fp, NULL, KF_ABI_X86_64, 999, 38 /* ENOSYS */, 1, 0);
	assert_string_equal(fp_sctab_find(&fp->syscalls, KF_ABI_X86_64, 5)->name, "fstat");
	assert_string_equal(fp_sctab_find(&fp->syscalls, KF_ABI_I386, 5)->name, "open");
	assert_int_equal(fp_sctab_find(&fp->syscalls, KF_ABI_I386, 5)->calls, 2);
	assert_string_equal(fp_sctab_find(&fp->syscalls, KF_ABI_X86_64, 999)->name, "syscall_999");
	assert_int_equal(fp->syscalls.count, 3);
	fp__free(fp);
}

static void test_table_grows_beyond_initial_capacity(void **state)
{
	struct footprint *fp = fp__new();
	size_t n = kf_syscall_count(KF_ABI_X86_64);

	for (size_t i = 0; i < n; i++)
		fp__account(fp, NULL, KF_ABI_X86_64, kf_syscall_at(KF_ABI_X86_64, i)->nr, 0, i + 1, 0);
	assert_int_equal(fp->syscalls.count, n);
	for (size_t i = 0; i < n; i++) {
		const struct kf_syscall *row = kf_syscall_at(KF_ABI_X86_64, i);
		assert_int_equal(fp_sctab_find(&fp->syscalls, KF_ABI_X86_64, row->nr)->calls, i + 1);
	}
	struct fp_sysstat **v = fp_sctab_sorted(&fp->syscalls, NULL);
	for (size_t i = 1; i < n; i++)
		assert_true(strcmp(v[i - 1]->name, v[i]->name) < 0);
	assert_null(v[n]);
	free(v);
	fp__free(fp);
}

static void test_processes_and_pid_reuse(void **state)
{
	struct footprint *fp = fp__new();
	struct fp_proc *a, *b, *c;

	fp__start(fp);
	a = fp__proc_new(fp, 10, 1, fp->t0_ns);
	b = fp__proc_new(fp, 11, 10, fp->t0_ns + 1000000000ull);
	assert_ptr_equal(fp__proc_find(fp, 11), b);
	assert_ptr_equal(fp__parent(fp, b), a);
	assert_true(b->start_s > 0.99 && b->start_s < 1.01);
	fp__proc_exit(fp, b, (struct fp_exit){FP_EXIT_SIGNAL, SIGKILL, false}, fp->t0_ns + 2000000000ull);
	assert_null(fp__proc_find(fp, 11));
	assert_true(b->end_s > 1.99);
	/* pid 11 comes back: a new process; the old one keeps its record */
	c = fp__proc_new(fp, 11, 10, fp->t0_ns + 3000000000ull);
	assert_ptr_not_equal(b, c);
	assert_ptr_equal(fp__proc_find(fp, 11), c);
	assert_int_equal(fp->nprocs, 3);
	assert_int_equal(b->exit.kind, FP_EXIT_SIGNAL);
	assert_true(c->end_s < 0);
	/* many processes: the pid hash chains */
	for (int i = 0; i < 2000; i++)
		fp__proc_new(fp, 1000 + i, 10, fp->t0_ns);
	for (int i = 0; i < 2000; i++)
		assert_int_equal(fp__proc_find(fp, 1000 + i)->pid, 1000 + i);
	fp__free(fp);
}

static void test_open_counts_read_write(void **state)
{
	struct footprint *fp = fp__new();
	struct fp_proc *p = fp__proc_new(fp, 10, 1, fp__now_ns());

	fp__open(fp, p, "/etc/passwd", O_RDONLY | O_CLOEXEC, 0, 1);
	fp__open(fp, p, "/etc/passwd", O_RDONLY, 0, 1);
	fp__open(fp, p, "/tmp/x", O_WRONLY | O_CREAT, 0, 1);
	fp__open(fp, p, "/tmp/y", O_RDWR, 0, 1);
	fp__open(fp, p, "/nope", O_RDONLY, 2, 3);
	assert_int_equal(p->opens_read, 3);
	assert_int_equal(p->opens_write, 2);
	assert_int_equal(p->open_errors, 3);
	assert_int_equal(p->nfiles, 4);
	struct fp_file **f = fp_proc_files_sorted(p);
	assert_string_equal(f[0]->path, "/etc/passwd");
	assert_int_equal(f[0]->opens_read, 2);
	assert_string_equal(f[1]->path, "/nope");
	assert_int_equal(f[1]->errors, 3);
	assert_string_equal(f[3]->path, "/tmp/y");
	assert_int_equal(f[3]->opens_read, 1);
	assert_int_equal(f[3]->opens_write, 1);
	free(f);
	/* the file hash grows */
	for (int i = 0; i < 500; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/f/%d", i);
		fp__open(fp, p, path, O_RDONLY, 0, 1);
	}
	assert_int_equal(p->nfiles, 504);
	fp__free(fp);
}

static void test_names(void **state)
{
	assert_string_equal(fp_errno_name(2), "ENOENT");
	assert_int_equal(fp_errno_parse("ENOENT"), 2);
	assert_string_equal(fp_errno_name(512), "ERESTARTSYS");
	assert_int_equal(fp_errno_parse("ERESTARTSYS"), 512);
	assert_string_equal(fp_errno_name(4000), "E4000");
	assert_int_equal(fp_errno_parse("E4000"), 4000);
	assert_int_equal(fp_errno_parse("ENOTANERRNO"), -1);
	assert_int_equal(fp_errno_parse("E"), -1);
	for (int e = 1; e < 134; e++)
		assert_int_equal(fp_errno_parse(fp_errno_name(e)), e);
	assert_string_equal(fp_signal_name(SIGKILL), "SIGKILL");
	assert_int_equal(fp_signal_parse("SIGSEGV"), SIGSEGV);
	assert_int_equal(fp_signal_parse(fp_signal_name(SIGRTMIN + 3)), SIGRTMIN + 3);
	assert_int_equal(fp_signal_parse("SIGNOPE"), -1);
	assert_int_equal(fp_signal_parse("KILL"), -1);
}

static void test_incomplete_keeps_first_reason(void **state)
{
	struct footprint *fp = fp__new();

	assert_true(fp->complete);
	fp__lost(fp, 0);
	assert_true(fp->complete);
	fp__set_incomplete(fp, "duration");
	fp__lost(fp, 5);
	assert_false(fp->complete);
	assert_string_equal(fp->incomplete_why, "duration");
	assert_int_equal(fp->lost_events, 5);
	assert_ptr_equal(fp__intern(fp, "x"), fp__intern(fp, "x"));
	fp__free(fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_account_counts_calls_errors_errnos),
	    cmocka_unit_test(test_abis_are_distinct_and_unknown_numbers_named),
	    cmocka_unit_test(test_table_grows_beyond_initial_capacity),
	    cmocka_unit_test(test_processes_and_pid_reuse),
	    cmocka_unit_test(test_open_counts_read_write),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_incomplete_keeps_first_reason),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
