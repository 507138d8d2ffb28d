/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_KNEEDS_H
#define KF_KMAP_KNEEDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The options a footprint needs, as data: what the Kconfig fragment (map -F kconfig) renders, what diff compares
 * and what `tailor` will build a kernel from. Made from a mapping (its syscalls, what their calls reached, its
 * kernel functions) by the annotate stage, kneeds_build(); every string is the mapping's or the databases', or
 * owned here, so that a renderer resolves nothing.
 *
 * One entry per option: the value wanted, the items that want it (required syscalls and refinements, kernel
 * functions by their files; probes and calls that all failed, which do not make it wanted), and the Kconfig facts
 * of its entry. Then the closure over Kconfig (ktree.h kt_closure, the solver tailor uses): what a fragment on
 * allnoconfig must carry so that every option wanted survives `conf`: the ABI's own options (64BIT for x86_64,
 * abi set), and the entries brought in, each with `via`, the entry whose `depends on`, prompt, default or select
 * needs it, and the condition that does. The closure reads the tree's Kconfig, or the facts a database carries.
 */
enum kneed_want {
	KNEED_NONE, /* only probes or calls that all failed reach it: left out of the fragment */
	KNEED_Y,    /* an item needs it on */
	KNEED_M,    /* on as a module would do (not told apart yet: the trees' chains say built-in or not) */
	KNEED_N,    /* only needed off (the #else of a definition chosen; the files of kernel functions) */
};

/* What the tree's Kconfig says of an option. */
struct kneed_kconfig {
	bool entry;	     /* the tree has an entry for it */
	const char *where;   /* "init/Kconfig:1650"; NULL when unknown */
	const char *prompt;  /* NULL: hidden, set only by select or a default */
	const char *depends; /* every "depends on" joined with " && ", or NULL */
	const char *defaults;
	const char *const *selected_by; /* "X86_64" or "X86 if X86_64" */
	size_t nselected_by;
};

struct kneed {
	const char *name; /* "EVENTFD" */
	enum kneed_want want;
	const char *running;	      /* the running kernel's value ("n": not set), NULL when unknown */
	bool lacking;		      /* wanted, and the running kernel has it not set: the fragment leaves it out */
	const char *const *needed_by; /* required syscalls and refinements whose chain needs it on */
	size_t nneeded;
	const char *const *probed_by; /* probes, and syscalls or refinements whose calls all failed */
	size_t nprobed;
	const char *const *off_for; /* syscalls whose chain needs it off */
	size_t noff;
	size_t nfuncs, nfuncs_off; /* kernel functions whose file needs it on, off */
	struct kneed_kconfig kc;
	/* the closure: set for the entries it brought in (via set), and for those it was asked (the wanted, the ABI's)
	 */
	const struct kneed *via; /* the entry whose condition brought this one in; NULL: asked for */
	const char *because;	 /* via's name (kept when via is not an entry) */
	const char *how;	 /* "depends on", "prompt if", "selects", "default", "must be off" (ktree.h) */
	const char *expr;	 /* that condition, "MISC_FILESYSTEMS && BLOCK"; NULL for one asked for */
	bool closed;		 /* the closure computed it */
	bool abi;		 /* asked for the ABI (x86's allnoconfig answers 32-bit: 64BIT for x86_64) */
	bool hidden;		 /* no prompt: follows from the others, never a line of the fragment */
	char value;		 /* 'y' or 'n': what the fragment asks */
	char final;		 /* what allnoconfig plus the fragment gives it, as the closure computes */
	const char *unmet;	 /* wanted, and cannot hold on allnoconfig: why (the fragment leaves it out) */
};

/* A condition of a required syscall's chain that is no option (a compound expression, an arch's word). */
struct kneed_cond {
	const char *item, *expr, *where; /* expr, where NULL when unknown */
};

/* A syscall of the mapping that is not required (a probe, one newer than the tree) and why. */
struct kneed_note {
	const char *item;
	char *why; /* owned */
};

/* The options of the kernel functions' files, in the order of the function map's roll-up (most functions first). */
struct kneed_func {
	size_t need; /* index in kneeds.v */
	bool off;    /* the files need it off */
	size_t funcs;
	uint64_t hits;
	struct kneed_kconfig kc; /* the function database's own facts (a saved one carries its own) */
};

struct kneeds {
	struct kneed *v; /* the options of the syscalls and refinements by name, then those of kernel functions only */
	size_t n;
	struct kneed_cond *conds;
	size_t nconds;
	struct kneed_note *notes;
	size_t nnotes;
	struct kneed_func *funcs; /* empty when the mapping has no kernel functions */
	size_t nfuncs;
	/* how the closure was made: "the source tree's Kconfig", "the database's Kconfig facts"; NULL: not made */
	const char *closure;
	const char *no_closure; /* why not ("the database was saved without Kconfig facts"), when closure is NULL */
	size_t nbrought;	/* entries the closure brought in */
	/* private: strings made here */
	char **own;
	size_t nown;
	struct kt_closure *kc;
};

struct fp_kernel_map;

/* The needs of a mapping, from its rows, options, refinements and kernel functions (m->kf). */
struct kneeds *kneeds_build(const struct fp_kernel_map *m);
void kneeds_free(struct kneeds *k);
/* The entry of an option, NULL when none. */
const struct kneed *kneeds_find(const struct kneeds *k, const char *name);

#endif
