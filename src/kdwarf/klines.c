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

/*
 * The build's source prefix ("/build/linux-6.1/"): from the unit of init/main.c, or, when the C units' names
 * are mapped to relative ones (-fdebug-prefix-map, Debian's), from an assembler unit's absolute name under arch/;
 * NULL when there is neither.
 */
static char *source_prefix(struct kd_file *f)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	Dwarf_Half version;
	uint8_t type;
	char *arch = NULL;

	while (dwarf_get_units(f->dw, cu, &cu, &version, &type, &cudie, NULL) == 0) {
		const char *n = dwarf_diename(&cudie), *a;
		size_t len = n ? strlen(n) : 0;

		if (len > 12 && n[0] == '/' && !strcmp(n + len - 12, "/init/main.c")) {
			free(arch);
			return xstrndup(n, len - 11);
		}
		if (!arch && len && n[0] == '/' && (a = strstr(n, "/arch/")))
			arch = xstrndup(n, (size_t)(a - n) + 1);
	}
	return arch;
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

/* path with "x/../" and "./" taken out ("arch/x86/events/amd/../perf_event.h" is arch/x86/events/perf_event.h) */
static const char *normalize(const char *path, char *buf, size_t len)
{
	size_t n = 0;

	if (!strstr(path, "/../") && !strstr(path, "./"))
		return path;
	for (const char *p = path; *p;) {
		const char *e = strchr(p, '/');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == 1 && p[0] == '.') {
			/* nothing */
		} else if (l == 2 && p[0] == '.' && p[1] == '.' && n && !(n >= 2 && !strncmp(buf + n - 2, "..", 2))) {
			while (n && buf[n - 1] != '/')
				n--;
			n = n ? n - 1 : 0; /* the slash before the component taken out */
		} else {
			if (n + l + 2 > len)
				return path;
			if (n || path[0] == '/')
				buf[n++] = '/';
			memcpy(buf + n, p, l);
			n += l;
		}
		p += l + (e != NULL);
	}
	buf[n] = 0;
	return buf;
}

static const char *tree_name(const char *path, const char *prefix, const char *comp_dir, char *buf, size_t len)
{
	const char *r = under(path, prefix);

	if (!r)
		r = under(path, comp_dir);
	if (!r)
		r = path;
	return normalize(r, buf, len);
}

/* ---- symbolization ------------------------------------------------------------------------------------ */

/*
 * The functions of a unit as address ranges, each with its depth in the tree: the out-of-line subprograms and
 * their inlined instances (DW_TAG_inlined_subroutine, named through DW_AT_abstract_origin). Read once per unit
 * (dwarf_getscopes() walks the unit's tree at every call, 1,300 PCs/s on Debian's vmlinux).
 */
struct scope {
	Dwarf_Addr lo, hi;
	int depth;
	const char *name;
};

struct scopes {
	struct scope *v;
	size_t n, cap;
	Dwarf_Off cu; /* the unit's DIE offset, to tell when to read again */
	bool read;
};

static void collect(Dwarf_Die *parent, int depth, struct scopes *sc)
{
	Dwarf_Die d;

	if (dwarf_child(parent, &d) != 0)
		return;
	do {
		int tag = dwarf_tag(&d);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			const char *name = dwarf_diename(&d);
			Dwarf_Addr base, lo, hi;
			ptrdiff_t off = 0;

			while (name && (off = dwarf_ranges(&d, off, &base, &lo, &hi)) > 0) {
				XGROW(sc->v, sc->cap, sc->n + 1);
				sc->v[sc->n++] = (struct scope){lo, hi, depth, name};
			}
		}
		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block)
			collect(&d, depth + 1, sc);
	} while (dwarf_siblingof(&d, &d) == 0);
}

static int cmp_scope(const void *a, const void *b)
{
	const struct scope *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return (x->depth > y->depth) - (x->depth < y->depth);
}

/*
 * The function whose code addr is: the innermost inlined instance, else the subprogram. Ranges nest, so the
 * innermost one holding addr is the first found going back from the last range starting at or before it.
 */
static const char *function_at(struct scopes *sc, Dwarf_Die *cudie, Dwarf_Addr addr)
{
	size_t lo = 0, hi;

	if (!sc->read || sc->cu != dwarf_dieoffset(cudie)) {
		sc->n = 0;
		collect(cudie, 0, sc);
		if (sc->n)
			qsort(sc->v, sc->n, sizeof(*sc->v), cmp_scope);
		sc->cu = dwarf_dieoffset(cudie);
		sc->read = true;
	}
	hi = sc->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sc->v[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo--)
		if (addr < sc->v[lo].hi)
			return sc->v[lo].name;
	return NULL;
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
	struct scopes sc = {0};
	char *prefix, buf[4096];

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
			fn = function_at(&sc, &cudie, a);
		last = l;
		fp_kline_add_line(k, tree_name(file, prefix, comp_dir, buf, sizeof(buf)), (uint32_t)line,
				  k->pcs[i].hits, fn);
		s.resolved++;
	}
	free(prefix);
	free(sc.v);
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
	char *prefix = source_prefix(f), buf[4096];
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
			int stop = cb(tree_name(file, prefix, comp_dir, buf, sizeof(buf)), (uint32_t)line, ctx);
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
