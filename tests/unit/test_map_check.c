// SPDX-License-Identifier: GPL-2.0
/*
 * The map's self-check against the running kernel (kmap/kmap_check.h, issue 25): a footprint whose fcntl(F_NOTIFY)
 * calls succeeded, mapped with the built-in database and a running configuration without DNOTIFY, is one
 * contradiction; calls that all failed are none; an option the configuration does not name is none across
 * versions; a footprint of another kernel is not checked.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "abi/syscalls.h"
#include "footprint/footprint.h"
#include "kmap/annotate.h"
#include "kmap/kmap.h"
#include "kmap/kmap_check.h"
#include "kmap/mapdb.h"
#include "util/xalloc.h"

static void load_running(struct kf_running *r, const char *config)
{
	char cfg[] = "/tmp/kf-cfg.XXXXXX";
	int fd = mkstemp(cfg);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(config, f);
	fclose(f);
	kf_running__load(r, cfg, "/nonexistent/kallsyms");
	unlink(cfg);
	assert_true(r->have_config);
}

static void test_contradiction(void **state)
{
	struct footprint *fp = fp__new();
	struct fp_proc *p = fp__proc_new(fp, 100, 99, 0);
	int fcntl_nr = kf_syscall_by_name(KF_ABI_X86_64, "fcntl")->nr;
	int socket_nr = kf_syscall_by_name(KF_ABI_X86_64, "socket")->nr;
	struct kf_running run;
	struct kmap_contra *c;
	size_t n;
	char *err = NULL;

	(void)state;
	/* DNOTIFY off; CRYPTO_USER off (the netlink protocol's calls all failed); FILE_LOCKING not named */
	load_running(&run, "# CONFIG_DNOTIFY is not set\nCONFIG_NET=y\n# CONFIG_CRYPTO_USER is not set\n");
	fp->host_kernel = xstrdup(run.release);
	fp->reach = true;
	fp__account(fp, p, KF_ABI_X86_64, fcntl_nr, 0, 5, 0);
	fp__reach(fp, p, KF_ABI_X86_64, fcntl_nr, "fcntl", "F_NOTIFY", NULL, 0, 2);
	fp__reach(fp, p, KF_ABI_X86_64, fcntl_nr, "fcntl", "F_SETLEASE", NULL, 0, 3);
	fp__account(fp, p, KF_ABI_X86_64, socket_nr, EPROTONOSUPPORT, 1, 0);
	fp__reach(fp, p, KF_ABI_X86_64, socket_nr, "socket", "AF_NETLINK:SOCK_RAW:NETLINK_CRYPTO", NULL,
		  EPROTONOSUPPORT, 1);
	struct mapdb *db = mapdb_builtin(KF_ABI_X86_64, &err);
	assert_non_null(db);
	const struct fp_kernel_map *m = annotate_kernel(fp, db, &run, "test");

	assert_int_equal(kmap_check(m, &c, &n), KMAP_CHECKED);
	assert_int_equal(n, m->mismatch ? 1 : 2);
	assert_string_equal(c[0].by, "fcntl F_NOTIFY");
	assert_string_equal(c[0].option, "DNOTIFY");
	assert_string_equal(c[0].running, "n");
	assert_int_equal(c[0].ok, 2);
	free(c);

	/* recorded elsewhere: nothing to say of this kernel */
	((struct fp_kernel_map *)m)->recorded_on = "0.0.0-elsewhere";
	assert_int_equal(kmap_check(m, &c, &n), KMAP_CHECK_OTHER_KERNEL);
	assert_int_equal(n, 0);
	free(c);
	fp__free(fp);
	mapdb_free(db);
	kf_running__release(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_contradiction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
