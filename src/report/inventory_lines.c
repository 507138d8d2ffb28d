// SPDX-License-Identifier: GPL-2.0
// inventory --lines as text and JSON (schema "kfootprint-inventory-lines/1"): the totals (compiled lines are the
// guide's kernel-sloc dwarf count), each option, directory and file with its compiled and covered lines, and the
// line-level review candidates as map shows them (report/kline.h).
#include <inttypes.h>
#include <string.h>

#include "inventory/inventory.h"
#include "kmap/kfmap.h"
#include "kmap/klmap.h"
#include "report/inventory_lines.h"
#include "report/kline.h"
#include "util/error.h"

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void groups_text(FILE *out, const char *what, const char *prefix, const struct invl_group *v, size_t n,
			size_t top)
{
	fprintf(out, "\n%s: %zu, by compiled lines\n", what, n);
	if (n)
		fprintf(out, "  %-44s %9s %9s %7s %6s\n", what, "compiled", "covered", "%", "files");
	for (size_t i = 0; i < n && (!top || i < top); i++)
		fprintf(out, "  %s%-*s %9" PRIu64 " %9" PRIu64 " %6.2f%% %6u\n", prefix, (int)(44 - strlen(prefix)),
			v[i].name, v[i].compiled, v[i].covered, pct(v[i].covered, v[i].compiled), v[i].files);
	if (top && n > top)
		fprintf(out, "  ... %zu more (--top 0: all)\n", n - top);
}

static int render_text(const struct inv_lines *l, size_t top, FILE *out)
{
	fprintf(out, "line-level inventory of %s against %zu %s\n", l->vmlinux, l->nfootprints,
		l->nfootprints == 1 ? "footprint" : "footprints");
	fprintf(out,
		"compiled lines: %" PRIu64 " in %zu files (distinct file:line of the DWARF line table: kernel-sloc "
		"dwarf); covered %" PRIu64 " (%.2f%%)\n",
		l->compiled, l->nfiles, l->covered, pct(l->covered, l->compiled));
	if (l->outside)
		fprintf(out, "covered lines the line table does not have: %" PRIu64 " (another build's?)\n",
			l->outside);
	if (l->unplaced)
		fprintf(out, "files without options (the database of files does not know them): %zu\n", l->unplaced);
	groups_text(out, "options", "CONFIG_", l->opts, l->nopts, top);
	groups_text(out, "directories", "", l->dirs, l->ndirs, top);
	fprintf(out, "\nfiles: %zu, by path\n  %-44s %9s %9s %7s\n", l->nfiles, "file", "compiled", "covered", "%");
	for (size_t i = 0, shown = 0; i < l->nfiles; i++) {
		const struct invl_file *f = &l->files[i];
		if (top && shown == top) {
			fprintf(out, "  ... %zu more (--top 0: all)\n", l->nfiles - i);
			break;
		}
		shown++;
		fprintf(out, "  %-44s %9u %9u %6.2f%%\n", f->path, f->compiled, f->covered,
			pct(f->covered, f->compiled));
	}
	kline_text_candidates(l->kl, out);
	return ferror(out) ? -1 : 0;
}

static void groups_json(json_writer_t *w, const char *name, const struct invl_group *v, size_t n)
{
	jsonw_name(w, name);
	jsonw_start_array(w);
	for (size_t i = 0; i < n; i++) {
		jsonw_start_object_inline(w);
		jsonw_string_field(w, "name", v[i].name);
		jsonw_u64_field(w, "compiled", v[i].compiled);
		jsonw_u64_field(w, "covered", v[i].covered);
		jsonw_u64_field(w, "files", v[i].files);
		jsonw_u64_field(w, "files_covered", v[i].files_covered);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

static int render_json(const struct inv_lines *l, FILE *out)
{
	json_writer_t *w = jsonw_new(out);

	jsonw_start_object(w);
	jsonw_string_field(w, "schema", "kfootprint-inventory-lines/1");
	jsonw_string_field(w, "vmlinux", l->vmlinux);
	jsonw_strings_field_inline(w, "footprints", (const char *const *)l->footprints, l->nfootprints);
	jsonw_u64_field(w, "compiled_lines", l->compiled);
	jsonw_u64_field(w, "compiled_files", l->nfiles);
	jsonw_u64_field(w, "covered_lines", l->covered);
	jsonw_u64_field(w, "covered_outside_table", l->outside);
	groups_json(w, "options", l->opts, l->nopts);
	groups_json(w, "directories", l->dirs, l->ndirs);
	jsonw_name(w, "files");
	jsonw_start_array(w);
	for (size_t i = 0; i < l->nfiles; i++) {
		const struct invl_file *f = &l->files[i];
		jsonw_start_object_inline(w);
		jsonw_string_field(w, "path", f->path);
		if (f->chain && f->chain->object)
			jsonw_string_field(w, "object", f->chain->object);
		jsonw_u64_field(w, "compiled", f->compiled);
		jsonw_u64_field(w, "covered", f->covered);
		if (f->chain)
			jsonw_strings_field_inline(w, "configs", f->chain->opts, f->chain->nopts);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_name(w, "review_candidates");
	jsonw_start_object(w);
	kline_json_candidates(w, l->kl); /* with its caution when there were sources to read */
	if (!l->kl->source_root) {
		jsonw_string_field(w, "note",
				   "no sources (--source-root, --kernel-src): no #if blocks nor error paths");
		jsonw_string_field(w, "caution", inv_caution);
	}
	jsonw_end_object(w);
	jsonw_end_object(w);
	return jsonw_finish(&w);
}

int invl_render(const struct inv_lines *l, const char *format, size_t top, FILE *out)
{
	return !strcmp(format, "json") ? render_json(l, out) : render_text(l, top, out);
}

int invl_format_check(const char *format)
{
	if (!strcmp(format, "text") || !strcmp(format, "json"))
		return 0;
	return error("--lines: format '%s' is not one of text, json", format);
}
