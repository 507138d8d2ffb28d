// SPDX-License-Identifier: GPL-2.0
/*
 * The reader of GCC's `gcov --json-format --stdout` (gcov.h): per document {"files": [{"file", "lines":
 * [{"line_number", "count", "function_name"}]}], "current_working_directory"}, what else it holds read past.
 * The compile directory comes after the files in gcov's output, so each document is read twice: once for the
 * directory, once for the lines. Every number is checked: a count that is not a non-negative integer, a line
 * number 0 or past 2^32, a document that is not an object: the reader stops with one line.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/gcov.h"
#include "util/json_reader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define GJ_DEPTH 16

/* path with "." and ".." components and repeated slashes taken out (an absolute path stays absolute) */
static char *normalize(const char *dir, const char *path)
{
	char *joined = path[0] == '/' || !dir ? xstrdup(path) : xasprintf("%s/%s", dir, path);
	char *out = xmalloc(strlen(joined) + 2), *o = out;
	bool abs = joined[0] == '/';

	*o = '\0';
	for (char *save = NULL, *c = strtok_r(joined, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			char *slash = strrchr(out, '/');
			if (o > out && strcmp(slash ? slash + 1 : out, "..")) {
				o = slash ? slash : out;
				*o = '\0';
				continue;
			}
			if (abs)
				continue; /* /.. is / */
		}
		o += sprintf(o, "%s%s", (o > out || abs) ? "/" : "", c);
	}
	if (o == out && abs)
		strcpy(out, "/");
	free(joined);
	return out;
}

/* The roots a file is named relative to: the tree linked as dir/source (as linked, and resolved), then dir. */
static size_t roots_of(const char *dir, char *roots[3])
{
	size_t n = 0;
	char *src = xasprintf("%s/source", dir), link[PATH_MAX], real[PATH_MAX];
	ssize_t l = readlink(src, link, sizeof(link) - 1);

	if (l > 0) {
		link[l] = '\0';
		roots[n++] = normalize(dir, link);
	}
	if (realpath(src, real))
		roots[n++] = xstrdup(real);
	roots[n++] = normalize(NULL, dir);
	free(src);
	return n;
}

static const char *relative(const char *path, char *const *roots, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(roots[i]);
		if (len > 1 && !strncmp(path, roots[i], len) && path[len] == '/')
			return path + len + 1;
	}
	return path;
}

static int fail(struct json_reader *jr, char **err, const char *what)
{
	if (!*err)
		*err = xasprintf("gcov's JSON: %s", jr_error(jr) ? jr_error(jr) : what);
	return -1;
}

static int number(struct json_reader *jr, enum jr_event ev, uint64_t max, uint64_t *v, char **err)
{
	char *end;

	if (ev != JR_NUMBER || !jr->is_int || jr->text.buf[0] == '-')
		return fail(jr, err, "a count or line number that is not a non-negative integer");
	unsigned long long x = strtoull(jr->text.buf, &end, 10);
	if (*end || x > max)
		return fail(jr, err, "a count or line number out of range");
	*v = x;
	return 0;
}

static const char *keep(struct kl_glines *acc, char *s)
{
	XGROW(acc->strs, acc->scap, acc->nstrs + 1);
	return acc->strs[acc->nstrs++] = s;
}

static void add(struct kl_glines *acc, const char *file, uint64_t line, uint64_t count, const char *function)
{
	XGROW(acc->v, acc->cap, acc->n + 1);
	acc->v[acc->n++] = (struct kl_gline){file, (uint32_t)line, count, function};
}

/* One {"line_number", "count", "function_name", ...}, its '{' read; *last the function of the line before. */
static int one_line(struct json_reader *jr, struct kl_glines *acc, const char **last, char **err)
{
	uint64_t line = 0, count = 0;
	bool has_count = false;
	char *function = NULL;
	enum jr_event ev;

	while ((ev = jr_next(jr)) == JR_KEY) {
		char key[16];
		snprintf(key, sizeof(key), "%s", jr->text.buf);
		ev = jr_next(jr);
		if (!strcmp(key, "line_number")) {
			if (number(jr, ev, UINT32_MAX, &line, err) < 0)
				goto bad;
		} else if (!strcmp(key, "count")) {
			if (number(jr, ev, UINT64_MAX, &count, err) < 0)
				goto bad;
			has_count = true;
		} else if (!strcmp(key, "function_name") && ev == JR_STRING) {
			free(function);
			function = xstrdup(jr->text.buf);
		} else if (jr_skip(jr, ev) < 0) {
			fail(jr, err, "unreadable");
			goto bad;
		}
	}
	if (ev != JR_OBJECT_END || !line || !has_count) {
		fail(jr, err, "a line without line_number or count");
		goto bad;
	}
	/* the lines of a function come together: its name kept once for them all */
	const char *fn = NULL;
	if (function) {
		if (!*last || strcmp(*last, function))
			*last = keep(acc, xstrdup(function));
		fn = *last;
		free(function);
	}
	add(acc, NULL, line, count, fn);
	return 0;
bad:
	free(function);
	return -1;
}

/* One {"file", "lines": [...], ...}, its '{' read; the file's name may come after its lines. */
static int one_file(struct json_reader *jr, struct kl_glines *acc, char *const *roots, size_t nroots, const char *dir,
		    char **err)
{
	size_t first = acc->n, first_str = acc->nstrs;
	const char *last = NULL;
	char *name = NULL;
	enum jr_event ev;

	while ((ev = jr_next(jr)) == JR_KEY) {
		bool is_file = !strcmp(jr->text.buf, "file"), is_lines = !strcmp(jr->text.buf, "lines");
		ev = jr_next(jr);
		if (is_file && ev == JR_STRING) {
			char *norm = normalize(dir, jr->text.buf);
			free(name);
			name = xstrdup(relative(norm, roots, nroots));
			free(norm);
		} else if (is_lines && ev == JR_ARRAY) {
			while ((ev = jr_next(jr)) == JR_OBJECT)
				if (one_line(jr, acc, &last, err) < 0)
					goto bad;
			if (ev != JR_ARRAY_END)
				goto bad_json;
		} else if (jr_skip(jr, ev) < 0) {
			goto bad_json;
		}
	}
	if (ev != JR_OBJECT_END || !name)
		goto bad_json;
	keep(acc, name);
	for (size_t i = first; i < acc->n; i++)
		acc->v[i].file = name;
	return 0;
bad_json:
	fail(jr, err, "a file without its name");
bad:
	while (acc->nstrs > first_str)
		free(acc->strs[--acc->nstrs]);
	acc->n = first;
	free(name);
	return -1;
}

/* The document's current_working_directory (first pass), or NULL. */
static char *compile_dir(const char *doc, size_t len)
{
	struct json_reader jr;
	char *dir = NULL;
	enum jr_event ev;

	jr_init_mem(&jr, doc, len, GJ_DEPTH);
	if (jr_next(&jr) == JR_OBJECT)
		while (!dir && (ev = jr_next(&jr)) == JR_KEY) {
			bool is_dir = !strcmp(jr.text.buf, "current_working_directory");
			ev = jr_next(&jr);
			if (is_dir && ev == JR_STRING)
				dir = xstrdup(jr.text.buf);
			else if (jr_skip(&jr, ev) < 0)
				break;
		}
	jr_release(&jr);
	return dir;
}

static int one_doc(struct kl_glines *acc, const char *doc, size_t len, char **err)
{
	char *dir = compile_dir(doc, len), *roots[3];
	size_t nroots = dir ? roots_of(dir, roots) : 0;
	struct json_reader jr;
	enum jr_event ev;
	int rc = 0;

	jr_init_mem(&jr, doc, len, GJ_DEPTH);
	if (jr_next(&jr) != JR_OBJECT)
		rc = fail(&jr, err, "a document that is not an object");
	while (!rc && (ev = jr_next(&jr)) == JR_KEY) {
		bool is_files = !strcmp(jr.text.buf, "files");
		ev = jr_next(&jr);
		if (is_files && ev == JR_ARRAY) {
			while (!rc && (ev = jr_next(&jr)) == JR_OBJECT)
				rc = one_file(&jr, acc, roots, nroots, dir, err);
			if (!rc && ev != JR_ARRAY_END)
				rc = fail(&jr, err, "files that are not objects");
		} else if (jr_skip(&jr, ev) < 0) {
			rc = fail(&jr, err, "unreadable");
		}
	}
	if (!rc && (ev != JR_OBJECT_END || jr_next(&jr) != JR_EOF))
		rc = fail(&jr, err, "not one object");
	jr_release(&jr);
	for (size_t i = 0; i < nroots; i++)
		free(roots[i]);
	free(dir);
	return rc;
}

int kl_gcov_json(struct kl_glines *acc, const char *text, size_t len, char **err)
{
	*err = NULL;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t b = at;
		while (b < end && (text[b] == ' ' || text[b] == '\t' || text[b] == '\r'))
			b++;
		if (b < end && one_doc(acc, text + b, end - b, err) < 0)
			return -1;
		at = end + 1;
	}
	return 0;
}

static int by_file_line(const void *a, const void *b)
{
	const struct kl_gline *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

void kl_glines_into(struct kl_glines *acc, struct fp_klines *k)
{
	/* sorted first: each row then goes at the end of k's sorted array, not into its middle */
	if (acc->n)
		qsort(acc->v, acc->n, sizeof(*acc->v), by_file_line);
	for (size_t i = 0; i < acc->n; i++)
		fp_kline_add_line(k, acc->v[i].file, acc->v[i].line, acc->v[i].count, acc->v[i].function);
	kl_glines_release(acc);
}

void kl_glines_release(struct kl_glines *acc)
{
	for (size_t i = 0; i < acc->nstrs; i++)
		free(acc->strs[i]);
	free(acc->v);
	free(acc->strs);
	*acc = (struct kl_glines){0};
}
