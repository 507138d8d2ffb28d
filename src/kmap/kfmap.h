/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_KFMAP_H
#define KF_KMAP_KFMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "footprint/footprint.h"
#include "kmap/kfuncdb.h"

/*
 * The map of a footprint's kernel functions: each name -> the file that defines it (kfuncdb.h) -> Makefile
 * object -> options -> MAINTAINERS section, and the roll-ups (files, directories, options, sections) with the
 * functions and hits of each.
 *
 * A name defined in several files is resolved, in this order:
 *   - by DWARF (--vmlinux, a debug vmlinux): the files whose definition has code of its own (low_pc) there;
 *     exact, and it also places names the line scanner did not find;
 *   - by symbol order (kallsyms, or a System.map/kallsyms dump): the linker keeps an object's functions
 *     together, so the nearest neighbours before and after the symbol whose names have one definition tell
 *     its object;
 *   - else it stays ambiguous, with its candidates, and is counted.
 * A suffix the compiler added (".isra.0", ".constprop.0", ".cold", ".part.0") maps to the base name.
 */
enum kfm_how {
	KFM_UNIQUE,    /* one file defines the name */
	KFM_DWARF,     /* resolved by the debug vmlinux */
	KFM_KALLSYMS,  /* resolved by symbol order */
	KFM_AMBIGUOUS, /* several candidates remain */
	KFM_UNKNOWN,   /* no definition in the database */
	KFM_NHOW,
};
const char *kfm_how_name(enum kfm_how h); /* "unique", "dwarf", "kallsyms", "ambiguous", "unknown" */

struct kfmap;

struct kfm_row {
	struct fp_kfunc *f;
	const char *name; /* as recorded */
	char *base;	  /* without a compiler suffix */
	uint64_t hits;
	enum kfm_how how;
	const struct kfdb_def *cands; /* the name's definitions in the database (consecutive) */
	size_t ncands;
	long file;	     /* the chosen file's index in the database, -1 when none */
	int line;	     /* its line (0: known by DWARF only) */
	char *note;	     /* why it stayed ambiguous, or what resolved it; NULL */
	struct fp_kref kref; /* the row as its function's "kernel" object */
	const struct kfmap *map;
};

/* A roll-up entry: a file, directory, option or MAINTAINERS section and what reached it. */
struct kfm_count {
	const char *key;
	size_t funcs;
	uint64_t hits;
};

struct kfmap {
	struct kfdb *db; /* borrowed */
	const char *method;
	bool exhaustive;
	uint64_t lost;
	struct kfm_row *rows; /* by name */
	size_t nrows;
	size_t count[KFM_NHOW];
	/* by functions, descending, then key */
	struct kfm_count *files, *dirs, *opts, *sections;
	size_t nfiles, ndirs, nopts, nsections;
	char *kallsyms;	     /* the symbol order used ("/proc/kallsyms"), or NULL */
	char *kallsyms_note; /* why none, or a caveat ("the running kernel 6.18.44 is not the tree's 6.1") */
	char *vmlinux;	     /* the debug vmlinux used, or NULL */
	char *dwarf_note;    /* why it could not be used, or NULL */
};

struct kfmap_opts {
	const char *vmlinux;  /* --vmlinux */
	const char *kallsyms; /* --kallsyms; NULL: /proc/kallsyms unless no_running */
	bool no_running;
	const char *running_release; /* uname -r, for the version caveat; NULL when unknown */
};

/* Maps fp's kernel functions with db (borrowed: it must outlive the map). NULL with *err on a fatal error. */
struct kfmap *kfmap_build(struct kfdb *db, struct footprint *fp, const struct kfmap_opts *o, char **err);
void kfmap_free(struct kfmap *m);

/* JSON: the roll-up object (written at the top level as "kernel_functions_map") and a row's "kernel" object. */
void kfmap_json(json_writer_t *w, const struct kfmap *m);
void kfmap_json_row(json_writer_t *w, const struct kfm_row *r);
/* "fs/eventfd.c:272", or NULL; in buf. */
const char *kfm_row_where(const struct kfm_row *r, char *buf, size_t len);

#endif
