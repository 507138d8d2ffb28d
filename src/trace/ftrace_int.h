/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_FTRACE_INT_H
#define KF_TRACE_FTRACE_INT_H

/* Private to the ftrace recorder: ftrace.c (the instance) and ftrace_read.c (its buffers). */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/ktrace.h"

/* One event of interest, decoded from a ring-buffer page. */
struct ftr_ev {
	uint64_t ts;
	uint64_t addr; /* function; for a syscall event its number */
	int32_t pid;
	int32_t kind; /* FTR_FUNC, FTR_SYS_ENTER, FTR_SYS_EXIT */
};

enum { FTR_FUNC, FTR_SYS_ENTER, FTR_SYS_EXIT };

struct ftr_cpu {
	int cpu;
	int fd;		    /* per_cpu/cpuN/trace_pipe_raw */
	struct ftr_ev *evs; /* decoded, not yet counted (time order within a CPU) */
	size_t nevs, head, cap;
};

/* An event's type id and where its fields are, from events/SYSTEM/NAME/format. */
struct ftr_fmt {
	int id;
	int off; /* the field we read: ip, func or id */
	int size;
};

struct ftr_task {
	int32_t pid;
	int32_t nr; /* the syscall it is in, -1 for none */
};

struct ftr {
	char dir[256]; /* the instance */
	bool mounted, made, tracer_set, graph, syscalls, started;
	size_t npids;
	struct ftr_cpu *cpus;
	int ncpu;
	size_t subbuf; /* bytes a read returns at most: one sub-buffer (page) */
	int data_off;  /* of the page header's data */
	struct ftr_fmt func, enter, exit_;
	pthread_t thread;
	bool thread_running;
	volatile int stop; /* the reader thread ends at the next round */
	int wake[2];	   /* a pipe that ends its poll at once */
	struct kfr_counts counts;
	char ksyms_why[256];
	struct ksyms *ksyms;	/* read by the reader thread while the workload runs: /proc/kallsyms is slow to read */
	struct ftr_task *tasks; /* pid -> syscall, open addressing */
	uint32_t tasks_cap, ntasks;
	uint64_t newest; /* the latest timestamp read */
	uint64_t events, pages, missed;
	uint64_t reader_cpu_ns; /* CPU time spent reading and counting, for -v */
};

int ftr_write(const char *dir, const char *file, const char *s, bool append);
ssize_t ftr_read(const char *dir, const char *file, char *buf, size_t len);
void ftr_cleanup(struct ftr *t);

/* ftrace_read.c: the formats, the per-CPU files and the thread that reads them. */
int ftr_reader_open(struct ftr *t, char *why, size_t len);
int ftr_reader_start(struct ftr *t);
/* Ends the thread, reads what is left and counts every event. */
void ftr_reader_stop(struct ftr *t);
void ftr_reader_close(struct ftr *t);

#endif
