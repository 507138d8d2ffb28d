// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in map databases, embedded as they are committed (data/mapdb-6.1-*.json, made by `make mapdb`).
 * .incbin keeps them byte for byte with no generated C in between; the paths are relative to the top of the
 * source tree, where make runs the compiler, and the Makefile makes this object depend on the files.
 */
#include "kmap/mapdb.h"

__asm__(".section .rodata\n"
	".global kf_mapdb_x86_64\n"
	".type kf_mapdb_x86_64, @object\n"
	"kf_mapdb_x86_64:\n"
	".incbin \"data/mapdb-6.1-x86_64.json\"\n"
	".byte 0\n"
	".size kf_mapdb_x86_64, . - kf_mapdb_x86_64\n"
	".global kf_mapdb_i386\n"
	".type kf_mapdb_i386, @object\n"
	"kf_mapdb_i386:\n"
	".incbin \"data/mapdb-6.1-i386.json\"\n"
	".byte 0\n"
	".size kf_mapdb_i386, . - kf_mapdb_i386\n"
	".previous\n");

extern const char kf_mapdb_x86_64[];
extern const char kf_mapdb_i386[];

/* Adding one: a data file (data/gen-mapdb.sh), its .incbin above, and a row here. */
const struct mapdb_text mapdb_builtins[] = {
    {KF_ABI_X86_64, kf_mapdb_x86_64},
    {KF_ABI_I386, kf_mapdb_i386},
};
const size_t mapdb_nbuiltins = sizeof(mapdb_builtins) / sizeof(mapdb_builtins[0]);
