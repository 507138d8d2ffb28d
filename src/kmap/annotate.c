// SPDX-License-Identifier: GPL-2.0
/* The annotate stage: kernel knowledge attached to the items of a footprint (see annotate.h). */
#include "kmap/annotate.h"

#include <stdlib.h>
#include <string.h>

#include "abi/syscalls.h"
#include "kmap/kmap.h"
#include "kmap/mapdb.h"
#include "util/error.h"
#include "util/xalloc.h"

void annotate_classes(struct footprint *fp)
{
	for (uint32_t i = 0; i < fp->syscalls.cap; i++) {
		struct fp_sysstat *s = fp->syscalls.slots[i];
		const struct kf_syscall *row;
		char buf[96];

		if (!s)
			continue;
		row = kf_syscall_by_name(s->abi, s->name);
		if (!s->annot.klass)
			s->annot.klass = kf_class_name(row ? (enum kf_class)row->klass : KF_CLASS_NONE);
		if (!s->annot.api) {
			if (row && row->entry) {
				s->annot.api = row->entry;
			} else {
				snprintf(buf, sizeof(buf), "sys_%s", s->name);
				s->annot.api = fp__intern(fp, buf);
			}
		}
	}
}

/* The kernel knowledge attached to one footprint: its mappings, and what they borrow when it owns that. */
struct kannot {
	struct fp_kernel_map **maps;
	size_t nmaps;
	struct mapdb **own_dbs; /* annotate_builtin()'s */
	size_t ndbs;
	struct kf_running *own_run;
	struct annotate_ctx own_ctx; /* annotate_builtin()'s: the kinds' databases */
};

static void kannot_free(void *data)
{
	struct kannot *ka = data;

	for (size_t i = 0; i < ka->nmaps; i++)
		kmap_free(ka->maps[i]);
	for (size_t i = 0; i < ka->ndbs; i++)
		mapdb_free(ka->own_dbs[i]);
	annotate_ctx_release(&ka->own_ctx);
	if (ka->own_run) {
		kf_running__release(ka->own_run);
		free(ka->own_run);
	}
	free(ka->maps);
	free(ka->own_dbs);
	free(ka);
}

/* The "configs" roll-up: the options of every mapping; those of another ABI than the host's say which. */
static void kannot_write_json(const void *data, json_writer_t *w)
{
	const struct kannot *ka = data;

	jsonw_name(w, "configs");
	jsonw_start_array(w);
	for (size_t i = 0; i < ka->nmaps; i++) {
		const struct fp_kernel_map *m = ka->maps[i];

		for (size_t o = 0; o < m->nopts; o++)
			kmap_json_option(w, &m->opts[o], m->abi != kf_abi_host() ? kf_abi_name(m->abi) : NULL);
	}
	jsonw_end_array(w);
}

static struct kannot *kannot_of(const struct footprint *fp)
{
	for (size_t i = 0; i < fp->nattachments; i++)
		if (fp->attachments[i].free == kannot_free)
			return fp->attachments[i].data;
	return NULL;
}

static struct kannot *kannot_get(struct footprint *fp)
{
	struct kannot *ka = kannot_of(fp);

	if (!ka) {
		ka = xcalloc(1, sizeof(*ka));
		fp__attach(fp, (struct fp_attachment){ka, kannot_write_json, kannot_free});
	}
	return ka;
}

static void write_row(const struct fp_kref *k, json_writer_t *w)
{
	const struct kmap_row *r = (const struct kmap_row *)((const char *)k - offsetof(struct kmap_row, kref));

	kmap_json_kernel(w, r->map, r);
}

static void write_reach(const struct fp_kref *k, json_writer_t *w)
{
	const struct kmap_reach *r = (const struct kmap_reach *)((const char *)k - offsetof(struct kmap_reach, kref));

	kmap_json_reach_kernel(w, r->map, r);
}

/* Every refinement of the workload-wide table of m's ABI points at its row (one per kind and value). */
static void annotate_reach(struct footprint *fp, struct fp_kernel_map *m)
{
	kmap_add_reach(m, fp);
	for (size_t i = 0; i < m->nreach; i++)
		m->reach[i].kref.write_json = write_reach;
	for (uint32_t i = 0; i < fp->syscalls.cap; i++) {
		struct fp_sysstat *s = fp->syscalls.slots[i];

		for (uint32_t k = 0; s && s->abi == m->abi && k < s->nreach; k++) {
			struct kmap_reach *r = kmap_reach_row(m, s->reach[k].kind, s->reach[k].value);

			if (r)
				s->reach[k].annot.kernel = &r->kref;
		}
	}
}

const struct fp_kernel_map *annotate_kernel(struct footprint *fp, const struct mapdb *db, const struct kf_running *run,
					    const char *subject)
{
	struct kannot *ka = kannot_get(fp);
	struct fp_kernel_map *m;
	struct kmap_input *in;
	size_t n;

	annotate_classes(fp); /* the rows take their class from the footprint */
	in = kmap_inputs_footprint(fp, db->abi, &n);
	m = kmap_build(db, run, in, n, subject);
	m->recorded_on = fp->host_kernel; /* for the self-check against the running kernel (kmap_check.h) */
	free(in);
	ka->maps = xrealloc(ka->maps, (ka->nmaps + 1) * sizeof(*ka->maps));
	ka->maps[ka->nmaps++] = m;
	for (size_t i = 0; i < m->nrows; i++) {
		struct kmap_row *r = &m->rows[i];
		struct fp_sysstat *s = r->nr >= 0 ? fp_sctab_find(&fp->syscalls, r->abi, r->nr) : NULL;

		r->kref.write_json = write_row;
		if (s)
			s->annot.kernel = &r->kref;
	}
	annotate_reach(fp, m);
	return m;
}

struct fp_kernel_map *annotate_own_map(const struct footprint *fp, const struct fp_kernel_map *map)
{
	struct kannot *ka = kannot_of(fp);

	for (size_t i = 0; map && ka && i < ka->nmaps; i++)
		if (ka->maps[i] == map)
			return ka->maps[i];
	return NULL;
}

int annotate_kinds(struct footprint *fp, const struct fp_kernel_map *map, struct annotate_ctx *ctx)
{
	for (size_t i = 0; fp_kinds[i]; i++) {
		const struct kind_annotator *a = fp_kinds[i]->annotator;

		if (a && a->annotate && a->annotate(fp, map, ctx, &ctx->kind_db[i]) < 0)
			return -1;
	}
	return 0;
}

void annotate_ctx_release(struct annotate_ctx *ctx)
{
	for (size_t i = 0; fp_kinds[i]; i++) {
		if (ctx->kind_db[i])
			fp_kinds[i]->annotator->free_db(ctx->kind_db[i]);
		ctx->kind_db[i] = NULL;
	}
}

static bool uses_abi(const struct footprint *fp, enum kf_abi abi)
{
	for (uint32_t i = 0; i < fp->syscalls.cap; i++)
		if (fp->syscalls.slots[i] && fp->syscalls.slots[i]->abi == abi)
			return true;
	return false;
}

int annotate_builtin(struct footprint *fp, const char *subject)
{
	struct kannot *ka = kannot_get(fp);

	if (!ka->own_run) {
		ka->own_run = xcalloc(1, sizeof(*ka->own_run));
		kf_running__load(ka->own_run, NULL, NULL);
	}
	for (size_t a = 0; a < mapdb_nbuiltins; a++) {
		enum kf_abi abi = mapdb_builtins[a].abi;
		struct mapdb *db;
		char *err = NULL;

		if (abi != kf_abi_host() && !uses_abi(fp, abi))
			continue;
		db = mapdb_builtin(abi, &err);
		if (!db) {
			error("--map: %s", err);
			free(err);
			return -1;
		}
		ka->own_dbs = xrealloc(ka->own_dbs, (ka->ndbs + 1) * sizeof(*ka->own_dbs));
		ka->own_dbs[ka->ndbs++] = db;
		const struct fp_kernel_map *m = annotate_kernel(fp, db, ka->own_run, subject);
		/* the kinds' built-in databases are the host's */
		if (abi == kf_abi_host()) {
			ka->own_ctx.db = db;
			ka->own_ctx.abi = abi;
			ka->own_ctx.run = ka->own_run;
			ka->own_ctx.err_prefix = "--map: ";
			if (annotate_kinds(fp, m, &ka->own_ctx) < 0)
				return -1;
		}
	}
	return 0;
}

size_t annotate_maps(const struct footprint *fp, const struct fp_kernel_map *const **maps)
{
	const struct kannot *ka = kannot_of(fp);

	*maps = ka ? (const struct fp_kernel_map *const *)ka->maps : NULL;
	return ka ? ka->nmaps : 0;
}

/* What mapping fp's rows of abi asks of a database (kmap_build() and kmap_add_reach() look up no more). */
static const struct mapdb_want *want_of(const struct footprint *fp, enum kf_abi abi, const struct kmap_input *in,
					size_t nin, struct mapdb_want *w)
{
	const char **names = xcalloc(nin + 1, sizeof(*names)), **kinds = NULL, **values = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < nin; i++)
		names[i] = in[i].name;
	struct fp_sysstat **all = fp_sctab_sorted(&fp->syscalls, NULL);

	for (uint32_t i = 0; i < fp->syscalls.count; i++) {
		const struct fp_sysstat *s = all[i];

		for (uint32_t k = 0; s->abi == abi && k < s->nreach; k++) {
			size_t c = cap;

			XGROW(kinds, c, n + 1);
			XGROW(values, cap, n + 1);
			kinds[n] = s->reach[k].kind;
			values[n++] = s->reach[k].value;
		}
	}
	free(all);
	*w = (struct mapdb_want){
	    .syscalls = names, .nsyscalls = nin, .reach_kind = kinds, .reach_value = values, .nreach = n};
	return w;
}

static void want_release(struct mapdb_want *w)
{
	free((void *)w->syscalls);
	free((void *)w->reach_kind);
	free((void *)w->reach_value);
}

void annotate_view(const struct footprint *fp, struct kmap_view *v, bool kfacts)
{
	memset(v, 0, sizeof(*v));
	const struct fp_kernel_map *const *own;
	if (!fp->syscalls.count || annotate_maps(fp, &own))
		return; /* nothing to map, or a mapping of its own */
	for (size_t a = 0; a < mapdb_nbuiltins; a++) {
		enum kf_abi abi = mapdb_builtins[a].abi;
		char *err = NULL;
		size_t nin;

		if (!uses_abi(fp, abi))
			continue;
		struct kmap_input *in = kmap_inputs_footprint(fp, abi, &nin);
		struct mapdb_want want = {0};
		struct mapdb *db =
		    kfacts ? mapdb_builtin(abi, &err) : mapdb_builtin_for(abi, want_of(fp, abi, in, nin, &want), &err);

		want_release(&want);
		free(err); /* no database: the summary says nothing of that ABI */
		if (!db) {
			free(in);
			continue;
		}
		struct fp_kernel_map *m = kmap_build(db, NULL, in, nin, "");
		kmap_add_reach(m, fp);
		free(in);
		v->maps = xrealloc(v->maps, (v->n + 1) * sizeof(*v->maps));
		v->dbs = xrealloc(v->dbs, (v->n + 1) * sizeof(*v->dbs));
		v->maps[v->n] = m;
		v->dbs[v->n++] = db;
	}
}

void kmap_view_release(struct kmap_view *v)
{
	for (size_t i = 0; i < v->n; i++) {
		kmap_free(v->maps[i]);
		mapdb_free(v->dbs[i]);
	}
	free(v->maps);
	free(v->dbs);
	memset(v, 0, sizeof(*v));
}
