/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_STRBUF_H
#define KF_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * A growable string in the manner of git's strbuf. Invariant: buf is always NUL-terminated and never
 * NULL (an empty strbuf points at a shared empty string until the first append).
 */
struct strbuf {
	size_t len;
	size_t alloc;
	char *buf;
};

extern char strbuf_empty[];
#define STRBUF_INIT                \
	{                          \
		0, 0, strbuf_empty \
	}

void strbuf_init(struct strbuf *sb);
/* Frees the buffer and leaves sb empty and reusable. */
void strbuf_release(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
/* Hands the buffer over to the caller (who frees it) and leaves sb empty. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const void *data, size_t n);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addchars(struct strbuf *sb, char c, size_t n);
__attribute__((format(printf, 2, 3))) void strbuf_addf(struct strbuf *sb, const char *fmt, ...);
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Reads the whole file; returns -1 with errno set on failure. */
int strbuf_read_file(struct strbuf *sb, const char *path);

#endif
