// SPDX-License-Identifier: GPL-2.0
/*
 * The reviewed table of what refinements reach where the tree cannot say (data/reach-map.tsv), embedded as it is
 * committed, as the map databases are (src/kmap/mapdb_data.c): the path is relative to the top of the source
 * tree, where make runs the compiler, and the Makefile makes this object depend on the file.
 */
#include "ktree/kt_internal.h"

__asm__(".section .rodata\n"
	".global kt_reach_table\n"
	".type kt_reach_table, @object\n"
	"kt_reach_table:\n"
	".incbin \"data/reach-map.tsv\"\n"
	".byte 0\n"
	".size kt_reach_table, . - kt_reach_table\n"
	".previous\n");
