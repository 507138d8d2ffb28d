// SPDX-License-Identifier: GPL-2.0
// Refinements whose value is a case of one switch in the tree (fcntl's command, seccomp's operation): the code a
// value reaches is what its case calls. Before the walk, the switch's cases are read and the functions they call
// become wanted (kt_reach_switch_want); the walk records the column-0 definitions of those functions with their
// #if stacks as "fn NAME" facts (kt_reach_fn_wanted, kt_reach_fn_line); before resolving, each case becomes a
// target "KIND CASE" at the first of its callees the walk found defined in a .c file, else at the case itself
// (kt_reach_switches). So F_NOTIFY -> fcntl_dirnotify() in fs/notify/dnotify/dnotify.c (DNOTIFY) and
// SECCOMP_SET_MODE_FILTER -> seccomp_set_mode_filter() under #ifdef CONFIG_SECCOMP_FILTER come from the tree.
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/xalloc.h"

/* The switches: which kind of refinement their case labels are, and where they are. */
static const struct {
	const char *kind, *file, *func;
} switches[] = {
    {"fcntl", "fs/fcntl.c", "do_fcntl"}, /* fcntl(2)'s commands, after the fd checks of SYSCALL_DEFINE3(fcntl) */
    {"seccomp", "kernel/seccomp.c", "do_seccomp"}, /* seccomp(2)'s operations; prctl(PR_SET_SECCOMP) maps to them */
};

/* Names a case calls that are never the code it reaches: statements and the kernel's own macros' lowercase kin. */
static bool keyword(const char *p, size_t n)
{
	static const char *const kw[] = {"if", "while", "for", "switch", "return", "sizeof", "likely", "unlikely"};

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (strlen(kw[i]) == n && !memcmp(p, kw[i], n))
			return true;
	return false;
}

/* The body of func's column-0 definition in text ("static long do_fcntl(...)\n{"): [*b, *e) inside its braces. */
static bool function_body(const char *text, size_t len, const char *func, const char **b, const char **e)
{
	const char *end = text + len;
	size_t fn = strlen(func);

	for (const char *p = text; (p = memmem(p, (size_t)(end - p), func, fn)); p += fn) {
		const char *q = p + fn, *ls = p;
		while (ls > text && ls[-1] != '\n')
			ls--;
		if ((p > text && kt_ident_char((unsigned char)p[-1])) || q >= end || *q != '(' || ls == p ||
		    !kt_ident_char((unsigned char)*ls))
			continue;
		const char *brace = strstr(q, "\n{");
		const char *semi = memchr(q, ';', (size_t)(end - q));
		if (!brace || (semi && semi < brace))
			continue; /* a prototype */
		int depth = 0;
		for (const char *r = brace + 1; r < end; r++) {
			if (*r == '{')
				depth++;
			else if (*r == '}' && --depth == 0) {
				*b = brace + 2;
				*e = r;
				return true;
			}
		}
		return false;
	}
	return false;
}

/* One case group of a switch: its labels, the calls of its body in order, and the line of its first label. */
struct kt_case {
	struct kt_strv labels, calls;
	int line;
};

static int line_at(const char *text, const char *p)
{
	int line = 1;

	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

/*
 * The cases of the first switch in [b, e): labels at the switch's own depth (a nested switch's are its own), a
 * group of labels shares the body that follows them (fallthrough; between labels included).
 */
static size_t read_cases(const char *text, const char *b, const char *e, struct kt_case **out)
{
	const char *sw = memmem(b, (size_t)(e - b), "switch (", 8);
	struct kt_case *cs = NULL;
	size_t n = 0, cap = 0;
	int depth = 0;
	bool body = false; /* the current group has statements: the next label starts another */

	if (!sw || !(sw = memchr(sw, '{', (size_t)(e - sw))))
		return 0;
	for (const char *p = sw; p < e; p++) {
		if (*p == '{' || *p == '}') {
			depth += *p == '{' ? 1 : -1;
			if (depth == 0)
				break;
			continue;
		}
		if (*p == '/' && p + 1 < e && p[1] == '*') {
			const char *c = memmem(p, (size_t)(e - p), "*/", 2);
			p = c ? c + 1 : e;
			continue;
		}
		if ((*p == '/' && p + 1 < e && p[1] == '/') || (*p == '#' && p[-1] == '\n')) {
			/* a comment, or a directive (#if BITS_PER_LONG != 32 between two labels): not the case's code
			 */
			const char *c = memchr(p, '\n', (size_t)(e - p));
			p = c ? c : e;
			continue;
		}
		if (!kt_ident_char((unsigned char)*p) || (p > b && kt_ident_char((unsigned char)p[-1])))
			continue;
		size_t k = kt_ident_len(p, e);
		if (depth == 1 && k == 4 && !memcmp(p, "case", 4)) {
			const char *l = p + 4;
			while (l < e && (*l == ' ' || *l == '\t'))
				l++;
			size_t m = kt_ident_len(l, e);
			if (!m)
				continue;
			if (!n || body) {
				XGROW(cs, cap, n + 1);
				memset(&cs[n], 0, sizeof(cs[n]));
				cs[n++].line = line_at(text, p);
				body = false;
			}
			char *label = xstrndup(l, m);
			kt_strv_push(&cs[n - 1].labels, label);
			free(label);
			p = l + m - 1;
			continue;
		}
		if (depth == 1 && k == 7 && !memcmp(p, "default", 7)) {
			body = true; /* what follows default: is no case of its own */
			p += k - 1;
			continue;
		}
		const char *q = p + k;
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		bool fallthrough = k == 11 && !memcmp(p, "fallthrough", 11);
		if (n && !fallthrough)
			body = true;
		if (n && q < e && *q == '(' && !keyword(p, k)) {
			char *name = xstrndup(p, k);
			kt_strv_push(&cs[n - 1].calls, name);
			free(name);
		}
		p += k - 1;
	}
	*out = cs;
	return n;
}

static void cases_release(struct kt_case *cs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		kt_strv_release(&cs[i].labels);
		kt_strv_release(&cs[i].calls);
	}
	free(cs);
}

/* The cases of switch s of the tree (none when the tree lacks its file or function: another version). */
static size_t switch_cases(const char *srcdir, size_t s, struct kt_case **cs)
{
	char *path = kt_path(srcdir, switches[s].file);
	size_t len, n = 0;
	char *text = kt_read_tree_file(path, &len);
	const char *b, *e;

	free(path);
	*cs = NULL;
	if (text && function_body(text, len, switches[s].func, &b, &e))
		n = read_cases(text, b, e, cs);
	free(text);
	return n;
}

void kt_reach_switch_want(struct kt_scan *sc, const char *srcdir)
{
	for (size_t s = 0; s < sizeof(switches) / sizeof(switches[0]); s++) {
		struct kt_case *cs;
		size_t n = switch_cases(srcdir, s, &cs);

		kt_strv_push(&sc->seen, switches[s].file);
		kt_map_put(&sc->fn_want, switches[s].func, (void *)1); /* a case that calls nothing found is itself */
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < cs[i].calls.n; j++)
				kt_map_put(&sc->fn_want, cs[i].calls.v[j], (void *)1);
		cases_release(cs, n);
	}
}

/* The name of the function whose body opens at "\n{" (brace), if its declaration has the usual shape. */
static bool defined_name(const char *text, const char *brace, const char **name, size_t *n)
{
	const char *p = brace;
	int depth = 0;

	/* back over the parameter list to its '(' */
	while (p > text && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n'))
		p--;
	if (p <= text || p[-1] != ')')
		return false;
	for (p--; p > text; p--) {
		if (*p == ')')
			depth++;
		else if (*p == '(' && --depth == 0)
			break;
	}
	const char *q = p;
	while (q > text && kt_ident_char((unsigned char)q[-1]))
		q--;
	*name = q;
	*n = (size_t)(p - q);
	return *n > 0;
}

bool kt_reach_fn_wanted(const struct kt_map *want, const char *text, size_t len)
{
	const char *end = text + len;
	char buf[128];

	if (!want->len)
		return false;
	for (const char *p = text; (p = memmem(p, (size_t)(end - p), "\n{", 2)); p += 2) {
		const char *name;
		size_t n;
		if (defined_name(text, p, &name, &n) && n < sizeof(buf)) {
			memcpy(buf, name, n);
			buf[n] = '\0';
			if (kt_map_get(want, buf))
				return true;
		}
	}
	return false;
}

void kt_reach_fn_line(struct kt_scan *sc, const char *rel, const char *l, const char *eol, const char *end, int line,
		      const struct kt_reach_at *at)
{
	char buf[128];

	if (!kt_ident_char((unsigned char)*l) || !strstr(rel, ".c"))
		return;
	for (const char *p = l; p < eol; p++) {
		if (!kt_ident_char((unsigned char)*p) || (p > l && kt_ident_char((unsigned char)p[-1])))
			continue;
		size_t n = kt_ident_len(p, eol);
		if (p + n >= eol || p[n] != '(' || n >= sizeof(buf)) {
			p += n ? n - 1 : 0;
			continue;
		}
		memcpy(buf, p, n);
		buf[n] = '\0';
		if (!kt_map_get(&sc->fn_want, buf))
			return; /* the first call-shaped name of a column-0 line is the one it defines, if any */
		/* a definition: its parameter list is followed by '{', a prototype's by ';' */
		int depth = 0;
		const char *q;
		for (q = p + n; q < end; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')' && --depth == 0)
				break;
		}
		for (q = q < end ? q + 1 : q; q < end && (*q == ' ' || *q == '\t' || *q == '\n');)
			q++;
		if (q < end && *q == '{') {
			char *key = xasprintf("fn %s", buf);
			at->conds(at->st, &kt_reach_push(sc, key, "FN", rel, line, buf)->conds);
			free(key);
		}
		return;
	}
}

static const struct kt_def *fn_def(const struct kt_scan *sc, const char *name, const char *prefer)
{
	const struct kt_def *first = NULL;

	/* the switch's own file first (a static helper), else the first definition the walk found */
	for (size_t i = 0; i < sc->ndefs; i++) {
		const struct kt_def *d = &sc->defs[i];
		if (strncmp(d->name, "fn ", 3) || strcmp(d->name + 3, name))
			continue;
		if (!strcmp(d->file, prefer))
			return d;
		if (!first)
			first = d;
	}
	return first;
}

void kt_reach_switches(struct kt_scan *sc, const char *srcdir)
{
	for (size_t s = 0; s < sizeof(switches) / sizeof(switches[0]); s++) {
		struct kt_case *cs;
		size_t n = switch_cases(srcdir, s, &cs);
		const struct kt_def *self = n ? fn_def(sc, switches[s].func, switches[s].file) : NULL;
		size_t self_i = self ? (size_t)(self - sc->defs) : 0;

		for (size_t i = 0; i < n; i++) {
			const struct kt_def *to = NULL;
			for (size_t j = 0; j < cs[i].calls.n && !to; j++)
				to = fn_def(sc, cs[i].calls.v[j], switches[s].file);
			size_t to_i = to ? (size_t)(to - sc->defs) : 0;
			for (size_t k = 0; k < cs[i].labels.n; k++) {
				char *key = xasprintf("%s %s", switches[s].kind, cs[i].labels.v[k]);
				char *how = xasprintf("case of %s()", switches[s].func);
				/* kt_reach_push may move the array: indexes, not pointers, across it */
				struct kt_def *d =
				    to ? kt_reach_push(sc, key, how, sc->defs[to_i].file, sc->defs[to_i].line,
						       sc->defs[to_i].calls_ksys)
				       : kt_reach_push(sc, key, how, switches[s].file, cs[i].line, switches[s].func);
				const struct kt_def *from = to ? &sc->defs[to_i] : self ? &sc->defs[self_i] : NULL;
				for (size_t c = 0; from && c < from->conds.n; c++)
					kt_condv_push(&d->conds, &from->conds.v[c]);
				free(key);
				free(how);
			}
		}
		cases_release(cs, n);
	}
}
