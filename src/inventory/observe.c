// SPDX-License-Identifier: GPL-2.0
// The observed side of the inventory. Syscalls come from the footprints merged as `kfootprint merge` does, mapped
// through the same tree (or the built-in database); refinements (syscalls[].reached[].kernel) and kernel
// functions (kernel_functions.functions[].kernel) are read from each file's JSON as their mapping wrote them,
// since the model keeps the mapping of neither; a function without one is placed by the DWARF read, if any.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "footprint/merge.h"
#include "inventory/inv_internal.h"
#include "kmap/kmap.h"
#include "kmap/mapdb.h"
#include "util/error.h"
#include "util/json_reader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- syscalls ---------------------------------------------------------------------------------------- */

static struct mapdb *open_db(const struct inventory *inv)
{
	char *err = NULL;
	struct mapdb *db;

	if (inv->tree && inv->cfg) {
		struct kt_index *idx = kt_index_build(inv->tree, KF_ABI_X86_64, inv->cfg, 0, &err);
		if (!idx) {
			error("--kernel-src '%s': %s", inv->tree, err);
			free(err);
			return NULL;
		}
		return mapdb_from_index(idx, inv->config);
	}
	db = mapdb_builtin(KF_ABI_X86_64, &err);
	if (!db) {
		error("%s", err);
		free(err);
	}
	return db;
}

static void observe_syscalls(struct inventory *inv, const struct footprint *fp, const struct mapdb *db)
{
	size_t n;
	struct kmap_input *in = kmap_inputs_footprint(fp, KF_ABI_X86_64, &n);

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

/* ---- refinements and kernel functions, from the JSON ----------------------------------------------------- */

struct kobj {
	char *file, *included_by;
	char **configs;
	size_t nconfigs, cap;
};

static void kobj_release(struct kobj *k)
{
	free(k->file);
	free(k->included_by);
	for (size_t i = 0; i < k->nconfigs; i++)
		free(k->configs[i]);
	free(k->configs);
	memset(k, 0, sizeof(*k));
}

/* The members of a "kernel" object that place an observation; the rest skipped. 0 or -1. */
static int read_kernel(struct json_reader *jr, struct kobj *k)
{
	enum jr_event ev;

	while ((ev = jr_next(jr)) == JR_KEY) {
		char *key = xstrdup(jr->text.buf);
		ev = jr_next(jr);
		if (ev == JR_STRING && !strcmp(key, "file")) {
			free(k->file);
			k->file = xstrdup(jr->text.buf);
		} else if (ev == JR_STRING && !strcmp(key, "included_by")) {
			free(k->included_by);
			k->included_by = xstrdup(jr->text.buf);
		} else if (ev == JR_ARRAY && !strcmp(key, "configs")) {
			while ((ev = jr_next(jr)) != JR_ARRAY_END) {
				if (ev == JR_STRING) {
					XGROW(k->configs, k->cap, k->nconfigs + 1);
					k->configs[k->nconfigs++] = xstrdup(jr->text.buf);
				} else if (ev == JR_ERROR || jr_skip(jr, ev) < 0) {
					free(key);
					return -1;
				}
			}
		} else if (ev == JR_ERROR || jr_skip(jr, ev) < 0) {
			free(key);
			return -1;
		}
		free(key);
	}
	return ev == JR_OBJECT_END ? 0 : -1;
}

static uint64_t number(const struct json_reader *jr)
{
	return jr->is_int && jr->text.buf[0] != '-' ? strtoull(jr->text.buf, NULL, 10) : 0;
}

/*
 * One element of syscalls[].reached[] or kernel_functions.functions[]: its count (calls, hits), its name (kind
 * and value, or name) and its "kernel" object, whatever the order of the members.
 */
static int read_item(struct json_reader *jr, struct inventory *inv, enum inv_by by)
{
	struct kobj k = {0};
	char *name = NULL, *kind = NULL;
	uint64_t count = 0;
	bool mapped = false;
	enum jr_event ev;

	while ((ev = jr_next(jr)) == JR_KEY) {
		char *key = xstrdup(jr->text.buf);
		ev = jr_next(jr);
		if (ev == JR_OBJECT && !strcmp(key, "kernel")) {
			mapped = true;
			if (read_kernel(jr, &k) < 0)
				ev = JR_ERROR;
		} else if (ev == JR_NUMBER && (!strcmp(key, "calls") || !strcmp(key, "hits"))) {
			count = number(jr);
		} else if (ev == JR_STRING && (!strcmp(key, "value") || !strcmp(key, "name"))) {
			free(name);
			name = xstrdup(jr->text.buf);
		} else if (ev == JR_STRING && !strcmp(key, "kind")) {
			free(kind);
			kind = xstrdup(jr->text.buf);
		} else if (ev != JR_ERROR && jr_skip(jr, ev) < 0) {
			ev = JR_ERROR;
		}
		free(key);
		if (ev == JR_ERROR)
			break;
	}
	if (ev == JR_OBJECT_END) {
		char *what = kind ? xasprintf("%s %s", kind, name ? name : "?") : xstrdup(name ? name : "?");
		const char *file = k.included_by ? k.included_by : k.file;
		if (!mapped && by == INV_FUNCTION && name) {
			/* "eventfd_write.isra.0": the DWARF name has no compiler suffix */
			char *base = xstrndup(name, strcspn(name, "."));
			file = inv__dwarf_func_file(inv, base);
			free(base);
		}
		inv__observe(inv, by, file, (const char *const *)k.configs, k.nconfigs, count ? count : 1, what);
		free(what);
	}
	kobj_release(&k);
	free(name);
	free(kind);
	return ev == JR_OBJECT_END ? 0 : -1;
}

/* An array of objects, each read by read_item. */
static int read_items(struct json_reader *jr, struct inventory *inv, enum inv_by by)
{
	enum jr_event ev;

	while ((ev = jr_next(jr)) != JR_ARRAY_END) {
		if (ev == JR_OBJECT) {
			if (read_item(jr, inv, by) < 0)
				return -1;
		} else if (ev == JR_ERROR || jr_skip(jr, ev) < 0) {
			return -1;
		}
	}
	return 0;
}

/* The mapped refinements and kernel functions of one footprint file; everything else is skipped. */
static int scan_json(struct inventory *inv, const char *path)
{
	struct kf_input in;
	struct json_reader jr;
	char *why = NULL;
	enum jr_event ev;
	int r = -1;

	if (kf_input_open(&in, path, KF_FOOTPRINT_MAX, &why) < 0) {
		error("'%s': %s", path, why);
		free(why);
		return -1;
	}
	jr_init_input(&jr, &in, 64);
	if (jr_next(&jr) != JR_OBJECT)
		goto out;
	while ((ev = jr_next(&jr)) == JR_KEY) {
		char *key = xstrdup(jr.text.buf);
		ev = jr_next(&jr);
		if (ev == JR_ARRAY && !strcmp(key, "syscalls")) {
			/* syscalls[]: each row's "reached" array */
			while ((ev = jr_next(&jr)) == JR_OBJECT) {
				while ((ev = jr_next(&jr)) == JR_KEY) {
					bool reached = !strcmp(jr.text.buf, "reached");
					ev = jr_next(&jr);
					if (reached && ev == JR_ARRAY) {
						if (read_items(&jr, inv, INV_REFINEMENT) < 0)
							ev = JR_ERROR;
					} else if (ev != JR_ERROR && jr_skip(&jr, ev) < 0) {
						ev = JR_ERROR;
					}
					if (ev == JR_ERROR)
						break;
				}
				if (ev != JR_OBJECT_END)
					break;
			}
			if (ev != JR_ARRAY_END)
				ev = JR_ERROR;
		} else if (ev == JR_OBJECT && !strcmp(key, "kernel_functions")) {
			while ((ev = jr_next(&jr)) == JR_KEY) {
				char *sub = xstrdup(jr.text.buf);
				ev = jr_next(&jr);
				if (ev == JR_ARRAY && !strcmp(sub, "functions")) {
					if (read_items(&jr, inv, INV_FUNCTION) < 0)
						ev = JR_ERROR;
				} else if (ev == JR_FALSE && !strcmp(sub, "exhaustive")) {
					inv->incomplete = true; /* sampled stacks: not every function that ran */
				} else if (ev != JR_ERROR && jr_skip(&jr, ev) < 0) {
					ev = JR_ERROR;
				}
				free(sub);
				if (ev == JR_ERROR)
					break;
			}
			if (ev != JR_OBJECT_END)
				ev = JR_ERROR;
		} else if (ev != JR_ERROR && jr_skip(&jr, ev) < 0) {
			ev = JR_ERROR;
		}
		free(key);
		if (ev == JR_ERROR)
			break;
	}
	r = ev == JR_OBJECT_END ? 0 : -1;
out:
	if (r < 0)
		error("'%s': %s", path, jr_error(&jr) ? jr_error(&jr) : "not a footprint");
	jr_release(&jr);
	kf_input_close(&in);
	return r;
}

int inv_observe(struct inventory *inv, char **paths, size_t n)
{
	struct footprint *m = fp_merge_new();
	struct mapdb *db = NULL;
	int r = -1;

	for (size_t i = 0; i < n; i++) {
		if (!strcmp(paths[i], "-")) {
			error("'-': footprints are read twice (the model, then the kernel mappings): give files");
			goto out;
		}
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
		fp_merge_add(m, fp);
		fp__free(fp);
		inv->footprints = xrealloc(inv->footprints, (inv->nfootprints + 1) * sizeof(char *));
		inv->footprints[inv->nfootprints++] = xstrdup(paths[i]);
		if (scan_json(inv, paths[i]) < 0)
			goto out;
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
