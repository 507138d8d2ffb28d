// SPDX-License-Identifier: GPL-2.0
/*
 * The compiled inventory on tests/fixtures/kinv-tree (one Makefile per hard case of Kbuild evaluation, with
 * tests/fixtures/kinv.config), and the SLOC rule on texts made for its corner cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "inventory/inv_internal.h"
#include "inventory/inventory.h"
#include "ktree/ktree.h"

static char *fixture(const char *name)
{
	const char *top = getenv("KF_TOP");
	char *p;

	if (asprintf(&p, "%s/tests/fixtures/%s", top ? top : ".", name) < 0)
		abort();
	return p;
}

static struct kt_compiled *eval(void)
{
	char *tree = fixture("kinv-tree"), *cfgp = fixture("kinv.config"), *err = NULL;
	struct kt_config *cfg = kt_config_load_file(cfgp, &err);

	if (!cfg)
		fail_msg("%s: %s", cfgp, err);
	struct kt_compiled *c = kt_compiled_eval(tree, "x86", cfg, &err);
	if (!c)
		fail_msg("%s: %s", tree, err);
	kt_config_free(cfg);
	free(tree);
	free(cfgp);
	return c;
}

static const struct kt_cfile *find(const struct kt_compiled *c, const char *path)
{
	for (size_t i = 0; i < c->nfiles; i++)
		if (!strcmp(c->files[i].path, path))
			return &c->files[i];
	return NULL;
}

static void built(const struct kt_compiled *c, const char *path, enum kt_built b)
{
	const struct kt_cfile *f = find(c, path);

	if (!f)
		fail_msg("%s is not in the compiled list", path);
	if (f->built != b)
		fail_msg("%s is %s, not %s", path, kt_built_name(f->built), kt_built_name(b));
}

static void absent(const struct kt_compiled *c, const char *path)
{
	if (find(c, path))
		fail_msg("%s is in the compiled list, and should not be", path);
}

static bool has_option(const struct kt_cfile *f, const char *o)
{
	for (size_t i = 0; i < f->noptions; i++)
		if (!strcmp(f->options[i], o))
			return true;
	return false;
}

static void test_kbuild_cases(void **state)
{
	struct kt_compiled *c = eval();

	/* plain obj-y, obj-$(CONFIG_X)=y, a disabled one */
	built(c, "kernel/fork.c", KT_BUILT_IN);
	built(c, "fs/eventfd.c", KT_BUILT_IN);
	absent(c, "kernel/module.c");
	/* $(BITS) and an assembler file */
	built(c, "arch/x86/kernel/head_64.S", KT_BUILT_IN);
	assert_true(find(c, "arch/x86/kernel/head_64.S")->assembler);
	built(c, "arch/x86/kernel/process_64.c", KT_BUILT_IN);
	absent(c, "arch/x86/kernel/process_32.c");
	/* ARCH_LIB and ARCH_DRIVERS of the arch Makefile; lib-y; obj-y wins over lib-y */
	built(c, "arch/x86/lib/delay.c", KT_BUILT_LIB);
	built(c, "arch/x86/lib/misc.c", KT_BUILT_IN);
	built(c, "lib/string.c", KT_BUILT_LIB);
	built(c, "arch/x86/pci/pci-common.c", KT_BUILT_IN);
	/* a variable list chosen by a later := */
	built(c, "mm/mmap.c", KT_BUILT_IN);
	built(c, "mm/mprotect.c", KT_BUILT_IN);
	absent(c, "mm/nommu.c");
	assert_true(has_option(find(c, "mm/mmap.c"), "MMU"));
	/* a composite named export...: not an export line */
	built(c, "fs/exportfs/expfs.c", KT_BUILT_IN);
	assert_string_equal(find(c, "fs/exportfs/expfs.c")->object, "fs/exportfs/exportfs.o");
	/* a module directory: its composite's parts (foo-$(CONFIG_X) too) are modules, its obj-y is not built */
	built(c, "fs/fat/cache.c", KT_BUILT_MODULE);
	built(c, "fs/fat/utf8.c", KT_BUILT_MODULE);
	absent(c, "fs/fat/fat-builtin-helper.c");
	/* a deferred reference */
	built(c, "drivers/xen/xen-acpi-pad.c", KT_BUILT_IN);
	/* $(subst m,y,$(CONFIG_HYPERV)) with HYPERV=m */
	built(c, "drivers/hv/hv_common.c", KT_BUILT_IN);
	built(c, "drivers/hv/hv_vmbus.c", KT_BUILT_MODULE);
	/* ifeq ($(CONFIG_X),y) with X=m: not taken */
	absent(c, "drivers/md/md-autodetect.c");
	absent(c, "sound/last.c");
	built(c, "drivers/md/md.c", KT_BUILT_MODULE);
	/* an lhs with a Makefile variable, a substitution reference to a generated source */
	built(c, "arch/x86/entry/vdso/vdso64-setup.c", KT_BUILT_IN);
	built(c, "arch/x86/entry/vdso/vdso-image-64.c", KT_BUILT_IN);
	assert_true(find(c, "arch/x86/entry/vdso/vdso-image-64.c")->generated);
	/* options on the way down: NET then PACKET */
	const struct kt_cfile *p = find(c, "net/packet/af_packet.c");
	assert_non_null(p);
	assert_true(has_option(p, "NET") && has_option(p, "PACKET"));
	assert_int_equal(c->nmissing, 0);
	kt_compiled_free(c);
}

static void test_not_a_tree(void **state)
{
	char *err = NULL, *dir = fixture("");
	struct kt_config *cfg = kt_config_new();

	assert_null(kt_compiled_eval(dir, "x86", cfg, &err));
	assert_non_null(strstr(err, "not a kernel source tree"));
	assert_null(strchr(err, '\n'));
	free(err);
	free(dir);
	kt_config_free(cfg);
}

static long sloc(const char *s)
{
	return inv_sloc(s, strlen(s));
}

static void test_sloc(void **state)
{
	assert_int_equal(sloc(""), 0);
	assert_int_equal(sloc("int a;"), 1); /* no final newline */
	assert_int_equal(sloc("\n\n   \t\n"), 0);
	assert_int_equal(sloc("/* a\n * b\n */\n"), 0);
	assert_int_equal(sloc("int a; /* comment */\n"), 1);
	assert_int_equal(sloc("/* comment */ int a;\n"), 1);
	assert_int_equal(sloc("// only\n"), 0);
	assert_int_equal(sloc("int a; // trailing\n"), 1);
	assert_int_equal(sloc("char *s = \"/* not a comment\";\nint b;\n"), 2);
	assert_int_equal(sloc("char c = '\"'; /* x */\nint d;\n"), 2);
	assert_int_equal(sloc("a /* open\n still comment */ b\n"), 2);
	assert_int_equal(sloc("#include <x.h>\n#define A 1\n"), 2);
	assert_int_equal(sloc("x = \"a\\\"/*b\";\n"), 1); /* an escaped quote does not end the string */
}

static bool in(const struct inventory *inv, size_t *v, size_t n, const char *path)
{
	bool hit = false;

	for (size_t i = 0; i < n; i++)
		hit |= !strcmp(inv->files[v[i]].path, path);
	free(v);
	return hit;
}

static bool listed(const struct inventory *inv, size_t *(*list)(const struct inventory *, size_t *), const char *path)
{
	size_t n;
	size_t *v = list(inv, &n);

	return in(inv, v, n, path);
}

/*
 * The review lists on the fixture: socket.c reached under NET; EVENTFD reached by the closure only; PACKET not
 * reached. Each unreached file is in exactly one list: af_packet.c a candidate under PACKET, eventfd.c gated by
 * a reached option, kernel/fork.c always built (no option on its chain).
 */
static void test_review_lists(void **state)
{
	char *tree = fixture("kinv-tree"), *cfg = fixture("kinv.config");
	struct inv_sources src = {.kernel_src = tree, .config = cfg, .no_cache = true};
	struct inventory *inv = inv_build(&src);
	size_t n, nc, na, ng;

	assert_non_null(inv);
	inv__observe(inv, INV_SYSCALL, "net/socket.c", (const char *const[]){"NET"}, 1, 3, "socket");
	assert_true(inv__closure_opt(inv, "EVENTFD", "SOME_FS"));
	assert_false(inv__closure_opt(inv, "NET", "SOME_FS")); /* reached already: not the closure's */
	inv_finish(inv);
	assert_true(inv->chains);
	size_t *c = inv_candidate_opts(inv, &n);
	bool packet = false, eventfd = false, net = false;
	for (size_t i = 0; i < n; i++) {
		packet |= !strcmp(inv->opts[c[i]].name, "PACKET");
		eventfd |= !strcmp(inv->opts[c[i]].name, "EVENTFD");
		net |= !strcmp(inv->opts[c[i]].name, "NET");
		if (!strcmp(inv->opts[c[i]].name, "PACKET")) {
			size_t *f = inv_option_files(inv, c[i], &nc);
			assert_true(in(inv, f, nc, "net/packet/af_packet.c"));
		}
		/* by the code they gate, largest first */
		if (i)
			assert_true(inv->opts[c[i - 1]].sloc >= inv->opts[c[i]].sloc);
	}
	free(c);
	assert_true(packet && !eventfd && !net);
	assert_true(listed(inv, inv_candidate_files, "net/packet/af_packet.c"));
	assert_false(listed(inv, inv_candidate_files, "fs/eventfd.c"));
	assert_false(listed(inv, inv_candidate_files, "kernel/fork.c"));
	assert_true(listed(inv, inv_gated_files, "fs/eventfd.c"));
	assert_true(listed(inv, inv_always_files, "kernel/fork.c"));
	assert_false(listed(inv, inv_always_files, "net/socket.c")); /* reached */
	free(inv_candidate_files(inv, &nc));
	free(inv_always_files(inv, &na));
	free(inv_gated_files(inv, &ng));
	assert_int_equal(nc + na + ng + 1, inv->nfiles); /* socket.c, the one reached */
	for (size_t i = 0; i < inv->nopts; i++)
		if (!strcmp(inv->opts[i].name, "EVENTFD"))
			assert_string_equal(inv->opts[i].via, "SOME_FS");
	inv_free(inv);
	free(tree);
	free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kbuild_cases),
	    cmocka_unit_test(test_not_a_tree),
	    cmocka_unit_test(test_sloc),
	    cmocka_unit_test(test_review_lists),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
