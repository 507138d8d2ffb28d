// SPDX-License-Identifier: GPL-2.0
/*
 * The figures of tailor's report: an ELF's text bytes against binutils' size(1) (its Berkeley "text" column),
 * on this test's own binary and on /bin/ls; what is not ELF64 is refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "tailor/tailor.h"

static unsigned long long size_text(const char *path)
{
	char cmd[512];
	unsigned long long text = 0;
	snprintf(cmd, sizeof(cmd), "size '%s' 2>/dev/null | awk 'NR == 2 { print $1 }'", path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%llu", &text), 1);
	pclose(p);
	return text;
}

static void test_text_as_size(void **state)
{
	(void)state;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	assert_true(n > 0);
	self[n] = '\0'; /* by its own name: in size(1), /proc/self is size */
	const char *files[] = {self, "/bin/ls"};
	for (size_t i = 0; i < 2; i++) {
		uint64_t t = 0;
		assert_int_equal(tl_elf_text_bytes(files[i], &t), 0);
		assert_true(t > 0);
		assert_int_equal(t, size_text(files[i]));
	}
}

static void test_not_elf(void **state)
{
	(void)state;
	uint64_t t = 1;
	assert_int_equal(tl_elf_text_bytes("/etc/passwd", &t), -1);
	assert_int_equal(tl_elf_text_bytes("/nonexistent", &t), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_text_as_size),
	    cmocka_unit_test(test_not_elf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
