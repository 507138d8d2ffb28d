/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_FOOTPRINT_JSON_READ_H
#define KF_FOOTPRINT_JSON_READ_H

/*
 * Private to the kfootprint/1 reader: footprint_json_read.c reads the document, its header, syscalls[] and
 * sources[]; footprint_json_proc.c reads processes[]; each kind's file its member (struct fp_kind);
 * footprint_json_member.c has the typed member readers they share. Every reader returns -1 after ld_fail() (or on a
 * syntax error) and 0 when it is done; those that read a member's value read all of it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "footprint/footprint.h"
#include "util/json_reader.h"

/* Counts are written as int64 by every JSON tool; past it, a count is not one kfootprint wrote. */
#define COUNT_MAX ((uint64_t)INT64_MAX)

/* Field flags. */
enum { OPT = 0, REQ = 1 << 0, NUL_OK = 1 << 1 };

/* A per-process syscall key that names a syscall only the workload-wide list (not read yet) knows. */
struct pending {
	size_t proc; /* index in fp->procs */
	char *key;
	uint64_t calls, errors, time_ns;
	struct fp_sysstat reach; /* its refinements (reach only) */
};

/* footprint_json_names.c: the workload-wide rows by (ABI, name), beside the table's own index by number. */
struct ld_names {
	const struct fp_sysstat **slots;
	uint32_t cap, count;
};
const struct fp_sysstat *ld_names_find(const struct ld_names *n, enum kf_abi abi, const char *name);
void ld_names_add(struct ld_names *n, const struct fp_sysstat *s);
void ld_names_release(struct ld_names *n);

struct loader {
	const char *what;
	struct footprint *fp;
	struct json_reader jr;
	char *msg;	    /* the first problem with the content */
	char *schema_msg;   /* the schema's problem */
	bool schema_seen;   /* a good one */
	bool syscalls_read; /* the workload-wide syscalls[] */
	size_t proc_source; /* 1 + the index of the first process with a "source" (merged footprints) */
	struct pending *pending;
	size_t npending, pending_cap;
	struct ld_names names; /* syscalls[] so far */
	const char *head;      /* the input's first bytes (kf_input's, or the buffer's): what a refused one is */
	const size_t *nhead;
};

/* A member-name table and its length, for ld_next_member(). */
#define NAMES(a) a, sizeof(a) / sizeof(a[0])

/* footprint_json_member.c: the typed readers (ctx and key name the member in messages; see each definition). */
__attribute__((format(printf, 4, 5))) int ld_fail(struct loader *ld, const char *ctx, const char *key, const char *fmt,
						  ...);
const char *ld_type_name(const struct loader *ld, enum jr_event ev);
int ld_value_of(struct loader *ld, const char *ctx, const char *key, enum jr_event t, bool is_int, unsigned flags,
		enum jr_event *got);
int ld_to_count(struct loader *ld, const char *ctx, const char *key, uint64_t max, uint64_t *out);
int ld_get_count(struct loader *ld, const char *ctx, const char *key, uint64_t max, uint64_t *out);
int ld_get_count_or_null(struct loader *ld, const char *ctx, const char *key, uint64_t *out, bool *found);
int ld_get_int(struct loader *ld, const char *ctx, const char *key, int64_t min, int64_t max, int *out);
int ld_get_seconds(struct loader *ld, const char *ctx, const char *key, unsigned flags, double *out, bool *found);
int ld_get_ns(struct loader *ld, const char *ctx, const char *key, uint64_t *out);
int ld_get_bool(struct loader *ld, const char *ctx, const char *key, bool *out);
int ld_to_bytes(struct loader *ld, const char *ctx, const char *key, char **out);
int ld_get_str(struct loader *ld, const char *ctx, const char *key, char **out);
/* A name (valid_name: not empty, no control byte, bounded) into *out: 1, 0 when absent (OPT), or -1. */
int ld_get_name(struct loader *ld, const char *ctx, const char *key, char **out);
int ld_get_strv(struct loader *ld, const char *ctx, const char *name, char ***out);
int ld_next_member(struct loader *ld, const char *ctx, const char *const *names, size_t n, uint32_t *seen, int *k);
int ld_skip_value(struct loader *ld);
const char *ld_sub_ctx(char *buf, size_t len, const char *ctx, const char *key);
int ld_objects(struct loader *ld, const char *ctx, const char *key,
	       int (*fn)(struct loader *ld, const char *ctx, size_t i, void *arg), void *arg);
int ld_keyed(struct loader *ld, const char *ctx, const char *key,
	     int (*fn)(struct loader *ld, const char *ctx, void *arg), void *arg);
int ld_errno_of_text(const struct loader *ld);
int ld_get_exit(struct loader *ld, const char *ctx, struct fp_exit *out);
int ld_load_reach(struct loader *ld, const char *ctx, size_t index, void *arg);
/* An item's "kernel" object: its place, kept; *out NULL when it names none (or is not an object). */
int ld_get_place(struct loader *ld, const struct fp_kplace **out);
int ld_move_reach(struct loader *ld, const char *ctx, struct fp_sysstat *from, struct fp_sysstat *s);

/* footprint_json_proc.c: processes[] (an ld_objects() callback), and the keys that waited for syscalls[]. */
bool ld_valid_sc_name(const char *s);
int ld_load_proc(struct loader *ld, const char *ctx, size_t index, void *arg);
int ld_resolve_pending(struct loader *ld);

#endif
