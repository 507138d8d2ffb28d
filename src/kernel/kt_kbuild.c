// SPDX-License-Identifier: GPL-2.0
// Makefile/Kbuild reading: which line builds an object and under which conditions, up to the top-level Kbuild.
// This is not make: it follows the kbuild idioms the kernel uses for objects (obj-$(CONFIG_X), composites,
// variable lists such as mmu-y, ifeq/ifdef blocks, $(BITS)) and keeps CONFIG_* symbolic so that the result
// holds for every configuration; the index evaluates the conditions afterwards.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kt_internal.h"
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

/* Expands $(VAR) / ${VAR} of known variables; everything else is kept as written. */
static char *expand(const char *s, const struct kt_map *vars, const struct kt_map *local, int depth)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = s; *p;) {
		if (p[0] == '$' && (p[1] == '(' || p[1] == '{')) {
			char close = p[1] == '(' ? ')' : '}';
			const char *e = strchr(p + 2, close);
			if (e) {
				char *name = xstrndup(p + 2, (size_t)(e - p - 2));
				const char *v = vars ? kt_map_get(vars, name) : NULL;
				if (!v && local)
					v = kt_map_get(local, name);
				if (v && depth < 8) {
					char *x = expand(v, vars, local, depth + 1);
					strbuf_addstr(&sb, x);
					free(x);
					free(name);
					p = e + 1;
					continue;
				}
				free(name);
				strbuf_add(&sb, p, (size_t)(e + 1 - p));
				p = e + 1;
				continue;
			}
		}
		strbuf_addch(&sb, *p++);
	}
	return strbuf_detach(&sb);
}

static char *trimdup(const char *b, const char *e)
{
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	return xstrndup(b, (size_t)(e - b));
}

/* "$(CONFIG_X)" -> "X"; NULL when s is not exactly one config reference. */
static char *config_ref(const char *s)
{
	size_t n = strlen(s);

	if (n > 10 && !strncmp(s, "$(CONFIG_", 9) && s[n - 1] == ')' && !memchr(s + 9, '$', n - 10))
		return xstrndup(s + 9, n - 10);
	if (n > 10 && !strncmp(s, "${CONFIG_", 9) && s[n - 1] == '}' && !memchr(s + 9, '$', n - 10))
		return xstrndup(s + 9, n - 10);
	return NULL;
}

struct ifblock {
	char *text; /* the directive, for display and negation */
	int line;
	struct kt_condv cur;   /* conditions of the current branch */
	struct kt_condv prior; /* negations of passed branches */
};

/* Turns an ifeq/ifneq/ifdef/ifndef directive into conditions (negated for an else branch). */
static void if_conds(struct kt_condv *out, const char *dir, bool negate, const char *where, const struct kt_map *vars,
		     const struct kt_map *local)
{
	const char *p = dir;
	bool neq = !strncmp(p, "ifneq", 5), eq = !strncmp(p, "ifeq", 4);
	bool ndef = !strncmp(p, "ifndef", 6), def = !strncmp(p, "ifdef", 5);
	struct kt_cond c;
	char *x = NULL;

	if (def || ndef) {
		char *name = trimdup(p + (ndef ? 6 : 5), p + strlen(p));
		if (!strncmp(name, "CONFIG_", 7)) {
			kt_cond_single(&c, KT_COND_MAKEFILE_IF, name, ndef != negate, dir, where);
		} else {
			const char *v = vars ? kt_map_get(vars, name) : NULL;
			if (!v && local)
				v = kt_map_get(local, name);
			bool on = v && *v;
			kt_cond_compound(&c, KT_COND_MAKEFILE_IF, (on != ndef) != negate ? "1" : "0", false, where);
			free(c.expr);
			c.expr = xstrdup(dir);
			c.option = NULL;
			/* a known variable: the result is a constant */
			c.holds = (on != ndef) != negate;
			if (!c.holds) {
				free(c.expr);
				c.expr = xasprintf("0 /* %s */", dir);
			} else {
				free(c.expr);
				c.expr = xasprintf("1 /* %s */", dir);
			}
		}
		free(name);
		kt_condv_push(out, &c);
		kt_cond_release(&c);
		return;
	}
	if (eq || neq) {
		/* ifeq (A,B) | ifeq "A" "B" | ifeq 'A' 'B' */
		const char *a = p + (neq ? 5 : 4);
		while (isspace((unsigned char)*a))
			a++;
		char *lhs = NULL, *rhs = NULL;
		if (*a == '(') {
			int depth = 0;
			const char *q, *comma = NULL;
			for (q = a; *q; q++) {
				if (*q == '(')
					depth++;
				else if (*q == ')' && --depth == 0)
					break;
				else if (*q == ',' && depth == 1 && !comma)
					comma = q;
			}
			if (*q && comma) {
				lhs = trimdup(a + 1, comma);
				rhs = trimdup(comma + 1, q);
			}
		} else if (*a == '"' || *a == '\'') {
			const char *e1 = strchr(a + 1, *a);
			const char *b = e1 ? e1 + 1 : NULL;
			while (b && isspace((unsigned char)*b))
				b++;
			const char *e2 = b && (*b == '"' || *b == '\'') ? strchr(b + 1, *b) : NULL;
			if (e2) {
				lhs = xstrndup(a + 1, (size_t)(e1 - a - 1));
				rhs = xstrndup(b + 1, (size_t)(e2 - b - 1));
			}
		}
		if (lhs) {
			char *el = expand(lhs, vars, local, 0), *er = expand(rhs, vars, local, 0);
			char *opt = config_ref(el), *opt2 = config_ref(er);
			const char *other = opt ? er : el;
			if (opt2 && !opt) {
				opt = opt2;
				opt2 = NULL;
			}
			if (opt && !opt2 && !strchr(other, '$')) {
				/* ($(CONFIG_X),y) and ($(CONFIG_X),m): on; ($(CONFIG_X),): off */
				bool on_when_equal = *other != '\0';
				bool positive = eq ? on_when_equal : !on_when_equal;
				kt_cond_single(&c, KT_COND_MAKEFILE_IF, opt, positive == negate, dir, where);
			} else if (!strchr(el, '$') && !strchr(er, '$')) {
				bool v = (strcmp(el, er) == 0) == eq;
				x = xasprintf("%d /* %s */", (v != negate) ? 1 : 0, dir);
				kt_cond_compound(&c, KT_COND_MAKEFILE_IF, x, false, where);
			} else {
				kt_cond_compound(&c, KT_COND_MAKEFILE_IF, dir, negate, where);
			}
			free(opt);
			free(opt2);
			free(el);
			free(er);
			free(lhs);
			free(rhs);
			kt_condv_push(out, &c);
			kt_cond_release(&c);
			free(x);
			return;
		}
		free(lhs);
		free(rhs);
	}
	kt_cond_compound(&c, KT_COND_MAKEFILE_IF, dir, negate, where);
	kt_condv_push(out, &c);
	kt_cond_release(&c);
}

static void if_close_branch(struct ifblock *b, const char *path, const struct kt_map *vars, const struct kt_map *local)
{
	if (b->text) {
		char *w = xasprintf("%s:%d", path, b->line);
		if_conds(&b->prior, b->text, true, w, vars, local);
		free(w);
		free(b->text);
		b->text = NULL;
	}
	kt_condv_release(&b->cur);
}

static void if_open_branch(struct ifblock *b, const char *text, int line, const char *path, const struct kt_map *vars,
			   const struct kt_map *local)
{
	char *w = xasprintf("%s:%d", path, line);

	b->text = xstrdup(text);
	b->line = line;
	if_conds(&b->cur, text, false, w, vars, local);
	free(w);
}

static bool starts_word(const char *s, const char *kw)
{
	size_t n = strlen(kw);

	return !strncmp(s, kw, n) && (s[n] == '\0' || isspace((unsigned char)s[n]) || s[n] == '(');
}

static void add_assign(struct kt_makefile *mk, const char *lhs, const char *op, const char *rhs, int line,
		       struct ifblock *blocks, size_t nblocks, const struct kt_map *vars, const struct kt_map *local)
{
	XGROW(mk->as, mk->capas, mk->nas + 1);
	struct kt_mkassign *a = &mk->as[mk->nas++];
	memset(a, 0, sizeof(*a));
	a->lhs = expand(lhs, vars, local, 0);
	a->op = xstrdup(op);
	a->line = line;
	char *x = expand(rhs, vars, local, 0);
	size_t cap = 0;
	for (char *save = NULL, *w = strtok_r(x, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		XGROW(a->words, cap, a->nwords + 1);
		a->words[a->nwords++] = xstrdup(w);
	}
	free(x);
	for (size_t i = nblocks; i-- > 0;) {
		for (size_t j = 0; j < blocks[i].cur.n; j++)
			kt_condv_push(&a->conds, &blocks[i].cur.v[j]);
		for (size_t j = 0; j < blocks[i].prior.n; j++)
			kt_condv_push(&a->conds, &blocks[i].prior.v[j]);
	}
}

void kt_makefile_parse(struct kt_makefile *mk, const char *path, const char *text, const struct kt_map *vars)
{
	struct ifblock *blocks = NULL;
	size_t nblocks = 0, capblocks = 0;
	struct kt_map local = {0}; /* simple variables of this Makefile (BITS := 64, ...) */
	struct strbuf ln = STRBUF_INIT;
	bool in_define = false, in_rule = false;
	int lineno = 1;

	memset(mk, 0, sizeof(*mk));
	mk->path = xstrdup(path);
	for (const char *l = text; *l;) {
		int start = lineno;
		strbuf_reset(&ln);
		kt_logical_line(&l, &ln, &lineno, " ");
		/* a tab starts a recipe only after a rule; kbuild indents assignments inside ifdef with tabs too */
		if (ln.buf[0] == '\t' && in_rule)
			continue;
		in_rule = false;
		char *hash = strchr(ln.buf, '#');
		if (hash)
			*hash = '\0';
		char *s = ln.buf;
		while (isspace((unsigned char)*s))
			s++;
		for (size_t n = strlen(s); n && isspace((unsigned char)s[n - 1]);)
			s[--n] = '\0';
		if (!*s)
			continue;
		if (in_define) {
			if (starts_word(s, "endef"))
				in_define = false;
			continue;
		}
		if (starts_word(s, "define")) {
			in_define = true;
			continue;
		}
		if (starts_word(s, "ifeq") || starts_word(s, "ifneq") || starts_word(s, "ifdef") ||
		    starts_word(s, "ifndef")) {
			XGROW(blocks, capblocks, nblocks + 1);
			memset(&blocks[nblocks], 0, sizeof(blocks[0]));
			if_open_branch(&blocks[nblocks++], s, start, path, vars, &local);
			continue;
		}
		if (starts_word(s, "else")) {
			if (!nblocks)
				continue;
			if_close_branch(&blocks[nblocks - 1], path, vars, &local);
			const char *rest = s + 4;
			while (isspace((unsigned char)*rest))
				rest++;
			if (*rest) /* else ifeq ... */
				if_open_branch(&blocks[nblocks - 1], rest, start, path, vars, &local);
			continue;
		}
		if (starts_word(s, "endif")) {
			if (nblocks) {
				struct ifblock *b = &blocks[--nblocks];
				free(b->text);
				kt_condv_release(&b->cur);
				kt_condv_release(&b->prior);
			}
			continue;
		}
		/* LHS OP RHS, with OP one of := ::= += ?= = */
		char *op = strpbrk(s, ":+?=");
		if (!op)
			continue;
		const char *opstr;
		size_t oplen;
		if (!strncmp(op, "::=", 3))
			opstr = ":=", oplen = 3;
		else if (!strncmp(op, ":=", 2))
			opstr = ":=", oplen = 2;
		else if (!strncmp(op, "+=", 2))
			opstr = "+=", oplen = 2;
		else if (!strncmp(op, "?=", 2))
			opstr = "?=", oplen = 2;
		else if (*op == '=')
			opstr = "=", oplen = 1;
		else {
			in_rule = true; /* a rule "target: deps" */
			continue;
		}
		char *lhs = trimdup(s, op);
		char *rhs = trimdup(op + oplen, op + strlen(op));
		if (*lhs && !strpbrk(lhs, " \t") && strncmp(lhs, "export", 6) != 0) {
			add_assign(mk, lhs, opstr, rhs, start, blocks, nblocks, vars, &local);
			/* remember simple variables for $(VAR) expansion in later lines (unconditional only) */
			if (nblocks == 0 && !strchr(lhs, '$') && !strstr(lhs, "-y") && !strstr(lhs, "-objs")) {
				char *old;
				if (!strcmp(opstr, "+=") && (old = kt_map_get(&local, lhs))) {
					char *v = xasprintf("%s %s", old, rhs);
					free(kt_map_put(&local, lhs, v));
				} else {
					free(kt_map_put(&local, lhs, xstrdup(rhs)));
				}
			}
		}
		free(lhs);
		free(rhs);
	}
	for (size_t i = 0; i < nblocks; i++) {
		free(blocks[i].text);
		kt_condv_release(&blocks[i].cur);
		kt_condv_release(&blocks[i].prior);
	}
	free(blocks);
	kt_map_release(&local, free);
	strbuf_release(&ln);
}

void kt_makefile_release(struct kt_makefile *mk)
{
	for (size_t i = 0; i < mk->nas; i++) {
		struct kt_mkassign *a = &mk->as[i];
		free(a->lhs);
		free(a->op);
		for (size_t j = 0; j < a->nwords; j++)
			free(a->words[j]);
		free(a->words);
		kt_condv_release(&a->conds);
	}
	free(mk->as);
	free(mk->path);
	memset(mk, 0, sizeof(*mk));
}

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
	char *opt = config_ref(suffix);
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
					char *bopt = config_ref(bs);
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
