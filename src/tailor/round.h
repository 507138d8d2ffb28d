/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TAILOR_ROUND_H
#define KF_TAILOR_ROUND_H

#include <stdint.h>
#include <sys/types.h>

#include "tailor/kbuild.h"
#include "tailor/outmask.h"
#include "tailor/tailor.h"

/* A workload: a footprint and the command re-run in the guest for it. */
struct tl_work {
	const char *file; /* the footprint's path, for the report */
	struct footprint *orig;
	char *const *argv;
	/*
	 * The reference run: the same initramfs and command on Debian's full 6.1 kernel, whose standard output each
	 * re-test's must equal (the host's run would see another root). NULL when there is no such kernel.
	 */
	char *ref_stdout;
	int ref_exit;
	enum tl_ref {
		TL_REF_NONE,
		TL_REF_KEPT,
		TL_REF_BOOTING
	} ref; /* round 1's reference run, until it is waited for */
};

/* What every round shares. */
struct tl_ctx {
	const char *src, *cache, *workdir;
	struct kt_index *idx;
	const struct mapdb *db;
	struct tl_work *work; /* every footprint's workload, re-tested one boot each */
	size_t nwork;
	struct tl_wants wants;
	char *ref_kernel; /* Debian's, for the reference runs (tl_reference_start) */
	bool ref_done;
	pid_t ref_pid; /* the process booting the reference runs, 0: none */
	struct tl_masks
	    masks; /* --stdout-mask: what may differ between a re-test's standard output and the reference's */
	unsigned jobs, timeout_s;
	uint64_t cache_max;
};

/* One workload's re-test in a round. */
struct tl_run {
	char *dir, *initrd;
	struct tl_retest retest;
	int stdout_same;      /* -1: no reference run to compare with; 0: differs; 1: the same bytes */
	struct footprint *fp; /* the re-test's footprint; NULL when the guest wrote none */
	struct tl_diffs diffs;
};

struct tl_round {
	int round;
	struct kt_closure closure;
	char *fragment;
	struct tl_kernel kernel;
	char **lost; /* what conf did not keep of the closure: "X: asked y, the .config has it off (depends on E)" */
	size_t nlost;
	char *bzimage;
	struct tl_run *runs; /* parallel to tl_ctx.work */
	size_t nruns;
};

/* Whether a run equals its workload's original: booted, ended with the same exit status, no call now failing. */
bool tl_run_equal(const struct tl_run *r, const struct tl_work *w);

/* Closure, build, then per workload its initramfs and re-test: 0 when the kernel was built (r says how each run
 * went), -1 after a message. */
int tl_round(struct tl_ctx *x, int round, struct tl_round *r);
void tl_round_release(struct tl_round *r);

/*
 * The reference runs (one per workload, into DIR/reference[-K]) on bzimage, Debian's full kernel: w->ref_stdout.
 * Those kept from an earlier boot are taken at once; the others boot one after another in a child process, beside
 * round 1's build and re-tests (a guest under TCG keeps one CPU busy: a workload that runs for an hour in the
 * guest costs the hour once, not twice). tl_reference_wait waits for it; a workload whose reference run did not
 * end keeps none, said on stderr. tl_reference_stop ends it (a round that failed).
 */
void tl_reference_start(struct tl_ctx *x, const char *bzimage); /* says nothing: tl_reference_wait does */
void tl_reference_wait(struct tl_ctx *x);
void tl_reference_stop(struct tl_ctx *x);
/* Debian's 6.1 kernel of the guest's cache, malloc'd; NULL when tests/guest/run has downloaded none. */
char *tl_debian_kernel(char **dir);

/* An initramfs of tailor's /init alone (no command: it says the uptime and reboots), for the boot figures. */
int tl_init_initrd(const char *path);
/* The figures of the kernels the report sets beside the tailored one (baselines.c). */
void tl_baseline_debian(struct tl_figures *f, const char *src, const char *initrd, const char *dir);
int tl_baseline_tiny(struct tl_ctx *x, struct tl_figures *f, const char *initrd, const char *dir);

#endif
