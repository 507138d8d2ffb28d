// SPDX-License-Identifier: GPL-2.0
// The chain of one syscall of the index: its definition among the tree's candidates, the file's way into vmlinux
// (Kbuild, or the .c file that #includes it), the options on that path, MAINTAINERS. Rules: docs/ktree.md.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* How a .c file gets into vmlinux (per file, shared by all its syscalls). */
struct chain {
	bool ok;
	struct kt_condv conds;
	char *object, *makefile, *included_by, *why;
	int line;
	int busy; /* guards against #include cycles */
};

/* ---- per-file chains ---- */

void kt_chain_free(void *p)
{
	struct chain *c = p;

	kt_condv_release(&c->conds);
	free(c->object);
	free(c->makefile);
	free(c->included_by);
	free(c->why);
	free(c);
}

static const struct chain *file_chain(struct kt_index *idx, const char *file)
{
	struct chain *c = kt_map_get(&idx->chains, file);

	if (c)
		return c->busy ? NULL : c;
	c = xcalloc(1, sizeof(*c));
	c->busy = 1;
	kt_map_put(&idx->chains, file, c);
	char *why = NULL;
	if (kt_kbuild_resolve(idx->kb, file, &c->conds, &c->object, &c->makefile, &c->line, &why) == 0) {
		c->ok = true;
	} else {
		kt_condv_release(&c->conds);
		/* not built by itself: maybe #included by another .c file (membarrier.c in build_utility.c) */
		for (size_t i = 0; i < idx->scan.nincs && !c->ok; i++) {
			const struct kt_inc *inc = &idx->scan.incs[i];
			if (strcmp(inc->file, file) != 0)
				continue;
			const struct chain *by = file_chain(idx, inc->by);
			if (!by || !by->ok)
				continue;
			for (size_t j = 0; j < inc->conds.n; j++) {
				kt_condv_push(&c->conds, &inc->conds.v[j]);
				c->conds.v[c->conds.n - 1].kind = KT_COND_INCLUDE;
			}
			for (size_t j = 0; j < by->conds.n; j++)
				kt_condv_push(&c->conds, &by->conds.v[j]);
			c->object = xstrdup(by->object);
			c->makefile = xstrdup(by->makefile);
			c->line = by->line;
			c->included_by = xstrdup(inc->by);
			c->ok = true;
		}
		if (c->ok)
			free(why);
		else
			c->why = why;
	}
	c->busy = 0;
	return c;
}

/* ---- syscalls ---- */

struct cand {
	const struct kt_def *def;
	struct kt_condv conds;
	const struct chain *ch;
	size_t failing;
};

static void cand_eval(struct kt_index *idx, struct cand *c)
{
	for (size_t i = 0; i < c->def->conds.n; i++)
		kt_condv_push(&c->conds, &c->def->conds.v[i]);
	c->ch = file_chain(idx, c->def->file);
	if (c->ch && c->ch->ok)
		for (size_t i = 0; i < c->ch->conds.n; i++)
			kt_condv_push(&c->conds, &c->ch->conds.v[i]);
	c->failing = 0;
	for (size_t i = 0; i < c->conds.n; i++) {
		c->conds.v[i].holds = kt_cond_eval(&c->conds.v[i], kt_index_lookup, idx);
		c->failing += !c->conds.v[i].holds;
	}
	if (!c->ch || !c->ch->ok)
		c->failing += 1000; /* a file we cannot place is the worst choice */
}

/* Candidates of a name; the chosen one is the first whose conditions all hold, else the closest. */
static size_t choose(struct kt_index *idx, const char *name, bool compat, bool func, struct cand **out)
{
	struct cand *c = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < idx->scan.ndefs; i++) {
		const struct kt_def *d = &idx->scan.defs[i];
		bool is_func = !strcmp(d->macro, "FUNC");
		if (strcmp(d->name, name) || is_func != func || (!func && d->compat != compat))
			continue;
		XGROW(c, cap, n + 1);
		memset(&c[n], 0, sizeof(c[n]));
		c[n].def = d;
		cand_eval(idx, &c[n]);
		n++;
	}
	/* stable: best first (fewest failing conditions, then scan order) */
	for (size_t i = 1; i < n; i++) {
		struct cand t = c[i];
		size_t j = i;
		while (j > 0 && c[j - 1].failing > t.failing) {
			c[j] = c[j - 1];
			j--;
		}
		c[j] = t;
	}
	*out = c;
	return n;
}

static void cands_free(struct cand *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		kt_condv_release(&c[i].conds);
	free(c);
}

static char *cond_text(const struct kt_cond *c)
{
	if (c->option && c->kind == KT_COND_ARCH_WANT)
		return xasprintf("%s is %sdefined for %s (%s)", c->option, c->negated ? "" : "not ", "the architecture",
				 c->where ? c->where : "?");
	if (c->option)
		return xasprintf("CONFIG_%s is %s (%s)", c->option, c->negated ? "on" : "off",
				 c->where ? c->where : "?");
	return xasprintf("%s%s is false (%s)", c->negated ? "!" : "", c->expr ? c->expr : "?",
			 c->where ? c->where : "?");
}

static void add_option(struct kt_strv *opts, const char *o)
{
	if (strncmp(o, "__ARCH_WANT_", 12) != 0 && !kt_strv_has(opts, o))
		kt_strv_push(opts, o);
}

static bool same_cond(const struct kt_cond *a, const struct kt_cond *b)
{
	if (a->option && b->option)
		return !strcmp(a->option, b->option) && a->negated == b->negated;
	return a->where && b->where && !strcmp(a->where, b->where) && a->expr && b->expr && !strcmp(a->expr, b->expr);
}

static void fill(struct kt_index *idx, struct kt_syscall *s, struct cand *c, size_t n, bool follow, const char *note);

void kt_resolve(struct kt_index *idx, struct kt_syscall *s, const struct kf_syscall *row)
{
	s->name = row->name;
	s->entry = row->entry;
	if (idx->tree_rows.n && !kt_strv_has(&idx->tree_rows, row->name)) {
		s->status = KT_NOT_IN_TREE;
		s->unresolved = xasprintf("not in the syscall table of this tree (newer than %s)", idx->version);
		return;
	}
	if (!row->entry) {
		s->status = KT_NO_ENTRY;
		s->unresolved = xstrdup("no entry point in the syscall table: the kernel has no code for it");
		return;
	}
	const char *row_entry = row->entry;
	if (!strcmp(row->entry, "sys_ni_syscall")) {
		s->status = KT_NI_SYSCALL;
		s->unresolved = xstrdup("the entry point is sys_ni_syscall (always ENOSYS)");
		return;
	}
	/* an i386 call on a 64-bit kernel (IA32_EMULATION) enters through the table's compat entry point */
	const char *ce = kt_map_get(&idx->compat_entry, row->name);
	if (ce && kt_index_value(idx, "X86_64")) {
		s->entry = ce;
		row_entry = ce;
	}
	bool compat = !strncmp(row_entry, "compat_sys_", 11);
	const char *name = compat ? row_entry + 11 : !strncmp(row_entry, "sys_", 4) ? row_entry + 4 : row_entry;
	struct cand *c;
	size_t n = choose(idx, name, compat, false, &c);

	s->def_name = xstrdup(name);
	s->optional = kt_strv_has(&idx->scan.cond_syscalls, compat ? row_entry + 4 : name);
	if (!n) {
		s->status = KT_NO_DEFINITION;
		s->unresolved = xstrdup("no SYSCALL_DEFINE in this tree");
		free(c);
		return;
	}
	fill(idx, s, c, n, true, NULL);
}

/*
 * The chain of the best of n candidates into s: its file, the file's way into vmlinux, the options, MAINTAINERS.
 * follow: a wrapper is followed to its ksys_*() helper (syscalls). note: a gap known beforehand, or NULL.
 */
static void fill(struct kt_index *idx, struct kt_syscall *s, struct cand *c, size_t n, bool follow, const char *note)
{
	struct cand *best = &c[0];
	const struct kt_def *d = best->def;
	s->status = best->failing ? KT_NOT_BUILT : KT_RESOLVED;
	s->macro = xstrdup(d->macro);
	s->file = xstrdup(d->file);
	s->line = d->line;
	for (size_t i = 1; i < n; i++) {
		s->alternatives = xrealloc(s->alternatives, (s->nalternatives + 1) * sizeof(char *));
		s->alternatives[s->nalternatives++] = xasprintf("%s:%d", c[i].def->file, c[i].def->line);
	}
	struct kt_condv conds = {0};
	for (size_t i = 0; i < best->conds.n; i++)
		kt_condv_push(&conds, &best->conds.v[i]);

	struct strbuf why = STRBUF_INIT;
	if (note)
		strbuf_addstr(&why, note);
	if (best->ch && best->ch->ok) {
		s->object = xstrdup(best->ch->object);
		s->makefile = xstrdup(best->ch->makefile);
		s->makefile_line = best->ch->line;
		s->included_by = best->ch->included_by ? xstrdup(best->ch->included_by) : NULL;
	} else {
		strbuf_addf(&why, "%s%s", why.len ? "; " : "",
			    best->ch && best->ch->why ? best->ch->why : "not reached by any Makefile");
	}

	/* a thin wrapper: follow it to the ksys_*() helper in another file (x86_64 mmap -> mm/mmap.c) */
	if (follow && d->calls_ksys) {
		struct cand *ic;
		size_t in = choose(idx, d->calls_ksys, false, true, &ic);
		if (in && strcmp(ic[0].def->file, d->file) != 0) {
			s->impl_name = xstrdup(d->calls_ksys);
			s->impl_file = xstrdup(ic[0].def->file);
			s->impl_line = ic[0].def->line;
			for (size_t i = 0; i < ic[0].conds.n; i++) {
				bool dup = false;
				for (size_t j = 0; j < conds.n && !dup; j++)
					dup = same_cond(&conds.v[j], &ic[0].conds.v[i]);
				if (!dup)
					kt_condv_push(&conds, &ic[0].conds.v[i]);
			}
			if (ic[0].failing && s->status == KT_RESOLVED)
				s->status = KT_NOT_BUILT;
		}
		cands_free(ic, in);
	}
	s->conds = conds.v;
	s->nconds = conds.n;

	struct kt_strv opts = {0};
	for (size_t i = 0; i < s->nconds; i++) {
		const struct kt_cond *k = &s->conds[i];
		if (k->option)
			add_option(&opts, k->option);
		else /* a compound #if may name other architectures' symbols (CONFIG_ALPHA): only this one's count */
			for (size_t j = 0; j < k->nsymbols; j++)
				if (kt_map_get(&idx->kc.opts, k->symbols[j]))
					add_option(&opts, k->symbols[j]);
		if (!k->holds && !s->not_built && s->status == KT_NOT_BUILT)
			s->not_built = cond_text(k);
	}
	if (s->status == KT_NOT_BUILT && !s->not_built)
		s->not_built = xstrdup(why.len ? why.buf : "no candidate definition is built");
	for (size_t i = 0; i < opts.n; i++) {
		if (!kt_map_get(&idx->kc.opts, opts.v[i])) {
			if (why.len)
				strbuf_addstr(&why, "; ");
			strbuf_addf(&why, "CONFIG_%s has no Kconfig entry", opts.v[i]);
		}
	}
	s->options = opts.v;
	s->noptions = opts.n;

	s->nsections = kt_maint_match(idx->maint, s->file, &s->sections);
	if (!s->nsections) {
		if (why.len)
			strbuf_addstr(&why, "; ");
		strbuf_addstr(&why, idx->have_maint ? "no MAINTAINERS section" : "no MAINTAINERS file");
	}
	s->complete = why.len == 0;
	s->unresolved = why.len ? strbuf_detach(&why) : NULL;
	strbuf_release(&why);
	cands_free(c, n);
}

/* ---- what refinements reach ---- */

static int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void kt_resolve_reach(struct kt_index *idx)
{
	kt_reach_prepare(idx);
	for (size_t i = 0; i < idx->scan.ndefs; i++) {
		const struct kt_def *d = &idx->scan.defs[i];
		if (kt_reach_target(d) && !kt_map_get(&idx->reach_byname, d->name)) {
			kt_strv_push(&idx->reach_keys, d->name);
			kt_map_put(&idx->reach_byname, d->name, (void *)1);
		}
	}
	if (idx->reach_keys.n > 1)
		qsort(idx->reach_keys.v, idx->reach_keys.n, sizeof(char *), strcmp_ptr);
	idx->reach = xcalloc(idx->reach_keys.n + 1, sizeof(*idx->reach));
	for (size_t i = 0; i < idx->reach_keys.n; i++) {
		struct kt_syscall *s = &idx->reach[idx->nreach++];
		struct cand *c;
		size_t n = choose(idx, idx->reach_keys.v[i], false, false, &c);
		const struct kt_def *d = c[0].def;
		char *note = NULL;

		kt_map_put(&idx->reach_byname, idx->reach_keys.v[i], (void *)(i + 1));
		s->name = idx->reach_keys.v[i];
		s->def_name = d->calls_ksys ? xstrdup(d->calls_ksys) : NULL;
		if (!d->line && d->calls_ksys) /* a row of the reviewed table whose function the file lacks */
			note = xasprintf("no definition of %s() in %s", d->calls_ksys, d->file);
		fill(idx, s, c, n, false, note);
		free(note);
	}
}

/* ---- any file (kernel functions) ---- */

int kt_index_file_chain(struct kt_index *idx, const char *file, struct kt_file_chain *out)
{
	const struct chain *c;
	struct kt_strv opts = {0};

	memset(out, 0, sizeof(*out));
	/* a header is built into whatever includes it: its functions have no object of their own */
	if (strlen(file) > 2 && !strcmp(file + strlen(file) - 2, ".h")) {
		out->why = xstrdup("a header: built into the files that include it");
		out->built = true;
		goto sections;
	}
	c = file_chain(idx, file);
	if (!c || !c->ok) {
		out->why = xstrdup(c && c->why ? c->why : "no Makefile line builds it");
		goto sections;
	}
	out->object = c->object ? xstrdup(c->object) : NULL;
	out->makefile = c->makefile ? xstrdup(c->makefile) : NULL;
	out->line = c->line;
	out->included_by = c->included_by ? xstrdup(c->included_by) : NULL;
	out->built = true;
	for (size_t i = 0; i < c->conds.n; i++) {
		const struct kt_cond *k = &c->conds.v[i];
		bool holds = kt_cond_eval(k, kt_index_lookup, idx);

		out->built &= holds;
		if (k->option && k->kind != KT_COND_ARCH_WANT) {
			char *o = xasprintf("%s%s", k->negated ? "!" : "", k->option);
			add_option(&opts, o);
			free(o);
		} else if (!k->option) {
			for (size_t j = 0; j < k->nsymbols; j++)
				if (kt_map_get(&idx->kc.opts, k->symbols[j]))
					add_option(&opts, k->symbols[j]);
		}
	}
	out->options = opts.v;
	out->noptions = opts.n;
sections:
	out->nsections = kt_maint_match(idx->maint, file, &out->sections);
	return out->object || out->included_by ? 0 : -1;
}

void kt_file_chain_release(struct kt_file_chain *c)
{
	free(c->object);
	free(c->makefile);
	free(c->included_by);
	free(c->why);
	for (size_t i = 0; i < c->noptions; i++)
		free(c->options[i]);
	free(c->options);
	free(c->sections);
	memset(c, 0, sizeof(*c));
}
