// SPDX-License-Identifier: GPL-2.0
// MAINTAINERS: sections (M:, R:, L:, S:) and their F:/X:/N: patterns, matched by the rules of scripts/get_maintainer.pl
// (6.1): F:/X: are globs anchored at the start of the path ('*' also crosses '/'); a pattern without a trailing '/'
// must have as many '/' as the path; X: excludes the section; depth = '/' count (+1 without a trailing '/'),
// -1 for patterns starting with '*' (THE REST), 0 for an N: regex; the last matching pattern of a section sets
// its depth. Sections sort by depth; on a tie a literal pattern beats a wildcard, then file order.
#include <ctype.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/xalloc.h"

struct pat {
	char *glob; /* as written, with '/' appended for an existing directory */
	int slashes;
	bool trailing; /* ends in '/' */
	bool wild;     /* contains * ? or [ */
	bool rest;     /* starts with '*' */
};

struct msec {
	struct kt_section pub;
	struct pat *f, *x;
	size_t nf, nx, capf, capx;
	regex_t *n;
	size_t nn, capn;
	size_t order;
};

struct kt_maint {
	struct msec *s;
	size_t n, cap;
};

static void add_str(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(char *));
	(*v)[(*n)++] = xstrdup(s);
}

static void add_pat(struct pat **v, size_t *n, size_t *cap, const char *val, const char *srcdir)
{
	struct pat p = {0};
	size_t len = strlen(val);

	p.wild = strpbrk(val, "*?[") != NULL;
	if (srcdir && !p.wild && len && val[len - 1] != '/' && !strchr(val, '.')) {
		char *path = kt_path(srcdir, val);
		if (kt_is_dir(path))
			p.glob = xasprintf("%s/", val);
		free(path);
	}
	if (!p.glob)
		p.glob = xstrdup(val);
	len = strlen(p.glob);
	p.trailing = len && p.glob[len - 1] == '/';
	for (const char *c = p.glob; *c; c++)
		p.slashes += *c == '/';
	p.rest = p.glob[0] == '*';
	XGROW(*v, *cap, *n + 1);
	(*v)[(*n)++] = p;
}

struct kt_maint *kt_maint_parse(const char *text, const char *srcdir)
{
	struct kt_maint *m = xcalloc(1, sizeof(*m));
	const char *start = strstr(text, "\nMaintainers List");
	struct msec *cur = NULL;

	/* the preamble explains the tags with examples; entries start after the "Maintainers List" heading */
	const char *l = start ? start + 1 : text;
	if (start) {
		const char *eol = strchr(l, '\n');
		l = eol ? eol + 1 : l + strlen(l);
	}
	while (*l) {
		const char *eol = strchr(l, '\n');
		size_t n = eol ? (size_t)(eol - l) : strlen(l);
		char *line = xstrndup(l, n);
		l += n + (eol ? 1 : 0);
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		if (!n) {
			cur = NULL;
		} else if (isupper((unsigned char)line[0]) && line[1] == ':' && (line[2] == '\t' || line[2] == ' ')) {
			char *v = line + 2;
			while (isspace((unsigned char)*v))
				v++;
			if (cur && *v) {
				switch (line[0]) {
				case 'F': add_pat(&cur->f, &cur->nf, &cur->capf, v, srcdir); break;
				case 'X': add_pat(&cur->x, &cur->nx, &cur->capx, v, srcdir); break;
				case 'N': {
					regex_t re;
					if (regcomp(&re, v, REG_EXTENDED | REG_NOSUB) == 0) {
						XGROW(cur->n, cur->capn, cur->nn + 1);
						cur->n[cur->nn++] = re;
					}
					break;
				}
				case 'M': add_str(&cur->pub.maintainers, &cur->pub.nmaintainers, v); break;
				case 'R': add_str(&cur->pub.reviewers, &cur->pub.nreviewers, v); break;
				case 'L': add_str(&cur->pub.lists, &cur->pub.nlists, v); break;
				case 'S':
					if (!cur->pub.status)
						cur->pub.status = xstrdup(v);
					break;
				default: break;
				}
			}
		} else if (!isspace((unsigned char)line[0]) && strspn(line, "-=") != n) {
			XGROW(m->s, m->cap, m->n + 1);
			cur = &m->s[m->n];
			memset(cur, 0, sizeof(*cur));
			cur->pub.name = xstrdup(line);
			cur->order = m->n++;
		}
		free(line);
	}
	return m;
}

size_t kt_maint_nsections(const struct kt_maint *m)
{
	return m ? m->n : 0;
}

/* Prefix match of a glob: '*' matches any run (also '/'), '?' one character, [...] a class. */
static bool glob_prefix(const char *p, const char *s, int depth)
{
	if (depth > 64)
		return false;
	for (;; p++, s++) {
		if (!*p)
			return true;
		if (*p == '*') {
			while (*p == '*')
				p++;
			if (!*p)
				return true;
			for (; *s; s++)
				if (glob_prefix(p, s, depth + 1))
					return true;
			return glob_prefix(p, s, depth + 1);
		}
		if (!*s)
			return false;
		if (*p == '?')
			continue;
		if (*p == '[') {
			const char *e = strchr(p + 1, ']');
			if (e) {
				bool neg = p[1] == '^' || p[1] == '!';
				bool hit = false;
				for (const char *c = p + 1 + neg; c < e; c++) {
					if (c + 2 < e && c[1] == '-') {
						hit |= *s >= c[0] && *s <= c[2];
						c += 2;
					} else {
						hit |= *s == *c;
					}
				}
				if (hit == neg)
					return false;
				p = e;
				continue;
			}
		}
		if (*p != *s)
			return false;
	}
}

static bool pat_match(const struct pat *p, const char *path, int path_slashes)
{
	if (!glob_prefix(p->glob, path, 0))
		return false;
	return p->trailing || p->slashes == path_slashes;
}

static int cmp_match(const void *a, const void *b)
{
	const struct kt_section_match *x = a, *y = b;

	if (x->depth != y->depth)
		return y->depth - x->depth;
	/* the literal flag and file order ride in the section order: see kt_maint_match */
	return 0;
}

struct ranked {
	struct kt_section_match m;
	bool literal;
	size_t order;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int c = cmp_match(&x->m, &y->m);

	if (c)
		return c;
	if (x->literal != y->literal)
		return x->literal ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

size_t kt_maint_match(const struct kt_maint *m, const char *path, struct kt_section_match **out)
{
	struct ranked *r = NULL;
	size_t n = 0, cap = 0;
	int slashes = 0;

	*out = NULL;
	if (!m)
		return 0;
	for (const char *c = path; *c; c++)
		slashes += *c == '/';
	for (size_t i = 0; i < m->n; i++) {
		const struct msec *s = &m->s[i];
		bool excluded = false, hit = false, literal = false;
		int depth = 0;
		for (size_t j = 0; j < s->nx && !excluded; j++)
			excluded = pat_match(&s->x[j], path, slashes);
		if (excluded)
			continue;
		for (size_t j = 0; j < s->nf; j++) {
			const struct pat *p = &s->f[j];
			if (!pat_match(p, path, slashes))
				continue;
			hit = true;
			depth = p->rest ? -1 : p->slashes + !p->trailing;
			literal = !p->wild;
		}
		for (size_t j = 0; j < s->nn; j++) {
			if (regexec(&s->n[j], path, 0, NULL, 0) == 0) {
				hit = true;
				depth = 0;
				literal = false;
			}
		}
		if (!hit)
			continue;
		XGROW(r, cap, n + 1);
		r[n].m.section = &s->pub;
		r[n].m.depth = depth;
		r[n].literal = literal;
		r[n].order = s->order;
		n++;
	}
	if (!n)
		return 0;
	qsort(r, n, sizeof(*r), cmp_ranked);
	*out = xcalloc(n, sizeof(**out));
	for (size_t i = 0; i < n; i++)
		(*out)[i] = r[i].m;
	free(r);
	return n;
}

void kt_maint_free(struct kt_maint *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++) {
		struct msec *s = &m->s[i];
		free(s->pub.name);
		free(s->pub.status);
		for (size_t j = 0; j < s->pub.nmaintainers; j++)
			free(s->pub.maintainers[j]);
		free(s->pub.maintainers);
		for (size_t j = 0; j < s->pub.nreviewers; j++)
			free(s->pub.reviewers[j]);
		free(s->pub.reviewers);
		for (size_t j = 0; j < s->pub.nlists; j++)
			free(s->pub.lists[j]);
		free(s->pub.lists);
		for (size_t j = 0; j < s->nf; j++)
			free(s->f[j].glob);
		free(s->f);
		for (size_t j = 0; j < s->nx; j++)
			free(s->x[j].glob);
		free(s->x);
		for (size_t j = 0; j < s->nn; j++)
			regfree(&s->n[j]);
		free(s->n);
	}
	free(m->s);
	free(m);
}
