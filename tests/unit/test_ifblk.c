// SPDX-License-Identifier: GPL-2.0
/* The #if-block scanner (ktree/kt_ifblk.h): nesting, #else of #ifdef as "X off", #elif, IS_ENABLED/defined,
 * comments, line continuations, literals, and the unbalanced files it refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ktree/kt_ifblk.h"

static struct kt_ifblk *scan(const char *text, size_t *n)
{
	struct kt_ifblk *v;
	char why[128];

	assert_int_equal(kt_ifblk_scan(text, strlen(text), &v, n, why, sizeof(why)), 0);
	return v;
}

static void want(const struct kt_ifblk *b, const char *kind, uint32_t directive, uint32_t first, uint32_t last,
		 uint32_t depth, const char *opts)
{
	char got[256] = "";

	for (size_t i = 0; i < b->nopts; i++) {
		strcat(got, i ? " " : "");
		strcat(got, b->opts[i]);
	}
	assert_string_equal(b->kind, kind);
	assert_int_equal(b->directive, directive);
	assert_int_equal(b->first, first);
	assert_int_equal(b->last, last);
	assert_int_equal(b->depth, depth);
	assert_string_equal(got, opts);
}

static void test_nesting(void **state)
{
	size_t n;
	struct kt_ifblk *v = scan("int a;\n"					     /* 1 */
				  "#ifdef CONFIG_A\n"				     /* 2 */
				  "int b;\n"					     /* 3 */
				  "# if IS_ENABLED(CONFIG_B) && defined(CONFIG_C)\n" /* 4 */
				  "int c;\n"					     /* 5 */
				  "# endif\n"					     /* 6 */
				  "#ifndef MODULE\n"				     /* 7: not an option: not kept */
				  "#endif\n"					     /* 8 */
				  "#else\n"					     /* 9 */
				  "int d;\n"					     /* 10 */
				  "#endif\n"					     /* 11 */
				  "#ifndef CONFIG_E\n"				     /* 12 */
				  "#else\n"					     /* 13 */
				  "int e;\n"					     /* 14 */
				  "#endif\n",					     /* 15 */
				  &n);

	(void)state;
	assert_int_equal(n, 5);
	want(&v[0], "ifdef", 2, 3, 8, 0, "A");
	want(&v[1], "if", 4, 5, 5, 1, "B C");
	want(&v[2], "else", 9, 10, 10, 0, "!A");
	want(&v[3], "ifndef", 12, 13, 12, 0, "!E"); /* empty body: last before first */
	want(&v[4], "else", 13, 14, 14, 0, "E");
	kt_ifblk_free(v, n);
}

static void test_elif_and_else_of_expr(void **state)
{
	size_t n;
	struct kt_ifblk *v = scan("#if defined(CONFIG_X)\n" /* 1 */
				  "x\n"
				  "#elif CONFIG_Y > 3\n" /* 3 */
				  "y\n"
				  "#else\n" /* 5: after an #elif: the names, negated */
				  "z\n"
				  "#endif\n"
				  "#if CONFIG_P || CONFIG_Q\n" /* 8 */
				  "#else\n"		       /* 9 */
				  "#endif\n",
				  &n);

	(void)state;
	assert_int_equal(n, 5);
	want(&v[0], "if", 1, 2, 2, 0, "X");
	want(&v[1], "elif", 3, 4, 4, 0, "Y");
	want(&v[2], "else", 5, 6, 6, 0, "!X");
	assert_true(v[2].negated);
	want(&v[3], "if", 8, 9, 8, 0, "P Q");
	want(&v[4], "else", 9, 10, 9, 0, "!P !Q");
	kt_ifblk_free(v, n);
}

static void test_comments_continuations(void **state)
{
	size_t n;
	struct kt_ifblk *v = scan("/* #ifdef CONFIG_NOT\n"		    /* 1: in a comment */
				  "#endif */\n"				    /* 2 */
				  "#if defined(CONFIG_A) || \\\n"	    /* 3: continued */
				  "    defined(CONFIG_B) /* CONFIG_C\n"	    /* 4: the comment goes on */
				  "   */\n"				    /* 5 */
				  "a\n"					    /* 6 */
				  "#endif // CONFIG_D\n"		    /* 7 */
				  "const char *s = \"/* not a comment\";\n" /* 8 */
				  "#ifdef CONFIG_E\n"			    /* 9 */
				  "#endif\n",				    /* 10 */
				  &n);

	(void)state;
	assert_int_equal(n, 2);
	want(&v[0], "if", 3, 6, 6, 0, "A B");
	want(&v[1], "ifdef", 9, 10, 9, 0, "E");
	kt_ifblk_free(v, n);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {"#endif\n", "#else\n", "#ifdef CONFIG_A\n", "#if 1\n#elif 2\n"};
	struct kt_ifblk *v;
	size_t n;
	char why[128];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(kt_ifblk_scan(bad[i], strlen(bad[i]), &v, &n, why, sizeof(why)), -1);
		assert_null(v);
		assert_non_null(strstr(why, "#"));
	}
	assert_int_equal(kt_ifblk_scan("a\0b", 3, &v, &n, why, sizeof(why)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_nesting), cmocka_unit_test(test_elif_and_else_of_expr),
					   cmocka_unit_test(test_comments_continuations),
					   cmocka_unit_test(test_refused)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
