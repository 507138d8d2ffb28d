// SPDX-License-Identifier: GPL-2.0
// The function definition index's scanner (kt_fdefs_internal.h): a line scanner, not a parser, for the
// definitions of a .c, .h or .S file: a name followed by a parameter list and a body at column 0, the symbols
// the kernel's definition macros make (SYSCALL_DEFINE, BPF_CALL, DEFINE_SHOW_ATTRIBUTE, SYM_FUNC_START...), and
// a count of the column-0 macros it does not know.
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ktree/kt_fdefs_internal.h"
#include "util/xalloc.h"

static void add(struct kt_fdefs *d, uint32_t file, int line, uint32_t via, const char *name, size_t n)
{
	if (!n || n > 200)
		return;
	XGROW(d->raw, d->capraw, d->nraw + 1);
	d->raw[d->nraw++] = (struct kt_fdef_raw){(uint32_t)d->pool.len, file, line, via};
	strbuf_add(&d->pool, name, n);
	strbuf_addch(&d->pool, '\0');
}

static void addf(struct kt_fdefs *d, uint32_t file, int line, uint32_t via, const char *pre, const char *name, size_t n,
		 const char *post)
{
	char buf[256];
	int k = snprintf(buf, sizeof(buf), "%s%.*s%s", pre, (int)n, name, post);

	if (k > 0 && (size_t)k < sizeof(buf))
		add(d, file, line, via, buf, (size_t)k);
}

static bool all_caps(const char *s, size_t n)
{
	bool upper = false;

	for (size_t i = 0; i < n; i++) {
		if (islower((unsigned char)s[i]))
			return false;
		upper |= isupper((unsigned char)s[i]);
	}
	return upper;
}

static bool keyword(const char *s, size_t n)
{
	static const char *const kw[] = {"if",	   "for",	 "while",   "switch",	    "return",  "sizeof",
					 "typeof", "__typeof__", "defined", "asm",	    "__asm__", "do",
					 "else",   "case",	 "goto",    "__attribute__"};

	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (strlen(kw[i]) == n && !memcmp(kw[i], s, n))
			return true;
	return false;
}

/* Past a comment or blank space; NULL at end. */
static const char *skip_space(const char *p, const char *end)
{
	while (p < end) {
		if (isspace((unsigned char)*p)) {
			p++;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *e = memmem(p + 2, (size_t)(end - p - 2), "*/", 2);
			if (!e)
				return NULL;
			p = e + 2;
		} else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
			const char *e = memchr(p, '\n', (size_t)(end - p));
			if (!e)
				return NULL;
			p = e + 1;
		} else {
			return p;
		}
	}
	return NULL;
}

/* p at '(': past its matching ')', within a bound; NULL when none. */
static const char *past_parens(const char *p, const char *end)
{
	int depth = 0;
	const char *lim = end - p > 16384 ? p + 16384 : end;

	for (; p < lim; p++) {
		if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			if (--depth == 0)
				return p + 1;
		} else if (*p == ';' || *p == '{' || *p == '}') {
			return NULL; /* not a parameter list */
		}
	}
	return NULL;
}

/*
 * After a parameter list: the character that follows once annotations are passed (__acquires(x), __releases(x),
 * __must_hold(x), __attribute__((...)), __init), or 0.
 */
static char after_params(const char *p, const char *end)
{
	for (int guard = 0; guard < 8; guard++) {
		p = skip_space(p, end);
		if (!p)
			return 0;
		if (*p != '_')
			return *p;
		p += kt_ident_len(p, end);
		const char *q = skip_space(p, end);
		if (q && *q == '(') {
			p = past_parens(q, end);
			if (!p)
				return 0;
		}
	}
	return 0;
}

/* The first argument of a macro call at p ('('): the identifier, *n its length. */
static const char *first_arg(const char *p, const char *end, size_t *n)
{
	p = skip_space(p + 1, end);
	*n = p ? kt_ident_len(p, end) : 0;
	return p;
}

static void count_unparsed(struct kt_fdefs *d, const char *m, size_t n)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*s", (int)(n < 63 ? n : 63), m);
	uintptr_t c = (uintptr_t)kt_map_get(&d->unparsed, buf);
	kt_map_put(&d->unparsed, buf, (void *)(c + 1));
	d->st.unparsed++;
}

/* A MACRO(...) at column 0 followed by c ('{' for a body, ';' or other for a declaration). */
static void macro_def(struct kt_fdefs *d, uint32_t file, int line, const char *m, size_t mn, const char *paren,
		      const char *end, char c)
{
	size_t n;
	const char *a = first_arg(paren, end, &n);

	if (!a || !n)
		return;
#define IS(s)	  (mn == strlen(s) && !memcmp(m, s, mn))
#define PREFIX(s) (mn == strlen(s) + 1 && !memcmp(m, s, strlen(s)) && isdigit((unsigned char)m[mn - 1]))
	if (c == '{' && (PREFIX("SYSCALL_DEFINE") || PREFIX("SYSCALL32_DEFINE"))) {
		/* include/linux/syscalls.h and arch/x86/include/asm/syscall_wrapper.h: the symbols kallsyms shows */
		addf(d, file, line, VIA_SYSCALL, "__x64_sys_", a, n, "");
		addf(d, file, line, VIA_SYSCALL, "__ia32_sys_", a, n, "");
		addf(d, file, line, VIA_SYSCALL, "__se_sys_", a, n, "");
		addf(d, file, line, VIA_SYSCALL, "__do_sys_", a, n, "");
		d->st.by_macro += 4;
	} else if (c == '{' && PREFIX("COMPAT_SYSCALL_DEFINE")) {
		addf(d, file, line, VIA_COMPAT, "__ia32_compat_sys_", a, n, "");
		addf(d, file, line, VIA_COMPAT, "__x32_compat_sys_", a, n, "");
		addf(d, file, line, VIA_COMPAT, "__se_compat_sys_", a, n, "");
		addf(d, file, line, VIA_COMPAT, "__do_compat_sys_", a, n, "");
		d->st.by_macro += 4;
	} else if (c == '{' && PREFIX("BPF_CALL_")) {
		add(d, file, line, VIA_BPF, a, n);
		addf(d, file, line, VIA_BPF, "____", a, n, "");
		d->st.by_macro += 2;
	} else if (c != '{' &&
		   (IS("DEFINE_SHOW_ATTRIBUTE") || IS("DEFINE_SEQ_ATTRIBUTE") || IS("DEFINE_PROC_SHOW_ATTRIBUTE") ||
		    IS("DEFINE_SIMPLE_ATTRIBUTE") || IS("DEFINE_DEBUGFS_ATTRIBUTE"))) {
		uint32_t via = IS("DEFINE_SHOW_ATTRIBUTE")	  ? VIA_SHOW
			       : IS("DEFINE_SEQ_ATTRIBUTE")	  ? VIA_SEQ
			       : IS("DEFINE_PROC_SHOW_ATTRIBUTE") ? VIA_PROC
			       : IS("DEFINE_SIMPLE_ATTRIBUTE")	  ? VIA_SIMPLE
								  : VIA_DEBUGFS;
		addf(d, file, line, via, "", a, n, "_open");
		d->st.by_macro++;
	} else if (c == '{' && mn >= 15 && !memcmp(m, "DEFINE_IDTENTRY", 15)) {
		/* arch/x86/include/asm/idtentry.h: the entry point and the __name body it calls */
		add(d, file, line, VIA_IDT, a, n);
		addf(d, file, line, VIA_IDT, "__", a, n, "");
		d->st.by_macro += 2;
	} else if (c == '{') {
		count_unparsed(d, m, mn);
	}
#undef IS
#undef PREFIX
}

/* arch/x86 assembly: SYM_FUNC_START(name), SYM_CODE_START(name) and their _LOCAL, _NOALIGN, _WEAK forms. */
static void scan_asm(struct kt_fdefs *d, uint32_t file, const char *text, size_t len)
{
	const char *end = text + len;
	int line = 1;

	if (!memmem(text, len, "SYM_", 4))
		return;
	for (const char *l = text; l < end;) {
		const char *eol = memchr(l, '\n', (size_t)(end - l));
		if (!eol)
			eol = end;
		if (!strncmp(l, "SYM_FUNC_START", 14) || !strncmp(l, "SYM_CODE_START", 14)) {
			const char *p = memchr(l, '(', (size_t)(eol - l));
			size_t n;
			if (p) {
				const char *a = first_arg(p, eol, &n);
				if (a && n) {
					add(d, file, line, VIA_SYM, a, n);
					d->st.by_macro++;
				}
			}
		}
		line++;
		l = eol + 1;
	}
}

static void scan_text(struct kt_fdefs *d, uint32_t file, const char *text, size_t len, bool header, bool private_header)
{
	const char *end = text + len;
	int line = 1;

	/*
	 * A public header (include/, arch/x86/include/) contributes its inlines only, and is looked at line by line
	 * only when it has one; a private one next to the .c files (kernel/rcu/tree_plugin.h, #included by
	 * tree.c) holds ordinary definitions too.
	 */
	if (header && !private_header && !memmem(text, len, "inline", 6))
		return;
	for (const char *l = text; l < end; line++) {
		const char *eol = memchr(l, '\n', (size_t)(end - l));
		if (!eol)
			eol = end;
		const char *cur = l;
		l = eol + 1;
		if (!isalpha((unsigned char)*cur) && *cur != '_')
			continue;
		const char *paren = memchr(cur, '(', (size_t)(eol - cur));
		if (!paren || memchr(cur, '=', (size_t)(paren - cur)) || memchr(cur, ';', (size_t)(paren - cur)))
			continue;
		const char *e = paren;
		while (e > cur && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		const char *b = e;
		while (b > cur && kt_ident_char((unsigned char)b[-1]))
			b--;
		size_t n = (size_t)(e - b);
		if (!n || isdigit((unsigned char)*b) || keyword(b, n))
			continue;
		const char *close = past_parens(paren, end);
		if (!close)
			continue;
		char c = after_params(close, end);
		if (b == cur && all_caps(b, n)) {
			if (!header)
				macro_def(d, file, line, b, n, paren, end, c);
			continue;
		}
		if (c != '{')
			continue;
		if (header && !private_header && !memmem(cur, (size_t)(b - cur), "inline", 6))
			continue;
		add(d, file, line, VIA_NONE, b, n);
	}
}

static bool ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

/* A header of a source directory, not of an include/ tree: #included by the .c files next to it. */
static bool private_header(const char *rel)
{
	return ends_with(rel, ".h") && strncmp(rel, "include/", 8) && !strstr(rel, "/include/");
}

bool kt_fdefs_wanted(const char *rel)
{
	return ends_with(rel, ".c") || ends_with(rel, ".h") || ends_with(rel, ".S");
}

void kt_fdefs_scan(struct kt_fdefs *d, const char *rel, const char *text, size_t len)
{
	uint32_t f = (uint32_t)d->files.n;

	kt_strv_push(&d->files, rel);
	d->st.files++;
	d->st.bytes += len;
	if (ends_with(rel, ".S"))
		scan_asm(d, f, text, len);
	else
		scan_text(d, f, text, len, ends_with(rel, ".h"), private_header(rel));
}
