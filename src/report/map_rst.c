// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping as reStructuredText: a field list for the header and list-tables (syscalls, what they reached, options),
 * which docutils and Sphinx accept without the column arithmetic of grid tables.
 */
#include <inttypes.h>
#include <string.h>

#include "report/kind_report.h"
#include "report/map_report.h"

/* Plain text with the inline markup characters escaped. */
void rst_esc(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\*`_|[]<>:", *s))
			fputc('\\', out);
		fputc(*s == '\n' ? ' ' : *s, out);
	}
}

/* ``literal``; a literal cannot hold a backquote or start/end with a space, so those fall back to rst_esc(). */
void rst_lit(FILE *out, const char *s)
{
	size_t n = strlen(s);

	if (!n || strchr(s, '`') || s[0] == ' ' || s[n - 1] == ' ' || s[n - 1] == '\\')
		rst_esc(out, s);
	else
		fprintf(out, "``%s``", s);
}

void rst_cell_start(FILE *out, bool first)
{
	fputs(first ? "   * - " : "     - ", out);
}

/* A cell of a list: literals joined by commas; "none" when empty (an empty cell reads as a missing value). */
void rst_cell_list(FILE *out, const char *const *v, size_t n, bool literal)
{
	rst_cell_start(out, false);
	if (!n)
		fputs("none", out);
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputs(", ", out);
		if (literal)
			rst_lit(out, v[i]);
		else
			rst_esc(out, v[i]);
	}
	fputc('\n', out);
}

void rst_cell_text(FILE *out, const char *s)
{
	rst_cell_start(out, false);
	if (s && *s)
		rst_esc(out, s);
	else
		fputs("none", out);
	fputc('\n', out);
}

void rst_cell_lit(FILE *out, const char *s)
{
	rst_cell_start(out, false);
	if (s && *s)
		rst_lit(out, s);
	else
		fputs("none", out);
	fputc('\n', out);
}

void rst_heading(FILE *out, const char *title, char under)
{
	size_t n = strlen(title);

	fprintf(out, "%s\n", title);
	while (n--)
		fputc(under, out);
	fputs("\n\n", out);
}

void rst_header_rows(FILE *out, const char *const *names, size_t n)
{
	fputs(".. list-table::\n   :header-rows: 1\n\n", out);
	for (size_t i = 0; i < n; i++) {
		rst_cell_start(out, i == 0);
		fprintf(out, "%s\n", names[i]);
	}
}

static void syscalls(FILE *out, const struct fp_kernel_map *m)
{
	static const char *const cols[] = {
	    "System call",	   "Calls",   "Class", "MAINTAINERS section", "Defined at",
	    "Options on the path", "Running", "Notes"};
	char buf[512];

	rst_heading(out, "System calls", '-');
	rst_header_rows(out, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kmap_row *r = &m->rows[i];

		rst_cell_start(out, true);
		rst_lit(out, r->name);
		fputc('\n', out);
		rst_cell_start(out, false);
		if (r->observed)
			fprintf(out, "%" PRIu64 "\n", r->calls);
		else
			fputs("not observed\n", out);
		rst_cell_text(out, r->klass);
		rst_cell_text(out, kmap_row_section(r));
		rst_cell_lit(out, kmap_row_where(r, buf, sizeof(buf)));
		if (r->ks && !r->nopts && r->ks->status == KT_RESOLVED)
			rst_cell_text(out, "always built");
		else
			rst_cell_list(out, (const char *const *)r->opts, r->nopts, true);
		rst_cell_text(out, kf_run_status_name(r->running));
		rst_cell_text(out, kmap_row_note(m, r, buf, sizeof(buf)));
	}
	fputc('\n', out);
}

/* What the calls reached: one row per refinement, with its target in the tree. */
static void reached(FILE *out, const struct fp_kernel_map *m)
{
	static const char *const cols[] = {
	    "Reached", "Calls", "By", "Registered at", "MAINTAINERS section", "Options on the path", "Notes"};
	char buf[512];

	if (!m->nreach)
		return;
	rst_heading(out, "What the calls reached", '-');
	rst_header_rows(out, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t i = 0; i < m->nreach; i++) {
		const struct kmap_reach *r = &m->reach[i];
		const struct kt_syscall *k = r->ks;

		rst_cell_start(out, true);
		rst_lit(out, r->label);
		fputc('\n', out);
		rst_cell_start(out, false);
		fprintf(out, "%" PRIu64 "\n", r->calls);
		rst_cell_list(out, r->syscalls, r->nsyscalls, true);
		if (k && k->file)
			snprintf(buf, sizeof(buf), "%s%s%.0d (%s)", k->file, k->line ? ":" : "", k->line,
				 k->macro ? k->macro : "?");
		rst_cell_lit(out, k && k->file ? buf : NULL);
		rst_cell_text(out, k && k->nsections ? k->sections[0].section->name : NULL);
		if (k && !r->nopts && k->status == KT_RESOLVED)
			rst_cell_text(out, "always built");
		else
			rst_cell_list(out, (const char *const *)r->opts, r->nopts, true);
		rst_cell_text(out, kmap_reach_note(m, r, buf, sizeof(buf)));
	}
	fputc('\n', out);
}

static void options(FILE *out, const struct fp_kernel_map *m)
{
	static const char *const cols[] = {"Option",	  "Defined at", "Prompt",    "Depends on",
					   "Selected by", "Running",	"Needed by", "Probed by"};
	char buf[512];

	rst_heading(out, "Kconfig options", '-');
	if (!m->nopts) {
		fputs("No option is on the path of these system calls.\n\n", out);
		return;
	}
	rst_header_rows(out, cols, sizeof(cols) / sizeof(cols[0]));
	for (size_t i = 0; i < m->nopts; i++) {
		const struct kmap_opt *o = &m->opts[i];
		const struct kt_option *k = o->db->opt;

		rst_cell_start(out, true);
		snprintf(buf, sizeof(buf), "CONFIG_%s", o->name);
		rst_lit(out, buf);
		fputc('\n', out);
		rst_cell_lit(out, map_opt_where(o, buf, sizeof(buf)));
		rst_cell_text(out, k ? (k->prompt ? k->prompt : "hidden") : NULL);
		rst_cell_lit(out, k ? k->depends : NULL);
		rst_cell_list(out, k ? (const char *const *)k->selected_by : NULL, k ? k->nselected_by : 0, true);
		rst_cell_text(out, map_opt_running(o));
		rst_cell_list(out, o->needed_by, o->nneeded, true);
		rst_cell_list(out, o->probed_by, o->nprobed, true);
	}
	fputc('\n', out);
}

static int render(const struct fp_kernel_map *m, FILE *out)
{
	struct map_counts c;
	char buf[1024];

	snprintf(buf, sizeof(buf), "Kernel map of %s", m->subject);
	/* The title is plain text: escaping would make the underline count differ from what docutils sees. */
	for (char *p = buf; *p; p++)
		if (strchr("\\*`_|[]<>", *p))
			*p = ' ';
	rst_heading(out, buf, '=');
	map_count(m, &c);
	fprintf(out, ":ABI: %s\n", kf_abi_name(m->abi));
	fputs(":Source tree: ", out);
	rst_esc(out, map_tree_line(m, buf, sizeof(buf)));
	fputs("\n:Running kernel: ", out);
	rst_esc(out, map_running_line(m, buf, sizeof(buf)));
	fputc('\n', out);
	if (m->mismatch) {
		fputs(":Version mismatch: ", out);
		rst_esc(out, m->mismatch);
		fputc('\n', out);
	}
	fprintf(out,
		":Summary: %zu system calls, %zu required, %zu probes, %zu newer than the source tree, "
		"%zu without a full chain\n\n",
		c.rows, c.required, c.probes, c.newer, c.unresolved);
	syscalls(out, m);
	reached(out, m);
	options(out, m);
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		if ((*k)->report && (*k)->report->map_rst)
			(*k)->report->map_rst(m, out);
	return ferror(out) ? -1 : 0;
}

const struct map_renderer map_renderer_rst = {{"rst", "reStructuredText list-tables"}, render, false, NULL};
