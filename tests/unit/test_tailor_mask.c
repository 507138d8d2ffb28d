// SPDX-License-Identifier: GPL-2.0
/*
 * tailor --stdout-mask: paxtest's two runs (a 28 and a 30 of "quality bits", both measured on this host) are the
 * same once masked, and nothing else is forgiven: another word, another line, a NUL byte, a missing file. Bad
 * expressions are refused with one line.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tailor/outmask.h"

static char *masked(const struct tl_masks *m, const char *text, size_t len, size_t *n)
{
	char *out = tl_masks_apply(m, text, len, n);
	assert_non_null(out);
	return out;
}

static bool same(const struct tl_masks *m, const char *a, size_t na, const char *b, size_t nb)
{
	size_t x, y;
	char *ma = masked(m, a, na, &x), *mb = masked(m, b, nb, &y);
	bool eq = x == y && !memcmp(ma, mb, x);
	free(ma);
	free(mb);
	return eq;
}
#define SAME(m, a, b) same(m, a, sizeof(a) - 1, b, sizeof(b) - 1)

static const char run1[] = "Executable bss                           : Killed\n"
			   "Main executable randomization (ET_EXEC)  : 30 quality bits (guessed)\n"
			   "Heap randomization test (PIE)            : 28 quality bits (guessed)\n";
static const char run2[] = "Executable bss                           : Killed\n"
			   "Main executable randomization (ET_EXEC)  : 28 quality bits (guessed)\n"
			   "Heap randomization test (PIE)            : 28 quality bits (guessed)\n";

static void test_paxtest(void **state)
{
	(void)state;
	struct tl_masks none = {0}, m = {0};
	assert_false(SAME(&none, run1, run2)); /* no mask: byte for byte, as before */
	assert_true(SAME(&none, run1, run1));
	assert_int_equal(tl_masks_add(&m, "[0-9]+ quality bits"), 0);
	assert_true(SAME(&m, run1, run2));
	/* what the mask does not cover still counts */
	assert_false(SAME(&m, run1,
			  "Executable bss                           : Vulnerable\n"
			  "Main executable randomization (ET_EXEC)  : 28 quality bits (guessed)\n"
			  "Heap randomization test (PIE)            : 28 quality bits (guessed)\n"));
	assert_false(SAME(&m, "a: 1 quality bits\n", "a: 1 quality bits\nb\n")); /* a line more */
	assert_false(SAME(&m, "a: 1 quality bits\n", "a: 1 quality bits"));	 /* the last newline */
	size_t n;
	char *out = masked(&m, "x 3 quality bits y 4 quality bits\n", 34, &n);
	assert_string_equal(out, "x <masked> y <masked>\n"); /* every match of a line */
	free(out);
	tl_masks_release(&m);
}

static void test_lines_and_bytes(void **state)
{
	(void)state;
	struct tl_masks m = {0};
	assert_int_equal(tl_masks_add(&m, "^pid [0-9]+"), 0);
	assert_int_equal(tl_masks_add(&m, "t=[0-9.]+s"), 0); /* masks apply one after another */
	size_t n;
	char *out = masked(&m, "pid 12 pid 13\npid 9 t=1.5s\n", 27, &n);
	assert_string_equal(out, "<masked> pid 13\n<masked> <masked>\n"); /* ^ is a line's start only */
	free(out);
	/* a NUL byte is kept and ends a line for the masks, as '\n' does */
	static const char a[] = "pid 1\0pid 2\n", b[] = "pid 3\0pid 4\n", c[] = "pid 3\npid 4\n";
	assert_true(same(&m, a, sizeof(a) - 1, b, sizeof(b) - 1));
	assert_false(same(&m, a, sizeof(a) - 1, c, sizeof(c) - 1));
	out = masked(&m, "", 0, &n);
	assert_int_equal(n, 0);
	free(out);
	tl_masks_release(&m);
}

static void test_files(void **state)
{
	(void)state;
	char a[] = "/tmp/kf-mask-a.XXXXXX", b[] = "/tmp/kf-mask-b.XXXXXX";
	int fa = mkstemp(a), fb = mkstemp(b);
	assert_true(fa >= 0 && fb >= 0);
	assert_int_equal(write(fa, run1, sizeof(run1) - 1), (ssize_t)sizeof(run1) - 1);
	assert_int_equal(write(fb, run2, sizeof(run2) - 1), (ssize_t)sizeof(run2) - 1);
	close(fa);
	close(fb);
	struct tl_masks m = {0};
	assert_int_equal(tl_masks_same_files(&m, a, b), 0);
	assert_int_equal(tl_masks_add(&m, "[0-9]+ quality"), 0);
	assert_int_equal(tl_masks_same_files(&m, a, b), 1);
	assert_int_equal(tl_masks_same_files(&m, a, "/nonexistent/stdout"), -1);
	unlink(a);
	unlink(b);
	tl_masks_release(&m);
}

/*
 * the two standard outputs of paxtest kiddie in tailor's pax case (Debian's 6.1 kernel, the tailored one, both
 * under TCG, 2026-12-03): they differ in a "quality bits" line and in the memory exhaustion line's "bits"
 */
static void test_paxtest_runs(void **state)
{
	(void)state;
	const char *top = getenv("KF_TOP");
	char *ref = NULL, *re = NULL;
	assert_true(asprintf(&ref, "%s/tests/fixtures/paxtest-ref.stdout", top ? top : ".") > 0);
	assert_true(asprintf(&re, "%s/tests/fixtures/paxtest-retest.stdout", top ? top : ".") > 0);
	struct tl_masks m = {0};
	assert_int_equal(tl_masks_same_files(&m, ref, re), 0);
	assert_int_equal(tl_masks_add(&m, "[0-9]+ quality bits"), 0);
	assert_int_equal(tl_masks_same_files(&m, ref, re), 0); /* the exhaustion line says "29 bits" */
	tl_masks_release(&m);
	assert_int_equal(tl_masks_add(&m, "[0-9]+ (quality )?bits"), 0); /* tests/long/tailor.sh's */
	assert_int_equal(tl_masks_same_files(&m, ref, re), 1);
	tl_masks_release(&m);
	free(ref);
	free(re);
}

static void test_refused(void **state)
{
	(void)state;
	struct tl_masks m = {0};
	assert_int_equal(tl_masks_add(&m, "a(b"), -1);	  /* not an expression */
	assert_int_equal(tl_masks_add(&m, "[0-9]*"), -1); /* matches the empty string: every byte would be masked */
	assert_int_equal(m.n, 0);
	for (int i = 0; i < TL_MASKS_MAX; i++)
		assert_int_equal(tl_masks_add(&m, "x"), 0);
	assert_int_equal(tl_masks_add(&m, "x"), -1);
	tl_masks_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_paxtest),	 cmocka_unit_test(test_lines_and_bytes), cmocka_unit_test(test_files),
	    cmocka_unit_test(test_paxtest_runs), cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
