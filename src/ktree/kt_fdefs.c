// SPDX-License-Identifier: GPL-2.0
// Function definitions of a whole kernel tree (kfdefs.h): a line scanner over every .c, .h and .S file that can
// be built for the architecture, fast enough for the whole 6.1 tree (docs/ktree.md has the figures), cached.
// This file walks the tree, sorts what was found into the index and answers the API; the scanner is
// kt_fdefs_scan.c, the cache kt_fdefs_cache.c (their interface: kt_fdefs_internal.h).
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ktree/kt_fdefs_internal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* The macros a definition may come from, by index (VIA_*, kt_fdefs_internal.h). */
static const char *const vias[KT_FDEFS_NVIAS] = {
    NULL,
    "SYSCALL_DEFINE",
    "COMPAT_SYSCALL_DEFINE",
    "BPF_CALL",
    "DEFINE_SHOW_ATTRIBUTE",
    "DEFINE_SEQ_ATTRIBUTE",
    "DEFINE_SIMPLE_ATTRIBUTE",
    "DEFINE_DEBUGFS_ATTRIBUTE",
    "SYM_FUNC_START",
    "DEFINE_PROC_SHOW_ATTRIBUTE",
    "DEFINE_IDTENTRY",
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *kt_fdefs_base(const char *name, char *buf, size_t len)
{
	const char *dot = strchr(name, '.');

	if (!dot || dot == name)
		return name;
	snprintf(buf, len, "%.*s", (int)(dot - name), name);
	return buf;
}

static void scan_file(struct kt_fdefs *d, const char *rel)
{
	char *path = kt_path(d->srcdir, rel);
	size_t len;
	char *text = kt_read_file(path, &len);

	free(path);
	kt_strv_push(&d->seen, rel);
	if (!text)
		return; /* unreadable: its functions stay unknown */
	kt_fdefs_scan(d, rel, text, len);
	free(text);
}

/* Top-level directories that hold no kernel code, and the other architectures. */
static bool skipped(const struct kt_fdefs *d, const char *rel)
{
	static const char *const top[] = {"Documentation", "tools", "samples", "scripts", "usr", "LICENSES", ".git"};

	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (!strcmp(rel, top[i]))
			return true;
	if (!strncmp(rel, "arch/", 5) && !strchr(rel + 5, '/'))
		return strcmp(rel + 5, d->arch) != 0;
	/* the amdgpu register headers: 373 MB of #defines (a third of the bytes), not one function */
	if (strlen(rel) > 9 && !strcmp(rel + strlen(rel) - 9, "/asic_reg"))
		return true;
	return !strcmp(rel, "arch/x86/um"); /* user-mode Linux's, not the architecture's */
}

/* what the scanner reads, in every directory but those skipped */
static bool fdefs_wants(const char *rel, const char *name, bool is_dir, const void *d)
{
	return is_dir ? !skipped(d, rel) : kt_fdefs_wanted(rel);
}

static void walk(struct kt_fdefs *d, const char *rel, int depth)
{
	struct kt_strv subdirs = {0}, files = {0};

	if (depth > 32)
		return;
	kt_strv_push(&d->seen, *rel ? rel : ".");
	if (!kt_list_dir(d->srcdir, rel, fdefs_wants, d, &subdirs, &files))
		return;
	for (size_t i = 0; i < files.n; i++)
		scan_file(d, files.v[i]);
	for (size_t i = 0; i < subdirs.n; i++)
		walk(d, subdirs.v[i], depth + 1);
	kt_strv_release(&files);
	kt_strv_release(&subdirs);
}

static const char *sort_pool;

static int raw_cmp(const void *a, const void *b)
{
	const struct kt_fdef_raw *x = a, *y = b;
	int c = strcmp(sort_pool + x->name, sort_pool + y->name);

	if (c)
		return c;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

struct top {
	const char *name;
	uintptr_t n;
};

static int top_cmp(const void *a, const void *b)
{
	const struct top *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sorts the raw definitions, keeps one per (name, file), and counts names and ambiguous names. */
static void finish(struct kt_fdefs *d)
{
	sort_pool = d->pool.buf;
	qsort(d->raw, d->nraw, sizeof(*d->raw), raw_cmp);
	d->defs = xcalloc(d->nraw ? d->nraw : 1, sizeof(*d->defs));
	d->ndefs = 0;
	d->st.names = d->st.ambiguous = 0;
	for (size_t i = 0; i < d->nraw; i++) {
		const struct kt_fdef_raw *r = &d->raw[i];
		const char *name = d->pool.buf + r->name;
		bool same_name = d->ndefs && !strcmp(d->defs[d->ndefs - 1].name, name);

		if (same_name && d->defs[d->ndefs - 1].file == d->files.v[r->file])
			continue;
		if (!same_name)
			d->st.names++;
		else if (d->ndefs < 2 || strcmp(d->defs[d->ndefs - 2].name, name))
			d->st.ambiguous++; /* the second file of this name */
		d->defs[d->ndefs++] =
		    (struct kt_fdef){name, d->files.v[r->file], r->line, r->via < KT_FDEFS_NVIAS ? vias[r->via] : NULL};
	}
	d->st.defs = d->nraw;

	struct top *t = xcalloc(d->unparsed.len + 1, sizeof(*t));
	size_t nt = 0;
	for (size_t i = 0; i < d->unparsed.cap; i++)
		if (d->unparsed.keys[i])
			t[nt++] = (struct top){d->unparsed.keys[i], (uintptr_t)d->unparsed.vals[i]};
	qsort(t, nt, sizeof(*t), top_cmp);
	size_t len = 0;
	d->st.unparsed_top[0] = '\0';
	for (size_t i = 0; i < nt && i < 5 && len < sizeof(d->st.unparsed_top); i++)
		len += (size_t)snprintf(d->st.unparsed_top + len, sizeof(d->st.unparsed_top) - len, "%s%s %lu",
					i ? ", " : "", t[i].name, (unsigned long)t[i].n);
	free(t);
}

/* ---- API ---- */

struct kt_fdefs *kt_fdefs_build(const char *srcdir, const char *arch, unsigned flags, char **err)
{
	char real[PATH_MAX];
	double t0 = now();

	*err = NULL;
	if (!realpath(srcdir, real)) {
		*err = xasprintf("cannot open kernel tree '%s': %s", srcdir, strerror(errno));
		return NULL;
	}
	char *k = kt_path(real, "kernel"), *a = xasprintf("%s/arch/%s", real, arch);
	bool ok = kt_is_dir(k) && kt_is_dir(a);
	free(k);
	free(a);
	if (!ok) {
		*err = xasprintf("'%s' is not a kernel source tree: no kernel/ or arch/%s/", srcdir, arch);
		return NULL;
	}
	struct kt_fdefs *d = xcalloc(1, sizeof(*d));
	d->srcdir = xstrdup(real);
	d->arch = xstrdup(arch);
	strbuf_init(&d->pool);
	char *cache = flags & KT_FDEFS_NO_CACHE ? NULL : kt_fdefs_cache_file(d->srcdir, arch);
	if (cache && kt_fdefs_cache_load(d, cache) == 0) {
		d->st.from_cache = true;
		char top[sizeof(d->st.unparsed_top)];
		memcpy(top, d->st.unparsed_top, sizeof(top));
		finish(d);
		memcpy(d->st.unparsed_top, top, sizeof(top));
	} else {
		walk(d, "", 0);
		finish(d);
		if (cache)
			kt_fdefs_cache_save(d, cache);
	}
	free(cache);
	kt_strv_release(&d->seen);
	d->st.seconds = now() - t0;
	return d;
}

struct kt_fdefs *kt_fdefs_from_texts(const char *const *paths, const char *const *texts, size_t n)
{
	struct kt_fdefs *d = xcalloc(1, sizeof(*d));

	d->srcdir = xstrdup("");
	d->arch = xstrdup("");
	strbuf_init(&d->pool);
	for (size_t i = 0; i < n; i++) {
		kt_fdefs_scan(d, paths[i], texts[i], strlen(texts[i]));
	}
	finish(d);
	return d;
}

void kt_fdefs_free(struct kt_fdefs *d)
{
	if (!d)
		return;
	free(d->srcdir);
	free(d->arch);
	kt_strv_release(&d->files);
	strbuf_release(&d->pool);
	free(d->raw);
	free(d->defs);
	kt_map_release(&d->unparsed, NULL);
	kt_strv_release(&d->seen);
	free(d);
}

void kt_fdefs_stats(const struct kt_fdefs *d, struct kt_fdefs_stats *st)
{
	*st = d->st;
}

size_t kt_fdefs_find(const struct kt_fdefs *d, const char *name, const struct kt_fdef **out)
{
	size_t lo = 0, hi = d->ndefs, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(d->defs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + n < d->ndefs && !strcmp(d->defs[lo + n].name, name))
		n++;
	*out = n ? &d->defs[lo] : NULL;
	return n;
}

size_t kt_fdefs_count(const struct kt_fdefs *d)
{
	return d->ndefs;
}

const struct kt_fdef *kt_fdefs_at(const struct kt_fdefs *d, size_t i)
{
	return i < d->ndefs ? &d->defs[i] : NULL;
}
