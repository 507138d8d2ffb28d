// SPDX-License-Identifier: GPL-2.0
// Conditions on the build path: construction, splitting of #if expressions, evaluation (with kt_expr.c).
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void kt_cond_copy(struct kt_cond *dst, const struct kt_cond *src)
{
	*dst = *src;
	dst->option = dup_or_null(src->option);
	dst->expr = dup_or_null(src->expr);
	dst->where = dup_or_null(src->where);
	dst->symbols = src->nsymbols ? xcalloc(src->nsymbols, sizeof(char *)) : NULL;
	for (size_t i = 0; i < src->nsymbols; i++)
		dst->symbols[i] = xstrdup(src->symbols[i]);
}

void kt_cond_release(struct kt_cond *c)
{
	free(c->option);
	free(c->expr);
	free(c->where);
	for (size_t i = 0; i < c->nsymbols; i++)
		free(c->symbols[i]);
	free(c->symbols);
	memset(c, 0, sizeof(*c));
}

void kt_condv_push(struct kt_condv *cv, const struct kt_cond *c)
{
	XGROW(cv->v, cv->cap, cv->n + 1);
	kt_cond_copy(&cv->v[cv->n++], c);
}

void kt_condv_release(struct kt_condv *cv)
{
	for (size_t i = 0; i < cv->n; i++)
		kt_cond_release(&cv->v[i]);
	free(cv->v);
	memset(cv, 0, sizeof(*cv));
}

static const char *strip_config(const char *s)
{
	return strncmp(s, "CONFIG_", 7) == 0 ? s + 7 : s;
}

void kt_cond_single(struct kt_cond *c, enum kt_cond_kind kind, const char *sym, bool negated, const char *expr,
		    const char *where)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->option = xstrdup(strip_config(sym));
	c->negated = negated;
	c->expr = dup_or_null(expr);
	c->where = dup_or_null(where);
	c->symbols = xcalloc(1, sizeof(char *));
	c->symbols[0] = xstrdup(c->option);
	c->nsymbols = 1;
	c->holds = true;
}

/*
 * Collects the CONFIG_* and __ARCH_WANT_* identifiers of an expression (Makefile or cpp), each once: a map of
 * those seen, since a hostile line of 20,000 of them made a scan of the list quadratic (a minute).
 */
static void collect_symbols(struct kt_cond *c, const char *expr)
{
	struct kt_strv sv = {0};
	struct kt_map seen = {0};

	for (const char *p = expr; *p;) {
		if (!kt_ident_start((unsigned char)*p)) {
			p++;
			continue;
		}
		const char *b = p;
		while (kt_ident_char((unsigned char)*p))
			p++;
		char *id = xstrndup(b, (size_t)(p - b));
		const char *sym = strncmp(id, "CONFIG_", 7) == 0 && id[7] ? id + 7
				  : strncmp(id, "__ARCH_WANT_", 12) == 0  ? id
									  : NULL;

		if (sym && !kt_map_get(&seen, sym)) {
			kt_map_put(&seen, sym, (void *)1);
			kt_strv_push(&sv, sym);
		}
		free(id);
	}
	kt_map_release(&seen, NULL);
	c->symbols = sv.v;
	c->nsymbols = sv.n;
}

void kt_cond_compound(struct kt_cond *c, enum kt_cond_kind kind, const char *expr, bool negated, const char *where)
{
	memset(c, 0, sizeof(*c));
	c->kind = kind;
	c->negated = negated;
	c->expr = xstrdup(expr);
	c->where = dup_or_null(where);
	c->holds = true;
	collect_symbols(c, expr);
}

bool kt_cond_eval(const struct kt_cond *c, kt_lookup_fn lookup, void *ctx)
{
	if (c->option) {
		const char *v = lookup(ctx, c->option);
		bool on = v && strcmp(v, "n") != 0;
		return on != c->negated;
	}
	if (!c->expr)
		return true;
	bool ok;
	long v = kt_cpp_eval(c->expr, lookup, ctx, &ok);
	if (!ok)
		return true;
	return (v != 0) != c->negated;
}

/* ---- splitting an #if into single-symbol conditions ---- */

static char *trim(const char *b, const char *e)
{
	while (b < e && isspace((unsigned char)*b))
		b++;
	while (e > b && isspace((unsigned char)e[-1]))
		e--;
	/* strip one pair of enclosing parentheses when they match each other */
	if (e - b >= 2 && *b == '(' && e[-1] == ')') {
		int d = 0;
		const char *p;
		for (p = b; p < e; p++) {
			d += *p == '(' ? 1 : *p == ')' ? -1 : 0;
			if (d == 0)
				break;
		}
		if (p == e - 1)
			return trim(b + 1, e - 1);
	}
	return xstrndup(b, (size_t)(e - b));
}

/* Recognises "defined(X)", "defined X", "X", "IS_ENABLED(X)", each optionally preceded by "!". */
static bool single_symbol(const char *s, char **sym, bool *neg)
{
	*neg = false;
	while (*s == '!' || isspace((unsigned char)*s)) {
		if (*s == '!')
			*neg = !*neg;
		s++;
	}
	const char *fn[] = {"defined", "IS_ENABLED", "IS_BUILTIN"};
	for (size_t i = 0; i < sizeof(fn) / sizeof(fn[0]); i++) {
		size_t n = strlen(fn[i]);
		if (strncmp(s, fn[i], n) == 0 && !kt_ident_char((unsigned char)s[n])) {
			s += n;
			while (isspace((unsigned char)*s))
				s++;
			bool paren = *s == '(';
			if (paren)
				s++;
			while (isspace((unsigned char)*s))
				s++;
			const char *b = s;
			while (kt_ident_char((unsigned char)*s))
				s++;
			if (s == b)
				return false;
			const char *e = s;
			while (isspace((unsigned char)*s))
				s++;
			if (paren && *s++ != ')')
				return false;
			while (isspace((unsigned char)*s))
				s++;
			if (*s)
				return false;
			*sym = xstrndup(b, (size_t)(e - b));
			return true;
		}
	}
	const char *b = s;
	while (kt_ident_char((unsigned char)*s))
		s++;
	if (s == b || !kt_ident_start((unsigned char)*b))
		return false;
	const char *e = s;
	while (isspace((unsigned char)*s))
		s++;
	if (*s)
		return false;
	*sym = xstrndup(b, (size_t)(e - b));
	return true;
}

static enum kt_cond_kind kind_of(const char *sym, enum kt_cond_kind kind)
{
	return strncmp(sym, "__ARCH_WANT_", 12) == 0 ? KT_COND_ARCH_WANT : kind;
}

static bool interesting(const char *sym)
{
	return strncmp(sym, "CONFIG_", 7) == 0 || strncmp(sym, "__ARCH_WANT_", 12) == 0;
}

void kt_cpp_conds(struct kt_condv *out, const char *expr, bool negate, enum kt_cond_kind kind, const char *where)
{
	/* split at top-level && (give up on a top-level ||) */
	struct kt_strv parts = {0};
	int depth = 0;
	bool has_or = false;
	const char *b = expr, *p;

	for (p = expr; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		else if (depth == 0 && p[0] == '|' && p[1] == '|')
			has_or = true;
		else if (depth == 0 && p[0] == '&' && p[1] == '&') {
			char *t = trim(b, p);
			kt_strv_push(&parts, t);
			free(t);
			b = p + 2;
			p++;
		}
	}
	char *t = trim(b, p);
	kt_strv_push(&parts, t);
	free(t);

	bool all_single = !has_or && !(negate && parts.n > 1);
	struct kt_strv syms = {0};
	bool negs[64];
	for (size_t i = 0; all_single && i < parts.n; i++) {
		char *sym = NULL;
		all_single = i < 64 && single_symbol(parts.v[i], &sym, &negs[i]) && interesting(sym);
		if (all_single)
			kt_strv_push(&syms, sym);
		free(sym);
	}
	struct kt_cond c;
	if (all_single) {
		for (size_t i = 0; i < syms.n; i++) {
			struct strbuf d = STRBUF_INIT;
			strbuf_addf(&d, "%s%s", negate ? "#else of #if " : "#if ", expr);
			kt_cond_single(&c, kind_of(syms.v[i], kind), syms.v[i], negs[i] != negate, d.buf, where);
			kt_condv_push(out, &c);
			kt_cond_release(&c);
			strbuf_release(&d);
		}
	} else {
		kt_cond_compound(&c, kind, expr, negate, where);
		/* only __ARCH_WANT_* symbols: the architecture decides, not the configuration */
		bool arch_only = c.nsymbols > 0;
		for (size_t i = 0; i < c.nsymbols; i++)
			arch_only = arch_only && strncmp(c.symbols[i], "__ARCH_WANT_", 12) == 0;
		if (arch_only)
			c.kind = KT_COND_ARCH_WANT;
		kt_condv_push(out, &c);
		kt_cond_release(&c);
	}
	kt_strv_release(&parts);
	kt_strv_release(&syms);
}
