// SPDX-License-Identifier: GPL-2.0
// The Kconfig facts the closure reads, apart from a tree: what a map database carries so that the closure of its
// options runs with no tree at hand, on the same solver (kt_closure.c) as with one. The closure of an option looks
// at every symbol of its `depends on`, its prompt's `if`, its defaults, its selectors (and their `if`), and its
// choice with that choice's members: what is reachable so from the roots is all it can read, so a set holding
// exactly those gives it the values the whole tree would.
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_closure_int.h"
#include "abi/abi.h"
#include "util/xalloc.h"

struct kt_kfacts {
	struct kt_kconfig kc;
	char *arch;
	struct kt_strv names; /* in the order added, for kt_kfacts_each() */
};

static char prompt_mark[] = "(visible)";

struct kt_kfacts *kt_kfacts_new(const char *arch)
{
	struct kt_kfacts *f = xcalloc(1, sizeof(*f));
	f->arch = xstrdup(arch);
	return f;
}

static void push_all(struct kt_strv *sv, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		kt_strv_push(sv, v[i]);
}

void kt_kfacts_add(struct kt_kfacts *f, const struct kt_kfact *k)
{
	if (!k->name || kt_map_get(&f->kc.raw, k->name))
		return;
	struct kt_option_raw *r = xcalloc(1, sizeof(*r));
	push_all(&r->defaults, k->defaults, k->ndefaults);
	push_all(&r->members, k->members, k->nmembers);
	r->choice = k->choice ? xstrdup(k->choice) : NULL;
	kt_map_put(&f->kc.raw, k->name, r);
	kt_strv_push(&f->names, k->name);
	if (!strncmp(k->name, KT_CHOICE_PREFIX, strlen(KT_CHOICE_PREFIX)))
		return; /* a choice is a raw entry only, as the parser keeps it */
	struct kt_option *o = xcalloc(1, sizeof(*o));
	o->name = xstrdup(k->name);
	o->type = k->type ? xstrdup(k->type) : NULL;
	/* the solver asks only whether there is a prompt; its text stays with the database's option records */
	o->prompt = k->prompt ? xstrdup(prompt_mark) : NULL;
	o->prompt_if = k->prompt_if ? xstrdup(k->prompt_if) : NULL;
	o->depends = k->depends ? xstrdup(k->depends) : NULL;
	kt_map_put(&f->kc.opts, k->name, o);
	if (k->nselected_by) {
		struct kt_strv *sv = xcalloc(1, sizeof(*sv));
		push_all(sv, k->selected_by, k->nselected_by);
		kt_map_put(&f->kc.rsel, k->name, sv);
	}
}

size_t kt_kfacts_count(const struct kt_kfacts *f)
{
	return f ? f->names.n : 0;
}

bool kt_kfacts_has(const struct kt_kfacts *f, const char *name)
{
	return f && kt_map_get(&f->kc.opts, name);
}

/* The fact of a name of kc: pointers into kc, valid while it lives. */
static struct kt_kfact fact_of(const struct kt_kconfig *kc, const char *name)
{
	const struct kt_option *o = kt_map_get(&kc->opts, name);
	const struct kt_option_raw *r = kt_map_get(&kc->raw, name);
	const struct kt_strv *sel = kt_map_get(&kc->rsel, name);
	struct kt_kfact k = {.name = name};

	if (o) {
		k.type = o->type;
		k.prompt = o->prompt;
		k.prompt_if = o->prompt_if;
		k.depends = o->depends;
	}
	if (r) {
		k.defaults = (const char *const *)r->defaults.v;
		k.ndefaults = r->defaults.n;
		k.members = (const char *const *)r->members.v;
		k.nmembers = r->members.n;
		k.choice = r->choice;
	}
	if (sel) {
		k.selected_by = (const char *const *)sel->v;
		k.nselected_by = sel->n;
	}
	return k;
}

void kt_kfacts_each(const struct kt_kfacts *f, void (*fn)(void *ctx, const struct kt_kfact *k), void *ctx)
{
	for (size_t i = 0; f && i < f->names.n; i++) {
		struct kt_kfact k = fact_of(&f->kc, f->names.v[i]);
		fn(ctx, &k);
	}
}

/* Every word of an expression that may be a symbol (outside quotes): those kc does not define are skipped. */
static void words(const char *text, struct kt_strv *todo)
{
	for (const char *p = text; p && *p;) {
		if (*p == '"') {
			const char *q = strchr(p + 1, '"');
			p = q ? q + 1 : p + strlen(p);
			continue;
		}
		size_t n = 0;
		while (isalnum((unsigned char)p[n]) || p[n] == '_')
			n++;
		if (!n) {
			p++;
			continue;
		}
		char *w = xstrndup(p, n);
		kt_strv_push(todo, w);
		free(w);
		p += n;
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct kt_kfacts *kt_kfacts_from_index(const struct kt_index *idx, const char *const *roots, size_t n)
{
	const struct kt_kconfig *kc = &idx->kc;
	struct kt_strv todo = {0};
	struct kt_map seen = {0};
	struct kt_strv found = {0};

	push_all(&todo, roots, n);
	words(kf_abi_get(idx->abi)->tree_on, &todo);
	for (size_t i = 0; i < todo.n; i++) {
		const char *name = todo.v[i];
		if (kt_map_get(&seen, name))
			continue;
		kt_map_put(&seen, name, (void *)1);
		const struct kt_option *o = kt_map_get(&kc->opts, name);
		const struct kt_option_raw *r = kt_map_get(&kc->raw, name);
		if (!o && !r)
			continue;
		kt_strv_push(&found, name);
		if (o) {
			words(o->depends, &todo);
			words(o->prompt_if, &todo);
		}
		for (size_t j = 0; r && j < r->defaults.n; j++)
			words(r->defaults.v[j], &todo);
		for (size_t j = 0; r && j < r->members.n; j++)
			kt_strv_push(&todo, r->members.v[j]);
		if (r && r->choice)
			kt_strv_push(&todo, r->choice);
		const struct kt_strv *sel = kt_map_get(&kc->rsel, name);
		for (size_t j = 0; sel && j < sel->n; j++)
			words(sel->v[j], &todo);
	}
	/* by name, so that a regenerated database diffs line by line */
	if (found.n)
		qsort(found.v, found.n, sizeof(*found.v), cmp_str);
	struct kt_kfacts *f = kt_kfacts_new(kf_abi_get(idx->abi)->tree_arch);
	for (size_t i = 0; i < found.n; i++) {
		struct kt_kfact k = fact_of(kc, found.v[i]);
		kt_kfacts_add(f, &k);
	}
	kt_strv_release(&todo);
	kt_strv_release(&found);
	kt_map_release(&seen, NULL);
	return f;
}

int kt_kfacts_closure(const struct kt_kfacts *f, const struct kt_want *want, size_t n, struct kt_closure *out)
{
	return kt_closure_solve(&f->kc, f->arch, NULL, want, n, out);
}

void kt_kfacts_free(struct kt_kfacts *f)
{
	if (!f)
		return;
	kt_kconfig_release(&f->kc);
	kt_strv_release(&f->names);
	free(f->arch);
	free(f);
}
