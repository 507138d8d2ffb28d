/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_FOOTPRINT_CSITE_H
#define KF_FOOTPRINT_CSITE_H

/*
 * The kind "call sites" (token csite): who in user space made each call (record --call-sites). Its part of the model
 * (csite.c, with its JSON member "call_sites"), and its row, fp_kind_csites, which names its other parts: the
 * recorder (trace/csite.c, ptrace only), its text section (report/csite.c).
 *
 * For each (syscall, errno, what the call reached) key, the distinct stacks of the calls: the innermost frames, each a
 * module and the address in it as its ELF names it (what addr2line -e MODULE takes), with the function and the source
 * line where the module's symbols and debug information tell them. Memory is bounded: a key keeps at most
 * FP_CSITE_STACKS_MAX stacks, the first in the order fp_csite_stack_cmp() gives (so that what is kept depends neither
 * on the order of calls nor of merges); the calls of the others are counted in `other`.
 */
#include "footprint/footprint.h"

#define FP_CSITE_DEPTH_MAX     32
#define FP_CSITE_DEPTH_DEFAULT 8
#define FP_CSITE_STACKS_MAX    16

struct fp_csite_frame {
	char *module;	 /* the mapped file, "/usr/lib/x86_64-linux-gnu/libc.so.6", or "[anon]"/"[vdso]"; owned */
	uint64_t offset; /* the address in the module's ELF (the runtime address less the load bias) */
	char *function;	 /* NULL: no symbol covers it; owned */
	char *file;	 /* NULL: no line information; owned */
	uint32_t line;	 /* with file */
};

struct fp_csite_stack {
	uint64_t calls;
	uint32_t nframes; /* innermost first, at most the footprint's depth */
	struct fp_csite_frame *frames;
};

struct fp_csite_key {
	char *syscall;	/* "eventfd2"; owned */
	int err;	/* 0: succeeded (or never returned) */
	char *reached;	/* what the calls reached, "fd pipe" ("kind value[, kind value]"); NULL: nothing; owned */
	uint64_t calls; /* every call of the key, those kept and the others */
	uint64_t other; /* calls whose stack is not kept (past FP_CSITE_STACKS_MAX) */
	uint64_t unwound_none; /* calls whose stack could not be read at all (counted in calls, not in stacks) */
	/*
	 * calls whose stack was not read because the recorder sampled (the bpf backend past a key's first calls, or an
	 * event its ring buffer dropped): counted in calls, not in stacks; non-zero, the stacks' counts are of a sample
	 */
	uint64_t unsampled;
	uint32_t nstacks;
	struct fp_csite_stack *stacks; /* in fp_csite_stack_cmp() order */
};

struct fp_csites {
	uint32_t depth;	 /* frames kept per stack */
	bool exhaustive; /* false when merged with footprints recorded without call sites */
	char *why_not;	 /* set when call sites were asked for but could not be recorded: one line why */
	uint32_t nkeys;
	struct fp_csite_key *keys; /* by syscall, then errno */
};

extern const struct fp_kind fp_kind_csites;

/* The footprint's call sites; NULL: they were not asked for. */
static inline struct fp_csites *fp_csites_of(const struct footprint *fp)
{
	return fp_kind_part(fp, &fp_kind_csites);
}
/* The footprint's call sites, created empty with depth when it has none yet. */
struct fp_csites *fp__csites(struct footprint *fp, uint32_t depth);
/* The key of (syscall, err, reached: NULL for nothing), created with no calls when new. */
struct fp_csite_key *fp__csite_key(struct fp_csites *c, const char *syscall, int err, const char *reached);
/*
 * n calls of key k made from the stack of frames (copied; NULL with nframes 0: the stack could not be read). Keeps
 * the stack when it is among the first FP_CSITE_STACKS_MAX, else counts the calls as other.
 */
void fp_csite_add(struct fp_csite_key *k, const struct fp_csite_frame *frames, uint32_t nframes, uint64_t n);
/* n calls of key k whose stacks the recorder did not read (sampled away): counted, in unsampled. */
void fp_csite_unsampled(struct fp_csite_key *k, uint64_t n);
/* Orders stacks by their frames' module and offset (a prefix first): the order of what is kept. */
int fp_csite_stack_cmp(const struct fp_csite_stack *a, const struct fp_csite_stack *b);
void fp_csites_free(struct fp_csites *c);
/* A key as the member "call_sites" writes it (docs/footprint-format.md), for the renderers that repeat keys. */
void fp_csite_json_key(json_writer_t *w, const struct fp_csite_key *k);
/*
 * Whether key k holds calls that `needer` names: a syscall ("eventfd2", any errno but ENOSYS: the probes do not
 * need it), or what calls reached as a mapping labels it ("fd anon:[eventfd]"), one of the key's "kind value".
 */
bool fp_csite_key_of(const struct fp_csite_key *k, const char *needer);

#endif
