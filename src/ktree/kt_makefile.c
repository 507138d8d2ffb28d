// SPDX-License-Identifier: GPL-2.0
// Parsing one Makefile or Kbuild: its assignments (obj-$(CONFIG_X) += x.o, composites, variable lists) with the
// ifeq/ifdef blocks around each, $(VAR) of known variables expanded, CONFIG_* kept symbolic. kt_kbuild.c walks
// the tree of them.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

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
char *kt_mk_config_ref(const char *s)
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
			char *opt = kt_mk_config_ref(el), *opt2 = kt_mk_config_ref(er);
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

/* "export X" is not an assignment's lhs; "obj-$(subst m,y,$(CONFIG_X))" is. */
static bool space_outside_parens(const char *s)
{
	int depth = 0;

	for (; *s; s++) {
		depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
		if (depth <= 0 && isspace((unsigned char)*s))
			return true;
	}
	return false;
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
		/* "export X := y" has a space in its lhs; exportfs-objs is an assignment like any other */
		if (*lhs && !space_outside_parens(lhs)) {
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
