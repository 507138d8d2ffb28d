/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TAILOR_H
#define KF_TAILOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktree/ktree.h"

struct footprint;

/*
 * kfootprint tailor (docs/tailor.md): the options footprints need, closed over the tree's Kconfig, built into a
 * kernel (kbuild.h), booted under QEMU with an initramfs of the workload's own files (initramfs.h) where the
 * workload runs again under kfootprint's ptrace recorder; the two footprints compared, and what differs added
 * back, for a bounded number of rounds.
 */

/*
 * A row of the baselet: an option booting and re-testing need, and why; boot: what the recorded boot
 * (tests/fixtures/tailor-boot.json) shows of it (a call of its mapping or a kernel function of its files), NULL
 * for a row that stays table-driven; unseen: then why a recorded boot cannot show it.
 */
struct tl_base {
	const char *option, *why, *boot, *unseen;
};
const struct tl_base *tl_baselet(size_t *n);

/* An option wanted, with why (malloc'd), for the fragment's comments and the report. */
struct tl_want {
	char *option;
	char value; /* 'y' or 'n' */
	char *why;
	int round; /* 0: from the footprints and the baselet; N: added after round N's re-test */
};

struct tl_wants {
	struct tl_want *v;
	size_t n, cap;
};
/* Adds (or, for one already there, keeps the first why of) an option. */
void tl_wants_add(struct tl_wants *w, const char *option, char value, const char *why, int round);
bool tl_wants_has(const struct tl_wants *w, const char *option);
void tl_wants_release(struct tl_wants *w);

/*
 * The options the footprint's mapping (the built-in database) needs on, and those only needed off, into w.
 * 0, or -1 after a message.
 */
struct mapdb;
int tl_needs(struct footprint *fp, const struct mapdb *db, struct tl_wants *w); /* db outlives fp */

/*
 * The kernel's conf is the judge: the needs of c whose value the .config text (as conf wrote it) does not have,
 * each "X: asked on, the .config has it off (depends on E)" (E from idx, which may be NULL); *lost malloc'd.
 */
size_t tl_not_kept(const struct kt_closure *c, const char *config, const struct kt_index *idx, char ***lost);

/* The fragment of a closure: CONFIG_X=y for each option a fragment can set, a comment naming why. malloc'd. */
char *tl_fragment(const struct kt_closure *c, const struct tl_wants *w);

/* One re-test in QEMU. */
struct tl_retest {
	const char *bzimage, *initrd, *dir; /* dir: where the guest's outputs go */
	unsigned timeout_s, mem_mb;
	/* out */
	char *console, *footprint, *stdout_path; /* files in dir */
	bool booted;				 /* /init ran */
	bool ended;				 /* the command ended and init said how */
	int exit_code;				 /* the command's, when ended */
	double seconds;				 /* QEMU's run, wall */
};
int tl_retest_run(struct tl_retest *r);
/* The outputs' paths in r->dir, and what the console says of how the run went (booted, ended, exit_code). */
void tl_retest_read(struct tl_retest *r);
/*
 * QEMU x86_64 under TCG booting bzimage with initrd (console=ttyS0), bounded by timeout(1); extra: more of QEMU's
 * arguments (NULL-terminated); serials: the files of ttyS0, ttyS1, ... (NULL-terminated). timeout's
 * exit status (124: the bound). QEMU's own output goes to log_fd (-1: nowhere).
 */
int tl_qemu(const char *bzimage, const char *initrd, unsigned timeout_s, unsigned mem_mb, const char *const *extra,
	    const char *const *serials, int log_fd);
void tl_retest_release(struct tl_retest *r);

/* What a re-test did that the original did not: a call of the original's that now fails. */
struct tl_diff {
	char *syscall; /* "socket" */
	char *abi;
	int err;		  /* the errno it fails with now */
	unsigned long long calls; /* how many failed so */
	char **options;		  /* the options its mapping names, NULL-terminated */
};
struct tl_diffs {
	struct tl_diff *v;
	size_t n, cap;
};
/* Calls that succeeded in orig and fail in retest with an errno that says missing kernel code. */
int tl_compare(const struct footprint *orig, struct footprint *retest, const struct mapdb *db, struct tl_diffs *d);
void tl_diffs_release(struct tl_diffs *d);

/* The figures of one kernel for the report (figures.c). */
struct tl_figures {
	char *name;		/* "tailored", "Debian 6.1.0-57-amd64", "tinyconfig 64-bit + the baselet" */
	char *why_not;		/* set when there are no figures, and why */
	uint64_t bzimage, text; /* bytes: the bzImage; vmlinux's text (size(1)) */
	bool have_text;
	unsigned opt_y, opt_m;
	double boot_s; /* kernel start to /init, QEMU's -icount shift=2 clock */
	bool have_boot;
	size_t files; /* compiled files of the configuration on the tree (kfootprint inventory's list) */
	long sloc;    /* their code lines */
	bool have_sloc;
};
/* size(1)'s text of an ELF64 file: 0, or -1 when it cannot be read as one. */
int tl_elf_text_bytes(const char *path, uint64_t *text);
/* f's figures from the files (vmlinux, config, initrd may be NULL: no such figure); boots write in dir. */
void tl_figures_of(struct tl_figures *f, const char *bzimage, const char *vmlinux, const char *config,
		   const char *initrd, const char *dir);
/* f's compiled files and SLOC: the inventory of the tree with the configuration (seconds: cached SLOC). */
void tl_figures_sloc(struct tl_figures *f, const char *src, const char *config);
void tl_figures_release(struct tl_figures *f);

/*
 * tailor --measure (measure.c): a measurement build of the tailored .config of dir (or config, or the baselet):
 * kcov or gcov, debugfs, DWARF, function_graph, and the options tests/guest/run's harness boots with, built by
 * the cached builder, conf judging every added option kept; bzImage, vmlinux, .config, fragment and cmdline
 * (nokaslr) into dir/measure-METHOD, the bzImage's path on stdout. 0, or -1 after a message.
 */
struct tl_measure {
	const char *method; /* "kcov" or "gcov" */
	const char *dir, *config, *kernel_src;
	unsigned jobs;
};
int tl_measure(const struct tl_measure *m);

#endif
