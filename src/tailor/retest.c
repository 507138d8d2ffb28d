// SPDX-License-Identifier: GPL-2.0
// The re-test's guest: the tailored kernel under QEMU (TCG here) with the initramfs, its three serial ports to
// files (kf-init.c says which is which), bounded in time by coreutils' timeout so that a kernel that hangs at boot
// costs the bound, not the run.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tailor/spawn.h"
#include "tailor/tailor.h"
#include "util/error.h"
#include "util/xalloc.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return xstrdup("");
	}
	return buf;
}

int tl_retest_run(struct tl_retest *r)
{
	r->console = xasprintf("%s/console.log", r->dir);
	r->footprint = xasprintf("%s/retest.json", r->dir);
	r->stdout_path = xasprintf("%s/retest.stdout", r->dir);
	char *s0 = xasprintf("file:%s", r->console), *s1 = xasprintf("file:%s", r->footprint);
	char *s2 = xasprintf("file:%s", r->stdout_path), *t = xasprintf("%u", r->timeout_s ? r->timeout_s : 300);
	char *m = xasprintf("%u", r->mem_mb ? r->mem_mb : 512);
	char *argv[] = {"timeout",
			"--kill-after=5",
			t,
			"qemu-system-x86_64",
			"-nodefaults",
			"-no-user-config",
			"-display",
			"none",
			"-no-reboot",
			"-accel",
			"tcg",
			"-cpu",
			"max",
			"-m",
			m,
			"-kernel",
			(char *)r->bzimage,
			"-initrd",
			(char *)r->initrd,
			"-append",
			"console=ttyS0 panic=-1 quiet",
			"-serial",
			s0,
			"-serial",
			s1,
			"-serial",
			s2,
			NULL};
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	int st = tl_spawn(argv, 2, NULL, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	int rc = 0;
	if (st == 124 || st == 137)
		rc = error("tailor: the guest did not end within %s s (--timeout)", t);
	else if (st != 0)
		rc = error("tailor: qemu-system-x86_64 failed (status %d)", st);
	char *con = slurp(r->console);
	const char *e = con ? strstr(con, "kf-init: exit ") : NULL;
	r->booted = con && strstr(con, "kf-init: running ");
	r->ended = e != NULL;
	if (e)
		r->exit_code = atoi(e + strlen("kf-init: exit "));
	free(con);
	free(s0);
	free(s1);
	free(s2);
	free(t);
	free(m);
	return rc;
}

void tl_retest_release(struct tl_retest *r)
{
	free(r->console);
	free(r->footprint);
	free(r->stdout_path);
	r->console = r->footprint = r->stdout_path = NULL;
}
