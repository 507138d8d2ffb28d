// SPDX-License-Identifier: GPL-2.0
// The inventory as JSON (schema "kfootprint-inventory/1"): every file, option and directory, and the candidates.
#include <stdio.h>
#include <stdlib.h>

#include "report/inventory_report.h"
#include "util/json_writer.h"

static void hits(json_writer_t *w, const uint64_t *h)
{
	jsonw_name(w, "observed_by");
	jsonw_start_object_inline(w);
	for (int b = 0; b < INV_NBY; b++)
		if (h[b])
			jsonw_u64_field(w, inv_by_name(b), h[b]);
	jsonw_end_object(w);
}

static void group(json_writer_t *w, const struct inv_group *g, bool option)
{
	jsonw_start_object_inline(w);
	jsonw_string_field(w, "name", g->name);
	if (option)
		jsonw_string_field(w, "value", g->value);
	jsonw_u64_field(w, "files", g->nfiles);
	jsonw_u64_field(w, "files_observed", g->nseen);
	jsonw_int_field(w, "sloc", g->sloc);
	jsonw_bool_field(w, "observed", g->observed);
	if (option && g->via)
		jsonw_string_field(w, "closure_of", g->via);
	hits(w, g->hits);
	jsonw_end_object(w);
}

static void files(json_writer_t *w, const struct inventory *inv, const char *name,
		  size_t *(*list)(const struct inventory *, size_t *))
{
	size_t n, *c = list(inv, &n);

	jsonw_name(w, name);
	jsonw_start_array_inline(w);
	for (size_t i = 0; inv->nfootprints && i < n; i++)
		jsonw_string(w, inv->files[c[i]].path);
	jsonw_end_array(w);
	free(c);
}

int inv_render_json(const struct inventory *inv, size_t top, FILE *out)
{
	json_writer_t *w = jsonw_new(out);
	struct inv_totals t;
	size_t n;

	inv_totals(inv, &t);
	jsonw_start_object(w);
	jsonw_string_field(w, "schema", "kfootprint-inventory/1");
	jsonw_string_field(w, "version", inv->version);
	jsonw_string_field(w, "source", inv->source);
	jsonw_string_field(w, "tree", inv->tree);
	jsonw_string_field(w, "config", inv->config);
	jsonw_string_field(w, "limits", inv->limits);
	jsonw_string_field(w, "sloc_rule",
			   inv->no_sloc && inv->nfiles ? "none: no SLOC without a tree" : inv_sloc_rule);
	jsonw_string_field(w, "sloc_source", inv->sloc_source);
	jsonw_string_field(w, "closure", inv->closure);
	jsonw_u64_field(w, "options_not_reached_on_chains", inv->off_only);
	jsonw_name(w, "compiled");
	jsonw_start_object_inline(w);
	for (int b = 0; b < 3; b++) {
		jsonw_name(w, b == KT_BUILT_IN ? "built_in" : b == KT_BUILT_LIB ? "lib" : "modules");
		jsonw_start_object_inline(w);
		jsonw_u64_field(w, "files", t.files[b]);
		jsonw_int_field(w, "sloc", t.sloc[b]);
		jsonw_end_object(w);
	}
	jsonw_u64_field(w, "generated", t.gen);
	if (inv->dwarf_units) {
		jsonw_u64_field(w, "dwarf_units", inv->dwarf_units);
		jsonw_u64_field(w, "dwarf_functions", inv->dwarf_funcs);
	}
	jsonw_end_object(w);
	if (inv->running) {
		const struct inv_running *r = inv->running;
		jsonw_name(w, "running");
		jsonw_start_object_inline(w);
		jsonw_string_field(w, "symbols", r->symbols);
		jsonw_string_field(w, "database", r->database);
		jsonw_string_field(w, "release", r->release);
		jsonw_string_field(w, "note", r->note);
		jsonw_u64_field(w, "names", r->names);
		jsonw_u64_field(w, "resolved", r->resolved);
		jsonw_u64_field(w, "resolved_by_order", r->by_order);
		jsonw_u64_field(w, "ambiguous", r->ambiguous);
		jsonw_u64_field(w, "unknown", r->unknown);
		jsonw_u64_field(w, "header_files", r->in_headers);
		jsonw_u64_field(w, "module_symbols", r->modules);
		jsonw_end_object(w);
	}
	jsonw_strings_field_inline(w, "footprints", (const char *const *)inv->footprints, inv->nfootprints);
	jsonw_string_field(w, "workload", inv->workload);
	jsonw_bool_field(w, "incomplete", inv->incomplete);
	jsonw_name(w, "observations");
	jsonw_start_object(w);
	for (int b = 0; b < INV_NBY; b++) {
		jsonw_name(w, inv_by_name(b));
		jsonw_start_object_inline(w);
		jsonw_u64_field(w, "observed", inv->nobs[b]);
		jsonw_u64_field(w, "unmapped", inv->unmapped[b]);
		jsonw_u64_field(w, "outside_list", inv->elsewhere[b]);
		jsonw_end_object(w);
	}
	jsonw_end_object(w);
	jsonw_name(w, "options");
	jsonw_start_array(w);
	for (size_t i = 0; i < inv->nopts; i++)
		group(w, &inv->opts[i], true);
	jsonw_end_array(w);
	jsonw_name(w, "directories");
	jsonw_start_array(w);
	for (size_t i = 0; i < inv->ndirs; i++)
		group(w, &inv->dirs[i], false);
	jsonw_end_array(w);
	jsonw_name(w, "files");
	jsonw_start_array(w);
	for (size_t i = 0; i < inv->nfiles; i++) {
		const struct inv_file *f = &inv->files[i];
		jsonw_start_object_inline(w);
		jsonw_string_field(w, "path", f->path);
		jsonw_string_field(w, "built", kt_built_name(f->built));
		if (f->generated)
			jsonw_bool_field(w, "generated", true);
		if (f->sloc >= 0)
			jsonw_int_field(w, "sloc", f->sloc);
		else
			jsonw_null_field(w, "sloc");
		if (inv->dwarf_units) {
			jsonw_u64_field(w, "functions", f->nfuncs);
			jsonw_int_field(w, "function_lines", f->func_lines);
		}
		jsonw_strings_field_inline(w, "options", (const char *const *)f->options, f->noptions);
		if (inv->chains)
			jsonw_bool_field(w, "always_built", f->always);
		hits(w, f->hits);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_name(w, "review_candidates");
	jsonw_start_object(w);
	jsonw_string_field(w, "caution", inv_caution);
	size_t *c = inv_candidate_opts(inv, &n);
	jsonw_name(w, "options");
	jsonw_start_array_inline(w);
	for (size_t i = 0; inv->nfootprints && i < n; i++)
		jsonw_string(w, inv->opts[c[i]].name);
	jsonw_end_array(w);
	free(c);
	files(w, inv, "files", inv_candidate_files);
	/* the unreached code no configuration removes: not candidates, listed apart */
	if (inv->chains) {
		files(w, inv, "always_built", inv_always_files);
		files(w, inv, "gated_by_reached_options", inv_gated_files);
		files(w, inv, "chain_unknown", inv_unknown_files);
	}
	jsonw_end_object(w);
	jsonw_end_object(w);
	(void)top;
	return jsonw_finish(&w);
}
