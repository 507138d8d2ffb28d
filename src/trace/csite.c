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

#ifndef KF_NO_DWARF
#include <elfutils/libdwfl.h>
#endif

/* record's options of the recorder: parsed options, the process's one set */
static struct {
	bool on;	/* --call-sites */
	unsigned depth; /* --call-site-depth */
} opts;

#ifndef KF_NO_DWARF

#define CS_CACHE 16

struct cs_proc {
	pid_t tgid;
	Dwfl *dwfl;
	bool stale;  /* its maps changed since they were reported */
	bool broken; /* libdw could not attach to it: its calls count as unwound_none, no retry per call */
	uint64_t used;
};

struct csr {
	struct footprint *fp;
	uint32_t depth;
	struct cs_proc procs[CS_CACHE];
	uint64_t tick;
	uint64_t calls, failed; /* -v's figures */
};

/*
 * Debug information where libdw looks (beside the file, its .gnu_debuglink, /usr/lib/debug and its .build-id tree:
 * Debian's -dbgsym packages), then in debuginfod's cache by build-id: libdw asks debuginfod only when
 * DEBUGINFOD_URLS is set, and then over the network; a file a past session fetched is used without it.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	int fd = dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file, debuglink_crc,
					      debuginfo_file_name);
	const unsigned char *id;
	const char *cache = getenv("DEBUGINFOD_CACHE_PATH"), *home = getenv("HOME");
	char hex[2 * 64 + 1], *path;
	GElf_Addr vaddr;
	int n;

	if (fd >= 0 || getenv("DEBUGINFOD_URLS"))
		return fd;
	n = dwfl_module_build_id(mod, &id, &vaddr);
	if (n <= 0 || n > 64 || (!cache && !home))
		return -1;
	for (int i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	path = cache ? xasprintf("%s/%s/debuginfo", cache, hex)
		     : xasprintf("%s/.cache/debuginfod_client/%s/debuginfo", home, hex);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		*debuginfo_file_name = path; /* libdw frees it */
	else
		free(path);
	return fd;
}

static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = find_debuginfo,
};

static void proc_drop(struct cs_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	*p = (struct cs_proc){0};
}

static int report_maps(struct cs_proc *p)
{
	dwfl_report_begin(p->dwfl);
	if (dwfl_linux_proc_report(p->dwfl, p->tgid) != 0)
		return -1;
	p->stale = false;
	return dwfl_report_end(p->dwfl, NULL, NULL) == 0 ? 0 : -1;
}

/* The process's entry, its Dwfl made when new; NULL when libdw cannot unwind it. */
static struct cs_proc *proc_of(struct csr *r, pid_t tgid)
{
	struct cs_proc *p = NULL, *oldest = &r->procs[0];

	for (size_t i = 0; i < CS_CACHE && !p; i++) {
		if (r->procs[i].tgid == tgid)
			p = &r->procs[i];
		else if (r->procs[i].used < oldest->used)
			oldest = &r->procs[i];
	}
	if (!p) {
		p = oldest;
		proc_drop(p);
		p->tgid = tgid;
		p->dwfl = dwfl_begin(&callbacks);
		/* the tracer holds the task stopped: libdw reads it through ptrace without attaching again */
		if (!p->dwfl || report_maps(p) < 0 || dwfl_linux_proc_attach(p->dwfl, tgid, true) != 0)
			p->broken = true;
	}
	p->used = ++r->tick;
	return p->broken ? NULL : p;
}

static void proc_forget(struct csr *r, pid_t tgid, bool stale_only)
{
	for (size_t i = 0; i < CS_CACHE; i++)
		if (r->procs[i].tgid == tgid) {
			if (stale_only)
				r->procs[i].stale = true;
			else
				proc_drop(&r->procs[i]);
		}
}

struct unwind {
	Dwfl *dwfl;
	uint32_t depth, n;
	Dwarf_Addr pc[FP_CSITE_DEPTH_MAX];
};

static int on_frame(Dwfl_Frame *state, void *arg)
{
	struct unwind *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	/* a return address is after its call: the call's own line is the byte before */
	u->pc[u->n++] = activation ? pc : pc - 1;
	return u->n == u->depth ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* The frame at pc: its module (its file, or its name: "[vdso]"; "[anon]" for a map without one) and offset. */
static void place(Dwfl *dwfl, Dwarf_Addr pc, struct fp_csite_frame *f, char *anon)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	const char *name = NULL, *file = NULL;
	Dwarf_Addr start = 0, bias = 0;

	*f = (struct fp_csite_frame){.module = anon, .offset = pc};
	if (!mod)
		return;
	name = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, &file, NULL);
	if (file || name)
		f->module = (char *)(file ? file : name);
	f->offset = dwfl_module_getelf(mod, &bias) ? pc - bias : pc - start;
}

/* Whether key k already keeps this stack (compared by module and offset, as fp_csite_add() does). */
static bool known(const struct fp_csite_key *k, struct fp_csite_frame *frames, uint32_t n)
{
	struct fp_csite_stack s = {.nframes = n, .frames = frames};

	for (uint32_t i = 0; i < k->nstacks; i++)
		if (!fp_csite_stack_cmp(&s, &k->stacks[i]))
			return true;
	return false;
}

/* The frame's function and line, where the module's symbols and debug information (or its -dbgsym) tell them. */
static void name_frame(Dwfl *dwfl, Dwarf_Addr pc, struct fp_csite_frame *f)
{
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, pc);
	Dwfl_Line *line;
	int lineno = 0;

	if (!mod)
		return;
	f->function = (char *)dwfl_module_addrname(mod, pc);
	line = dwfl_module_getsrc(mod, pc);
	if (line) {
		const char *src = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);

		if (src && lineno > 0) {
			f->file = (char *)src;
			f->line = (uint32_t)lineno;
		}
	}
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
	struct fp_csite_frame frames[FP_CSITE_DEPTH_MAX];
	char buf[64], anon[] = "[anon]";
	const char *name = kf_syscall_name(abi, nr, buf, sizeof(buf));
	struct fp_csite_key *k =
	    fp__csite_key(fp__csites(r->fp, r->depth), name, err, reached && *reached ? reached : NULL);
	struct unwind u = {.depth = r->depth};
	struct cs_proc *proc;

	r->calls++;
	if (row && (row->flags & KF_SC_EXEC) && !err) {
		/* the stack that made it is gone: the exit stop is in the new program */
		proc_forget(r, tgid, false);
		fp_csite_add(k, NULL, 0, 1);
		return;
	}
	proc = proc_of(r, tgid);
	if (proc && proc->stale && report_maps(proc) < 0)
		proc->broken = true;
	if (proc && !proc->broken) {
		u.dwfl = proc->dwfl;
		dwfl_getthread_frames(u.dwfl, tid, on_frame, &u);
	}
	if (!u.n)
		r->failed++;
	for (uint32_t i = 0; i < u.n; i++)
		place(u.dwfl, u.pc[i], &frames[i], anon);
	if (!known(k, frames, u.n)) /* names are looked up once per stack kept, not per call */
		for (uint32_t i = 0; i < u.n; i++)
			name_frame(u.dwfl, u.pc[i], &frames[i]);
	fp_csite_add(k, frames, u.n, 1);
	if (!err && maps_change(r->fp, name, reached))
		proc_forget(r, tgid, true);
}

static void *rec_new(const void *values, struct footprint *fp)
{
	const __typeof__(opts) *v = values;
	struct csr *r = xcalloc(1, sizeof(*r));

	r->fp = fp;
	r->depth = v->depth ? v->depth : FP_CSITE_DEPTH_DEFAULT;
	fp__csites(fp, r->depth);
	return r;
}

static void rec_finish(void *state, struct footprint *fp)
{
	struct csr *r = state;

	if (!r)
		return;
	debug("call sites: %llu calls, %llu without a stack", (unsigned long long)r->calls,
	      (unsigned long long)r->failed);
	for (size_t i = 0; i < CS_CACHE; i++)
		proc_drop(&r->procs[i]);
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
	     "function, file:line where debug information exists) with counts; ptrace only (auto picks it)"),
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

/* Nothing to follow by pid: the backend hands each call over at its stop. */
static int rec_add_pid(void *r, pid_t pid)
{
	return 0;
}

static int rec_start(void *r)
{
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
    .needs_stops = "--call-sites: the %s backend cannot unwind user stacks yet: use -b %s",
};
