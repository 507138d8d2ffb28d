/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_INVENTORY_INVENTORY_H
#define KF_INVENTORY_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktree/ktree.h"

/*
 * The kernel inventory: what a kernel compiles (from a tree and a .config, a built tree, a debug vmlinux or the
 * running kernel) held against what one or more footprints observed (files and options reached by syscalls, by
 * refinements, by kernel functions). What compiled code no observation reached is a *review candidate*: never
 * proof that it can go (ENOSYS probes, boot and recovery paths, other workloads use code a trace did not see).
 * Paths are tree-relative ("fs/eventfd.c") and compared whole, never by their last name.
 */

/* What an observation came from. */
enum inv_by {
	INV_SYSCALL,	/* a syscall's definition (and the implementation behind a wrapper) */
	INV_REFINEMENT, /* what a call reached: fd kind, socket family, ioctl ... (syscalls[].reached[].kernel) */
	INV_FUNCTION,	/* a kernel function recorded (kernel_functions.functions[]) */
	INV_NBY,
};
const char *inv_by_name(enum inv_by by); /* "syscall", "refinement", "function" */

struct inv_file {
	char *path;
	enum kt_built built;
	bool generated, assembler;
	long sloc;	/* code lines (inv_sloc()); -1 when there is no source to count */
	char **options; /* options on its path from the top Kbuild (a tree and config, or a database's chain) */
	size_t noptions;
	bool chain;  /* options is its whole chain: known (a tree with a configuration, the database's chain) */
	bool always; /* a chain without an option: compiled whenever the kernel is, not removable by configuration */
	uint32_t nfuncs;	/* DWARF: functions defined in the file (with code or inlined) */
	long func_lines;	/* DWARF: lines those functions span (union of their ranges) */
	uint64_t hits[INV_NBY]; /* observations reaching the file: calls, reached calls, function hits */
	char *example[INV_NBY]; /* one of each, for the reader: "eventfd2", "fd anon:[eventfd]", "eventfd_write" */
};

/* A Kconfig option or a directory: the files under it, rolled up. */
struct inv_group {
	char *name;
	long sloc;     /* of its compiled files (an option: every file it gates, at any depth) */
	size_t nfiles; /* compiled files */
	size_t nseen;  /* of those, observed */
	uint64_t hits[INV_NBY];
	bool observed;	   /* a file under it was observed, or the needs want it on, or their closure */
	const char *value; /* options: the configuration's value ("y", "m"), NULL when unknown */
	char *via;	   /* options: in the closure only, brought in by this option's depends on or select */
};

/* --running: how the running kernel's function names were placed in files (inv_running.c). */
struct inv_running {
	char *symbols;	/* where the names came from: "/proc/kallsyms" or --kallsyms FILE */
	char *database; /* "built-in database 6.1.192", or the tree's path and version */
	char *release;	/* uname -r, or NULL */
	char *note;	/* the running kernel is not the database's version; why no symbol order; NULL */
	size_t names;	/* distinct text function names of vmlinux (t and T, without __pfx_/__cfi_ padding) */
	size_t resolved, ambiguous, unknown; /* placed in one file; several candidates left; not in the database */
	size_t by_order;		     /* of the resolved, by kallsyms symbol order or DWARF */
	size_t in_headers;		     /* resolved to a header no unit is known to include: no file listed */
	size_t modules;			     /* symbols of loaded modules, left out */
};

struct inventory {
	char *source;		/* what the compiled list comes from, one line */
	char *tree;		/* --kernel-src, or NULL */
	char *config;		/* the configuration's file, or NULL */
	char *version;		/* the tree's or vmlinux's version, or NULL */
	char *limits;		/* what this source cannot tell, one sentence, or NULL */
	struct inv_file *files; /* by path */
	size_t nfiles;
	struct inv_group *opts; /* by name */
	size_t nopts;
	struct inv_group *dirs; /* by path */
	size_t ndirs;
	/* observations */
	char **footprints; /* the files read */
	size_t nfootprints;
	char *workload;		     /* the first footprint's command line (and "+ N more") */
	bool incomplete;	     /* a footprint was incomplete or its kernel functions sampled */
	uint64_t nobs[INV_NBY];	     /* distinct observations read (syscalls, refinements, functions) */
	uint64_t unmapped[INV_NBY];  /* of those, with no file to place them in */
	uint64_t elsewhere[INV_NBY]; /* placed in a file that is not in the compiled list */
	size_t off_only;	     /* options the chains name that no need wants on: needed off, or by probes only */
	char *closure;		     /* how the options reached were closed over depends on and select, one line */
	bool chains;		     /* files' chains are known: the always-built ones can be told apart */
	bool no_sloc;		     /* no source to count: every SLOC is unknown (no tree) */
	char *sloc_source;	     /* without a tree: where SLOC comes from (the built-in table), or NULL */
	/* DWARF */
	size_t dwarf_units, dwarf_funcs;
	struct inv_running *running; /* --running's counts, or NULL */
	double seconds;		     /* to build it, for -v */
	/* private */
	struct kt_config *cfg;
	size_t files_cap;
	struct inv_group *seen_opts; /* options named by observed chains */
	size_t nseen_opts, seen_cap;
	struct inv_names *names; /* DWARF: function name -> file */
};

/* Where the compiled list comes from (the first given wins: build_dir, vmlinux, tree+config, running). */
struct inv_sources {
	const char *kernel_src; /* --kernel-src */
	const char *config;	/* --config */
	const char *build_dir;	/* --build-dir */
	const char *vmlinux;	/* --vmlinux */
	bool running;		/* --running */
	const char *kallsyms;	/* --kallsyms: a kallsyms dump in place of /proc/kallsyms */
	bool no_cache;		/* no SLOC cache */
};

/* Builds the compiled side. NULL after a one-line error message. */
struct inventory *inv_build(const struct inv_sources *src);
/*
 * Adds the observations of footprint files (read as `kfootprint merge` would; -1 after a message). Mapping
 * syscalls uses the tree's index when the inventory has a tree, else the built-in database.
 */
int inv_observe(struct inventory *inv, char **paths, size_t n);
/* Rolls the files up into options and directories; call after inv_observe(). */
void inv_finish(struct inventory *inv);
void inv_free(struct inventory *inv);

/*
 * Review candidates: indices of compiled options that no observation reached (nor the closure of those reached),
 * by the code they gate (SLOC, then files), largest first; and of the files no observation reached that such an
 * option gates (every unreached file when no chain is known), by SLOC. malloc'd; *n set.
 */
size_t *inv_candidate_opts(const struct inventory *inv, size_t *n);
size_t *inv_candidate_files(const struct inventory *inv, size_t *n);
/* Of those, the candidate files under option opt (an index in inv->opts), by SLOC. */
size_t *inv_option_files(const struct inventory *inv, size_t opt, size_t *n);
/*
 * Files no observation reached that no configuration removes, by SLOC: compiled unconditionally (no option on
 * their chain: inv_file.always), or gated only by options the workload reached.
 */
size_t *inv_always_files(const struct inventory *inv, size_t *n);
size_t *inv_gated_files(const struct inventory *inv, size_t *n);
/* Files no observation reached whose chain is unknown while others' are known (the database's .S and lib/ files). */
size_t *inv_unknown_files(const struct inventory *inv, size_t *n);
/* The caution every candidate list carries. */
extern const char inv_caution[];

/*
 * Source lines of code: lines with anything but white space and comments, the rule cloc follows for C (a line
 * with code and a comment is code; a comment inside a string literal is not a comment). Used for .S files too
 * (the kernel's are C-preprocessed: a # line is a directive, which cloc's Assembly rule counts as a comment).
 */
long inv_sloc(const char *text, size_t len);
extern const char inv_sloc_rule[];

/* A DWARF or build path made tree-relative: "./fs/x.c", "/build/linux-6.1/fs/x.c" (with comp_dir). malloc'd. */
char *inv_relpath(const char *name, const char *comp_dir);

#endif
