/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_INVENTORY_INV_LINES_H
#define KF_INVENTORY_INV_LINES_H

/*
 * inventory --lines: the line-level inventory. Compiled lines are the distinct file:line entries of the vmlinux's
 * DWARF line table (the guide's kernel-sloc dwarf count), covered lines the footprints' kernel lines (merged,
 * symbolized by the same vmlinux); both per file, directory and option (the kernel functions' database's chain of
 * each file, as map places covered lines: kmap/klmap.h, whose map this is built on), with klmap's #if blocks
 * compiled and never entered and error paths never taken as review candidates.
 */
#include <stddef.h>
#include <stdint.h>

struct klmap;
struct kfdb_file;

struct invl_file {
	const char *path;	       /* the line table's */
	const struct kfdb_file *chain; /* its object and options; NULL when the database does not know it */
	uint32_t compiled, covered;
};

/* An option or a directory: its files' lines. */
struct invl_group {
	char *name;
	uint64_t compiled, covered;
	uint32_t files, files_covered;
};

struct inv_lines {
	const char *vmlinux;
	char **footprints;
	size_t nfootprints;
	const struct klmap *kl;	 /* the merged footprint's map (its blocks and error paths) */
	struct invl_file *files; /* every file of the line table, by path */
	size_t nfiles;
	struct invl_group *opts, *dirs; /* by compiled lines, descending, then name */
	size_t nopts, ndirs;
	uint64_t compiled, covered; /* totals: compiled is the kernel-sloc dwarf count */
	uint64_t outside;	    /* covered lines the line table does not have: another build's lines */
	size_t unplaced;	    /* files the database has no chain for (no options) */
	struct inv_lines_priv *priv;
};

struct inv_lines_src {
	const char *vmlinux;	 /* required */
	const char *kernel_src;	 /* the database of files is the tree's; NULL: built-in */
	const char *source_root; /* the sources of the candidates; NULL: kernel_src */
};

/* NULL after a one-line message: no --vmlinux, a footprint without kernel lines, a DWARF error. */
struct inv_lines *inv_lines_build(const struct inv_lines_src *src, char **paths, size_t n);
void inv_lines_free(struct inv_lines *l);

#endif
