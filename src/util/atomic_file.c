// SPDX-License-Identifier: GPL-2.0
#include "util/atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * Only a regular file (or a name not taken yet) is replaced by rename: a device, a FIFO or a socket
 * (--report /dev/null, a pipe given as /dev/stdout) is written in place, and a symbolic link keeps pointing
 * where it did while its target is replaced.
 */
int atomic_file_open(struct atomic_file *af, const char *path)
{
	struct stat st;
	char *target = NULL;
	mode_t mode;
	int fd;

	memset(af, 0, sizeof(*af));
	af->path = xstrdup(path);
	if (!strcmp(path, "-")) {
		af->f = stdout;
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			perror_msg("'%s'", path);
			goto fail;
		}
		af->f = fopen(path, "we");
		if (!af->f) {
			perror_msg("'%s'", path);
			goto fail;
		}
		return 0;
	}
	if (stat(path, &st) == 0) {
		target = realpath(path, NULL);
		mode = st.st_mode & 07777;
	} else {
		mode_t um = umask(0);

		umask(um);
		mode = 0666 & ~um;
	}
	af->target = target ? target : xstrdup(path);
	/* mkstemp's template: the name, then six X it replaces */
	struct strbuf tmpl = STRBUF_INIT;

	strbuf_addf(&tmpl, "%s.tmp.", af->target);
	strbuf_addchars(&tmpl, 'X', 6);
	af->tmp = strbuf_detach(&tmpl);
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		perror_msg("'%s'", path);
		goto fail;
	}
	/* mkstemp makes 0600: an existing file keeps its mode, a new one gets 0666 & ~umask. */
	if (fchmod(fd, mode) < 0) {
		perror_msg("'%s'", path);
		close(fd);
		unlink(af->tmp);
		goto fail;
	}
	af->f = fdopen(fd, "w");
	if (!af->f) {
		perror_msg("'%s'", path);
		close(fd);
		unlink(af->tmp);
		goto fail;
	}
	return 0;
fail:
	free(af->path);
	free(af->tmp);
	free(af->target);
	memset(af, 0, sizeof(*af));
	return -1;
}

static void release(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	free(af->target);
	memset(af, 0, sizeof(*af));
}

int atomic_file_commit(struct atomic_file *af)
{
	int ret = 0;

	if (!af->f)
		return -1;
	if (af->f == stdout) {
		if (fflush(af->f) || ferror(af->f))
			ret = perror_msg("writing standard output");
	} else if (!af->tmp) {
		int bad = ferror(af->f);

		if (fclose(af->f) || bad)
			ret = perror_msg("writing '%s'", af->path);
	} else {
		int bad = ferror(af->f);

		if (fclose(af->f) || bad) {
			ret = perror_msg("writing '%s'", af->path);
			unlink(af->tmp);
		} else if (rename(af->tmp, af->target) < 0) {
			ret = perror_msg("'%s'", af->path);
			unlink(af->tmp);
		}
	}
	release(af);
	return ret;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (!af->f)
		return;
	if (af->f != stdout)
		fclose(af->f);
	if (af->tmp)
		unlink(af->tmp);
	release(af);
}

int atomic_file_write(const char *path, FILE *dflt, int (*write)(FILE *out, const void *ctx), const void *ctx)
{
	struct atomic_file af;

	if (!path) {
		/* stdout is checked once more at exit (main.c), where buffered write errors surface */
		if (write(dflt, ctx) < 0)
			return perror_msg("writing %s", dflt == stderr ? "standard error" : "standard output");
		return 0;
	}
	if (atomic_file_open(&af, path) < 0)
		return -1;
	if (write(af.f, ctx) < 0) {
		perror_msg("writing '%s'", path);
		atomic_file_abort(&af);
		return -1;
	}
	return atomic_file_commit(&af);
}
