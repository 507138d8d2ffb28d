/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_JSON_WRITER_H
#define KF_UTIL_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The one JSON writer of kfootprint: footprints, maps and map databases all go through it (json-c is used
 * for reading only). A streaming writer in the shape of bpftool's: an opaque writer over a FILE *, containers
 * opened and closed in order, the writer placing commas, newlines and indentation. Invariant: every container
 * opened is closed before jsonw_destroy(), which asserts it (a half-written document is a bug, not an input
 * error).
 *
 * Strings are byte strings (paths and argv come raw from the kernel and need not be UTF-8). The one rule, the
 * same in every document and reversed by jsonw_unescape_bytes():
 *   - valid UTF-8 is written as is, except that '"' and '\' are escaped and every byte below 0x20 is escaped
 *     (as \u00XX, or in the short forms \n, \t... with JSONW_SHORT_ESCAPES: a JSON reader decodes both alike);
 *   - a byte that is not part of valid UTF-8 is written as the four characters \xHH, i.e. the JSON text "\\xHH",
 *     so that the document is valid UTF-8 whatever the input;
 *   - so that this stays reversible, a backslash in the input is written doubled, i.e. the JSON text "\\\\".
 * A JSON reader thus sees "a\b" as the 4 characters a\\b; jsonw_unescape_bytes() gives back the 3 bytes.
 *
 * Write errors are sticky in the FILE; jsonw_error() reports them.
 */
typedef struct json_writer json_writer_t;

/*
 * Layouts. The default: two-space indentation, a member or element a line, except in inline containers; empty
 * containers as {} and []. A document keeps the layout it was first published with, so that its bytes do not
 * change from one version to the next: the footprint has the default, `map -F json` the pretty layout json-c
 * gave it (JSONW_SHORT_ESCAPES | JSONW_OPEN_EMPTY), a map database's records json-c's plain one
 * (JSONW_COMPACT | JSONW_SHORT_ESCAPES).
 */
enum jsonw_style {
	JSONW_SHORT_ESCAPES = 1 << 0, /* \b \f \n \r \t for those bytes instead of \u00XX */
	JSONW_OPEN_EMPTY = 1 << 1,    /* an empty container on two lines: "[" then the closing "]" indented */
	JSONW_COMPACT = 1 << 2,	      /* no whitespace at all, and no newline after the document */
};

json_writer_t *jsonw_new(FILE *f);
/* A writer with a layout of enum jsonw_style. */
json_writer_t *jsonw_new_style(FILE *f, unsigned style);
/* Asserts that every container was closed; writes the final newline (none when compact). *w becomes NULL. */
void jsonw_destroy(json_writer_t **w);
/* jsonw_destroy(), then 0, or -1 with errno set (EIO when the stream left none) when the stream had a write error. */
int jsonw_finish(json_writer_t **w);
/* True when the stream had a write error. */
bool jsonw_error(const json_writer_t *w);

void jsonw_name(json_writer_t *w, const char *name);
void jsonw_start_object(json_writer_t *w);
void jsonw_end_object(json_writer_t *w);
void jsonw_start_array(json_writer_t *w);
void jsonw_end_array(json_writer_t *w);
/* Containers whose members all go on one line ({"a": 1, "b": 2}); nested containers stay on that line. */
void jsonw_start_object_inline(json_writer_t *w);
void jsonw_start_array_inline(json_writer_t *w);

void jsonw_string(json_writer_t *w, const char *s); /* NULL writes null */
void jsonw_null(json_writer_t *w);
void jsonw_bool(json_writer_t *w, bool v);
void jsonw_u64(json_writer_t *w, uint64_t v);
void jsonw_int(json_writer_t *w, int64_t v);
/* A fixed-point number with `decimals` digits after the point: %.*f; non-finite values are written as 0. */
void jsonw_fixed(json_writer_t *w, double v, int decimals);
/* Nanoseconds as exact seconds with 9 decimals ("0.000710000"): no binary rounding on the way. */
void jsonw_ns_as_s(json_writer_t *w, uint64_t ns);

void jsonw_string_field(json_writer_t *w, const char *name, const char *s);
void jsonw_null_field(json_writer_t *w, const char *name);
void jsonw_bool_field(json_writer_t *w, const char *name, bool v);
void jsonw_u64_field(json_writer_t *w, const char *name, uint64_t v);
void jsonw_int_field(json_writer_t *w, const char *name, int64_t v);
void jsonw_fixed_field(json_writer_t *w, const char *name, double v, int decimals);
void jsonw_ns_as_s_field(json_writer_t *w, const char *name, uint64_t ns);
/* A member whose value is the array of n strings v (a NULL one writes null); _inline: on one line. */
void jsonw_strings_field(json_writer_t *w, const char *name, const char *const *v, size_t n);
void jsonw_strings_field_inline(json_writer_t *w, const char *name, const char *const *v, size_t n);

/*
 * Reverses the byte-string rule above on a string as a JSON parser decoded it: "\\" gives one backslash and
 * "\xHH" gives the byte 0xHH; any other backslash is kept as it is (hand-written files stay readable).
 * Returns a new string (caller frees); *had_nul is set when a \x00 would have cut the string (it is
 * dropped), so callers can refuse it.
 */
char *jsonw_unescape_bytes(const char *s, bool *had_nul);
/* The same in place (the result is never longer); a \x00 is dropped. */
void jsonw_unescape_in_place(char *s);

#endif
