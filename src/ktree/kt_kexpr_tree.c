// SPDX-License-Identifier: GPL-2.0
// Kconfig expressions as trees, for the closure (kt_closure.c): evaluating one (kt_kexpr_eval) says whether it
// holds; the closure must also know which symbols would make it hold, which needs its shape.
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "ktree/kt_kexpr_tree.h"
#include "util/xalloc.h"

struct kp {
	const char *p;
	int depth;
	bool bad;
};

static void ws(struct kp *k)
{
	while (isspace((unsigned char)*k->p))
		k->p++;
}

static struct kexpr *node(enum kexpr_op op, struct kexpr *l, struct kexpr *r, char *sym)
{
	struct kexpr *e = xcalloc(1, sizeof(*e));
	e->op = op;
	e->l = l;
	e->r = r;
	e->sym = sym;
	return e;
}

/* A symbol, a number or a quoted string (quotes dropped; quoted marks which). */
static struct kexpr *atom(struct kp *k)
{
	ws(k);
	if (*k->p == '"' || *k->p == '\'') {
		char q = *k->p++;
		const char *b = k->p;
		while (*k->p && *k->p != q)
			k->p++;
		struct kexpr *e = node(KX_SYM, NULL, NULL, xstrndup(b, (size_t)(k->p - b)));
		e->quoted = true;
		if (*k->p)
			k->p++;
		return e;
	}
	const char *b = k->p;
	while (kt_ident_char((unsigned char)*k->p) || *k->p == '-' || *k->p == '.')
		k->p++;
	if (k->p == b) {
		k->bad = true;
		if (*k->p)
			k->p++;
		return node(KX_SYM, NULL, NULL, xstrdup("n"));
	}
	return node(KX_SYM, NULL, NULL, xstrndup(b, (size_t)(k->p - b)));
}

static struct kexpr *or_expr(struct kp *k);

static struct kexpr *unary(struct kp *k)
{
	if (++k->depth > 64) {
		k->bad = true;
		k->p += strlen(k->p);
		k->depth--;
		return node(KX_SYM, NULL, NULL, xstrdup("n"));
	}
	ws(k);
	struct kexpr *e;
	if (*k->p == '!' && k->p[1] != '=') {
		k->p++;
		e = node(KX_NOT, unary(k), NULL, NULL);
	} else if (*k->p == '(') {
		k->p++;
		e = or_expr(k);
		ws(k);
		if (*k->p == ')')
			k->p++;
		else
			k->bad = true;
	} else {
		e = atom(k);
		ws(k);
		static const struct {
			const char *tok;
			enum kexpr_op op;
		} cmp[] = {{"!=", KX_NE}, {"<=", KX_LE}, {">=", KX_GE}, {"=", KX_EQ}, {"<", KX_LT}, {">", KX_GT}};
		for (size_t i = 0; i < sizeof(cmp) / sizeof(cmp[0]); i++) {
			size_t n = strlen(cmp[i].tok);
			if (!strncmp(k->p, cmp[i].tok, n)) {
				k->p += n;
				e = node(cmp[i].op, e, atom(k), NULL);
				break;
			}
		}
	}
	k->depth--;
	return e;
}

static struct kexpr *and_expr(struct kp *k)
{
	struct kexpr *e = unary(k);
	for (;;) {
		ws(k);
		if (k->p[0] != '&' || k->p[1] != '&')
			return e;
		k->p += 2;
		e = node(KX_AND, e, unary(k), NULL);
	}
}

static struct kexpr *or_expr(struct kp *k)
{
	struct kexpr *e = and_expr(k);
	for (;;) {
		ws(k);
		if (k->p[0] != '|' || k->p[1] != '|')
			return e;
		k->p += 2;
		e = node(KX_OR, e, and_expr(k), NULL);
	}
}

struct kexpr *kexpr_parse(const char *text, bool *ok)
{
	struct kp k = {.p = text};
	struct kexpr *e = or_expr(&k);
	ws(&k);
	if (*k.p)
		k.bad = true;
	if (ok)
		*ok = !k.bad;
	return e;
}

void kexpr_free(struct kexpr *e)
{
	if (!e)
		return;
	kexpr_free(e->l);
	kexpr_free(e->r);
	free(e->sym);
	free(e);
}

bool kexpr_is_const(const struct kexpr *e)
{
	if (e->op != KX_SYM)
		return false;
	if (e->quoted || !strcmp(e->sym, "y") || !strcmp(e->sym, "m") || !strcmp(e->sym, "n"))
		return true;
	return kt_kexpr_number(e->sym);
}
