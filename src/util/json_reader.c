// SPDX-License-Identifier: GPL-2.0
#include "util/json_reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"
#include "util/xalloc.h"

#define CHUNK 65536

/* What a container expects next. */
enum {
	S_OBJ_FIRST, /* after '{': a key or '}' */
	S_OBJ_KEY,   /* after ',': a key */
	S_OBJ_COLON, /* after a key */
	S_OBJ_VALUE, /* after ':' */
	S_OBJ_NEXT,  /* after a value: ',' or '}' */
	S_ARR_FIRST, /* after '[': a value or ']' */
	S_ARR_VALUE, /* after ',' */
	S_ARR_NEXT,  /* after a value: ',' or ']' */
	S_TOP,	     /* the document's value */
	S_DONE,	     /* after it: only white space */
};

static void init(struct json_reader *jr, int max_depth)
{
	memset(jr, 0, sizeof(*jr));
	strbuf_init(&jr->text);
	jr->line = 1;
	jr->max_depth = max_depth;
	jr->stack = xmalloc((size_t)max_depth + 1);
	jr->stack[0] = S_TOP;
}

void jr_init_mem(struct json_reader *jr, const char *buf, size_t len, int max_depth)
{
	init(jr, max_depth);
	jr->buf = buf;
	jr->len = len;
}

void jr_init_input(struct json_reader *jr, struct kf_input *in, int max_depth)
{
	init(jr, max_depth);
	jr->in = in;
	jr->own = xmalloc(CHUNK);
	jr->buf = jr->own;
}

void jr_release(struct json_reader *jr)
{
	strbuf_release(&jr->text);
	free(jr->own);
	free(jr->stack);
	free(jr->err);
	memset(jr, 0, sizeof(*jr));
}

const char *jr_error(const struct json_reader *jr)
{
	return jr->err;
}

static uint64_t offset(const struct json_reader *jr)
{
	return jr->base + jr->pos;
}

/* Stops the reader at the current position: "not JSON: what at line L, column C" (or as given, raw). */
__attribute__((format(printf, 3, 4))) static enum jr_event stop(struct json_reader *jr, bool syntax, const char *fmt,
								...)
{
	char what[256];
	va_list ap;

	if (jr->err)
		return JR_ERROR;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	jr->err = xasprintf("%s%s at line %llu, column %llu", syntax ? "not JSON: " : "", what,
			    (unsigned long long)jr->line, (unsigned long long)(offset(jr) - jr->line_start + 1));
	return JR_ERROR;
}

/* Bytes available at pos, reading more when there are none: > 0, 0 at the end, -1 after stopping. */
static int fill(struct json_reader *jr)
{
	char *why = NULL;
	ssize_t n;

	if (jr->pos < jr->len)
		return 1;
	if (!jr->in || jr->err)
		return jr->err ? -1 : 0;
	jr->base += jr->len;
	jr->pos = jr->len = 0;
	n = kf_input_read(jr->in, jr->own, CHUNK, &why);
	if (n < 0) {
		free(jr->err);
		jr->err = why;
		return -1;
	}
	jr->len = (size_t)n;
	return n > 0;
}

/* The next byte, or -1 at the end (or after stopping). */
static int peek(struct json_reader *jr)
{
	return fill(jr) > 0 ? (unsigned char)jr->buf[jr->pos] : -1;
}

static void skip_space(struct json_reader *jr)
{
	while (fill(jr) > 0) {
		const char *b = jr->buf;
		size_t i = jr->pos;

		for (; i < jr->len; i++) {
			if (b[i] == '\n') {
				jr->line++;
				jr->line_start = jr->base + i + 1;
			} else if (b[i] != ' ' && b[i] != '\t' && b[i] != '\r') {
				break;
			}
		}
		jr->pos = i;
		if (i < jr->len)
			break;
	}
}

static enum jr_event unexpected(struct json_reader *jr)
{
	if (jr->err)
		return JR_ERROR;
	if (peek(jr) < 0)
		return jr->err ? JR_ERROR : stop(jr, true, "unexpected end of data");
	return stop(jr, true, "unexpected character");
}

/* Four hex digits after "\u"; -1 after stopping. */
static long hex4(struct json_reader *jr)
{
	long v = 0;

	for (int i = 0; i < 4; i++) {
		int c = peek(jr), h = c < 0 ? -1 : hex_value(c);

		if (h < 0) {
			unexpected(jr);
			return -1;
		}
		jr->pos++;
		v = v << 4 | h;
	}
	return v;
}

static void put_utf8(struct strbuf *sb, unsigned long cp)
{
	char b[4];
	size_t n;

	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		b[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	strbuf_add(sb, b, n);
}

/* An escape after the backslash. 0, or -1 after stopping. */
static int escape(struct json_reader *jr)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	int c = peek(jr);
	const char *e = c > 0 ? strchr(from, c) : NULL;
	long cp, lo;

	if (c != 'u') {
		if (!e) {
			unexpected(jr);
			return -1;
		}
		jr->pos++;
		strbuf_addch(&jr->text, to[e - from]);
		return 0;
	}
	jr->pos++;
	cp = hex4(jr);
	if (cp < 0)
		return -1;
	if (cp >= 0xdc00 && cp <= 0xdfff) {
		cp = 0xfffd; /* a low surrogate alone */
	} else if (cp >= 0xd800 && cp <= 0xdbff) {
		/* a high surrogate pairs with a low one right after it, or stands alone */
		if (peek(jr) != '\\') {
			if (jr->err)
				return -1;
			put_utf8(&jr->text, 0xfffd);
			return 0;
		}
		jr->pos++;
		if (peek(jr) != 'u') {
			put_utf8(&jr->text, 0xfffd);
			return escape(jr); /* the backslash read starts an escape of another kind */
		}
		jr->pos++;
		lo = hex4(jr);
		if (lo < 0)
			return -1;
		if (lo >= 0xdc00 && lo <= 0xdfff) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
		} else {
			put_utf8(&jr->text, 0xfffd);
			cp = lo >= 0xd800 && lo <= 0xdbff ? 0xfffd : lo;
		}
	}
	put_utf8(&jr->text, (unsigned long)cp);
	return 0;
}

/* A string after its opening quote, into text. 0, or -1 after stopping. */
static int string(struct json_reader *jr)
{
	strbuf_reset(&jr->text);
	for (;;) {
		size_t start, end;
		int c;

		if (fill(jr) <= 0) {
			unexpected(jr);
			return -1;
		}
		/* the plain run, copied at once */
		start = jr->pos;
		end = start;
		while (end < jr->len && end - start < JR_MAX_STRING) {
			unsigned char b = (unsigned char)jr->buf[end];

			if (b < 0x20 || b == '"' || b == '\\' || b >= 0x80)
				break;
			end++;
		}
		strbuf_add(&jr->text, jr->buf + start, end - start);
		jr->pos = end;
		if (jr->text.len > JR_MAX_STRING) {
			stop(jr, false, "a string longer than 1 MiB");
			return -1;
		}
		if (end == jr->len || end - start == JR_MAX_STRING)
			continue;
		c = (unsigned char)jr->buf[jr->pos];
		if (c == '"') {
			jr->pos++;
			return 0;
		}
		if (c == '\\') {
			jr->pos++;
			if (escape(jr) < 0)
				return -1;
			continue;
		}
		if (c < 0x20) {
			stop(jr, true, "a control character in a string");
			return -1;
		}
		/* a UTF-8 sequence, possibly across two chunks */
		unsigned char seq[5] = {0};
		size_t n = 0, want;

		seq[n++] = (unsigned char)c;
		want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
		jr->pos++;
		while (n < want && peek(jr) >= 0x80 && peek(jr) < 0xc0) {
			seq[n++] = (unsigned char)jr->buf[jr->pos];
			jr->pos++;
		}
		if (jr->err)
			return -1;
		if (utf8_seq_len(seq) != n || n != want) {
			stop(jr, true, "invalid UTF-8 in a string");
			return -1;
		}
		strbuf_add(&jr->text, seq, n);
	}
}

static bool delimiter(int c)
{
	return c < 0 || c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int digits(struct json_reader *jr)
{
	int n = 0;

	while (fill(jr) > 0) {
		size_t end = jr->pos;

		while (end < jr->len && jr->buf[end] >= '0' && jr->buf[end] <= '9')
			end++;
		if (jr->text.len + (end - jr->pos) > JR_MAX_NUMBER) {
			stop(jr, false, "a number of more than %u characters", JR_MAX_NUMBER);
			return 0;
		}
		strbuf_add(&jr->text, jr->buf + jr->pos, end - jr->pos);
		n += (int)(end - jr->pos);
		jr->pos = end;
		if (end < jr->len)
			break;
	}
	return n;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, then a delimiter. 0, or -1 after stopping. */
static int number(struct json_reader *jr)
{
	int c;

	strbuf_reset(&jr->text);
	jr->is_int = true;
	if (peek(jr) == '-') {
		strbuf_addch(&jr->text, '-');
		jr->pos++;
	}
	c = peek(jr);
	if (c == '0') {
		strbuf_addch(&jr->text, '0');
		jr->pos++;
	} else if (c < '1' || c > '9' || !digits(jr)) {
		unexpected(jr);
		return -1;
	}
	if (peek(jr) == '.') {
		jr->is_int = false;
		strbuf_addch(&jr->text, '.');
		jr->pos++;
		if (!digits(jr)) {
			unexpected(jr);
			return -1;
		}
	}
	c = peek(jr);
	if (c == 'e' || c == 'E') {
		jr->is_int = false;
		strbuf_addch(&jr->text, (char)c);
		jr->pos++;
		c = peek(jr);
		if (c == '+' || c == '-') {
			strbuf_addch(&jr->text, (char)c);
			jr->pos++;
		}
		if (!digits(jr)) {
			unexpected(jr);
			return -1;
		}
	}
	if (jr->err)
		return -1;
	if (!delimiter(peek(jr))) {
		unexpected(jr);
		return -1;
	}
	return 0;
}

static int literal(struct json_reader *jr, const char *word)
{
	for (const char *w = word; *w; w++) {
		if (peek(jr) != *w) {
			unexpected(jr);
			return -1;
		}
		jr->pos++;
	}
	if (!delimiter(peek(jr))) {
		unexpected(jr);
		return -1;
	}
	return 0;
}

static unsigned char *top(struct json_reader *jr)
{
	return &jr->stack[jr->depth];
}

/* A value just ended: its container now waits for a separator. */
static void value_done(struct json_reader *jr)
{
	unsigned char *s = top(jr);

	*s = *s == S_TOP ? S_DONE : *s <= S_OBJ_NEXT ? S_OBJ_NEXT : S_ARR_NEXT;
}

static enum jr_event open_container(struct json_reader *jr, unsigned char state, enum jr_event ev)
{
	if (jr->depth >= jr->max_depth)
		return stop(jr, true, "nesting too deep");
	jr->pos++;
	jr->stack[++jr->depth] = state;
	return ev;
}

static enum jr_event close_container(struct json_reader *jr, enum jr_event ev)
{
	jr->pos++;
	jr->depth--;
	value_done(jr);
	return ev;
}

static enum jr_event value(struct json_reader *jr)
{
	int c = peek(jr);

	switch (c) {
	case '{': return open_container(jr, S_OBJ_FIRST, JR_OBJECT);
	case '[': return open_container(jr, S_ARR_FIRST, JR_ARRAY);
	case '"':
		jr->pos++;
		if (string(jr) < 0)
			return JR_ERROR;
		value_done(jr);
		return JR_STRING;
	case 't':
	case 'f':
	case 'n':
		if (literal(jr, c == 't' ? "true" : c == 'f' ? "false" : "null") < 0)
			return JR_ERROR;
		value_done(jr);
		return c == 't' ? JR_TRUE : c == 'f' ? JR_FALSE : JR_NULL;
	default:
		if (c != '-' && (c < '0' || c > '9'))
			return unexpected(jr);
		if (number(jr) < 0)
			return JR_ERROR;
		value_done(jr);
		return JR_NUMBER;
	}
}

enum jr_event jr_next(struct json_reader *jr)
{
	for (;;) {
		int c;

		if (jr->err)
			return JR_ERROR;
		skip_space(jr);
		c = peek(jr);
		if (jr->err)
			return JR_ERROR;
		switch (*top(jr)) {
		case S_TOP:
			if (c < 0 && !offset(jr)) {
				jr->err = xstrdup("not JSON: empty file");
				return JR_ERROR;
			}
			return value(jr);
		case S_DONE: return c < 0 ? JR_EOF : unexpected(jr);
		case S_OBJ_FIRST:
			if (c == '}')
				return close_container(jr, JR_OBJECT_END);
			/* fall through */
		case S_OBJ_KEY:
			if (c != '"')
				return unexpected(jr);
			jr->pos++;
			if (string(jr) < 0)
				return JR_ERROR;
			*top(jr) = S_OBJ_COLON;
			return JR_KEY;
		case S_OBJ_COLON:
			if (c != ':')
				return unexpected(jr);
			jr->pos++;
			*top(jr) = S_OBJ_VALUE;
			continue;
		case S_OBJ_VALUE:
		case S_ARR_VALUE: return value(jr);
		case S_OBJ_NEXT:
			if (c == '}')
				return close_container(jr, JR_OBJECT_END);
			if (c != ',')
				return unexpected(jr);
			jr->pos++;
			*top(jr) = S_OBJ_KEY;
			continue;
		case S_ARR_FIRST:
			if (c == ']')
				return close_container(jr, JR_ARRAY_END);
			return value(jr);
		case S_ARR_NEXT:
			if (c == ']')
				return close_container(jr, JR_ARRAY_END);
			if (c != ',')
				return unexpected(jr);
			jr->pos++;
			*top(jr) = S_ARR_VALUE;
			continue;
		}
	}
}

int jr_skip(struct json_reader *jr, enum jr_event ev)
{
	int depth = jr->depth;

	if (ev == JR_ERROR)
		return -1;
	if (ev != JR_OBJECT && ev != JR_ARRAY)
		return 0;
	while (jr->depth >= depth)
		if (jr_next(jr) == JR_ERROR)
			return -1;
	return 0;
}

int jr_resync(struct json_reader *jr, int depth)
{
	while (jr->depth > depth || (jr->depth == depth && *top(jr) != S_OBJ_NEXT && *top(jr) != S_ARR_NEXT &&
				     *top(jr) != S_OBJ_FIRST && *top(jr) != S_ARR_FIRST)) {
		if (jr->depth < depth)
			return 0;
		if (jr_next(jr) == JR_ERROR)
			return -1;
	}
	return 0;
}

int jr_close_unchecked(struct json_reader *jr)
{
	/* the bytes that matter outside a string; most of a record is strings, which memchr crosses */
	static const unsigned char special[256] = {['"'] = 1, ['\n'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1};
	const char *b = jr->buf;
	size_t i = jr->pos, n = jr->len;
	int depth = 1;

	if (jr->err || !jr->depth)
		return jr->err ? -1 : 0;
	if (jr->in) {
		int at = jr->depth;

		while (jr->depth >= at)
			if (jr_next(jr) == JR_ERROR)
				return -1;
		return 0;
	}
	for (; i < n; i++) {
		while (i < n && !special[(unsigned char)b[i]])
			i++;
		if (i == n)
			break;
		switch (b[i]) {
		case '"':
			/* a string's brackets are not the document's; a valid one holds no raw newline */
			for (;;) {
				const char *q = memchr(b + i + 1, '"', n - i - 1);
				size_t bs = 0;

				if (!q) {
					i = n;
					break;
				}
				i = (size_t)(q - b);
				while (b[i - 1 - bs] == '\\')
					bs++;
				if (!(bs & 1))
					break;
			}
			break;
		case '\n':
			jr->line++;
			jr->line_start = jr->base + i + 1;
			break;
		case '{':
		case '[': depth++; break;
		default:
			if (--depth)
				break;
			jr->pos = i;
			close_container(jr, JR_OBJECT_END);
			return 0;
		}
	}
	jr->pos = n;
	unexpected(jr);
	return -1;
}
