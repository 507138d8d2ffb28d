// SPDX-License-Identifier: GPL-2.0
#include "util/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xalloc.h"

char strbuf_empty[1];

void strbuf_init(struct strbuf *sb)
{
	sb->len = sb->alloc = 0;
	sb->buf = strbuf_empty;
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb);
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

static void grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;

	if (need <= sb->alloc)
		return;
	if (need < 64)
		need = 64;
	if (need < sb->alloc * 2)
		need = sb->alloc * 2;
	if (!sb->alloc) {
		sb->buf = xmalloc(need);
		sb->buf[0] = '\0';
	} else {
		sb->buf = xrealloc(sb->buf, need);
	}
	sb->alloc = need;
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s;

	grow(sb, 0);
	s = sb->buf;
	strbuf_init(sb);
	return s;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t n)
{
	grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_addchars(struct strbuf *sb, char c, size_t n)
{
	grow(sb, n);
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	char small[256];
	va_list cp;
	int n;

	/* Most strings fit the stack buffer: one formatting pass, no NULL destination for the sizing pass. */
	va_copy(cp, ap);
	n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n <= 0)
		return;
	if ((size_t)n < sizeof(small)) {
		strbuf_add(sb, small, (size_t)n);
		return;
	}
	grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int saved = errno;
			close(fd);
			errno = saved;
			return -1;
		}
		strbuf_add(sb, chunk, (size_t)n);
	}
	close(fd);
	return 0;
}
