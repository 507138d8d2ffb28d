// SPDX-License-Identifier: GPL-2.0
// Finds SYSCALL_DEFINEn / COMPAT_SYSCALL_DEFINEn / SYS_NI definitions, ksys_* helpers, `#include "x.c"` and the
// kernel/sys_ni.c COND_SYSCALL marks, with the #if stack around each. Only the directories that can hold
// syscalls are read: the whole tree is 1.5 GB, these are ~100 MB (see docs/ktree.md for the list and why).
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* One open #if: the conditions of the branch being read, and the negations of the branches already passed. */
struct frame {
	char *branch;  /* the expression of the current branch, NULL after #else */
	char *display; /* the directive as written, "#ifdef CONFIG_MEMBARRIER", for the conditions' text */
	int line;
	struct kt_condv cur;   /* conditions of the current branch */
	struct kt_condv prior; /* negations of the previous branches (#elif/#else) */
};

struct cppstate {
	struct frame *f;
	size_t n, cap;
	const char *rel;
};

static void frame_release(struct frame *f)
{
	free(f->branch);
	free(f->display);
	kt_condv_release(&f->cur);
	kt_condv_release(&f->prior);
}

/* The conditions in force now, innermost first. */
static void stack_conds(const struct cppstate *st, struct kt_condv *out)
{
	for (size_t i = st->n; i-- > 0;) {
		for (size_t j = 0; j < st->f[i].cur.n; j++)
			kt_condv_push(out, &st->f[i].cur.v[j]);
		for (size_t j = 0; j < st->f[i].prior.n; j++)
			kt_condv_push(out, &st->f[i].prior.v[j]);
	}
}

static char *where(const char *rel, int line)
{
	return xasprintf("%s:%d", rel, line);
}

/* Single-symbol conditions from cv->v[from] on show the directive as written (compound ones keep their expression). */
static void set_display(struct kt_condv *cv, size_t from, const char *prefix, const char *display)
{
	for (size_t i = from; i < cv->n; i++) {
		if (!cv->v[i].option)
			continue;
		free(cv->v[i].expr);
		cv->v[i].expr = xasprintf("%s%s", prefix, display);
	}
}

static void branch_open(struct cppstate *st, struct frame *f, const char *expr, const char *display, int line)
{
	char *w = where(st->rel, line);

	f->branch = xstrdup(expr);
	free(f->display);
	f->display = xstrdup(display);
	f->line = line;
	kt_cpp_conds(&f->cur, expr, false, KT_COND_SOURCE_IF, w);
	set_display(&f->cur, 0, "", display);
	free(w);
}

/* The branch ends: its negation joins the prior ones. */
static void branch_close(struct cppstate *st, struct frame *f)
{
	if (f->branch) {
		char *w = where(st->rel, f->line);
		size_t from = f->prior.n;
		kt_cpp_conds(&f->prior, f->branch, true, KT_COND_SOURCE_IF, w);
		set_display(&f->prior, from, "not ", f->display);
		free(w);
	}
	free(f->branch);
	f->branch = NULL;
	kt_condv_release(&f->cur);
}

static void directive(struct cppstate *st, const char *d, int line)
{
	while (*d == ' ' || *d == '\t')
		d++;
	const char *kw = d;
	while (isalpha((unsigned char)*d))
		d++;
	size_t kl = (size_t)(d - kw);
	while (*d == ' ' || *d == '\t')
		d++;
	/* drop a trailing comment from the expression */
	char *expr = xstrdup(d);
	char *c = strstr(expr, "/*");
	if (c)
		*c = '\0';
	c = strstr(expr, "//");
	if (c)
		*c = '\0';
	for (size_t n = strlen(expr); n && isspace((unsigned char)expr[n - 1]);)
		expr[--n] = '\0';

	if ((kl == 2 && !strncmp(kw, "if", 2)) || (kl == 5 && !strncmp(kw, "ifdef", 5)) ||
	    (kl == 6 && !strncmp(kw, "ifndef", 6))) {
		XGROW(st->f, st->cap, st->n + 1);
		struct frame *f = &st->f[st->n++];
		memset(f, 0, sizeof(*f));
		char *e = kl == 2 ? xstrdup(expr) : xasprintf("%sdefined(%s)", kl == 6 ? "!" : "", expr);
		char *disp = xasprintf("#%.*s %s", (int)kl, kw, expr);
		branch_open(st, f, e, disp, line);
		free(e);
		free(disp);
	} else if (kl == 4 && !strncmp(kw, "elif", 4) && st->n) {
		char *disp = xasprintf("#elif %s", expr);
		branch_close(st, &st->f[st->n - 1]);
		branch_open(st, &st->f[st->n - 1], expr, disp, line);
		free(disp);
	} else if (kl == 4 && !strncmp(kw, "else", 4) && st->n) {
		branch_close(st, &st->f[st->n - 1]);
	} else if (kl == 5 && !strncmp(kw, "endif", 5) && st->n) {
		frame_release(&st->f[--st->n]);
	}
	free(expr);
}

static void reach_conds(const void *st, struct kt_condv *out)
{
	stack_conds(st, out);
}

static bool reach_line(struct kt_scan *sc, struct kt_reach_cursor *cur, const char *rel, const char *text, size_t len,
		       const char *l, const char *eol, int line, const struct kt_reach_at *at)
{
	size_t before = sc->ndefs;

	kt_reach_scan_line(sc, cur, rel, text, len, l, eol, line, at);
	return sc->ndefs != before;
}

static void add_def(struct kt_scan *sc, struct cppstate *st, const char *name, size_t nlen, const char *macro,
		    bool compat, int line)
{
	XGROW(sc->defs, sc->capdefs, sc->ndefs + 1);
	struct kt_def *d = &sc->defs[sc->ndefs++];
	memset(d, 0, sizeof(*d));
	d->name = xstrndup(name, nlen);
	d->macro = xstrdup(macro);
	d->compat = compat;
	d->file = xstrdup(st->rel);
	d->line = line;
	stack_conds(st, &d->conds);
}

/*
 * A definition is a wrapper when its body is short and hands over to a ksys_*() helper (x86_64 mmap calls
 * ksys_mmap_pgoff): returns the helper's name, or NULL.
 */
static char *wrapper_target(const char *p, const char *end)
{
	const char *b = memchr(p, '{', (size_t)(end - p));
	int depth = 0, lines = 0;

	if (!b)
		return NULL;
	for (const char *q = b; q < end; q++) {
		if (*q == '{')
			depth++;
		else if (*q == '}' && --depth == 0) {
			if (lines > 20)
				return NULL;
			const char *k = memmem(b, (size_t)(q - b), "ksys_", 5);
			if (!k)
				return NULL;
			size_t n = kt_ident_len(k, q);
			return xstrndup(k, n);
		} else if (*q == '\n')
			lines++;
	}
	return NULL;
}

/*
 * A function definition of a ksys_* helper at column 0: "type ksys_name(args...)\n{" (or of sc->want_func, for
 * a row of the reach table).
 */
static void maybe_ksys(struct kt_scan *sc, struct cppstate *st, const char *l, const char *eol, const char *end,
		       int line)
{
	const char *want = sc->want_func ? sc->want_func : "ksys_";
	size_t wn = strlen(want);

	if (!isalpha((unsigned char)*l))
		return;
	const char *k = memmem(l, (size_t)(eol - l), want, wn);
	if (!k || (k > l && (isalnum((unsigned char)k[-1]) || k[-1] == '_')))
		return;
	size_t n = kt_ident_len(k, eol);
	if (k + n >= eol || k[n] != '(' || (sc->want_func && n != wn))
		return;
	/* the parameter list may span lines; a definition is followed by '{', a prototype by ';' */
	int depth = 0;
	const char *q;
	for (q = k + n; q < end; q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')' && --depth == 0)
			break;
	}
	if (q >= end)
		return;
	for (q++; q < end && isspace((unsigned char)*q);)
		q++;
	if (q < end && *q == '{')
		add_def(sc, st, k, n, "FUNC", false, line);
}

static void add_include(struct kt_scan *sc, struct cppstate *st, const char *name, size_t n, int line)
{
	char *dir = xstrdup(st->rel);
	char *slash = strrchr(dir, '/');

	if (slash)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	XGROW(sc->incs, sc->capincs, sc->nincs + 1);
	struct kt_inc *inc = &sc->incs[sc->nincs++];
	memset(inc, 0, sizeof(*inc));
	inc->file = xasprintf("%s%.*s", dir, (int)n, name);
	inc->by = xstrdup(st->rel);
	inc->line = line;
	stack_conds(st, &inc->conds);
	free(dir);
}

static bool has(const char *text, size_t len, const char *needle)
{
	return memmem(text, len, needle, strlen(needle)) != NULL;
}

void kt_scan_text(struct kt_scan *sc, const char *rel, const char *text, size_t len)
{
	bool is_ni = strcmp(rel, "kernel/sys_ni.c") == 0;
	bool want_defs =
	    has(text, len, "SYSCALL_DEFINE") || has(text, len, "SYSCALL32_DEFINE") || has(text, len, "SYS_NI(");
	bool want_ksys = has(text, len, sc->want_func ? sc->want_func : "ksys_");
	struct kt_reach_cursor cur;
	bool want_reach = !sc->want_func && kt_reach_wanted(&cur, rel, text, len);
	bool want_inc = has(text, len, ".c\"");
	bool want_arch = has(text, len, "__ARCH_WANT_");
	bool want_fn = !sc->want_func && kt_reach_fn_wanted(&sc->fn_want, text, len);

	if (!want_defs && !want_ksys && !want_inc && !is_ni && !want_arch && !want_reach && !want_fn)
		return;

	struct cppstate st = {.rel = rel};
	struct kt_reach_at at = {reach_conds, &st};
	const char *end = text + len;
	int line = 1;
	struct strbuf dir = STRBUF_INIT;

	for (const char *l = text; l < end;) {
		const char *eol = memchr(l, '\n', (size_t)(end - l));
		if (!eol)
			eol = end;
		int this_line = line;
		const char *p = l;
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (p < eol && *p == '#') {
			/* join continuation lines of a directive */
			strbuf_reset(&dir);
			const char *q = p + 1;
			for (;;) {
				const char *e = eol;
				bool cont = e > q && e[-1] == '\\';
				strbuf_add(&dir, q, (size_t)((cont ? e - 1 : e) - q));
				if (!cont || eol >= end)
					break;
				q = eol + 1;
				eol = memchr(q, '\n', (size_t)(end - q));
				if (!eol)
					eol = end;
				line++;
				strbuf_addch(&dir, ' ');
			}
			const char *d = dir.buf;
			while (*d == ' ' || *d == '\t')
				d++;
			if (!strncmp(d, "include", 7) && want_inc) {
				const char *a = strchr(d, '"'), *b = a ? strchr(a + 1, '"') : NULL;
				if (a && b && b - a > 3 && !strncmp(b - 2, ".c", 2))
					add_include(sc, &st, a + 1, (size_t)(b - a - 1), this_line);
			} else if (!strncmp(d, "define", 6) && (want_arch || want_inc)) {
				const char *m = d + 6;
				if (want_inc)
					kt_reach_scan_define(sc, rel, d, this_line, &at);
				while (*m == ' ' || *m == '\t')
					m++;
				if (want_arch && !strncmp(m, "__ARCH_WANT_", 12)) {
					size_t n = kt_ident_len(m, m + strlen(m));
					char *name = xstrndup(m, n);
					struct kt_condv cv = {0};
					stack_conds(&st, &cv);
					kt_strv_push(&sc->arch_want, name);
					sc->arch_want_conds = xrealloc(sc->arch_want_conds,
								       sc->arch_want.n * sizeof(*sc->arch_want_conds));
					sc->arch_want_conds[sc->arch_want.n - 1] = cv;
					free(name);
				}
			} else {
				directive(&st, d, this_line);
			}
		} else if (want_reach && p < eol && reach_line(sc, &cur, rel, text, len, l, eol, this_line, &at)) {
			/* a registration line defines no syscall */
		} else if ((want_defs || is_ni) && p < eol && (*p == 'S' || *p == 'C')) {
			bool compat = !strncmp(p, "COMPAT_SYSCALL_DEFINE", 21);
			const char *m = compat ? p + 21 : !strncmp(p, "SYSCALL_DEFINE", 14) ? p + 14 : NULL;
			if (m && m < eol && isdigit((unsigned char)*m) && m + 1 < eol && m[1] == '(') {
				const char *name = m + 2;
				size_t n = kt_ident_len(name, eol);
				if (n) {
					char macro[32];
					snprintf(macro, sizeof(macro), "%sSYSCALL_DEFINE%c", compat ? "COMPAT_" : "",
						 *m);
					add_def(sc, &st, name, n, macro, compat, this_line);
					sc->defs[sc->ndefs - 1].calls_ksys = wrapper_target(eol, end);
				}
			} else if (!strncmp(p, "SYSCALL32_DEFINE", 16) && p + 18 < eol &&
				   isdigit((unsigned char)p[16]) && p[17] == '(') {
				/* include/linux/syscalls.h: COMPAT_SYSCALL_DEFINEn with CONFIG_COMPAT, else
				 * SYSCALL_DEFINEn */
				size_t n = kt_ident_len(p + 18, eol);
				for (int c32 = 1; n && c32 >= 0; c32--) {
					char macro[32];
					snprintf(macro, sizeof(macro), "SYSCALL32_DEFINE%c", p[16]);
					add_def(sc, &st, p + 18, n, macro, c32, this_line);
					struct kt_cond c;
					char *w = where(st.rel, this_line);
					kt_cond_single(
					    &c, KT_COND_SOURCE_IF, "COMPAT", !c32,
					    "SYSCALL32_DEFINE (include/linux/syscalls.h: #ifdef CONFIG_COMPAT)", w);
					kt_condv_push(&sc->defs[sc->ndefs - 1].conds, &c);
					kt_cond_release(&c);
					free(w);
				}
			} else if (!strncmp(p, "SYS_NI(", 7)) {
				size_t n = kt_ident_len(p + 7, eol);
				if (n)
					add_def(sc, &st, p + 7, n, "SYS_NI", false, this_line);
			} else if (is_ni && !strncmp(p, "COND_SYSCALL", 12)) {
				bool c = !strncmp(p + 12, "_COMPAT(", 8);
				const char *a = c ? p + 20 : p[12] == '(' ? p + 13 : NULL;
				if (a) {
					size_t n = kt_ident_len(a, eol);
					char *nm = xasprintf("%s%.*s", c ? "compat_" : "", (int)n, a);
					kt_strv_push(&sc->cond_syscalls, nm);
					free(nm);
				}
			}
		} else if ((want_ksys || want_fn) && p == l && p < eol) {
			if (want_ksys)
				maybe_ksys(sc, &st, l, eol, end, this_line);
			if (want_fn)
				kt_reach_fn_line(sc, rel, l, eol, end, this_line, &at);
		}
		line++;
		l = eol < end ? eol + 1 : end;
	}
	while (st.n)
		frame_release(&st.f[--st.n]);
	free(st.f);
	strbuf_release(&dir);
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

static void scan_file(struct kt_scan *sc, const char *srcdir, const char *rel)
{
	char *path = kt_path(srcdir, rel);
	size_t len;
	char *text = kt_read_tree_file(path, &len);

	free(path);
	kt_strv_push(&sc->seen, rel);
	if (!text)
		return; /* unreadable: the syscalls it would define show up as unresolved */
	sc->files_read++;
	sc->bytes_read += len;
	kt_scan_text(sc, rel, text, len);
	free(text);
}

/* .c files, and every directory but skip (ctx) */
static bool scan_wants(const char *rel, const char *name, bool is_dir, const void *skip)
{
	return is_dir ? !(skip && strcmp(rel, skip) == 0) : ends_with(name, ".c");
}

static void walk(struct kt_scan *sc, const char *srcdir, const char *rel, const char *skip, int depth)
{
	struct kt_strv subdirs = {0}, files = {0};

	if (depth > 32)
		return;
	kt_strv_push(&sc->seen, rel);
	if (!kt_list_dir(srcdir, rel, scan_wants, skip, &subdirs, &files))
		return;
	for (size_t i = 0; i < files.n; i++)
		scan_file(sc, srcdir, files.v[i]);
	for (size_t i = 0; i < subdirs.n; i++)
		walk(sc, srcdir, subdirs.v[i], skip, depth + 1);
	kt_strv_release(&files);
	kt_strv_release(&subdirs);
}

int kt_scan_tree(struct kt_scan *sc, const char *srcdir, const char *arch, char **err)
{
	/*
	 * Every SYSCALL_DEFINE of 6.1 lives under these; drivers/ is 876 MB, of which only char/ and pci/ count. The
	 * rest are read for what refinements reach: the tty, block, base (devtmpfs) and input drivers' majors, KVM.
	 */
	static const char *const dirs[] = {"fs",	   "mm",       "kernel",      "net",	       "ipc",
					   "security",	   "io_uring", "block",	      "drivers/char",  "drivers/pci",
					   "init",	   "virt",     "drivers/tty", "drivers/block", "drivers/base",
					   "drivers/input"};
	char *archdir = xasprintf("arch/%s", arch);
	char *skip = xasprintf("arch/%s/um", arch); /* user-mode Linux, not built for the arch itself */
	char *unistd = xasprintf("arch/%s/include/asm/unistd.h", arch);

	kt_reach_switch_want(sc, srcdir);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		walk(sc, srcdir, dirs[i], NULL, 0);
	walk(sc, srcdir, archdir, skip, 0);
	scan_file(sc, srcdir, unistd);
	scan_file(sc, srcdir, "include/linux/bpf_types.h"); /* the bpf program and map types, and their options */
	/*
	 * netlink protocols registered outside those directories (crypto_user's, the connector's); not udev's
	 * NETLINK_KOBJECT_UEVENT in lib/, which only the top Makefile's libs-y descends into (the Kbuild walk ends at
	 * the top Kbuild)
	 */
	static const char *const netlink_files[] = {"crypto/crypto_user_base.c", "drivers/connector/connector.c"};
	for (size_t i = 0; i < sizeof(netlink_files) / sizeof(netlink_files[0]); i++)
		scan_file(sc, srcdir, netlink_files[i]);
	free(archdir);
	free(skip);
	free(unistd);
	if (sc->ndefs == 0) {
		*err = xasprintf("no SYSCALL_DEFINE found under '%s' (not a kernel source tree?)", srcdir);
		return -1;
	}
	return 0;
}

void kt_scan_release(struct kt_scan *sc)
{
	for (size_t i = 0; i < sc->ndefs; i++) {
		struct kt_def *d = &sc->defs[i];
		free(d->name);
		free(d->macro);
		free(d->file);
		free(d->calls_ksys);
		kt_condv_release(&d->conds);
	}
	free(sc->defs);
	for (size_t i = 0; i < sc->nincs; i++) {
		free(sc->incs[i].file);
		free(sc->incs[i].by);
		kt_condv_release(&sc->incs[i].conds);
	}
	free(sc->incs);
	kt_strv_release(&sc->cond_syscalls);
	kt_strv_release(&sc->seen);
	kt_map_release(&sc->fn_want, NULL);
	for (size_t i = 0; i < sc->arch_want.n; i++)
		kt_condv_release(&sc->arch_want_conds[i]);
	free(sc->arch_want_conds);
	kt_strv_release(&sc->arch_want);
	memset(sc, 0, sizeof(*sc));
}
