// SPDX-License-Identifier: GPL-2.0
/*
 * The call-site recorders' shared half (csite_int.h): a cache of one Dwfl per program image, each holding its
 * modules' files open, and the step from unwound addresses to a key's stack: module and offset per frame, and the
 * function and line looked up once per stack a key keeps, not per call.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/csite_int.h"
#include "util/xalloc.h"

#ifndef KF_NO_DWARF /* a NO_BPF=1 build has no libdw: csite.c refuses --call-sites */

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
	if (p->mem_fd > 0)
		close(p->mem_fd);
	*p = (struct cs_proc){0};
}

int cs_report_maps(struct cs_proc *p)
{
	dwfl_report_begin(p->dwfl);
	if (dwfl_linux_proc_report(p->dwfl, p->tgid) != 0)
		return -1;
	p->stale = false;
	return dwfl_report_end(p->dwfl, NULL, NULL) == 0 ? 0 : -1;
}

struct cs_proc *cs_cache_get(struct cs_cache *c, pid_t tgid, uint64_t start, uint32_t gen, bool from_proc, bool *fresh)
{
	struct cs_proc *p = NULL, *oldest = &c->procs[0];

	*fresh = false;
	for (size_t i = 0; i < CS_CACHE && !p; i++) {
		struct cs_proc *q = &c->procs[i];

		if (q->dwfl && q->tgid == tgid && q->start == start && q->gen == gen)
			p = q;
		else if (q->used < oldest->used)
			oldest = q;
	}
	if (!p) {
		p = oldest;
		proc_drop(p);
		*p = (struct cs_proc){.tgid = tgid, .start = start, .gen = gen, .mem_fd = -1};
		p->dwfl = dwfl_begin(&callbacks);
		p->broken = !p->dwfl || (from_proc && cs_report_maps(p) < 0);
		*fresh = true;
	}
	p->used = ++c->tick;
	return p;
}

void cs_cache_forget(struct cs_cache *c, pid_t tgid, bool stale_only)
{
	for (size_t i = 0; i < CS_CACHE; i++)
		if (c->procs[i].dwfl && c->procs[i].tgid == tgid) {
			if (stale_only)
				c->procs[i].stale = true;
			else
				proc_drop(&c->procs[i]);
		}
}

void cs_cache_free(struct cs_cache *c)
{
	for (size_t i = 0; i < CS_CACHE; i++)
		proc_drop(&c->procs[i]);
}

struct unwind {
	uint32_t depth, n;
	Dwarf_Addr *pc;
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

uint32_t cs_unwind(Dwfl *dwfl, pid_t tid, uint32_t depth, Dwarf_Addr *pc)
{
	struct unwind u = {.depth = depth, .pc = pc};

	dwfl_getthread_frames(dwfl, tid, on_frame, &u);
	return u.n;
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

void cs_add_stack(struct fp_csite_key *k, Dwfl *dwfl, const Dwarf_Addr *pc, uint32_t nframes, uint64_t n)
{
	struct fp_csite_frame frames[FP_CSITE_DEPTH_MAX];
	char anon[] = "[anon]";

	if (nframes > FP_CSITE_DEPTH_MAX)
		nframes = FP_CSITE_DEPTH_MAX;
	/* user space ends below 2^56 (x86-64's 5-level paging, arm64's 52 bits): past it, a frame unwound wrong */
	for (uint32_t i = 0; i < nframes; i++)
		if (pc[i] >> 56) {
			nframes = i;
			break;
		}
	for (uint32_t i = 0; i < nframes; i++)
		place(dwfl, pc[i], &frames[i], anon);
	if (!known(k, frames, nframes))
		for (uint32_t i = 0; i < nframes; i++)
			name_frame(dwfl, pc[i], &frames[i]);
	fp_csite_add(k, frames, nframes, n);
}

#endif
