// SPDX-License-Identifier: GPL-2.0
// The observed side of the inventory. Syscalls come from the footprints merged as `kfootprint merge` does, mapped
// through the same tree (or the built-in database) for the host's ABI (abi/abi.h); refinements and kernel functions
// are placed where each footprint's own mapping put them (the "kernel" objects the reader keeps, fp_annot.loaded);
// a function without one is placed by the DWARF read, if any.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "footprint/footprint_json.h"
#include "footprint/merge.h"
#include "inventory/inv_internal.h"
#include "kmap/kmap.h"
#include "kmap/mapdb.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- syscalls ---------------------------------------------------------------------------------------- */

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

static void observe_syscalls(struct inventory *inv, const struct footprint *fp, const struct mapdb *db)
{
	size_t n;
	struct kmap_input *in = kmap_inputs_footprint(fp, kf_abi_host(), &n);

	for (size_t i = 0; i < n; i++) {
		const struct kt_syscall *s = mapdb_syscall(db, in[i].name);
		uint64_t used = in[i].calls - in[i].enosys;

		if (!used)
			continue; /* a probe: every call failed with ENOSYS, nothing of the kernel was used */
		if (!s || !s->file) {
			inv__observe(inv, INV_SYSCALL, NULL, NULL, 0, used, in[i].name);
			continue;
		}
		/* the unit compiled is the includer (membarrier.c is built inside build_utility.c) */
		const char *unit = s->included_by ? s->included_by : s->file;
		inv__observe(inv, INV_SYSCALL, unit, (const char *const *)s->options, s->noptions, used, in[i].name);
		if (s->impl_file && strcmp(s->impl_file, s->file)) {
			inv->nobs[INV_SYSCALL]--; /* one syscall, two files */
			inv__observe(inv, INV_SYSCALL, s->impl_file, NULL, 0, used, in[i].name);
		}
	}
	free(in);
}

/* ---- refinements and kernel functions, from the places the footprint's mapping gave them ------------------ */

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

/*
 * The refinements (syscalls[].reached[]) and kernel functions of one footprint, in the order its JSON has them
 * (the writer's: rows by calls, refinements by calls, functions by name): the first of a file is its example.
 */
static void observe_places(struct inventory *inv, const struct footprint *fp)
{
	struct fp_sysstat **rows = fp_sctab_sorted(&fp->syscalls, fp_sysstat_cmp_calls);

	for (size_t i = 0; rows && rows[i]; i++) {
		struct fp_reach **v = fp_sysstat_reach_sorted(rows[i]);

		for (size_t k = 0; v && v[k]; k++) {
			char *what = xasprintf("%s %s", v[k]->kind, v[k]->value);
			observe_place(inv, INV_REFINEMENT, v[k]->annot.loaded, v[k]->calls, what, NULL);
			free(what);
		}
		free(v);
	}
	free(rows);
	/* the kinds of observation: each item where its footprint's mapping placed it */
	struct kind_items ki = {{kind_item, false}, inv};
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		if ((*k)->observe)
			(*k)->observe(fp, &ki.o);
	if (ki.o.incomplete)
		inv->incomplete = true; /* sampled stacks: not every function that ran */
}

int inv_observe(struct inventory *inv, char **paths, size_t n)
{
	struct footprint *m = fp_merge_new();
	struct mapdb *db = NULL;
	int r = -1;

	for (size_t i = 0; i < n; i++) {
		struct footprint *fp = fp__load(paths[i]);
		if (!fp)
			goto out;
		if (!fp->complete)
			inv->incomplete = true;
		if (!inv->workload && fp->argv && fp->argv[0]) {
			struct strbuf sb = STRBUF_INIT;
			for (size_t a = 0; fp->argv[a] && sb.len < 200; a++)
				strbuf_addf(&sb, "%s%s", a ? " " : "", fp->argv[a]);
			inv->workload = strbuf_detach(&sb);
		}
		observe_places(inv, fp);
		fp_merge_add(m, fp);
		fp__free(fp);
		inv->footprints = xrealloc(inv->footprints, (inv->nfootprints + 1) * sizeof(char *));
		inv->footprints[inv->nfootprints++] = xstrdup(paths[i]);
	}
	fp_merge_finish(m, NULL);
	if (!(db = open_db(inv)))
		goto out;
	observe_syscalls(inv, m, db);
	if (n > 1 && inv->workload) {
		char *w = xasprintf("%s + %zu more", inv->workload, n - 1);
		free(inv->workload);
		inv->workload = w;
	}
	r = 0;
out:
	mapdb_free(db);
	fp__free(m);
	return r;
}
