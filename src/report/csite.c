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
#include "report/csite.h"
#include "report/kind_report.h"
#include "report/map_report.h"
#include "report/report_util.h"
#include "report/text_internal.h"
#include "util/xalloc.h"

#define CSITE_TOP	  4 /* stacks shown per key */
#define CSITE_LINE_FRAMES 6 /* frames of a stack on one line (map, seccomp): the innermost, where the reason is */

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

void csite_frame_short(struct strbuf *sb, const struct fp_csite_frame *f)
{
	const char *base = strrchr(f->module, '/');

	rpt_add_display(sb, base && base[1] ? base + 1 : f->module);
	if (f->function) {
		strbuf_addch(sb, ' ');
		rpt_add_display(sb, f->function);
	} else {
		strbuf_addf(sb, "+0x%" PRIx64, f->offset);
	}
}

void csite_stack_line(struct strbuf *sb, const struct fp_csite_stack *s, uint32_t max)
{
	for (uint32_t f = 0; f < s->nframes && f < max; f++) {
		if (f)
			strbuf_addstr(sb, " <- ");
		csite_frame_short(sb, &s->frames[f]);
	}
	if (s->nframes > max)
		strbuf_addstr(sb, " <- ...");
}

const struct fp_csite_stack **csite_top(const struct fp_csite_key *k, uint32_t *n)
{
	const struct fp_csite_stack **v = xcalloc(k->nstacks + 1, sizeof(*v));

	for (uint32_t i = 0; i < k->nstacks; i++)
		v[i] = &k->stacks[i];
	qsort(v, k->nstacks, sizeof(*v), cmp_calls);
	*n = k->nstacks < CSITE_TOP ? k->nstacks : CSITE_TOP;
	return v;
}

/* Whether any key holds calls of the option's needers. */
static bool opt_has_sites(const struct fp_csites *c, const struct kmap_opt *o)
{
	for (size_t j = 0; j < o->nneeded; j++)
		for (uint32_t i = 0; i < c->nkeys; i++)
			if (fp_csite_key_of(&c->keys[i], o->needed_by[j]))
				return true;
	return false;
}

/* "eventfd2 EINVAL: 4 calls", after "by <- " where what needed the option is not the syscall itself. */
static void key_head(struct strbuf *sb, const char *by, const struct fp_csite_key *k)
{
	if (strcmp(by, k->syscall))
		strbuf_addf(sb, "%s <- ", by);
	strbuf_addstr(sb, k->syscall);
	if (k->err)
		strbuf_addf(sb, " %s", fp_errno_name(k->err));
	if (k->reached && !strcmp(by, k->syscall)) {
		strbuf_addstr(sb, " [");
		rpt_add_display(sb, k->reached);
		strbuf_addch(sb, ']');
	}
	strbuf_addf(sb, ": %" PRIu64 " %s", k->calls, text_plural(k->calls, "call", "calls"));
	if (k->unwound_none)
		strbuf_addf(sb, ", %" PRIu64 " without a stack", k->unwound_none);
	if (k->nstacks > CSITE_TOP)
		strbuf_addf(sb, ", the top %d of %u stacks", CSITE_TOP, k->nstacks);
}

static void map_text_key(struct strbuf *sb, const char *opt, const char *by, const struct fp_csite_key *k)
{
	const struct fp_csite_stack **v;
	uint32_t n;

	strbuf_addf(sb, "  %s <- ", opt);
	key_head(sb, by, k);
	strbuf_addch(sb, '\n');
	v = csite_top(k, &n);
	for (uint32_t i = 0; i < n; i++) {
		strbuf_addf(sb, "    %" PRIu64 " <- ", v[i]->calls);
		csite_stack_line(sb, v[i], CSITE_LINE_FRAMES);
		strbuf_addch(sb, '\n');
	}
	free(v);
}

/*
 * map -F text: for each option needed, the call sites that needed it: the option, what needed it (a syscall, or
 * what calls reached), the key's syscall and errno, then its stacks, most calls first.
 */
static void map_text(const struct fp_kernel_map *m, FILE *out)
{
	const struct fp_csites *c = m->csites;
	struct strbuf sb = STRBUF_INIT;
	size_t nopts = 0;

	if (!c)
		return;
	for (size_t i = 0; i < m->nopts; i++)
		nopts += opt_has_sites(c, &m->opts[i]);
	strbuf_addf(&sb,
		    "\ncall sites of %zu %s: OPTION <- what needed it <- the calls' stacks, innermost frame first\n",
		    nopts, nopts == 1 ? "option" : "options");
	if (c->why_not && !c->nkeys) {
		strbuf_addstr(&sb, "  not recorded: ");
		rpt_add_display(&sb, c->why_not);
		strbuf_addch(&sb, '\n');
	}
	for (size_t i = 0; i < m->nopts; i++) {
		const struct kmap_opt *o = &m->opts[i];

		for (size_t j = 0; j < o->nneeded; j++)
			for (uint32_t k = 0; k < c->nkeys; k++)
				if (fp_csite_key_of(&c->keys[k], o->needed_by[j]))
					map_text_key(&sb, o->name, o->needed_by[j], &c->keys[k]);
	}
	fputs(sb.buf, out);
	strbuf_release(&sb);
}

/* map -F json's "call_sites": per option needed, per needer, its keys as the footprint's member has them. */
static void map_json(json_writer_t *w, const struct fp_kernel_map *m)
{
	const struct fp_csites *c = m->csites;

	if (!c)
		return;
	jsonw_name(w, "call_sites");
	jsonw_start_object(w);
	jsonw_u64_field(w, "depth", c->depth);
	jsonw_bool_field(w, "exhaustive", c->exhaustive);
	if (c->why_not)
		jsonw_string_field(w, "why_not", c->why_not);
	jsonw_name(w, "options");
	jsonw_start_array(w);
	for (size_t i = 0; i < m->nopts; i++) {
		const struct kmap_opt *o = &m->opts[i];

		if (!opt_has_sites(c, o))
			continue;
		jsonw_start_object(w);
		jsonw_string_field(w, "option", o->name);
		jsonw_name(w, "needed_by");
		jsonw_start_array(w);
		for (size_t j = 0; j < o->nneeded; j++) {
			bool any = false;

			for (uint32_t k = 0; k < c->nkeys && !any; k++)
				any = fp_csite_key_of(&c->keys[k], o->needed_by[j]);
			if (!any)
				continue;
			jsonw_start_object(w);
			jsonw_string_field(w, "by", o->needed_by[j]);
			jsonw_name(w, "keys");
			jsonw_start_array(w);
			for (uint32_t k = 0; k < c->nkeys; k++)
				if (fp_csite_key_of(&c->keys[k], o->needed_by[j]))
					fp_csite_json_key(w, &c->keys[k]);
			jsonw_end_array(w);
			jsonw_end_object(w);
		}
		jsonw_end_array(w);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
}

/* A comment line of the fragment: a frame's name holding "CONFIG_X" would read to merge_config.sh as X's value. */
static void kconfig_line(FILE *out, const char *s)
{
	const char *c;

	fputs("#", out);
	while ((c = strstr(s, "CONFIG_"))) {
		fwrite(s, 1, (size_t)(c - s), out);
		fputs("CONFIG-", out);
		s = c + strlen("CONFIG_");
	}
	fprintf(out, "%s\n", s);
}

void csite_kconfig(FILE *out, const struct fp_kernel_map *m, const char *const *needed_by, size_t n)
{
	const struct fp_csites *c = m->csites;
	struct strbuf sb = STRBUF_INIT;

	for (size_t j = 0; c && j < n; j++)
		for (uint32_t k = 0; k < c->nkeys; k++) {
			const struct fp_csite_key *key = &c->keys[k];
			const struct fp_csite_stack **v;
			uint32_t nv;

			if (!fp_csite_key_of(key, needed_by[j]))
				continue;
			strbuf_reset(&sb);
			strbuf_addstr(&sb, "   call sites of ");
			key_head(&sb, needed_by[j], key);
			kconfig_line(out, sb.buf);
			v = csite_top(key, &nv);
			for (uint32_t i = 0; i < nv; i++) {
				strbuf_reset(&sb);
				strbuf_addf(&sb, "     %" PRIu64 " <- ", v[i]->calls);
				csite_stack_line(&sb, v[i], CSITE_LINE_FRAMES);
				kconfig_line(out, sb.buf);
			}
			free(v);
		}
	strbuf_release(&sb);
}

/* Where call sites were asked for and could not be recorded: said once, among the kinds' notes (map_kconfig.c). */
static void map_kconfig(const struct fp_kernel_map *m, FILE *out)
{
	const struct fp_csites *c = m->csites;
	struct strbuf sb = STRBUF_INIT;

	if (!c || !c->why_not || c->nkeys)
		return;
	strbuf_addstr(&sb, " call sites: not recorded: ");
	rpt_add_display(&sb, c->why_not);
	fputc('\n', out);
	kconfig_line(out, sb.buf);
	strbuf_release(&sb);
}

/* map -F rst: a list-table, a row per option, needer and key, its top stacks a bullet list. */
static void map_rst(const struct fp_kernel_map *m, FILE *out)
{
	static const char *const cols[] = {"Option", "Call", "Calls", "Stacks (innermost frame first)"};
	const struct fp_csites *c = m->csites;
	struct strbuf sb = STRBUF_INIT;

	if (!c)
		return;
	rst_heading(out, "Call sites", '-');
	if (c->why_not && !c->nkeys) {
		fputs(":Not recorded: ", out);
		rst_esc(out, c->why_not);
		fputs("\n\n", out);
		return;
	}
	fprintf(out, ":Depth: %u frames\n\n", c->depth);
	rst_header_rows(out, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t i = 0; i < m->nopts; i++) {
		const struct kmap_opt *o = &m->opts[i];

		for (size_t j = 0; j < o->nneeded; j++)
			for (uint32_t k = 0; k < c->nkeys; k++) {
				const struct fp_csite_key *key = &c->keys[k];
				const struct fp_csite_stack **v;
				uint32_t nv;

				if (!fp_csite_key_of(key, o->needed_by[j]))
					continue;
				rst_cell_start(out, true);
				rst_lit(out, o->name);
				fputc('\n', out);
				strbuf_reset(&sb);
				key_head(&sb, o->needed_by[j], key);
				*strrchr(sb.buf, ':') = 0; /* the counts in their own column */
				rst_cell_text(out, sb.buf);
				fprintf(out, "     - %" PRIu64 "\n", key->calls);
				v = csite_top(key, &nv);
				rst_cell_start(out, false);
				if (!nv)
					fputs("none", out);
				for (uint32_t s = 0; s < nv; s++) {
					strbuf_reset(&sb);
					strbuf_addf(&sb, "%" PRIu64 " <- ", v[s]->calls);
					csite_stack_line(&sb, v[s], CSITE_LINE_FRAMES);
					fputs(s ? "\n       * " : "* ", out);
					rst_esc(out, sb.buf);
				}
				fputc('\n', out);
				free(v);
			}
	}
	fputc('\n', out);
	strbuf_release(&sb);
}

const struct kind_report csites_report = {
    .text = text_section,
    .map_text = map_text,
    .map_json = map_json,
    .map_rst = map_rst,
    .map_kconfig = map_kconfig,
};
