/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KERNEL_MAPDB_H
#define KF_KERNEL_MAPDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ktree/ktree.h"
#include "abi/syscalls.h"
#include "util/arena.h"

/*
 * The map database: what a kernel tree says about every syscall of one ABI (the kt_syscall chains) and about
 * every Kconfig option on those chains (the kt_option entries), either borrowed from a live kt_index
 * (--kernel-src) or loaded from a saved file. The built-in ones (data/mapdb-6.1-<abi>.json, schema
 * "kfootprint-mapdb/1", written by `kfootprint map --kernel-src DIR --save-db FILE`) are embedded in the binary,
 * so mapping works with no tree at hand.
 *
 * A database loaded from a file carries only what mapping needs: the syscalls and what refinements reach (the
 * "reach" records, ktree.h), the options on their paths and the MAINTAINERS sections they match.
 */
#define MAPDB_SCHEMA "kfootprint-mapdb/1"

struct mapdb_opt {
	const char *name;	     /* "EVENTFD" */
	const struct kt_option *opt; /* the Kconfig entry; NULL when the tree has none for the architecture */
	const char *value;	     /* the value the chains were evaluated with; NULL means 'n' */
};

struct mapdb {
	char *version;	/* the tree's "6.1.192" */
	int ver, patch; /* 6, 1 */
	enum kf_abi abi;
	char *origin;		       /* "built-in database" or the tree's path */
	char *config;		       /* the configuration the chains were evaluated with, for the header */
	const struct kt_syscall **sys; /* table order */
	size_t nsys;
	/*
	 * i386: the entry point a 64-bit kernel dispatches each row to (the compat column of syscall_32.tbl,
	 * "compat_sys_ia32_mmap"), parallel to sys[]; NULL when the row has none. What tells the running status.
	 */
	char **compat;
	/*
	 * What refinements reach (ktree.h, kt_index_reach_at): chains named by their key ("fs ext4", "ioctl TC*"),
	 * in key order; mapdb_reach() finds a refinement's. A database saved before them has none.
	 */
	const struct kt_syscall **reach;
	size_t nreach;
	struct mapdb_opt *opts; /* sorted by name */
	size_t nopts;
	/* private */
	struct kt_index *idx;
	struct kt_syscall *own_sys;
	struct kt_syscall *own_reach;
	struct kt_option *own_opts;
	struct kt_section *own_secs;
	size_t nsecs;
	struct kt_kfacts *kfacts; /* a loaded database's Kconfig facts ("kconfig"); NULL: saved before them */
	int others_max_nr;	  /* mapdb_parse_for(): the highest number of the rows it left out; else -1 */
	struct arena mem;	  /* a loaded database's strings and lists */
};

/* Takes the index over (freed with the database). config: how the index was configured, for the header. */
struct mapdb *mapdb_from_index(struct kt_index *idx, const char *config);
/* The embedded database for an ABI; NULL with *err set when there is none. */
struct mapdb *mapdb_builtin(enum kf_abi abi, char **err);
/*
 * What a footprint asks of a database (mapdb_parse_for()): the syscalls it made and the refinements its calls
 * reached (kind and value, as kmap_add_reach() looks them up).
 */
struct mapdb_want {
	const char *const *syscalls;
	size_t nsyscalls;
	const char *const *reach_kind, *const *reach_value;
	size_t nreach;
};
/* The built-in database as mapdb_parse_for() reads it: what the report's summary maps a footprint with. */
struct mapdb *mapdb_builtin_for(enum kf_abi abi, const struct mapdb_want *want, char **err);
/* Parses a saved database; NULL with *err set (malloc'd, without the origin) on failure. origin: for headers. */
struct mapdb *mapdb_parse(const char *text, const char *origin, char **err);
/*
 * The same reduced to what want asks: those syscalls (the others only counted by mapdb_max_nr()), the reach records
 * kt_reach_find() could answer them with, the options and sections these name, and no Kconfig facts. Mapping want's
 * footprint with it gives what the whole database gives (test_map's check), at a small part of the cost: the rest is
 * read past unchecked, so text must be one that mapdb_parse() reads (the built-in ones, which the tests load whole).
 */
struct mapdb *mapdb_parse_for(const char *text, const char *origin, const struct mapdb_want *want, char **err);
/* Writes a database in the saved format: one syscall, option or section a line. 0, or -1 (errno). */
int mapdb_save(const struct mapdb *db, FILE *out);
void mapdb_free(struct mapdb *db);

/* By table name; NULL when the tree's table has no such row (KT_NOT_IN_TREE rows of an index included). */
const struct kt_syscall *mapdb_syscall(const struct mapdb *db, const char *name);
/* The chain of what a refinement (kind, value as the footprint spells them) reached; NULL when the tree has none. */
const struct kt_syscall *mapdb_reach(const struct mapdb *db, const char *kind, const char *value);
/* The i386 compat entry point of a row ("compat_sys_ia32_mmap"); NULL when none or not i386. */
const char *mapdb_compat_entry(const struct mapdb *db, const char *name);
/* NULL when the option is on no syscall's path. */
const struct mapdb_opt *mapdb_option(const struct mapdb *db, const char *name);
/*
 * The closure of wanted options over the database's Kconfig (ktree.h, kt_index_closure): the tree's when it has
 * one, else the facts it was saved with. 0 or -1 as kt_index_closure(); -2 when it has neither (a database saved
 * before the facts), out then empty. known: whether an option has facts to close over (always, with a tree).
 */
int mapdb_closure(const struct mapdb *db, const struct kt_want *want, size_t n, struct kt_closure *out);
bool mapdb_kconfig_known(const struct mapdb *db, const char *option);
/* The facts a saved database carries: every symbol the closure of its options (and the ABI's) can read. */
struct kt_kfacts *mapdb_index_kfacts(const struct mapdb *db);

/* The highest syscall number of the tree's table, for "newer than the tree". */
int mapdb_max_nr(const struct mapdb *db);

/* The embedded databases (mapdb_data.c), NUL-terminated, one per ABI that has one, in enum order. */
struct mapdb_text {
	enum kf_abi abi;
	const char *text;
};
extern const struct mapdb_text mapdb_builtins[];
extern const size_t mapdb_nbuiltins;
bool mapdb_has_builtin(enum kf_abi abi);
/* Their ABIs for messages: "x86_64 and i386". */
const char *mapdb_builtin_names(void);

#endif
