// SPDX-License-Identifier: GPL-2.0
// Whole files of a build, read and copied (kbuild.h): a copy is written beside its target and renamed over it, so
// that an interrupted copy never leaves a half-written bzImage or .config in -o.
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tailor/kbuild.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

char *tl_read_text(const char *path)
{
	FILE *f = fopen(path, "re");
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t n;
	bool bad;

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	bad = ferror(f);
	fclose(f);
	if (bad) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

int tl_copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "re");
	char *tmp = xasprintf("%s.tmp", to);
	FILE *out = in ? fopen(tmp, "we") : NULL;
	char buf[65536];
	size_t n;
	int rc = 0;

	while (out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (!in || !out || ferror(in) || fclose(out) != 0 || rc < 0 || rename(tmp, to) < 0) {
		rc = perror_msg("tailor: cannot write '%s'", to);
		unlink(tmp);
	}
	if (in)
		fclose(in);
	free(tmp);
	return rc;
}

int tl_copy_into(const char *from, const char *dir, const char *name)
{
	char *to = xasprintf("%s/%s", dir, name);
	int rc = tl_copy_file(from, to);

	free(to);
	return rc;
}
