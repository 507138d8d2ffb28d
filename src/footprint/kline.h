/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_FOOTPRINT_KLINE_H
#define KF_FOOTPRINT_KLINE_H

/*
 * The kind "kernel lines" (token kline): the kernel's source lines a workload ran, in a measurement build of the
 * kernel (tailor --measure). Two methods, which answer different questions:
 *   kcov: the PCs of the workload's own tasks (and only theirs), each task enabled before it ran; a set, no counts
 *         that mean executions (hits say how many task areas held the PC);
 *   gcov: execution counts of every line, of the whole guest between a reset and a read (whole_guest).
 *
 * Two stages fill it. The recorder (trace/, in the guest) adds the tasks and their PCs as the running kernel gave
 * them, with the runtime address of _text. Symbolization (kdwarf/) undoes KASLR (text_offset: runtime_text less
 * the vmlinux's _text), checks the build id and turns PCs into lines through the vmlinux's DWARF; gcov's reader
 * adds lines with counts directly. Lines are kept sorted by (file, line):
 * inlined code is counted at its own source lines, as the line table gives them.
 */
#include "footprint/footprint.h"

enum fp_kline_method {
	FP_KLINE_KCOV = 1,
	FP_KLINE_GCOV,
};

/* A task of the workload, as kcov saw it. */
struct fp_kline_task {
	int32_t tid, tgid;
	char *comm;    /* owned; NULL when not known */
	bool covered;  /* kcov was enabled in it before it ran (else why_not) */
	char *why_not; /* owned; one line, when !covered */
	uint64_t pcs;  /* PCs its area held */
	uint64_t lost; /* PCs its area could not hold (overflow): loss, also in fp_klines.lost */
};

/* A distinct PC, as the running kernel gave it, with how many of the tasks' areas held it. */
struct fp_kline_pc {
	uint64_t pc;
	uint64_t hits;
};

struct fp_kline_line {
	char *file;	/* the source file as the tree names it ("fs/eventfd.c"); owned */
	uint32_t line;	/* 1-based */
	uint64_t count; /* gcov: executions; kcov: the hits of the PCs on the line */
	char *function; /* the function whose code the line is (the inlined one for inlined code); owned, or NULL */
};

struct fp_klines {
	enum fp_kline_method method;
	bool whole_guest;      /* the counts are the whole system's, not only the workload's (gcov) */
	char *kernel_release;  /* uname -r of the measurement kernel; owned, or NULL */
	char *build_id;	       /* the GNU build id of the running kernel (/sys/kernel/notes), hex; owned, or NULL */
	uint64_t runtime_text; /* _text of the running kernel (/proc/kallsyms), 0 when not known */
	uint64_t text_offset;  /* runtime_text less the vmlinux's _text, set by symbolization (0 with nokaslr) */
	char *why_not;	       /* set when lines were asked for and could not be recorded: one line; owned */
	uint64_t lost;	       /* PCs lost to overflowed areas, over every task */
	char *vmlinux;	       /* the vmlinux the lines were symbolized with; owned, NULL before */
	char
	    *mixed; /* a merge met inputs it could not add up as one (kcov with gcov, other kernels): one line; owned */
	uint32_t ntasks;
	struct fp_kline_task *tasks; /* in the order they were added */
	uint32_t npcs;
	struct fp_kline_pc *pcs; /* sorted by pc, distinct */
	uint32_t nlines;
	struct fp_kline_line *lines; /* sorted by (file, line), distinct */
};

extern const struct fp_kind fp_kind_klines;

/* The footprint's kernel lines; NULL: they were not asked for. */
static inline struct fp_klines *fp_klines_of(const struct footprint *fp)
{
	return fp_kind_part(fp, &fp_kind_klines);
}
/* The footprint's kernel lines, created empty with method m when it has none yet. */
struct fp_klines *fp__klines(struct footprint *fp, enum fp_kline_method m);
/* A new task row (comm may be NULL); the pointer is valid until the next fp__kline_task(). */
struct fp_kline_task *fp__kline_task(struct fp_klines *k, pid_t tid, pid_t tgid, const char *comm);
/*
 * The PCs of one task's area (n of them, runtime addresses, in any order, repeats allowed): each distinct PC of
 * them adds 1 to its hits. O(n log n + npcs).
 */
void fp_kline_add_pcs(struct fp_klines *k, const uint64_t *pcs, size_t n);
/* count more of (file, line), with its function (NULL: unknown; the first one given is kept). */
void fp_kline_add_line(struct fp_klines *k, const char *file, uint32_t line, uint64_t count, const char *function);
/* The line's row, or NULL. O(log nlines). */
const struct fp_kline_line *fp_kline_find(const struct fp_klines *k, const char *file, uint32_t line);
void fp_klines_free(struct fp_klines *k);
/* "kcov", "gcov" */
const char *fp_kline_method_name(enum fp_kline_method m);

#endif
