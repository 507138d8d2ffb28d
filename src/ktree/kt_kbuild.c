// SPDX-License-Identifier: GPL-2.0
// Makefile/Kbuild reading: which line builds an object and under which conditions, up to the top-level Kbuild
// (each Makefile parsed by kt_makefile.c).
// This is not make: it follows the kbuild idioms the kernel uses for objects (obj-$(CONFIG_X), composites,
// variable lists such as mmu-y, ifeq/ifdef blocks, $(BITS)) and keeps CONFIG_* symbolic so that the result
// holds for every configuration; the index evaluates the conditions afterwards.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct kt_kbuild {
	char *srcdir;
	const struct kt_map *vars;
	kt_lookup_fn lookup; /* to prefer, among several lines listing an object, one whose conditions hold */
	void *ctx;
	struct kt_map files; /* dir -> struct kt_makefile * (or a sentinel for "none") */
};

static struct kt_makefile none_sentinel;

struct kt_kbuild *kt_kbuild_new(const char *srcdir, const struct kt_map *vars, kt_lookup_fn lookup, void *ctx)
{
	struct kt_kbuild *kb = xcalloc(1, sizeof(*kb));

	kb->srcdir = xstrdup(srcdir);
	kb->vars = vars;
	kb->lookup = lookup;
	kb->ctx = ctx;
	return kb;
}

static void free_mk(void *p)
{
	if (p != &none_sentinel) {
		kt_makefile_release(p);
		free(p);
	}
}

void kt_kbuild_free(struct kt_kbuild *kb)
{
	if (!kb)
		return;
	kt_map_release(&kb->files, free_mk);
	free(kb->srcdir);
	free(kb);
}

/* The parsed Kbuild (preferred, as scripts/Makefile.build does) or Makefile of dir ("" is the top). */
static struct kt_makefile *load(struct kt_kbuild *kb, const char *dir)
{
	struct kt_makefile *mk = kt_map_get(&kb->files, dir);

	if (mk)
		return mk == &none_sentinel ? NULL : mk;
	static const char *const names[] = {"Kbuild", "Makefile"};
	for (size_t i = 0; i < 2; i++) {
		char *rel = *dir ? xasprintf("%s/%s", dir, names[i]) : xstrdup(names[i]);
		char *path = kt_path(kb->srcdir, rel);
		char *text = kt_read_tree_file(path, NULL);
		free(path);
		if (text) {
			mk = xcalloc(1, sizeof(*mk));
			kt_makefile_parse(mk, rel, text, kb->vars);
			free(text);
			free(rel);
			kt_map_put(&kb->files, dir, mk);
			return mk;
		}
		free(rel);
	}
	kt_map_put(&kb->files, dir, &none_sentinel);
	return NULL;
}

/* Splits an assignment target: stem ("obj", "landlock", "mmu") and the suffix ("y", "$(CONFIG_X)", "objs"). */
static char *lhs_stem(const char *lhs, const char **suffix)
{
	const char *dash = NULL;

	/* the last '-' that is not inside $(...) */
	int depth = 0;
	for (const char *p = lhs; *p; p++) {
		if (*p == '(' || *p == '{')
			depth++;
		else if (*p == ')' || *p == '}')
			depth--;
		else if (*p == '-' && depth == 0)
			dash = p;
	}
	if (!dash) {
		*suffix = "";
		return xstrdup(lhs);
	}
	*suffix = dash + 1;
	return xstrndup(lhs, (size_t)(dash - lhs));
}

/* The condition a target suffix adds: "$(CONFIG_X)" -> X; "y", "objs", "m" -> none. */
static void suffix_cond(struct kt_condv *out, const char *suffix, enum kt_cond_kind kind, const char *where,
			const char *text)
{
	char *opt = kt_mk_config_ref(suffix);
	struct kt_cond c;

	if (opt) {
		kt_cond_single(&c, kind, opt, false, text, where);
		kt_condv_push(out, &c);
		kt_cond_release(&c);
		free(opt);
	} else if (strchr(suffix, '$')) {
		kt_cond_compound(&c, kind, text, false, where);
		kt_condv_push(out, &c);
		kt_cond_release(&c);
	}
}

static void push_all(struct kt_condv *out, const struct kt_condv *in)
{
	for (size_t i = 0; i < in->n; i++)
		kt_condv_push(out, &in->v[i]);
}

struct hit {
	struct kt_condv conds;
	char *object;
	char *makefile;
	int line;
};

/* Whether all conditions hold; true when there is nothing to evaluate them with. */
static bool holds(const struct kt_kbuild *kb, const struct kt_condv *cv)
{
	for (size_t i = 0; kb->lookup && i < cv->n; i++)
		if (!kt_cond_eval(&cv->v[i], kb->lookup, kb->ctx))
			return false;
	return true;
}

/*
 * Finds `word` in mk: directly in an obj-/lib- list, or in a composite (stem-y/-objs → stem.o) or a list variable
 * ($(stem-y)), recursively. Fills hit on success.
 */
static bool find_word(const struct kt_kbuild *kb, const struct kt_makefile *mk, const char *dir, const char *word,
		      struct hit *h, int depth)
{
	if (depth > 8)
		return false;
	for (size_t i = 0; i < mk->nas; i++) {
		const struct kt_mkassign *a = &mk->as[i];
		bool found = false;
		for (size_t j = 0; j < a->nwords && !found; j++)
			found = strcmp(a->words[j], word) == 0;
		if (!found)
			continue;
		const char *suffix;
		char *stem = lhs_stem(a->lhs, &suffix);
		char *w = xasprintf("%s:%d", mk->path, a->line);
		char *text = xasprintf("%s %s %s", a->lhs, a->op, word);
		bool ok = false;
		struct hit sub = {0};
		if (!strcmp(stem, "obj") || !strcmp(stem, "lib")) {
			suffix_cond(&sub.conds, suffix, KT_COND_MAKEFILE_OBJ, w, text);
			push_all(&sub.conds, &a->conds);
			sub.makefile = xstrdup(mk->path);
			sub.line = a->line;
			ok = true;
		} else if (strcmp(suffix, "y") && strcmp(suffix, "objs") && strcmp(suffix, "m") &&
			   strncmp(suffix, "$(CONFIG_", 9) && strncmp(suffix, "${CONFIG_", 9)) {
			ok = false; /* some other variable (ccflags-y, targets, ...) */
		} else {
			struct kt_condv mine = {0};
			suffix_cond(&mine, suffix, KT_COND_MAKEFILE_VAR, w, text);
			push_all(&mine, &a->conds);
			/* a later ':=' to the same list under another condition replaces this value */
			if (strcmp(a->op, "+=") != 0) {
				for (size_t k = i + 1; k < mk->nas; k++) {
					const struct kt_mkassign *b = &mk->as[k];
					const char *bs;
					char *bstem = lhs_stem(b->lhs, &bs);
					char *bopt = kt_mk_config_ref(bs);
					if (!strcmp(bstem, stem) && strcmp(b->op, "+=") && bopt &&
					    strcmp(b->lhs, a->lhs)) {
						struct kt_cond c;
						char *bw = xasprintf("%s:%d", mk->path, b->line);
						char *bt = xasprintf("%s %s ...", b->lhs, b->op);
						kt_cond_single(&c, KT_COND_MAKEFILE_VAR, bopt, true, bt, bw);
						kt_condv_push(&mine, &c);
						kt_cond_release(&c);
						free(bw);
						free(bt);
					}
					free(bopt);
					free(bstem);
				}
			}
			char *composite = xasprintf("%s.o", stem);
			char *ref = xasprintf("$(%s-y)", stem);
			char *ref2 = xasprintf("$(%s-objs)", stem);
			if (strcmp(composite, word) && find_word(kb, mk, dir, composite, &sub, depth + 1)) {
				ok = true;
				if (!sub.object)
					sub.object = *dir ? xasprintf("%s/%s", dir, composite) : xstrdup(composite);
			} else if (find_word(kb, mk, dir, ref, &sub, depth + 1) ||
				   find_word(kb, mk, dir, ref2, &sub, depth + 1)) {
				ok = true;
			}
			if (ok) {
				/* innermost first: this list's conditions before the object's */
				struct kt_condv all = {0};
				push_all(&all, &mine);
				push_all(&all, &sub.conds);
				kt_condv_release(&sub.conds);
				sub.conds = all;
			}
			kt_condv_release(&mine);
			free(composite);
			free(ref);
			free(ref2);
		}
		free(stem);
		free(w);
		free(text);
		if (ok && !h->makefile) {
			*h = sub; /* the first line listing the word, unless a later one's conditions hold */
		} else if (ok && !holds(kb, &h->conds) && holds(kb, &sub.conds)) {
			kt_condv_release(&h->conds);
			free(h->object);
			free(h->makefile);
			*h = sub;
		} else {
			kt_condv_release(&sub.conds);
			free(sub.object);
			free(sub.makefile);
		}
	}
	return h->makefile != NULL;
}

static char *parent_of(const char *dir)
{
	const char *slash = strrchr(dir, '/');

	return slash ? xstrndup(dir, (size_t)(slash - dir)) : xstrdup("");
}

int kt_kbuild_resolve(struct kt_kbuild *kb, const char *cfile, struct kt_condv *out, char **object, char **makefile,
		      int *line, char **why)
{
	char *dir = parent_of(cfile);
	const char *base = strrchr(cfile, '/') ? strrchr(cfile, '/') + 1 : cfile;
	size_t bl = strlen(base);
	char *obj = bl > 2 && !strcmp(base + bl - 2, ".c") ? xasprintf("%.*s.o", (int)(bl - 2), base) : NULL;
	struct hit h = {0};
	bool found = false;
	int rc = -1;

	*object = NULL;
	*makefile = NULL;
	*line = 0;
	if (!obj) {
		*why = xasprintf("'%s' is not a .c file", cfile);
		goto out;
	}
	/* the object may be listed by its own directory's Makefile, or by an ancestor as sub/dir/x.o */
	char *cur = xstrdup(dir), *rel = xstrdup(obj);
	for (;;) {
		struct kt_makefile *mk = load(kb, cur);
		if (mk && find_word(kb, mk, cur, rel, &h, 0)) {
			found = true;
			break;
		}
		if (!*cur)
			break;
		char *p = parent_of(cur);
		const char *last = strrchr(cur, '/') ? strrchr(cur, '/') + 1 : cur;
		char *r = xasprintf("%s/%s", last, rel);
		free(rel);
		rel = r;
		free(cur);
		cur = p;
		/* only look one level up for sub/x.o: further is never used for objects */
		if (strchr(rel, '/') != strrchr(rel, '/'))
			break;
	}
	free(rel);
	if (!found) {
		struct kt_makefile *mk = load(kb, dir);
		*why = mk ? xasprintf("'%s' is not listed in %s", obj, mk->path)
			  : xasprintf("no Kbuild or Makefile in '%s'", *dir ? dir : ".");
		free(cur);
		goto out;
	}
	push_all(out, &h.conds);
	*object = h.object ? h.object : (*dir ? xasprintf("%s/%s", dir, obj) : xstrdup(obj));
	h.object = NULL;
	*makefile = h.makefile;
	h.makefile = NULL;
	*line = h.line;

	/* every directory from the object's up to the top must be descended into */
	while (*cur) {
		char *p = xstrdup(cur), *sub = NULL;
		bool ok = false;
		while (*p && !ok) {
			char *pp = parent_of(p);
			const char *last = strrchr(p, '/') ? strrchr(p, '/') + 1 : p;
			char *s2 = sub ? xasprintf("%s/%s", last, sub) : xstrdup(last);
			free(sub);
			sub = s2;
			char *word = xasprintf("%s/", sub);
			struct kt_makefile *mk = load(kb, pp);
			struct hit dh = {0};
			if (mk && find_word(kb, mk, pp, word, &dh, 0)) {
				for (size_t i = 0; i < dh.conds.n; i++)
					if (dh.conds.v[i].kind == KT_COND_MAKEFILE_OBJ)
						dh.conds.v[i].kind = KT_COND_MAKEFILE_DIR;
				push_all(out, &dh.conds);
				ok = true;
				free(cur);
				cur = pp;
				pp = NULL;
			}
			kt_condv_release(&dh.conds);
			free(dh.object);
			free(dh.makefile);
			free(word);
			if (pp) {
				free(p);
				p = pp;
			}
		}
		free(p);
		free(sub);
		if (!ok) {
			*why = xasprintf("no Makefile descends into '%s/'", cur);
			free(cur);
			goto out;
		}
	}
	free(cur);
	rc = 0;
out:
	kt_condv_release(&h.conds);
	free(h.object);
	free(h.makefile);
	free(obj);
	free(dir);
	return rc;
}
