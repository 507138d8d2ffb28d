// SPDX-License-Identifier: GPL-2.0
/*
 * PCs to source lines through libdw (klines.h). A kcov run gives tens of thousands of distinct PCs, sorted: the
 * unit of the last one is tried first (dwarf_addrdie() searches the aranges), and the function of a PC is asked of
 * dwarf_getscopes() (a walk of the unit's tree) only when its line-table row differs from the last one's.
 */
#include <stdio.h>

#include "kdwarf/klines.h"

#ifndef KF_NO_DWARF
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kdwarf/kd_int.h"
#include "util/xalloc.h"

int kd_build_id(struct kd_file *f, char *buf, size_t len)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((const char *)d->d_buf + name_off, "GNU", 4) || !nh.n_descsz ||
			    2 * (size_t)nh.n_descsz + 1 > len)
				continue;
			for (size_t i = 0; i < nh.n_descsz; i++)
				snprintf(buf + 2 * i, 3, "%02x", ((const unsigned char *)d->d_buf)[desc_off + i]);
			return 0;
		}
	}
	return -1;
}

int kd_symbol(struct kd_file *f, const char *name, uint64_t *value)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(f->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;

			if (gelf_getsym(d, (int)i, &sym) && (n = elf_strptr(f->elf, sh.sh_link, sym.st_name)) &&
			    !strcmp(n, name)) {
				*value = sym.st_value;
				return 0;
			}
		}
	}
	return -1;
}

/* ---- file names as the tree names them ---------------------------------------------------------------- */

/* The build's source prefix ("/build/linux-6.1/"): from the unit of init/main.c; NULL when there is none. */
static char *source_prefix(struct kd_file *f)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	Dwarf_Half version;
	uint8_t type;

	while (dwarf_get_units(f->dw, cu, &cu, &version, &type, &cudie, NULL) == 0) {
		const char *n = dwarf_diename(&cudie);
		size_t len = n ? strlen(n) : 0;

		if (len > 12 && n[0] == '/' && !strcmp(n + len - 12, "/init/main.c"))
			return xstrndup(n, len - 11);
	}
	return NULL;
}

static const char *under(const char *path, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	if (!n || strncmp(path, dir, n))
		return NULL;
	if (dir[n - 1] == '/')
		return path + n;
	return path[n] == '/' ? path + n + 1 : NULL;
}

static const char *tree_name(const char *path, const char *prefix, const char *comp_dir)
{
	const char *r = under(path, prefix);

	if (!r)
		r = under(path, comp_dir);
	if (!r)
		r = path;
	while (r[0] == '.' && r[1] == '/')
		r += 2;
	return r;
}

/* ---- symbolization ------------------------------------------------------------------------------------ */

/* The function whose code addr is: the innermost inlined instance, else the subprogram. */
static const char *function_at(Dwarf_Die *cudie, Dwarf_Addr addr)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cudie, addr, &scopes);
	const char *name = NULL;

	for (int i = 0; i < n && !name; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram)
			name = dwarf_diename(&scopes[i]); /* through DW_AT_abstract_origin */
	}
	free(scopes);
	return name;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int check_kernel(struct fp_klines *k, struct kd_file *f, const char *path, char *why, size_t len)
{
	char id[260];
	uint64_t text = 0;

	if (k->build_id) {
		if (kd_build_id(f, id, sizeof(id)) < 0) {
			snprintf(why, len, "'%s' has no build id to check against the recorded kernel's", path);
			return -1;
		}
		if (strcmp(id, k->build_id)) {
			snprintf(why, len, "'%s' is not the recorded kernel: its build id is %.40s, the kernel's %.40s",
				 path, id, k->build_id);
			return -1;
		}
	}
	k->text_offset = 0;
	if (k->runtime_text) {
		if (kd_symbol(f, "_text", &text) < 0) {
			snprintf(why, len, "'%s' has no _text symbol to undo KASLR with", path);
			return -1;
		}
		k->text_offset = k->runtime_text - text;
	}
	return 0;
}

int kd_klines_symbolize(struct fp_klines *k, const char *path, struct kd_klines_stats *st, char *why, size_t len)
{
	struct kd_klines_stats s = {.pcs = k->npcs};
	double t0 = now();
	char open_why[256];
	struct kd_file *f = kd_open(path, open_why, sizeof(open_why));
	Dwarf_Die cudie;
	bool have_cu = false;
	Dwarf_Addr lo = 1, hi = 0; /* the last unit's range, when it is one range */
	Dwarf_Line *last = NULL;
	const char *fn = NULL, *comp_dir = NULL;
	char *prefix;

	if (!f) {
		snprintf(why, len, "'%s': %s", path, open_why);
		return -1;
	}
	if (check_kernel(k, f, path, why, len) < 0) {
		kd_close(f);
		return -1;
	}
	prefix = source_prefix(f);
	for (uint32_t i = 0; i < k->npcs; i++) {
		/* kcov's PCs are return addresses: the call that recorded one is the byte before */
		Dwarf_Addr a = k->pcs[i].pc - k->text_offset - (k->method == FP_KLINE_KCOV);
		Dwarf_Line *l;
		int line = 0;
		const char *file;

		if (!have_cu || a < lo || a >= hi) {
			Dwarf_Attribute attr;

			have_cu = dwarf_addrdie(f->dw, a, &cudie) != NULL;
			if (!have_cu) {
				s.unresolved++;
				continue;
			}
			if (dwarf_lowpc(&cudie, &lo) || dwarf_highpc(&cudie, &hi))
				lo = 1, hi = 0; /* ranges: look the unit up again each time */
			comp_dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &attr));
			last = NULL;
		}
		l = dwarf_getsrc_die(&cudie, a);
		if (!l || dwarf_lineno(l, &line) || line <= 0 || !(file = dwarf_linesrc(l, NULL, NULL))) {
			s.unresolved++;
			continue;
		}
		if (l != last)
			fn = function_at(&cudie, a);
		last = l;
		fp_kline_add_line(k, tree_name(file, prefix, comp_dir), (uint32_t)line, k->pcs[i].hits, fn);
		s.resolved++;
	}
	free(prefix);
	free(k->vmlinux);
	k->vmlinux = xstrdup(path);
	kd_close(f);
	s.seconds = now() - t0;
	if (st)
		*st = s;
	return 0;
}

int kd_each_line(struct kd_file *f, int (*cb)(const char *file, uint32_t line, void *ctx), void *ctx)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	Dwarf_Half version;
	uint8_t type;
	char *prefix = source_prefix(f);
	int r;

	f->err[0] = 0;
	while ((r = dwarf_get_units(f->dw, cu, &cu, &version, &type, &cudie, NULL)) == 0) {
		Dwarf_Lines *lines;
		Dwarf_Attribute attr;
		size_t n;
		const char *comp_dir;

		if (type != DW_UT_compile || dwarf_tag(&cudie) != DW_TAG_compile_unit ||
		    dwarf_getsrclines(&cudie, &lines, &n) != 0)
			continue;
		comp_dir = dwarf_formstring(dwarf_attr(&cudie, DW_AT_comp_dir, &attr));
		for (size_t i = 0; i < n; i++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, i);
			bool end = false;
			int line = 0;
			const char *file;

			if (dwarf_lineendsequence(l, &end) || end || dwarf_lineno(l, &line) || line <= 0 ||
			    !(file = dwarf_linesrc(l, NULL, NULL)))
				continue;
			int stop = cb(tree_name(file, prefix, comp_dir), (uint32_t)line, ctx);
			if (stop) {
				free(prefix);
				return stop;
			}
		}
	}
	free(prefix);
	if (r < 0) {
		snprintf(f->err, sizeof(f->err), "reading the units: %s", dwarf_errmsg(-1));
		return -1;
	}
	return 0;
}

#else /* KF_NO_DWARF */

int kd_build_id(struct kd_file *f, char *buf, size_t len)
{
	return -1;
}

int kd_symbol(struct kd_file *f, const char *name, uint64_t *value)
{
	return -1;
}

int kd_klines_symbolize(struct fp_klines *k, const char *path, struct kd_klines_stats *st, char *why, size_t len)
{
	snprintf(why, len, "this kfootprint was built without libdw (make NO_BPF=1): no DWARF reading");
	return -1;
}

int kd_each_line(struct kd_file *f, int (*cb)(const char *file, uint32_t line, void *ctx), void *ctx)
{
	return -1;
}
#endif
