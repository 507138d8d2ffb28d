/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_JSON_WRITER_H
#define KF_UTIL_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A streaming JSON writer in the shape of bpftool's: an opaque writer over a FILE *, containers opened and
 * closed in order, the writer placing commas, newlines and indentation. Invariant: every container opened is
 * closed before jsonw_destroy(), which asserts it (a half-written document is a bug, not an input error).
 *
 * Strings are byte strings (paths come raw from the kernel and need not be UTF-8). The one rule, reversed by
 * jsonw_unescape_bytes():
 *   - valid UTF-8 is written as is, except that '"' and '\' are escaped and every byte below 0x20 becomes
 *     \u00XX (the short forms \n, \t... are not used, so the output is easy to grep);
 *   - a byte that is not part of valid UTF-8 is written as the four characters \xHH, i.e. the JSON text "\\xHH";
 *   - so that this stays reversible, a backslash in the input is written doubled, i.e. the JSON text "\\\\".
 * A JSON reader thus sees "a\b" as the 4 characters a\\b; jsonw_unescape_bytes() gives back the 3 bytes.
 *
 * Write errors are sticky in the FILE; jsonw_error() reports them.
 */
typedef struct json_writer json_writer_t;

json_writer_t *jsonw_new(FILE *f);
/* Asserts that every container was closed; writes the final newline. *w becomes NULL. */
void jsonw_destroy(json_writer_t **w);
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

/*
 * Reverses the byte-string rule above on a string as a JSON parser decoded it: "\\" gives one backslash and
 * "\xHH" gives the byte 0xHH; any other backslash is kept as it is (hand-written files stay readable).
 * Returns a new string (caller frees); *had_nul is set when a \x00 would have cut the string (it is
 * dropped), so callers can refuse it.
 */
char *jsonw_unescape_bytes(const char *s, bool *had_nul);

#endif
