// SPDX-License-Identifier: GPL-2.0
/* The options a mapping needs, as data (see kneeds.h). */
#include "kmap/kneeds.h"

#include <stdlib.h>
#include <string.h>

#include "abi/abi.h"
#include "kmap/kmap.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *own(struct kneeds *k, char *s)
{
	k->own = xrealloc(k->own, (k->nown + 1) * sizeof(*k->own));
	k->own[k->nown++] = s;
	return s;
}

static void facts(struct kneeds *k, struct kneed *n, const struct kt_option *e);

static void from_option(struct kneeds *k, struct kneed *n, const struct kmap_opt *o)
{
	const struct kt_option *e = o->db->opt;

	n->name = o->name;
	n->running = o->running;
	n->needed_by = o->needed_by;
	n->nneeded = o->nneeded;
	n->probed_by = o->probed_by;
	n->nprobed = o->nprobed;
	n->off_for = o->off_for;
	n->noff = o->noff;
	n->want = o->nneeded ? KNEED_Y : o->noff ? KNEED_N : KNEED_NONE;
	n->lacking = o->nneeded && o->running && !strcmp(o->running, "n");
	facts(k, n, e);
}

static void facts(struct kneeds *k, struct kneed *n, const struct kt_option *e)
{
	if (!e)
		return;
	n->kc.entry = true;
	n->kc.where = e->file ? own(k, xasprintf("%s:%d", e->file, e->line)) : NULL;
	n->kc.prompt = e->prompt;
	n->kc.depends = e->depends;
	n->kc.defaults = e->defaults;
	n->kc.selected_by = (const char *const *)e->selected_by;
	n->kc.nselected_by = e->nselected_by;
}

static size_t need_index(struct kneeds *k, const char *name, size_t *cap)
{
	for (size_t i = 0; i < k->n; i++)
		if (!strcmp(k->v[i].name, name))
			return i;
	XGROW(k->v, *cap, k->n + 1);
	k->v[k->n] = (struct kneed){.name = name};
	return k->n++;
}

/* The kernel functions' options (the files' chains, resolved by the function map), in its roll-up's order. */
static void from_functions(struct kneeds *k, const struct kfmap *kf, size_t *cap)
{
	k->funcs = xcalloc(kf->nopts + 1, sizeof(*k->funcs));
	for (size_t i = 0; i < kf->nopts; i++) {
		const struct kfm_count *c = &kf->opts[i];
		bool off = c->key[0] == '!';
		size_t n = need_index(k, off ? c->key + 1 : c->key, cap);
		struct kneed *e = &k->v[n];
		struct kneed_func *f = &k->funcs[k->nfuncs++];
		struct kfdb_opt o = kfdb_option(kf->db, c->key);

		*f = (struct kneed_func){.need = n, .off = off, .funcs = c->funcs, .hits = c->hits};
		f->kc.entry = o.where != NULL;
		f->kc.where = o.where ? own(k, xstrdup(o.where)) : NULL;
		f->kc.prompt = o.prompt;
		f->kc.depends = o.depends;
		if (off) {
			e->nfuncs_off += c->funcs;
			if (e->want == KNEED_NONE)
				e->want = KNEED_N;
		} else {
			e->nfuncs += c->funcs;
			if (e->want != KNEED_Y)
				e->want = KNEED_Y;
		}
	}
}

/* The Kconfig entry of an option brought in: the tree's, else the database's (it has those of its chains only). */
static void from_db(struct kneeds *k, struct kneed *n, const struct mapdb *db)
{
	const struct mapdb_opt *o = mapdb_option(db, n->name);

	facts(k, n, db->idx ? kt_index_option(db->idx, n->name) : o ? o->opt : NULL);
}

static bool word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (!strncmp(p, word, n) && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

static bool wanted(const struct mapdb *db, const struct kneed *n)
{
	/* a kernel function's option has its facts in the function database: the Kconfig's are what counts here */
	return n->want == KNEED_Y && !n->lacking && mapdb_kconfig_known(db, n->name);
}

/*
 * The closure of what is wanted on: the ABI's options first (the arch's allnoconfig may answer another word
 * size), then the entries in order. Each need becomes an entry's closure fields; one brought in that no item
 * named is a new entry, its via set once the array stops moving.
 */
static void close_over(struct kneeds *k, const struct fp_kernel_map *m, size_t *cap)
{
	const char *on = kf_abi_get(m->abi)->tree_on;
	struct kt_want *w = xcalloc(k->n + 16, sizeof(*w));
	size_t nw = 0, wcap = k->n + 16;
	struct strbuf abi = STRBUF_INIT;

	for (const char *p = on; p && *p; p += strspn(p, " ")) {
		size_t len = strcspn(p, " ");
		char *name = xstrndup(p, len);

		p += len;
		if (!mapdb_kconfig_known(m->db, name)) {
			free(name);
			continue;
		}
		XGROW(w, wcap, nw + 1);
		w[nw++] = (struct kt_want){own(k, name), 'y'};
		strbuf_addf(&abi, " %s", name);
	}
	for (size_t i = 0; i < k->n; i++) {
		if (!wanted(m->db, &k->v[i]))
			continue;
		XGROW(w, wcap, nw + 1);
		w[nw++] = (struct kt_want){k->v[i].name, 'y'};
	}
	k->kc = xcalloc(1, sizeof(*k->kc));
	int rc = mapdb_closure(m->db, w, nw, k->kc);
	free(w);
	if (rc == -2) {
		k->no_closure = "the database was saved without Kconfig facts (regenerate it with --save-db)";
		strbuf_release(&abi);
		return;
	}
	k->closure = m->db->idx ? "the source tree's Kconfig" : "the database's Kconfig facts";
	for (size_t i = 0; i < k->kc->nneeds; i++) {
		const struct kt_need *c = &k->kc->needs[i];
		size_t at = need_index(k, c->option, cap);
		struct kneed *e = &k->v[at];
		bool asked = c->how == KT_NEED_ROOT;

		e->closed = true;
		e->value = c->value;
		e->final = c->final;
		e->hidden = c->hidden;
		e->how = kt_need_how_name(c->how);
		e->because = c->because;
		e->expr = c->expr;
		e->abi = asked && word_in(abi.buf, c->option) && !e->nneeded;
		if (!asked && !e->nneeded) {
			k->nbrought++;
			if (!e->kc.entry)
				from_db(k, e, m->db);
		}
	}
	for (size_t i = 0; i < k->kc->nunmet; i++) {
		struct kneed *e = (struct kneed *)kneeds_find(k, k->kc->unmet[i].option);

		if (e && !e->unmet)
			e->unmet = k->kc->unmet[i].why;
	}
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].because)
			k->v[i].via = kneeds_find(k, k->v[i].because);
	strbuf_release(&abi);
}

struct kneeds *kneeds_build(const struct fp_kernel_map *m)
{
	struct kneeds *k = xcalloc(1, sizeof(*k));
	size_t cap = m->nopts, ccap = 0;
	char buf[1024];

	k->v = xcalloc(cap + 1, sizeof(*k->v));
	for (size_t i = 0; i < m->nopts; i++)
		from_option(k, &k->v[k->n++], &m->opts[i]);
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kmap_row *r = &m->rows[i];

		for (size_t c = 0; r->ks && r->required && c < r->ks->nconds; c++) {
			const struct kt_cond *e = &r->ks->conds[c];

			if (e->option || e->kind == KT_COND_ARCH_WANT)
				continue;
			XGROW(k->conds, ccap, k->nconds + 1);
			k->conds[k->nconds++] = (struct kneed_cond){r->name, e->expr, e->where};
		}
	}
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kmap_row *r = &m->rows[i];

		if (!r->probe && !r->newer)
			continue;
		k->notes = xrealloc(k->notes, (k->nnotes + 1) * sizeof(*k->notes));
		k->notes[k->nnotes++] = (struct kneed_note){r->name, xstrdup(kmap_row_note(m, r, buf, sizeof(buf)))};
	}
	if (m->kf)
		from_functions(k, m->kf, &cap);
	close_over(k, m, &cap);
	return k;
}

void kneeds_free(struct kneeds *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < k->nnotes; i++)
		free(k->notes[i].why);
	for (size_t i = 0; i < k->nown; i++)
		free(k->own[i]);
	free(k->own);
	free(k->notes);
	free(k->conds);
	free(k->funcs);
	free(k->v);
	if (k->kc)
		kt_closure_release(k->kc);
	free(k->kc);
	free(k);
}

const struct kneed *kneeds_find(const struct kneeds *k, const char *name)
{
	for (size_t i = 0; k && i < k->n; i++)
		if (!strcmp(k->v[i].name, name))
			return &k->v[i];
	return NULL;
}
