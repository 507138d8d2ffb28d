// SPDX-License-Identifier: GPL-2.0
// The two expression languages of a kernel tree, evaluated against symbol values: C preprocessor #if
// expressions (kt_cpp_eval) and Kconfig expressions (kt_kexpr_eval).
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/xalloc.h"

/* ---- C preprocessor expressions ---- */

struct cpp {
	const char *p;
	kt_lookup_fn lookup;
	void *ctx;
	bool ok;
};

static void skip_ws(struct cpp *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
		c->p++;
}

static bool eat(struct cpp *c, const char *tok)
{
	skip_ws(c);
	size_t n = strlen(tok);
	if (strncmp(c->p, tok, n) != 0)
		return false;
	/* "&" must not match "&&", "!" must not match "!=", "<" must not match "<=" */
	if (n == 1 && (c->p[1] == tok[0] || (c->p[1] == '=' && strchr("!<>=", tok[0]))))
		return false;
	c->p += n;
	return true;
}

static char *ident(struct cpp *c)
{
	skip_ws(c);
	if (!kt_ident_start((unsigned char)*c->p))
		return NULL;
	const char *b = c->p;
	while (kt_ident_char((unsigned char)*c->p))
		c->p++;
	return xstrndup(b, (size_t)(c->p - b));
}

/* Value of a macro as cpp sees it: CONFIG_X is 1 when built in (=y), undefined otherwise. */
static long macro_value(struct cpp *c, const char *name, bool *defined)
{
	const char *v = c->lookup(c->ctx, name);

	*defined = v != NULL;
	if (!v)
		return 0;
	if (strncmp(name, "CONFIG_", 7) == 0 && strcmp(v, "m") == 0) {
		*defined = false;
		return 0;
	}
	if (strcmp(v, "y") == 0 || strcmp(v, "m") == 0 || !*v)
		return 1;
	char *end;
	long n = strtol(v, &end, 0);
	return *end ? 1 : n;
}

static long cpp_or(struct cpp *c, int depth);

/* The arithmetic of #if wraps, as on a two's complement machine: a tree's (or a fuzzer's) 2^63 - 1 + 1 is a value,
 * not undefined behaviour of ours. */
static long wrap(unsigned long v)
{
	return (long)v;
}

static long cpp_unary(struct cpp *c, int depth)
{
	if (depth > 64) {
		c->ok = false;
		return 0;
	}
	skip_ws(c);
	if (eat(c, "!"))
		return !cpp_unary(c, depth + 1);
	if (eat(c, "-"))
		return wrap(0UL - (unsigned long)cpp_unary(c, depth + 1));
	if (eat(c, "(")) {
		long v = cpp_or(c, depth + 1);
		if (!eat(c, ")"))
			c->ok = false;
		return v;
	}
	if (isdigit((unsigned char)*c->p)) {
		char *end;
		long v = strtol(c->p, &end, 0);
		c->p = end;
		while (*c->p == 'u' || *c->p == 'U' || *c->p == 'l' || *c->p == 'L')
			c->p++;
		return v;
	}
	char *id = ident(c);
	if (!id) {
		c->ok = false;
		return 0;
	}
	long v = 0;
	bool def;
	if (strcmp(id, "defined") == 0) {
		bool paren = eat(c, "(");
		char *m = ident(c);
		if (!m || (paren && !eat(c, ")")))
			c->ok = false;
		if (m)
			macro_value(c, m, &def), v = def;
		free(m);
	} else if (strcmp(id, "IS_ENABLED") == 0 || strcmp(id, "IS_BUILTIN") == 0 || strcmp(id, "IS_MODULE") == 0 ||
		   strcmp(id, "IS_REACHABLE") == 0) {
		char *m = NULL;
		if (!eat(c, "(") || !(m = ident(c)) || !eat(c, ")"))
			c->ok = false;
		if (m) {
			const char *s = c->lookup(c->ctx, m);
			bool y = s && strcmp(s, "y") == 0, mod = s && strcmp(s, "m") == 0;
			v = id[3] == 'B' ? y : id[3] == 'M' ? mod : (y || mod);
		}
		free(m);
	} else {
		skip_ws(c);
		if (*c->p == '(') /* an unknown function-like macro: cannot evaluate */
			c->ok = false;
		v = macro_value(c, id, &def);
	}
	free(id);
	return v;
}

static long cpp_mul(struct cpp *c, int depth)
{
	long v = cpp_unary(c, depth);
	for (;;) {
		if (eat(c, "*"))
			v = wrap((unsigned long)v * (unsigned long)cpp_unary(c, depth));
		else
			return v;
	}
}

static long cpp_add(struct cpp *c, int depth)
{
	long v = cpp_mul(c, depth);
	for (;;) {
		if (eat(c, "+"))
			v = wrap((unsigned long)v + (unsigned long)cpp_mul(c, depth));
		else if (eat(c, "-"))
			v = wrap((unsigned long)v - (unsigned long)cpp_mul(c, depth));
		else
			return v;
	}
}

static long cpp_rel(struct cpp *c, int depth)
{
	long v = cpp_add(c, depth);
	for (;;) {
		if (eat(c, "<="))
			v = v <= cpp_add(c, depth);
		else if (eat(c, ">="))
			v = v >= cpp_add(c, depth);
		else if (eat(c, "<"))
			v = v < cpp_add(c, depth);
		else if (eat(c, ">"))
			v = v > cpp_add(c, depth);
		else if (eat(c, "=="))
			v = v == cpp_add(c, depth);
		else if (eat(c, "!="))
			v = v != cpp_add(c, depth);
		else
			return v;
	}
}

static long cpp_and(struct cpp *c, int depth)
{
	long v = cpp_rel(c, depth);
	while (eat(c, "&&")) {
		long r = cpp_rel(c, depth);
		v = v && r;
	}
	return v;
}

static long cpp_or(struct cpp *c, int depth)
{
	long v = cpp_and(c, depth);
	while (eat(c, "||")) {
		long r = cpp_and(c, depth);
		v = v || r;
	}
	return v;
}

long kt_cpp_eval(const char *expr, kt_lookup_fn lookup, void *ctx, bool *ok)
{
	struct cpp c = {.p = expr, .lookup = lookup, .ctx = ctx, .ok = true};
	long v = cpp_or(&c, 0);

	skip_ws(&c);
	if (*c.p && strncmp(c.p, "/*", 2) != 0 && strncmp(c.p, "//", 2) != 0)
		c.ok = false;
	*ok = c.ok;
	return v;
}

/* ---- Kconfig expressions ---- */

/* 12, -1, 0x1f: a constant; 64BIT and 32BIT are symbols though they start with a digit */
bool kt_kexpr_number(const char *w)
{
	const char *p = w + (*w == '-');
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && p[2]) {
		for (p += 2; isxdigit((unsigned char)*p); p++)
			;
		return !*p;
	}
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return !*p;
}

struct kx {
	const char *p;
	kt_lookup_fn lookup;
	void *ctx;
	int depth;
};

static int tri_of(const char *v)
{
	if (!v || strcmp(v, "n") == 0)
		return 0;
	if (strcmp(v, "m") == 0)
		return 1;
	return 2;
}

static void kx_ws(struct kx *k)
{
	while (isspace((unsigned char)*k->p))
		k->p++;
}

/* A symbol or constant; returns its string value ("n" for off) in buf. */
static const char *kx_atom(struct kx *k, char *buf, size_t len)
{
	kx_ws(k);
	if (*k->p == '"' || *k->p == '\'') {
		char q = *k->p++;
		size_t n = 0;
		while (*k->p && *k->p != q) {
			if (n + 1 < len)
				buf[n++] = *k->p;
			k->p++;
		}
		if (*k->p)
			k->p++;
		buf[n] = '\0';
		return buf;
	}
	const char *b = k->p;
	while (kt_ident_char((unsigned char)*k->p) || *k->p == '-' || *k->p == '.')
		k->p++;
	if (k->p == b) {
		if (*k->p)
			k->p++; /* skip garbage */
		return "n";
	}
	size_t n = (size_t)(k->p - b) < len - 1 ? (size_t)(k->p - b) : len - 1;
	memcpy(buf, b, n);
	buf[n] = '\0';
	if (strcmp(buf, "y") == 0 || strcmp(buf, "n") == 0 || strcmp(buf, "m") == 0)
		return buf;
	if (kt_kexpr_number(buf))
		return buf;
	const char *v = k->lookup(k->ctx, buf);
	return v ? v : "n";
}

static int kx_or(struct kx *k);

static int kx_unary(struct kx *k)
{
	if (++k->depth > 64) {
		k->p += strlen(k->p);
		return 0;
	}
	kx_ws(k);
	int v;
	if (*k->p == '!') {
		k->p++;
		v = 2 - kx_unary(k);
	} else if (*k->p == '(') {
		k->p++;
		v = kx_or(k);
		kx_ws(k);
		if (*k->p == ')')
			k->p++;
	} else {
		char a[128], bbuf[128];
		const char *l = kx_atom(k, a, sizeof(a));
		char lv[128];
		snprintf(lv, sizeof(lv), "%s", l);
		kx_ws(k);
		if (*k->p == '=' || (k->p[0] == '!' && k->p[1] == '=')) {
			bool ne = *k->p == '!';
			k->p += ne ? 2 : 1;
			const char *r = kx_atom(k, bbuf, sizeof(bbuf));
			v = (strcmp(lv, r) == 0) != ne ? 2 : 0;
		} else {
			v = tri_of(lv);
		}
	}
	k->depth--;
	return v;
}

static int kx_and(struct kx *k)
{
	int v = kx_unary(k);
	for (;;) {
		kx_ws(k);
		if (k->p[0] != '&' || k->p[1] != '&')
			return v;
		k->p += 2;
		int r = kx_unary(k);
		v = v < r ? v : r;
	}
}

static int kx_or(struct kx *k)
{
	int v = kx_and(k);
	for (;;) {
		kx_ws(k);
		if (k->p[0] != '|' || k->p[1] != '|')
			return v;
		k->p += 2;
		int r = kx_and(k);
		v = v > r ? v : r;
	}
}

int kt_kexpr_eval(const char *expr, kt_lookup_fn lookup, void *ctx)
{
	struct kx k = {.p = expr, .lookup = lookup, .ctx = ctx};
	int v = kx_or(&k);
	return v;
}
