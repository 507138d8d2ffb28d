// SPDX-License-Identifier: GPL-2.0
// Source lines of code, their cache, and the built-in table for --running without a tree. Counting the 12,000 files of
// Debian's 6.1 configuration reads 330 MB; the cache keeps each file's count with its size and mtime, so a warm run
// only stats them.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inventory/inv_internal.h"
#include "util/fnv.h"
#include "util/unpack.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

const char inv_sloc_rule[] = "code lines: a line with anything but white space and comments (/* */, //) counts, "
			     "a line with code and a comment counts, as cloc counts C";

long inv_sloc(const char *text, size_t len)
{
	enum { CODE, BLOCK, LINE, STR, CHR } st = CODE;
	bool code = false;
	long n = 0;

	for (size_t i = 0; i < len; i++) {
		char c = text[i], next = i + 1 < len ? text[i + 1] : '\0';

		if (c == '\n') {
			n += code;
			code = false;
			/* a // comment ends here unless the line ended in a backslash; strings do not span lines */
			if (st == LINE && !(i && text[i - 1] == '\\'))
				st = CODE;
			if (st == STR || st == CHR)
				st = CODE;
			continue;
		}
		switch (st) {
		case CODE:
			if (c == '/' && next == '*') {
				st = BLOCK;
				i++;
			} else if (c == '/' && next == '/') {
				st = LINE;
				i++;
			} else if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') {
				code = true;
				if (c == '"')
					st = STR;
				else if (c == '\'')
					st = CHR;
			}
			break;
		case BLOCK:
			if (c == '*' && next == '/') {
				st = CODE;
				i++;
			}
			break;
		case LINE: break;
		case STR:
		case CHR:
			if (c == '\\' && next && next != '\n')
				i++;
			else if (c == (st == STR ? '"' : '\''))
				st = CODE;
			break;
		}
	}
	return n + code;
}

struct sloc_entry {
	char *path;
	long long size, mtime_ns;
	long sloc;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct sloc_entry *)a)->path, ((const struct sloc_entry *)b)->path);
}

#define MAGIC "kfootprint sloc cache 1\n"

/* The cache of a tree: entries sorted by path (none when there is no cache or it is not ours). */
static struct sloc_entry *load_cache(const char *file, size_t *n)
{
	struct strbuf sb = STRBUF_INIT;
	struct sloc_entry *e = NULL;
	size_t cap = 0;

	*n = 0;
	if (!file || strbuf_read_file(&sb, file) < 0 || strncmp(sb.buf, MAGIC, strlen(MAGIC))) {
		strbuf_release(&sb);
		return NULL;
	}
	for (char *l = sb.buf + strlen(MAGIC), *save = NULL, *line = strtok_r(l, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		long long size, mt;
		long sloc;
		int off = 0;
		if (sscanf(line, "%lld %lld %ld %n", &size, &mt, &sloc, &off) != 3 || !off || !line[off])
			continue;
		XGROW(e, cap, *n + 1);
		e[(*n)++] = (struct sloc_entry){xstrdup(line + off), size, mt, sloc};
	}
	strbuf_release(&sb);
	if (*n)
		qsort(e, *n, sizeof(*e), cmp_entry);
	return e;
}

static void save_cache(const char *file, const struct inv_file *files, size_t n, const long long (*stamp)[2])
{
	char *tmp = xasprintf("%s.%d.tmp", file, (int)getpid());
	FILE *fp = fopen(tmp, "w");

	if (!fp) {
		free(tmp);
		return; /* a read-only cache directory costs the next run time, not this one's result */
	}
	fputs(MAGIC, fp);
	for (size_t i = 0; i < n; i++)
		if (files[i].sloc >= 0 && !strchr(files[i].path, '\n'))
			fprintf(fp, "%lld %lld %ld %s\n", stamp[i][0], stamp[i][1], files[i].sloc, files[i].path);
	if (fclose(fp) == 0)
		rename(tmp, file);
	else
		unlink(tmp);
	free(tmp);
}

void inv__count_sloc(struct inv_file *files, size_t n, const char *tree, bool no_cache)
{
	char *dir = no_cache ? NULL : kt_cache_dir(), *file = NULL;
	long long(*stamp)[2] = xcalloc(n + 1, sizeof(*stamp));
	size_t ncache = 0, counted = 0;

	if (dir) {
		/* $XDG_CACHE_HOME itself may not exist yet */
		char *parent = xstrdup(dir), *slash = strrchr(parent, '/');
		if (slash && slash != parent) {
			*slash = '\0';
			mkdir(parent, 0700);
		}
		free(parent);
		mkdir(dir, 0700);
		file = xasprintf("%s/sloc-%016llx.cache", dir, (unsigned long long)fnv1a64(tree, FNV1A64_INIT));
	}
	struct sloc_entry *cache = load_cache(file, &ncache);
	for (size_t i = 0; i < n; i++) {
		struct inv_file *f = &files[i];
		char *path = xasprintf("%s/%s", tree, f->path);
		struct stat st;

		f->sloc = -1;
		if (f->generated || stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		stamp[i][0] = (long long)st.st_size;
		stamp[i][1] = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
		struct sloc_entry key = {.path = f->path},
				  *hit = ncache ? bsearch(&key, cache, ncache, sizeof(*cache), cmp_entry) : NULL;
		if (hit && hit->size == stamp[i][0] && hit->mtime_ns == stamp[i][1]) {
			f->sloc = hit->sloc;
		} else {
			size_t len;
			char *text = kt_read_file(path, &len);
			if (text)
				f->sloc = inv_sloc(text, len);
			free(text);
			counted++;
		}
		free(path);
	}
	if (file && counted)
		save_cache(file, files, n, (const long long(*)[2])stamp);
	for (size_t i = 0; i < ncache; i++)
		free(cache[i].path);
	free(cache);
	free(stamp);
	free(file);
	free(dir);
}

/* data/sloc-6.1.tsv.gz (sloc_data.c): "kfootprint-sloc/1 VERSION SOURCE", then "path sloc" lines by path */
extern const unsigned char inv_sloc_builtin_data[];
extern const uint64_t inv_sloc_builtin_len; /* the assembler's count, not a difference of two C objects */

#define SLOC_SCHEMA "kfootprint-sloc/1"

size_t inv__builtin_sloc(struct inv_file *files, size_t n, char **what)
{
	struct strbuf sb = STRBUF_INIT;
	struct sloc_entry *e = NULL;
	size_t ne = 0, cap = 0, found = 0;
	char *why = NULL, *save = NULL;

	*what = NULL;
	if (kf_unpack(inv_sloc_builtin_data, (size_t)inv_sloc_builtin_len, 64ull << 20, &sb, &why) < 0) {
		*what = xasprintf("the built-in SLOC table does not load: %s", why);
		free(why);
		strbuf_release(&sb);
		return 0;
	}
	for (char *l = strtok_r(sb.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(l, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		if (!*what) {
			char *src = strchr(tab + 1, '\t');
			if (src)
				*src++ = '\0';
			*what = strcmp(l, SLOC_SCHEMA) ? xstrdup("the built-in SLOC table is not " SLOC_SCHEMA)
						       : xasprintf("the built-in table of Linux %s's files (%s)",
								   tab + 1, src ? src : "?");
			if (strcmp(l, SLOC_SCHEMA))
				break;
			continue;
		}
		XGROW(e, cap, ne + 1);
		e[ne++] = (struct sloc_entry){.path = l, .sloc = strtol(tab + 1, NULL, 10)};
	}
	if (ne)
		qsort(e, ne, sizeof(*e), cmp_entry);
	for (size_t i = 0; i < n && ne; i++) {
		struct sloc_entry key = {.path = files[i].path}, *hit = bsearch(&key, e, ne, sizeof(*e), cmp_entry);
		if (hit && !files[i].generated) {
			files[i].sloc = hit->sloc;
			found++;
		}
	}
	free(e);
	strbuf_release(&sb);
	return found;
}
