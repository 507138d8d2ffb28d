// SPDX-License-Identifier: GPL-2.0
#include "util/input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

const char *kf_input_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= (1ull << 30) && !(bytes % (1ull << 30)))
		snprintf(buf, len, "%llu GiB", (unsigned long long)(bytes >> 30));
	else if (bytes >= (1ull << 20) && !(bytes % (1ull << 20)))
		snprintf(buf, len, "%llu MiB", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, len, "%llu bytes", (unsigned long long)bytes);
	return buf;
}

static char *too_large(uint64_t limit)
{
	char l[32];

	return xasprintf("larger than %s, the limit of this input", kf_input_size(limit, l, sizeof(l)));
}

int kf_input_open(struct kf_input *in, const char *path, uint64_t limit, char **why)
{
	struct stat st;
	char probe;
	ssize_t n;

	memset(in, 0, sizeof(*in));
	in->limit = limit;
	in->fd = -1;
	in->held = -1;
	*why = NULL;
	if (!strcmp(path, "-")) {
		in->fd = 0;
	} else {
		/* O_NONBLOCK: opening a FIFO would otherwise wait for a writer that may never come */
		in->fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (in->fd < 0) {
			*why = xstrdup(strerror(errno));
			return -1;
		}
		in->own = true;
	}
	if (fstat(in->fd, &st) < 0) {
		*why = xstrdup(strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		*why = xstrdup(strerror(EISDIR));
		goto fail;
	}
	in->regular = S_ISREG(st.st_mode);
	if (in->regular && (uint64_t)st.st_size > limit) {
		*why = too_large(limit);
		goto fail;
	}
	if (!in->own)
		return 0;
	if (S_ISFIFO(st.st_mode)) {
		/* with no writer a FIFO reads as empty at once; one with a writer gives a byte or EAGAIN */
		n = read(in->fd, &probe, 1);
		if (n == 0) {
			*why = xstrdup("a FIFO with no writer (start the writer first, or read a pipe as '-')");
			goto fail;
		}
		if (n < 0 && errno != EAGAIN) {
			*why = xstrdup(strerror(errno));
			goto fail;
		}
		if (n == 1) {
			in->held = (unsigned char)probe;
			in->total = 1;
		}
	}
	/* from here reads wait for data as usual: a writer that is there will write or close */
	if (fcntl(in->fd, F_SETFL, fcntl(in->fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		*why = xstrdup(strerror(errno));
		goto fail;
	}
	return 0;
fail:
	kf_input_close(in);
	return -1;
}

/* The first bytes, kept for kf_sniff(): what a refused input looks like, a pipe's too. */
static void keep_head(struct kf_input *in, const void *buf, size_t n)
{
	if (n > sizeof(in->head) - in->nhead)
		n = sizeof(in->head) - in->nhead;
	memcpy(in->head + in->nhead, buf, n);
	in->nhead += n;
}

ssize_t kf_input_read(struct kf_input *in, void *buf, size_t len, char **why)
{
	ssize_t n;

	if (in->held >= 0 && len) {
		*(unsigned char *)buf = (unsigned char)in->held;
		in->held = -1;
		keep_head(in, buf, 1);
		return 1;
	}
	/* one byte more than the limit allows tells "past the limit" from "exactly at it" */
	if (len > in->limit - in->total)
		len = (size_t)(in->limit - in->total) + 1;
	do
		n = read(in->fd, buf, len);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		*why = xstrdup(strerror(errno));
		return -1;
	}
	in->total += (uint64_t)n;
	keep_head(in, buf, (size_t)n);
	if (in->total > in->limit) {
		*why = too_large(in->limit);
		return -1;
	}
	return n;
}

void kf_input_close(struct kf_input *in)
{
	if (in->own && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	in->own = false;
}

int kf_input_read_all(const char *path, uint64_t limit, struct strbuf *sb, char **why)
{
	struct kf_input in;
	char chunk[65536];
	ssize_t n;

	if (kf_input_open(&in, path, limit, why) < 0)
		return -1;
	while ((n = kf_input_read(&in, chunk, sizeof(chunk), why)) > 0)
		strbuf_add(sb, chunk, (size_t)n);
	kf_input_close(&in);
	return n < 0 ? -1 : 0;
}
