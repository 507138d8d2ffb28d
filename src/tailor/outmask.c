// SPDX-License-Identifier: GPL-2.0
// Standard output compared modulo what the user says varies from run to run (outmask.h).
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tailor/outmask.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define PLACEHOLDER "<masked>"

int tl_masks_add(struct tl_masks *m, const char *ere)
{
	if (m->n == TL_MASKS_MAX)
		return error("tailor: --stdout-mask: more than %d masks", TL_MASKS_MAX);
	int rc = regcomp(&m->re[m->n], ere, REG_EXTENDED);
	if (rc) {
		char why[256];
		regerror(rc, &m->re[m->n], why, sizeof(why));
		regfree(&m->re[m->n]);
		return error("tailor: --stdout-mask '%s': %s", ere, why);
	}
	regmatch_t at;
	if (regexec(&m->re[m->n], "", 1, &at, 0) == 0) {
		/* one that matches nothing at all would match between every two bytes: it masks nothing useful */
		regfree(&m->re[m->n]);
		return error("tailor: --stdout-mask '%s': it matches the empty string", ere);
	}
	m->src[m->n++] = ere;
	return 0;
}

void tl_masks_release(struct tl_masks *m)
{
	for (size_t i = 0; i < m->n; i++)
		regfree(&m->re[i]);
	m->n = 0;
}

/* One line (no '\n' nor NUL in it) through one mask after another, into out. */
static void mask_line(const struct tl_masks *m, const char *line, struct strbuf *out)
{
	char *cur = xstrdup(line);
	for (size_t i = 0; i < m->n; i++) {
		struct strbuf next = STRBUF_INIT;
		const char *p = cur;
		regmatch_t at;
		int flags = 0;
		while (*p && regexec(&m->re[i], p, 1, &at, flags) == 0 && at.rm_eo > at.rm_so) {
			strbuf_add(&next, p, (size_t)at.rm_so);
			strbuf_addstr(&next, PLACEHOLDER);
			p += at.rm_eo;
			flags = REG_NOTBOL;
		}
		strbuf_addstr(&next, p);
		free(cur);
		cur = strbuf_detach(&next);
	}
	strbuf_addstr(out, cur);
	free(cur);
}

char *tl_masks_apply(const struct tl_masks *m, const char *text, size_t len, size_t *out_len)
{
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < len;) {
		size_t n = 0;
		while (i + n < len && text[i + n] != '\n' && text[i + n] != '\0')
			n++;
		char *line = xstrndup(text + i, n);
		mask_line(m, line, &out);
		free(line);
		if (i + n < len)
			strbuf_add(&out, text + i + n, 1); /* the '\n' or NUL that ended it */
		i += n + 1;
	}
	*out_len = out.len;
	return strbuf_detach(&out);
}

int tl_masks_same_files(const struct tl_masks *m, const char *a, const char *b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	int same = -1;
	if (strbuf_read_file(&x, a) >= 0 && strbuf_read_file(&y, b) >= 0) {
		size_t nx, ny;
		char *mx = tl_masks_apply(m, x.buf ? x.buf : "", x.len, &nx);
		char *my = tl_masks_apply(m, y.buf ? y.buf : "", y.len, &ny);
		same = nx == ny && !memcmp(mx, my, nx);
		free(mx);
		free(my);
	}
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}
