// SPDX-License-Identifier: GPL-2.0
/* The renderers of kfootprint diff: text, json (schema kfootprint-diff/1) and markdown (GitHub tables). */
#include <string.h>

#include "report/diff.h"
#include "report/report_util.h"
#include "util/json_writer.h"
#include "util/strbuf.h"

static bool kind_has_abi(const struct diff *d, const struct diff_kind *k)
{
	for (size_t i = 0; i < d->nitems; i++)
		if (d->items[i].kind == k && d->items[i].abi)
			return true;
	return false;
}

static size_t kind_items(const struct diff *d, const struct diff_kind *k)
{
	size_t n = 0;

	for (size_t i = 0; i < d->nitems; i++)
		n += d->items[i].kind == k;
	return n;
}

/* "x4.00" for a count change: NEW's count over OLD's. */
static void add_ratio(struct strbuf *sb, const struct diff_item *it)
{
	if ((it->change == DIFF_MORE || it->change == DIFF_FEWER) && it->old)
		strbuf_addf(sb, "x%.2f", (double)it->new / (double)it->old);
}

static void add_verdict(struct strbuf *sb, const struct diff *d)
{
	if (d->nneeds)
		strbuf_addf(sb, "NEW needs %zu thing%s OLD did not", d->nneeds, d->nneeds == 1 ? "" : "s");
	else
		strbuf_addstr(sb, "NEW needs nothing OLD did not");
}

static int flush(struct strbuf *sb, FILE *out)
{
	int rc = rpt_flush(sb, out);

	strbuf_release(sb);
	return rc;
}

/* --- text --------------------------------------------------------------------------------------------- */

static void text_side(struct strbuf *sb, const char *which, const struct diff_side *s)
{
	strbuf_addf(sb, "%s  ", which);
	rpt_add_display(sb, s->file);
	strbuf_addstr(sb, ": ");
	rpt_add_display(sb, s->workload);
	if (s->label) {
		strbuf_addstr(sb, " [");
		rpt_add_display(sb, s->label);
		strbuf_addch(sb, ']');
	}
	strbuf_addf(sb, " (%llu calls, %zu process%s)\n", (unsigned long long)s->calls, s->procs,
		    s->procs == 1 ? "" : "es");
}

static int render_text(const struct diff *d, FILE *out)
{
	static const char marks[] = {' ', '+', '-', '>', '<'};
	struct strbuf sb;

	strbuf_init(&sb);
	text_side(&sb, "OLD", &d->old);
	text_side(&sb, "NEW", &d->new);
	strbuf_addf(&sb, "%zu added, %zu removed, %zu changed; ", d->nadded, d->nremoved, d->nchanged);
	add_verdict(&sb, d);
	strbuf_addch(&sb, '\n');
	for (size_t k = 0; diff_kinds[k]; k++) {
		const struct diff_kind *kind = diff_kinds[k];

		if (!kind_items(d, kind))
			continue;
		strbuf_addf(&sb, "\n%s (%s):\n", kind->title, kind->unit);
		for (size_t i = 0; i < d->nitems; i++) {
			const struct diff_item *it = &d->items[i];
			size_t start = sb.len;

			if (it->kind != kind)
				continue;
			strbuf_addf(&sb, "  %c ", marks[it->change]);
			rpt_add_display(&sb, it->key);
			if (it->abi)
				strbuf_addf(&sb, " (%s)", it->abi);
			if (sb.len - start < 40)
				strbuf_addchars(&sb, ' ', 40 - (sb.len - start));
			strbuf_addf(&sb, " %10llu -> %10llu  ", (unsigned long long)it->old,
				    (unsigned long long)it->new);
			start = sb.len;
			add_ratio(&sb, it);
			strbuf_addchars(&sb, ' ', sb.len - start < 10 ? 10 - (sb.len - start) : 1);
			if (it->need)
				strbuf_addstr(&sb, "need");
			while (sb.len && sb.buf[sb.len - 1] == ' ')
				sb.buf[--sb.len] = '\0';
			strbuf_addch(&sb, '\n');
		}
	}
	return flush(&sb, out);
}

/* --- json --------------------------------------------------------------------------------------------- */

static void json_side(json_writer_t *w, const char *name, const struct diff_side *s)
{
	jsonw_name(w, name);
	jsonw_start_object(w);
	jsonw_string_field(w, "file", s->file);
	jsonw_string_field(w, "workload", s->workload);
	jsonw_string_field(w, "label", s->label);
	jsonw_u64_field(w, "calls", s->calls);
	jsonw_u64_field(w, "processes", s->procs);
	jsonw_end_object(w);
}

static int render_json(const struct diff *d, FILE *out)
{
	json_writer_t *w = jsonw_new(out);
	bool bad;

	jsonw_start_object(w);
	jsonw_string_field(w, "schema", DIFF_SCHEMA);
	json_side(w, "old", &d->old);
	json_side(w, "new", &d->new);
	jsonw_name(w, "thresholds");
	jsonw_start_object(w);
	jsonw_fixed_field(w, "calls_ratio", d->opts.calls_ratio, 2);
	jsonw_u64_field(w, "min_calls", d->opts.min_calls);
	if (d->opts.fail_ratio > 0)
		jsonw_fixed_field(w, "fail_ratio", d->opts.fail_ratio, 2);
	else
		jsonw_null_field(w, "fail_ratio");
	jsonw_bool_field(w, "all", d->opts.all);
	jsonw_end_object(w);
	jsonw_bool_field(w, "needs_more", d->nneeds > 0);
	jsonw_name(w, "summary");
	jsonw_start_object(w);
	jsonw_u64_field(w, "added", d->nadded);
	jsonw_u64_field(w, "removed", d->nremoved);
	jsonw_u64_field(w, "changed", d->nchanged);
	jsonw_u64_field(w, "needs", d->nneeds);
	jsonw_end_object(w);
	jsonw_name(w, "items");
	jsonw_start_array(w);
	for (size_t i = 0; i < d->nitems; i++) {
		const struct diff_item *it = &d->items[i];

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "kind", it->kind->name);
		jsonw_string_field(w, "key", it->key);
		if (it->abi)
			jsonw_string_field(w, "abi", it->abi);
		jsonw_string_field(w, "change", diff_change_name(it->change));
		jsonw_u64_field(w, "old", it->old);
		jsonw_u64_field(w, "new", it->new);
		jsonw_string_field(w, "unit", it->kind->unit);
		jsonw_bool_field(w, "need", it->need);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
	bad = jsonw_error(w);
	jsonw_destroy(&w);
	return bad || ferror(out) ? -1 : 0;
}

/* --- markdown ----------------------------------------------------------------------------------------- */

/*
 * Text for a table cell of GitHub-flavoured markdown: displayable first (control bytes and invalid UTF-8 as
 * \xHH), then every character markdown would act on backslash-escaped, "|" included, so that a path can
 * neither split a cell nor format the comment.
 */
static void md_cell(struct strbuf *sb, const char *s)
{
	struct strbuf disp;

	strbuf_init(&disp);
	rpt_add_display(&disp, s);
	for (const char *p = disp.buf; *p; p++) {
		if (strchr("\\`*_{}[]<>()#+-.!|~&", *p))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *p);
	}
	strbuf_release(&disp);
}

static void md_side(struct strbuf *sb, const char *which, const struct diff_side *s)
{
	strbuf_addf(sb, "| %s | ", which);
	md_cell(sb, s->file);
	strbuf_addstr(sb, " | ");
	md_cell(sb, s->workload);
	strbuf_addstr(sb, " | ");
	if (s->label)
		md_cell(sb, s->label);
	strbuf_addf(sb, " | %llu | %zu |\n", (unsigned long long)s->calls, s->procs);
}

static int render_markdown(const struct diff *d, FILE *out)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_addstr(&sb, "### kfootprint diff: ");
	add_verdict(&sb, d);
	strbuf_addf(&sb, "\n\n%zu added, %zu removed, %zu changed.\n\n", d->nadded, d->nremoved, d->nchanged);
	strbuf_addstr(&sb, "| | footprint | workload | label | calls | processes |\n|---|---|---|---|---:|---:|\n");
	md_side(&sb, "OLD", &d->old);
	md_side(&sb, "NEW", &d->new);
	for (size_t k = 0; diff_kinds[k]; k++) {
		const struct diff_kind *kind = diff_kinds[k];
		bool abi = kind_has_abi(d, kind);

		if (!kind_items(d, kind))
			continue;
		strbuf_addf(&sb, "\n#### %s (%s)\n\n| change | %s |%s old | new | ratio | need |\n", kind->title,
			    kind->unit, kind->name, abi ? " ABI |" : "");
		strbuf_addf(&sb, "|---|---|%s---:|---:|---:|---|\n", abi ? "---|" : "");
		for (size_t i = 0; i < d->nitems; i++) {
			const struct diff_item *it = &d->items[i];

			if (it->kind != kind)
				continue;
			strbuf_addf(&sb, "| %s | ", diff_change_name(it->change));
			md_cell(&sb, it->key);
			if (abi)
				strbuf_addf(&sb, " | %s", it->abi ? it->abi : "");
			strbuf_addf(&sb, " | %llu | %llu | ", (unsigned long long)it->old, (unsigned long long)it->new);
			add_ratio(&sb, it);
			strbuf_addf(&sb, " | %s |\n", it->need ? "**yes**" : "");
		}
	}
	return flush(&sb, out);
}

/* --- the registry ------------------------------------------------------------------------------------- */

static const struct diff_format diff_text = {
    {"text", "one line per item: + added, - removed, > more, < fewer; 'need' marks a need"}, render_text};
static const struct diff_format diff_json = {{"json", "schema kfootprint-diff/1 (README.md)"}, render_json};
static const struct diff_format diff_markdown = {{"markdown", "GitHub-flavoured tables, for a pull-request comment"},
						 render_markdown};

static struct format_table formats = {
    10,
    (const struct format *const[]){&diff_text.f, &diff_json.f, &diff_markdown.f, NULL},
    "",
};

const struct diff_format *diff_format_find(const char *name)
{
	return FORMAT_OF(format_find(&formats, name), struct diff_format, f);
}

const char *diff_format_names(void)
{
	return format_names(&formats);
}

void diff_format_help(FILE *out)
{
	format_help(&formats, out);
}

int diff_format_check(const char *name)
{
	return format_check(&formats, NULL, name);
}
