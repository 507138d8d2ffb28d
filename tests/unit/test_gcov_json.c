// SPDX-License-Identifier: GPL-2.0
/* The reader of gcov's JSON (trace/gcov.h) against gcov's own text output (gcov -t) for a small program built
 * with --coverage: every line's count, a header's inline function summed over two objects, paths made relative
 * to the compile directory; and the documents it refuses. Skipped without gcc and gcov. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "trace/gcov.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char inc_h[] = "static inline int twice(int x)\n"
			    "{\n"
			    "\treturn 2 * x;\n"
			    "}\n";
static const char main_c[] = "#include <stdio.h>\n"
			     "#include \"inc.h\"\n"
			     "int other(int);\n"
			     "int main(int argc, char **argv)\n"
			     "{\n"
			     "\tint s = 0;\n"
			     "\t(void)argv;\n"
			     "\tfor (int i = 0; i < 7; i++)\n"
			     "\t\ts += twice(i) + other(i);\n"
			     "\tif (argc > 5)\n"
			     "\t\ts = 0; /* never */\n"
			     "\tprintf(\"%d\\n\", s);\n"
			     "\treturn 0;\n"
			     "}\n";
static const char other_c[] = "#include \"../inc.h\"\n"
			      "int other(int x)\n"
			      "{\n"
			      "\tif (x & 1)\n"
			      "\t\treturn twice(x);\n"
			      "\treturn x;\n"
			      "}\n";

static void put(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	free(p);
}

static char *run(const char *cmd)
{
	struct strbuf sb = STRBUF_INIT;
	FILE *p = popen(cmd, "r");
	char buf[4096];
	size_t n;

	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		strbuf_add(&sb, buf, n);
	assert_int_equal(pclose(p), 0);
	return strbuf_detach(&sb);
}

/* gcov -t's text: per "Source:NAME" block, "COUNT:LINE:..." rows; "-" not executable, "#####"/"=====" 0. */
struct want {
	char file[64];
	unsigned line;
	unsigned long long count;
};

static size_t oracle(const char *dir, const char *text, struct want *w, size_t max)
{
	char file[64] = "", real_dir[PATH_MAX];
	size_t n = 0;

	assert_non_null(realpath(dir, real_dir));
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char count[32];
		unsigned line;
		if (sscanf(l, " -: 0:Source:%63[^\n]", file) == 1) {
			char *p = xasprintf("%s/%s", dir, file), real[PATH_MAX];
			assert_non_null(realpath(p, real));
			assert_int_equal(strncmp(real, real_dir, strlen(real_dir)), 0);
			snprintf(file, sizeof(file), "%s", real + strlen(real_dir) + 1);
			free(p);
			continue;
		}
		if (sscanf(l, " %31[^:]:%u:", count, &line) != 2 || !line || !strcmp(count, "-"))
			continue;
		unsigned long long c = (count[0] == '#' || count[0] == '=') ? 0 : strtoull(count, NULL, 10);
		size_t i = 0;
		while (i < n && (strcmp(w[i].file, file) || w[i].line != line))
			i++;
		if (i == n) {
			assert_true(n < max);
			snprintf(w[n].file, sizeof(w[n].file), "%s", file);
			w[n++].line = line;
			w[i].count = 0;
		}
		w[i].count += c;
	}
	return n;
}

static void test_against_gcov(void **state)
{
	(void)state;
	if (system("command -v gcc >/dev/null && command -v gcov >/dev/null") != 0)
		skip();
	char tmpl[] = "/tmp/kf-test-gcov.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	char *sub = xasprintf("%s/sub", tmpl);
	assert_int_equal(mkdir(sub, 0700), 0);
	put(tmpl, "inc.h", inc_h);
	put(tmpl, "main.c", main_c);
	put(tmpl, "sub/other.c", other_c);
	char *build = xasprintf("cd %s && gcc -O0 --coverage -c main.c -o main.o && gcc -O0 --coverage -c sub/other.c "
				"-o sub/other.o && gcc --coverage main.o sub/other.o -o prog && ./prog >/dev/null",
				tmpl);
	assert_int_equal(system(build), 0);
	char *cj = xasprintf("cd %s && gcov --json-format --stdout main.gcda sub/other.gcda 2>/dev/null", tmpl);
	char *ct = xasprintf("cd %s && gcov --stdout main.gcda sub/other.gcda 2>/dev/null", tmpl);
	char *json = run(cj), *text = run(ct), *err = NULL;

	struct kl_glines acc = {0};
	struct fp_klines k = {.method = FP_KLINE_GCOV, .whole_guest = true};
	assert_int_equal(kl_gcov_json(&acc, json, strlen(json), &err), 0);
	assert_null(err);
	kl_glines_into(&acc, &k);

	struct want w[64];
	size_t n = oracle(tmpl, text, w, 64);
	if (n < 12)
		fail_msg("%zu lines in gcov -t:\n%s", n, text);
	assert_int_equal(k.nlines, n);
	for (size_t i = 0; i < n; i++) {
		const struct fp_kline_line *l = fp_kline_find(&k, w[i].file, w[i].line);
		if (!l)
			fail_msg("%s:%u in gcov -t, not read", w[i].file, w[i].line);
		if (l->count != w[i].count)
			fail_msg("%s:%u: %llu, gcov -t says %llu", w[i].file, w[i].line, (unsigned long long)l->count,
				 w[i].count);
	}
	/* the inline function of the header, summed over the two objects: main's 7 calls and other's 3 */
	const struct fp_kline_line *t = fp_kline_find(&k, "inc.h", 3);
	assert_non_null(t);
	assert_int_equal(t->count, 10);
	assert_string_equal(t->function, "twice");
	const struct fp_kline_line *never = fp_kline_find(&k, "main.c", 11);
	assert_non_null(never);
	assert_int_equal(never->count, 0);
	assert_non_null(fp_kline_find(&k, "sub/other.c", 5));

	for (uint32_t i = 0; i < k.nlines; i++) {
		free(k.lines[i].file);
		free(k.lines[i].function);
	}
	free(k.lines);
	char *rm = xasprintf("rm -rf %s", tmpl);
	assert_int_equal(system(rm), 0);
	free(rm);
	free(json);
	free(text);
	free(cj);
	free(ct);
	free(build);
	free(sub);
}

static void test_refused(void **state)
{
	static const char *const bad[] = {
	    "[]",
	    "{\"files\": [{\"file\": \"a.c\", \"lines\": [{\"line_number\": 1, \"count\": -1}]}]}",
	    "{\"files\": [{\"file\": \"a.c\", \"lines\": [{\"line_number\": 0, \"count\": 1}]}]}",
	    "{\"files\": [{\"file\": \"a.c\", \"lines\": [{\"count\": 1}]}]}",
	    "{\"files\": [{\"lines\": [{\"line_number\": 1, \"count\": 1}]}]}",
	    "{\"files\": [{\"file\": \"a.c\", \"lines\": [{\"line_number\": 4294967296, \"count\": 1}]}]}",
	    "{\"files\": [{\"file\": \"a.c\", \"lines\": [{\"line_number\": 1, \"count\": 1.5}]}]}",
	    "{\"files\": [1]}",
	    "{\"files\": []} {}",
	    "{\"files\": [",
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct kl_glines acc = {0};
		char *err = NULL;
		if (kl_gcov_json(&acc, bad[i], strlen(bad[i]), &err) != -1)
			fail_msg("read: %s", bad[i]);
		assert_non_null(err);
		assert_null(strchr(err, '\n'));
		free(err);
		kl_glines_release(&acc);
	}
	/* two documents, one a line; paths relative to the compile directory, ".." taken out */
	static const char two[] =
	    "{\"files\": [{\"file\": \"/b/x/../s/a.c\", \"lines\": [{\"line_number\": 2, \"count\": 3}]}], "
	    "\"current_working_directory\": \"/b\"}\n"
	    "{\"current_working_directory\": \"/b\", \"files\": [{\"lines\": [{\"line_number\": 2, \"count\": 4, "
	    "\"function_name\": \"f\"}], \"file\": \"o/../s/a.c\"}]}\n";
	struct kl_glines acc = {0};
	struct fp_klines k = {.method = FP_KLINE_GCOV};
	char *err = NULL;
	assert_int_equal(kl_gcov_json(&acc, two, strlen(two), &err), 0);
	kl_glines_into(&acc, &k);
	assert_int_equal(k.nlines, 1);
	assert_string_equal(k.lines[0].file, "s/a.c");
	assert_int_equal(k.lines[0].count, 7);
	assert_string_equal(k.lines[0].function, "f");
	free(k.lines[0].file);
	free(k.lines[0].function);
	free(k.lines);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_against_gcov), cmocka_unit_test(test_refused)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
