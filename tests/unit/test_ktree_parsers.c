// SPDX-License-Identifier: GPL-2.0
/* The readers behind the kernel tree index: Makefile/Kbuild, Kconfig, MAINTAINERS, .config, #if conditions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "ktree/kt_internal.h"
#include "ktree/ktree.h"

static const struct kt_mkassign *find_assign(const struct kt_makefile *mk, const char *word)
{
	for (size_t i = 0; i < mk->nas; i++)
		for (size_t j = 0; j < mk->as[i].nwords; j++)
			if (!strcmp(mk->as[i].words[j], word))
				return &mk->as[i];
	return NULL;
}

static void test_makefile(void **state)
{
	struct kt_map vars = {0};
	struct kt_makefile mk;
	const char *text = "# comment with obj-y += nothing.o\n"
			   "obj-y := a.o \\\n"
			   "\tb.o\\\n"
			   "  c.o\n"
			   "ifeq ($(CONFIG_A),y)\n"
			   "obj-y += in_a.o\n"
			   "else ifneq ($(CONFIG_B),)\n"
			   "\tobj-y += in_b.o\n"
			   "else\n"
			   "obj-y += in_none.o\n"
			   "endif\n"
			   "obj-y += process_$(BITS).o $(SRCARCH)/\n"
			   "all: foo\n"
			   "\tobj-y += recipe.o\n"
			   "define X\n"
			   "obj-y += defined.o\n"
			   "endef\n"
			   "ifdef CONFIG_C\n"
			   "ifndef CONFIG_D\n"
			   "obj-$(CONFIG_E) += nested.o\n"
			   "endif\n"
			   "endif\n";

	kt_map_put(&vars, "BITS", "64");
	kt_map_put(&vars, "SRCARCH", "x86");
	kt_makefile_parse(&mk, "dir/Makefile", text, &vars);
	const struct kt_mkassign *a = find_assign(&mk, "c.o");
	assert_non_null(a);
	assert_int_equal(a->line, 2);
	assert_int_equal(a->nwords, 3);
	assert_null(find_assign(&mk, "nothing.o"));
	assert_null(find_assign(&mk, "recipe.o"));
	assert_null(find_assign(&mk, "defined.o"));
	assert_non_null(find_assign(&mk, "process_64.o"));
	assert_non_null(find_assign(&mk, "x86/"));

	a = find_assign(&mk, "in_a.o");
	assert_int_equal(a->conds.n, 1);
	assert_string_equal(a->conds.v[0].option, "A");
	assert_false(a->conds.v[0].negated);
	a = find_assign(&mk, "in_b.o"); /* else ifneq: !A && B */
	assert_int_equal(a->conds.n, 2);
	assert_string_equal(a->conds.v[0].option, "B");
	assert_false(a->conds.v[0].negated);
	assert_string_equal(a->conds.v[1].option, "A");
	assert_true(a->conds.v[1].negated);
	a = find_assign(&mk, "in_none.o"); /* else: !A && !B */
	assert_int_equal(a->conds.n, 2);
	assert_true(a->conds.v[0].negated);
	assert_true(a->conds.v[1].negated);
	a = find_assign(&mk, "nested.o");
	assert_string_equal(a->lhs, "obj-$(CONFIG_E)");
	assert_int_equal(a->conds.n, 2);
	assert_string_equal(a->conds.v[0].option, "D"); /* innermost first */
	assert_true(a->conds.v[0].negated);
	assert_string_equal(a->conds.v[1].option, "C");
	assert_string_equal(a->conds.v[1].where, "dir/Makefile:18");
	kt_makefile_release(&mk);

	/* garbage never crashes and yields no assignment from nonsense */
	kt_makefile_parse(&mk, "g", "endif\nelse\n=\n:=\n\\", &vars);
	kt_makefile_release(&mk);
	kt_map_release(&vars, NULL);
}

static void test_kconfig(void **state)
{
	struct kt_kconfig kc = {0};
	const char *text = "menu \"Top\"\n"
			   "\tdepends on OUTER\n"
			   "config A\n"
			   "\ttristate \"Prompt A\" if EXPERT\n"
			   "\tdepends on B\n"
			   "\tdepends on C || D\n"
			   "\tselect H if X # trailing comment\n"
			   "\timply I\n"
			   "\tdefault m\n"
			   "\thelp\n"
			   "\t  First line\n"
			   "\t    of the help.\n"
			   "\n"
			   "\t  Second paragraph.\n"
			   "config H\n"
			   "\tbool\n"
			   "comment \"a comment\"\n"
			   "\tdepends on NOT_FOR_H\n"
			   "endmenu\n"
			   "menuconfig M\n"
			   "\tdef_bool y\n";

	kt_kconfig_parse(&kc, "k/Kconfig", text);
	kt_kconfig_parse(&kc, "k2/Kconfig", "config H\n\tbool \"later prompt\"\n\tselect A\n");
	kt_kconfig_finish(&kc);
	const struct kt_option *a = kt_map_get(&kc.opts, "A");
	assert_non_null(a);
	assert_int_equal(a->line, 3);
	assert_string_equal(a->type, "tristate");
	assert_string_equal(a->prompt, "Prompt A");
	assert_string_equal(a->prompt_if, "EXPERT");
	assert_string_equal(a->depends, "OUTER && B && C || D");
	assert_string_equal(a->help, "First line of the help.");
	assert_int_equal(a->nselected_by, 1);
	assert_string_equal(a->selected_by[0], "H");
	const struct kt_option *h = kt_map_get(&kc.opts, "H");
	assert_string_equal(h->file, "k/Kconfig");
	assert_int_equal(h->ndefinitions, 2);
	assert_string_equal(h->depends, "OUTER"); /* the comment's depends is not H's */
	assert_string_equal(h->selected_by[0], "A if X");
	assert_string_equal(kt_map_get(&kc.opts, "I") ? "defined" : "undefined", "undefined");
	const struct kt_option *m = kt_map_get(&kc.opts, "M");
	assert_string_equal(m->type, "bool");
	assert_string_equal(m->defaults, "y");
	assert_string_equal(a->defaults, "m");
	assert_null(m->prompt);
	assert_null(m->depends);
	struct kt_option_raw *r = kt_option_raw(&kc, "A");
	assert_int_equal(r->defaults.n, 1);
	assert_string_equal(r->defaults.v[0], "m");
	kt_kconfig_release(&kc);

	/* garbage */
	kt_kconfig_parse(&kc, "g",
			 "config\n\"\nendmenu\nendif\nif\nselect\ndepends on\nconfig X\n\tbool \"unterminated\nhelp\n");
	kt_kconfig_finish(&kc);
	assert_non_null(kt_map_get(&kc.opts, "X"));
	kt_kconfig_release(&kc);
}

static void test_maintainers(void **state)
{
	const char *text =
	    "preamble\n\tF: fake/ (an example in the preamble)\n"
	    "Maintainers List\n----------------\n\n"
	    "WILD\nF:\tkernel/*\n\n"
	    "LITERAL\nM:\tA Person <a@example.org>\nR:\tR One <r1@example.org>\nR:\tR Two <r2@example.org>\n"
	    "L:\tlist@example.org (moderated for non-subscribers)\nS:\tMaintained\nF:\tkernel/fork.c\n\n"
	    "DEEP\nF:\tkernel/sub/\nX:\tkernel/sub/skip.c\n\n"
	    "ANYDIR\nF:\t*/net/*\n\n"
	    "REGEX\nN:\tfork\n\n"
	    "CLASS\nF:\tdrivers/pinctrl-[ab]*\n\n"
	    "THE REST\nF:\t*\nF:\t*/\n";
	struct kt_maint *m = kt_maint_parse(text, NULL);
	struct kt_section_match *r;
	size_t n;

	assert_int_equal(kt_maint_nsections(m), 7);
	n = kt_maint_match(m, "kernel/fork.c", &r);
	assert_int_equal(n, 4);
	assert_string_equal(r[0].section->name, "LITERAL"); /* tie at depth 2: literal first */
	assert_string_equal(r[0].section->status, "Maintained");
	assert_int_equal(r[0].section->nmaintainers, 1);
	assert_string_equal(r[0].section->maintainers[0], "A Person <a@example.org>");
	assert_int_equal(r[0].section->nreviewers, 2);
	assert_string_equal(r[0].section->reviewers[1], "R Two <r2@example.org>");
	assert_string_equal(r[0].section->lists[0], "list@example.org (moderated for non-subscribers)");
	assert_string_equal(r[1].section->name, "WILD");
	assert_string_equal(r[2].section->name, "REGEX");
	assert_int_equal(r[2].depth, 0);
	assert_string_equal(r[3].section->name, "THE REST");
	free(r);
	n = kt_maint_match(m, "kernel/sub/a.c", &r); /* kernel/ star does not cross a '/' here */
	assert_int_equal(n, 2);
	assert_string_equal(r[0].section->name, "DEEP");
	assert_int_equal(r[0].depth, 2);
	free(r);
	n = kt_maint_match(m, "kernel/sub/skip.c", &r);
	assert_int_equal(n, 1);
	free(r);
	n = kt_maint_match(m, "drivers/net/x.c", &r);
	assert_string_equal(r[0].section->name, "ANYDIR");
	free(r);
	n = kt_maint_match(m, "drivers/pinctrl-b1.c", &r);
	assert_string_equal(r[0].section->name, "CLASS");
	free(r);
	n = kt_maint_match(m, "drivers/pinctrl-c1.c", &r);
	assert_int_equal(n, 1);
	free(r);
	kt_maint_free(m);
	m = kt_maint_parse("", NULL);
	assert_int_equal(kt_maint_match(m, "x", &r), 0);
	kt_maint_free(m);
}

static void test_config_files(void **state)
{
	char plain[] = "/tmp/kt-config-XXXXXX", gz[] = "/tmp/kt-configgz-XXXXXX";
	const char *text = "#\n# comment\nCONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_S=\"str\"\n"
			   "CONFIG_N=42\nNOT_CONFIG=y\nCONFIG_BAD-NAME=y\n";
	int fd = mkstemp(plain);
	char *err = NULL;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	fd = mkstemp(gz);
	assert_true(fd >= 0);
	close(fd);
	gzFile g = gzopen(gz, "wb");
	assert_non_null(g);
	assert_int_equal(gzputs(g, text), (int)strlen(text));
	gzclose(g);

	const char *paths[] = {plain, gz};
	for (int i = 0; i < 2; i++) {
		struct kt_config *c = i == 0 ? kt_config_load_file(paths[i], &err) : kt_config_load_gz(paths[i], &err);
		assert_non_null(c);
		assert_string_equal(kt_config_get(c, "CONFIG_A"), "y");
		assert_string_equal(kt_config_get(c, "B"), "m");
		assert_true(kt_config_enabled(c, "B"));
		assert_null(kt_config_get(c, "C"));
		assert_false(kt_config_enabled(c, "C"));
		assert_string_equal(kt_config_get(c, "S"), "\"str\"");
		assert_string_equal(kt_config_get(c, "N"), "42");
		assert_null(kt_config_get(c, "BAD-NAME"));
		assert_int_equal(kt_config_count(c), 4);
		struct kt_config *d = kt_config_dup(c);
		kt_config_free(c);
		assert_string_equal(kt_config_get(d, "A"), "y");
		kt_config_free(d);
	}
	/* gzopen reads plain files too */
	struct kt_config *c = kt_config_load_gz(plain, &err);
	assert_non_null(c);
	assert_string_equal(kt_config_get(c, "A"), "y");
	kt_config_free(c);
	unlink(plain);
	unlink(gz);
	assert_null(kt_config_load_file("/nonexistent/.config", &err));
	assert_non_null(strstr(err, "/nonexistent/.config"));
	free(err);
	assert_null(kt_config_load_gz("/nonexistent/config.gz", &err));
	free(err);
}

static const char *lk(void *ctx, const char *name)
{
	(void)ctx;
	if (!strcmp(name, "CONFIG_A") || !strcmp(name, "A") || !strcmp(name, "__ARCH_WANT_X"))
		return "y";
	if (!strcmp(name, "CONFIG_M") || !strcmp(name, "M"))
		return "m";
	if (!strcmp(name, "BITS_PER_LONG"))
		return "64";
	return NULL;
}

static void test_conditions(void **state)
{
	struct kt_condv cv = {0};
	bool ok;

	kt_cpp_conds(&cv, "defined(CONFIG_A) && !defined __ARCH_WANT_Y && IS_ENABLED(CONFIG_B)", false,
		     KT_COND_SOURCE_IF, "f.c:1");
	assert_int_equal(cv.n, 3);
	assert_string_equal(cv.v[0].option, "A");
	assert_int_equal(cv.v[1].kind, KT_COND_ARCH_WANT);
	assert_true(cv.v[1].negated);
	assert_string_equal(cv.v[2].option, "B");
	assert_true(kt_cond_eval(&cv.v[0], lk, NULL));
	assert_true(kt_cond_eval(&cv.v[1], lk, NULL));
	assert_false(kt_cond_eval(&cv.v[2], lk, NULL));
	kt_condv_release(&cv);

	/* an #else of a two-symbol #if cannot be split: one compound, negated */
	kt_cpp_conds(&cv, "defined(CONFIG_A) && defined(CONFIG_B)", true, KT_COND_SOURCE_IF, "f.c:2");
	assert_int_equal(cv.n, 1);
	assert_null(cv.v[0].option);
	assert_int_equal(cv.v[0].nsymbols, 2);
	assert_true(kt_cond_eval(&cv.v[0], lk, NULL));
	kt_condv_release(&cv);
	kt_cpp_conds(&cv, "!defined(__ARCH_WANT_STAT64) || defined(__ARCH_WANT_X)", false, KT_COND_SOURCE_IF, "f.c:3");
	assert_int_equal(cv.n, 1);
	assert_int_equal(cv.v[0].kind, KT_COND_ARCH_WANT);
	kt_condv_release(&cv);

	assert_int_equal(kt_cpp_eval("BITS_PER_LONG == 32", lk, NULL, &ok), 0);
	assert_true(ok);
	assert_int_equal(kt_cpp_eval("defined(CONFIG_M)", lk, NULL, &ok), 0); /* =m is CONFIG_M_MODULE for cpp */
	assert_int_equal(kt_cpp_eval("IS_ENABLED(CONFIG_M) && (1 + 1 > 1)", lk, NULL, &ok), 1);
	assert_true(ok);
	kt_cpp_eval("FOO(1)", lk, NULL, &ok);
	assert_false(ok);
	kt_cpp_eval("((((((", lk, NULL, &ok);
	assert_false(ok);

	assert_int_equal(kt_kexpr_eval("A && !B", lk, NULL), 2);
	assert_int_equal(kt_kexpr_eval("A && M", lk, NULL), 1);
	assert_int_equal(kt_kexpr_eval("B || (M && A)", lk, NULL), 1);
	assert_int_equal(kt_kexpr_eval("A = y && M != n", lk, NULL), 2);
	assert_int_equal(kt_kexpr_eval("\"x\" = \"y\"", lk, NULL), 0);
	assert_int_equal(kt_kexpr_eval("((((", lk, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_makefile),	 cmocka_unit_test(test_kconfig),    cmocka_unit_test(test_maintainers),
	    cmocka_unit_test(test_config_files), cmocka_unit_test(test_conditions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
