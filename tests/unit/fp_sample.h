/* SPDX-License-Identifier: GPL-2.0 */
/* A footprint built by hand through the fp__* API, shared by test_json.c and test_report.c. */
#ifndef KF_TEST_FP_SAMPLE_H
#define KF_TEST_FP_SAMPLE_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "abi/syscalls.h"
#include "footprint/footprint.h"
#include "kmap/annotate.h"
#include "util/xalloc.h"

#define MS(x) ((uint64_t)(x)*1000000ull)

static inline char **sample_argv(const char *a, const char *b, const char *c)
{
	char **v = xcalloc(4, sizeof(*v));
	int n = 0;

	if (a)
		v[n++] = xstrdup(a);
	if (b)
		v[n++] = xstrdup(b);
	if (c)
		v[n++] = xstrdup(c);
	return v;
}

static inline int sample_nr(enum kf_abi abi, const char *name)
{
	const struct kf_syscall *row = kf_syscall_by_name(abi, name);

	return row ? row->nr : -1;
}

/*
 * sh (100) runs ls (101) and wc (102); ls also makes two 32-bit open calls (an i386 ABI row), wc is killed.
 * Times are round milliseconds so that every report's numbers can be written down exactly.
 */
static inline struct footprint *sample_fp(void)
{
	struct footprint *fp = fp__new();
	struct fp_proc *sh, *ls, *wc;
	const enum kf_abi x64 = KF_ABI_X86_64;

	fp->host_kernel = xstrdup("6.18.44");
	fp->host_arch = xstrdup("x86_64");
	fp->argv = sample_argv("sh", "-c", "ls /tmp | wc -l");
	fp->label = xstrdup("startup");
	fp->user = xstrdup("root");
	fp->backend = xstrdup("ptrace");
	fp->started_at = xstrdup("2026-11-29T10:00:00Z");
	fp->elapsed_s = 0.5;
	fp->exit = (struct fp_exit){FP_EXIT_CODE, 0, false};

	sh = fp__proc_new(fp, 100, 99, 0);
	strcpy(sh->comm, "sh");
	sh->exe = xstrdup("/usr/bin/dash");
	fp__proc_set_argv(sh, sample_argv("sh", "-c", "ls /tmp | wc -l"));
	ls = fp__proc_new(fp, 101, 100, MS(100));
	fp__proc_exec(fp, ls, "/usr/bin/ls", sample_argv("ls", "/tmp", NULL), "ls");
	wc = fp__proc_new(fp, 102, 100, MS(110));
	fp__proc_exec(fp, wc, "/usr/bin/wc", sample_argv("wc", "-l", NULL), "wc");

	fp__account(fp, ls, x64, sample_nr(x64, "openat"), 0, 7, MS(7));
	fp__account(fp, ls, x64, sample_nr(x64, "openat"), ENOENT, 3, MS(3));
	fp__account(fp, wc, x64, sample_nr(x64, "read"), 0, 12, MS(24));
	fp__account(fp, sh, x64, sample_nr(x64, "wait4"), 0, 2, MS(300));
	fp__account(fp, sh, x64, sample_nr(x64, "wait4"), ECHILD, 1, 0);
	fp__account(fp, ls, x64, sample_nr(x64, "exit_group"), 0, 1, 0);
	fp__account(fp, sh, x64, sample_nr(x64, "exit_group"), 0, 1, 0);
	fp__account(fp, sh, x64, sample_nr(x64, "clone"), 0, 2, MS(2));
	fp__account(fp, ls, KF_ABI_I386, sample_nr(KF_ABI_I386, "open"), 0, 1, MS(1));
	fp__account(fp, ls, KF_ABI_I386, sample_nr(KF_ABI_I386, "open"), EACCES, 1, MS(1));

	fp__open(fp, ls, "/etc/ld.so.cache", O_RDONLY, 0, 2);
	fp__open(fp, ls, "/nonexistent", O_RDONLY, ENOENT, 3);
	fp__open(fp, ls, "/tmp/rw", O_RDWR, 0, 1);
	fp__open(fp, sh, "/dev/null", O_WRONLY, 0, 1);

	fp__proc_exit(fp, ls, (struct fp_exit){FP_EXIT_CODE, 0, false}, MS(350));
	fp__proc_exit(fp, wc, (struct fp_exit){FP_EXIT_SIGNAL, SIGKILL, true}, MS(1360));
	/* sh is left running: its end is unknown */
	annotate_classes(fp); /* as kfootprint record does before saving or rendering */
	return fp;
}

#endif
