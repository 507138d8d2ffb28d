/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KERNEL_KMAP_H
#define KF_KERNEL_KMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "footprint/footprint.h"
#include "kmap/mapdb.h"
#include "kernel/running.h"
#include "kmap/kfmap.h"

struct kneeds;
struct fp_csites;

/*
 * A mapping: the syscalls of a footprint (or named ones) joined with what a kernel tree says about them
 * (struct mapdb) and with what the running kernel has (struct kf_running). The map renderers
 * (src/report/map_*.c) are pure functions of it.
 */

/* One syscall of the mapping. */
struct kmap_row {
	const char *name; /* table name */
	enum kf_abi abi;
	int nr;	       /* -1 when unknown */
	bool observed; /* from a footprint: calls/errors are counts */
	uint64_t calls, errors, enosys;
	const char *klass; /* the coarse class */
	const char *entry; /* the kernel entry point kfootprint's table names, "sys_newstat"; NULL when none */
	const struct kt_syscall *ks; /* the tree's chain; NULL when the tree's table has no such row */
	bool newer;		     /* not in the tree's table (newer than the tree, or a gap in it): never guessed */
	bool probe;		     /* observed, and every call failed with ENOSYS */
	bool required;		     /* the workload needs it: a chain in the tree, not a probe */
	enum kf_run_status running;
	char **opts; /* options on the path as shown: "EVENTFD", "!POSIX_TIMERS", a compound condition's text */
	size_t nopts;
	const struct fp_kernel_map *map; /* the mapping the row belongs to */
	struct fp_kref kref;		 /* the row as its footprint syscall's "kernel" object (annotate.c) */
};

/* One option of the roll-up: on the path of at least one syscall of the mapping. */
struct kmap_opt {
	const char *name;
	const struct mapdb_opt *db; /* its Kconfig entry (db->opt) and the tree's value; never NULL */
	const char *running;	    /* the running kernel's value ("n" when not set), NULL when unknown */
	const char **needed_by;	    /* required syscalls whose path needs the option on */
	size_t nneeded;
	const char **off_for; /* syscalls whose path needs the option off (an #else, ifneq) */
	size_t noff;
	const char **probed_by; /* probes and not-required rows whose path has it */
	size_t nprobed;
};

/*
 * What the calls of the mapping's syscalls reached (footprint.h struct fp_reach), one row per (kind, value) over
 * every syscall that reached it, with the chain of its target in the tree (ktree.h, kt_index_reach_at).
 */
struct kmap_reach {
	const char *kind, *value; /* the footprint's strings */
	char *label;		  /* "fd anon:[eventfd]": how the roll-up and the renderers name it */
	const char **syscalls;	  /* the syscalls whose calls reached it, most calls first */
	size_t nsyscalls;
	uint64_t calls, errors;
	const struct kt_syscall *ks; /* the target's chain (ks->name its key, "anon [eventfd]"); NULL when none */
	bool required;		     /* a chain that is built, reached by calls that did not all fail */
	char **opts;		     /* options on the path as shown, as kmap_row's */
	size_t nopts;
	const struct fp_kernel_map *map;
	struct fp_kref kref; /* the row as the "kernel" object of each footprint refinement it stands for */
};

struct fp_kernel_map {
	enum kf_abi abi;
	const struct mapdb *db;
	const struct kf_running *run;
	char *subject;	       /* what was mapped: "footprint 'ls.json' (ls /)", "3 named syscalls", ... */
	char *mismatch;	       /* the tree/running version mismatch, said once in the header; NULL when they agree */
	int tree_max_nr;       /* highest number of the tree's table: rows above it are newer than the tree */
	struct kmap_row *rows; /* observed: by calls, descending; else table order */
	size_t nrows;
	struct kmap_opt *opts; /* by name */
	size_t nopts, optcap;
	struct kmap_reach *reach; /* by label */
	size_t nreach;
	const struct kfmap *kf;	 /* the footprint's kernel functions, when it has and they were mapped; else NULL */
	const struct klmap *kl;	 /* the footprint's kernel lines, when it has and they were mapped; else NULL */
	const char *recorded_on; /* the footprint's host_kernel (uname -r where it was recorded), or NULL */
	const struct fp_csites *csites; /* the footprint's call sites (record --call-sites), or NULL */
	struct kneeds *needs; /* the options it needs, as data (kneeds.h): made again whenever the above change */
};

/*
 * Adds what the calls of fp's syscalls of m's ABI reached (the workload-wide table's fp_reach), their chains and
 * their options to the roll-up ("needed by ... fd anon:[eventfd]"). Sets nothing in fp: annotate.c does.
 */
void kmap_add_reach(struct fp_kernel_map *m, const struct footprint *fp);
/* The row of m for a refinement; NULL when none. */
struct kmap_reach *kmap_reach_row(const struct fp_kernel_map *m, const char *kind, const char *value);

/* An input row before mapping (name + counts). */
struct kmap_input {
	const char *name;
	enum kf_abi abi;
	int nr;
	bool observed;
	uint64_t calls, errors, enosys;
	const char *klass;
};

/*
 * Maps the inputs (rows of db->abi; other ABIs are skipped by the caller). The mapping borrows db, run and
 * the input names; free it with kmap_free() before them.
 */
struct fp_kernel_map *kmap_build(const struct mapdb *db, const struct kf_running *run, const struct kmap_input *in,
				 size_t nin, const char *subject);
/*
 * The inputs of a footprint for one ABI (every syscall it saw there); *n set; malloc'd array (names point into
 * the footprint).
 */
struct kmap_input *kmap_inputs_footprint(const struct footprint *fp, enum kf_abi abi, size_t *n);
void kmap_free(struct fp_kernel_map *m);

/*
 * JSON through the one writer (kmap_json.c): a row and an option of `map -F json` (abi: an "abi" member for
 * the option, or NULL), and a row as the "kernel" object of an annotated footprint's syscall.
 */
void kmap_json_row(json_writer_t *w, const struct fp_kernel_map *m, const struct kmap_row *r);
void kmap_json_option(json_writer_t *w, const struct kmap_opt *o, const char *abi);
void kmap_json_kernel(json_writer_t *w, const struct fp_kernel_map *m, const struct kmap_row *r);
/* A MAINTAINERS section as an object: name, status, maintainers (M:), reviewers (R:), lists (L:). */
void kmap_json_section(json_writer_t *w, const struct kt_section *s);
/* "get_maintainer": the people of those sections as get_maintainer.pl names them (kmaint.h). */
struct kt_section_match;
void kmap_json_people(json_writer_t *w, const struct kt_section_match *m, size_t n);
/* A refinement's row of `map -F json`'s "reached", and the "kernel" object of a footprint's refinement. */
void kmap_json_reach(json_writer_t *w, const struct fp_kernel_map *m, const struct kmap_reach *r);
void kmap_json_reach_kernel(json_writer_t *w, const struct fp_kernel_map *m, const struct kmap_reach *r);
/* What a refinement's row is in one phrase ("no registration of it in the source tree (6.1)"), or "". */
const char *kmap_reach_note(const struct fp_kernel_map *m, const struct kmap_reach *r, char *buf, size_t len);

/* "fs/eventfd.c:23", or NULL when there is no definition; written into buf. */
const char *kmap_row_where(const struct kmap_row *r, char *buf, size_t len);
/* Best MAINTAINERS section name, or NULL. */
const char *kmap_row_section(const struct kmap_row *r);
/* What the row's status is in one phrase: "newer than the source tree (6.1)", "no SYSCALL_DEFINE ...". */
const char *kmap_row_note(const struct fp_kernel_map *m, const struct kmap_row *r, char *buf, size_t len);

#endif
