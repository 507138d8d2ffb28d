/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_INVENTORY_INV_INTERNAL_H
#define KF_INVENTORY_INV_INTERNAL_H

/* Shared by the inventory's files (src/inventory/); the API is inventory.h. */

#include "inventory/inventory.h"

/* Fills files[].sloc from the tree at tree, through the SLOC cache unless no_cache. */
void inv__count_sloc(struct inv_file *files, size_t n, const char *tree, bool no_cache);
/*
 * Without a tree: files[].sloc from the built-in table of 6.1's files (data/sloc-6.1.tsv.gz, counted by the same
 * rule); how many it had. *what (malloc'd) says where the counts come from, or why there are none.
 */
size_t inv__builtin_sloc(struct inv_file *files, size_t n, char **what);

/* The file of a tree-relative path (binary search: files are sorted); NULL when not compiled. */
struct inv_file *inv__file(struct inventory *inv, const char *path);
/* Adds a compiled file (kept unsorted until inv__sort()). */
struct inv_file *inv__add(struct inventory *inv, const char *path, enum kt_built built);
void inv__sort(struct inventory *inv);

/*
 * One observation: it reached file (tree-relative, or NULL when unmapped) and the options in opts (names without
 * CONFIG_; "!X" and compound conditions are skipped), n times; what names it ("eventfd2").
 */
void inv__observe(struct inventory *inv, enum inv_by by, const char *file, const char *const *opts, size_t nopts,
		  uint64_t n, const char *what);

/* The option an observed chain names, made on first use. */
struct inv_group *inv__seen_opt(struct inventory *inv, const char *name);
/* An option of the closure only, brought in by by; false when it was reached already. */
bool inv__closure_opt(struct inventory *inv, const char *name, const char *by);

/* The DWARF side (inv_dwarf.c): units as files, functions counted per file; names to files for functions. */
int inv__dwarf(struct inventory *inv, const char *vmlinux, bool add_files);
/* The file a kernel function is defined in, by the DWARF read (NULL: unknown or several definitions). */
const char *inv__dwarf_func_file(const struct inventory *inv, const char *name);
void inv__dwarf_free(struct inventory *inv);

/*
 * The running kernel (inv_running.c): its text symbols mapped to files through the tree's index and function
 * definitions (cfg: the configuration the index is evaluated with), or the built-in database. -1 after a message.
 */
int inv__from_running(struct inventory *inv, const struct inv_sources *src, const struct kt_config *cfg);
void inv__running_free(struct inv_running *r);

#endif
