// SPDX-License-Identifier: GPL-2.0
// The function definition index's cache (kt_fdefs_internal.h): the files, names and raw definitions of one tree
// and architecture, with the mtime and size of every file read and directory listed, in the encoding of the
// other binary cache (kt_internal.h). A cache whose files all still match is as good as a fresh scan; anything
// else means a scan, never an error.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_fdefs_internal.h"
#include "util/fnv.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Bump when what the scanner records changes: old caches are then rebuilt. */
#define MAGIC "kfootprint kfdefs cache 5\n"

char *kt_fdefs_cache_file(const char *srcdir, const char *arch)
{
	char *dir = kt_cache_dir(), *f;
	uint64_t h = fnv1a64(arch, fnv1a64(srcdir, FNV1A64_INIT));

	if (!dir)
		return NULL;
	f = xasprintf("%s/kfdefs-%016llx.cache", dir, (unsigned long long)h);
	free(dir);
	return f;
}

void kt_fdefs_cache_save(const struct kt_fdefs *d, const char *file)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, MAGIC);
	kt_put_str(&sb, d->srcdir);
	kt_put_str(&sb, d->arch);
	kt_put_u64(&sb, d->seen.n);
	for (size_t i = 0; i < d->seen.n; i++)
		kt_put_stat(&sb, d->srcdir, d->seen.v[i]);
	kt_put_u64(&sb, d->files.n);
	for (size_t i = 0; i < d->files.n; i++)
		kt_put_str(&sb, d->files.v[i]);
	kt_put_u64(&sb, d->pool.len);
	strbuf_add(&sb, d->pool.buf, d->pool.len);
	kt_put_u64(&sb, d->nraw);
	for (size_t i = 0; i < d->nraw; i++) {
		kt_put_u64(&sb, d->raw[i].name);
		kt_put_u64(&sb, (uint64_t)d->raw[i].file << 32 | (uint32_t)d->raw[i].line);
		kt_put_u64(&sb, d->raw[i].via);
	}
	kt_put_u64(&sb, d->st.files);
	kt_put_u64(&sb, d->st.bytes);
	kt_put_u64(&sb, d->st.by_macro);
	kt_put_u64(&sb, d->st.unparsed);
	kt_put_str(&sb, d->st.unparsed_top);
	strbuf_addstr(&sb, "end\n");

	/* a read-only or missing cache directory is no reason to fail: the next run scans again */
	char *err = NULL;
	kt_cache_write(file, &sb, &err);
	free(err);
	strbuf_release(&sb);
}

/* A string's bytes in place (not NUL-terminated): *n its length. */
static const char *get_bytes(struct kt_rd *r, size_t *n)
{
	uint64_t len = kt_get_u64(r);
	const char *s = r->p;

	if (r->bad || len > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		*n = 0;
		return "";
	}
	r->p += len;
	*n = (size_t)len;
	return s;
}

/* A string that must be there: this cache writes no NULL, so one means the file is not what it wrote. */
static char *get_str(struct kt_rd *r)
{
	char *s = kt_get_str(r);

	if (!s)
		r->bad = true;
	return s ? s : xstrdup("");
}

int kt_fdefs_cache_load(struct kt_fdefs *d, const char *file)
{
	size_t len, ml = strlen(MAGIC);
	char *buf = kt_read_file(file, &len);
	struct kt_rd r;
	int rc = -1;

	if (!buf)
		return -1;
	r = (struct kt_rd){buf, buf + len, false};
	if (len < ml || memcmp(buf, MAGIC, ml))
		goto out;
	r.p += ml;
	char *s1 = get_str(&r), *s2 = get_str(&r);
	bool same = !strcmp(s1, d->srcdir) && !strcmp(s2, d->arch);
	free(s1);
	free(s2);
	if (!same)
		goto out;
	uint64_t n = kt_get_u64(&r);
	if (n > len)
		goto out;
	for (uint64_t i = 0; i < n; i++)
		if (!kt_get_stat(&r, d->srcdir))
			goto out;
	n = kt_get_u64(&r);
	if (n > len)
		goto out;
	for (uint64_t i = 0; i < n && !r.bad; i++) {
		char *s = get_str(&r);
		kt_strv_push(&d->files, s);
		free(s);
	}
	size_t pn;
	const char *pool = get_bytes(&r, &pn);
	if (pn && pool[pn - 1] != '\0')
		r.bad = true;
	strbuf_add(&d->pool, pool, pn);
	n = kt_get_u64(&r);
	if (n > len / 24)
		goto out;
	d->raw = xcalloc(n ? n : 1, sizeof(*d->raw));
	d->capraw = n ? n : 1;
	for (uint64_t i = 0; i < n && !r.bad; i++) {
		struct kt_fdef_raw *w = &d->raw[d->nraw++];
		uint64_t nm = kt_get_u64(&r), fl = kt_get_u64(&r), via = kt_get_u64(&r);
		w->name = (uint32_t)nm;
		w->file = (uint32_t)(fl >> 32);
		w->line = (int32_t)(uint32_t)fl;
		w->via = (uint32_t)via;
		if (nm >= pn || w->file >= d->files.n || via >= KT_FDEFS_NVIAS)
			r.bad = true;
	}
	d->st.files = (size_t)kt_get_u64(&r);
	d->st.bytes = (size_t)kt_get_u64(&r);
	d->st.by_macro = (size_t)kt_get_u64(&r);
	d->st.unparsed = (size_t)kt_get_u64(&r);
	char *top = get_str(&r);
	snprintf(d->st.unparsed_top, sizeof(d->st.unparsed_top), "%s", top);
	free(top);
	if (r.bad || r.end - r.p != 4 || memcmp(r.p, "end\n", 4))
		goto out;
	rc = 0;
out:
	if (rc) {
		kt_strv_release(&d->files);
		strbuf_reset(&d->pool);
		free(d->raw);
		d->raw = NULL;
		d->nraw = d->capraw = 0;
	}
	free(buf);
	return rc;
}
