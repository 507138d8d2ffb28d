/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_ATOMIC_FILE_H
#define KF_UTIL_ATOMIC_FILE_H

#include <stdio.h>

/*
 * An output file that appears whole or not at all: written to a temporary file beside the target, then
 * renamed over it. "-" means standard output; a path that exists and is not a regular file (/dev/null, a FIFO)
 * is written in place, since renaming over it would replace the device or pipe with a file.
 */
struct atomic_file {
	FILE *f;
	char *path;
	char *tmp;    /* NULL when written in place: "-", a device, a FIFO */
	char *target; /* what tmp is renamed over: path, or the file a symbolic link at path points to */
};

/* 0, or -1 after reporting "kfootprint: 'path': why". */
int atomic_file_open(struct atomic_file *af, const char *path);
/* Flushes, checks for write errors, renames into place. 0, or -1 after reporting (the target untouched). */
int atomic_file_commit(struct atomic_file *af);
/* Throws the temporary file away. */
void atomic_file_abort(struct atomic_file *af);

/*
 * The whole pattern: write(out, ctx) into path atomically, or straight into dflt when path is NULL. write
 * returns < 0 on a write error (errno set). 0, or -1 after reporting "kfootprint: writing 'path': why".
 */
int atomic_file_write(const char *path, FILE *dflt, int (*write)(FILE *out, const void *ctx), const void *ctx);

#endif
