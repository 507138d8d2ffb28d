// SPDX-License-Identifier: GPL-2.0
// The inventory's DWARF side: a debug vmlinux's compilation units are the files it links; its functions, counted
// per declaring file with the lines they span, and a name -> file table that places recorded kernel functions a
// footprint did not map itself (only when the name has one definition: a static defined twice is never guessed).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/inv_internal.h"
#include "kdwarf/kdwarf.h"
#include "util/error.h"
#include "util/fnv.h"
#include "util/xalloc.h"

/* A string set/map by open addressing: keys owned, values borrowed. */
struct smap {
	char **keys;
	const char **vals;
	size_t cap, len;
};

/* The slot of key (empty when absent). */
static size_t slot(const struct smap *m, const char *key)
{
	size_t i = fnv1a64(key, FNV1A64_INIT) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* true when key was new */
static bool sm_put(struct smap *m, const char *key, const char **val)
{
	if ((m->len + 1) * 2 > m->cap) {
		struct smap n = {.cap = m->cap ? m->cap * 2 : 1024};
		n.keys = xcalloc(n.cap, sizeof(char *));
		n.vals = xcalloc(n.cap, sizeof(char *));
		for (size_t i = 0; i < m->cap; i++)
			if (m->keys[i]) {
				size_t s = slot(&n, m->keys[i]);
				n.keys[s] = m->keys[i];
				n.vals[s] = m->vals[i];
			}
		n.len = m->len;
		free(m->keys);
		free(m->vals);
		*m = n;
	}
	size_t s = slot(m, key);
	if (m->keys[s]) {
		if (val)
			*val = m->vals[s];
		return false;
	}
	m->keys[s] = xstrdup(key);
	m->vals[s] = val ? *val : NULL;
	m->len++;
	return true;
}

static void sm_set(struct smap *m, const char *key, const char *val)
{
	sm_put(m, key, NULL);
	m->vals[slot(m, key)] = val;
}

static const char *sm_get(const struct smap *m, const char *key)
{
	if (!m->cap)
		return NULL;
	size_t s = slot(m, key);
	return m->keys[s] ? m->vals[s] : NULL;
}

static void sm_release(struct smap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

struct inv_names {
	struct smap byname; /* function name -> file path (interned in paths), or AMBIGUOUS */
	struct smap paths;  /* file paths (the keys are the interned copies) */
};

static const char AMBIGUOUS[] = "";

struct dw_ctx {
	struct inventory *inv;
	bool add_files;
	struct smap defs; /* "file:line:name": each definition counted once, not once per unit including it */
};

static int unit_cb(const struct kd_cu *cu, void *ctx)
{
	struct dw_ctx *c = ctx;

	c->inv->dwarf_units++;
	if (c->add_files) {
		char *rel = inv_relpath(cu->name, cu->comp_dir);
		inv__add(c->inv, rel, KT_BUILT_IN)->assembler = cu->assembler;
		free(rel);
	}
	return 0;
}

static const char *intern(struct inv_names *n, const char *path)
{
	sm_put(&n->paths, path, NULL);
	return n->paths.keys[slot(&n->paths, path)];
}

static int func_cb(const struct kd_func *fn, void *ctx)
{
	struct dw_ctx *c = ctx;
	char key[1024];

	snprintf(key, sizeof(key), "%s:%d:%s", fn->file, fn->line, fn->name);
	if (!sm_put(&c->defs, key, NULL))
		return 0;
	c->inv->dwarf_funcs++;
	char *rel = inv_relpath(fn->file, NULL);
	const char *path = intern(c->inv->names, rel);
	const char *had = sm_get(&c->inv->names->byname, fn->name);
	if (!had)
		sm_set(&c->inv->names->byname, fn->name, path);
	else if (had != path)
		sm_set(&c->inv->names->byname, fn->name, AMBIGUOUS);
	struct inv_file *f = inv__file(c->inv, rel);
	if (f) {
		f->nfuncs++;
		f->func_lines += fn->line_end - fn->line + 1;
	}
	free(rel);
	return 0;
}

int inv__dwarf(struct inventory *inv, const char *vmlinux, bool add_files)
{
	char why[512];
	struct kd_file *f = kd_open(vmlinux, why, sizeof(why));
	struct dw_ctx c = {.inv = inv, .add_files = add_files};

	if (!f)
		return error("--vmlinux '%s': %s", vmlinux, why);
	if (kd_each_unit(f, unit_cb, &c) < 0) {
		error("--vmlinux '%s': %s", vmlinux, kd_error(f));
		kd_close(f);
		return -1;
	}
	if (add_files)
		inv__sort(inv);
	if (!inv->names)
		inv->names = xcalloc(1, sizeof(*inv->names));
	int r = kd_each_func(f, func_cb, &c);
	if (r < 0)
		error("--vmlinux '%s': %s", vmlinux, kd_error(f));
	sm_release(&c.defs);
	kd_close(f);
	if (!r && !inv->dwarf_units)
		return error("--vmlinux '%s': no compilation units in its DWARF", vmlinux);
	return r < 0 ? -1 : 0;
}

const char *inv__dwarf_func_file(const struct inventory *inv, const char *name)
{
	const char *p = inv->names ? sm_get(&inv->names->byname, name) : NULL;

	return p && p != AMBIGUOUS ? p : NULL;
}

void inv__dwarf_free(struct inventory *inv)
{
	if (!inv->names)
		return;
	sm_release(&inv->names->byname);
	sm_release(&inv->names->paths);
	free(inv->names);
	inv->names = NULL;
}
