/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_KFUNCS_H
#define KF_TRACE_KFUNCS_H

/*
 * record --kernel-functions: the kernel functions the workload's tasks execute, next to whichever backend
 * records the syscalls. Exhaustive through ftrace (function_graph or function tracer in a private tracefs
 * instance, ftrace.c) or, where the kernel refuses function tracing, sampled kernel stacks (perf cpu-clock
 * events and a BPF stack map, kstack.c). Both follow the started command from before its execve (pid filters
 * that follow forks) and aggregate in user space: function -> hits, and hits per syscall it ran under.
 */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "footprint/footprint.h"

enum kfr_mode { KFR_AUTO, KFR_GRAPH, KFR_FUNCTION, KFR_SAMPLED };

struct kfr_opts {
	enum kfr_mode mode;
	unsigned buffer_kb; /* --kernel-buffer-kb: ftrace's per-CPU buffer (0: the kernel's default) */
	unsigned freq;	    /* sampled: samples per second per CPU */
};

/*
 * The recorder is trace_recorder_kfuncs (trace.h), options a struct kfr_opts. Where the asked method cannot run
 * here it says why in one line on stderr and, for auto, falls back (function_graph -> function -> sampled); when
 * nothing can, the footprint's kernel_functions.why_not says why and the recording of syscalls goes on. It
 * follows the started command (held before its execve) or the attached processes: their tasks and all their
 * children; at the end it reads what is left, fills fp->kfuncs and removes every piece of tracing state.
 */

/* --- shared by ftrace.c and kstack.c (kfuncs.c) --- */

/* Kernel text symbols from /proc/kallsyms, sorted by address. */
struct ksyms;
/* NULL and a one-line reason when the addresses are hidden (kptr_restrict) or the file cannot be read. */
struct ksyms *ksyms_load(char *why, size_t len);
/* The function containing addr, NULL when none. */
const char *ksyms_name(const struct ksyms *k, uint64_t addr);
void ksyms_free(struct ksyms *k);

/*
 * Counts per (address, syscall): a hash that grows, so that a tracer's millions of events cost one probe each.
 * nr -1: not under a syscall (or unknown).
 */
struct kfr_counts {
	struct kfr_count {
		uint64_t addr;
		int32_t nr;
		uint32_t used;
		uint64_t hits;
	} * slots;
	uint32_t cap, n;
};
void kfr_count(struct kfr_counts *c, uint64_t addr, int32_t nr, uint64_t hits);
/*
 * Symbolises the counts into fp->kfuncs (created with method and exhaustive when NULL) and frees them; k: the
 * symbols, or NULL to load them now.
 */
int kfr_counts_flush(struct kfr_counts *c, const struct ksyms *k, struct footprint *fp, const char *method,
		     bool exhaustive, char *why, size_t len);
void kfr_counts_release(struct kfr_counts *c);

/* ftrace.c */
struct ftr;
/* NULL and a one-line why when this kernel cannot (mode KFR_GRAPH or KFR_FUNCTION). */
struct ftr *ftr_new(enum kfr_mode mode, unsigned buffer_kb, char *why, size_t len);
int ftr_add_pid(struct ftr *t, pid_t pid);
int ftr_start(struct ftr *t);
/* Stops, drains, removes the instance; fills fp. */
void ftr_finish(struct ftr *t, struct footprint *fp);

/* kstack.c (NULL without BPF) */
struct kstk;
struct kstk *kstk_new(unsigned freq, char *why, size_t len);
int kstk_add_pid(struct kstk *s, pid_t pid);
int kstk_start(struct kstk *s);
void kstk_finish(struct kstk *s, struct footprint *fp);

#endif
