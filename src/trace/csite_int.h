/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_CSITE_INT_H
#define KF_TRACE_CSITE_INT_H

/*
 * What the two recorders of call sites share (csite_sym.c): the ptrace one (csite.c), which unwinds the stopped
 * task, and the bpf one (bpf_csite.c), which unwinds a copy of its stack. Both keep one Dwfl per program image (its
 * modules reported from /proc/PID/maps, or for bpf from perf's mmap records, bpf_cmaps.c) and turn the unwound
 * addresses into a key's stacks the same way.
 */
#ifndef KF_NO_DWARF
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <elfutils/libdwfl.h>

#include "footprint/csite.h"

#define CS_CACHE 16

/* One program image of a process: ptrace drops it at the exec; bpf names it by (start, gen) of its events. */
struct cs_proc {
	pid_t tgid;
	uint64_t start; /* bpf: the process's start time, ns after boot (0 for ptrace) */
	uint32_t gen;	/* bpf: its execs seen before the image (0 for ptrace) */
	Dwfl *dwfl;
	bool stale;	   /* its maps changed since they were reported */
	bool broken;	   /* libdw could not attach to it: its calls count as unwound_none, no retry per call */
	bool recorded;	   /* bpf: its modules are from perf's mmap records (bpf_cmaps.c), not /proc/PID/maps */
	uint64_t reported; /* bpf, recorded: the time its modules were reported as of */
	uint64_t used;
	int mem_fd;	    /* bpf: /proc/PID/mem, -1 until opened (or when it cannot be), -2 never: another image's */
	const void *cur;    /* bpf: the event being unwound */
	uint64_t mem_reads; /* bpf: of the unwinding, reads past the copy */
};

struct cs_cache {
	struct cs_proc procs[CS_CACHE];
	uint64_t tick;
};

/*
 * The entry of (tgid, start, gen); a new one (*fresh) has its Dwfl begun and, when from_proc, its modules reported
 * from /proc/PID/maps (else by the caller), or is broken. The least recently used entry makes room.
 */
struct cs_proc *cs_cache_get(struct cs_cache *c, pid_t tgid, uint64_t start, uint32_t gen, bool from_proc, bool *fresh);
/* The process's entries dropped, or only marked stale (its modules reported again at their next use). */
void cs_cache_forget(struct cs_cache *c, pid_t tgid, bool stale_only);
void cs_cache_free(struct cs_cache *c);
/* Reports the entry's modules again from /proc/PID/maps: 0 or -1. */
int cs_report_maps(struct cs_proc *p);
/* The innermost frames of thread tid of dwfl's attached process, at most depth: their count. */
uint32_t cs_unwind(Dwfl *dwfl, pid_t tid, uint32_t depth, Dwarf_Addr *pc);
/*
 * n calls of k from the stack of the n frames at pc (dwfl: the modules they are in): each frame placed in its
 * module, named (function, file:line) only when k does not keep the stack yet. No frame: unwound_none.
 */
void cs_add_stack(struct fp_csite_key *k, Dwfl *dwfl, const Dwarf_Addr *pc, uint32_t nframes, uint64_t n);

/*
 * The mappings of the started command's processes from perf's mmap, comm and task records (bpf_cmaps.c), for
 * the bpf recorder: NULL and why when perf_event_open refuses. csm_drain() takes in the records so far.
 */
struct csm;
struct csm *csm_new(pid_t pid, char *why, size_t len);
void csm_drain(struct csm *m);
/* The image (1 on) tgid was at CLOCK_MONOTONIC time t; 0 when the records do not know it (or some were lost). */
uint32_t csm_image(struct csm *m, pid_t tgid, uint64_t t);
/* Reports dwfl's modules as image's mappings were at time t: 0 or -1. */
int csm_report(struct csm *m, Dwfl *dwfl, pid_t tgid, uint32_t image, uint64_t t);
/* Whether image has mappings made after time `after`, up to t: its modules then need reporting again. */
bool csm_newer(struct csm *m, pid_t tgid, uint32_t image, uint64_t after, uint64_t t);
void csm_stats(const struct csm *m, uint64_t *records, bool *lost);
void csm_free(struct csm *m);

/*
 * The bpf recorder (bpf_csite.c): NULL and why when it cannot run here. Its programs load once the backend's are,
 * with its maps (csb_ready()); the tasks given and the start asked for before that take effect then.
 */
struct csb;
struct trace_bpf_shared;
struct csb *csb_new(struct footprint *fp, uint32_t depth, char *why, size_t len);
int csb_add_pid(struct csb *b, pid_t pid);
int csb_start(struct csb *b);
void csb_ready(struct csb *b, const struct trace_bpf_shared *shared);
/* Stops it, drains its events, counts what it sampled away; fp NULL: tear down only. Frees b. */
void csb_finish(struct csb *b, struct footprint *fp);
#endif

#endif
