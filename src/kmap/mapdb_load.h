/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KMAP_MAPDB_LOAD_H
#define KF_KMAP_MAPDB_LOAD_H

/*
 * Internal to loading a saved database: the loader's state (mapdb_load.c) and what mapdb_parse_for() keeps of it
 * (mapdb_want.c), which judges each record as it is read.
 */
#include <stdbool.h>
#include <stddef.h>

#include "kmap/mapdb.h"
#include "kmap/mapdb_int.h"
#include "ktree/ktree.h"
#include "util/arena.h"
#include "util/json_reader.h"

/* What a syscall or reach record says beyond its kt_syscall, kept beside it until the document is read. */
struct sys_extra {
	char *compat, *status;
	bool bad_kind; /* a condition of an unknown kind */
	int *sec_ids;  /* sections[i]'s position in "sections" */
};

struct sys_rec {
	struct kt_syscall s;
	struct sys_extra x;
};

struct sys_vec {
	struct kt_syscall *v;
	struct sys_extra *x;
	size_t n, cap;
};

struct opt_rec {
	struct mapdb_opt m;
	struct kt_option k;
	bool kconfig;
};

struct head {
	char *schema, *abi, *tree, *config;
};

struct load {
	struct json_reader jr;
	struct arena *mem;
	struct head head;
	struct sys_vec sys, reach;
	struct mapdb_opt *opts;
	struct kt_option *kopts;
	size_t nopts, opts_cap, kopts_cap;
	struct kt_section *secs;
	size_t nsecs, secs_cap;
	/* scratch of the list being read, copied into the arena at its end (lists of them do not nest) */
	char **strv;
	size_t strv_cap;
	struct kt_cond *conds;
	size_t conds_cap;
	struct kt_section_match *matches;
	int *ids;
	size_t matches_cap, ids_cap;
	struct kt_kfact *kfacts;
	size_t nkfacts, kfacts_cap;
	bool have_kfacts;
	/*
	 * mapdb_parse_for(): what a footprint asks, sorted; NULL reads everything. The records it does not ask for are
	 * read past unchecked (jr_close_unchecked()), which is what makes the summary's load cheap; the options and
	 * sections the kept records name are collected on the way, since the file holds them after the records.
	 */
	const struct mapdb_want *want;
	char **want_sys, **want_reach, **want_first; /* names; reach keys; the first key of each, for patterns */
	size_t nwant_sys, nwant_reach, nwant_first;
	const char **need_opts;
	size_t nneed_opts, need_opts_cap;
	bool need_opts_sorted;
	bool *need_secs;
	size_t need_secs_cap;
	bool stopped;	     /* at "kconfig": what follows is not read */
	const char **others; /* the syscalls left out, by name */
	size_t nothers, others_cap;
};

/* A judge's answer after a member of a record (read_judged in mapdb_load.c says what each does). */
enum verdict { V_ASK, V_ALL, V_CLOSE, V_DROP };

/* L's sorted sets of what w asks for; mapdb_want_release frees them and what the judges collected. */
void mapdb_want_init(struct load *L, const struct mapdb_want *w);
void mapdb_want_release(struct load *L);
/* A kept record: the options and sections it names, which the file holds after the records. */
void mapdb_need_of(struct load *L, const struct sys_rec *r);
enum verdict mapdb_judge_sys(struct load *L, const char *key, const void *rec);
enum verdict mapdb_judge_reach(struct load *L, const char *key, const void *rec);
enum verdict mapdb_judge_opt(struct load *L, const char *key, const void *rec);
enum verdict mapdb_judge_sec(struct load *L, const char *key, const void *rec);

#endif
