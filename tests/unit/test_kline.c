// SPDX-License-Identifier: GPL-2.0
/* Kernel lines, the model: kcov areas merged into one PC set with hits, and lines kept sorted whatever the order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "footprint/footprint.h"
#include "footprint/kline.h"
#include "footprint/merge.h"
#include "fp_load.h"

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

#define HEAD "{\"schema\": \"kfootprint/1\", \"syscalls\": [], \"kernel_lines\": {"
#define GOOD \
	"\"method\": \"kcov\", \"whole_guest\": false, \"build_id\": \"0fb4\", \"runtime_text\": \"0x1000\",         \
	\"text_offset\": \"0x0\", \"lost\": 3, \"tasks\": [{\"tid\": 7, \"tgid\": 7, \"comm\": \"sh\",              \
	\"covered\": true, \"pcs\": 2, \"lost\": 3}], \"pcs\": [{\"pc\": \"0x1010\", \"hits\": 1},                    \
	{\"pc\": \"0xffffffff81000000\", \"hits\": 2}], \"lines\": [{\"file\": \"fs/a.c\", \"line\": 3, \"count\": 2, \
	\"function\": \"f\"}, {\"file\": \"fs/eventfd.c\", \"line\": 1, \"count\": 1}]"

/* Written and read back: the same text, every field kept (an address past 2^53 exactly). */
static void test_json_round_trip(void **state)
{
	char *msg, *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	struct footprint *fp = load_capturing(HEAD GOOD "}}", "good", &msg), *fp2;

	(void)state;
	assert_non_null(fp);
	const struct fp_klines *k = fp_klines_of(fp);
	assert_non_null(k);
	assert_int_equal(k->npcs, 2);
	assert_true(k->pcs[1].pc == 0xffffffff81000000ULL);
	assert_int_equal(k->runtime_text, 0x1000);
	assert_int_equal(k->nlines, 2);
	assert_string_equal(k->lines[0].function, "f");
	assert_null(k->lines[1].function);
	assert_int_equal(k->ntasks, 1);
	assert_true(k->tasks[0].covered);
	free(msg);
	FILE *f = open_memstream(&a, &na);
	assert_int_equal(fp__write_json(fp, f), 0);
	fclose(f);
	fp2 = load_capturing(a, "again", &msg);
	assert_non_null(fp2);
	f = open_memstream(&b, &nb);
	assert_int_equal(fp__write_json(fp2, f), 0);
	fclose(f);
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(msg);
	fp__free(fp);
	fp__free(fp2);
}

/* Each bad input refused in one line naming the member. */
static void test_json_bad(void **state)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
	    {HEAD "\"method\": \"perf\"}}", "kernel_lines.method: 'perf' is not kcov or gcov"},
	    {HEAD "\"method\": \"kcov\", \"whole_guest\": false, \"lost\": 0, \"tasks\": [], \"pcs\": []}}",
	     "kernel_lines.lines: missing"},
	    {HEAD "\"pcs\": [{\"pc\": \"4096\", \"hits\": 1}]}}", "is not an address"},
	    {HEAD "\"pcs\": [{\"pc\": \"0x20\", \"hits\": 1}, {\"pc\": \"0x10\", \"hits\": 1}]}}",
	     "not after the one before"},
	    {HEAD "\"pcs\": [{\"pc\": \"0x20\", \"hits\": 0}]}}", "hits: 0"},
	    {HEAD "\"lines\": [{\"file\": \"b.c\", \"line\": 1, \"count\": 1}, {\"file\": \"a.c\", \"line\": 9, "
		  "\"count\": 1}]}}",
	     "not after the one before"},
	    {HEAD "\"lines\": [{\"file\": \"a.c\", \"line\": 0, \"count\": 1}]}}", "line: 0"},
	    {HEAD "\"lines\": [{\"file\": \"a\\u0001\", \"line\": 1, \"count\": 1}]}}", "is not a name"},
	    {HEAD "\"build_id\": \"XY\"}}", "is not a build id"},
	    {HEAD
	     "\"method\": \"gcov\", \"whole_guest\": false, \"lost\": 0, \"tasks\": [], \"pcs\": [], \"lines\": []}}",
	     "false for gcov"},
	    {HEAD "\"method\": \"kcov\", \"whole_guest\": false, \"lost\": 0, \"tasks\": [{\"tid\": 1, \"tgid\": 1, "
		  "\"covered\": true, \"pcs\": 0, \"lost\": 5}], \"pcs\": [], \"lines\": []}}",
	     "less than its tasks' lost PCs"},
	    {HEAD
	     "\"tasks\": [{\"tid\": 1, \"tgid\": 1, \"covered\": true, \"why_not\": \"x\", \"pcs\": 0, \"lost\": 0}]}}",
	     "given for a covered task"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *msg;
		struct footprint *fp = load_capturing(bad[i].text, "bad", &msg);

		if (fp || !strstr(msg, bad[i].want) || strchr(msg, '\n') != strrchr(msg, '\n'))
			fail_msg("input %zu: got '%s', want '%s'", i, msg, bad[i].want);
		free(msg);
	}
}

/* Merge: lines added up; PCs of one kernel moved across boots by their _text; kcov with gcov said, not mixed. */
static void test_merge(void **state)
{
	struct footprint *a = fp__new(), *b = fp__new(), *c = fp__new(), *m = fp__new();
	struct fp_klines *ka = fp__klines(a, FP_KLINE_KCOV), *kb = fp__klines(b, FP_KLINE_KCOV);
	const uint64_t pa[] = {0x1010}, pb[] = {0x5010, 0x5020};

	(void)state;
	ka->build_id = strdup("ab");
	kb->build_id = strdup("ab");
	ka->runtime_text = 0x1000;
	kb->runtime_text = 0x5000; /* another boot: slid by 0x4000 */
	fp_kline_add_pcs(ka, pa, 1);
	fp_kline_add_pcs(kb, pb, 2);
	fp_kline_add_line(ka, "fs/a.c", 3, 1, "f");
	fp_kline_add_line(kb, "fs/a.c", 3, 2, "f");
	fp_kline_add_line(kb, "fs/b.c", 1, 1, NULL);
	fp__kline_task(kb, 9, 9, "x")->covered = true;
	fp_kind_klines.merge(m, a, 0, FP_MERGE_ADD);
	fp_kind_klines.merge(m, b, 1, FP_MERGE_ADD);
	const struct fp_klines *k = fp_klines_of(m);
	assert_non_null(k);
	assert_null(k->mixed);
	assert_int_equal(k->npcs, 2);
	assert_int_equal(k->pcs[0].pc, 0x1010);
	assert_int_equal(k->pcs[0].hits, 2);
	assert_int_equal(k->pcs[1].pc, 0x1020);
	assert_int_equal(k->nlines, 2);
	assert_int_equal(k->lines[0].count, 3);
	assert_int_equal(k->ntasks, 1);
	fp__klines(c, FP_KLINE_GCOV);
	fp_kline_add_line(fp_klines_of(c), "fs/c.c", 1, 5, NULL);
	fp_kind_klines.merge(m, c, 2, FP_MERGE_ADD);
	assert_non_null(k->mixed);
	assert_int_equal(k->nlines, 2); /* gcov's lines not mixed into kcov's */
	fp__free(a);
	fp__free(b);
	fp__free(c);
	fp__free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_pcs), cmocka_unit_test(test_lines),
					   cmocka_unit_test(test_json_round_trip), cmocka_unit_test(test_json_bad),
					   cmocka_unit_test(test_merge)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
