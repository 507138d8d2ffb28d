// SPDX-License-Identifier: GPL-2.0
/* The annotate stage: kernel knowledge attached to the items of a footprint (see annotate.h). */
#include "kmap/annotate.h"

#include <stdlib.h>
#include <string.h>

#include "abi/syscalls.h"
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
	struct kfdb *own_kfdb; /* annotate_builtin()'s */
};

static void kannot_free(void *data)
{
	struct kannot *ka = data;

	for (size_t i = 0; i < ka->nmaps; i++)
		kmap_free(ka->maps[i]);
	for (size_t i = 0; i < ka->ndbs; i++)
		mapdb_free(ka->own_dbs[i]);
	kfdb_free(ka->own_kfdb);
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

static void kfmap_write(const void *data, json_writer_t *w)
{
	jsonw_name(w, "kernel_functions_map");
	kfmap_json(w, data);
}

static void kfmap_release(void *data)
{
	kfmap_free(data);
}

const struct kfmap *annotate_kfuncs(struct footprint *fp, struct kfdb *db, const struct kfmap_opts *o)
{
	struct kfmap *m;
	char *err = NULL;

	if (!fp->kfuncs || !fp->kfuncs->nfuncs)
		return NULL;
	m = kfmap_build(db, fp, o, &err);
	if (!m) {
		error("kernel functions: %s", err);
		free(err);
		return NULL;
	}
	fp__attach(fp, (struct fp_attachment){m, kfmap_write, kfmap_release});
	return m;
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
		if (abi == kf_abi_host() && fp->kfuncs && fp->kfuncs->nfuncs && !ka->own_kfdb) {
			struct kfmap_opts ko = {.running_release = ka->own_run->release};
			ka->own_kfdb = kfdb_builtin(&err);
			if (!ka->own_kfdb) {
				error("--map: %s", err);
				free(err);
				return -1;
			}
			/* the mapping is fp's: its kf link is set once, here, as the map is made */
			((struct fp_kernel_map *)m)->kf = annotate_kfuncs(fp, ka->own_kfdb, &ko);
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
