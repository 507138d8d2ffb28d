// SPDX-License-Identifier: GPL-2.0
/* The kernel tree index on tests/fixtures/ktree-basic: one fixture file per hard case of the real tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ktree/ktree.h"

static char *fixture(const char *name)
{
	const char *top = getenv("KF_TOP");
	char *p;

	if (asprintf(&p, "%s/tests/fixtures/%s", top ? top : ".", name) < 0)
		abort();
	return p;
}

static struct kt_index *build(const struct kt_config *cfg)
{
	char *dir = fixture("ktree-basic"), *err = NULL;
	struct kt_index *idx = kt_index_build(dir, KF_ABI_X86_64, cfg, KT_BUILD_NO_CACHE, &err);

	if (!idx)
		fail_msg("index of %s: %s", dir, err);
	free(dir);
	return idx;
}

static const struct kt_cond *cond(const struct kt_syscall *s, enum kt_cond_kind kind, const char *option)
{
	for (size_t i = 0; i < s->nconds; i++)
		if (s->conds[i].kind == kind && s->conds[i].option && !strcmp(s->conds[i].option, option))
			return &s->conds[i];
	return NULL;
}

static const struct kt_syscall *sc(const struct kt_index *idx, const char *name)
{
	const struct kt_syscall *s = kt_index_syscall(idx, name);

	if (!s)
		fail_msg("no row for %s", name);
	return s;
}

static void test_version_and_errors(void **state)
{
	struct kt_index *idx = build(NULL);
	char *err = NULL;

	assert_string_equal(kt_index_version(idx), "6.1.99-fixture");
	kt_index_free(idx);

	assert_null(kt_index_build("/nonexistent/kernel", KF_ABI_X86_64, NULL, KT_BUILD_NO_CACHE, &err));
	assert_non_null(strstr(err, "/nonexistent/kernel"));
	free(err);
	char *notree = fixture("");
	assert_null(kt_index_build(notree, KF_ABI_X86_64, NULL, KT_BUILD_NO_CACHE, &err));
	assert_non_null(strstr(err, "not a kernel source tree"));
	free(err);
	free(notree);
}

static void test_plain_object(void **state)
{
	struct kt_index *idx = build(NULL);
	const struct kt_syscall *s = sc(idx, "eventfd2");

	assert_int_equal(s->status, KT_RESOLVED);
	assert_string_equal(s->file, "fs/eventfd.c");
	assert_int_equal(s->line, 1);
	assert_string_equal(s->object, "fs/eventfd.o");
	assert_string_equal(s->makefile, "fs/Makefile");
	assert_int_equal(s->makefile_line, 5);
	const struct kt_cond *c = cond(s, KT_COND_MAKEFILE_OBJ, "EVENTFD");
	assert_non_null(c);
	assert_false(c->negated);
	assert_true(c->holds);
	assert_true(s->optional);
	assert_true(s->complete);
	assert_null(s->unresolved);
	/* Kconfig: generic file, not scripts/kconfig/tests; prompt with its if; first help paragraph */
	const struct kt_option *o = kt_index_option(idx, "EVENTFD");
	assert_non_null(o);
	assert_string_equal(o->file, "init/Kconfig");
	assert_int_equal(o->line, 3);
	assert_string_equal(o->type, "bool");
	assert_string_equal(o->prompt, "Enable eventfd() system call");
	assert_string_equal(o->prompt_if, "EXPERT");
	assert_string_equal(o->help, "Enable the eventfd() system call that allows to receive both kernel notification "
				     "(ie. KAIO) or userspace notifications.");
	assert_int_equal(o->ndefinitions, 1);
	/* MAINTAINERS: the literal fs/eventfd.c beats the wildcard fs/ star at the same depth; THE REST last */
	assert_int_equal(s->nsections, 3);
	assert_string_equal(s->sections[0].section->name, "EVENTFD");
	assert_string_equal(s->sections[1].section->name, "FILESYSTEMS (VFS and infrastructure)");
	assert_int_equal(s->sections[0].depth, s->sections[1].depth);
	assert_string_equal(s->sections[2].section->name, "THE REST");
	assert_int_equal(s->sections[2].depth, -1);
	kt_index_free(idx);
}

static void test_renamed_and_missing(void **state)
{
	struct kt_index *idx = build(NULL);
	static const char *const pairs[][3] = {
	    {"stat", "newstat", "fs/stat.c"},
	    {"uname", "newuname", "kernel/sys.c"},
	    {"umount2", "umount", "fs/namespace.c"},
	    {"sendfile", "sendfile64", "fs/read_write.c"},
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const struct kt_syscall *s = sc(idx, pairs[i][0]);
		assert_int_equal(s->status, KT_RESOLVED);
		assert_string_equal(s->def_name, pairs[i][1]);
		assert_string_equal(s->file, pairs[i][2]);
	}
	/* stat: __ARCH_WANT_NEW_STAT from arch/x86/include/asm/unistd.h */
	const struct kt_cond *c = cond(sc(idx, "stat"), KT_COND_ARCH_WANT, "__ARCH_WANT_NEW_STAT");
	assert_non_null(c);
	assert_true(c->holds);

	const struct kt_syscall *s = sc(idx, "_sysctl");
	assert_int_equal(s->status, KT_NI_SYSCALL);
	s = sc(idx, "lookup_dcookie");
	assert_int_equal(s->status, KT_NO_DEFINITION);
	assert_string_equal(s->unresolved, "no SYSCALL_DEFINE in this tree");
	s = sc(idx, "afs_syscall");
	assert_int_equal(s->status, KT_NO_ENTRY);
	/* a row of kfootprint's table that this tree's syscall_64.tbl lacks is newer, never guessed */
	s = sc(idx, "cachestat");
	assert_int_equal(s->status, KT_NOT_IN_TREE);
	assert_null(s->file);
	/* a definition in a file no Makefile lists */
	s = sc(idx, "sync");
	assert_string_equal(s->file, "fs/orphan.c");
	assert_false(s->complete);
	assert_non_null(strstr(s->unresolved, "'orphan.o' is not listed in fs/Makefile"));
	kt_index_free(idx);
}

static void test_wrapper(void **state)
{
	struct kt_index *idx = build(NULL);
	const struct kt_syscall *s = sc(idx, "mmap");

	assert_string_equal(s->file, "arch/x86/kernel/sys_x86_64.c");
	assert_string_equal(s->impl_name, "ksys_mmap_pgoff");
	assert_string_equal(s->impl_file, "mm/mmap.c");
	assert_int_equal(s->impl_line, 6);
	assert_non_null(cond(s, KT_COND_MAKEFILE_OBJ, "X86_64"));
	assert_non_null(cond(s, KT_COND_MAKEFILE_VAR, "MMU"));
	/* a wrapper calling a helper in its own file is its own implementation */
	assert_null(sc(idx, "read")->impl_file);
	kt_index_free(idx);
}

static void test_alternatives_by_config(void **state)
{
	struct kt_config *cfg = kt_config_new();
	static const char *const on[] = {"X86",		 "X86_64",	    "64BIT",	       "MMU",
					 "POSIX_TIMERS", "EVENTFD",	    "FUTEX",	       "MEMBARRIER",
					 "MULTIUSER",	 "ADVISE_SYSCALLS", "X86_IOPL_IOPERM", "NET"};

	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++)
		kt_config_set(cfg, on[i], "y");
	struct kt_index *idx = build(cfg);
	assert_string_equal(sc(idx, "brk")->file, "mm/mmap.c");
	assert_int_equal(sc(idx, "brk")->nalternatives, 1);
	assert_string_equal(sc(idx, "brk")->alternatives[0], "mm/nommu.c:1");
	assert_string_equal(sc(idx, "clock_gettime")->file, "kernel/time/posix-timers.c");
	assert_int_equal(sc(idx, "clone")->line, 19); /* the #else variant */
	assert_int_equal(sc(idx, "clone")->nalternatives, 3);
	assert_int_equal(sc(idx, "ioperm")->line, 7);
	assert_string_equal(sc(idx, "arch_prctl")->file, "arch/x86/kernel/process_64.c");
	kt_index_free(idx);

	/* every alternative flips with the configuration */
	kt_config_set(cfg, "MMU", NULL);
	kt_config_set(cfg, "POSIX_TIMERS", "n");
	kt_config_set(cfg, "CLONE_BACKWARDS2", "y");
	kt_config_set(cfg, "X86_IOPL_IOPERM", NULL);
	idx = build(cfg);
	const struct kt_syscall *s = sc(idx, "brk");
	assert_string_equal(s->file, "mm/nommu.c");
	const struct kt_cond *c = cond(s, KT_COND_MAKEFILE_VAR, "MMU");
	assert_non_null(c);
	assert_true(c->negated); /* mmu-y := nommu.o, replaced by mmu-$(CONFIG_MMU) := ... */
	s = sc(idx, "clock_gettime");
	assert_string_equal(s->file, "kernel/time/posix-stubs.c");
	c = cond(s, KT_COND_MAKEFILE_IF, "POSIX_TIMERS");
	assert_non_null(c);
	assert_true(c->negated); /* the else of ifeq ($(CONFIG_POSIX_TIMERS),y) */
	assert_string_equal(c->where, "kernel/time/Makefile:3");
	assert_int_equal(sc(idx, "clone")->line, 8);
	assert_int_equal(sc(idx, "ioperm")->line, 12); /* the -ENOSYS stub */
	/* no definition is built: a reason naming the failing condition */
	s = sc(idx, "madvise");
	assert_int_equal(s->status, KT_NOT_BUILT);
	assert_non_null(s->not_built);
	assert_non_null(strstr(s->not_built, "CONFIG_"));
	assert_true(s->complete); /* the chain is known, it is just off */
	assert_string_equal(kt_index_option_value(idx, "CONFIG_EVENTFD"), "y");
	assert_null(kt_index_option_value(idx, "MMU"));
	kt_index_free(idx);
	kt_config_free(cfg);
}

static void test_default_config_from_kconfig(void **state)
{
	struct kt_index *idx = build(NULL);

	/* without a configuration: arch symbols on, prompted options on, hidden ones only when selected */
	assert_string_equal(kt_index_option_value(idx, "X86_64"), "y");
	assert_null(kt_index_option_value(idx, "X86_32"));
	assert_string_equal(kt_index_option_value(idx, "ARCH_HAS_PKEYS"), "y"); /* select ... if X86_64 */
	assert_null(kt_index_option_value(idx, "CLONE_BACKWARDS"));		/* select ... if X86_32 */
	assert_int_equal(sc(idx, "clone")->line, 19);
	assert_int_equal(sc(idx, "pkey_alloc")->status, KT_RESOLVED);
	kt_index_free(idx);
}

static void test_directories_and_composites(void **state)
{
	struct kt_index *idx = build(NULL);
	const struct kt_syscall *s = sc(idx, "futex");

	assert_string_equal(s->file, "kernel/futex/syscalls.c");
	const struct kt_cond *c = cond(s, KT_COND_MAKEFILE_DIR, "FUTEX");
	assert_non_null(c);
	assert_string_equal(c->where, "kernel/Makefile:4");
	assert_string_equal(s->sections[0].section->name, "FUTEX SUBSYSTEM");
	assert_int_equal(s->sections[0].depth, 3);

	s = sc(idx, "socket");
	c = cond(s, KT_COND_MAKEFILE_DIR, "NET");
	assert_non_null(c);
	assert_string_equal(c->where, "Kbuild:8"); /* top-level Kbuild, not Makefile */
	s = sc(idx, "ioprio_set");
	assert_non_null(cond(s, KT_COND_MAKEFILE_DIR, "BLOCK"));

	s = sc(idx, "landlock_create_ruleset");
	assert_string_equal(s->object, "security/landlock/landlock.o");
	assert_non_null(cond(s, KT_COND_MAKEFILE_OBJ, "SECURITY_LANDLOCK"));
	assert_non_null(cond(s, KT_COND_MAKEFILE_DIR, "SECURITY_LANDLOCK"));
	assert_string_equal(s->sections[0].section->name, "LANDLOCK SECURITY MODULE"); /* N: */
	assert_int_equal(s->sections[0].depth, 0);

	s = sc(idx, "arch_prctl"); /* process_$(BITS).o */
	assert_string_equal(s->object, "arch/x86/kernel/process_64.o");
	assert_string_equal(s->makefile, "arch/x86/kernel/Makefile");
	assert_true(s->complete);

	s = sc(idx, "madvise"); /* tab-indented line inside ifdef CONFIG_MMU */
	assert_non_null(cond(s, KT_COND_MAKEFILE_OBJ, "ADVISE_SYSCALLS"));
	c = cond(s, KT_COND_MAKEFILE_IF, "MMU");
	assert_non_null(c);
	assert_false(c->negated);

	s = sc(idx, "mprotect"); /* a continuation line of mmu-$(CONFIG_MMU) := */
	assert_non_null(cond(s, KT_COND_MAKEFILE_VAR, "MMU"));
	assert_string_equal(s->makefile, "mm/Makefile");
	assert_int_equal(s->makefile_line, 5);
	assert_string_equal(s->sections[0].section->name, "MEMORY MANAGEMENT");
	kt_index_free(idx);
}

static void test_include_and_source_guards(void **state)
{
	struct kt_index *idx = build(NULL);
	const struct kt_syscall *s = sc(idx, "membarrier");

	assert_string_equal(s->file, "kernel/sched/membarrier.c");
	assert_string_equal(s->included_by, "kernel/sched/build_utility.c");
	assert_string_equal(s->object, "kernel/sched/build_utility.o");
	const struct kt_cond *c = cond(s, KT_COND_INCLUDE, "MEMBARRIER");
	assert_non_null(c);
	assert_string_equal(c->where, "kernel/sched/build_utility.c:3");
	assert_true(s->complete);

	s = sc(idx, "setuid");
	c = cond(s, KT_COND_SOURCE_IF, "MULTIUSER");
	assert_non_null(c);
	assert_string_equal(c->where, "kernel/sys.c:1");
	assert_null(cond(sc(idx, "uname"), KT_COND_SOURCE_IF, "MULTIUSER")); /* after the #endif */

	s = sc(idx, "clone");
	assert_non_null(cond(s, KT_COND_ARCH_WANT, "__ARCH_WANT_SYS_CLONE"));
	c = cond(s, KT_COND_SOURCE_IF, "CLONE_BACKWARDS3");
	assert_non_null(c);
	assert_true(c->negated);
	assert_int_equal(s->noptions, 3); /* CLONE_BACKWARDS{,2,3}; __ARCH_WANT_ is not an option */
	kt_index_free(idx);
}

static void test_hidden_and_reverse_select(void **state)
{
	struct kt_index *idx = build(NULL);
	const struct kt_option *o = kt_index_option(idx, "QUOTACTL");

	assert_non_null(o);
	assert_null(o->prompt);
	assert_string_equal(o->file, "fs/quota/Kconfig");
	assert_int_equal(o->nselected_by, 1);
	assert_string_equal(o->selected_by[0], "QUOTA");
	o = kt_index_option(idx, "ARCH_HAS_PKEYS");
	assert_int_equal(o->nselected_by, 1);
	assert_string_equal(o->selected_by[0], "X86 if X86_64");
	/* the architecture's MMU, not arch/arm's */
	o = kt_index_option(idx, "MMU");
	assert_string_equal(o->file, "arch/x86/Kconfig");
	assert_null(o->prompt);
	assert_null(kt_index_option(idx, "MODULES")); /* only in scripts/kconfig/tests */
	o = kt_index_option(idx, "NET_ONLY_THING");
	assert_string_equal(o->depends, "NET");
	o = kt_index_option(idx, "NET_SUB"); /* rsource inside `if NET`: the if carries into the sourced file */
	assert_non_null(o);
	assert_string_equal(o->file, "net/sub/Kconfig");
	assert_string_equal(o->depends, "NET && FOO");
	o = kt_index_option(idx, "FUTEX");
	assert_string_equal(o->depends, "!(SPARC32 && SMP)");
	/* optional marks */
	assert_true(sc(idx, "quotactl")->optional);
	assert_false(sc(idx, "socket")->optional);
	kt_index_free(idx);
}

static void test_maintainers_exclude(void **state)
{
	struct kt_index *idx = build(NULL);
	struct kt_section_match *m;
	size_t n = kt_index_file_sections(idx, "mm/nommu.c", &m);

	assert_int_equal(n, 1);
	assert_string_equal(m[0].section->name, "THE REST");
	assert_string_equal(m[0].section->status, "Buried alive in reporters");
	assert_int_equal(m[0].section->nmaintainers, 1);
	free(m);
	n = kt_index_file_sections(idx, "mm/mmap.c", &m);
	assert_int_equal(n, 2);
	assert_string_equal(m[0].section->name, "MEMORY MANAGEMENT");
	assert_int_equal(m[0].depth, 1);
	free(m);
	/* the fs/ star pattern does not reach into fs/quota/ (same slash count rule), fs/ would */
	n = kt_index_file_sections(idx, "fs/quota/quota.c", &m);
	assert_int_equal(n, 1);
	free(m);
	kt_index_free(idx);
}

static void test_broken_tree(void **state)
{
	char *dir = fixture("ktree-broken"), *err = NULL;
	/* two links back to a parent in a scanned directory: a walk that followed them would never end */
	char *l1, *l2;
	assert_true(asprintf(&l1, "%s/kernel/futex/loop1", dir) > 0);
	assert_true(asprintf(&l2, "%s/kernel/futex/loop2", dir) > 0);
	unlink(l1);
	unlink(l2);
	assert_int_equal(symlink("..", l1), 0);
	assert_int_equal(symlink("../..", l2), 0);
	struct kt_index *idx = kt_index_build(dir, KF_ABI_X86_64, NULL, KT_BUILD_NO_CACHE, &err);
	unlink(l1);
	unlink(l2);
	free(l1);
	free(l2);

	if (!idx)
		fail_msg("broken tree: %s", err);
	const struct kt_syscall *s = kt_index_syscall(idx, "eventfd2");
	assert_non_null(s);
	assert_string_equal(s->file, "fs/eventfd.c");
	assert_false(s->complete);
	assert_non_null(strstr(s->unresolved, "CONFIG_EVENTFD2 has no Kconfig entry"));
	s = kt_index_syscall(idx, "futex"); /* kernel/futex/ has no Makefile at all */
	assert_false(s->complete);
	assert_non_null(strstr(s->unresolved, "no Kbuild or Makefile"));
	s = kt_index_syscall(idx, "socket"); /* net/Makefile is a directory: unreadable */
	assert_false(s->complete);
	kt_index_free(idx);
	free(dir);
}

/* i386: a native 32-bit kernel without a configuration; a 64-bit one enters through the compat entry points. */
static void test_i386(void **state)
{
	char *dir = fixture("ktree-basic"), *err = NULL;
	struct kt_index *idx = kt_index_build(dir, KF_ABI_I386, NULL, KT_BUILD_NO_CACHE, &err);

	if (!idx)
		fail_msg("index of %s: %s", dir, err);
	const struct kt_syscall *s = sc(idx, "mmap");
	assert_string_equal(s->entry, "sys_old_mmap");
	assert_string_equal(s->file, "mm/mmap.c");
	assert_non_null(cond(s, KT_COND_ARCH_WANT, "__ARCH_WANT_SYS_OLD_MMAP"));
	assert_int_equal(s->status, KT_RESOLVED);
	s = sc(idx, "fanotify_mark");
	assert_string_equal(s->file, "fs/fanotify.c");
	assert_int_equal(s->status, KT_RESOLVED);
	assert_true(cond(s, KT_COND_SOURCE_IF, "COMPAT")->negated);
	kt_index_free(idx);

	struct kt_config *cfg = kt_config_new();
	static const char *const on[] = {"X86", "X86_64", "64BIT", "MMU", "IA32_EMULATION", "COMPAT"};
	for (size_t i = 0; i < sizeof(on) / sizeof(on[0]); i++)
		kt_config_set(cfg, on[i], "y");
	idx = kt_index_build(dir, KF_ABI_I386, cfg, KT_BUILD_NO_CACHE, &err);
	s = sc(idx, "mmap");
	assert_string_equal(s->entry, "compat_sys_ia32_mmap");
	assert_string_equal(s->file, "arch/x86/kernel/sys_ia32.c");
	assert_string_equal(s->impl_file, "mm/mmap.c");
	assert_int_equal(s->status, KT_RESOLVED);
	/* listed twice (X86_32, IA32_EMULATION): the line whose condition holds */
	assert_int_equal(s->makefile_line, 5); /* not line 4, obj-$(CONFIG_X86_32) */
	assert_non_null(cond(s, KT_COND_MAKEFILE_OBJ, "IA32_EMULATION"));
	s = sc(idx, "fanotify_mark");
	assert_string_equal(s->entry, "compat_sys_fanotify_mark");
	assert_false(cond(s, KT_COND_SOURCE_IF, "COMPAT")->negated);
	assert_int_equal(s->status, KT_RESOLVED);
	assert_string_equal(sc(idx, "arch_prctl")->status == KT_NOT_IN_TREE ? "newer" : "?", "newer");
	kt_index_free(idx);
	kt_config_free(cfg);
	free(dir);
}

/* A second build comes from the cache, gives the same answers, and a changed file invalidates it. */
static void test_cache(void **state)
{
	char tmpl[] = "/tmp/kt-cache-XXXXXX";
	char *top = mkdtemp(tmpl), *cmd, *err = NULL, *src = fixture("ktree-basic"), *tree;

	assert_non_null(top);
	assert_true(asprintf(&tree, "%s/tree", top) > 0);
	assert_true(asprintf(&cmd, "cp -R '%s' '%s'", src, tree) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	setenv("XDG_CACHE_HOME", top, 1);
	char *dir = kt_cache_dir();
	assert_non_null(strstr(dir, top));
	free(dir);

	struct kt_index *a = kt_index_build(tree, KF_ABI_X86_64, NULL, 0, &err);
	assert_non_null(a);
	assert_false(kt_index_from_cache(a));
	struct kt_index *b = kt_index_build(tree, KF_ABI_X86_64, NULL, 0, &err);
	assert_non_null(b);
	assert_true(kt_index_from_cache(b));
	for (size_t i = 0; i < kt_index_nsyscalls(a); i++) {
		const struct kt_syscall *x = kt_index_syscall_at(a, i), *y = kt_index_syscall_at(b, i);
		assert_int_equal(x->status, y->status);
		assert_int_equal(x->nconds, y->nconds);
		assert_int_equal(x->complete, y->complete);
		if (x->file)
			assert_string_equal(x->file, y->file);
	}
	assert_string_equal(kt_index_option(b, "EVENTFD")->help, kt_index_option(a, "EVENTFD")->help);
	assert_string_equal(kt_index_option(b, "QUOTACTL")->selected_by[0], "QUOTA");
	assert_true(kt_index_syscall(b, "eventfd2")->optional);
	kt_index_free(a);
	kt_index_free(b);
	/* NO_CACHE never reads it */
	b = kt_index_build(tree, KF_ABI_X86_64, NULL, KT_BUILD_NO_CACHE, &err);
	assert_false(kt_index_from_cache(b));
	kt_index_free(b);

	/* a new definition in an existing file: size and mtime change */
	char *f;
	assert_true(asprintf(&f, "%s/fs/eventfd.c", tree) > 0);
	FILE *fp = fopen(f, "a");
	assert_non_null(fp);
	fputs("SYSCALL_DEFINE1(eventfd, unsigned int, count)\n{\n}\n", fp);
	fclose(fp);
	free(f);
	b = kt_index_build(tree, KF_ABI_X86_64, NULL, 0, &err);
	assert_false(kt_index_from_cache(b));
	assert_string_equal(kt_index_syscall(b, "eventfd2")->file, "fs/eventfd.c");
	kt_index_free(b);

	/* a corrupt cache is rebuilt, not an error */
	assert_true(
	    asprintf(&cmd,
		     "for f in '%s'/kfootprint/*.cache; do head -c 100 \"$f\" > \"$f.x\" && mv \"$f.x\" \"$f\"; done",
		     top) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	b = kt_index_build(tree, KF_ABI_X86_64, NULL, 0, &err);
	assert_non_null(b);
	assert_false(kt_index_from_cache(b));
	kt_index_free(b);

	assert_true(asprintf(&cmd, "rm -rf '%s'", top) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(tree);
	free(src);
	unsetenv("XDG_CACHE_HOME");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_version_and_errors),
	    cmocka_unit_test(test_plain_object),
	    cmocka_unit_test(test_renamed_and_missing),
	    cmocka_unit_test(test_wrapper),
	    cmocka_unit_test(test_alternatives_by_config),
	    cmocka_unit_test(test_default_config_from_kconfig),
	    cmocka_unit_test(test_directories_and_composites),
	    cmocka_unit_test(test_include_and_source_guards),
	    cmocka_unit_test(test_hidden_and_reverse_select),
	    cmocka_unit_test(test_maintainers_exclude),
	    cmocka_unit_test(test_broken_tree),
	    cmocka_unit_test(test_i386),
	    cmocka_unit_test(test_cache),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
