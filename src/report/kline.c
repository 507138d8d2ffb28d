// SPDX-License-Identifier: GPL-2.0
/*
 * The report sections of the kind "kernel lines" (kind_report.h), for a footprint recorded with record
 * --kernel-lines. The text report's: the method and what the counts cover (gcov's are the whole guest's), the
 * tasks covered, loss, and the covered lines per file. A mapping's (map --vmlinux): the files with their objects,
 * covered and compiled lines, and the options rolled up, as text and as the JSON member "kernel_lines".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/inventory.h"
#include "kmap/kfmap.h"
#include "kmap/klmap.h"
#include "report/kind_report.h"
#include "report/kline.h"
#include "report/report_util.h"
#include "report/text_internal.h"

#define KLINE_FILES_TOP 20 /* files in the text report */

/* What the counts are: said in every output, since a gcov count is not the workload's. */
static const char *scope(const struct fp_klines *k)
{
	return k->whole_guest ? "counts cover the whole guest, not only the workload"
			      : "PCs of the workload's own tasks";
}

static void text_section(struct strbuf *sb, const struct footprint *fp)
{
	const struct fp_klines *k = fp_klines_of(fp);
	uint32_t covered = 0, nfiles = 0, shown = 0, run = 0;

	if (!k)
		return;
	strbuf_addf(sb, "\nkernel lines (%s): ", fp_kline_method_name(k->method));
	if (k->why_not && !k->nlines && !k->npcs) {
		strbuf_addstr(sb, "not recorded: ");
		rpt_add_display(sb, k->why_not);
		strbuf_addch(sb, '\n');
		return;
	}
	for (uint32_t i = 0; i < k->nlines; i++) {
		nfiles += !i || strcmp(k->lines[i].file, k->lines[i - 1].file);
		run += k->lines[i].count > 0; /* gcov's 0: compiled, not run */
	}
	strbuf_addf(sb, "%u %s run in %u %s, %u distinct %s; %s\n", run, text_plural(run, "line", "lines"), nfiles,
		    text_plural(nfiles, "file", "files"), k->npcs, text_plural(k->npcs, "PC", "PCs"), scope(k));
	if (k->npcs && !k->nlines)
		strbuf_addstr(sb, "  not symbolized yet: kfootprint map --vmlinux VMLINUX FILE\n");
	for (uint32_t i = 0; i < k->ntasks; i++)
		covered += k->tasks[i].covered;
	if (k->method == FP_KLINE_KCOV)
		strbuf_addf(sb, "  tasks: %u of %u covered\n", covered, k->ntasks);
	for (uint32_t i = 0; i < k->ntasks; i++)
		if (!k->tasks[i].covered) {
			strbuf_addf(sb, "    not covered: %d %s: ", k->tasks[i].tid,
				    k->tasks[i].comm ? k->tasks[i].comm : "?");
			rpt_add_display(sb, k->tasks[i].why_not ? k->tasks[i].why_not : "unknown");
			strbuf_addch(sb, '\n');
		}
	if (k->lost)
		strbuf_addf(sb, "  lost: %" PRIu64 " PCs that overflowed the tasks' areas (lines are missing)\n",
			    k->lost);
	if (k->mixed) {
		strbuf_addstr(sb, "  merged: ");
		rpt_add_display(sb, k->mixed);
		strbuf_addch(sb, '\n');
	}
	for (uint32_t i = 0, n = 0; i < k->nlines; i++) {
		n++;
		if (i + 1 < k->nlines && !strcmp(k->lines[i].file, k->lines[i + 1].file))
			continue;
		if (shown++ < KLINE_FILES_TOP) {
			strbuf_addf(sb, "  %6u  ", n);
			rpt_add_display(sb, k->lines[i].file);
			strbuf_addch(sb, '\n');
		}
		n = 0;
	}
	if (shown > KLINE_FILES_TOP)
		strbuf_addf(sb, "  ... %u more files\n", shown - KLINE_FILES_TOP);
}

/* Line-level review candidates: #if blocks compiled and never entered, error paths never taken. */
void kline_text_candidates(const struct klmap *kl, FILE *out)
{
	size_t entered = 0, idle = 0;

	for (size_t i = 0; i < kl->nblocks; i++) {
		entered += kl->blocks[i].covered > 0;
		idle += kl->blocks[i].compiled && !kl->blocks[i].covered;
	}
	if (!kl->source_root || !kl->compiled)
		return;
	fprintf(out,
		"\n#if blocks naming options in the covered files: %zu, %zu entered, %zu compiled and never entered\n",
		kl->nblocks, entered, idle);
	if (!idle && !kl->nerrpaths)
		return;
	fprintf(out, "review candidates at line level (%s)\n", inv_caution);
	for (size_t i = 0; i < kl->nblocks; i++) {
		const struct klm_block *b = &kl->blocks[i];

		if (b->compiled && !b->covered)
			fprintf(out, "  candidate %-30s #%s block %s:%u-%u: %u compiled lines, never entered\n",
				b->opts, b->kind, b->file, b->first, b->last, b->compiled);
	}
	for (size_t i = 0; i < kl->nerrpaths; i++)
		fprintf(out, "  candidate error path %s:%u in %s: %s never taken\n", kl->errpaths[i].file,
			kl->errpaths[i].line, kl->errpaths[i].function, kl->errpaths[i].text);
}

static void map_text(const struct fp_kernel_map *m, FILE *out)
{
	const struct klmap *kl = m->kl;

	if (!kl)
		return;
	fprintf(out, "\nKernel lines (%s; %s)\n", fp_kline_method_name(kl->k->method), scope(kl->k));
	if (kl->compiled) {
		uint64_t covered = 0;

		for (size_t i = 0; i < kl->nfiles; i++)
			covered += kl->files[i].nlines;
		fprintf(out,
			"compiled lines: %" PRIu64 " in %zu files (the vmlinux's DWARF line table); covered %" PRIu64
			" (%.2f%%)\n",
			kl->compiled_lines, kl->compiled_files, covered,
			kl->compiled_lines ? 100.0 * (double)covered / (double)kl->compiled_lines : 0.0);
	}
	fprintf(out, "%-48s %-24s %8s %8s\n", "file", "object", "covered", kl->compiled ? "compiled" : "");
	for (size_t i = 0; i < kl->nfiles; i++) {
		const struct klm_file *f = &kl->files[i];

		fprintf(out, "%-48s %-24s %8u", f->path, f->chain && f->chain->object ? f->chain->object : "-",
			f->nlines);
		if (kl->compiled)
			fprintf(out, " %8u", f->ncompiled);
		fputc('\n', out);
	}
	if (kl->nopts)
		fprintf(out, "\n%-40s %8s %6s\n", "option", "lines", "files");
	for (size_t i = 0; i < kl->nopts; i++)
		fprintf(out, "%-40s %8" PRIu64 " %6u\n", kl->opts[i].name, kl->opts[i].lines, kl->opts[i].files);
	kline_text_candidates(kl, out);
}

static void map_json(json_writer_t *w, const struct fp_kernel_map *m)
{
	const struct klmap *kl = m->kl;

	if (!kl)
		return;
	jsonw_name(w, "kernel_lines");
	jsonw_start_object(w);
	jsonw_string_field(w, "method", fp_kline_method_name(kl->k->method));
	jsonw_bool_field(w, "whole_guest", kl->k->whole_guest);
	if (kl->compiled) {
		jsonw_u64_field(w, "compiled_lines", kl->compiled_lines);
		jsonw_u64_field(w, "compiled_files", kl->compiled_files);
	}
	jsonw_name(w, "files");
	jsonw_start_array(w);
	for (size_t i = 0; i < kl->nfiles; i++) {
		const struct klm_file *f = &kl->files[i];

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "file", f->path);
		if (f->chain && f->chain->object)
			jsonw_string_field(w, "object", f->chain->object);
		jsonw_u64_field(w, "covered", f->nlines);
		if (kl->compiled)
			jsonw_u64_field(w, "compiled", f->ncompiled);
		if (f->chain)
			jsonw_strings_field_inline(w, "configs", f->chain->opts, f->chain->nopts);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_name(w, "configs");
	jsonw_start_array(w);
	for (size_t i = 0; i < kl->nopts; i++) {
		jsonw_start_object_inline(w);
		jsonw_string_field(w, "name", kl->opts[i].name);
		jsonw_u64_field(w, "lines", kl->opts[i].lines);
		jsonw_u64_field(w, "files", kl->opts[i].files);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	kline_json_candidates(w, kl);
	jsonw_end_object(w);
}

void kline_json_candidates(json_writer_t *w, const struct klmap *kl)
{
	if (kl->source_root && kl->compiled) {
		jsonw_name(w, "blocks");
		jsonw_start_array(w);
		for (size_t i = 0; i < kl->nblocks; i++) {
			const struct klm_block *b = &kl->blocks[i];

			jsonw_start_object_inline(w);
			jsonw_string_field(w, "file", b->file);
			jsonw_u64_field(w, "directive", b->directive);
			jsonw_u64_field(w, "first", b->first);
			jsonw_u64_field(w, "last", b->last);
			jsonw_string_field(w, "kind", b->kind);
			jsonw_string_field(w, "configs", b->opts);
			jsonw_u64_field(w, "compiled", b->compiled);
			jsonw_u64_field(w, "covered", b->covered);
			jsonw_bool_field(w, "candidate", b->compiled && !b->covered);
			jsonw_end_object(w);
		}
		jsonw_end_array(w);
		jsonw_name(w, "error_paths_not_taken");
		jsonw_start_array(w);
		for (size_t i = 0; i < kl->nerrpaths; i++) {
			jsonw_start_object_inline(w);
			jsonw_string_field(w, "file", kl->errpaths[i].file);
			jsonw_u64_field(w, "line", kl->errpaths[i].line);
			jsonw_string_field(w, "function", kl->errpaths[i].function);
			jsonw_string_field(w, "text", kl->errpaths[i].text);
			jsonw_end_object(w);
		}
		jsonw_end_array(w);
		jsonw_string_field(w, "caution", inv_caution);
	}
}

const struct kind_report klines_report = {
    .text = text_section,
    .map_text = map_text,
    .map_json = map_json,
};
