/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KTREE_KT_FDEFS_INTERNAL_H
#define KF_KTREE_KT_FDEFS_INTERNAL_H

/*
 * Internals of the function definition index (kfdefs.h), shared by kt_fdefs.c (the walk, the sorted index, the
 * API), kt_fdefs_scan.c (the line scanner) and kt_fdefs_cache.c (the cache).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktree/kfdefs.h"
#include "ktree/kt_internal.h"
#include "util/strbuf.h"

/* The macros a definition may come from, by index (0: none); kt_fdefs.c names them. */
enum {
	VIA_NONE,
	VIA_SYSCALL,
	VIA_COMPAT,
	VIA_BPF,
	VIA_SHOW,
	VIA_SEQ,
	VIA_SIMPLE,
	VIA_DEBUGFS,
	VIA_SYM,
	VIA_PROC,
	VIA_IDT,
	KT_FDEFS_NVIAS
};

/* A definition as scanned: what the cache keeps. */
struct kt_fdef_raw {
	uint32_t name; /* offset in pool */
	uint32_t file;
	int32_t line;
	uint32_t via;
};

struct kt_fdefs {
	char *srcdir, *arch;
	struct kt_strv files;
	struct strbuf pool; /* NUL-separated names */
	struct kt_fdef_raw *raw;
	size_t nraw, capraw;
	struct kt_fdef *defs; /* sorted, one per (name, file) */
	size_t ndefs;
	struct kt_fdefs_stats st;
	struct kt_map unparsed; /* macro -> count (as a pointer-sized integer) */
	struct kt_strv seen;	/* files read and directories listed, for the cache */
};

/* ---- the scanner (kt_fdefs_scan.c) ---- */

/* Whether the scanner reads a file of that name: C, headers and assembly. */
bool kt_fdefs_wanted(const char *rel);
/* Scans the text of the tree-relative file rel into d's raw definitions, as a file of d->files. */
void kt_fdefs_scan(struct kt_fdefs *d, const char *rel, const char *text, size_t len);

/* ---- the cache (kt_fdefs_cache.c) ---- */

/* The cache file of a tree and architecture, or NULL when there is no cache directory. malloc'd. */
char *kt_fdefs_cache_file(const char *srcdir, const char *arch);
/* Writes d's files, pool and raw definitions; a cache that cannot be written is no error (the next run scans). */
void kt_fdefs_cache_save(const struct kt_fdefs *d, const char *file);
/* Loads them into an empty d when the cache is valid (0); -1 leaves d empty. */
int kt_fdefs_cache_load(struct kt_fdefs *d, const char *file);

#endif
