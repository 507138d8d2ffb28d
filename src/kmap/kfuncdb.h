/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_KFUNCDB_H
#define KF_KMAP_KFUNCDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

#endif
