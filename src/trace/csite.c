// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder of the kind "call sites" (footprint/csite.h), record --call-sites: at the exit stop of each call the
 * ptrace backend gives it (struct trace_recorder's syscall_exit), the task's user stack unwound by libdw, as
 * strace -k does: elfutils' Dwfl attached to the stopped process (it reads the registers and memory through ptrace,
 * which the tracer holds), its frames by the modules' CFI. The unwinding is at the exit, not the entry: the user
 * registers and stack are the same at both, and the errno is known then.
 *
 * One Dwfl per process (its modules reported from /proc/PID/maps), kept until the process execs (a successful
 * exec's exit drops it) and marked stale by a successful munmap, mremap or mmap of a file (a library loaded or
 * gone): its modules are reported again at its next unwind. At most CS_CACHE processes' are kept,
 * each holding its modules' files open: an older one is dropped (a process that ended is never told here). A frame's
 * function and line are looked up once per stack a key keeps, not per call.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "abi/syscalls.h"
#include "footprint/csite.h"
#include "trace/trace.h"
#include "util/error.h"
#include "util/options.h"
#include "util/parse.h"
#include "util/xalloc.h"

#include "trace/csite_int.h"

/* record's options of the recorder: parsed options, the process's one set */
static struct {
	bool on;	/* --call-sites */
	unsigned depth; /* --call-site-depth */
} opts;

#ifndef KF_NO_DWARF

struct csr {
	struct footprint *fp;
	uint32_t depth;
	struct cs_cache cache;
	struct csb *bpf;	/* -b bpf: the recorder of its own (bpf_csite.c); NULL with ptrace */
	uint64_t calls, failed; /* -v's figures */
};

/* The process's entry, attached when new; NULL when libdw cannot unwind it. */
static struct cs_proc *proc_of(struct csr *r, pid_t tgid)
{
	bool fresh;
	struct cs_proc *p = cs_cache_get(&r->cache, tgid, 0, 0, true, &fresh);

	/* the tracer holds the task stopped: libdw reads it through ptrace without attaching again */
	if (fresh && !p->broken && dwfl_linux_proc_attach(p->dwfl, tgid, true) != 0)
		p->broken = true;
	return p->broken ? NULL : p;
}

/*
 * Whether a successful call may have changed which file is mapped where: an unmap or a move, or a map of a file
 * (what it reached names its fd; without what calls reached, any map). A map of anonymous memory, the most
 * frequent, adds no module.
 */
static bool maps_change(const struct footprint *fp, const char *name, const char *reached)
{
	if (!strcmp(name, "munmap") || !strcmp(name, "mremap"))
		return true;
	if (strcmp(name, "mmap") && strcmp(name, "mmap2"))
		return false;
	return !fp->reach || !strncmp(reached ? reached : "", "fd ", 3);
}

static void rec_syscall_exit(void *state, pid_t tid, pid_t tgid, enum kf_abi abi, int nr, int err, const char *reached)
{
	struct csr *r = state;
	const struct kf_syscall *row = kf_syscall_by_nr(abi, nr);
	char buf[64];
	const char *name = kf_syscall_name(abi, nr, buf, sizeof(buf));
	struct fp_csite_key *k =
	    fp__csite_key(fp__csites(r->fp, r->depth), name, err, reached && *reached ? reached : NULL);
	Dwarf_Addr pc[FP_CSITE_DEPTH_MAX];
	uint32_t n = 0;
	struct cs_proc *proc;

	r->calls++;
	if (row && (row->flags & KF_SC_EXEC) && !err) {
		/* the stack that made it is gone: the exit stop is in the new program */
		cs_cache_forget(&r->cache, tgid, false);
		fp_csite_add(k, NULL, 0, 1);
		return;
	}
	proc = proc_of(r, tgid);
	if (proc && proc->stale && cs_report_maps(proc) < 0)
		proc->broken = true;
	if (proc && !proc->broken)
		n = cs_unwind(proc->dwfl, tid, r->depth, pc);
	if (!n)
		r->failed++;
	cs_add_stack(k, proc ? proc->dwfl : NULL, pc, n, 1);
	if (!err && maps_change(r->fp, name, reached))
		cs_cache_forget(&r->cache, tgid, true);
}

static void *rec_new(const void *values, struct footprint *fp)
{
	const __typeof__(opts) *v = values;
	struct csr *r = xcalloc(1, sizeof(*r));

	r->fp = fp;
	r->depth = v->depth ? v->depth : FP_CSITE_DEPTH_DEFAULT;
	fp__csites(fp, r->depth);
	if (fp->backend && !strcmp(fp->backend, "bpf")) {
		char why[256];

		r->bpf = csb_new(fp, r->depth, why, sizeof(why));
		if (!r->bpf) {
			/* said, and kept in the footprint: the rest of the recording goes on */
			warning("--call-sites: %s", why);
			fp__csites(fp, r->depth)->why_not = xstrdup(why);
		}
	}
	return r;
}

static void rec_finish(void *state, struct footprint *fp)
{
	struct csr *r = state;

	if (!r)
		return;
	if (r->bpf)
		csb_finish(r->bpf, fp);
	debug("call sites: %llu calls, %llu without a stack", (unsigned long long)r->calls,
	      (unsigned long long)r->failed);
	cs_cache_free(&r->cache);
	free(r);
}

#else /* KF_NO_DWARF: a build without libdw refuses the option in rec_check() */

static void rec_syscall_exit(void *state, pid_t tid, pid_t tgid, enum kf_abi abi, int nr, int err, const char *reached)
{
}

static void *rec_new(const void *values, struct footprint *fp)
{
	return NULL;
}

static void rec_finish(void *state, struct footprint *fp)
{
}

#endif

static int opt_depth(const char *value, void *values)
{
	unsigned long d;

	if (parse_ulong("--call-site-depth", value, 1, FP_CSITE_DEPTH_MAX, &d) < 0)
		return -1;
	((__typeof__(opts) *)values)->depth = (unsigned)d;
	return 0;
}

#define O __typeof__(opts)
static const struct kf_option options[] = {
    OPT_BOOL(0, "call-sites", O, on,
	     "also record who in user space made each call: per syscall and errno, the distinct stacks (module+offset, "
	     "function, file:line where debug information exists) with counts (auto picks ptrace, exact; bpf samples)"),
    OPT_CALLBACK(0, "call-site-depth", "N", opt_depth,
		 "--call-sites: the innermost N frames of each stack (default 8, at most 32)"),
    OPT_END(),
};
#undef O

static int rec_check(void)
{
	if (opts.depth && !opts.on)
		return error("--call-site-depth is the depth of --call-sites: give --call-sites too");
	if (!opts.on)
		return 0;
#ifdef KF_NO_DWARF
	return error("--call-sites: a NO_BPF=1 build has no libdw to unwind user stacks: build without NO_BPF");
#else
	return 1;
#endif
}

/* With ptrace nothing to follow by pid: the backend hands each call over at its stop. */
static int rec_add_pid(void *state, pid_t pid, bool attached)
{
	(void)attached;
#ifndef KF_NO_DWARF
	struct csr *r = state;

	if (r && r->bpf)
		return csb_add_pid(r->bpf, pid);
#endif
	return 0;
}

static bool rec_joins_bpf(void *state)
{
#ifndef KF_NO_DWARF
	const struct csr *r = state;

	return r && r->bpf;
#else
	(void)state;
	return false;
#endif
}

static void rec_bpf_ready(void *state, const struct trace_bpf_shared *shared)
{
#ifndef KF_NO_DWARF
	struct csr *r = state;

	if (r && r->bpf)
		csb_ready(r->bpf, shared);
#else
	(void)state;
	(void)shared;
#endif
}

static int rec_start(void *state)
{
#ifndef KF_NO_DWARF
	struct csr *r = state;

	if (r && r->bpf)
		return csb_start(r->bpf);
#endif
	return 0;
}

const struct trace_recorder trace_recorder_csites = {
    .name = "--call-sites",
    .options = options,
    .values = &opts,
    .check = rec_check,
    .new = rec_new,
    .add_pid = rec_add_pid,
    .start = rec_start,
    .finish = rec_finish,
    .syscall_exit = rec_syscall_exit,
    .joins_bpf = rec_joins_bpf,
    .bpf_ready = rec_bpf_ready,
};
