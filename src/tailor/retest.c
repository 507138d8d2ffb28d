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

int tl_qemu(const char *bzimage, const char *initrd, unsigned timeout_s, unsigned mem_mb, const char *const *extra,
	    const char *const *serials, int log_fd)
{
	char *t = xasprintf("%u", timeout_s ? timeout_s : 300), *m = xasprintf("%u", mem_mb ? mem_mb : 512);
	const char *head[] = {"timeout",
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
			      bzimage,
			      "-initrd",
			      initrd,
			      "-append",
			      "console=ttyS0 panic=-1 quiet"};
	size_t nh = sizeof(head) / sizeof(head[0]), ne = 0, ns = 0;
	while (extra[ne])
		ne++;
	while (serials[ns])
		ns++;
	const char **argv = xcalloc(nh + ne + 2 * ns + 1, sizeof(*argv));
	char **ports = xcalloc(ns + 1, sizeof(*ports));
	memcpy(argv, head, sizeof(head));
	for (size_t i = 0; i < ne; i++)
		argv[nh + i] = extra[i];
	for (size_t i = 0; i < ns; i++) {
		ports[i] = xasprintf("file:%s", serials[i]);
		argv[nh + ne + 2 * i] = "-serial";
		argv[nh + ne + 2 * i + 1] = ports[i];
	}
	int st = tl_spawn((char **)argv, log_fd, NULL, NULL);
	for (size_t i = 0; i < ns; i++)
		free(ports[i]);
	free(ports);
	free(argv);
	free(t);
	free(m);
	return st;
}

static void retest_paths(struct tl_retest *r)
{
	if (!r->console) {
		r->console = xasprintf("%s/console.log", r->dir);
		r->footprint = xasprintf("%s/retest.json", r->dir);
		r->stdout_path = xasprintf("%s/retest.stdout", r->dir);
	}
}

void tl_retest_read(struct tl_retest *r)
{
	retest_paths(r);
	char *con = slurp(r->console);
	const char *e = con ? strstr(con, "kf-init: exit ") : NULL;
	r->booted = con && strstr(con, "kf-init: running ");
	r->ended = e != NULL;
	if (e)
		r->exit_code = atoi(e + strlen("kf-init: exit "));
	free(con);
}

int tl_retest_run(struct tl_retest *r)
{
	retest_paths(r);
	const char *serials[] = {r->console, r->footprint, r->stdout_path, NULL};
	unsigned timeout = r->timeout_s ? r->timeout_s : 300;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	const char *const none[] = {NULL};
	int st = tl_qemu(r->bzimage, r->initrd, timeout, r->mem_mb, none, serials, 2);
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	int rc = 0;
	if (st == 124 || st == 137)
		rc = error("tailor: the guest did not end within %u s (--timeout)", timeout);
	else if (st != 0)
		rc = error("tailor: qemu-system-x86_64 failed (status %d)", st);
	tl_retest_read(r);
	return rc;
}

void tl_retest_release(struct tl_retest *r)
{
	free(r->console);
	free(r->footprint);
	free(r->stdout_path);
	r->console = r->footprint = r->stdout_path = NULL;
}
