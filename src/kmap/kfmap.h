/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_KFMAP_H
#define KF_KMAP_KFMAP_H

/*
 * The annotator of the kind "kernel functions" (footprint/kfunc.h): the database of kernel functions (kfuncdb.c,
 * with the built-in one) and the map of a footprint's functions through it (kfmap.c), which is the kind's row
 * kfmap_annotator (annotate.h struct kind_annotator).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "footprint/kfunc.h"
#include "ktree/kfdefs.h"
#include "ktree/ktree.h"

/*
 * The database of kernel functions: every function name of a tree -> the files that define it (file:line), and
 * each file -> its Makefile object, the options on its path, its MAINTAINERS section. Either a live tree
 * (--kernel-src: kt_fdefs and the syscall index's Kbuild/Kconfig/MAINTAINERS readers, chains computed for the
 * files asked about) or a saved one: the built-in data/kfuncdb-6.1-x86_64.tsv.gz (schema kfootprint-kfuncdb/1,
 * made by `kfootprint map --kernel-src DIR --save-kfuncdb FILE`), so the map works with no tree at hand.
 */
#define KFUNCDB_SCHEMA "kfootprint-kfuncdb/1"

struct kfdb_file {
	const char *path;	 /* "fs/eventfd.c" */
	const char *object;	 /* "fs/eventfd.o"; NULL: a header, or no Makefile line found */
	const char *makefile;	 /* "fs/Makefile" */
	int mline;		 /* its line */
	const char *included_by; /* the .c file that #includes it, or NULL */
	const char *const *opts; /* options on the path, "EVENTFD", "!X" (must be off) */
	size_t nopts;
	const char *section; /* the most specific MAINTAINERS section, or NULL */
	bool built;	     /* every condition holds in the database's configuration */
	const char *why;     /* why the chain is incomplete, or NULL */
};

struct kfdb_def {
	const char *name;
	uint32_t file; /* index in files */
	int line;
};

struct kfdb_opt {
	const char *name;   /* "EVENTFD" */
	const char *where;  /* "init/Kconfig:1650", NULL when the tree has no entry */
	const char *prompt; /* NULL: hidden (set only by select or default) */
	const char *depends;
};

struct kfdb {
	char *version; /* "6.1.192" */
	char *origin;  /* "built-in database" or the tree's path */
	size_t nfiles, ndefs;
	/* the tree's scanner counts, for the honest line ("N MACRO(...) { lines not parsed") */
	size_t unparsed;
	char *unparsed_top;
	char *scope; /* what the database leaves out, "drivers/ other than ..."; NULL: the whole tree */
	/* private */
	struct kfdb_file *files;
	struct kfdb_def *defs; /* by name, then file */
	struct kfdb_opt *opts; /* by name (saved ones); a tree's are looked up */
	size_t nopts;
	bool *chained; /* tree: files whose chain was computed */
	uint32_t *byp; /* file indices sorted by path, made on first kfdb_file_index() */
	struct kt_fdefs *fd;
	struct kt_index *idx;
	char *text; /* a saved database's text, which the strings point into */
	char **own; /* strings made for the tree's chains */
	size_t nown, capown;
	const char ***ownv; /* option vectors made for them */
	size_t nownv, capownv;
};

/* A tree's database: takes fd over, borrows idx (which must outlive it). */
struct kfdb *kfdb_from_tree(struct kt_fdefs *fd, struct kt_index *idx);
/* The built-in database; NULL with *err set when there is none or it does not load. */
struct kfdb *kfdb_builtin(char **err);
/* A saved database (gzip or plain text); NULL with *err set. */
struct kfdb *kfdb_parse(const void *data, size_t len, const char *origin, char **err);
/* Writes the saved form (plain text; the Makefile gzips it). scope: the driver directories kept (see .c). */
int kfdb_save(struct kfdb *db, FILE *out);
void kfdb_free(struct kfdb *db);

/* Candidates of a name (as given): their count, *out set to the first (consecutive). */
size_t kfdb_find(const struct kfdb *db, const char *name, const struct kfdb_def **out);
/* A file with its chain, computed on first use for a tree: the annotate stage's resolver (kfmap_build()). */
const struct kfdb_file *kfdb_chain(struct kfdb *db, uint32_t i);
/* A file as the annotate stage left it: what renderers read (its chain when kfdb_chain() made it). */
const struct kfdb_file *kfdb_file(const struct kfdb *db, uint32_t i);
/* A file's index by path; -1 when the database does not have it. */
long kfdb_file_index(struct kfdb *db, const char *path);
/*
 * Adds a file the definitions do not name (DWARF placed a function there: a macro made it); its index. A tree's
 * database gets its chain as any file's; a saved one has none for it.
 */
long kfdb_add_file(struct kfdb *db, const char *path);
/* An option's Kconfig entry as the database knows it; a NULL where when it has none. */
struct kfdb_opt kfdb_option(const struct kfdb *db, const char *name);

/*
 * The map of a footprint's kernel functions: each name -> the file that defines it (the database above) -> Makefile
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
/* Names to map that no footprint recorded (inventory --running: the running kernel's functions). */
struct kfm_names {
	struct footprint *fp; /* the names as a footprint's functions, which the map's rows point at */
	size_t n;	      /* names added (a name added twice is one function) */
};
void kfm_names_add(struct kfm_names *v, const char *name);
/* kfmap_build() of the names: the same map, whose rows borrow v (it must outlive the map). */
struct kfmap *kfmap_build_names(struct kfdb *db, struct kfm_names *v, const struct kfmap_opts *o, char **err);
void kfm_names_release(struct kfm_names *v);

/* JSON: the roll-up object (written at the top level as "kernel_functions_map") and a row's "kernel" object. */
void kfmap_json(json_writer_t *w, const struct kfmap *m);
void kfmap_json_row(json_writer_t *w, const struct kfm_row *r);
/* "fs/eventfd.c:272", or NULL; in buf. */
const char *kfm_row_where(const struct kfm_row *r, char *buf, size_t len);

#endif
