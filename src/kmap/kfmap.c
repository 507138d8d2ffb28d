// SPDX-License-Identifier: GPL-2.0
// The map of kernel functions (kfmap.h): candidates from the database, DWARF, then symbol order, then roll-ups.
#include "kmap/kfmap.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kdwarf/kdwarf.h"
#include "footprint/kline.h"
#include "kmap/annotate.h"
#include "kmap/kneeds.h"
#include "kmap/mapdb.h"
#include "util/error.h"
#include "util/input.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* /proc/kallsyms has 122,000 lines (about 5 MB); a System.map of a big configuration a few times that */
#define KALLSYMS_MAX (256ull << 20)
/* how far to look for a neighbour with one definition, each way */
#define NEIGHBOURS 64

const char *kfm_how_name(enum kfm_how h)
{
	static const char *const names[] = {"unique", "dwarf", "kallsyms", "ambiguous", "unknown"};

	return h < KFM_NHOW ? names[h] : "?";
}

static char *base_of(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot && dot != name ? xstrndup(name, (size_t)(dot - name)) : xstrdup(name);
}

static bool is_header(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && !strcmp(path + n - 2, ".h");
}

static int cand_has(const struct kfm_row *r, long file)
{
	for (size_t i = 0; i < r->ncands; i++)
		if ((long)r->cands[i].file == file)
			return (int)i;
	return -1;
}

static void resolve(struct kfm_row *r, enum kfm_how how, long file, int line, char *note)
{
	r->how = how;
	r->file = file;
	r->line = line;
	free(r->note);
	r->note = note;
}

/* ---- DWARF ---- */

struct dw_ctx {
	struct kfmap *m;
	struct kfm_row **want; /* rows to place, sorted by base */
	size_t nwant;
	/* per wanted row: the files with code, and whether any definition at all was seen */
	long (*files)[4];
	size_t *nfiles;
	int (*lines)[4];
};

static int want_cmp(const void *a, const void *b)
{
	return strcmp((*(struct kfm_row *const *)a)->base, (*(struct kfm_row *const *)b)->base);
}

/* "arch/x86/events/amd/../perf_event.h" -> "arch/x86/events/perf_event.h", in place. */
static void normalize(char *p)
{
	char *d;

	while ((d = strstr(p, "/../"))) {
		char *up = d;
		while (up > p && up[-1] != '/')
			up--;
		if (up == d)
			return;
		memmove(up, d + 4, strlen(d + 4) + 1);
	}
}

/*
 * The database file a DWARF path names: the path itself, or with leading directories dropped ("/build/x/fs/a.c").
 * A path none of whose tails the database has is added under the tail that starts at a top-level directory of
 * the tree ("include/linux/lsm_hook_defs.h" for the functions LSM_HOOK makes), or -1 when it has none.
 */
static long dwarf_file_norm(struct kfdb *db, const char *path)
{
	static const char *const tops[] = {"arch/", "block/",	 "crypto/", "drivers/", "fs/",	"include/",
					   "init/", "io_uring/", "ipc/",    "kernel/",	"lib/", "mm/",
					   "net/",  "security/", "sound/",  "virt/"};

	for (const char *p = path; p && *p;) {
		while (*p == '/' || (p[0] == '.' && p[1] == '/'))
			p++;
		long i = kfdb_file_index(db, p);
		if (i >= 0)
			return i;
		p = strchr(p, '/');
	}
	for (const char *p = path; p && *p; p = strchr(p + 1, '/')) {
		const char *q = *p == '/' ? p + 1 : p;
		for (size_t k = 0; k < sizeof(tops) / sizeof(tops[0]); k++)
			if (!strncmp(q, tops[k], strlen(tops[k])))
				return kfdb_add_file(db, q);
	}
	return -1;
}

/* The same for a path as DWARF gives it, "dir/../" folded first. */
static long dwarf_file(struct kfdb *db, const char *dwarf_path)
{
	char *path = xstrdup(dwarf_path);
	long i;

	normalize(path);
	i = dwarf_file_norm(db, path);
	free(path);
	return i;
}

static int dw_func(const struct kd_func *fn, void *ctx)
{
	struct dw_ctx *c = ctx;
	size_t lo = 0, hi = c->nwant;

	if (!fn->low_pc || !fn->name)
		return 0; /* only inlined: ftrace and stacks never show it under its name */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int k = strcmp(c->want[mid]->base, fn->name);
		if (!k) {
			lo = mid;
			break;
		}
		if (k < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the same base may be wanted by several rows (foo and foo.isra.0): back up to the first */
	while (lo > 0 && !strcmp(c->want[lo - 1]->base, fn->name))
		lo--;
	for (size_t i = lo; i < c->nwant && !strcmp(c->want[i]->base, fn->name); i++) {
		long f = fn->file ? dwarf_file(c->m->db, fn->file) : -1;
		bool seen = false;

		for (size_t k = 0; k < c->nfiles[i] && k < 4; k++)
			seen |= c->files[i][k] == f;
		if (!seen && c->nfiles[i] < 4) {
			c->files[i][c->nfiles[i]] = f;
			c->lines[i][c->nfiles[i]] = fn->line;
		}
		if (!seen)
			c->nfiles[i]++;
	}
	return 0;
}

static void by_dwarf(struct kfmap *m, const char *path)
{
	char why[512];
	struct kd_file *kd = kd_open(path, why, sizeof(why));
	struct dw_ctx c = {.m = m};

	if (!kd) {
		m->dwarf_note = xasprintf("--vmlinux '%s': %s", path, why);
		return;
	}
	m->vmlinux = xstrdup(path);
	c.want = xcalloc(m->nrows + 1, sizeof(*c.want));
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].how == KFM_AMBIGUOUS || m->rows[i].how == KFM_UNKNOWN)
			c.want[c.nwant++] = &m->rows[i];
	qsort(c.want, c.nwant, sizeof(*c.want), want_cmp);
	c.files = xcalloc(c.nwant + 1, sizeof(*c.files));
	c.lines = xcalloc(c.nwant + 1, sizeof(*c.lines));
	c.nfiles = xcalloc(c.nwant + 1, sizeof(*c.nfiles));
	if (c.nwant && kd_each_func(kd, dw_func, &c) < 0)
		m->dwarf_note = xasprintf("--vmlinux '%s': %s", path, kd_error(kd));
	for (size_t i = 0; i < c.nwant; i++) {
		struct kfm_row *r = c.want[i];

		if (c.nfiles[i] == 1 && c.files[i][0] >= 0) {
			int k = cand_has(r, c.files[i][0]);
			resolve(r, KFM_DWARF, c.files[i][0], k >= 0 ? r->cands[k].line : c.lines[i][0], NULL);
		} else if (c.nfiles[i] > 1) {
			free(r->note);
			r->note = xasprintf("built %zu times with code of its own (DWARF)", c.nfiles[i]);
		} else if (c.nfiles[i] == 1) {
			free(r->note);
			r->note = xstrdup("DWARF names a file outside the tree's directories");
		} else {
			free(r->note);
			r->note = xstrdup("no code of its own in the vmlinux's DWARF (inlined, or a module's)");
		}
	}
	free(c.want);
	free(c.files);
	free(c.lines);
	free(c.nfiles);
	kd_close(kd);
}

/* ---- symbol order ---- */

struct sym {
	uint64_t addr;
	char *base;
	size_t order;
};

static int sym_addr_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static const struct sym *sort_syms;

static int idx_name_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_syms[x].base, sort_syms[y].base);

	return c ? c : x < y ? -1 : x > y;
}

/* "ffffffff81321300 t c_start" (kallsyms) or the same in a System.map; module symbols ("[unix]") are left out. */
static size_t parse_syms(char *text, struct sym **out)
{
	struct sym *s = NULL;
	size_t n = 0, cap = 0;
	char *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *end, type, *name;
		uint64_t addr = strtoull(l, &end, 16);

		if (end == l || *end != ' ')
			continue;
		type = end[1];
		if (!type || end[2] != ' ')
			continue;
		name = end + 3;
		if (strchr(name, '[') || strchr(name, '\t'))
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		XGROW(s, cap, n + 1);
		s[n] = (struct sym){addr, base_of(name), n};
		n++;
	}
	if (n)
		qsort(s, n, sizeof(*s), sym_addr_cmp);
	*out = s;
	return n;
}

/*
 * The one object file a neighbour's name can come from, or -1: its only definition outside headers (a header's
 * inline stub of it, as security.h has for every security_*() under !CONFIG_SECURITY, builds no object of its own).
 */
static long sym_file(const struct kfdb *db, const char *base)
{
	const struct kfdb_def *d;
	size_t n = kfdb_find(db, base, &d);
	long file = -1;

	for (size_t i = 0; i < n; i++) {
		if (is_header(db->files[d[i].file].path))
			continue;
		if (file >= 0)
			return -1;
		file = (long)d[i].file;
	}
	return file;
}

/* The file a symbol at position i comes from, by its nearest placed neighbours; -1 when they do not say. */
static long by_neighbours(const struct kfmap *m, const struct kfm_row *r, const struct sym *s, size_t n, size_t i)
{
	long before = -1, after = -1;
	int kb, ka;

	for (size_t k = 1; k <= NEIGHBOURS && k <= i && before < 0; k++)
		before = sym_file(m->db, s[i - k].base);
	for (size_t k = 1; k <= NEIGHBOURS && i + k < n && after < 0; k++)
		after = sym_file(m->db, s[i + k].base);
	kb = before >= 0 ? cand_has(r, before) : -1;
	ka = after >= 0 ? cand_has(r, after) : -1;
	if (kb >= 0 && ka >= 0 && before != after)
		return -1; /* between two candidates' objects: cannot tell */
	return kb >= 0 ? before : ka >= 0 ? after : -1;
}

static void by_kallsyms(struct kfmap *m, const char *path, bool given)
{
	struct strbuf sb = STRBUF_INIT;
	char *why = NULL;
	struct sym *s = NULL;
	size_t n, *byname;

	if (kf_input_read_all(path, KALLSYMS_MAX, &sb, &why) < 0) {
		m->kallsyms_note = xasprintf("%s'%s': %s", given ? "--kallsyms " : "", path, why);
		free(why);
		strbuf_release(&sb);
		return;
	}
	n = parse_syms(sb.buf, &s);
	strbuf_release(&sb);
	if (!n) {
		m->kallsyms_note =
		    xasprintf("'%s' has no text symbols with addresses (kptr_restrict, or not root?)", path);
		free(s);
		return;
	}
	/* all zero addresses: kallsyms read without the right to see them, so no order */
	if (s[0].addr == 0 && s[n - 1].addr == 0) {
		m->kallsyms_note = xasprintf("'%s' shows no addresses (kptr_restrict, or not root)", path);
		goto out;
	}
	m->kallsyms = xstrdup(path);
	byname = xcalloc(n, sizeof(*byname));
	for (size_t i = 0; i < n; i++)
		byname[i] = i;
	sort_syms = s;
	qsort(byname, n, sizeof(*byname), idx_name_cmp);
	for (size_t ri = 0; ri < m->nrows; ri++) {
		struct kfm_row *r = &m->rows[ri];
		size_t lo = 0, hi = n, occ = 0;
		long file = -1;
		bool unsure = false, several = false;

		if (r->how != KFM_AMBIGUOUS)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (strcmp(s[byname[mid]].base, r->base) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t k = lo; k < n && !strcmp(s[byname[k]].base, r->base); k++) {
			long f = by_neighbours(m, r, s, n, byname[k]);
			occ++;
			if (f < 0)
				unsure = true;
			else if (file >= 0 && f != file)
				several = true;
			else
				file = f;
		}
		if (!occ) {
			free(r->note);
			r->note = xasprintf("not in %s", path);
		} else if (several || (occ > 1 && unsure)) {
			free(r->note);
			r->note = xasprintf("built in more than once (%zu symbols in %s)", occ, path);
		} else if (unsure || file < 0) {
			free(r->note);
			r->note = xasprintf("its neighbours in %s do not tell", path);
		} else {
			int k = cand_has(r, file);
			resolve(r, KFM_KALLSYMS, file, k >= 0 ? r->cands[k].line : 0, NULL);
		}
	}
	free(byname);
out:
	for (size_t i = 0; i < n; i++)
		free(s[i].base);
	free(s);
}

/* ---- roll-ups ---- */

struct counter {
	struct kfm_count *v;
	size_t n, cap;
};

static void bump(struct counter *c, const char *key, uint64_t hits)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].key, key)) {
			c->v[i].funcs++;
			c->v[i].hits += hits;
			return;
		}
	XGROW(c->v, c->cap, c->n + 1);
	c->v[c->n++] = (struct kfm_count){xstrdup(key), 1, hits};
}

static int count_cmp(const void *a, const void *b)
{
	const struct kfm_count *x = a, *y = b;

	if (x->funcs != y->funcs)
		return x->funcs > y->funcs ? -1 : 1;
	return strcmp(x->key, y->key);
}

static void done(struct counter *c, struct kfm_count **v, size_t *n)
{
	qsort(c->v, c->n, sizeof(*c->v), count_cmp);
	*v = c->v;
	*n = c->n;
}

static void rollups(struct kfmap *m)
{
	struct counter files = {0}, dirs = {0}, opts = {0}, secs = {0};

	for (size_t i = 0; i < m->nrows; i++) {
		const struct kfm_row *r = &m->rows[i];
		const struct kfdb_file *f;
		char *dir;

		if (r->file < 0)
			continue;
		f = kfdb_chain(m->db, (uint32_t)r->file);
		bump(&files, f->path, r->hits);
		dir = xstrdup(f->path);
		if (strrchr(dir, '/'))
			*strrchr(dir, '/') = '\0';
		bump(&dirs, dir, r->hits);
		free(dir);
		for (size_t k = 0; k < f->nopts; k++)
			bump(&opts, f->opts[k], r->hits);
		bump(&secs, f->section ? f->section : "(none)", r->hits);
	}
	done(&files, &m->files, &m->nfiles);
	done(&dirs, &m->dirs, &m->ndirs);
	done(&opts, &m->opts, &m->nopts);
	done(&secs, &m->sections, &m->nsections);
}

/* ---- the map ---- */

/* "6.18.44-x" and "6.1.192": the same VERSION.PATCHLEVEL? */
static bool same_series(const char *a, const char *b)
{
	unsigned a1 = 0, a2 = 0, b1 = 0, b2 = 0;

	return sscanf(a, "%u.%u", &a1, &a2) == 2 && sscanf(b, "%u.%u", &b1, &b2) == 2 && a1 == b1 && a2 == b2;
}

static void write_row(const struct fp_kref *k, json_writer_t *w)
{
	const struct kfm_row *r = (const struct kfm_row *)((const char *)k - offsetof(struct kfm_row, kref));

	kfmap_json_row(w, r);
}

struct kfmap *kfmap_build(struct kfdb *db, struct footprint *fp, const struct kfmap_opts *o, char **err)
{
	struct kfmap *m = xcalloc(1, sizeof(*m));
	struct fp_kfunc **v = fp_kfuncs_sorted(fp);
	size_t n = 0;

	*err = NULL;
	m->db = db;
	m->method = fp_kfuncs_of(fp) ? fp_kfuncs_of(fp)->method : "function";
	m->exhaustive = fp_kfuncs_of(fp) ? fp_kfuncs_of(fp)->exhaustive : true;
	m->lost = fp_kfuncs_of(fp) ? fp_kfuncs_of(fp)->lost : 0;
	while (v && v[n])
		n++;
	m->rows = xcalloc(n + 1, sizeof(*m->rows));
	for (size_t i = 0; i < n; i++) {
		struct kfm_row *r = &m->rows[m->nrows++];

		r->f = v[i];
		r->name = v[i]->name;
		r->hits = v[i]->hits;
		r->base = base_of(r->name);
		r->map = m;
		r->kref.write_json = write_row;
		r->ncands = kfdb_find(db, r->base, &r->cands);
		r->file = -1;
		if (r->ncands == 1)
			resolve(r, KFM_UNIQUE, (long)r->cands[0].file, r->cands[0].line, NULL);
		else
			r->how = r->ncands ? KFM_AMBIGUOUS : KFM_UNKNOWN;
		if (!r->ncands)
			r->note = xasprintf("no definition in the source tree%s",
					    db->scope ? " as far as the database covers it (see its scope)" : "");
	}
	free(v);
	if (o->vmlinux)
		by_dwarf(m, o->vmlinux);
	if (o->kallsyms)
		by_kallsyms(m, o->kallsyms, true);
	else if (!o->no_running)
		by_kallsyms(m, "/proc/kallsyms", false);
	else
		m->kallsyms_note = xstrdup("not read (--no-running)");
	if (m->kallsyms && !o->kallsyms && o->running_release && !same_series(o->running_release, db->version))
		m->kallsyms_note = xasprintf("the running kernel %s is not the tree's %s: its symbol order is a guide, "
					     "not the tree's own",
					     o->running_release, db->version);
	for (size_t i = 0; i < m->nrows; i++) {
		m->count[m->rows[i].how]++;
		if (m->rows[i].f)
			m->rows[i].f->annot.kernel = &m->rows[i].kref;
	}
	rollups(m);
	return m;
}

void kfmap_free(struct kfmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nrows; i++) {
		free(m->rows[i].base);
		free(m->rows[i].note);
	}
	free(m->rows);
	struct kfm_count *all[] = {m->files, m->dirs, m->opts, m->sections};
	size_t ns[] = {m->nfiles, m->ndirs, m->nopts, m->nsections};
	for (size_t k = 0; k < 4; k++) {
		for (size_t i = 0; i < ns[k]; i++)
			free((char *)all[k][i].key);
		free(all[k]);
	}
	free(m->kallsyms);
	free(m->kallsyms_note);
	free(m->vmlinux);
	free(m->dwarf_note);
	free(m);
}

/* ---- JSON ---- */

const char *kfm_row_where(const struct kfm_row *r, char *buf, size_t len)
{
	if (r->file < 0)
		return NULL;
	if (r->line > 0)
		snprintf(buf, len, "%s:%d", r->map->db->files[r->file].path, r->line);
	else
		snprintf(buf, len, "%s", r->map->db->files[r->file].path);
	return buf;
}

void kfmap_json_row(json_writer_t *w, const struct kfm_row *r)
{
	char buf[1024];

	jsonw_start_object_inline(w);
	jsonw_string_field(w, "resolved_by", kfm_how_name(r->how));
	if (r->file >= 0) {
		const struct kfdb_file *f = kfdb_file(r->map->db, (uint32_t)r->file);

		jsonw_string_field(w, "file", f->path);
		jsonw_int_field(w, "line", r->line);
		jsonw_string_field(w, "object", f->object);
		if (f->makefile) {
			snprintf(buf, sizeof(buf), "%s:%d", f->makefile, f->mline);
			jsonw_string_field(w, "makefile", buf);
		} else {
			jsonw_null_field(w, "makefile");
		}
		if (f->included_by)
			jsonw_string_field(w, "included_by", f->included_by);
		jsonw_strings_field_inline(w, "configs", f->opts, f->nopts);
		jsonw_string_field(w, "maintainers", f->section);
		jsonw_bool_field(w, "built", f->built);
	} else if (r->ncands) {
		jsonw_name(w, "candidates");
		jsonw_start_array_inline(w);
		for (size_t k = 0; k < r->ncands; k++) {
			snprintf(buf, sizeof(buf), "%s:%d", r->map->db->files[r->cands[k].file].path, r->cands[k].line);
			jsonw_string(w, buf);
		}
		jsonw_end_array(w);
	}
	if (r->note)
		jsonw_string_field(w, "note", r->note);
	jsonw_end_object(w);
}

static void counts(json_writer_t *w, const char *name, const char *key, const struct kfm_count *v, size_t n)
{
	jsonw_name(w, name);
	jsonw_start_array(w);
	for (size_t i = 0; i < n; i++) {
		jsonw_start_object_inline(w);
		jsonw_string_field(w, key, v[i].key);
		jsonw_u64_field(w, "functions", v[i].funcs);
		jsonw_u64_field(w, "hits", v[i].hits);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

void kfmap_json(json_writer_t *w, const struct kfmap *m)
{
	jsonw_start_object(w);
	jsonw_string_field(w, "tree", m->db->version);
	jsonw_string_field(w, "origin", m->db->origin);
	jsonw_string_field(w, "method", m->method);
	jsonw_bool_field(w, "exhaustive", m->exhaustive);
	jsonw_u64_field(w, "functions", m->nrows);
	jsonw_name(w, "resolved");
	jsonw_start_object_inline(w);
	for (int h = 0; h < KFM_NHOW; h++)
		jsonw_u64_field(w, kfm_how_name(h), m->count[h]);
	jsonw_end_object(w);
	jsonw_string_field(w, "kallsyms", m->kallsyms);
	jsonw_string_field(w, "kallsyms_note", m->kallsyms_note);
	jsonw_string_field(w, "vmlinux", m->vmlinux);
	jsonw_string_field(w, "vmlinux_note", m->dwarf_note);
	jsonw_string_field(w, "database_scope", m->db->scope);
	counts(w, "files", "file", m->files, m->nfiles);
	counts(w, "directories", "directory", m->dirs, m->ndirs);
	counts(w, "configs", "option", m->opts, m->nopts);
	counts(w, "maintainers", "section", m->sections, m->nsections);
	jsonw_end_object(w);
}

void kfm_names_add(struct kfm_names *v, const char *name)
{
	if (!v->fp)
		v->fp = fp__new();
	fp__kfunc(v->fp, name);
	v->n++;
}

struct kfmap *kfmap_build_names(struct kfdb *db, struct kfm_names *v, const struct kfmap_opts *o, char **err)
{
	if (!v->fp)
		v->fp = fp__new();
	return kfmap_build(db, v->fp, o, err);
}

void kfm_names_release(struct kfm_names *v)
{
	fp__free(v->fp);
	v->fp = NULL;
	v->n = 0;
}

/* --- the kind's annotator (annotate.h struct kind_annotator) --- */

static void kfmap_write(const void *data, json_writer_t *w)
{
	jsonw_name(w, "kernel_functions_map");
	kfmap_json(w, data);
}

static void kfmap_release(void *data)
{
	kfmap_free(data);
}

/* Maps fp's functions with db and attaches the map to fp and to map (one of fp's mappings, or NULL). */
static void annotate_with(struct footprint *fp, const struct fp_kernel_map *map, struct kfdb *db,
			  const struct kfmap_opts *o)
{
	struct fp_kernel_map *own = annotate_own_map(fp, map);
	struct kfmap *m;
	char *err = NULL;

	m = kfmap_build(db, fp, o, &err);
	if (!m) {
		error("kernel functions: %s", err);
		free(err);
		return;
	}
	fp__attach(fp, (struct fp_attachment){m, kfmap_write, kfmap_release});
	/* the mapping is one of fp's, which the annotate stage owns: it takes the functions, and its needs are made
	 * again with them */
	if (own) {
		own->kf = m;
		kneeds_free(own->needs);
		own->needs = kneeds_build(own);
	}
}

/* map's options of the kind: parsed options, the process's one set */
static struct {
	const char *save; /* --save-kfuncdb FILE */
} opts;

#define O __typeof__(opts)
static const struct kf_option map_options[] = {
    OPT_STRING(0, "save-kfuncdb", O, save, "FILE",
	       "--kernel-src: save its function definitions as a database of kernel functions (data/kfuncdb-*)"),
    OPT_END(),
};
#undef O

static int check(const char *kernel_src)
{
	if (opts.save && !kernel_src)
		return error("--save-kfuncdb needs --kernel-src");
	return 0;
}

static const char *save_path(void)
{
	return opts.save;
}

/* The database of kernel functions: the tree's (its function definitions and the syscall index's readers), or the
 * built-in one. */
static struct kfdb *open_kfdb(const struct annotate_ctx *ctx)
{
	char *err = NULL;
	struct kfdb *k;

	if (ctx->kernel_src && ctx->db->idx) {
		struct kt_fdefs *fd = kt_fdefs_build(ctx->kernel_src, kf_abi_get(ctx->abi)->tree_arch,
						     ctx->no_cache ? KT_FDEFS_NO_CACHE : 0, &err);
		struct kt_fdefs_stats st;

		if (!fd) {
			error("--kernel-src '%s': %s", ctx->kernel_src, err);
			free(err);
			return NULL;
		}
		kt_fdefs_stats(fd, &st);
		debug(
		    "map: function definitions of '%s' %s in %.2f s: %zu files, %zu MB, %zu definitions of %zu names, "
		    "%zu names in several files, %zu by macros, %zu MACRO(...) { lines not parsed (%s)",
		    ctx->kernel_src, st.from_cache ? "from the cache" : "scanned", st.seconds, st.files, st.bytes >> 20,
		    st.defs, st.names, st.ambiguous, st.by_macro, st.unparsed, st.unparsed_top);
		return kfdb_from_tree(fd, ctx->db->idx);
	}
	if (ctx->db_given) {
		error("--db: kernel functions need the built-in database or --kernel-src");
		return NULL;
	}
	k = kfdb_builtin(&err);
	if (!k) {
		error("%s%s", ctx->err_prefix ? ctx->err_prefix : "", err);
		free(err);
	}
	return k;
}

static int make_db(const struct annotate_ctx *ctx, void **db)
{
	return *db || (*db = open_kfdb(ctx)) ? 0 : -1;
}

static int write_db(FILE *out, const void *db)
{
	return kfdb_save((struct kfdb *)db, out);
}

static int annotate(struct footprint *fp, const struct fp_kernel_map *map, struct annotate_ctx *ctx, void **db)
{
	const struct fp_kfuncs *k = fp_kfuncs_of(fp);

	if (!k || !k->nfuncs) {
		/* --vmlinux also symbolizes kernel lines (klmap.c) */
		if (ctx->file && (ctx->kallsyms || (ctx->vmlinux && !fp_klines_of(fp))))
			warning("'%s' has no kernel functions: --vmlinux and --kallsyms are not used", ctx->file);
		return 0;
	}
	struct kfmap_opts ko = {ctx->vmlinux, ctx->kallsyms, ctx->no_running, ctx->run ? ctx->run->release : NULL};
	if (make_db(ctx, db) < 0)
		return -1;
	annotate_with(fp, map, *db, &ko); /* said why when it could not: the syscalls' map stands */
	return 0;
}

static int observe(struct footprint *fp, struct annotate_ctx *ctx, void **db, struct fp_observer *o)
{
	const struct fp_kfuncs *k = fp_kfuncs_of(fp);
	struct kfmap_opts ko = {NULL, NULL, ctx->no_running, ctx->run ? ctx->run->release : NULL};
	char *err = NULL;

	if (!k || !k->nfuncs)
		return 0;
	if (!k->exhaustive)
		o->incomplete = true; /* sampled stacks: not every function that ran */
	if (make_db(ctx, db) < 0)
		return -1;
	struct kfmap *m = kfmap_build(*db, fp, &ko, &err);
	if (!m) {
		error("kernel functions: %s", err);
		free(err);
		return -1;
	}
	fp__attach(fp, (struct fp_attachment){m, kfmap_write, kfmap_release}); /* fp's items point into it */
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kfm_row *r = &m->rows[i];
		const struct kfdb_file *f = r->file >= 0 ? kfdb_file(m->db, (uint32_t)r->file) : NULL;
		struct fp_kplace at = {0};
		if (f)
			at = (struct fp_kplace){f->path, f->included_by, (const char **)f->opts, f->nopts};
		o->item(o, r->name, r->base ? r->base : r->name, r->hits, f ? &at : NULL);
	}
	return 0;
}

static void free_db(void *db)
{
	kfdb_free(db);
}

const struct kind_annotator kfmap_annotator = {
    .map_options = map_options,
    .map_values = &opts,
    .map_values_size = sizeof(opts),
    .check = check,
    .save_path = save_path,
    .make_db = make_db,
    .write_db = write_db,
    .annotate = annotate,
    .observe = observe,
    .free_db = free_db,
};
