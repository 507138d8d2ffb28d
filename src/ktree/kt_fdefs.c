// SPDX-License-Identifier: GPL-2.0
// Function definitions of a whole kernel tree (kfdefs.h): a line scanner over every .c, .h and .S file that can
// be built for the architecture, fast enough for the whole 6.1 tree (docs/ktree.md has the figures), cached.
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ktree/kfdefs.h"
#include "ktree/kt_internal.h"
#include "util/atomic_file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Bump when what the scanner records changes: old caches are then rebuilt. */
#define MAGIC "kfootprint kfdefs cache 5\n"

/* The macros a definition may come from, by index (0: none). */
static const char *const vias[] = {
    NULL,
    "SYSCALL_DEFINE",
    "COMPAT_SYSCALL_DEFINE",
    "BPF_CALL",
    "DEFINE_SHOW_ATTRIBUTE",
    "DEFINE_SEQ_ATTRIBUTE",
    "DEFINE_SIMPLE_ATTRIBUTE",
    "DEFINE_DEBUGFS_ATTRIBUTE",
    "SYM_FUNC_START",
    "DEFINE_PROC_SHOW_ATTRIBUTE",
    "DEFINE_IDTENTRY",
};
enum {
	VIA_NONE,
	VIA_SYSCALL,
	VIA_COMPAT,
	VIA_BPF,
	VIA_SHOW,
	VIA_SEQ,
	VIA_SIMPLE,
	VIA_DEBUGFS,
	VIA_SYM,
	VIA_PROC,
	VIA_IDT
};

struct raw {
	uint32_t name; /* offset in pool */
	uint32_t file;
	int32_t line;
	uint32_t via;
};

struct kt_fdefs {
	char *srcdir, *arch;
	struct kt_strv files;
	struct strbuf pool; /* NUL-separated names */
	struct raw *raw;
	size_t nraw, capraw;
	struct kt_fdef *defs; /* sorted, one per (name, file) */
	size_t ndefs;
	struct kt_fdefs_stats st;
	struct kt_map unparsed; /* macro -> count (as a pointer-sized integer) */
	struct kt_strv seen;	/* files read and directories listed, for the cache */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *kt_fdefs_base(const char *name, char *buf, size_t len)
{
	const char *dot = strchr(name, '.');

	if (!dot || dot == name)
		return name;
	snprintf(buf, len, "%.*s", (int)(dot - name), name);
	return buf;
}

static void add(struct kt_fdefs *d, uint32_t file, int line, uint32_t via, const char *name, size_t n)
{
	if (!n || n > 200)
		return;
	XGROW(d->raw, d->capraw, d->nraw + 1);
	d->raw[d->nraw++] = (struct raw){(uint32_t)d->pool.len, file, line, via};
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

static bool ident_char(int c)
{
	return isalnum(c) || c == '_';
}

static size_t ident(const char *p, const char *end)
{
	const char *b = p;

	while (p < end && ident_char((unsigned char)*p))
		p++;
	return (size_t)(p - b);
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
		p += ident(p, end);
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
	*n = p ? ident(p, end) : 0;
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
		while (b > cur && ident_char((unsigned char)b[-1]))
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

static void scan_file(struct kt_fdefs *d, const char *rel)
{
	char *path = kt_path(d->srcdir, rel);
	size_t len;
	char *text = kt_read_file(path, &len);

	free(path);
	kt_strv_push(&d->seen, rel);
	if (!text)
		return; /* unreadable: its functions stay unknown */
	uint32_t f = (uint32_t)d->files.n;
	kt_strv_push(&d->files, rel);
	d->st.files++;
	d->st.bytes += len;
	if (ends_with(rel, ".S"))
		scan_asm(d, f, text, len);
	else
		scan_text(d, f, text, len, ends_with(rel, ".h"), private_header(rel));
	free(text);
}

static int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Top-level directories that hold no kernel code, and the other architectures. */
static bool skipped(const struct kt_fdefs *d, const char *rel)
{
	static const char *const top[] = {"Documentation", "tools", "samples", "scripts", "usr", "LICENSES", ".git"};

	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		if (!strcmp(rel, top[i]))
			return true;
	if (!strncmp(rel, "arch/", 5) && !strchr(rel + 5, '/'))
		return strcmp(rel + 5, d->arch) != 0;
	/* the amdgpu register headers: 373 MB of #defines (a third of the bytes), not one function */
	if (strlen(rel) > 9 && !strcmp(rel + strlen(rel) - 9, "/asic_reg"))
		return true;
	return !strcmp(rel, "arch/x86/um"); /* user-mode Linux's, not the architecture's */
}

static void walk(struct kt_fdefs *d, const char *rel, int depth)
{
	if (depth > 32)
		return;
	char *path = *rel ? kt_path(d->srcdir, rel) : xstrdup(d->srcdir);
	DIR *dir = opendir(path);

	free(path);
	kt_strv_push(&d->seen, *rel ? rel : ".");
	if (!dir)
		return;
	struct kt_strv subdirs = {0}, files = {0};
	struct dirent *de;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		char *r = *rel ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		unsigned char t = de->d_type;
		if (t == DT_UNKNOWN || t == DT_LNK) {
			char *full = kt_path(d->srcdir, r);
			/* a symlinked directory is not entered: links to a parent would make the walk explode */
			t = kt_is_real_dir(full) ? DT_DIR : kt_is_file(full) ? DT_REG : DT_UNKNOWN;
			free(full);
		}
		if (t == DT_DIR && !skipped(d, r))
			kt_strv_push(&subdirs, r);
		else if (t == DT_REG && (ends_with(r, ".c") || ends_with(r, ".h") || ends_with(r, ".S")))
			kt_strv_push(&files, r);
		free(r);
	}
	closedir(dir);
	/* sorted, so the index does not depend on directory order */
	if (files.n > 1)
		qsort(files.v, files.n, sizeof(char *), strcmp_ptr);
	for (size_t i = 0; i < files.n; i++)
		scan_file(d, files.v[i]);
	if (subdirs.n > 1)
		qsort(subdirs.v, subdirs.n, sizeof(char *), strcmp_ptr);
	for (size_t i = 0; i < subdirs.n; i++)
		walk(d, subdirs.v[i], depth + 1);
	kt_strv_release(&files);
	kt_strv_release(&subdirs);
}

static const char *sort_pool;

static int raw_cmp(const void *a, const void *b)
{
	const struct raw *x = a, *y = b;
	int c = strcmp(sort_pool + x->name, sort_pool + y->name);

	if (c)
		return c;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

struct top {
	const char *name;
	uintptr_t n;
};

static int top_cmp(const void *a, const void *b)
{
	const struct top *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sorts the raw definitions, keeps one per (name, file), and counts names and ambiguous names. */
static void finish(struct kt_fdefs *d)
{
	sort_pool = d->pool.buf;
	qsort(d->raw, d->nraw, sizeof(*d->raw), raw_cmp);
	d->defs = xcalloc(d->nraw ? d->nraw : 1, sizeof(*d->defs));
	d->ndefs = 0;
	d->st.names = d->st.ambiguous = 0;
	for (size_t i = 0; i < d->nraw; i++) {
		const struct raw *r = &d->raw[i];
		const char *name = d->pool.buf + r->name;
		bool same_name = d->ndefs && !strcmp(d->defs[d->ndefs - 1].name, name);

		if (same_name && d->defs[d->ndefs - 1].file == d->files.v[r->file])
			continue;
		if (!same_name)
			d->st.names++;
		else if (d->ndefs < 2 || strcmp(d->defs[d->ndefs - 2].name, name))
			d->st.ambiguous++; /* the second file of this name */
		d->defs[d->ndefs++] = (struct kt_fdef){name, d->files.v[r->file], r->line,
						       r->via < sizeof(vias) / sizeof(vias[0]) ? vias[r->via] : NULL};
	}
	d->st.defs = d->nraw;

	struct top *t = xcalloc(d->unparsed.len + 1, sizeof(*t));
	size_t nt = 0;
	for (size_t i = 0; i < d->unparsed.cap; i++)
		if (d->unparsed.keys[i])
			t[nt++] = (struct top){d->unparsed.keys[i], (uintptr_t)d->unparsed.vals[i]};
	qsort(t, nt, sizeof(*t), top_cmp);
	size_t len = 0;
	d->st.unparsed_top[0] = '\0';
	for (size_t i = 0; i < nt && i < 5 && len < sizeof(d->st.unparsed_top); i++)
		len += (size_t)snprintf(d->st.unparsed_top + len, sizeof(d->st.unparsed_top) - len, "%s%s %lu",
					i ? ", " : "", t[i].name, (unsigned long)t[i].n);
	free(t);
}

/* ---- cache ---- */

static char *cache_file(const char *srcdir, const char *arch)
{
	char *dir = kt_cache_dir(), *f;
	uint64_t h = 1469598103934665603ULL;

	if (!dir)
		return NULL;
	for (const char *s = srcdir; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	for (const char *s = arch; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	f = xasprintf("%s/kfdefs-%016llx.cache", dir, (unsigned long long)h);
	free(dir);
	return f;
}

static void cache_save(const struct kt_fdefs *d, const char *file)
{
	struct strbuf sb = STRBUF_INIT;
	struct atomic_file af;

	strbuf_addstr(&sb, MAGIC);
	kt_put_str(&sb, d->srcdir);
	kt_put_str(&sb, d->arch);
	kt_put_u64(&sb, d->seen.n);
	for (size_t i = 0; i < d->seen.n; i++)
		kt_put_stat(&sb, d->srcdir, d->seen.v[i]);
	kt_put_u64(&sb, d->files.n);
	for (size_t i = 0; i < d->files.n; i++)
		kt_put_str(&sb, d->files.v[i]);
	kt_put_u64(&sb, d->pool.len);
	strbuf_add(&sb, d->pool.buf, d->pool.len);
	kt_put_u64(&sb, d->nraw);
	for (size_t i = 0; i < d->nraw; i++) {
		kt_put_u64(&sb, d->raw[i].name);
		kt_put_u64(&sb, (uint64_t)d->raw[i].file << 32 | (uint32_t)d->raw[i].line);
		kt_put_u64(&sb, d->raw[i].via);
	}
	kt_put_u64(&sb, d->st.files);
	kt_put_u64(&sb, d->st.bytes);
	kt_put_u64(&sb, d->st.by_macro);
	kt_put_u64(&sb, d->st.unparsed);
	kt_put_str(&sb, d->st.unparsed_top);
	strbuf_addstr(&sb, "end\n");

	char *dir = xstrdup(file), *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	char *parent = xstrdup(dir), *ps = strrchr(parent, '/');
	if (ps && ps != parent) {
		*ps = '\0';
		mkdir(parent, 0755);
	}
	free(parent);
	mkdir(dir, 0755);
	free(dir);
	/* a read-only or missing cache directory is no reason to fail: the next run scans again */
	if (atomic_file_open(&af, file, AF_QUIET) == 0) {
		if (fwrite(sb.buf, 1, sb.len, af.f) == sb.len)
			atomic_file_commit(&af);
		else
			atomic_file_abort(&af);
	}
	strbuf_release(&sb);
}

/* A string's bytes in place (not NUL-terminated): *n its length. */
static const char *get_bytes(struct kt_rd *r, size_t *n)
{
	uint64_t len = kt_get_u64(r);
	const char *s = r->p;

	if (r->bad || len > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		*n = 0;
		return "";
	}
	r->p += len;
	*n = (size_t)len;
	return s;
}

static char *get_str(struct kt_rd *r)
{
	size_t n;
	const char *s = get_bytes(r, &n);

	return xstrndup(s, n);
}

static bool stat_ok(struct kt_rd *r, const char *srcdir)
{
	char *rel = get_str(r);
	uint64_t sec = kt_get_u64(r), nsec = kt_get_u64(r), size = kt_get_u64(r);
	char *p = kt_path(srcdir, rel);
	struct stat st;
	bool ok;

	if (stat(p, &st) != 0)
		ok = !sec && !nsec && !size;
	else
		ok = (uint64_t)st.st_mtim.tv_sec == sec && (uint64_t)st.st_mtim.tv_nsec == nsec &&
		     (uint64_t)st.st_size == size;
	free(p);
	free(rel);
	return ok && !r->bad;
}

static int cache_load(struct kt_fdefs *d, const char *file)
{
	size_t len, ml = strlen(MAGIC);
	char *buf = kt_read_file(file, &len);
	struct kt_rd r;
	int rc = -1;

	if (!buf)
		return -1;
	r = (struct kt_rd){buf, buf + len, false};
	if (len < ml || memcmp(buf, MAGIC, ml))
		goto out;
	r.p += ml;
	char *s1 = get_str(&r), *s2 = get_str(&r);
	bool same = !strcmp(s1, d->srcdir) && !strcmp(s2, d->arch);
	free(s1);
	free(s2);
	if (!same)
		goto out;
	uint64_t n = kt_get_u64(&r);
	if (n > len)
		goto out;
	for (uint64_t i = 0; i < n; i++)
		if (!stat_ok(&r, d->srcdir))
			goto out;
	n = kt_get_u64(&r);
	if (n > len)
		goto out;
	for (uint64_t i = 0; i < n && !r.bad; i++) {
		char *s = get_str(&r);
		kt_strv_push(&d->files, s);
		free(s);
	}
	size_t pn;
	const char *pool = get_bytes(&r, &pn);
	if (pn && pool[pn - 1] != '\0')
		r.bad = true;
	strbuf_add(&d->pool, pool, pn);
	n = kt_get_u64(&r);
	if (n > len / 24)
		goto out;
	d->raw = xcalloc(n ? n : 1, sizeof(*d->raw));
	d->capraw = n ? n : 1;
	for (uint64_t i = 0; i < n && !r.bad; i++) {
		struct raw *w = &d->raw[d->nraw++];
		uint64_t nm = kt_get_u64(&r), fl = kt_get_u64(&r), via = kt_get_u64(&r);
		w->name = (uint32_t)nm;
		w->file = (uint32_t)(fl >> 32);
		w->line = (int32_t)(uint32_t)fl;
		w->via = (uint32_t)via;
		if (nm >= pn || w->file >= d->files.n || via >= sizeof(vias) / sizeof(vias[0]))
			r.bad = true;
	}
	d->st.files = (size_t)kt_get_u64(&r);
	d->st.bytes = (size_t)kt_get_u64(&r);
	d->st.by_macro = (size_t)kt_get_u64(&r);
	d->st.unparsed = (size_t)kt_get_u64(&r);
	char *top = get_str(&r);
	snprintf(d->st.unparsed_top, sizeof(d->st.unparsed_top), "%s", top);
	free(top);
	if (r.bad || r.end - r.p != 4 || memcmp(r.p, "end\n", 4))
		goto out;
	rc = 0;
out:
	if (rc) {
		kt_strv_release(&d->files);
		strbuf_reset(&d->pool);
		free(d->raw);
		d->raw = NULL;
		d->nraw = d->capraw = 0;
	}
	free(buf);
	return rc;
}

/* ---- API ---- */

struct kt_fdefs *kt_fdefs_build(const char *srcdir, const char *arch, unsigned flags, char **err)
{
	char real[PATH_MAX];
	double t0 = now();

	*err = NULL;
	if (!realpath(srcdir, real)) {
		*err = xasprintf("cannot open kernel tree '%s': %s", srcdir, strerror(errno));
		return NULL;
	}
	char *k = kt_path(real, "kernel"), *a = xasprintf("%s/arch/%s", real, arch);
	bool ok = kt_is_dir(k) && kt_is_dir(a);
	free(k);
	free(a);
	if (!ok) {
		*err = xasprintf("'%s' is not a kernel source tree: no kernel/ or arch/%s/", srcdir, arch);
		return NULL;
	}
	struct kt_fdefs *d = xcalloc(1, sizeof(*d));
	d->srcdir = xstrdup(real);
	d->arch = xstrdup(arch);
	strbuf_init(&d->pool);
	char *cache = flags & KT_FDEFS_NO_CACHE ? NULL : cache_file(d->srcdir, arch);
	if (cache && cache_load(d, cache) == 0) {
		d->st.from_cache = true;
		char top[sizeof(d->st.unparsed_top)];
		memcpy(top, d->st.unparsed_top, sizeof(top));
		finish(d);
		memcpy(d->st.unparsed_top, top, sizeof(top));
	} else {
		walk(d, "", 0);
		finish(d);
		if (cache)
			cache_save(d, cache);
	}
	free(cache);
	kt_strv_release(&d->seen);
	d->st.seconds = now() - t0;
	return d;
}

struct kt_fdefs *kt_fdefs_from_texts(const char *const *paths, const char *const *texts, size_t n)
{
	struct kt_fdefs *d = xcalloc(1, sizeof(*d));

	d->srcdir = xstrdup("");
	d->arch = xstrdup("");
	strbuf_init(&d->pool);
	for (size_t i = 0; i < n; i++) {
		uint32_t f = (uint32_t)d->files.n;
		size_t len = strlen(texts[i]);
		kt_strv_push(&d->files, paths[i]);
		d->st.files++;
		d->st.bytes += len;
		if (ends_with(paths[i], ".S"))
			scan_asm(d, f, texts[i], len);
		else
			scan_text(d, f, texts[i], len, ends_with(paths[i], ".h"), private_header(paths[i]));
	}
	finish(d);
	return d;
}

void kt_fdefs_free(struct kt_fdefs *d)
{
	if (!d)
		return;
	free(d->srcdir);
	free(d->arch);
	kt_strv_release(&d->files);
	strbuf_release(&d->pool);
	free(d->raw);
	free(d->defs);
	kt_map_release(&d->unparsed, NULL);
	kt_strv_release(&d->seen);
	free(d);
}

void kt_fdefs_stats(const struct kt_fdefs *d, struct kt_fdefs_stats *st)
{
	*st = d->st;
}

size_t kt_fdefs_find(const struct kt_fdefs *d, const char *name, const struct kt_fdef **out)
{
	size_t lo = 0, hi = d->ndefs, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(d->defs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + n < d->ndefs && !strcmp(d->defs[lo + n].name, name))
		n++;
	*out = n ? &d->defs[lo] : NULL;
	return n;
}

size_t kt_fdefs_count(const struct kt_fdefs *d)
{
	return d->ndefs;
}

const struct kt_fdef *kt_fdefs_at(const struct kt_fdefs *d, size_t i)
{
	return i < d->ndefs ? &d->defs[i] : NULL;
}
