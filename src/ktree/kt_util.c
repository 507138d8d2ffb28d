// SPDX-License-Identifier: GPL-2.0
// Small containers and file helpers for the kernel tree index.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ktree/kt_internal.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/fnv.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static size_t slot(const struct kt_map *m, const char *key)
{
	size_t i = (size_t)fnv1a64(key, FNV1A64_INIT) & (m->cap - 1);

	while (m->keys[i] && strcmp(m->keys[i], key) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

void *kt_map_get(const struct kt_map *m, const char *key)
{
	if (!m->cap)
		return NULL;
	size_t i = slot(m, key);
	return m->keys[i] ? m->vals[i] : NULL;
}

static void grow(struct kt_map *m)
{
	struct kt_map n = {.cap = m->cap ? m->cap * 2 : 64};

	n.keys = xcalloc(n.cap, sizeof(*n.keys));
	n.vals = xcalloc(n.cap, sizeof(*n.vals));
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = slot(&n, m->keys[i]);
		n.keys[j] = m->keys[i];
		n.vals[j] = m->vals[i];
	}
	n.len = m->len;
	free(m->keys);
	free(m->vals);
	*m = n;
}

void *kt_map_put(struct kt_map *m, const char *key, void *val)
{
	if ((m->len + 1) * 2 > m->cap)
		grow(m);
	size_t i = slot(m, key);
	void *old = m->vals[i];

	if (!m->keys[i]) {
		m->keys[i] = xstrdup(key);
		m->len++;
		old = NULL;
	}
	m->vals[i] = val;
	return old;
}

void kt_map_release(struct kt_map *m, void (*free_val)(void *))
{
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		free(m->keys[i]);
		if (free_val)
			free_val(m->vals[i]);
	}
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

void kt_strv_push(struct kt_strv *sv, const char *s)
{
	XGROW(sv->v, sv->cap, sv->n + 1);
	sv->v[sv->n++] = xstrdup(s);
}

bool kt_strv_has(const struct kt_strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (strcmp(sv->v[i], s) == 0)
			return true;
	return false;
}

void kt_strv_release(struct kt_strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	memset(sv, 0, sizeof(*sv));
}

char *kt_read_file(const char *path, size_t *lenp)
{
	struct stat st;
	size_t cap, len = 0;
	char *buf;
	int fd;

	/* stat first: a device is not even opened (opening one can have effects of its own) */
	if (stat(path, &st) < 0)
		return NULL;
	if (!S_ISREG(st.st_mode)) {
		errno = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
		return NULL;
	}
	/* O_NONBLOCK: a FIFO put in the file's place since would not hold the open */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > KT_FILE_MAX) {
		int e = errno;

		if (!S_ISREG(st.st_mode))
			e = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
		else if ((uint64_t)st.st_size > KT_FILE_MAX)
			e = EFBIG;
		close(fd);
		errno = e;
		return NULL;
	}
	cap = (size_t)st.st_size + 1;
	buf = xmalloc(cap + 1);
	for (;;) {
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > KT_FILE_MAX) { /* the file grew while we read it */
			free(buf);
			close(fd);
			errno = EFBIG;
			return NULL;
		}
		if (len == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	close(fd);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

const char *kt_strerror(int err)
{
	return err == ENODEV ? "not a regular file" : strerror(err);
}

char *kt_read_tree_file(const char *path, size_t *lenp)
{
	char *text = kt_read_file(path, lenp);

	if (!text && (errno == ENODEV || errno == EFBIG))
		warning("kernel tree: '%s': %s: skipped", path, kt_strerror(errno));
	return text;
}

char *kt_path(const char *srcdir, const char *rel)
{
	if (!rel || !*rel)
		return xstrdup(srcdir);
	return xasprintf("%s/%s", srcdir, rel);
}

bool kt_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool kt_is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool kt_is_real_dir(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void kt_logical_line(const char **l, struct strbuf *ln, int *lineno, const char *sep)
{
	const char *s = *l;

	for (;;) {
		const char *eol = strchr(s, '\n');
		size_t n = eol ? (size_t)(eol - s) : strlen(s);
		bool cont = n > 0 && s[n - 1] == '\\';

		strbuf_add(ln, s, cont ? n - 1 : n);
		s += n + (eol ? 1 : 0);
		(*lineno)++;
		if (!cont || !*s)
			break;
		strbuf_addstr(ln, sep);
	}
	*l = s;
}

void kt_put_u64(struct strbuf *sb, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	strbuf_add(sb, b, 8);
}

void kt_put_str(struct strbuf *sb, const char *s)
{
	if (!s) {
		kt_put_u64(sb, UINT64_MAX);
		return;
	}
	size_t n = strlen(s);
	kt_put_u64(sb, n);
	strbuf_add(sb, s, n);
}

void kt_put_stat(struct strbuf *sb, const char *srcdir, const char *rel)
{
	char *p = kt_path(srcdir, rel);
	struct stat st;

	if (stat(p, &st) != 0)
		memset(&st, 0, sizeof(st));
	free(p);
	kt_put_str(sb, rel);
	kt_put_u64(sb, (uint64_t)st.st_mtim.tv_sec);
	kt_put_u64(sb, (uint64_t)st.st_mtim.tv_nsec);
	kt_put_u64(sb, (uint64_t)st.st_size);
}

uint64_t kt_get_u64(struct kt_rd *r)
{
	uint64_t v = 0;

	if (r->bad || r->end - r->p < 8) {
		r->bad = true;
		return 0;
	}
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)(unsigned char)r->p[i] << (8 * i);
	r->p += 8;
	return v;
}

char *kt_get_str(struct kt_rd *r)
{
	uint64_t n = kt_get_u64(r);

	if (r->bad || n == UINT64_MAX)
		return NULL;
	if (n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	char *s = xstrndup(r->p, (size_t)n);
	r->p += n;
	return s;
}

bool kt_get_stat(struct kt_rd *r, const char *srcdir)
{
	char *rel = kt_get_str(r);
	uint64_t sec = kt_get_u64(r), nsec = kt_get_u64(r), size = kt_get_u64(r);

	if (r->bad || !rel) {
		free(rel);
		return false;
	}
	char *p = kt_path(srcdir, rel);
	struct stat st;
	bool ok;
	if (stat(p, &st) != 0)
		ok = sec == 0 && nsec == 0 && size == 0; /* it was missing then too */
	else
		ok = (uint64_t)st.st_mtim.tv_sec == sec && (uint64_t)st.st_mtim.tv_nsec == nsec &&
		     (uint64_t)st.st_size == size;
	free(p);
	free(rel);
	return ok;
}

int kt_cache_write(const char *file, const struct strbuf *sb, char **err)
{
	int rc = -1;
	char *dir = xstrdup(file), *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	/* create the directory and its parent (~/.cache may not exist yet) */
	char *parent = xstrdup(dir), *ps = strrchr(parent, '/');
	if (ps && ps != parent) {
		*ps = '\0';
		mkdir(parent, 0755);
	}
	free(parent);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		*err = xasprintf("cannot create cache directory '%s': %s", dir, strerror(errno));
		goto out;
	}
	/* the cache directory may be anywhere ($XDG_CACHE_HOME): written under the rule of every output */
	struct atomic_file af;

	if (atomic_file_open(&af, file, AF_QUIET) < 0) {
		*err = xasprintf("cannot write cache '%s': %s", file, strerror(errno));
		goto out;
	}
	if (fwrite(sb->buf, 1, sb->len, af.f) != sb->len) {
		*err = xasprintf("cannot write cache '%s': %s", file, strerror(errno ? errno : EIO));
		atomic_file_abort(&af);
		goto out;
	}
	if (atomic_file_commit(&af) < 0) {
		*err = xasprintf("cannot write cache '%s': %s", file, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	free(dir);
	return rc;
}

static int strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool kt_list_dir(const char *srcdir, const char *rel, kt_want_fn want, const void *ctx, struct kt_strv *dirs,
		 struct kt_strv *files)
{
	char *path = *rel ? kt_path(srcdir, rel) : xstrdup(srcdir);
	DIR *d = opendir(path);

	free(path);
	if (!d)
		return false;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *r = *rel ? xasprintf("%s/%s", rel, de->d_name) : xstrdup(de->d_name);
		unsigned char t = de->d_type;
		if (t == DT_UNKNOWN || t == DT_LNK) {
			char *full = kt_path(srcdir, r);
			/* a symlinked directory is not entered: two links to a parent would make a walk explode */
			t = kt_is_real_dir(full) ? DT_DIR : kt_is_file(full) ? DT_REG : DT_UNKNOWN;
			free(full);
		}
		if (t == DT_DIR && want(r, de->d_name, true, ctx))
			kt_strv_push(dirs, r);
		else if (t == DT_REG && want(r, de->d_name, false, ctx))
			kt_strv_push(files, r);
		free(r);
	}
	closedir(d);
	/* sorted, so that what a walk builds does not depend on directory order */
	if (files->n > 1)
		qsort(files->v, files->n, sizeof(char *), strcmp_ptr);
	if (dirs->n > 1)
		qsort(dirs->v, dirs->n, sizeof(char *), strcmp_ptr);
	return true;
}

/* True when word is one of the space-separated words of list. */
bool kt_word_in(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (!strncmp(p, word, n) && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}
