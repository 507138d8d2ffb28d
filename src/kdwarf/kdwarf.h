/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KDWARF_KDWARF_H
#define KF_KDWARF_KDWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The DWARF reader (elfutils libdw): the compilation units and function definitions of an ELF file with debug
 * information, a debug vmlinux above all. It is the linked inventory: what a build really compiled and kept.
 *
 * Lifetime: every string handed to a callback points into the open file's DWARF and stays valid until
 * kd_close(). Nothing here prints; errors come back as one line in why (kd_open) or kd_error().
 */

/* An open ELF with DWARF. */
struct kd_file;

/*
 * Opens path and its DWARF. NULL with a one-line reason in why (len bytes): the file cannot be read, it is not
 * an ELF file, or it has no DWARF debug information (a stripped vmlinux, a kernel image without -dbg).
 */
struct kd_file *kd_open(const char *path, char *why, size_t len);
void kd_close(struct kd_file *f);
/* Why the last kd_each_*() returned -1 ("" when none did). */
const char *kd_error(const struct kd_file *f);

/*
 * Every compilation unit (type and partial units are skipped): its name as DW_AT_name ("fs/eventfd.c", or an
 * absolute path, as the compiler was given it) and DW_AT_comp_dir (NULL when absent). Stops when cb returns
 * non-zero and returns that value; 0 after the last unit; -1 on a DWARF error (kd_error()).
 */
int kd_each_cu(struct kd_file *f, int (*cb)(const char *name, const char *comp_dir, void *ctx), void *ctx);

/* A compilation unit with its language and producer, for callers that tell C from assembler units. */
struct kd_cu {
	const char *name;     /* DW_AT_name */
	const char *comp_dir; /* DW_AT_comp_dir, or NULL */
	const char *producer; /* DW_AT_producer ("GNU C11 12.2.0 -mno-sse ...", "GNU AS 2.40"), or NULL */
	int lang;	      /* DW_AT_language (DW_LANG_C11, DW_LANG_Mips_Assembler...), -1 when absent */
	bool assembler;	      /* lang is DW_LANG_Mips_Assembler (what GNU as writes for a .S file) */
};
int kd_each_unit(struct kd_file *f, int (*cb)(const struct kd_cu *cu, void *ctx), void *ctx);

/*
 * Every function definition: a DW_TAG_subprogram with code (low_pc, or DW_AT_ranges), or an abstract inline
 * instance (DW_AT_inline) that no out-of-line copy in the same unit carries: GCC writes one only for a function
 * it inlined somewhere in the unit, so that is a function with inlined instances and no code of its own.
 *
 * name: as declared ("eventfd_write"); file: the declaring file, the full path as the DWARF file table gives
 * it (directory joined: "/build/linux/fs/eventfd.c" or "fs/eventfd.c"); line: DW_AT_decl_line (0 when absent);
 * line_end: the highest line of that file the function's code covers in the line table, at least line (equal
 * to line for an inlined-only function, whose code lies in its callers); low_pc: the entry address (the lowest
 * address of its ranges), 0 when only inlined; external: DW_AT_external (a global symbol), else static.
 * cu: the unit the definition was found in (DW_AT_name of the unit). The same static function can appear in
 * several units (a static inline of a header): once per unit.
 */
struct kd_func {
	const char *name, *file;
	int line, line_end;
	uint64_t low_pc;
	bool external, inlined_only;
	const char *cu;
};
/* Stops when cb returns non-zero and returns that value; 0 after the last function; -1 on a DWARF error. */
int kd_each_func(struct kd_file *f, int (*cb)(const struct kd_func *fn, void *ctx), void *ctx);

#endif
