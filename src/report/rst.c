// SPDX-License-Identifier: GPL-2.0
/*
 * reStructuredText in the seed guide's form, ready to paste into kernel documentation: a title, the workload
 * as a literal block (safe for any command line), then one section per subsystem class holding a grid table
 * System Call | # calls | errors | Linux Subsystem | System Call (API). Valid for docutils (tested with
 * halt_level=2, i.e. not even a warning).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_util.h"

#define NCOLS 5

static const char *const heads[NCOLS] = {"System Call", "# calls", "errors", "Linux Subsystem", "System Call (API)"};

struct cells {
	char c[NCOLS][128];
};

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || (c & 0x80);
}

/*
 * Text from a loaded file (a class name, say) must not turn into markup: the inline markup characters are
 * escaped, '_' where it could end a reference ("foo_"), and a leading punctuation character that could start
 * a list or a transition. Names from the kernel's tables come out unchanged ("sys_read()").
 */
static void add_escaped(struct strbuf *sb, const char *s)
{
	struct strbuf d = STRBUF_INIT;

	rpt_add_display(&d, s);
	for (const char *p = d.buf; *p; p++) {
		bool esc =
		    strchr("\\*`|", *p) || (*p == '_' && !is_alnum(p[1])) || (p == d.buf && !is_alnum(*p) && *p != ' ');

		if (esc)
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *p);
	}
	strbuf_release(&d);
}

static void cells_of(const struct fp_sysstat *s, struct cells *c)
{
	char nbuf[96], abuf[96];
	struct strbuf k = STRBUF_INIT;

	snprintf(c->c[1], sizeof(c->c[1]), "%" PRIu64, s->calls);
	snprintf(c->c[2], sizeof(c->c[2]), "%" PRIu64, s->errors);
	add_escaped(&k, rpt_sc_name(s, nbuf, sizeof(nbuf)));
	snprintf(c->c[0], sizeof(c->c[0]), "%s", k.buf);
	strbuf_reset(&k);
	add_escaped(&k, fp_sysstat_class(s));
	snprintf(c->c[3], sizeof(c->c[3]), "%s", k.buf);
	strbuf_reset(&k);
	snprintf(abuf, sizeof(abuf), "%s()", fp_sysstat_api(s, nbuf, sizeof(nbuf)));
	add_escaped(&k, abuf);
	snprintf(c->c[4], sizeof(c->c[4]), "%s", k.buf);
	strbuf_release(&k);
}

/* Display width in characters: UTF-8 continuation bytes take no column (all our cells are displayable). */
static size_t width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void border(struct strbuf *sb, const size_t w[NCOLS], char c)
{
	for (int i = 0; i < NCOLS; i++) {
		strbuf_addch(sb, '+');
		strbuf_addchars(sb, c, w[i] + 2);
	}
	strbuf_addstr(sb, "+\n");
}

static void line(struct strbuf *sb, const size_t w[NCOLS], const char *const c[NCOLS])
{
	for (int i = 0; i < NCOLS; i++) {
		strbuf_addstr(sb, "| ");
		strbuf_addstr(sb, c[i]);
		strbuf_addchars(sb, ' ', w[i] - width(c[i]) + 1);
	}
	strbuf_addstr(sb, "|\n");
}

static void title(struct strbuf *sb, const char *t, char under)
{
	strbuf_addstr(sb, t);
	strbuf_addch(sb, '\n');
	strbuf_addchars(sb, under, width(t));
	strbuf_addstr(sb, "\n\n");
}

static void table(struct strbuf *sb, const struct rpt_group *g)
{
	size_t w[NCOLS];
	struct cells c;

	for (int i = 0; i < NCOLS; i++)
		w[i] = width(heads[i]);
	for (size_t j = 0; j < g->n; j++) {
		cells_of(g->rows[j], &c);
		for (int i = 0; i < NCOLS; i++)
			if (width(c.c[i]) > w[i])
				w[i] = width(c.c[i]);
	}
	border(sb, w, '-');
	line(sb, w, heads);
	border(sb, w, '=');
	for (size_t j = 0; j < g->n; j++) {
		cells_of(g->rows[j], &c);
		line(sb, w, (const char *const[NCOLS]){c.c[0], c.c[1], c.c[2], c.c[3], c.c[4]});
		border(sb, w, '-');
	}
	strbuf_addch(sb, '\n');
}

static int render(const struct footprint *fp, FILE *out)
{
	struct strbuf sb = STRBUF_INIT, t = STRBUF_INIT;
	size_t ng;
	struct rpt_group *g = rpt_groups(fp, &ng);
	int ret;

	title(&sb, "System calls made by the workload", '=');
	strbuf_addstr(&sb, fp->argv ? "Command::\n\n    " : "Attached to::\n\n    ");
	rpt_add_workload(&sb, fp);
	strbuf_addstr(&sb, "\n\n");
	if (!fp->complete) {
		strbuf_reset(&t);
		rpt_add_incomplete(&t, fp);
		strbuf_addstr(&sb, ".. warning:: The footprint is ");
		add_escaped(&sb, t.buf);
		strbuf_addstr(&sb, "\n\n");
	}
	strbuf_addf(&sb, "%" PRIu64 " calls, %" PRIu64 " errors, %zu system calls, %zu processes%s.\n\n",
		    fp__total_calls(fp), fp__total_errors(fp), (size_t)fp->syscalls.count, fp->nprocs,
		    fp->complete ? "" : " (incomplete footprint)");
	for (size_t i = 0; i < ng; i++) {
		strbuf_reset(&t);
		add_escaped(&t, g[i].klass);
		/* A title made only of punctuation would read as a transition or an underline. */
		if (!strpbrk(t.buf, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"))
			strbuf_addstr(&t, " class");
		title(&sb, t.buf, '-');
		table(&sb, &g[i]);
	}
	ret = rpt_flush(&sb, out);
	strbuf_release(&sb);
	strbuf_release(&t);
	rpt_groups_free(g, ng);
	return ret;
}

const struct renderer renderer_rst = {
    {"rst", "reStructuredText grid tables per class, as in the seed guide"}, render, NULL, false};
