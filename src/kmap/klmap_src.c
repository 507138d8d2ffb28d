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

static uint32_t count_in(const uint32_t *v, uint32_t n, uint32_t first, uint32_t last)
{
	uint32_t c = 0;

	for (uint32_t i = 0; i < n; i++)
		c += v[i] >= first && v[i] <= last;
	return c;
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

	if (kt_ifblk_scan(text, len, &v, &n, why, sizeof(why)) < 0) {
		warning("%s: its #if blocks are not read: %s", f->path, why);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t run = 0;
		struct strbuf sb;

		for (uint32_t l = v[i].first; l <= v[i].last; l++)
			run += covered(m->k, f, l);
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
		    .covered = run};
	}
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

static void errpaths_of(struct klmap *m, const struct klm_file *f, const char *text, size_t len)
{
	const struct fp_kline_line *ls = &m->k->lines[f->first];
	const char **lines = xcalloc((size_t)(f->ncompiled ? f->compiled[f->ncompiled - 1] : 0) + 2, sizeof(*lines));
	uint32_t nl = f->ncompiled ? f->compiled[f->ncompiled - 1] : 0, at = 1;

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
		/* a function with covered lines on both sides */
		for (uint32_t a = 0; a < f->nlines && !fn; a++)
			for (uint32_t b = a + 1; b < f->nlines && !fn; b++)
				if (ls[a].function && ls[b].function && !strcmp(ls[a].function, ls[b].function) &&
				    ls[a].line < line && line < ls[b].line && ls[a].count && ls[b].count)
					fn = ls[a].function;
		if (!fn)
			continue;
		const char *e = memchr(lines[line], '\n', (size_t)(text + len - lines[line]));
		char *t = error_path(lines[line], e ? (size_t)(e - lines[line]) : (size_t)(text + len - lines[line]));
		if (!t)
			continue;
		m->errpaths = xrealloc(m->errpaths, (m->nerrpaths + 1) * sizeof(*m->errpaths));
		m->errpaths[m->nerrpaths++] = (struct klm_errpath){f->path, line, fn, t};
	}
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
