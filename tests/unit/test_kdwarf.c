// SPDX-License-Identifier: GPL-2.0
/*
 * The DWARF reader on a small program built here with gcc -g: two units, a static function of the same name in
 * each, an always-inlined static inline (abstract instance only), external functions; then the same program
 * stripped of its debug information, a file that is not ELF and one that does not exist.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kdwarf/kdwarf.h"

static char dir[] = "/tmp/kf-kdwarf.XXXXXX";

static void put(const char *name, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *fp = fopen(path, "w");
	if (!fp || fputs(text, fp) < 0 || fclose(fp))
		fail_msg("cannot write %s", path);
}

static void sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("failed: %s", cmd);
}

static int setup(void **state)
{
	if (!mkdtemp(dir))
		return -1;
	put("a.c", "static inline __attribute__((always_inline)) int twice(int x)\n" /* 1 */
		   "{\n"
		   "\treturn 2 * x;\n"
		   "}\n"
		   "\n"
		   "static __attribute__((noipa)) int helper(int x)\n" /* 6 */
		   "{\n"
		   "\treturn twice(x) + 1;\n"
		   "}\n"
		   "\n"
		   "int a_entry(int x)\n" /* 11 */
		   "{\n"
		   "\treturn helper(x) * 3;\n"
		   "}\n");
	put("b.c", "int a_entry(int x);\n"
		   "\n"
		   "static __attribute__((noipa)) int helper(int x)\n" /* 3 */
		   "{\n"
		   "\tint y = x - 1;\n"
		   "\n"
		   "\tif (y > 10)\n"
		   "\t\ty /= 2;\n"
		   "\treturn y;\n" /* 9 */
		   "}\n"
		   "\n"
		   "int main(int argc, char **argv)\n" /* 12 */
		   "{\n"
		   "\treturn a_entry(argc) + helper(argc);\n"
		   "}\n");
	sh("cd %s && gcc -g -O2 -o prog a.c b.c && cp prog stripped && strip -g stripped && echo text > notelf", dir);
	return 0;
}

static int teardown(void **state)
{
	sh("rm -rf %s", dir);
	return 0;
}

static struct kd_file *open_prog(const char *name)
{
	char path[256], why[256] = "";

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct kd_file *f = kd_open(path, why, sizeof(why));
	if (!f)
		fail_msg("kd_open %s: %s", path, why);
	return f;
}

struct cus {
	char names[8][64];
	int n, stop_after;
};

static int cu_cb(const char *name, const char *comp_dir, void *ctx)
{
	struct cus *c = ctx;

	assert_non_null(comp_dir);
	if (c->n < 8)
		snprintf(c->names[c->n++], sizeof(c->names[0]), "%s", name);
	return c->stop_after && c->n == c->stop_after ? 7 : 0;
}

static bool has_cu(const struct cus *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->names[i], name))
			return true;
	return false;
}

static void test_units(void **state)
{
	struct kd_file *f = open_prog("prog");
	struct cus c = {0};

	assert_int_equal(kd_each_cu(f, cu_cb, &c), 0);
	/* The C library's crt objects may bring units of their own; ours are there, by the name gcc was given. */
	assert_true(has_cu(&c, "a.c"));
	assert_true(has_cu(&c, "b.c"));

	struct cus one = {.stop_after = 1};
	assert_int_equal(kd_each_cu(f, cu_cb, &one), 7);
	assert_int_equal(one.n, 1);
	kd_close(f);
}

struct funcs {
	struct kd_func got[32];
	char file[32][256], name[32][64];
	int n;
};

static int fn_cb(const struct kd_func *fn, void *ctx)
{
	struct funcs *fs = ctx;

	if (fs->n >= 32)
		return 0;
	fs->got[fs->n] = *fn;
	snprintf(fs->file[fs->n], sizeof(fs->file[0]), "%s", fn->file);
	snprintf(fs->name[fs->n], sizeof(fs->name[0]), "%s", fn->name);
	fs->n++;
	return 0;
}

/* The function of that name declared in a file whose path ends in /file. */
static const struct kd_func *find(const struct funcs *fs, const char *name, const char *file)
{
	const struct kd_func *found = NULL;
	size_t fl = strlen(file);

	for (int i = 0; i < fs->n; i++) {
		size_t l = strlen(fs->file[i]);
		if (strcmp(fs->name[i], name) || l <= fl || strcmp(fs->file[i] + l - fl, file) ||
		    fs->file[i][l - fl - 1] != '/')
			continue;
		if (found)
			fail_msg("%s of %s reported twice", name, file);
		found = &fs->got[i];
	}
	if (!found)
		fail_msg("no function %s in %s", name, file);
	return found;
}

static void test_functions(void **state)
{
	struct kd_file *f = open_prog("prog");
	struct funcs fs = {0};

	assert_int_equal(kd_each_func(f, fn_cb, &fs), 0);

	const struct kd_func *ha = find(&fs, "helper", "a.c"), *hb = find(&fs, "helper", "b.c");
	assert_false(ha->external);
	assert_false(hb->external);
	assert_int_equal(ha->line, 6);
	assert_int_equal(hb->line, 3);
	assert_false(ha->inlined_only);
	assert_true(ha->low_pc != 0 && hb->low_pc != 0 && ha->low_pc != hb->low_pc);
	/* b.c's helper: code down to its return at line 9 (or the closing brace) */
	assert_in_range(hb->line_end, 9, 10);
	assert_in_range(ha->line_end, 8, 9);

	const struct kd_func *tw = find(&fs, "twice", "a.c");
	assert_true(tw->inlined_only);
	assert_int_equal(tw->low_pc, 0);
	assert_int_equal(tw->line, 1);
	assert_int_equal(tw->line_end, 1);
	assert_false(tw->external);

	const struct kd_func *ae = find(&fs, "a_entry", "a.c"), *m = find(&fs, "main", "b.c");
	assert_true(ae->external);
	assert_true(m->external);
	assert_int_equal(ae->line, 11);
	assert_int_equal(m->line, 12);
	assert_string_equal(m->cu, "b.c");
	assert_false(m->inlined_only);
	kd_close(f);
}

static void test_bad_files(void **state)
{
	char path[256], why[256];

	snprintf(path, sizeof(path), "%s/stripped", dir);
	assert_null(kd_open(path, why, sizeof(why)));
	assert_non_null(strstr(why, "no DWARF debug information"));
	assert_null(strchr(why, '\n'));

	snprintf(path, sizeof(path), "%s/notelf", dir);
	assert_null(kd_open(path, why, sizeof(why)));
	assert_string_equal(why, "not an ELF file");

	snprintf(path, sizeof(path), "%s/missing", dir);
	assert_null(kd_open(path, why, sizeof(why)));
	assert_string_equal(why, "No such file or directory");

	assert_null(kd_open(dir, why, sizeof(why)));
	assert_string_equal(why, "not a regular file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_units),
	    cmocka_unit_test(test_functions),
	    cmocka_unit_test(test_bad_files),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
