/* SPDX-License-Identifier: GPL-2.0 */
/* Loading a footprint from text with its one-line error captured, for the unit tests of the reader (after cmocka.h). */
#ifndef KF_TEST_FP_LOAD_H
#define KF_TEST_FP_LOAD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "footprint/footprint_json.h"

/* Runs fp__load_mem() on text with stderr captured; returns the footprint, *msg gets what was printed. */
static inline struct footprint *load_capturing(const char *text, const char *what, char **msg)
{
	char path[] = "/tmp/kf-test-load.XXXXXX";
	int fd = mkstemp(path), saved;
	struct footprint *fp;
	char buf[4096];
	ssize_t n;

	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	fp = fp__load_mem(text, strlen(text), what);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	*msg = strdup(buf);
	return fp;
}

#endif
