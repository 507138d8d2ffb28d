// SPDX-License-Identifier: GPL-2.0
/*
 * Who to ask (kmap/kmaint.c) on made-up sections with the shapes get_maintainer.pl (6.1) treats apart: a name to
 * quote, a bare address, roles from S:, a person named twice, the chief penguin, a moderated and a
 * subscribers-only list, THE REST's list, a section name past 50 characters. The real tree is checked against the
 * script itself in tests/integration/map_maintainers.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kmap/kmaint.h"

static void test_lines(void **state)
{
	char *m1[] = {"\"David S. Miller\" <davem@davemloft.net>", "Plain Name <plain@example.org>", "x86@kernel.org"};
	char *r1[] = {"Theodore Ts'o <tytso@mit.edu>", "Plain Name <other@example.org>"};
	char *l1[] = {"alsa-devel@alsa-project.org (moderated for non-subscribers)",
		      "secret@example.org (subscribers-only)"};
	char *m2[] = {"Odd Person <odd@example.org>", "plain@example.org"};
	char *l2[] = {"alsa-devel@alsa-project.org", "second@example.org"};
	char *m3[] = {"Linus Torvalds <torvalds@linux-foundation.org>"};
	char *l3[] = {"linux-kernel@vger.kernel.org"};
	struct kt_section s[] = {
	    {.name = "SOUND",
	     .status = "Supported",
	     .maintainers = m1,
	     .nmaintainers = 3,
	     .reviewers = r1,
	     .nreviewers = 2,
	     .lists = l1,
	     .nlists = 2},
	    {.name = "A SECTION WHOSE NAME IS LONGER THAN FIFTY CHARACTERS IN ALL",
	     .status = "Odd Fixes",
	     .maintainers = m2,
	     .nmaintainers = 2,
	     .lists = l2,
	     .nlists = 2},
	    {.name = "THE REST",
	     .status = "Buried alive in reporters",
	     .maintainers = m3,
	     .nmaintainers = 1,
	     .lists = l3,
	     .nlists = 1},
	};
	struct kt_section_match m[] = {{&s[0], 2}, {&s[1], 1}, {&s[2], -1}};
	static const char *const want[][2] = {
	    {"\"David S. Miller\" <davem@davemloft.net>", "supporter:SOUND"},
	    {"Plain Name <plain@example.org>", "supporter:SOUND"},
	    {"x86@kernel.org", "supporter:SOUND"},
	    {"\"Theodore Ts'o\" <tytso@mit.edu>", "reviewer:SOUND"},
	    /* "Plain Name" again (another address), "plain@example.org" again (no name): named once */
	    {"Odd Person <odd@example.org>", "odd fixer:A SECTION WHOSE NAME IS LONGER THAN FIFTY CHARA..."},
	    {"alsa-devel@alsa-project.org", "moderated list:SOUND"},
	    {"second@example.org", "open list:A SECTION WHOSE NAME IS LONGER THAN FIFTY CHARA..."},
	    {"linux-kernel@vger.kernel.org", "open list"},
	};
	struct kmap_person *p = NULL;
	size_t n = kmap_maintainers(m, 3, &p);

	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(p[i].who, want[i][0]);
		assert_string_equal(p[i].role, want[i][1]);
	}
	kmap_maintainers_free(p, n);
	assert_int_equal(kmap_maintainers(NULL, 0, &p), 0);
	kmap_maintainers_free(p, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
