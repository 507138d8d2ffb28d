// SPDX-License-Identifier: GPL-2.0
// The observed side of the inventory. Each footprint is annotated here exactly as `kfootprint map` annotates it
// (annotate_kernel(), and each kind's annotator: the tree's index and function definitions with --kernel-src,
// else the built-in databases), whatever places it carries: a footprint saved without --map, merged or recorded on
// another host has none, and one mapped elsewhere may have been mapped against another tree. Syscalls come from the
// footprints merged as `kfootprint merge` does; what the calls reached (refinements) and kernel functions from
// each footprint's own mapping (a merge keeps refinements only when every input has them). The options reached
// are what the mappings' needs want on (kneeds.h: Y or M; an option only needed off is not one), closed over
// `depends on` and `select`.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "footprint/footprint_json.h"
#include "footprint/merge.h"
#include "inventory/inv_internal.h"
#include "kmap/annotate.h"
#include "kmap/kmap.h"
#include "kmap/kneeds.h"
#include "kmap/mapdb.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* What the mappings are made with, opened once for every footprint. */
struct observer {
	struct inventory *inv;
	struct mapdb *db;
	struct annotate_ctx ctx; /* the kinds' annotators': as map's (the tree with --kernel-src, else built-in) */
	/* the options wanted on (Y or M) by any mapping, sorted, each once */
	char **wanted;
	size_t nwanted, capwanted;
	/* the closure the mappings' needs carry (kneeds' via): option and the one that brought it in */
	char **via, **via_by;
	size_t nvia, capvia, capvia_by;
	const char *closure, *no_closure; /* kneeds': how it was made, or why not */
};

static struct mapdb *open_db(const struct inventory *inv)
{
	char *err = NULL;
	struct mapdb *db;

	if (inv->tree && inv->cfg) {
		struct kt_index *idx = kt_index_build(inv->tree, kf_abi_host(), inv->cfg, 0, &err);
		if (!idx) {
			error("--kernel-src '%s': %s", inv->tree, err);
			free(err);
			return NULL;
		}
		return mapdb_from_index(idx, inv->config);
	}
	db = mapdb_builtin(kf_abi_host(), &err);
	if (!db) {
		error("%s", err);
		free(err);
	}
	return db;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool is_wanted(const struct observer *o, const char *name)
{
	return o->nwanted && bsearch(&name, o->wanted, o->nwanted, sizeof(char *), cmp_str);
}

static void add_via(struct observer *o, const char *name, const char *by)
{
	for (size_t i = 0; i < o->nvia; i++)
		if (!strcmp(o->via[i], name))
			return;
	XGROW(o->via, o->capvia, o->nvia + 1);
	XGROW(o->via_by, o->capvia_by, o->nvia + 1);
	o->via[o->nvia] = xstrdup(name);
	o->via_by[o->nvia++] = xstrdup(by);
}

/*
 * The options a mapping's needs want on (kept sorted: a few hundred at most), and those their closure brings in
 * on (kneeds' via; the ABI's own, 64BIT for x86_64, asked by the closure itself).
 */
static void take_needs(struct observer *o, const struct kneeds *k)
{
	if (k && k->closure && !o->closure)
		o->closure = k->closure;
	if (k && !k->closure && k->no_closure && !o->no_closure)
		o->no_closure = k->no_closure;
	for (size_t i = 0; k && i < k->n; i++) {
		const struct kneed *e = &k->v[i];

		if (e->closed && e->value == 'y' && e->want != KNEED_Y && e->want != KNEED_M) {
			if (e->because || e->abi)
				add_via(o, e->name, e->because ? e->because : "the ABI");
			continue;
		}
		if (e->want != KNEED_Y && e->want != KNEED_M)
			continue; /* only probes reach it, or it is needed off: no code of it was used */
		if (is_wanted(o, e->name))
			continue;
		XGROW(o->wanted, o->capwanted, o->nwanted + 1);
		o->wanted[o->nwanted++] = xstrdup(e->name);
		qsort(o->wanted, o->nwanted, sizeof(char *), cmp_str);
	}
}

/* A chain's file: the unit compiled is the includer (membarrier.c is built inside build_utility.c). */
static const char *unit_of(const struct kt_syscall *s)
{
	return s->included_by ? s->included_by : s->file;
}

static void observe_syscalls(struct observer *o, const struct fp_kernel_map *m)
{
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kmap_row *r = &m->rows[i];
		const struct kt_syscall *s = r->ks;
		uint64_t used = r->calls - r->enosys;

		if (!used)
			continue; /* a probe: every call failed with ENOSYS, nothing of the kernel was used */
		if (!s || !s->file) {
			inv__observe(o->inv, INV_SYSCALL, NULL, NULL, 0, used, r->name);
			continue;
		}
		inv__observe(o->inv, INV_SYSCALL, unit_of(s), (const char *const *)r->opts, r->nopts, used, r->name);
		if (s->impl_file && strcmp(s->impl_file, s->file)) {
			o->inv->nobs[INV_SYSCALL]--; /* one syscall, two files */
			inv__observe(o->inv, INV_SYSCALL, s->impl_file, NULL, 0, used, r->name);
		}
	}
}

/* What the calls reached, one row per kind and value, as the map's "reached" lists them. */
static void observe_reach(struct observer *o, const struct fp_kernel_map *m)
{
	for (size_t i = 0; i < m->nreach; i++) {
		const struct kmap_reach *r = &m->reach[i];
		const struct kt_syscall *s = r->ks;
		uint64_t n = r->calls > r->errors ? r->calls - r->errors : 0;

		if (!n)
			n = 1; /* the row says it was reached, if only by failed calls; counted once */
		inv__observe(o->inv, INV_REFINEMENT, s && s->file ? unit_of(s) : NULL, (const char *const *)r->opts,
			     r->nopts, n, r->label);
	}
}

/* An item of a kind, where its annotator placed it (else by its function's DWARF definition, when read). */
static void observe_place(struct inventory *inv, enum inv_by by, const struct fp_kplace *k, uint64_t count,
			  const char *what, const char *func)
{
	const char *file = k ? k->included_by ? k->included_by : k->file : NULL;

	if (!k && func) {
		/* "eventfd_write.isra.0": the DWARF name has no compiler suffix */
		char *base = xstrndup(func, strcspn(func, "."));
		file = inv__dwarf_func_file(inv, base);
		free(base);
	}
	inv__observe(inv, by, file, k ? k->configs : NULL, k ? k->nconfigs : 0, count ? count : 1, what);
}

/* A kind's items (struct fp_observer) counted as kernel functions are. */
struct kind_items {
	struct fp_observer o;
	struct inventory *inv;
};

static void kind_item(struct fp_observer *o, const char *what, const char *function, uint64_t n,
		      const struct fp_kplace *at)
{
	observe_place(((struct kind_items *)o)->inv, INV_FUNCTION, at, n, what, function);
}

/* One footprint's refinements and kernel functions, from its own mapping; its needs. -1 after a message. */
static int observe_one(struct observer *o, struct footprint *fp, const char *path)
{
	const struct fp_kernel_map *m = annotate_kernel(fp, o->db, NULL, path);

	observe_reach(o, m);
	/* the kinds of observation, each item placed now by its kind's annotator */
	struct kind_items ki = {{kind_item, false}, o->inv};
	o->ctx.file = path;
	for (size_t i = 0; fp_kinds[i]; i++) {
		const struct kind_annotator *a = fp_kinds[i]->annotator;
		if (a && a->observe && a->observe(fp, &o->ctx, &o->ctx.kind_db[i], &ki.o) < 0)
			return -1;
	}
	if (ki.o.incomplete)
		o->inv->incomplete = true;
	take_needs(o, m->needs);
	return 0;
}

/* kneeds_find() takes a name without CONFIG_; observations carry the chains' names */
static const char *bare(const char *name)
{
	return strncmp(name, "CONFIG_", 7) ? name : name + 7;
}

/*
 * The options reached: those the needs want on, then their closure over `depends on` and `select` (kneeds: the
 * tree's Kconfig, or the facts the database carries), which a configuration cannot leave out either.
 */
static void close_options(struct observer *o)
{
	struct inventory *inv = o->inv;
	size_t out = 0, added = 0;

	for (size_t i = 0; i < inv->nseen_opts; i++) {
		struct inv_group *g = &inv->seen_opts[i];
		if (is_wanted(o, bare(g->name))) {
			inv->seen_opts[out++] = *g;
			continue;
		}
		inv->off_only++;
		free(g->name);
		free(g->via);
	}
	inv->nseen_opts = out;
	for (size_t i = 0; i < o->nwanted; i++)
		inv__seen_opt(inv, o->wanted[i]);
	for (size_t i = 0; i < o->nvia; i++)
		added += !is_wanted(o, o->via[i]) && inv__closure_opt(inv, o->via[i], o->via_by[i]);
	if (o->closure)
		inv->closure =
		    xasprintf("closed over depends on and select by %s: %zu options brought in", o->closure, added);
	else
		inv->closure = xasprintf("not closed over depends on and select: %s",
					 o->no_closure ? o->no_closure : "no closure was made");
}

static void observer_release(struct observer *o)
{
	for (size_t i = 0; i < o->nwanted; i++)
		free(o->wanted[i]);
	for (size_t i = 0; i < o->nvia; i++) {
		free(o->via[i]);
		free(o->via_by[i]);
	}
	free(o->wanted);
	free(o->via);
	free(o->via_by);
}

int inv_observe(struct inventory *inv, char **paths, size_t n)
{
	struct footprint *m = fp_merge_new();
	struct footprint **fps = xcalloc(n + 1, sizeof(*fps));
	struct observer o = {.inv = inv};
	int r = -1;

	/* every footprint read before a tree is indexed: a typo in a name should not wait for it */
	for (size_t i = 0; i < n; i++) {
		if (!(fps[i] = fp__load(paths[i])))
			goto out;
		if (!fps[i]->complete)
			inv->incomplete = true;
		if (!inv->workload && fps[i]->argv && fps[i]->argv[0]) {
			struct strbuf sb = STRBUF_INIT;
			for (size_t a = 0; fps[i]->argv[a] && sb.len < 200; a++)
				strbuf_addf(&sb, "%s%s", a ? " " : "", fps[i]->argv[a]);
			inv->workload = strbuf_detach(&sb);
		}
		inv->footprints = xrealloc(inv->footprints, (inv->nfootprints + 1) * sizeof(char *));
		inv->footprints[inv->nfootprints++] = xstrdup(paths[i]);
	}
	if (!(o.db = open_db(inv)))
		goto out;
	o.ctx = (struct annotate_ctx){
	    .db = o.db, .abi = kf_abi_host(), .kernel_src = inv->tree && inv->cfg ? inv->tree : NULL, .err_prefix = ""};
	for (size_t i = 0; i < n; i++) {
		if (observe_one(&o, fps[i], paths[i]) < 0)
			goto out;
		fp_merge_add(m, fps[i]);
	}
	fp_merge_finish(m, NULL);
	{
		size_t nin;
		struct kmap_input *in = kmap_inputs_footprint(m, kf_abi_host(), &nin);
		struct fp_kernel_map *km = kmap_build(o.db, NULL, in, nin, "merged");
		observe_syscalls(&o, km);
		take_needs(&o, km->needs);
		kmap_free(km);
		free(in);
	}
	close_options(&o);
	if (n > 1 && inv->workload) {
		char *w = xasprintf("%s + %zu more", inv->workload, n - 1);
		free(inv->workload);
		inv->workload = w;
	}
	r = 0;
out:
	fp__free(m);
	for (size_t i = 0; i < n; i++)
		fp__free(fps[i]); /* before what their mappings borrow */
	free(fps);
	annotate_ctx_release(&o.ctx);
	mapdb_free(o.db);
	observer_release(&o);
	return r;
}
