/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_FOOTPRINT_KFUNC_H
#define KF_FOOTPRINT_KFUNC_H

/*
 * The kind "kernel functions" (token kfunc): its part of the model (kfunc.c, with its JSON member
 * "kernel_functions"), and its row, fp_kind_kfuncs, which names its other parts: the recorder (trace/kfuncs.c), the
 * annotator and its database (kmap/kfmap.c, kmap/kfuncdb.c), its report sections (report/kfuncs.c).
 */
#include "footprint/footprint.h"

/*
 * Kernel functions the workload's tasks executed (record --kernel-functions), workload-wide. One entry per
 * symbol name; the syscalls each ran under are known when recorded with function_graph only.
 */
#define FP_KFUNC_UNDER_MAX 16

struct fp_kfunc {
	const char *name; /* kernel symbol, "eventfd_write" (a ".isra.0"/".constprop.0" suffix kept as seen); owned */
	uint64_t hits;	  /* calls (ftrace) or samples (sampled stacks) */
	/*
	 * The syscalls it ran under, with its hits under each: the first FP_KFUNC_UNDER_MAX in byte order, the rest
	 * counted in under_other, so that what is kept depends neither on the order of events nor of merges.
	 */
	struct fp_kfunc_under {
		const char *syscall; /* owned */
		uint64_t hits;
	} * under;
	uint32_t nunder;
	uint64_t under_other;
	struct fp_annot annot; /* filled by the annotate stage */
};

struct fp_kfuncs {
	const char *method;	 /* "function_graph", "function", "sampled" (or "mixed" when merged); static */
	bool exhaustive;	 /* false for "sampled": every report says "sampled, not exhaustive" */
	uint64_t lost;		 /* events the tracing buffer lost (any loss also marks the footprint incomplete) */
	char *why_not;		 /* set when kernel functions were asked for but could not be recorded: one line why */
	struct fp_kfunc **funcs; /* private: hash by name, open addressing */
	uint32_t nfuncs, cap;
};

extern const struct fp_kind fp_kind_kfuncs;

/* The footprint's kernel functions; NULL: they were not asked for. */
static inline struct fp_kfuncs *fp_kfuncs_of(const struct footprint *fp)
{
	return fp_kind_part(fp, &fp_kind_kfuncs);
}
/* The footprint's kernel functions, created empty (method, exhaustive) when it has none yet. */
struct fp_kfuncs *fp__kfuncs(struct footprint *fp, const char *method, bool exhaustive);
/* The entry of a function, created with no hits when new (and fp->kfuncs with method "function" when NULL). */
struct fp_kfunc *fp__kfunc(struct footprint *fp, const char *name);
/* n hits of a function, under_syscall the syscall it ran under (NULL: unknown). */
void fp__kfunc_hit(struct footprint *fp, const char *name, const char *under_syscall, uint64_t n);
/* Adds n hits under a syscall to f's bounded list. */
void fp_kfunc_add_under(struct fp_kfunc *f, const char *syscall, uint64_t n);
/* The functions sorted by name (NULL-terminated); caller frees the array only. */
struct fp_kfunc **fp_kfuncs_sorted(const struct footprint *fp);
/* Frees a kernel function table (NULL is fine). */
void fp_kfuncs_free(struct fp_kfuncs *k);

#endif
