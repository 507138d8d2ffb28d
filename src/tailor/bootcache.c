// SPDX-License-Identifier: GPL-2.0
// The boots' cache (bootcache.h): one directory per key under <cache>/boots, a file per thing a boot said.
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tailor/bootcache.h"
#include "tailor/kbuild.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int tl_boot_key(const char *const *files, const char *const *words, char key[65])
{
	struct sha256 h;
	sha256_init(&h);
	char buf[65536];
	for (const char *const *f = files; *f; f++) {
		int fd = open(*f, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		ssize_t n;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			sha256_update(&h, buf, (size_t)n);
		close(fd);
		if (n < 0)
			return -1;
		sha256_update(&h, "\0file\0", 6); /* no two lists of files hash alike */
	}
	for (const char *const *w = words; *w; w++)
		sha256_update(&h, *w, strlen(*w) + 1);
	sha256_final_hex(&h, key);
	return 0;
}

static char *entry(const char *key, const char *name)
{
	char *cache = tl_cache_dir(), *p = xasprintf("%s/boots/%s/%s", cache, key, name);
	free(cache);
	return p;
}

char *tl_boot_get(const char *key, const char *name, size_t *len)
{
	char *p = entry(key, name);
	int fd = open(p, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	free(p);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(&sb, buf, (size_t)n);
	close(fd);
	if (n < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	*len = sb.len;
	strbuf_addch(&sb, '\0');
	return strbuf_detach(&sb);
}

void tl_boot_put(const char *key, const char *name, const void *data, size_t len)
{
	char *cache = tl_cache_dir(), *top = xasprintf("%s/boots", cache), *dir = xasprintf("%s/%s", top, key);
	char *p = xasprintf("%s/%s", dir, name), *tmp = xasprintf("%s.tmp.%d", p, (int)getpid());
	if ((mkdir(cache, 0711) == 0 || errno == EEXIST) && (mkdir(top, 0700) == 0 || errno == EEXIST) &&
	    (mkdir(dir, 0700) == 0 || errno == EEXIST)) {
		int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
		bool ok = fd >= 0 && write(fd, data, len) == (ssize_t)len;
		if (fd >= 0 && close(fd) < 0)
			ok = false;
		if (!ok || rename(tmp, p) < 0)
			unlink(tmp);
	}
	free(cache);
	free(top);
	free(dir);
	free(p);
	free(tmp);
}
