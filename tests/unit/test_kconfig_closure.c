// SPDX-License-Identifier: GPL-2.0
/* The closure of needed options over Kconfig (kt_closure.c) on small Kconfig texts of the kernel's own shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ktree/kt_closure_int.h"
#include "ktree/kt_kexpr_tree.h"

/* Shapes taken from a 6.1 tree: EXT4_FS on BLOCK, a menu's depends, a hidden option only a select turns on,
 * a choice with a default, a prompt with an `if`, an option needed off, and arch macros. */
static const char *const kconfig_text =
    "config 64BIT\n"
    "\tbool \"64-bit kernel\" if \"$(ARCH)\" = \"x86\"\n"
    "\tdefault \"$(ARCH)\" != \"i386\"\n"
    "config X86_32\n\tdef_bool y\n\tdepends on !64BIT\n"
    "config X86_64\n\tdef_bool y\n\tdepends on 64BIT\n"
    "config EXPERT\n\tbool \"Configure standard kernel features (expert users)\"\n\tselect DEBUG_KERNEL\n"
    "config DEBUG_KERNEL\n\tbool \"Kernel debugging\"\n"
    "config BLOCK\n\tbool \"Enable the block layer\"\n\tdepends on ONLY_FOR_EXPERTS\n"
    "config ONLY_FOR_EXPERTS\n\tbool \"an expert's choice\" if EXPERT\n"
    "config BASE_FEATURE\n\tbool \"on unless an expert says no\" if EXPERT\n\tdefault y\n"
    "menu \"File systems\"\n"
    "config EXT4_FS\n\ttristate \"The Extended 4 (ext4) filesystem\"\n\tdepends on BLOCK\n\tselect JBD2\n"
    "\tselect CRC16\n"
    "config JBD2\n\ttristate\n"
    "menuconfig MISC_FILESYSTEMS\n\tbool \"Miscellaneous filesystems\"\n"
    "if MISC_FILESYSTEMS\n"
    "config ADFS_FS\n\ttristate \"ADFS file system support\"\n\tdepends on BLOCK\n"
    "endif\n"
    "endmenu\n"
    "config CRC16\n\ttristate \"CRC16 functions\"\n"
    "config NET\n\tbool \"Networking support\"\n"
    "config INET\n\tbool \"TCP/IP networking\"\n\tdepends on NET\n"
    "config HAVE_SOMETHING\n\tbool\n"
    "config SOMETHING_HELPER\n\tbool\n\tdefault y if HAVE_SOMETHING && NET\n"
    "config FEATURE_A\n\tbool \"feature a\"\n\tselect HAVE_SOMETHING\n\tdepends on INET || X86_32\n"
    "config LEGACY\n\tbool \"legacy\"\n\tdepends on X86_32 && !64BIT\n"
    "config ODD_THING\n\tbool \"odd\"\n\tdepends on !NET\n"
    "choice\n\tprompt \"Timer frequency\"\n\tdefault HZ_250\n"
    "config HZ_100\n\tbool \"100 HZ\"\n"
    "config HZ_250\n\tbool \"250 HZ\"\n"
    "config HZ_1000\n\tbool \"1000 HZ\"\n\tdepends on NET\n"
    "endchoice\n"
    "config USES_HZ_1000\n\tbool \"uses\"\n\tdepends on HZ_1000\n"
    "config MACRO_GATED\n\tbool \"gated by a toolchain test\"\n\tdepends on $(cc-option,-mfentry)\n";

static struct kt_kconfig kc;

static int setup(void **state)
{
	memset(&kc, 0, sizeof(kc));
	kt_kconfig_parse(&kc, "Kconfig", kconfig_text);
	kt_kconfig_finish(&kc);
	return 0;
}

static int teardown(void **state)
{
	kt_kconfig_release(&kc);
	return 0;
}

static const struct kt_need *need(const struct kt_closure *c, const char *name)
{
	for (size_t i = 0; i < c->nneeds; i++)
		if (!strcmp(c->needs[i].option, name))
			return &c->needs[i];
	return NULL;
}

static const struct kt_unmet *unmet_of(const struct kt_closure *c, const char *name)
{
	for (size_t i = 0; i < c->nunmet; i++)
		if (!strcmp(c->unmet[i].option, name))
			return &c->unmet[i];
	return NULL;
}

static int solve(const struct kt_want *w, size_t n, struct kt_closure *c)
{
	return kt_closure_solve(&kc, "x86", NULL, w, n, c);
}

/* Two closures agree: the same needs (option, value, how, because, final) in the same order, the same unmet. */
static void assert_same(const struct kt_closure *a, const struct kt_closure *b)
{
	assert_int_equal(a->nneeds, b->nneeds);
	for (size_t i = 0; i < a->nneeds; i++) {
		assert_string_equal(a->needs[i].option, b->needs[i].option);
		assert_int_equal(a->needs[i].value, b->needs[i].value);
		assert_int_equal(a->needs[i].final, b->needs[i].final);
		assert_int_equal(a->needs[i].how, b->needs[i].how);
		assert_int_equal(a->needs[i].hidden, b->needs[i].hidden);
		assert_string_equal(a->needs[i].because ? a->needs[i].because : "",
				    b->needs[i].because ? b->needs[i].because : "");
	}
	assert_int_equal(a->nunmet, b->nunmet);
	for (size_t i = 0; i < a->nunmet; i++)
		assert_string_equal(a->unmet[i].option, b->unmet[i].option);
}

static void copy_fact(void *ctx, const struct kt_kfact *k)
{
	kt_kfacts_add(ctx, k);
}

/*
 * The facts a database carries (kt_kfacts.c): only what the closure of the roots can read, and over them the
 * closure says what it says over the whole Kconfig, copied fact by fact as a database's loader does.
 */
static void test_kfacts(void **state)
{
	struct kt_index idx = {.abi = KF_ABI_X86_64, .kc = kc};
	const char *roots[] = {"EXT4_FS", "FEATURE_A", "USES_HZ_1000", "LEGACY", "ODD_THING"};
	struct kt_kfacts *f = kt_kfacts_from_index(&idx, roots, 5), *g = kt_kfacts_new("x86");
	const struct kt_want sets[][4] = {{{"64BIT", 'y'}, {"EXT4_FS", 'y'}},
					  {{"FEATURE_A", 'y'}, {"USES_HZ_1000", 'y'}},
					  {{"LEGACY", 'y'}, {"EXT4_FS", 'y'}},
					  {{"64BIT", 'y'}, {"ODD_THING", 'n'}, {"INET", 'y'}}};
	const size_t nsets[] = {2, 2, 2, 3};

	/* reachable: BLOCK's own condition, a choice with its members; not a symbol nothing asked for needs */
	assert_true(kt_kfacts_has(f, "ONLY_FOR_EXPERTS"));
	assert_true(kt_kfacts_has(f, "EXPERT"));
	assert_true(kt_kfacts_has(f, "HZ_250"));
	assert_true(kt_kfacts_has(f, "X86_64")); /* the ABI's tree_on */
	assert_false(kt_kfacts_has(f, "ADFS_FS"));
	assert_false(kt_kfacts_has(f, "CRC16"));
	kt_kfacts_each(f, copy_fact, g);
	assert_int_equal(kt_kfacts_count(g), kt_kfacts_count(f));
	for (size_t i = 0; i < sizeof(nsets) / sizeof(nsets[0]); i++) {
		struct kt_closure whole, facts;
		int a = solve(sets[i], nsets[i], &whole), b = kt_kfacts_closure(g, sets[i], nsets[i], &facts);
		assert_int_equal(a, b);
		assert_same(&whole, &facts);
		kt_closure_release(&whole);
		kt_closure_release(&facts);
	}
	kt_kfacts_free(f);
	kt_kfacts_free(g);
}

static void test_depends_and_visibility(void **state)
{
	/* EXT4_FS needs BLOCK, which needs ONLY_FOR_EXPERTS, whose prompt needs EXPERT */
	struct kt_want w[] = {{"64BIT", 'y'}, {"EXT4_FS", 'y'}};
	struct kt_closure c;
	assert_int_equal(solve(w, 2, &c), 0);
	assert_string_equal(c.needs[0].option, "64BIT");
	assert_string_equal(c.needs[1].option, "EXT4_FS");
	const struct kt_need *b = need(&c, "BLOCK");
	assert_non_null(b);
	assert_int_equal(b->how, KT_NEED_DEPENDS);
	assert_string_equal(b->because, "EXT4_FS");
	const struct kt_need *e = need(&c, "EXPERT");
	assert_non_null(e);
	assert_int_equal(e->how, KT_NEED_VISIBLE);
	assert_string_equal(e->because, "ONLY_FOR_EXPERTS");
	assert_int_equal(need(&c, "EXT4_FS")->final, 'y');
	/* JBD2 and CRC16 come by select: nothing to assign */
	assert_null(need(&c, "JBD2"));
	assert_null(need(&c, "CRC16"));
	kt_closure_release(&c);
	/* a prompt behind `if EXPERT` with default y: off EXPERT it takes its default, so nothing is needed */
	struct kt_want bf[] = {{"BASE_FEATURE", 'y'}};
	assert_int_equal(solve(bf, 1, &c), 0);
	assert_int_equal(c.nneeds, 1);
	assert_null(need(&c, "EXPERT"));
	kt_closure_release(&c);
	/* ... but EXPERT asked too makes that prompt visible, and allnoconfig would answer no: it is pinned */
	struct kt_want pin[] = {{"BASE_FEATURE", 'y'}, {"EXPERT", 'y'}};
	assert_int_equal(solve(pin, 2, &c), 0);
	assert_false(need(&c, "BASE_FEATURE")->hidden);
	assert_int_equal(need(&c, "BASE_FEATURE")->final, 'y');
	kt_closure_release(&c);
}

static void test_menu_if_block(void **state)
{
	struct kt_want w[] = {{"ADFS_FS", 'y'}};
	struct kt_closure c;
	assert_int_equal(solve(w, 1, &c), 0);
	assert_non_null(need(&c, "MISC_FILESYSTEMS"));
	assert_non_null(need(&c, "BLOCK"));
	kt_closure_release(&c);
}

static void test_hidden_by_default_and_select(void **state)
{
	/* SOMETHING_HELPER is hidden: its default needs HAVE_SOMETHING (hidden, only FEATURE_A selects it) and NET;
	 * FEATURE_A needs INET || X86_32: INET first, which needs NET */
	struct kt_want w[] = {{"64BIT", 'y'}, {"SOMETHING_HELPER", 'y'}};
	struct kt_closure c;
	assert_int_equal(solve(w, 2, &c), 0);
	const struct kt_need *h = need(&c, "SOMETHING_HELPER");
	assert_true(h->hidden);
	assert_int_equal(h->final, 'y');
	const struct kt_need *f = need(&c, "FEATURE_A");
	assert_non_null(f);
	assert_int_equal(f->how, KT_NEED_SELECTS);
	assert_string_equal(f->because, "HAVE_SOMETHING");
	assert_non_null(need(&c, "INET"));
	assert_non_null(need(&c, "NET"));
	kt_closure_release(&c);
}

static void test_or_takes_the_alternative_that_holds(void **state)
{
	/* without 64BIT, X86_32 holds and FEATURE_A's `INET || X86_32` needs nothing */
	struct kt_want w[] = {{"FEATURE_A", 'y'}};
	struct kt_closure c;
	assert_int_equal(solve(w, 1, &c), 0);
	assert_null(need(&c, "INET"));
	assert_null(need(&c, "NET"));
	kt_closure_release(&c);
}

static void test_unmet_reported(void **state)
{
	/* LEGACY needs !64BIT, which 64BIT asked first rules out; the rest still holds; NOPE is not in the tree */
	struct kt_want w[] = {{"64BIT", 'y'}, {"LEGACY", 'y'}, {"NOPE", 'y'}, {"INET", 'y'}};
	struct kt_closure c;
	assert_int_equal(solve(w, 4, &c), -1);
	assert_int_equal(c.nunmet, 2);
	const struct kt_unmet *u = unmet_of(&c, "LEGACY");
	assert_non_null(u);
	assert_non_null(strstr(u->why, "64BIT"));
	assert_non_null(unmet_of(&c, "NOPE"));
	assert_null(need(&c, "LEGACY"));
	assert_non_null(need(&c, "INET"));
	assert_non_null(need(&c, "NET"));
	kt_closure_release(&c);
}

static void test_needed_off(void **state)
{
	struct kt_want w[] = {{"ODD_THING", 'y'}, {"NET", 'y'}};
	struct kt_closure c;
	assert_int_equal(solve(w, 2, &c), -1);
	const struct kt_need *o = need(&c, "NET");
	assert_int_equal(o->value, 'n'); /* ODD_THING needs NET off, so NET cannot be on: it is unmet */
	assert_string_equal(o->because, "ODD_THING");
	assert_non_null(strstr(unmet_of(&c, "NET")->why, "ODD_THING"));
	assert_int_equal(need(&c, "ODD_THING")->final, 'y');
	kt_closure_release(&c);

	struct kt_want off[] = {{"ODD_THING", 'n'}};
	assert_int_equal(solve(off, 1, &c), 0);
	assert_int_equal(need(&c, "ODD_THING")->value, 'n');
	kt_closure_release(&c);
}

static void test_choice(void **state)
{
	/* a choice member: assigning it picks it; its depends still need what they need */
	struct kt_want w[] = {{"USES_HZ_1000", 'y'}};
	struct kt_closure c;
	assert_int_equal(solve(w, 1, &c), 0);
	assert_non_null(need(&c, "HZ_1000"));
	assert_non_null(need(&c, "NET"));
	assert_int_equal(need(&c, "HZ_1000")->final, 'y');
	kt_closure_release(&c);
	/* the default member is on already: nothing to assign */
	struct kt_want d[] = {{"HZ_250", 'y'}};
	assert_int_equal(solve(d, 1, &c), 0);
	assert_int_equal(c.nneeds, 1);
	kt_closure_release(&c);
}

static void test_macros(void **state)
{
	struct kt_want w[] = {{"MACRO_GATED", 'y'}};
	struct kt_closure c;
	assert_int_equal(solve(w, 1, &c), 0);
	assert_int_equal(need(&c, "MACRO_GATED")->final, 'y');
	kt_closure_release(&c);
	/* with $(ARCH) "i386", 64BIT has no prompt and defaults off */
	struct kt_want b[] = {{"64BIT", 'y'}};
	assert_int_equal(kt_closure_solve(&kc, "i386", NULL, b, 1, &c), -1);
	kt_closure_release(&c);
}

static void test_choice_parse(void **state)
{
	const struct kt_option_raw *m = kt_option_raw(&kc, "HZ_1000");
	assert_non_null(m->choice);
	const struct kt_option_raw *ch = kt_option_raw(&kc, m->choice);
	assert_non_null(ch);
	assert_int_equal(ch->members.n, 3);
	assert_string_equal(ch->members.v[0], "HZ_100");
	assert_int_equal(ch->defaults.n, 1);
	assert_string_equal(ch->defaults.v[0], "HZ_250");
	assert_null(kt_option_raw(&kc, "USES_HZ_1000")->choice);
	assert_null(kt_map_get(&kc.opts, m->choice)); /* a choice is no option */
}

static void test_expr_tree(void **state)
{
	bool ok;
	struct kexpr *e = kexpr_parse("A && (B || !C) && D != n && \"x\" = \"x\"", &ok);
	assert_true(ok);
	assert_int_equal(e->op, KX_AND);
	kexpr_free(e);
	e = kexpr_parse("A && ", &ok);
	assert_false(ok);
	kexpr_free(e);
	e = kexpr_parse("((((A", &ok);
	assert_false(ok);
	kexpr_free(e);
	char deep[300];
	memset(deep, '(', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	e = kexpr_parse(deep, &ok); /* bounded recursion */
	assert_false(ok);
	kexpr_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_depends_and_visibility),
	    cmocka_unit_test(test_menu_if_block),
	    cmocka_unit_test(test_hidden_by_default_and_select),
	    cmocka_unit_test(test_or_takes_the_alternative_that_holds),
	    cmocka_unit_test(test_unmet_reported),
	    cmocka_unit_test(test_needed_off),
	    cmocka_unit_test(test_choice),
	    cmocka_unit_test(test_macros),
	    cmocka_unit_test(test_choice_parse),
	    cmocka_unit_test(test_expr_tree),
	    cmocka_unit_test(test_kfacts),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
