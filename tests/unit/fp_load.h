/* SPDX-License-Identifier: GPL-2.0 */
/* Loading a footprint with its one-line error captured, for the unit tests of the reader (after cmocka.h). */
#ifndef KF_TEST_FP_LOAD_H
#define KF_TEST_FP_LOAD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "footprint/footprint_json.h"

/* What stderr_capture() needs to give stderr back and read what was printed meanwhile. */
struct stderr_capture {
	char path[32];
	int fd, saved;
};

/* From now until stderr_captured(), what goes to stderr goes to a temporary file. */
static inline void stderr_capture(struct stderr_capture *c)
{
	strcpy(c->path, "/tmp/kf-test-stderr.XXXXXX");
	c->fd = mkstemp(c->path);
	assert_true(c->fd >= 0);
	fflush(stderr);
	c->saved = dup(2);
	dup2(c->fd, 2);
}

/* Gives stderr back; what was printed since stderr_capture(), in a new string. */
static inline char *stderr_captured(struct stderr_capture *c)
{
	char buf[4096];
	ssize_t n;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	n = pread(c->fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(c->fd);
	unlink(c->path);
	return strdup(buf);
}

/* Runs fp__load_mem() on text with stderr captured; returns the footprint, *msg gets what was printed. */
static inline struct footprint *load_capturing(const char *text, const char *what, char **msg)
{
	struct stderr_capture c;
	struct footprint *fp;

	stderr_capture(&c);
	fp = fp__load_mem(text, strlen(text), what);
	*msg = stderr_captured(&c);
	return fp;
}

#endif
