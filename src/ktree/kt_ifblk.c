// SPDX-License-Identifier: GPL-2.0
/*
 * The #if blocks of a C file that name options (kt_ifblk.h). One pass: the text becomes logical lines (line
 * continuations joined, comments blanked, string literals kept whole), each starting at a physical line; a
 * directive line opens, turns or closes a group on a stack, and a branch naming CONFIG_ is kept when it closes.
 */
#include "ktree/kt_ifblk.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/* A group being read: its first branch's kind and sole option (for #else), and the branch open now. */
struct group {
	char first_kind[16];
	char *sole;	/* the one option the first branch names alone, without CONFIG_; else NULL */
	bool elif_seen; /* an #elif came between: #else is not the negation of the first branch */
	long open;	/* index of the branch kept so far in out, or -1 */
	char **names;	/* the options the first branch named */
	size_t nnames;
};

struct scan {
	struct kt_ifblk *v;
	size_t n, cap;
	struct group *stack;
	size_t depth, stack_cap;
};

static bool ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The CONFIG_ options expr names, without CONFIG_, once each. */
static size_t names_of(const char *expr, char ***out)
{
	size_t n = 0;

	*out = NULL;
	for (const char *p = expr; (p = strstr(p, "CONFIG_"));) {
		const char *s = p + 7, *e = s;

		if (p > expr && ident(p[-1])) {
			p = s;
			continue;
		}
		while (ident(*e))
			e++;
		if (e > s) {
			char *name = xstrndup(s, (size_t)(e - s));
			size_t i = 0;

			while (i < n && strcmp((*out)[i], name))
				i++;
			if (i < n) {
				free(name);
			} else {
				*out = xrealloc(*out, (n + 1) * sizeof(**out));
				(*out)[n++] = name;
			}
		}
		p = e;
	}
	return n;
}

/* expr is one option alone: CONFIG_X, defined(CONFIG_X), defined CONFIG_X, IS_ENABLED(CONFIG_X)...: its name. */
static char *sole_option(const char *expr)
{
	static const char *const wraps[] = {"defined", "IS_ENABLED", "IS_BUILTIN", "IS_MODULE", "IS_REACHABLE"};
	char buf[256];
	size_t n = 0;

	for (const char *p = expr; *p && n + 1 < sizeof(buf); p++)
		if (!isspace((unsigned char)*p))
			buf[n++] = *p;
	buf[n] = 0;
	const char *s = buf;
	size_t len = n;
	for (size_t i = 0; i < sizeof(wraps) / sizeof(wraps[0]); i++) {
		size_t w = strlen(wraps[i]);

		if (!strncmp(buf, wraps[i], w)) {
			s = buf + w;
			len = n - w;
			if (len >= 2 && s[0] == '(' && s[len - 1] == ')')
				s++, len -= 2;
			break;
		}
	}
	if (len <= 7 || strncmp(s, "CONFIG_", 7))
		return NULL;
	for (size_t i = 7; i < len; i++)
		if (!ident(s[i]))
			return NULL;
	return xstrndup(s + 7, len - 7);
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Opens a branch at directive line d (its body from first) with these options (taken); kept when it has some. */
static void open_branch(struct scan *s, struct group *g, const char *kind, uint32_t d, uint32_t first, char **opts,
			size_t nopts, bool negated)
{
	g->open = -1;
	if (!nopts) {
		free(opts);
		return;
	}
	XGROW(s->v, s->cap, s->n + 1);
	struct kt_ifblk *b = &s->v[s->n];
	*b = (struct kt_ifblk){.directive = d,
			       .first = first,
			       .depth = (uint32_t)(s->depth - 1),
			       .negated = negated,
			       .opts = opts,
			       .nopts = nopts};
	snprintf(b->kind, sizeof(b->kind), "%s", kind);
	for (size_t i = 0; negated && i < nopts; i++) {
		char *o = xasprintf("!%s", opts[i]);

		free(opts[i]);
		opts[i] = o;
	}
	g->open = (long)s->n++;
}

static void close_branch(struct scan *s, struct group *g, uint32_t line)
{
	if (g->open >= 0)
		s->v[g->open].last = line > s->v[g->open].first ? line - 1 : s->v[g->open].first - 1;
	g->open = -1;
}

static char **copy_names(char **v, size_t n)
{
	char **c = n ? xcalloc(n, sizeof(*c)) : NULL;

	for (size_t i = 0; i < n; i++)
		c[i] = xstrdup(v[i]);
	return c;
}

/* One directive: the keyword and the rest of the logical line; d its first physical line, first the body's. */
static int directive(struct scan *s, const char *kw, const char *rest, uint32_t d, uint32_t first, char *why,
		     size_t whylen)
{
	struct group *g = s->depth ? &s->stack[s->depth - 1] : NULL;
	char **names;
	size_t n;

	if (!strcmp(kw, "if") || !strcmp(kw, "ifdef") || !strcmp(kw, "ifndef")) {
		XGROW(s->stack, s->stack_cap, s->depth + 1);
		g = &s->stack[s->depth++];
		*g = (struct group){.open = -1};
		snprintf(g->first_kind, sizeof(g->first_kind), "%s", kw);
		n = names_of(rest, &names);
		if (strcmp(kw, "if")) { /* #ifdef NAME: only the first word */
			char *one = sole_option(rest);

			free_names(names, n);
			names = NULL;
			n = 0;
			if (one) {
				names = xmalloc(sizeof(*names));
				names[n++] = one;
			}
		}
		g->sole = !strcmp(kw, "if") ? sole_option(rest) : n ? xstrdup(names[0]) : NULL;
		g->names = copy_names(names, n);
		g->nnames = n;
		open_branch(s, g, kw, d, first, names, n, !strcmp(kw, "ifndef"));
		return 0;
	}
	if (strcmp(kw, "elif") && strcmp(kw, "else") && strcmp(kw, "endif"))
		return 0; /* #define, #include, #error...: no group */
	if (!g) {
		snprintf(why, whylen, "line %u: #%s without #if", d, kw);
		return -1;
	}
	close_branch(s, g, d);
	if (!strcmp(kw, "endif")) {
		free(g->sole);
		free_names(g->names, g->nnames);
		s->depth--;
		return 0;
	}
	if (!strcmp(kw, "elif")) {
		g->elif_seen = true;
		n = names_of(rest, &names);
		open_branch(s, g, kw, d, first, names, n, false);
		return 0;
	}
	/* #else: the first branch's option off (#ifndef's on), when it was one option alone */
	if (g->sole && !g->elif_seen) {
		names = xmalloc(sizeof(*names));
		names[0] = xstrdup(g->sole);
		open_branch(s, g, kw, d, first, names, 1, strcmp(g->first_kind, "ifndef") != 0);
	} else {
		open_branch(s, g, kw, d, first, copy_names(g->names, g->nnames), g->nnames, true);
	}
	return 0;
}

/* A logical line that is a directive: "# kw rest". */
static int logical(struct scan *s, const char *l, uint32_t d, uint32_t first, char *why, size_t whylen)
{
	char kw[16];
	size_t n = 0;

	while (isspace((unsigned char)*l))
		l++;
	if (*l++ != '#')
		return 0;
	while (isspace((unsigned char)*l))
		l++;
	while (ident(*l) && n + 1 < sizeof(kw))
		kw[n++] = *l++;
	kw[n] = 0;
	return directive(s, kw, l, d, first, why, whylen);
}

int kt_ifblk_scan(const char *text, size_t len, struct kt_ifblk **out, size_t *nout, char *why, size_t whylen)
{
	struct scan s = {0};
	struct strbuf lb;
	bool in_comment = false;
	uint32_t line = 1, start = 1;
	size_t i = 0;
	int rc = 0;

	strbuf_init(&lb);
	while (i <= len && !rc) {
		char c = i < len ? text[i] : '\n';

		if (c == '\n' && in_comment && i < len) { /* a comment across lines: the directive goes on after it */
			line++;
			i++;
			continue;
		}
		if (i == len || c == '\n') {
			line++;
			if (lb.len && lb.buf[lb.len - 1] == '\\') { /* a continuation: the logical line goes on */
				lb.buf[--lb.len] = 0;
				i++;
				continue;
			}
			rc = logical(&s, lb.buf ? lb.buf : "", start, line, why, whylen);
			strbuf_reset(&lb);
			start = line;
			i++;
			continue;
		}
		if (in_comment) {
			if (c == '*' && i + 1 < len && text[i + 1] == '/') {
				in_comment = false;
				strbuf_addch(&lb, ' ');
				i += 2;
			} else {
				i++;
			}
			continue;
		}
		if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			in_comment = true;
			i += 2;
			continue;
		}
		if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		if (c == '"' || c == '\'') { /* a literal whole: a comment opener inside is text */
			strbuf_addch(&lb, c);
			for (i++; i < len && text[i] != c && text[i] != '\n'; i++) {
				if (text[i] == '\\' && i + 1 < len && text[i + 1] != '\n')
					strbuf_addch(&lb, text[i++]);
				strbuf_addch(&lb, text[i]);
			}
			if (i < len && text[i] == c)
				strbuf_addch(&lb, text[i++]);
			continue;
		}
		if (c == '\0') {
			snprintf(why, whylen, "line %u: a NUL byte", line);
			rc = -1;
			break;
		}
		strbuf_addch(&lb, c);
		i++;
	}
	strbuf_release(&lb);
	if (!rc && s.depth) {
		snprintf(why, whylen, "%zu #if left open at the end", s.depth);
		rc = -1;
	}
	while (s.depth) {
		s.depth--;
		free(s.stack[s.depth].sole);
		free_names(s.stack[s.depth].names, s.stack[s.depth].nnames);
	}
	free(s.stack);
	if (rc) {
		kt_ifblk_free(s.v, s.n);
		*out = NULL;
		*nout = 0;
		return -1;
	}
	*out = s.v;
	*nout = s.n;
	return 0;
}

void kt_ifblk_free(struct kt_ifblk *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free_names(v[i].opts, v[i].nopts);
	free(v);
}
