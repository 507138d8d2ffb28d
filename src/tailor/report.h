/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TAILOR_REPORT_H
#define KF_TAILOR_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "tailor/outmask.h"
#include "tailor/tailor.h"

/*
 * tailor's report as data: the guide's "observed path, source/configuration mapping, and result of re-testing
 * after the change", one entry a round (what it asked, what the closure made of it, how each workload's re-test
 * went, what it added and why), then the figures of the kernel beside Debian's and a 64-bit tinyconfig's. Made
 * by cmd/tailor.c, rendered by src/report/tailor_render.c (text, json) into -o DIR; every string is owned here.
 */
struct tl_report_run {
	char *file, *command;
	bool booted, ended;
	int exit_code, orig_exit;
	double seconds;
	int stdout_same; /* -1: not compared (no reference run); 0, 1 */
	char **diffs;	 /* "socket now fails with EAFNOSUPPORT (1 calls): UNIX" */
	size_t ndiffs;
};

struct tl_report_round {
	int round;
	char key[17];
	bool cached;
	double kernel_s; /* the kernel step, conf and make (or the cache), wall */
	size_t asked, closure;
	char **unmet; /* "OPTION: why" */
	size_t nunmet;
	char **lost; /* what the kernel's conf did not keep of the closure (round.h) */
	size_t nlost;
	struct tl_report_run *runs;
	size_t nruns;
	char **added; /* "UNIX: socket failed with EAFNOSUPPORT in round 1" */
	size_t nadded;
	bool equal;
};

struct tl_report {
	char *tree; /* "Linux 6.1.192 (/var/cache/kfootprint/tailor/src/linux-source-6.1)" */
	struct tl_report_round *rounds;
	size_t nrounds;
	bool passed;
	struct tl_figures fig[3]; /* the tailored kernel, Debian's, tinyconfig 64-bit with the baselet */
	size_t nfig;
	char *masks[TL_MASKS_MAX]; /* --stdout-mask's expressions, as given */
	size_t nmasks;
};

struct tl_report_round *tl_report_round_add(struct tl_report *r);
void tl_report_release(struct tl_report *r);

#endif
