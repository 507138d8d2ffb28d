// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel tree index on a real tree: $KF_KSRC (set by tests/integration/map_index_real.sh, which extracts
 * Debian's linux-source-6.1). Skipped, with the reason, when KF_KSRC is not set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ktree/ktree.h"

static struct kt_index *idx;

static int setup(void **state)
{
	const char *src = getenv("KF_KSRC");
	char *err = NULL;

	if (!src || !*src)
		return 0;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	idx = kt_index_build(src, KF_ABI_X86_64, NULL, KT_BUILD_NO_CACHE, &err);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (!idx) {
		print_error("index of %s: %s\n", src, err);
		return -1;
	}
	printf("# indexed %s (%s) in %.3f s\n", src, kt_index_version(idx),
	       (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}

static int teardown(void **state)
{
	kt_index_free(idx);
	return 0;
}

#define NEED_TREE() assert_non_null(idx)

static const struct kt_cond *cond(const struct kt_syscall *s, enum kt_cond_kind kind, const char *option)
{
	for (size_t i = 0; i < s->nconds; i++)
		if (s->conds[i].kind == kind && s->conds[i].option && !strcmp(s->conds[i].option, option))
			return &s->conds[i];
	return NULL;
}

static void test_eventfd2(void **state)
{
	NEED_TREE();
	const struct kt_syscall *s = kt_index_syscall(idx, "eventfd2");
	assert_string_equal(s->file, "fs/eventfd.c");
	assert_non_null(cond(s, KT_COND_MAKEFILE_OBJ, "EVENTFD"));
	const struct kt_option *o = kt_index_option(idx, "EVENTFD");
	assert_string_equal(o->file, "init/Kconfig");
	assert_non_null(o->prompt);
	assert_true(s->optional);
}

static void test_futex_by_directory(void **state)
{
	NEED_TREE();
	const struct kt_syscall *s = kt_index_syscall(idx, "futex");
	assert_string_equal(s->file, "kernel/futex/syscalls.c");
	assert_non_null(cond(s, KT_COND_MAKEFILE_DIR, "FUTEX"));
	assert_string_equal(s->sections[0].section->name, "FUTEX SUBSYSTEM");
}

static void test_socket_by_directory(void **state)
{
	NEED_TREE();
	const struct kt_syscall *s = kt_index_syscall(idx, "socket");
	assert_string_equal(s->file, "net/socket.c");
	const struct kt_cond *c = cond(s, KT_COND_MAKEFILE_DIR, "NET");
	assert_non_null(c);
	assert_string_equal(c->where, "Kbuild:97");
}

static void test_membarrier_through_include(void **state)
{
	NEED_TREE();
	const struct kt_syscall *s = kt_index_syscall(idx, "membarrier");
	assert_string_equal(s->file, "kernel/sched/membarrier.c");
	assert_string_equal(s->included_by, "kernel/sched/build_utility.c");
	assert_non_null(cond(s, KT_COND_INCLUDE, "MEMBARRIER"));
}

static void test_hard_cases(void **state)
{
	NEED_TREE();
	const struct kt_syscall *s = kt_index_syscall(idx, "mmap");
	assert_string_equal(s->file, "arch/x86/kernel/sys_x86_64.c");
	assert_string_equal(s->impl_file, "mm/mmap.c");
	s = kt_index_syscall(idx, "stat");
	assert_string_equal(s->def_name, "newstat");
	assert_string_equal(kt_index_syscall(idx, "umount2")->def_name, "umount");
	assert_string_equal(kt_index_syscall(idx, "sendfile")->def_name, "sendfile64");
	assert_string_equal(kt_index_syscall(idx, "brk")->file, "mm/mmap.c");
	assert_string_equal(kt_index_syscall(idx, "clock_gettime")->file, "kernel/time/posix-timers.c");
	assert_string_equal(kt_index_syscall(idx, "arch_prctl")->file, "arch/x86/kernel/process_64.c");
	assert_int_equal(kt_index_syscall(idx, "lookup_dcookie")->status, KT_NO_DEFINITION);
	assert_non_null(
	    cond(kt_index_syscall(idx, "landlock_create_ruleset"), KT_COND_MAKEFILE_OBJ, "SECURITY_LANDLOCK"));
	assert_non_null(cond(kt_index_syscall(idx, "syslog"), KT_COND_SOURCE_IF, "PRINTK"));
	assert_non_null(cond(kt_index_syscall(idx, "clone3"), KT_COND_ARCH_WANT, "__ARCH_WANT_SYS_CLONE3"));
	const struct kt_option *o = kt_index_option(idx, "QUOTACTL");
	assert_null(o->prompt);
	assert_true(o->nselected_by > 0);
	o = kt_index_option(idx, "MMU");
	assert_string_equal(o->file, "arch/x86/Kconfig");
	assert_int_equal(kt_index_syscall(idx, "cachestat")->status, KT_NOT_IN_TREE);
}

/* At least 340 of the 347 rows of syscall_64.tbl with an entry point resolve to a full chain. */
static void test_full_chains(void **state)
{
	NEED_TREE();
	size_t callable = 0, full = 0;

	for (size_t i = 0; i < kt_index_nsyscalls(idx); i++) {
		const struct kt_syscall *s = kt_index_syscall_at(idx, i);
		if (s->status == KT_NOT_IN_TREE || s->status == KT_NO_ENTRY)
			continue;
		callable++;
		if (s->complete)
			full++;
		else
			printf("# not a full chain: %s: %s\n", s->name, s->unresolved);
	}
	printf("# %zu of %zu callable x86_64 rows resolve to a full chain\n", full, callable);
	assert_int_equal(callable, 347);
	assert_true(full >= 340);
}

/* With KF_KTREE_MAINT=FILE: "path<TAB>section" for every definition file, for the script to check against
 * scripts/get_maintainer.pl of the same tree. */
static void test_dump_maintainers(void **state)
{
	NEED_TREE();
	const char *out = getenv("KF_KTREE_MAINT");
	if (!out || !*out)
		return;
	FILE *f = fopen(out, "w");
	assert_non_null(f);
	for (size_t i = 0; i < kt_index_nsyscalls(idx); i++) {
		const struct kt_syscall *s = kt_index_syscall_at(idx, i);
		for (size_t j = 0; s->file && j < s->nsections; j++)
			fprintf(f, "%s\t%s\n", s->file, s->sections[j].section->name);
	}
	assert_int_equal(fclose(f), 0);
}

int main(void)
{
	/* cmocka's TAP output reports skip() as "not ok ... # SKIP", which the runner counts as a failure */
	if (!getenv("KF_KSRC") || !*getenv("KF_KSRC")) {
		printf("1..1\nok 1 - ktree_real # SKIP KF_KSRC is not set (tests/integration/map_index_real.sh sets "
		       "it)\n");
		return 0;
	}
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_eventfd2),
	    cmocka_unit_test(test_futex_by_directory),
	    cmocka_unit_test(test_socket_by_directory),
	    cmocka_unit_test(test_membarrier_through_include),
	    cmocka_unit_test(test_hard_cases),
	    cmocka_unit_test(test_full_chains),
	    cmocka_unit_test(test_dump_maintainers),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
