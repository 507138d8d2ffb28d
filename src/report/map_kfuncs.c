// SPDX-License-Identifier: GPL-2.0
/*
 * The "Kernel functions" part of a mapping (a footprint recorded with its kernel functions): how the names were
 * resolved, the roll-ups per directory, option and MAINTAINERS section, and each function's chain. Text, the JSON
 * member and the Kconfig fragment's lines; map_rst.c has its own tables.
 */
#include <inttypes.h>
#include <string.h>

#include "report/map_report.h"

const char *map_kfuncs_summary(const struct kfmap *kf, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%zu functions: %zu with one definition, %zu resolved by DWARF, %zu by symbol order, %zu ambiguous, "
		 "%zu not in the source tree",
		 kf->nrows, kf->count[KFM_UNIQUE], kf->count[KFM_DWARF], kf->count[KFM_KALLSYMS],
		 kf->count[KFM_AMBIGUOUS], kf->count[KFM_UNKNOWN]);
	return buf;
}

const char *map_kfuncs_method(const struct kfmap *kf, char *buf, size_t len)
{
	if (kf->exhaustive)
		snprintf(buf, len, "%s, exhaustive, %" PRIu64 " lost", kf->method, kf->lost);
	else if (!strcmp(kf->method, "sampled"))
		snprintf(buf, len, "sampled, not exhaustive, %" PRIu64 " lost", kf->lost);
	else
		snprintf(buf, len, "%s, partly sampled, not exhaustive, %" PRIu64 " lost", kf->method, kf->lost);
	return buf;
}

static void counts(FILE *out, const char *title, const char *prefix, const struct kfm_count *v, size_t n)
{
	size_t width = 0;

	fprintf(out, "\nby %s: %zu (functions, hits)\n", title, n);
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i].key) + strlen(prefix) > width)
			width = strlen(v[i].key) + strlen(prefix);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %s%-*s  %5zu  %" PRIu64 "\n", prefix, (int)(width - strlen(prefix)), v[i].key,
			v[i].funcs, v[i].hits);
}

void map_kfuncs_text(const struct kfmap *kf, FILE *out)
{
	char buf[1024];

	fprintf(out, "\nKernel functions (%s)\n", map_kfuncs_method(kf, buf, sizeof(buf)));
	fprintf(out, "source:         Linux %s (%s)%s%s\n", kf->db->version, kf->db->origin, kf->db->scope ? "; " : "",
		kf->db->scope ? kf->db->scope : "");
	fprintf(out, "%s\n", map_kfuncs_summary(kf, buf, sizeof(buf)));
	fprintf(out, "symbol order:   %s%s%s\n", kf->kallsyms ? kf->kallsyms : "not used",
		kf->kallsyms_note ? ": " : "", kf->kallsyms_note ? kf->kallsyms_note : "");
	fprintf(out, "DWARF:          %s\n",
		kf->vmlinux	 ? kf->vmlinux
		: kf->dwarf_note ? kf->dwarf_note
				 : "not used (no --vmlinux)");
	if (kf->db->unparsed)
		fprintf(out, "not indexed:    %zu MACRO(...) { definitions of the tree (%s)\n", kf->db->unparsed,
			kf->db->unparsed_top);
	counts(out, "directory", "", kf->dirs, kf->ndirs);
	counts(out, "option", "CONFIG_", kf->opts, kf->nopts);
	counts(out, "MAINTAINERS section", "", kf->sections, kf->nsections);
	counts(out, "file", "", kf->files, kf->nfiles);
	fprintf(out, "\n%zu functions, each with its chain\n", kf->nrows);
	for (size_t i = 0; i < kf->nrows; i++) {
		const struct kfm_row *r = &kf->rows[i];

		fprintf(out, "%s  hits %" PRIu64 "  [%s]\n", r->name, r->hits, kfm_how_name(r->how));
		if (r->file >= 0) {
			const struct kfdb_file *f = kfdb_file(kf->db, (uint32_t)r->file);

			fprintf(out, "    %-12s%s\n", "defined at", kfm_row_where(r, buf, sizeof(buf)));
			if (f->object)
				fprintf(out, "    %-12s%s by %s:%d%s%s\n", "built as", f->object,
					f->makefile ? f->makefile : "?", f->mline,
					f->included_by ? ", #included by " : "", f->included_by ? f->included_by : "");
			else if (f->why)
				fprintf(out, "    %-12s%s\n", "built as", f->why);
			fprintf(out, "    %-12s", "options");
			for (size_t k = 0; k < f->nopts; k++)
				fprintf(out, "%s%s", k ? ", " : "", f->opts[k]);
			fprintf(out, "%s\n", f->nopts ? "" : f->object ? "none: always built" : "none known");
			fprintf(out, "    %-12s%s\n", "section", f->section ? f->section : "none");
		} else if (r->ncands) {
			fprintf(out, "    %-12s", "candidates");
			for (size_t k = 0; k < r->ncands; k++)
				fprintf(out, "%s%s:%d", k ? ", " : "", kf->db->files[r->cands[k].file].path,
					r->cands[k].line);
			fputc('\n', out);
		}
		if (r->note)
			fprintf(out, "    %-12s%s\n", "note", r->note);
	}
}

void map_kfuncs_json(json_writer_t *w, const struct kfmap *kf)
{
	jsonw_name(w, "kernel_functions");
	if (!kf) {
		jsonw_null(w);
		return;
	}
	jsonw_start_object(w);
	jsonw_name(w, "summary");
	kfmap_json(w, kf);
	jsonw_name(w, "functions");
	jsonw_start_array(w);
	for (size_t i = 0; i < kf->nrows; i++) {
		const struct kfm_row *r = &kf->rows[i];

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "name", r->name);
		jsonw_u64_field(w, "hits", r->hits);
		jsonw_name(w, "kernel");
		kfmap_json_row(w, r);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
}
