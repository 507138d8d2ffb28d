// SPDX-License-Identifier: GPL-2.0
/* running.c against the real /proc of this machine, checked with a second reader (zcat, grep), and on files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include "kernel/running.h"

/*
 * cmocka's skip() takes no reason, and writes "not ok N - name # SKIP" in TAP, which tests/run.sh counts as a
 * skip: the reason goes first, on a "# SKIP" line of its own that the runner shows.
 */
#define skip_because(why)                          \
	do {                                       \
		print_message("# SKIP %s\n", why); \
		skip();                            \
	} while (0)

/* One line of output of a shell command, or "" */
static void sh_line(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");

	buf[0] = '\0';
	if (!p)
		return;
	if (!fgets(buf, (int)len, p))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	pclose(p);
}

static void test_real_config(void **state)
{
	struct kf_running r;
	char want[256];

	(void)state;
	if (access("/proc/config.gz", R_OK))
		skip_because("no /proc/config.gz: this kernel lacks CONFIG_IKCONFIG_PROC");
	kf_running__load(&r, NULL, NULL);
	assert_true(r.have_config);
	assert_string_equal(kf_running_config(&r, "CONFIG_EVENTFD"), "y");
	assert_string_equal(kf_running_config(&r, "EVENTFD"), "y");
	/* every option agrees with zcat, set or not */
	static const char *const opts[] = {"MODULES",	   "KEXEC", "NET",	  "FUTEX",	     "X86_IOPL_IOPERM",
					   "LOCALVERSION", "HZ",    "MEMBARRIER", "NO_SUCH_OPTION_X"};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "zcat /proc/config.gz | sed -n 's/^CONFIG_%s=//p'", opts[i]);
		sh_line(cmd, want, sizeof(want));
		assert_string_equal(kf_running_config(&r, opts[i]), want[0] ? want : "n");
	}
	/* the set options and the "is not set" ones are listed */
	sh_line("zcat /proc/config.gz | grep -cE '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)'", want,
		sizeof(want));
	assert_int_equal(r.ncfg, strtoul(want, NULL, 10));
	kf_running__release(&r);
}

static void test_real_kallsyms(void **state)
{
	struct kf_running r;
	char want[64];

	(void)state;
	kf_running__load(&r, NULL, NULL);
	sh_line("grep -c ' __x64_sys_' /proc/kallsyms", want, sizeof(want));
	if (!r.have_kallsyms || atoi(want) == 0) {
		kf_running__release(&r);
		skip_because("/proc/kallsyms lists no __x64_sys_ entry points here (kptr_restrict, or not x86_64)");
	}
	assert_int_equal(kf_running_syscall(&r, KF_ABI_X86_64, "sys_eventfd2"), KF_RUN_BUILTIN);
	assert_int_equal(kf_running_syscall(&r, KF_ABI_X86_64, "eventfd2"), KF_RUN_BUILTIN);
	/* kexec_load: the weak COND_SYSCALL stub when CONFIG_KEXEC is off (as here), else the real one */
	sh_line("grep -c ' W __x64_sys_kexec_load$' /proc/kallsyms", want, sizeof(want));
	assert_int_equal(kf_running_syscall(&r, KF_ABI_X86_64, "sys_kexec_load"),
			 atoi(want) ? KF_RUN_STUB : KF_RUN_BUILTIN);
	/* and that is what this kernel's configuration says: without CONFIG_KEXEC only the stub is left */
	if (kf_running_config(&r, "KEXEC") && !strcmp(kf_running_config(&r, "KEXEC"), "n"))
		assert_string_equal(want, "1");
	assert_int_equal(kf_running_syscall(&r, KF_ABI_X86_64, "sys_no_such_call"), KF_RUN_ABSENT);
	assert_int_equal(kf_running_syscall(&r, KF_ABI_X86_64, NULL), KF_RUN_ABSENT);
	/* i386 through IA32 emulation: stat goes to the compat newstat */
	sh_line("grep -c ' T __ia32_compat_sys_newstat$' /proc/kallsyms", want, sizeof(want));
	assert_int_equal(kf_running_syscall(&r, KF_ABI_I386, "sys_newstat"),
			 atoi(want) ? KF_RUN_BUILTIN : KF_RUN_ABSENT);
	kf_running__release(&r);
}

static void test_real_release(void **state)
{
	struct kf_running r;
	struct utsname u;
	int v, p;

	(void)state;
	kf_running__load(&r, NULL, NULL);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(r.release, u.release);
	assert_int_equal(kf_parse_version(u.release, &v, &p), 0);
	assert_int_equal(r.version, v);
	assert_int_equal(r.patchlevel, p);
	assert_true(r.version >= 3);
	kf_running__release(&r);
}

static void test_parse_version(void **state)
{
	int v = 0, p = 0;

	(void)state;
	assert_int_equal(kf_parse_version("6.18.44-fc-v782", &v, &p), 0);
	assert_int_equal(v, 6);
	assert_int_equal(p, 18);
	assert_int_equal(kf_parse_version("6.1", &v, &p), 0);
	assert_int_equal(p, 1);
	assert_int_equal(kf_parse_version("six", &v, &p), -1);
	assert_int_equal(kf_parse_version("6", &v, &p), -1);
	assert_int_equal(kf_parse_version("", &v, &p), -1);
}

static void test_files(void **state)
{
	char cfg[] = "/tmp/kf-cfg.XXXXXX", ks[] = "/tmp/kf-ks.XXXXXX";
	struct kf_running r;
	FILE *f;
	int fd;

	(void)state;
	fd = mkstemp(cfg);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("#\n# CONFIG_MODULES is not set\nCONFIG_NET=y\nCONFIG_HZ=250\nCONFIG_LOCALVERSION=\"-x\"\n", f);
	fclose(f);
	fd = mkstemp(ks);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("0000000000000000 T __x64_sys_read\n0000000000000000 W __x64_sys_kexec_load\n"
	      "0000000000000000 t __x64_sys_local\n0000000000000000 T unrelated\n",
	      f);
	fclose(f);
	kf_running__load(&r, cfg, ks);
	assert_true(r.have_config);
	assert_true(r.have_kallsyms);
	assert_string_equal(kf_running_config(&r, "NET"), "y");
	assert_string_equal(kf_running_config(&r, "MODULES"), "n");
	assert_string_equal(kf_running_config(&r, "NOSUCH"), "n");
	/* "is not set" names the option; an option the config does not name is absent */
	assert_true(kf_running_config_listed(&r, "CONFIG_MODULES"));
	assert_true(kf_running_config_listed(&r, "NET"));
	assert_false(kf_running_config_listed(&r, "NOSUCH"));
	assert_string_equal(kf_running_config(&r, "HZ"), "250");
	assert_string_equal(kf_running_config(&r, "LOCALVERSION"), "\"-x\"");
	assert_int_equal(kf_running_syscall(&r, KF_ABI_X86_64, "sys_read"), KF_RUN_BUILTIN);
	assert_int_equal(kf_running_syscall(&r, KF_ABI_X86_64, "sys_kexec_load"), KF_RUN_STUB);
	assert_int_equal(kf_running_syscall(&r, KF_ABI_X86_64, "sys_local"), KF_RUN_BUILTIN);
	assert_int_equal(kf_running_syscall(&r, KF_ABI_X86_64, "sys_write"), KF_RUN_ABSENT);
	assert_int_equal(r.nsyms, 3);
	kf_running__release(&r);

	/* missing files: unknown, with a reason, never a failure */
	kf_running__load(&r, "/nonexistent/config.gz", "/nonexistent/kallsyms");
	assert_false(r.have_config);
	assert_false(r.have_kallsyms);
	assert_non_null(r.config_why);
	assert_non_null(strstr(r.kallsyms_why, "No such file"));
	assert_null(kf_running_config(&r, "NET"));
	assert_int_equal(kf_running_syscall(&r, KF_ABI_X86_64, "sys_read"), KF_RUN_UNKNOWN);
	assert_string_equal(kf_run_status_name(KF_RUN_UNKNOWN), "unknown");
	kf_running__release(&r);
	unlink(cfg);
	unlink(ks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_real_config),	 cmocka_unit_test(test_real_kallsyms),
	    cmocka_unit_test(test_real_release), cmocka_unit_test(test_parse_version),
	    cmocka_unit_test(test_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
