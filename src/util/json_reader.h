/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_JSON_READER_H
#define KF_UTIL_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/input.h"
#include "util/strbuf.h"

/*
 * A pull reader of strict JSON (RFC 8259), one event at a time, over a buffer or a bounded input read in
 * chunks: memory is the current token and the open containers, whatever the document's size, so a reader of
 * a large footprint keeps only what it builds. Strings come decoded to UTF-8 (invalid UTF-8 is refused, a
 * lone surrogate escape becomes U+FFFD, \u0000 a NUL byte inside text.len); numbers come as written, for the
 * caller to convert with the range it needs. The first problem stops the reader: every later call returns
 * JR_ERROR and jr_error() says what and where ("unexpected character at line 3, column 7").
 */
enum jr_event {
	JR_ERROR = -1,
	JR_EOF = 0, /* the document ended, with nothing but white space after it */
	JR_OBJECT,  /* '{': members follow as JR_KEY and a value each, until JR_OBJECT_END */
	JR_OBJECT_END,
	JR_ARRAY, /* '[': values follow until JR_ARRAY_END */
	JR_ARRAY_END,
	JR_KEY, /* text holds the member's name */
	JR_STRING,
	JR_NUMBER, /* text holds it as written; is_int when it has no fraction or exponent */
	JR_TRUE,
	JR_FALSE,
	JR_NULL,
};

/* Tokens longer than these are refused: no footprint has them, and they would be memory an input chooses. */
#define JR_MAX_STRING (1u << 20)
#define JR_MAX_NUMBER 1024u

struct json_reader {
	struct strbuf text; /* JR_KEY, JR_STRING, JR_NUMBER */
	bool is_int;
	int depth; /* containers open */
	/* private */
	const char *buf;
	size_t pos, len;
	char *own; /* the chunk buffer when reading an input */
	struct kf_input *in;
	uint64_t base;	     /* offset in the document of buf[0] */
	uint64_t line_start; /* offset of the current line's first byte */
	uint64_t line;
	int max_depth;
	unsigned char *stack; /* per open container: what comes next */
	char *err;
};

void jr_init_mem(struct json_reader *jr, const char *buf, size_t len, int max_depth);
/* Reads in from where it is; jr_release() does not close it. */
void jr_init_input(struct json_reader *jr, struct kf_input *in, int max_depth);
void jr_release(struct json_reader *jr);

enum jr_event jr_next(struct json_reader *jr);
/* After the event that opened a value (any event but JR_KEY and the ends): reads past the rest of it. 0 or -1. */
int jr_skip(struct json_reader *jr, enum jr_event ev);
/*
 * Reads on until the container at depth is between two members or elements again (the value in progress
 * inside it, if any, read past): where a caller that gave up on a value carries on. 0 or -1.
 */
int jr_resync(struct json_reader *jr, int depth);
/*
 * Reads past the rest of the innermost open container, as its closing bracket's event would, looking only at
 * strings and brackets: for a text in memory whose grammar is known good already (the embedded databases, which
 * the tests read whole with jr_next()), where tokenizing what the caller does not want is most of the cost. A
 * reader of an input reads past it the checking way. 0 or -1.
 */
int jr_close_unchecked(struct json_reader *jr);
/* What stopped the reader, "not JSON: ..." for a syntax error; NULL while it has not stopped. */
const char *jr_error(const struct json_reader *jr);

#endif
