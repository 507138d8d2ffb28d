// SPDX-License-Identifier: GPL-2.0
#include "util/json_writer.h"
#include "util/utf8.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/* Our documents nest 5 deep; a fixed stack keeps the writer allocation-free after jsonw_new(). */
#define JSONW_MAX_DEPTH 32

struct json_writer {
	FILE *f;
	unsigned style; /* enum jsonw_style */
	unsigned depth;
	bool after_name; /* a name was written: the value follows on the same line, no separator */
	struct {
		bool first;   /* no member written yet */
		bool inline_; /* members on one line */
	} stack[JSONW_MAX_DEPTH];
};

json_writer_t *jsonw_new_style(FILE *f, unsigned style)
{
	json_writer_t *w = xcalloc(1, sizeof(*w));

	w->f = f;
	w->style = style;
	return w;
}

json_writer_t *jsonw_new(FILE *f)
{
	return jsonw_new_style(f, 0);
}

void jsonw_destroy(json_writer_t **w)
{
	if (!*w)
		return;
	assert((*w)->depth == 0 && !(*w)->after_name);
	if (!((*w)->style & JSONW_COMPACT))
		fputc('\n', (*w)->f);
	free(*w);
	*w = NULL;
}

int jsonw_finish(json_writer_t **w)
{
	FILE *f = (*w)->f;

	jsonw_destroy(w);
	if (!ferror(f))
		return 0;
	if (!errno)
		errno = EIO;
	return -1;
}

bool jsonw_error(const json_writer_t *w)
{
	return ferror(w->f) != 0;
}

static void indent(json_writer_t *w, unsigned depth)
{
	if (w->style & JSONW_COMPACT)
		return;
	fputc('\n', w->f);
	for (unsigned i = 0; i < depth; i++)
		fputs("  ", w->f);
}

/* Separator before a member or an element: comma, then a new line or a space. */
static void sep(json_writer_t *w)
{
	if (w->after_name) {
		w->after_name = false;
		return;
	}
	if (!w->depth)
		return;
	if (!w->stack[w->depth - 1].first)
		fputc(',', w->f);
	if (w->stack[w->depth - 1].inline_) {
		if (!w->stack[w->depth - 1].first && !(w->style & JSONW_COMPACT))
			fputc(' ', w->f);
	} else {
		indent(w, w->depth);
	}
	w->stack[w->depth - 1].first = false;
}

/* The short forms of JSON's escapes, for JSONW_SHORT_ESCAPES; 0 where there is none. */
static char short_escape(unsigned char c)
{
	switch (c) {
	case '\b': return 'b';
	case '\f': return 'f';
	case '\n': return 'n';
	case '\r': return 'r';
	case '\t': return 't';
	default: return 0;
	}
}

static void put_string(json_writer_t *w, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', w->f);
	while (*s) {
		size_t n = utf8_seq_len(s);

		if (!n) {
			fprintf(w->f, "\\\\x%02x", *s);
			s++;
		} else if (*s == '\\') {
			fputs("\\\\\\\\", w->f);
			s++;
		} else if (*s == '"') {
			fputs("\\\"", w->f);
			s++;
		} else if (*s < 0x20) {
			if ((w->style & JSONW_SHORT_ESCAPES) && short_escape(*s))
				fprintf(w->f, "\\%c", short_escape(*s));
			else
				fprintf(w->f, "\\u%04x", *s);
			s++;
		} else {
			fwrite(s, 1, n, w->f);
			s += n;
		}
	}
	fputc('"', w->f);
}

void jsonw_name(json_writer_t *w, const char *name)
{
	assert(w->depth && !w->after_name);
	sep(w);
	put_string(w, name);
	fputs(w->style & JSONW_COMPACT ? ":" : ": ", w->f);
	w->after_name = true;
}

static void start(json_writer_t *w, char c, bool inline_)
{
	sep(w);
	assert(w->depth < JSONW_MAX_DEPTH);
	fputc(c, w->f);
	w->stack[w->depth].first = true;
	w->stack[w->depth].inline_ = inline_ || (w->depth && w->stack[w->depth - 1].inline_);
	w->depth++;
}

static void end(json_writer_t *w, char c)
{
	assert(w->depth && !w->after_name);
	w->depth--;
	if (!w->stack[w->depth].inline_ && (!w->stack[w->depth].first || (w->style & JSONW_OPEN_EMPTY)))
		indent(w, w->depth);
	fputc(c, w->f);
}

void jsonw_start_object(json_writer_t *w)
{
	start(w, '{', false);
}

void jsonw_start_object_inline(json_writer_t *w)
{
	start(w, '{', true);
}

void jsonw_end_object(json_writer_t *w)
{
	end(w, '}');
}

void jsonw_start_array(json_writer_t *w)
{
	start(w, '[', false);
}

void jsonw_start_array_inline(json_writer_t *w)
{
	start(w, '[', true);
}

void jsonw_end_array(json_writer_t *w)
{
	end(w, ']');
}

void jsonw_string(json_writer_t *w, const char *s)
{
	sep(w);
	if (s)
		put_string(w, s);
	else
		fputs("null", w->f);
}

void jsonw_null(json_writer_t *w)
{
	sep(w);
	fputs("null", w->f);
}

void jsonw_bool(json_writer_t *w, bool v)
{
	sep(w);
	fputs(v ? "true" : "false", w->f);
}

void jsonw_u64(json_writer_t *w, uint64_t v)
{
	sep(w);
	fprintf(w->f, "%" PRIu64, v);
}

void jsonw_int(json_writer_t *w, int64_t v)
{
	sep(w);
	fprintf(w->f, "%" PRId64, v);
}

void jsonw_fixed(json_writer_t *w, double v, int decimals)
{
	sep(w);
	/* JSON has no NaN or Infinity; and "-0.000" (also from -0.0001) would not come back as the same bytes. */
	if (!isfinite(v) || fabs(v) < 0.5 * pow(10, -decimals))
		v = 0;
	fprintf(w->f, "%.*f", decimals, v);
}

void jsonw_ns_as_s(json_writer_t *w, uint64_t ns)
{
	sep(w);
	fprintf(w->f, "%" PRIu64 ".%09" PRIu64, ns / 1000000000u, ns % 1000000000u);
}

void jsonw_string_field(json_writer_t *w, const char *name, const char *s)
{
	jsonw_name(w, name);
	jsonw_string(w, s);
}

void jsonw_null_field(json_writer_t *w, const char *name)
{
	jsonw_name(w, name);
	jsonw_null(w);
}

void jsonw_bool_field(json_writer_t *w, const char *name, bool v)
{
	jsonw_name(w, name);
	jsonw_bool(w, v);
}

void jsonw_u64_field(json_writer_t *w, const char *name, uint64_t v)
{
	jsonw_name(w, name);
	jsonw_u64(w, v);
}

void jsonw_int_field(json_writer_t *w, const char *name, int64_t v)
{
	jsonw_name(w, name);
	jsonw_int(w, v);
}

void jsonw_fixed_field(json_writer_t *w, const char *name, double v, int decimals)
{
	jsonw_name(w, name);
	jsonw_fixed(w, v, decimals);
}

void jsonw_ns_as_s_field(json_writer_t *w, const char *name, uint64_t ns)
{
	jsonw_name(w, name);
	jsonw_ns_as_s(w, ns);
}

char *jsonw_unescape_bytes(const char *s, bool *had_nul)
{
	struct strbuf sb = STRBUF_INIT;

	*had_nul = false;
	while (*s) {
		if (s[0] == '\\' && s[1] == '\\') {
			strbuf_addch(&sb, '\\');
			s += 2;
		} else if (s[0] == '\\' && s[1] == 'x' && hex_value(s[2]) >= 0 && hex_value(s[3]) >= 0) {
			char c = (char)(hex_value(s[2]) << 4 | hex_value(s[3]));

			if (c)
				strbuf_addch(&sb, c);
			else
				*had_nul = true;
			s += 4;
		} else {
			strbuf_addch(&sb, *s++);
		}
	}
	if (!sb.len)
		return xstrdup("");
	return strbuf_detach(&sb);
}

void jsonw_unescape_in_place(char *s)
{
	bool had_nul;
	char *u = jsonw_unescape_bytes(s, &had_nul);

	memcpy(s, u, strlen(u) + 1);
	free(u);
}

static void strings(json_writer_t *w, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		jsonw_string(w, v[i]);
	jsonw_end_array(w);
}

void jsonw_strings_field(json_writer_t *w, const char *name, const char *const *v, size_t n)
{
	jsonw_name(w, name);
	jsonw_start_array(w);
	strings(w, v, n);
}

void jsonw_strings_field_inline(json_writer_t *w, const char *name, const char *const *v, size_t n)
{
	jsonw_name(w, name);
	jsonw_start_array_inline(w);
	strings(w, v, n);
}
