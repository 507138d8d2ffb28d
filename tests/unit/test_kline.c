// SPDX-License-Identifier: GPL-2.0
/* Kernel lines, the model: kcov areas merged into one PC set with hits, and lines kept sorted whatever the order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "footprint/footprint.h"
#include "footprint/kline.h"

static void test_pcs(void **state)
{
	struct footprint *fp = fp__new();
	struct fp_klines *k = fp__klines(fp, FP_KLINE_KCOV);
	const uint64_t a[] = {30, 10, 30, 20, 10}, b[] = {40, 20, 5};

	(void)state;
	assert_ptr_equal(fp_klines_of(fp), k);
	assert_false(k->whole_guest);
	fp_kline_add_pcs(k, a, 5);
	assert_int_equal(k->npcs, 3);
	fp_kline_add_pcs(k, b, 3);
	assert_int_equal(k->npcs, 5);
	const uint64_t want_pc[] = {5, 10, 20, 30, 40}, want_hits[] = {1, 1, 2, 1, 1};
	for (int i = 0; i < 5; i++) {
		assert_int_equal(k->pcs[i].pc, want_pc[i]);
		assert_int_equal(k->pcs[i].hits, want_hits[i]);
	}
	fp_kline_add_pcs(k, b, 0);
	assert_int_equal(k->npcs, 5);
	fp__free(fp);
}

static void test_lines(void **state)
{
	struct footprint *fp = fp__new();
	struct fp_klines *k = fp__klines(fp, FP_KLINE_GCOV);

	(void)state;
	assert_true(k->whole_guest);
	fp_kline_add_line(k, "fs/eventfd.c", 20, 2, "eventfd_write");
	fp_kline_add_line(k, "fs/eventfd.c", 30, 1, NULL);
	fp_kline_add_line(k, "fs/a.c", 7, 1, NULL);		     /* before the rest */
	fp_kline_add_line(k, "fs/eventfd.c", 25, 4, "eventfd_read"); /* between */
	fp_kline_add_line(k, "fs/eventfd.c", 20, 3, "other");	     /* again: counts add, the first function stays */
	fp_kline_add_line(k, "fs/eventfd.c", 30, UINT64_MAX, "eventfd_read"); /* saturates */
	assert_int_equal(k->nlines, 4);
	assert_string_equal(k->lines[0].file, "fs/a.c");
	assert_int_equal(k->lines[1].line, 20);
	assert_int_equal(k->lines[1].count, 5);
	assert_string_equal(k->lines[1].function, "eventfd_write");
	assert_int_equal(k->lines[2].line, 25);
	assert_true(k->lines[3].count == UINT64_MAX);
	assert_string_equal(k->lines[3].function, "eventfd_read");
	assert_non_null(fp_kline_find(k, "fs/eventfd.c", 25));
	assert_null(fp_kline_find(k, "fs/eventfd.c", 26));
	assert_null(fp_kline_find(k, "fs/z.c", 1));
	struct fp_kline_task *t = fp__kline_task(k, 7, 7, "sh");
	t->covered = true;
	assert_int_equal(k->ntasks, 1);
	fp__free(fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_pcs), cmocka_unit_test(test_lines)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
