// SPDX-License-Identifier: GPL-2.0
#include "util/atomic_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/error.h"
#include "util/xalloc.h"

int atomic_file_open(struct atomic_file *af, const char *path)
{
	int fd;

	memset(af, 0, sizeof(*af));
	af->path = xstrdup(path);
	if (!strcmp(path, "-")) {
		af->f = stdout;
		return 0;
	}
	af->tmp = xasprintf("%s.tmp.XXXXXX", path);
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		perror_msg("'%s'", path);
		goto fail;
	}
	/* mkstemp makes 0600; an output file should get the usual 0666 & ~umask. */
	mode_t um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um) < 0) {
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
	memset(af, 0, sizeof(*af));
	return -1;
}

int atomic_file_commit(struct atomic_file *af)
{
	int ret = 0;

	if (!af->f)
		return -1;
	if (!af->tmp) {
		if (fflush(af->f) || ferror(af->f))
			ret = perror_msg("writing standard output");
	} else {
		int bad = ferror(af->f);

		if (fclose(af->f) || bad) {
			ret = perror_msg("writing '%s'", af->path);
			unlink(af->tmp);
		} else if (rename(af->tmp, af->path) < 0) {
			ret = perror_msg("'%s'", af->path);
			unlink(af->tmp);
		}
	}
	free(af->path);
	free(af->tmp);
	memset(af, 0, sizeof(*af));
	return ret;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (!af->f)
		return;
	if (af->tmp) {
		fclose(af->f);
		unlink(af->tmp);
	}
	free(af->path);
	free(af->tmp);
	memset(af, 0, sizeof(*af));
}
