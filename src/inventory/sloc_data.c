// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in SLOC of 6.1's files, embedded as committed (data/sloc-6.1.tsv.gz, made by `make mapdb`), with
 * .incbin as the databases are (src/kmap/mapdb_data.c): --running without a tree has no source to count.
 */
#include "inventory/inv_internal.h"

__asm__(".section .rodata\n"
	".global inv_sloc_builtin_data\n"
	".type inv_sloc_builtin_data, @object\n"
	"inv_sloc_builtin_data:\n"
	".incbin \"data/sloc-6.1.tsv.gz\"\n"
	"inv_sloc_builtin_end:\n"
	".byte 0\n"
	".size inv_sloc_builtin_data, . - inv_sloc_builtin_data\n"
	".balign 8\n"
	".global inv_sloc_builtin_len\n"
	".type inv_sloc_builtin_len, @object\n"
	"inv_sloc_builtin_len:\n"
	".quad inv_sloc_builtin_end - inv_sloc_builtin_data\n"
	".size inv_sloc_builtin_len, 8\n"
	".previous\n");
