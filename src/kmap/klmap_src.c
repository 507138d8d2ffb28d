// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lines against the source (klmap.h): each covered file of the tree is read, its #if blocks naming options
 * found (ktree/kt_ifblk.h) with how many of their lines were compiled and covered, and the error paths not taken:
 * compiled lines never run, holding `return -E...` or a `goto`, between the first and the last covered line of one
 * function (the span a function's covered lines give; a line past them is not called inside it).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/klmap.h"
#include "ktree/kt_ifblk.h"
#include "util/error.h"
#include "util/input.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* How many of the sorted v[0..n) lie in [first, last]: two binary searches, since a file has many blocks. */
static uint32_t count_in(const uint32_t *v, uint32_t n, uint32_t first, uint32_t last)
{
	uint32_t lo = 0, hi = n, a;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v[mid] < first)
			lo = mid + 1;
		else
			hi = mid;
	}
	a = lo;
	for (hi = n; lo < hi;) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= last)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - a;
}

/* The covered (count > 0) lines of a file, sorted: blocks count theirs in them as they count compiled lines. */
static uint32_t *covered_lines(const struct fp_klines *k, const struct klm_file *f, uint32_t *n)
{
	uint32_t *v = xcalloc((size_t)f->nlines + 1, sizeof(*v));

	*n = 0;
	for (uint32_t i = f->first; i < f->first + f->nlines; i++)
		if (k->lines[i].count)
			v[(*n)++] = k->lines[i].line;
	return v;
}

static bool covered(const struct fp_klines *k, const struct klm_file *f, uint32_t line)
{
	const struct fp_kline_line *l = fp_kline_find(k, f->path, line);

	return l && l->count;
}

static void blocks_of(struct klmap *m, const struct klm_file *f, const char *text, size_t len)
{
	struct kt_ifblk *v;
	size_t n;
	char why[128];
	uint32_t ncov, *cov;

	if (kt_ifblk_scan(text, len, &v, &n, why, sizeof(why)) < 0) {
		warning("%s: its #if blocks are not read: %s", f->path, why);
		return;
	}
	cov = covered_lines(m->k, f, &ncov);
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb;

		strbuf_init(&sb);
		for (size_t o = 0; o < v[i].nopts; o++)
			strbuf_addf(&sb, "%s%s", o ? " " : "", v[i].opts[o]);
		m->blocks = xrealloc(m->blocks, (m->nblocks + 1) * sizeof(*m->blocks));
		m->blocks[m->nblocks++] = (struct klm_block){
		    .file = f->path,
		    .directive = v[i].directive,
		    .first = v[i].first,
		    .last = v[i].last,
		    .kind = v[i].kind[0] == 'e'	  ? (v[i].kind[1] == 'l' && v[i].kind[2] == 's' ? "else" : "elif")
			    : v[i].kind[2] == 'd' ? "ifdef"
			    : v[i].kind[2] == 'n' ? "ifndef"
						  : "if",
		    .opts = strbuf_detach(&sb),
		    .compiled = count_in(f->compiled, f->ncompiled, v[i].first, v[i].last),
		    .covered = count_in(cov, ncov, v[i].first, v[i].last)};
	}
	free(cov);
	kt_ifblk_free(v, n);
}

/* The line's text, trimmed, when it fails or unwinds: "return -EBADF;", "goto err;". */
static char *error_path(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if ((n > 9 && !strncmp(s, "return -E", 9) && isupper((unsigned char)s[9])) ||
	    (n > 5 && !strncmp(s, "goto ", 5)))
		return xstrndup(s, n);
	return NULL;
}

/* A function's covered span: its first and last covered lines in the file. */
struct span {
	const char *function;
	uint32_t min, max;
};

static int cmp_span_name(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	int c = strcmp(x->function, y->function);

	return c ? c : (x->min > y->min) - (x->min < y->min);
}

static int cmp_span_min(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return (x->min > y->min) - (x->min < y->min);
}

/* The covered spans of the file's functions, by their first line: one sort, since a file may hold thousands. */
static struct span *spans_of(const struct fp_klines *k, const struct klm_file *f, size_t *n)
{
	struct span *v = xcalloc((size_t)f->nlines + 1, sizeof(*v));
	size_t m = 0, out = 0;

	for (uint32_t i = f->first; i < f->first + f->nlines; i++)
		if (k->lines[i].count && k->lines[i].function)
			v[m++] = (struct span){k->lines[i].function, k->lines[i].line, k->lines[i].line};
	if (m)
		qsort(v, m, sizeof(*v), cmp_span_name);
	for (size_t i = 0; i < m; i++) {
		if (out && !strcmp(v[out - 1].function, v[i].function)) {
			v[out - 1].max = v[i].min; /* sorted by line within a name */
			continue;
		}
		v[out++] = v[i];
	}
	if (out)
		qsort(v, out, sizeof(*v), cmp_span_min);
	*n = out;
	return v;
}

static void errpaths_of(struct klmap *m, const struct klm_file *f, const char *text, size_t len)
{
	const char **lines = xcalloc((size_t)(f->ncompiled ? f->compiled[f->ncompiled - 1] : 0) + 2, sizeof(*lines));
	uint32_t nl = f->ncompiled ? f->compiled[f->ncompiled - 1] : 0, at = 1;
	size_t nspans, open = 0, dead = 0; /* spans[0..open): begin before the line; [0..dead): end at or before it */
	struct span *spans = spans_of(m->k, f, &nspans);

	for (const char *p = text; p < text + len && at <= nl; at++) { /* where each line begins */
		lines[at] = p;
		const char *e = memchr(p, '\n', (size_t)(text + len - p));
		p = e ? e + 1 : text + len;
	}
	for (uint32_t j = 0; j < f->ncompiled; j++) {
		uint32_t line = f->compiled[j];
		const char *fn = NULL;

		if (line > nl || !lines[line] || covered(m->k, f, line))
			continue;
		/*
		 * A function with covered lines on both sides; of several (inlined code), the one whose span begins
		 * first. The lines ascend, so a span that has ended stays ended: the first one not ended is the answer.
		 */
		while (open < nspans && spans[open].min < line)
			open++;
		while (dead < open && spans[dead].max <= line)
			dead++;
		for (size_t s = dead; s < open && !fn; s++)
			if (spans[s].max > line)
				fn = spans[s].function;
		if (!fn)
			continue;
		const char *e = memchr(lines[line], '\n', (size_t)(text + len - lines[line]));
		char *t = error_path(lines[line], e ? (size_t)(e - lines[line]) : (size_t)(text + len - lines[line]));
		if (!t)
			continue;
		m->errpaths = xrealloc(m->errpaths, (m->nerrpaths + 1) * sizeof(*m->errpaths));
		m->errpaths[m->nerrpaths++] = (struct klm_errpath){f->path, line, fn, t};
	}
	free(spans);
	free(lines);
}

void klmap_read_sources(struct klmap *m)
{
	for (size_t i = 0; m->source_root && m->compiled && i < m->nfiles; i++) {
		const struct klm_file *f = &m->files[i];
		char *path = f->path[0] == '/' ? xstrdup(f->path) : xasprintf("%s/%s", m->source_root, f->path);
		struct strbuf in;
		char *err = NULL;

		strbuf_init(&in);
		if (kf_input_read_all(path, 64u << 20, &in, &err) < 0) {
			debug("kernel lines: %s: not read: %s", path, err);
			free(err);
			free(path);
			strbuf_release(&in);
			continue;
		}
		blocks_of(m, f, in.buf, in.len);
		errpaths_of(m, f, in.buf, in.len);
		strbuf_release(&in);
		free(path);
	}
}

void klmap_sources_free(struct klmap *m)
{
	for (size_t i = 0; i < m->nblocks; i++)
		free(m->blocks[i].opts);
	for (size_t i = 0; i < m->nerrpaths; i++)
		free(m->errpaths[i].text);
	free(m->blocks);
	free(m->errpaths);
}
