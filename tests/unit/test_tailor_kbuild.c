// SPDX-License-Identifier: GPL-2.0
/*
 * tailor's kernel builder, its configuration stage on a real tree ($KF_KSRC, set by tests/integration/tailor.sh;
 * skipped without it): the tree's own kconfig judges a fragment, the .config names the build directory (the same
 * configuration, the same directory; another, another), bad trees and fragments give one line and leave nothing;
 * conf's answer for a fragment of a complete build is kept, so that a rerun asks conf nothing.
 * The build itself (minutes) is in make check-long (tests/long/tailor_build.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "tailor/kbuild.h"
#include "tailor/tailor.h"

static char cache[] = "/tmp/kf-tailor-test.XXXXXX";

static int setup(void **state)
{
	return mkdtemp(cache) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd = NULL;
	if (asprintf(&cmd, "rm -rf '%s'", cache) > 0 && system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", cache);
	free(cmd);
	return 0;
}

static size_t entries(const char *dir)
{
	char *cmd = NULL;
	size_t n = 0;
	assert_true(asprintf(&cmd, "ls -A '%s' | grep -c '^conf\\.'", dir) > 0);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	if (fscanf(p, "%zu", &n) != 1)
		n = 0;
	pclose(p);
	free(cmd);
	return n;
}

static void test_config_stage(void **state)
{
	const char *src = getenv("KF_KSRC");
	if (!src)
		skip();
	struct tl_kernel a, b, c;
	assert_int_equal(tl_kernel_config(src, cache, "CONFIG_64BIT=y\nCONFIG_EXT4_FS=y\n", &a), 0);
	assert_non_null(strstr(a.config, "\nCONFIG_EXT4_FS=y\n"));
	assert_non_null(strstr(a.config, "\nCONFIG_64BIT=y\n"));
	assert_false(a.built);
	struct stat st;
	assert_int_equal(stat(a.dir, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* the same fragment: the same directory */
	assert_int_equal(tl_kernel_config(src, cache, "CONFIG_64BIT=y\nCONFIG_EXT4_FS=y\n", &b), 0);
	assert_string_equal(a.dir, b.dir);
	/* an option whose dependencies are not met is dropped by conf, so the configuration is 64BIT's alone */
	assert_int_equal(tl_kernel_config(src, cache, "CONFIG_64BIT=y\nCONFIG_EXPERT=y\nCONFIG_EXT4_FS=y\n", &c), 0);
	assert_string_not_equal(a.dir, c.dir);
	assert_null(strstr(c.config, "\nCONFIG_EXT4_FS=y\n"));
	/* conf, the judge: what a closure asked and the .config lacks is said, never dropped silently */
	struct kt_need asked[] = {{.option = "64BIT", .value = 'y'},
				  {.option = "EXT4_FS", .value = 'y'},
				  {.option = "MODULES", .value = 'n'}};
	struct kt_closure cl = {.needs = asked, .nneeds = 3};
	char **lost = NULL;
	assert_int_equal(tl_not_kept(&cl, a.config, NULL, &lost), 0);
	assert_int_equal(tl_not_kept(&cl, c.config, NULL, &lost), 1);
	assert_string_equal(lost[0], "EXT4_FS: asked on, the .config has it off");
	free(lost[0]);
	free(lost);
	/* nothing of the attempts is left behind but the build directories */
	char *builds = NULL;
	assert_true(asprintf(&builds, "%s/build", cache) > 0);
	assert_int_equal(entries(builds), 0);
	free(builds);
	tl_kernel_release(&a);
	tl_kernel_release(&b);
	tl_kernel_release(&c);
}

static void sh(const char *fmt, const char *a, const char *b)
{
	char *cmd = NULL;
	assert_true(asprintf(&cmd, fmt, a, b) > 0);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/*
 * A rerun of a complete build takes conf's .config from <cache>/conf: with conf's directory closed to the build
 * user (conf cannot run), the same fragment still configures, from the cache; another fragment, or a kept
 * answer that is not root's, needs conf and fails.
 */
static void test_conf_kept(void **state)
{
	const char *src = getenv("KF_KSRC"), *frag = "CONFIG_64BIT=y\nCONFIG_TTY=y\n";
	if (!src || geteuid() != 0)
		skip();
	struct tl_kernel a, d, e, f;
	assert_int_equal(tl_kernel_config(src, cache, frag, &a), 0);
	assert_false(a.cached);
	sh("mkdir -p '%s' && touch '%s/.kf-complete'", a.out, a.out);
	char *kdir = NULL;
	assert_true(asprintf(&kdir, "%s/kconfig-%s", cache, a.version) > 0);
	sh("chmod 0500 '%s'%s", kdir, "");
	assert_int_equal(tl_kernel_config(src, cache, frag, &d), 0);
	assert_true(d.cached && d.built);
	assert_string_equal(d.key, a.key);
	assert_string_equal(d.config, a.config);
	assert_int_equal(tl_kernel_config(src, cache, "CONFIG_64BIT=y\nCONFIG_TTY=y\nCONFIG_UNIX=y\n", &e), -1);
	sh("chown nobody '%s'/conf/*%s", cache, "");
	assert_int_equal(tl_kernel_config(src, cache, frag, &f), -1);
	sh("chmod 0755 '%s'%s", kdir, "");
	free(kdir);
	tl_kernel_release(&a);
	tl_kernel_release(&d);
	tl_kernel_release(&e);
	tl_kernel_release(&f);
}

static void test_bad_tree(void **state)
{
	struct tl_kernel k;
	assert_int_equal(tl_kernel_config("/usr/share", cache, "CONFIG_64BIT=y\n", &k), -1);
	tl_kernel_release(&k);
	assert_null(tl_source("/usr/share", cache));
	assert_null(tl_source("/nonexistent/tree", cache));
}

int main(void)
{
	/* cmocka's TAP output reports skip() as "not ok ... # SKIP", which the runner counts as a failure */
	if (!getenv("KF_KSRC") || !*getenv("KF_KSRC")) {
		printf("1..1\nok 1 - tailor_kbuild # SKIP KF_KSRC is not set (tests/integration/tailor.sh sets it)\n");
		return 0;
	}
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_config_stage),
	    cmocka_unit_test(test_conf_kept),
	    cmocka_unit_test(test_bad_tree),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
