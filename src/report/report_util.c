// SPDX-License-Identifier: GPL-2.0
#include "report/report_util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "abi/syscalls.h"
#include "footprint/footprint_json.h"
#include "util/utf8.h"
#include "util/xalloc.h"

void rpt_add_display(struct strbuf *sb, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	while (*s) {
		size_t n = utf8_seq_len(s);

		if (!n || *s < 0x20 || *s == 0x7f) {
			strbuf_addf(sb, "\\x%02x", *s);
			s++;
		} else {
			strbuf_add(sb, s, n);
			s += n;
		}
	}
}

static bool needs_quotes(const char *s)
{
	if (!*s)
		return true;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./:,@%^", *s))
			return true;
	return false;
}

void rpt_add_argv(struct strbuf *sb, char *const *argv)
{
	struct strbuf w = STRBUF_INIT;

	for (char *const *a = argv; *a; a++) {
		if (a != argv)
			strbuf_addch(&w, ' ');
		if (!needs_quotes(*a)) {
			strbuf_addstr(&w, *a);
			continue;
		}
		strbuf_addch(&w, '\'');
		for (const char *c = *a; *c; c++) {
			if (*c == '\'')
				strbuf_addstr(&w, "'\\''");
			else
				strbuf_addch(&w, *c);
		}
		strbuf_addch(&w, '\'');
	}
	rpt_add_display(sb, w.buf);
	strbuf_release(&w);
}

void rpt_add_workload(struct strbuf *sb, const struct footprint *fp)
{
	if (fp->argv && fp->argv[0]) {
		rpt_add_argv(sb, fp->argv);
	} else if (fp->nattached) {
		strbuf_addstr(sb, fp->nattached > 1 ? "pids " : "pid ");
		for (uint32_t i = 0; i < fp->nattached; i++)
			strbuf_addf(sb, "%s%d", i ? ", " : "", (int)fp->attached_pids[i]);
	} else {
		strbuf_addstr(sb, "?");
	}
}

void rpt_add_exit(struct strbuf *sb, const struct fp_exit *e)
{
	switch (e->kind) {
	case FP_EXIT_CODE: strbuf_addf(sb, "code %d", e->value); break;
	case FP_EXIT_SIGNAL:
		strbuf_addf(sb, "signal %s%s", fp_signal_name(e->value), e->core ? " (core dumped)" : "");
		break;
	default: strbuf_addstr(sb, "still running"); break;
	}
}

void rpt_add_incomplete(struct strbuf *sb, const struct footprint *fp)
{
	strbuf_addstr(sb, "INCOMPLETE: ");
	rpt_add_display(sb, fp->incomplete_why ? fp->incomplete_why : "unknown");
	if (fp->lost_events && (!fp->incomplete_why || !strpbrk(fp->incomplete_why, "0123456789")))
		strbuf_addf(sb, " (%" PRIu64 " lost)", fp->lost_events);
}

int rpt_incomplete_line(const struct footprint *fp, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	if (fp->complete)
		return 0;
	strbuf_addstr(&sb, "footprint ");
	rpt_add_incomplete(&sb, fp);
	strbuf_addch(&sb, '\n');
	ret = rpt_flush(&sb, out);
	strbuf_release(&sb);
	return ret;
}

const char *rpt_sc_name(const struct fp_sysstat *s, char *buf, size_t len)
{
	if (s->abi == kf_abi_host())
		return s->name;
	snprintf(buf, len, "%s (%s)", s->name, kf_abi_name(s->abi));
	return buf;
}

/* Known classes first in the seed's order (the enum's), then names only a loaded file knows, by name. */
static int class_rank(const char *name)
{
	enum kf_class k;

	return kf_class_parse(name, &k) < 0 ? KF_CLASS_NR : (int)k;
}

static int cmp_group(const void *a, const void *b)
{
	const struct rpt_group *x = a, *y = b;
	int rx = class_rank(x->klass), ry = class_rank(y->klass);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x->klass, y->klass);
}

struct rpt_group *rpt_groups(const struct footprint *fp, size_t *n)
{
	struct fp_sysstat **v = fp_sctab_sorted(&fp->syscalls, fp_sysstat_cmp_calls);
	struct rpt_group *g = NULL;
	size_t ng = 0, cap = 0;

	for (struct fp_sysstat **sp = v; *sp; sp++) {
		const char *k = fp_sysstat_class(*sp);
		size_t i;

		for (i = 0; i < ng && strcmp(g[i].klass, k); i++)
			;
		if (i == ng) {
			XGROW(g, cap, ng + 1);
			memset(&g[ng], 0, sizeof(g[ng]));
			g[ng].klass = k;
			g[ng].rows = xcalloc(fp->syscalls.count + 1, sizeof(*g[ng].rows));
			ng++;
		}
		g[i].rows[g[i].n++] = *sp;
	}
	free(v);
	if (ng)
		qsort(g, ng, sizeof(*g), cmp_group);
	*n = ng;
	return g;
}

void rpt_groups_free(struct rpt_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(g[i].rows);
	free(g);
}

int rpt_flush(struct strbuf *sb, FILE *out)
{
	size_t n = sb->len;

	if (n && fwrite(sb->buf, 1, n, out) != n)
		return -1;
	strbuf_reset(sb);
	return ferror(out) ? -1 : 0;
}

void rpt_add_csv_field(struct strbuf *sb, const char *s)
{
	if (!s)
		s = "";
	if (!s[strcspn(s, ",\"\r\n")]) {
		strbuf_addstr(sb, s);
		return;
	}
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			strbuf_addch(sb, '"');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}
