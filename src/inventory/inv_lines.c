// SPDX-License-Identifier: GPL-2.0
// inventory --lines (inv_lines.h): the footprints merged as `kfootprint merge` merges them and mapped by the kind
// "kernel lines"' own annotator (klmap.c: symbolization, the line table, the #if blocks and error paths), so that
// the inventory counts exactly what map --vmlinux reports; then every file of the line table rolled up.
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "footprint/kline.h"
#include "footprint/merge.h"
#include "inventory/inv_lines.h"
#include "kmap/annotate.h"
#include "kmap/kfmap.h"
#include "kmap/klmap.h"
#include "kmap/kmap.h"
#include "kmap/mapdb.h"
#include "util/error.h"
#include "util/xalloc.h"

struct inv_lines_priv {
	struct footprint *merged; /* owns kl */
	struct footprint **in;	  /* kept while the merge lives */
	size_t nin;
	struct mapdb *db;
	struct annotate_ctx ctx; /* owns the database of files the chains are in */
};

static bool has(const uint32_t *v, uint32_t n, uint32_t line)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid] == line)
			return true;
		if (v[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static struct invl_group *group_of(struct invl_group **v, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++) /* few options per file, files by path: the last ones are the likely */
		if (!strcmp((*v)[*n - 1 - i].name, name))
			return &(*v)[*n - 1 - i];
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n] = (struct invl_group){.name = xstrdup(name)};
	return &(*v)[(*n)++];
}

static void add_to(struct invl_group *g, const struct invl_file *f)
{
	g->compiled += f->compiled;
	g->covered += f->covered;
	g->files++;
	g->files_covered += f->covered > 0;
}

static int cmp_group(const void *a, const void *b)
{
	const struct invl_group *x = a, *y = b;

	if (x->compiled != y->compiled)
		return x->compiled < y->compiled ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Every file of the table with its covered lines (of klmap's covered files, walked side by side) and chain. */
static void count(struct inv_lines *l, struct kfdb *db)
{
	const struct klmap *kl = l->kl;
	size_t j = 0;

	l->nfiles = kl->compiled_files;
	l->files = xcalloc(l->nfiles ? l->nfiles : 1, sizeof(*l->files));
	for (size_t i = 0; i < kl->nfiles; i++) { /* covered lines of files the table lacks */
		const struct klm_file *c = &kl->files[i];
		for (uint32_t k = c->first; k < c->first + c->nlines; k++)
			l->outside += kl->k->lines[k].count && !has(c->compiled, c->ncompiled, kl->k->lines[k].line);
	}
	for (size_t i = 0; i < l->nfiles; i++) {
		const struct klm_tfile *t = &kl->table[i];
		struct invl_file *f = &l->files[i];
		long at = kfdb_file_index(db, t->path);

		*f = (struct invl_file){
		    .path = t->path, .chain = at >= 0 ? kfdb_chain(db, (uint32_t)at) : NULL, .compiled = t->n};
		while (j < kl->nfiles && strcmp(kl->files[j].path, t->path) < 0)
			j++;
		if (j < kl->nfiles && !strcmp(kl->files[j].path, t->path)) {
			const struct klm_file *c = &kl->files[j];
			for (uint32_t k = c->first; k < c->first + c->nlines; k++)
				f->covered += kl->k->lines[k].count && has(t->lines, t->n, kl->k->lines[k].line);
		}
		l->compiled += f->compiled;
		l->covered += f->covered;
		l->unplaced += !f->chain;
		const char *s = strrchr(f->path, '/');
		char *dir = s ? xstrndup(f->path, (size_t)(s - f->path)) : xstrdup(".");
		add_to(group_of(&l->dirs, &l->ndirs, dir), f);
		free(dir);
		for (size_t o = 0; f->chain && o < f->chain->nopts; o++)
			add_to(group_of(&l->opts, &l->nopts, f->chain->opts[o]), f);
	}
	if (l->nopts)
		qsort(l->opts, l->nopts, sizeof(*l->opts), cmp_group);
	if (l->ndirs)
		qsort(l->dirs, l->ndirs, sizeof(*l->dirs), cmp_group);
}

static int map_lines(struct inv_lines *l, const struct inv_lines_src *src)
{
	struct inv_lines_priv *p = l->priv;
	char *err = NULL;

	if (!(p->db = mapdb_builtin(kf_abi_host(), &err))) {
		error("%s", err);
		free(err);
		return -1;
	}
	p->ctx = (struct annotate_ctx){.db = p->db,
				       .abi = kf_abi_host(),
				       .kernel_src = src->kernel_src,
				       .vmlinux = src->vmlinux,
				       .source_root = src->source_root,
				       .no_running = true,
				       .err_prefix = ""};
	const struct fp_kernel_map *map = annotate_kernel(p->merged, p->db, NULL, "merged");
	const struct kind_annotator *a = fp_kind_klines.annotator;
	if (a->annotate(p->merged, map, &p->ctx, NULL) < 0)
		return -1;
	struct kfdb *db = klmap_files_db(&p->ctx);
	if (!map->kl || !db)
		return error("--lines: the kernel lines could not be mapped");
	l->kl = map->kl;
	if (!l->kl->compiled_files)
		return error("--vmlinux '%s': its DWARF has no line table", src->vmlinux);
	count(l, db);
	return 0;
}

struct inv_lines *inv_lines_build(const struct inv_lines_src *src, char **paths, size_t n)
{
	struct inv_lines *l = xcalloc(1, sizeof(*l));

	l->priv = xcalloc(1, sizeof(*l->priv));
	l->vmlinux = src->vmlinux;
	if (!src->vmlinux) {
		error("--lines needs --vmlinux: compiled lines are its DWARF line table's");
		goto fail;
	}
	if (!n) {
		error("--lines needs footprints recorded with --kernel-lines");
		goto fail;
	}
	l->priv->merged = fp_merge_new();
	for (size_t i = 0; i < n; i++) {
		struct footprint *fp = fp__load(paths[i]);
		if (!fp)
			goto fail;
		const struct fp_klines *k = fp_klines_of(fp);
		if (!k || (!k->nlines && !k->npcs)) {
			error("'%s': no kernel lines (record with --kernel-lines%s%s)", paths[i],
			      k && k->why_not ? "; it said: " : "", k && k->why_not ? k->why_not : "");
			fp__free(fp);
			goto fail;
		}
		fp_merge_add(l->priv->merged, fp);
		l->priv->in = xrealloc(l->priv->in, (l->priv->nin + 1) * sizeof(*l->priv->in));
		l->priv->in[l->priv->nin++] = fp;
		l->footprints = xrealloc(l->footprints, (l->nfootprints + 1) * sizeof(char *));
		l->footprints[l->nfootprints++] = xstrdup(paths[i]);
	}
	fp_merge_finish(l->priv->merged, NULL);
	if (map_lines(l, src) < 0)
		goto fail;
	return l;
fail:
	inv_lines_free(l);
	return NULL;
}

void inv_lines_free(struct inv_lines *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nopts; i++)
		free(l->opts[i].name);
	for (size_t i = 0; i < l->ndirs; i++)
		free(l->dirs[i].name);
	for (size_t i = 0; i < l->nfootprints; i++)
		free(l->footprints[i]);
	free(l->opts);
	free(l->dirs);
	free(l->files);
	free(l->footprints);
	if (l->priv->merged)
		fp__free(l->priv->merged);
	for (size_t i = 0; i < l->priv->nin; i++)
		fp__free(l->priv->in[i]);
	free(l->priv->in);
	annotate_ctx_release(&l->priv->ctx);
	mapdb_free(l->priv->db);
	free(l->priv);
	free(l);
}
