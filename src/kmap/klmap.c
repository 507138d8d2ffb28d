// SPDX-License-Identifier: GPL-2.0
/*
 * The kind "kernel lines"' annotator (annotate.h struct kind_annotator): symbolizes PCs with --vmlinux, then maps
 * the covered lines' files with the kernel functions' database of files (the same chains file -> object ->
 * options as map gives functions) and rolls them up to options; with --vmlinux, reads the covered files' compiled
 * lines from the line table. The map is the footprint's (an attachment) and its mapping's (fp_kernel_map.kl).
 */
#include <stdlib.h>
#include <string.h>

#include "footprint/kfunc.h"
#include "kdwarf/klines.h"
#include "kmap/annotate.h"
#include "kmap/kfmap.h"
#include "kmap/klmap.h"
#include "util/error.h"
#include "util/fnv.h"
#include "util/xalloc.h"

/* map's options of the kind: parsed options, the process's one set */
static struct {
	const char *save; /* --save-lines FILE */
	const char *root; /* --source-root DIR */
} opts;

#define O __typeof__(opts)
static const struct kf_option map_options[] = {
    OPT_STRING(0, "save-lines", O, save, "FILE",
	       "kernel lines: save the footprint with its PCs symbolized by --vmlinux (for diff, merge, report)"),
    OPT_STRING(0, "source-root", O, root, "DIR",
	       "kernel lines: the source tree lcov's SF paths are in (default --kernel-src; else as DWARF names them)"),
    OPT_END(),
};
#undef O

static void klmap_free(void *data)
{
	struct klmap *m = data;

	if (!m)
		return;
	for (size_t i = 0; i < m->compiled_files; i++) {
		free(m->table[i].path);
		free(m->table[i].lines);
	}
	free(m->table);
	free(m->files);
	free(m->opts);
	klmap_sources_free(m);
	free(m);
}

/* Every file of the line table with its lines: a hash table by name, since one file is in many units' tables. */
struct ltab {
	struct klm_tfile *v;
	size_t n, cap; /* open addressing over v, cap a power of two */
};

static struct klm_tfile *ltab_get(struct ltab *t, const char *path)
{
	size_t i;

	if (2 * (t->n + 1) > t->cap) {
		struct ltab g = {.v = xcalloc(t->cap ? 2 * t->cap : 1024, sizeof(*g.v)),
				 .cap = t->cap ? 2 * t->cap : 1024};

		for (size_t j = 0; j < t->cap; j++)
			if (t->v[j].path) {
				for (i = fnv1a64(t->v[j].path, FNV1A64_INIT) & (g.cap - 1); g.v[i].path;
				     i = (i + 1) & (g.cap - 1))
					;
				g.v[i] = t->v[j];
			}
		free(t->v);
		t->v = g.v;
		t->cap = g.cap;
	}
	for (i = fnv1a64(path, FNV1A64_INIT) & (t->cap - 1); t->v[i].path; i = (i + 1) & (t->cap - 1))
		if (!strcmp(t->v[i].path, path))
			return &t->v[i];
	t->n++;
	t->v[i].path = xstrdup(path);
	return &t->v[i];
}

static int add_row(const char *file, uint32_t line, void *ctx)
{
	struct ltab *t = ctx;
	struct klm_tfile *f = ltab_get(t, file);

	if (!f->n || f->lines[f->n - 1] != line) { /* a row per address: runs of one line are common */
		XGROW(f->lines, f->cap, (size_t)f->n + 1);
		f->lines[f->n++] = line;
	}
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_lfile(const void *a, const void *b)
{
	const struct klm_tfile *x = a, *y = b;

	if (!x->path || !y->path)
		return !x->path - !y->path;
	return strcmp(x->path, y->path);
}

/* The distinct lines of each file, files by path (the empty slots last). */
static void ltab_finish(struct ltab *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		struct klm_tfile *f = &t->v[i];
		uint32_t n = 0;

		if (f->n)
			qsort(f->lines, f->n, sizeof(*f->lines), cmp_u32);
		for (uint32_t j = 0; j < f->n; j++)
			if (!n || f->lines[n - 1] != f->lines[j])
				f->lines[n++] = f->lines[j];
		f->n = n;
	}
	qsort(t->v, t->cap, sizeof(*t->v), cmp_lfile);
}

static void ltab_release(struct ltab *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		free(t->v[i].path);
		free(t->v[i].lines);
	}
	free(t->v);
}

static int read_compiled(struct klmap *m, const char *vmlinux)
{
	char why[256];
	struct kd_file *f = kd_open(vmlinux, why, sizeof(why));
	struct ltab t = {0};

	if (!f)
		return error("--vmlinux '%s': %s", vmlinux, why);
	if (kd_each_line(f, add_row, &t) < 0) {
		error("--vmlinux '%s': %s", vmlinux, kd_error(f));
		kd_close(f);
		ltab_release(&t);
		return -1;
	}
	kd_close(f);
	ltab_finish(&t);
	/* the table is kept whole: the inventory counts every file's lines, map only the covered ones' */
	m->table = xrealloc(t.v, (t.n ? t.n : 1) * sizeof(*t.v)); /* the empty slots were sorted last */
	m->compiled_files = t.n;
	for (size_t i = 0; i < t.n; i++)
		m->compiled_lines += m->table[i].n;
	for (size_t i = 0, j = 0; i < m->nfiles; i++) {
		while (j < t.n && strcmp(m->table[j].path, m->files[i].path) < 0)
			j++;
		if (j < t.n && !strcmp(m->table[j].path, m->files[i].path)) {
			m->files[i].compiled = m->table[j].lines;
			m->files[i].ncompiled = m->table[j].n;
		}
	}
	m->compiled = true;
	return 0;
}

static int cmp_opt(const void *a, const void *b)
{
	const struct klm_opt *x = a, *y = b;

	if (x->lines != y->lines)
		return x->lines < y->lines ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void roll_up(struct klmap *m)
{
	for (size_t i = 0; i < m->nfiles; i++) {
		const struct kfdb_file *c = m->files[i].chain;

		for (size_t j = 0; c && j < c->nopts; j++) {
			size_t o = 0;

			while (o < m->nopts && strcmp(m->opts[o].name, c->opts[j]))
				o++;
			if (o == m->nopts) {
				m->opts = xrealloc(m->opts, (m->nopts + 1) * sizeof(*m->opts));
				m->opts[m->nopts++] = (struct klm_opt){.name = c->opts[j]};
			}
			m->opts[o].files++;
			m->opts[o].lines += m->files[i].nlines;
		}
	}
	if (m->nopts)
		qsort(m->opts, m->nopts, sizeof(*m->opts), cmp_opt);
}

/* The kernel functions' database, which knows the tree's files: that kind's, made once for both. */
struct kfdb *klmap_files_db(struct annotate_ctx *ctx)
{
	for (size_t i = 0; fp_kinds[i]; i++)
		if (fp_kinds[i] == &fp_kind_kfuncs)
			return fp_kinds[i]->annotator->make_db(ctx, &ctx->kind_db[i]) < 0 ? NULL : ctx->kind_db[i];
	return NULL;
}

static struct klmap *build(const struct fp_klines *k, struct annotate_ctx *ctx)
{
	struct klmap *m = xcalloc(1, sizeof(*m));
	struct kfdb *db = klmap_files_db(ctx);

	if (!db) {
		klmap_free(m);
		return NULL;
	}
	m->k = k;
	m->source_root = opts.root ? opts.root : ctx->source_root ? ctx->source_root : ctx->kernel_src;
	for (uint32_t i = 0; i < k->nlines; i++) {
		if (m->nfiles && !strcmp(m->files[m->nfiles - 1].path, k->lines[i].file)) {
			m->files[m->nfiles - 1].nlines++;
			continue;
		}
		long at = kfdb_file_index(db, k->lines[i].file);

		m->files = xrealloc(m->files, (m->nfiles + 1) * sizeof(*m->files));
		m->files[m->nfiles++] = (struct klm_file){.path = k->lines[i].file,
							  .chain = at >= 0 ? kfdb_chain(db, (uint32_t)at) : NULL,
							  .first = i,
							  .nlines = 1};
	}
	if (ctx->vmlinux && read_compiled(m, ctx->vmlinux) < 0) {
		klmap_free(m);
		return NULL;
	}
	klmap_read_sources(m);
	roll_up(m);
	return m;
}

static int symbolize(struct fp_klines *k, const char *vmlinux)
{
	struct kd_klines_stats st;
	char why[512];

	if (kd_klines_symbolize(k, vmlinux, &st, why, sizeof(why)) < 0)
		return error("%s", why);
	debug("kernel lines: %lu PCs symbolized in %.3f s (%.0f PCs/s), %lu without a line", (unsigned long)st.pcs,
	      st.seconds, st.seconds > 0 ? (double)st.pcs / st.seconds : 0.0, (unsigned long)st.unresolved);
	return 0;
}

static int annotate(struct footprint *fp, const struct fp_kernel_map *map, struct annotate_ctx *ctx, void **db)
{
	struct fp_klines *k = fp_klines_of(fp);
	struct fp_kernel_map *own = annotate_own_map(fp, map);
	struct klmap *m;

	(void)db;
	if (!k)
		return 0;
	/* PCs without lines are symbolized here; a footprint symbolized already keeps its lines */
	if (k->npcs && !k->nlines && ctx->vmlinux && symbolize(k, ctx->vmlinux) < 0)
		return -1;
	if (opts.save && fp__save(fp, opts.save) < 0)
		return -1;
	m = build(k, ctx);
	if (!m)
		return -1;
	fp__attach(fp, (struct fp_attachment){m, NULL, klmap_free});
	if (own)
		own->kl = m;
	return 0;
}

static void free_db(void *db)
{
	(void)db;
}

const struct kind_annotator klmap_annotator = {
    .map_options = map_options,
    .map_values = &opts,
    .map_values_size = sizeof(opts),
    .annotate = annotate,
    .free_db = free_db,
};
