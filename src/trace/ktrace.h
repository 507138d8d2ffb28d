/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_KTRACE_H
#define KF_TRACE_KTRACE_H

/*
 * The kernel's tracers that a recorder runs beside the backend (the kernel functions' recorder):
 * ftrace's function_graph or function tracer in a private tracefs instance (ftrace.c) or, where the kernel refuses
 * function tracing, sampled kernel stacks (perf cpu-clock events and a BPF stack map, kstack.c). Both follow the
 * started command from before its execve (pid filters that follow forks) and aggregate in user space: functions
 * by address, and hits per syscall each ran under. They hand back what they counted; what becomes of it is the
 * recorder's.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum kfr_mode { KFR_AUTO, KFR_GRAPH, KFR_FUNCTION, KFR_SAMPLED };

/* --- shared by ftrace.c and kstack.c (held by the recorder) --- */

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
void kfr_counts_release(struct kfr_counts *c);

/* Where a tracer names what it counted: n hits of a function, under_syscall the syscall it ran under (or NULL). */
struct ktr_sink {
	void (*hit)(struct ktr_sink *s, const char *name, const char *under_syscall, uint64_t n);
};

/* ftrace.c */
struct ftr;
/* NULL and a one-line why when this kernel cannot (mode KFR_GRAPH or KFR_FUNCTION). */
struct ftr *ftr_new(enum kfr_mode mode, unsigned buffer_kb, char *why, size_t len);
int ftr_add_pid(struct ftr *t, pid_t pid);
int ftr_start(struct ftr *t);
/* What the tracer counted, the caller's to release (the counts and the symbols read while it ran, or NULL). */
struct ftr_result {
	struct kfr_counts counts;
	struct ksyms *ksyms;
	bool graph; /* function_graph, else the function tracer */
	uint64_t lost, events, pages, reader_cpu_ns;
};
/* Stops, drains, removes the instance and frees t; res NULL: the recording failed, nothing is kept. */
void ftr_finish(struct ftr *t, struct ftr_result *res);

/* kstack.c (NULL without BPF) */
struct kstk;
struct kstk *kstk_new(unsigned freq, char *why, size_t len);
int kstk_add_pid(struct kstk *s, pid_t pid);
int kstk_start(struct kstk *s);
struct kstk_stats {
	uint64_t samples, lost, user, nostack;
};
/*
 * Stops and frees s; with a sink, names every function of every stack sampled into it first (each once per
 * stack) and fills st: 0, or -1 with a one-line why when the symbols cannot be read.
 */
int kstk_finish(struct kstk *s, struct ktr_sink *sink, struct kstk_stats *st, char *why, size_t len);

#endif
