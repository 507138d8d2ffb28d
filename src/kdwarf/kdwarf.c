// SPDX-License-Identifier: GPL-2.0
// The DWARF reader: compilation units and function definitions through elfutils libdw. A debug vmlinux has
// about 3,000 units and half a million subprogram entries, so functions are read from the top level of each
// unit only (C has no namespaces; GCC writes every function there), never by walking every entry of a unit.
#include <stdio.h>

#include "kdwarf/kdwarf.h"

#ifndef KF_NO_DWARF
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kdwarf/kd_int.h"
#include "util/xalloc.h"

static void set_why(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!why || !len)
		return;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
}

/* libdw's "no DWARF" error code is private: look for the section ourselves (.zdebug_info: old compression). */
static bool has_debug_info(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")))
			return true;
	}
	return false;
}

struct kd_file *kd_open(const char *path, char *why, size_t len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		set_why(why, len, "%s", strerror(errno));
		return NULL;
	}
	/* A FIFO or a device would block or stream forever; a vmlinux is a regular file. */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		set_why(why, len, "not a regular file");
		close(fd);
		return NULL;
	}
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		set_why(why, len, "not an ELF file");
		if (elf)
			elf_end(elf);
		close(fd);
		return NULL;
	}
	if (!has_debug_info(elf)) {
		set_why(why, len, "no DWARF debug information (stripped? a debug vmlinux is in the -dbg package)");
		elf_end(elf);
		close(fd);
		return NULL;
	}
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!dw) {
		set_why(why, len, "cannot read its DWARF: %s", dwarf_errmsg(-1));
		elf_end(elf);
		close(fd);
		return NULL;
	}
	struct kd_file *f = xcalloc(1, sizeof(*f));
	f->fd = fd;
	f->elf = elf;
	f->dw = dw;
	return f;
}

void kd_close(struct kd_file *f)
{
	if (!f)
		return;
	dwarf_end(f->dw);
	elf_end(f->elf);
	close(f->fd);
	free(f);
}

const char *kd_error(const struct kd_file *f)
{
	return f->err;
}

static int dw_fail(struct kd_file *f, const char *what)
{
	snprintf(f->err, sizeof(f->err), "%s: %s", what, dwarf_errmsg(-1));
	return -1;
}

/*
 * The next compilation unit's DIE: type units, partial units (dwz) and skeletons are skipped. 1 with *cudie
 * set, 0 at the end, -1 on error.
 */
static int next_cu(struct kd_file *f, Dwarf_CU **cu, Dwarf_Die *cudie)
{
	for (;;) {
		Dwarf_Half version;
		uint8_t type;
		int r = dwarf_get_units(f->dw, *cu, cu, &version, &type, cudie, NULL);

		if (r == 1)
			return 0;
		if (r < 0)
			return dw_fail(f, "reading the units");
		if (type == DW_UT_compile && dwarf_tag(cudie) == DW_TAG_compile_unit)
			return 1;
	}
}

static const char *str_attr(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr(die, name, &a));
}

int kd_each_unit(struct kd_file *f, int (*cb)(const struct kd_cu *cu, void *ctx), void *ctx)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	int r;

	f->err[0] = 0;
	while ((r = next_cu(f, &cu, &cudie)) == 1) {
		struct kd_cu u = {
		    .name = dwarf_diename(&cudie),
		    .comp_dir = str_attr(&cudie, DW_AT_comp_dir),
		    .producer = str_attr(&cudie, DW_AT_producer),
		    .lang = dwarf_srclang(&cudie),
		};
		if (!u.name)
			continue;
		u.assembler = u.lang == DW_LANG_Mips_Assembler;
		int stop = cb(&u, ctx);
		if (stop)
			return stop;
	}
	return r;
}

struct cu_shim {
	int (*cb)(const char *name, const char *comp_dir, void *ctx);
	void *ctx;
};

static int cu_shim_cb(const struct kd_cu *cu, void *ctx)
{
	struct cu_shim *s = ctx;

	return s->cb(cu->name, cu->comp_dir, s->ctx);
}

int kd_each_cu(struct kd_file *f, int (*cb)(const char *name, const char *comp_dir, void *ctx), void *ctx)
{
	struct cu_shim s = {cb, ctx};

	return kd_each_unit(f, cu_shim_cb, &s);
}

/* ---- functions ---------------------------------------------------------------------------------------- */

struct sub {
	Dwarf_Die die;
	Dwarf_Off origin; /* the abstract instance an out-of-line copy stands for (DW_AT_abstract_origin), or 0 */
	bool code;	  /* has low_pc or ranges */
	bool abstract;	  /* DW_AT_inline: an abstract instance */
};

static int cmp_off(const void *a, const void *b)
{
	Dwarf_Off x = *(const Dwarf_Off *)a, y = *(const Dwarf_Off *)b;

	return x < y ? -1 : x > y;
}

/* The first row of the (address-sorted) line table at or after addr. */
static size_t first_row(Dwarf_Lines *lines, size_t n, Dwarf_Addr addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		Dwarf_Addr a = 0;

		dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a);
		if (a < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The highest line of file (at or after line) among the rows of [start, end). */
static int last_line(Dwarf_Lines *lines, size_t n, Dwarf_Addr start, Dwarf_Addr end, const char *file, int line)
{
	int best = line;

	for (size_t i = first_row(lines, n, start); i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a = 0;
		int ln = 0;

		if (dwarf_lineaddr(l, &a) || a >= end)
			break;
		if (dwarf_lineno(l, &ln) || ln <= best)
			continue;
		const char *src = dwarf_linesrc(l, NULL, NULL);
		if (src && (src == file || !strcmp(src, file)))
			best = ln;
	}
	return best;
}

static int emit(Dwarf_Die *die, bool inlined_only, Dwarf_Lines *lines, size_t nlines, const char *cuname,
		int (*cb)(const struct kd_func *fn, void *ctx), void *ctx)
{
	struct kd_func fn = {.name = dwarf_diename(die), .file = dwarf_decl_file(die), .cu = cuname};
	Dwarf_Attribute a;
	bool flag = false;

	if (!fn.name)
		return 0;
	if (!fn.file)
		fn.file = "";
	dwarf_decl_line(die, &fn.line);
	fn.line_end = fn.line;
	if (dwarf_formflag(dwarf_attr_integrate(die, DW_AT_external, &a), &flag) == 0)
		fn.external = flag;
	fn.inlined_only = inlined_only;
	if (!inlined_only) {
		Dwarf_Addr base, start, end;
		ptrdiff_t off = 0;
		bool first = true;

		while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0) {
			if (first || start < fn.low_pc)
				fn.low_pc = start;
			first = false;
			if (lines && *fn.file)
				fn.line_end = last_line(lines, nlines, start, end, fn.file, fn.line_end);
		}
	}
	return cb(&fn, ctx);
}

static int unit_funcs(Dwarf_Die *cudie, int (*cb)(const struct kd_func *fn, void *ctx), void *ctx)
{
	struct sub *subs = NULL;
	size_t nsubs = 0, cap = 0;
	Dwarf_Die child;
	int r = 0;

	if (dwarf_child(cudie, &child) != 0)
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_subprogram)
			continue;
		Dwarf_Attribute a;
		Dwarf_Addr lo;
		Dwarf_Addr base, start, end;
		struct sub s = {.die = child};

		s.code = dwarf_lowpc(&child, &lo) == 0 || dwarf_ranges(&child, 0, &base, &start, &end) > 0;
		s.abstract = dwarf_hasattr(&child, DW_AT_inline);
		Dwarf_Die origin;
		if (dwarf_attr(&child, DW_AT_abstract_origin, &a) && dwarf_formref_die(&a, &origin))
			s.origin = dwarf_dieoffset(&origin);
		if (!s.code && !s.abstract)
			continue; /* a declaration */
		XGROW(subs, cap, nsubs + 1);
		subs[nsubs++] = s;
	} while (dwarf_siblingof(&child, &child) == 0);

	/* Abstract instances that an out-of-line copy of this unit already stands for are reported through it. */
	Dwarf_Off *origins = xmalloc((nsubs + 1) * sizeof(*origins));
	size_t norigins = 0;
	bool any_code = false;
	for (size_t i = 0; i < nsubs; i++) {
		if (subs[i].code && subs[i].origin)
			origins[norigins++] = subs[i].origin;
		any_code |= subs[i].code;
	}
	qsort(origins, norigins, sizeof(*origins), cmp_off);

	Dwarf_Lines *lines = NULL;
	size_t nlines = 0;
	if (any_code && dwarf_getsrclines(cudie, &lines, &nlines) != 0)
		lines = NULL; /* no line table: line_end stays the declaration line */

	const char *cuname = dwarf_diename(cudie);
	for (size_t i = 0; i < nsubs && !r; i++) {
		if (subs[i].code) {
			r = emit(&subs[i].die, false, lines, nlines, cuname, cb, ctx);
			continue;
		}
		Dwarf_Off off = dwarf_dieoffset(&subs[i].die);
		if (!bsearch(&off, origins, norigins, sizeof(*origins), cmp_off))
			r = emit(&subs[i].die, true, NULL, 0, cuname, cb, ctx);
	}
	free(origins);
	free(subs);
	return r;
}

int kd_each_func(struct kd_file *f, int (*cb)(const struct kd_func *fn, void *ctx), void *ctx)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	int r;

	f->err[0] = 0;
	while ((r = next_cu(f, &cu, &cudie)) == 1) {
		int stop = unit_funcs(&cudie, cb, ctx);
		if (stop)
			return stop;
	}
	return r;
}

#else /* KF_NO_DWARF: the ptrace-only build links neither libdw nor libelf */

struct kd_file *kd_open(const char *path, char *why, size_t len)
{
	if (why && len)
		snprintf(why, len, "this kfootprint was built without libdw (make NO_BPF=1): no DWARF reading");
	return NULL;
}

void kd_close(struct kd_file *f)
{
}

const char *kd_error(const struct kd_file *f)
{
	return "";
}

int kd_each_cu(struct kd_file *f, int (*cb)(const char *name, const char *comp_dir, void *ctx), void *ctx)
{
	return -1;
}

int kd_each_unit(struct kd_file *f, int (*cb)(const struct kd_cu *cu, void *ctx), void *ctx)
{
	return -1;
}

int kd_each_func(struct kd_file *f, int (*cb)(const struct kd_func *fn, void *ctx), void *ctx)
{
	return -1;
}
#endif
