// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in database of kernel functions, embedded as committed (data/kfuncdb-6.1-x86_64.tsv.gz, made by
 * `make mapdb`), with .incbin as the syscall databases are (mapdb_data.c).
 */
#include "kmap/kfuncdb.h"

__asm__(".section .rodata\n"
	".global kfuncdb_builtin_data\n"
	".type kfuncdb_builtin_data, @object\n"
	"kfuncdb_builtin_data:\n"
	".incbin \"data/kfuncdb-6.1-x86_64.tsv.gz\"\n"
	"kfuncdb_builtin_end:\n"
	".byte 0\n"
	".size kfuncdb_builtin_data, . - kfuncdb_builtin_data\n"
	".balign 8\n"
	".global kfuncdb_builtin_len\n"
	".type kfuncdb_builtin_len, @object\n"
	"kfuncdb_builtin_len:\n"
	".quad kfuncdb_builtin_end - kfuncdb_builtin_data\n"
	".size kfuncdb_builtin_len, 8\n"
	".previous\n");
