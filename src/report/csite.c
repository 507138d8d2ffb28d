// SPDX-License-Identifier: GPL-2.0
/*
 * The report section of the kind "call sites" (kind_report.h), for a footprint recorded with record --call-sites:
 * for each syscall and each of its errors, its most frequent stacks, innermost frame first, each frame as its
 * module's file name and offset (what addr2line -e takes), with the function and the source line where known.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/csite.h"
#include "report/kind_report.h"
#include "report/report_util.h"
#include "report/text_internal.h"
#include "util/xalloc.h"

#define CSITE_TOP 4 /* stacks shown per key */

static int cmp_calls(const void *a, const void *b)
{
	const struct fp_csite_stack *x = *(const struct fp_csite_stack *const *)a;
	const struct fp_csite_stack *y = *(const struct fp_csite_stack *const *)b;

	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return fp_csite_stack_cmp(x, y);
}

static void add_frame(struct strbuf *sb, const struct fp_csite_frame *f)
{
	const char *base = strrchr(f->module, '/');

	strbuf_addstr(sb, "      ");
	rpt_add_display(sb, base && base[1] ? base + 1 : f->module);
	strbuf_addf(sb, "+0x%" PRIx64, f->offset);
	if (f->function) {
		strbuf_addch(sb, ' ');
		rpt_add_display(sb, f->function);
	}
	if (f->file) {
		const char *fb = strrchr(f->file, '/');

		strbuf_addstr(sb, " (");
		rpt_add_display(sb, fb && fb[1] ? fb + 1 : f->file);
		strbuf_addf(sb, ":%" PRIu32 ")", f->line);
	}
	strbuf_addch(sb, '\n');
}

static void add_key(struct strbuf *sb, const struct fp_csite_key *k)
{
	const struct fp_csite_stack **v = xcalloc(k->nstacks + 1, sizeof(*v));
	uint64_t shown = 0;
	uint32_t i;

	strbuf_addf(sb, "  %s", k->syscall);
	if (k->err)
		strbuf_addf(sb, " %s", fp_errno_name(k->err));
	if (k->reached) {
		strbuf_addstr(sb, " [");
		rpt_add_display(sb, k->reached);
		strbuf_addch(sb, ']');
	}
	strbuf_addf(sb, ": %" PRIu64 " %s, %u %s", k->calls, text_plural(k->calls, "call", "calls"), k->nstacks,
		    text_plural(k->nstacks, "stack", "stacks"));
	if (k->other)
		strbuf_addf(sb, " (+%" PRIu64 " calls from stacks not kept)", k->other);
	if (k->unwound_none)
		strbuf_addf(sb, ", %" PRIu64 " without a stack", k->unwound_none);
	if (k->unsampled)
		strbuf_addf(sb, ", sampled: %" PRIu64 " not looked at", k->unsampled);
	strbuf_addch(sb, '\n');
	for (i = 0; i < k->nstacks; i++)
		v[i] = &k->stacks[i];
	qsort(v, k->nstacks, sizeof(*v), cmp_calls);
	for (i = 0; i < k->nstacks && i < CSITE_TOP; i++) {
		strbuf_addf(sb, "    %" PRIu64 " %s from\n", v[i]->calls, text_plural(v[i]->calls, "call", "calls"));
		for (uint32_t f = 0; f < v[i]->nframes; f++)
			add_frame(sb, &v[i]->frames[f]);
		shown += v[i]->calls;
	}
	if (i < k->nstacks)
		strbuf_addf(sb, "    ... %u more %s, %" PRIu64 " calls\n", k->nstacks - i,
			    text_plural(k->nstacks - i, "stack", "stacks"),
			    k->calls - shown - k->other - k->unwound_none - k->unsampled);
	free(v);
}

/*
 * Whether the footprint shows the key's calls: a view through -e (fp_filter_view()) borrows every key, and its rows
 * say which calls it shows (trace=: the syscall's row; status=: its errors, or its calls that succeeded).
 */
static bool shown(const struct footprint *fp, const struct fp_csite_key *k)
{
	for (uint32_t i = 0; i < fp->syscalls.cap; i++) {
		const struct fp_sysstat *s = fp->syscalls.slots[i];

		if (!s || strcmp(s->name, k->syscall))
			continue;
		if (!k->err)
			return s->calls > s->errors;
		for (uint32_t e = 0; e < s->nerrnos; e++)
			if (s->errnos[e].err == k->err)
				return s->errnos[e].count > 0;
	}
	return false;
}

static void text_section(struct strbuf *sb, const struct footprint *fp)
{
	const struct fp_csites *c = fp_csites_of(fp);
	uint32_t n = 0;

	if (!c)
		return;
	strbuf_addstr(sb, "\ncall sites: ");
	if (c->why_not && !c->nkeys) {
		strbuf_addstr(sb, "not recorded: ");
		rpt_add_display(sb, c->why_not);
		strbuf_addch(sb, '\n');
		return;
	}
	for (uint32_t i = 0; i < c->nkeys; i++)
		n += shown(fp, &c->keys[i]);
	strbuf_addf(sb, "%u %s (syscall, errno, what it reached), the innermost %u frames%s\n", n,
		    text_plural(n, "key", "keys"), c->depth, c->exhaustive ? "" : " (not every source recorded them)");
	for (uint32_t i = 0; i < c->nkeys; i++)
		if (shown(fp, &c->keys[i]))
			add_key(sb, &c->keys[i]);
}

const struct kind_report csites_report = {
    .text = text_section,
};
