// SPDX-License-Identifier: GPL-2.0
// The index cache: the scan results and the Kconfig entries of one tree, with the mtime and size of every file
// read and directory listed. A cache whose files all still match is as good as a fresh read; anything else
// (another version, a changed file, a truncated or corrupt cache) means a rebuild, never an error.
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktree/kt_internal.h"
#include "util/fnv.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Bump the number when what the scanner or the Kconfig reader records changes: old caches are then rebuilt. */
#define MAGIC "kfootprint ktree cache 9\n"

/* FNV-1a of s and then of a 0xff byte, which no path holds: ("ab", "c") and ("a", "bc") differ. */
static uint64_t fnv(const char *s, uint64_t h)
{
	return fnv1a64("\xff", fnv1a64(s, h));
}

char *kt_cache_file(const char *srcdir, const char *arch)
{
	char *dir = kt_cache_dir();

	if (!dir)
		return NULL;
	uint64_t h = fnv(arch, fnv(srcdir, FNV1A64_INIT));
	char *f = xasprintf("%s/ktree-%016llx.cache", dir, (unsigned long long)h);
	free(dir);
	return f;
}

/* ---- writing ---- */

static void put_strv(struct strbuf *sb, const struct kt_strv *sv)
{
	kt_put_u64(sb, sv ? sv->n : 0);
	for (size_t i = 0; sv && i < sv->n; i++)
		kt_put_str(sb, sv->v[i]);
}

static void put_conds(struct strbuf *sb, const struct kt_condv *cv)
{
	kt_put_u64(sb, cv->n);
	for (size_t i = 0; i < cv->n; i++) {
		const struct kt_cond *c = &cv->v[i];
		kt_put_u64(sb, (uint64_t)c->kind | (uint64_t)c->negated << 8 | (uint64_t)c->holds << 9);
		kt_put_str(sb, c->option);
		kt_put_str(sb, c->expr);
		kt_put_str(sb, c->where);
		kt_put_u64(sb, c->nsymbols);
		for (size_t j = 0; j < c->nsymbols; j++)
			kt_put_str(sb, c->symbols[j]);
	}
}

static void put_rev(struct strbuf *sb, const struct kt_map *m)
{
	kt_put_u64(sb, m->len);
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		kt_put_str(sb, m->keys[i]);
		put_strv(sb, m->vals[i]);
	}
}

int kt_cache_save(const char *file, const char *srcdir, const char *arch, const struct kt_scan *sc,
		  const struct kt_kconfig *kc, char **err)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, MAGIC);
	kt_put_str(&sb, srcdir);
	kt_put_str(&sb, arch);
	kt_put_u64(&sb, sc->seen.n + kc->seen.n);
	for (size_t i = 0; i < sc->seen.n; i++)
		kt_put_stat(&sb, srcdir, sc->seen.v[i]);
	for (size_t i = 0; i < kc->seen.n; i++)
		kt_put_stat(&sb, srcdir, kc->seen.v[i]);

	kt_put_u64(&sb, sc->ndefs);
	for (size_t i = 0; i < sc->ndefs; i++) {
		const struct kt_def *d = &sc->defs[i];
		kt_put_str(&sb, d->name);
		kt_put_str(&sb, d->macro);
		kt_put_u64(&sb, d->compat);
		kt_put_str(&sb, d->file);
		kt_put_u64(&sb, (uint64_t)d->line);
		put_conds(&sb, &d->conds);
		kt_put_str(&sb, d->calls_ksys);
	}
	kt_put_u64(&sb, sc->nincs);
	for (size_t i = 0; i < sc->nincs; i++) {
		kt_put_str(&sb, sc->incs[i].file);
		kt_put_str(&sb, sc->incs[i].by);
		kt_put_u64(&sb, (uint64_t)sc->incs[i].line);
		put_conds(&sb, &sc->incs[i].conds);
	}
	put_strv(&sb, &sc->cond_syscalls);
	put_strv(&sb, &sc->arch_want);
	for (size_t i = 0; i < sc->arch_want.n; i++)
		put_conds(&sb, &sc->arch_want_conds[i]);
	kt_put_u64(&sb, sc->files_read);
	kt_put_u64(&sb, sc->bytes_read);

	kt_put_u64(&sb, kc->opts.len);
	for (size_t i = 0; i < kc->opts.cap; i++) {
		const struct kt_option *o = kc->opts.vals[i];
		if (!kc->opts.keys[i])
			continue;
		kt_put_str(&sb, o->name);
		kt_put_str(&sb, o->file);
		kt_put_u64(&sb, (uint64_t)o->line);
		kt_put_str(&sb, o->type);
		kt_put_str(&sb, o->prompt);
		kt_put_str(&sb, o->prompt_if);
		kt_put_str(&sb, o->depends);
		kt_put_str(&sb, o->defaults);
		kt_put_str(&sb, o->help);
		kt_put_u64(&sb, (uint64_t)o->ndefinitions);
		const struct kt_option_raw *r = kt_option_raw(kc, o->name);
		put_strv(&sb, r ? &r->selects : NULL);
		put_strv(&sb, r ? &r->implies : NULL);
		put_strv(&sb, r ? &r->defaults : NULL);
		kt_put_str(&sb, r ? r->choice : NULL);
	}
	/* the choices' own entries (not options) */
	size_t nch = 0;
	for (size_t i = 0; i < kc->raw.cap; i++)
		nch += kc->raw.keys[i] && !strncmp(kc->raw.keys[i], KT_CHOICE_PREFIX, strlen(KT_CHOICE_PREFIX));
	kt_put_u64(&sb, nch);
	for (size_t i = 0; i < kc->raw.cap; i++) {
		if (!kc->raw.keys[i] || strncmp(kc->raw.keys[i], KT_CHOICE_PREFIX, strlen(KT_CHOICE_PREFIX)))
			continue;
		const struct kt_option_raw *r = kc->raw.vals[i];
		kt_put_str(&sb, kc->raw.keys[i]);
		put_strv(&sb, &r->defaults);
		put_strv(&sb, &r->members);
	}
	put_rev(&sb, &kc->rsel);
	put_rev(&sb, &kc->rimp);
	kt_put_u64(&sb, kc->nentries);
	kt_put_u64(&sb, kc->nfiles);
	strbuf_addstr(&sb, "end\n");

	int rc = kt_cache_write(file, &sb, err);
	strbuf_release(&sb);
	return rc;
}

/* ---- reading ---- */

/* A count that must fit the remaining bytes (each element takes at least 8). */
static size_t get_count(struct kt_rd *r)
{
	uint64_t n = kt_get_u64(r);

	if (n > (uint64_t)(r->end - r->p) / 8) {
		r->bad = true;
		return 0;
	}
	return (size_t)n;
}

static void get_strv(struct kt_rd *r, struct kt_strv *sv)
{
	size_t n = get_count(r);

	for (size_t i = 0; i < n && !r->bad; i++) {
		char *s = kt_get_str(r);
		kt_strv_push(sv, s ? s : "");
		free(s);
	}
}

static void get_conds(struct kt_rd *r, struct kt_condv *cv)
{
	size_t n = get_count(r);

	for (size_t i = 0; i < n && !r->bad; i++) {
		struct kt_cond c = {0};
		uint64_t f = kt_get_u64(r);
		c.kind = (enum kt_cond_kind)(f & 0xff);
		c.negated = (f >> 8) & 1;
		c.holds = (f >> 9) & 1;
		c.option = kt_get_str(r);
		c.expr = kt_get_str(r);
		c.where = kt_get_str(r);
		c.nsymbols = get_count(r);
		c.symbols = c.nsymbols ? xcalloc(c.nsymbols, sizeof(char *)) : NULL;
		for (size_t j = 0; j < c.nsymbols; j++) {
			c.symbols[j] = kt_get_str(r);
			if (!c.symbols[j])
				c.symbols[j] = xstrdup("");
		}
		if (c.kind > KT_COND_ARCH_WANT)
			r->bad = true;
		XGROW(cv->v, cv->cap, cv->n + 1);
		cv->v[cv->n++] = c; /* owned by cv now */
	}
}

static void get_rev(struct kt_rd *r, struct kt_map *m)
{
	size_t n = get_count(r);

	for (size_t i = 0; i < n && !r->bad; i++) {
		char *k = kt_get_str(r);
		struct kt_strv *sv = xcalloc(1, sizeof(*sv));
		get_strv(r, sv);
		struct kt_strv *old = kt_map_put(m, k ? k : "", sv);
		if (old) {
			kt_strv_release(old);
			free(old);
		}
		free(k);
	}
}

int kt_cache_load(const char *file, const char *srcdir, const char *arch, struct kt_scan *sc, struct kt_kconfig *kc)
{
	size_t len;
	char *buf = kt_read_file(file, &len);

	if (!buf)
		return -1;
	struct kt_rd r = {.p = buf, .end = buf + len};
	size_t ml = strlen(MAGIC);
	if (len < ml || memcmp(buf, MAGIC, ml) != 0) {
		free(buf);
		return -1;
	}
	r.p += ml;
	char *s1 = kt_get_str(&r), *s2 = kt_get_str(&r);
	bool same = s1 && s2 && !strcmp(s1, srcdir) && !strcmp(s2, arch);
	free(s1);
	free(s2);
	if (!same) {
		free(buf);
		return -1;
	}
	size_t nseen = get_count(&r);
	for (size_t i = 0; i < nseen; i++) {
		if (!kt_get_stat(&r, srcdir)) {
			free(buf);
			return -1; /* the tree changed */
		}
	}

	size_t n = get_count(&r);
	for (size_t i = 0; i < n && !r.bad; i++) {
		XGROW(sc->defs, sc->capdefs, sc->ndefs + 1);
		struct kt_def *d = &sc->defs[sc->ndefs++];
		memset(d, 0, sizeof(*d));
		d->name = kt_get_str(&r);
		d->macro = kt_get_str(&r);
		d->compat = kt_get_u64(&r) != 0;
		d->file = kt_get_str(&r);
		d->line = (int)kt_get_u64(&r);
		get_conds(&r, &d->conds);
		d->calls_ksys = kt_get_str(&r);
		if (!d->name || !d->macro || !d->file)
			r.bad = true;
	}
	n = get_count(&r);
	for (size_t i = 0; i < n && !r.bad; i++) {
		XGROW(sc->incs, sc->capincs, sc->nincs + 1);
		struct kt_inc *inc = &sc->incs[sc->nincs++];
		memset(inc, 0, sizeof(*inc));
		inc->file = kt_get_str(&r);
		inc->by = kt_get_str(&r);
		inc->line = (int)kt_get_u64(&r);
		get_conds(&r, &inc->conds);
		if (!inc->file || !inc->by)
			r.bad = true;
	}
	get_strv(&r, &sc->cond_syscalls);
	get_strv(&r, &sc->arch_want);
	sc->arch_want_conds = xcalloc(sc->arch_want.n ? sc->arch_want.n : 1, sizeof(*sc->arch_want_conds));
	for (size_t i = 0; i < sc->arch_want.n && !r.bad; i++)
		get_conds(&r, &sc->arch_want_conds[i]);
	sc->files_read = (size_t)kt_get_u64(&r);
	sc->bytes_read = (size_t)kt_get_u64(&r);

	n = get_count(&r);
	for (size_t i = 0; i < n && !r.bad; i++) {
		struct kt_option *o = xcalloc(1, sizeof(*o));
		o->name = kt_get_str(&r);
		o->file = kt_get_str(&r);
		o->line = (int)kt_get_u64(&r);
		o->type = kt_get_str(&r);
		o->prompt = kt_get_str(&r);
		o->prompt_if = kt_get_str(&r);
		o->depends = kt_get_str(&r);
		o->defaults = kt_get_str(&r);
		o->help = kt_get_str(&r);
		o->ndefinitions = (int)kt_get_u64(&r);
		struct kt_option_raw *raw = xcalloc(1, sizeof(*raw));
		get_strv(&r, &raw->selects);
		get_strv(&r, &raw->implies);
		get_strv(&r, &raw->defaults);
		raw->choice = kt_get_str(&r);
		if (!o->name || !o->file) {
			r.bad = true;
			kt_option_free(o);
			kt_option_raw_free(raw);
			break;
		}
		kt_option_free(kt_map_put(&kc->opts, o->name, o));
		kt_option_raw_free(kt_map_put(&kc->raw, o->name, raw));
	}
	size_t nch = get_count(&r);
	for (size_t i = 0; i < nch && !r.bad; i++) {
		char *key = kt_get_str(&r);
		struct kt_option_raw *raw = xcalloc(1, sizeof(*raw));
		get_strv(&r, &raw->defaults);
		get_strv(&r, &raw->members);
		if (!key || strncmp(key, KT_CHOICE_PREFIX, strlen(KT_CHOICE_PREFIX))) {
			r.bad = true;
			kt_option_raw_free(raw);
		} else {
			kt_option_raw_free(kt_map_put(&kc->raw, key, raw));
		}
		free(key);
	}
	get_rev(&r, &kc->rsel);
	get_rev(&r, &kc->rimp);
	kc->nentries = (size_t)kt_get_u64(&r);
	kc->nfiles = (size_t)kt_get_u64(&r);
	if (r.bad || r.end - r.p != 4 || memcmp(r.p, "end\n", 4) != 0) {
		kt_scan_release(sc);
		kt_kconfig_release(kc);
		free(buf);
		return -1;
	}
	kt_kconfig_finish(kc);
	free(buf);
	return 0;
}
