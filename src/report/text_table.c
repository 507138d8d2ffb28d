// SPDX-License-Identifier: GPL-2.0
// The text report's tables of strings (text_internal.h): names left, numbers right, columns two spaces apart.
#include <stdlib.h>
#include <string.h>

#include "report/text_internal.h"
#include "util/xalloc.h"

/* Columns on a terminal: UTF-8 continuation bytes take none ("µs/call" is 7 wide). */
static size_t width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

void text_table_add(struct text_table *t, char *const cells[])
{
	XGROW(t->cells, t->cap, (t->nrows + 1) * t->ncols);
	memcpy(&t->cells[t->nrows * t->ncols], cells, t->ncols * sizeof(*cells));
	t->nrows++;
}

static void table_line(struct strbuf *sb, const char *indent, const size_t *w, size_t ncols, const bool *right,
		       const char *const *c)
{
	size_t start = sb->len;

	strbuf_addstr(sb, indent);
	for (size_t k = 0; k < ncols; k++) {
		size_t pad = w[k] - width(c[k]);

		if (k)
			strbuf_addstr(sb, "  ");
		if (right[k])
			strbuf_addchars(sb, ' ', pad);
		strbuf_addstr(sb, c[k]);
		if (!right[k])
			strbuf_addchars(sb, ' ', pad);
	}
	while (sb->len > start && sb->buf[sb->len - 1] == ' ')
		sb->len--;
	sb->buf[sb->len] = '\0';
	strbuf_addch(sb, '\n');
}

void text_table_print(struct strbuf *sb, const char *indent, struct text_table *t)
{
	size_t w[TEXT_MAXCOLS];
	char *dash[TEXT_MAXCOLS];

	for (size_t k = 0; k < t->ncols; k++) {
		w[k] = width(t->heads[k]);
		for (size_t r = 0; r < t->nrows; r++)
			if (width(t->cells[r * t->ncols + k]) > w[k])
				w[k] = width(t->cells[r * t->ncols + k]);
		dash[k] = xmalloc(w[k] + 1);
		memset(dash[k], '-', w[k]);
		dash[k][w[k]] = '\0';
	}
	table_line(sb, indent, w, t->ncols, t->right, t->heads);
	table_line(sb, indent, w, t->ncols, t->right, (const char *const *)dash);
	for (size_t r = 0; r < t->nrows; r++)
		table_line(sb, indent, w, t->ncols, t->right, (const char *const *)&t->cells[r * t->ncols]);
	for (size_t k = 0; k < t->ncols; k++)
		free(dash[k]);
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
}
