/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_KLMAP_H
#define KF_KMAP_KLMAP_H

/*
 * The map of a footprint's kernel lines (the kind's annotator, klmap.c): covered lines -> files -> Makefile
 * objects -> options (the kernel functions' database of files, kfmap.h), and, with --vmlinux, each covered file's
 * compiled lines (the distinct lines its line table has), which lcov's DA records and the inventory count against.
 * map --vmlinux V symbolizes PCs not symbolized yet (kdwarf/klines.h) before it maps them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "footprint/kline.h"

struct kfdb_file;

struct klm_file {
	const char *path;	       /* the footprint's string */
	const struct kfdb_file *chain; /* its object and options; NULL when the database does not know the file */
	uint32_t first, nlines;	       /* its covered lines: k->lines[first .. first + nlines) */
	const uint32_t *compiled; /* its compiled lines, sorted, distinct (klmap.table's); NULL without --vmlinux */
	uint32_t ncompiled;
};

/* A #if block of a covered file naming options (ktree/kt_ifblk.h), with its compiled and covered lines. */
struct klm_block {
	const char *file;
	uint32_t directive, first, last;
	const char *kind;  /* "ifdef", "else", ... */
	char *opts;	   /* "X !Y", as the block holds them; owned */
	uint32_t compiled; /* its lines the line table has */
	uint32_t covered;
};

/* An uncovered compiled line that fails or unwinds (return -E..., goto) between covered lines of one function. */
struct klm_errpath {
	const char *file;
	uint32_t line;
	const char *function;
	char *text; /* the source line, trimmed; owned */
};

/* A file of the vmlinux's line table with its compiled lines, sorted, distinct. */
struct klm_tfile {
	char *path;
	uint32_t *lines;
	uint32_t n;
	size_t cap;
};

struct klm_opt {
	const char *name; /* "EVENTFD", "!X" as the chains give them */
	uint32_t files;
	uint64_t lines; /* covered lines of its files */
};

struct klmap {
	const struct fp_klines *k;
	struct klm_file *files; /* by path, as k->lines */
	size_t nfiles;
	struct klm_opt *opts; /* by covered lines, descending, then name */
	size_t nopts;
	bool compiled;		  /* the files' compiled lines were read (--vmlinux) */
	size_t compiled_files;	  /* every file of the line table */
	uint64_t compiled_lines;  /* the distinct (file, line) of the line table: the guide's kernel-sloc dwarf count */
	struct klm_tfile *table;  /* every file of the line table, by path (compiled_files of them); the inventory's */
	struct klm_block *blocks; /* with --source-root or --kernel-src and --vmlinux */
	size_t nblocks;
	struct klm_errpath *errpaths;
	size_t nerrpaths;
	const char *source_root; /* --source-root, else --kernel-src: the tree of lcov SF paths; or NULL */
};

struct annotate_ctx;
struct kfdb;
/* The kernel functions' database of files, which klmap places files with (made once in ctx for both kinds). */
struct kfdb *klmap_files_db(struct annotate_ctx *ctx);

/* klmap_src.c: the covered files' #if blocks and error paths not taken, read from source_root (with compiled). */
void klmap_read_sources(struct klmap *m);
void klmap_sources_free(struct klmap *m);

#endif
