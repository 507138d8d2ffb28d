/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KDWARF_KLINES_H
#define KF_KDWARF_KLINES_H

/*
 * Kernel lines through the measurement vmlinux's DWARF (libdw): the PCs kcov gave turned into source lines, and
 * the compiled lines of the line table (what lcov's DA records and the line inventory count against).
 *
 * File names are the tree's ("fs/eventfd.c"): the build's source prefix is taken off. A kernel built out of tree
 * (Debian's: comp_dir is debian/build/..., the units' names absolute in the source tree) has its prefix found from
 * the unit of init/main.c; a file under comp_dir (generated headers) loses comp_dir; a file outside both (the
 * compiler's stddef.h) keeps its absolute path.
 */
#include <stddef.h>
#include <stdint.h>

#include "footprint/kline.h"
#include "kdwarf/kdwarf.h"

/* The ELF's GNU build id (NT_GNU_BUILD_ID) as lowercase hex into buf; 0, or -1 when it has none. */
int kd_build_id(struct kd_file *f, char *buf, size_t len);
/* The value of symbol name in the symbol table; 0, or -1 when there is none. */
int kd_symbol(struct kd_file *f, const char *name, uint64_t *value);

/* How symbolization went, for debug lines and the benchmark. */
struct kd_klines_stats {
	uint64_t pcs, resolved, unresolved; /* PCs looked up; with a line; without (no unit or no row) */
	double seconds;
};

/*
 * Turns k's PCs into lines (adding to k->lines; kcov hits as counts) with the vmlinux at path: checks its build id
 * against k->build_id (a vmlinux that is not the recorded kernel is refused), undoes KASLR (k->text_offset:
 * k->runtime_text less the vmlinux's _text; 0 when runtime_text is not known, e.g. nokaslr) and looks up pc - 1,
 * since kcov records return addresses. Sets k->vmlinux. 0, or -1 with one line in why.
 */
int kd_klines_symbolize(struct fp_klines *k, const char *path, struct kd_klines_stats *st, char *why, size_t len);

/*
 * Every row of every unit's line table, as (file as the tree names it, line), in the table's order, repeats
 * included (the caller keeps the distinct ones). Stops when cb returns non-zero and returns that; 0 after the
 * last; -1 on a DWARF error (kd_error()).
 */
int kd_each_line(struct kd_file *f, int (*cb)(const char *file, uint32_t line, void *ctx), void *ctx);

#endif
