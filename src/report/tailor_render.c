// SPDX-License-Identifier: GPL-2.0
// tailor's report (tailor/report.h) as text and as JSON (schema kfootprint-tailor/1, docs/tailor.md).
#include <inttypes.h>

#include "report/tailor_render.h"
#include "tailor/report.h"
#include "util/json_writer.h"

static void ratio(FILE *out, double a, double b)
{
	if (b > 0)
		fprintf(out, " (%.2fx)", a / b);
}

static void figure_row(FILE *out, const char *what, const struct tl_report *r, int kind)
{
	fprintf(out, "  %-26s", what);
	for (size_t i = 0; i < r->nfig; i++) {
		const struct tl_figures *f = &r->fig[i];
		char cell[64] = "-";
		if (f->why_not)
			;
		else if (kind == 0)
			snprintf(cell, sizeof(cell), "%" PRIu64, f->bzimage);
		else if (kind == 1 && f->have_text)
			snprintf(cell, sizeof(cell), "%" PRIu64, f->text);
		else if (kind == 2)
			snprintf(cell, sizeof(cell), "%u / %u", f->opt_y, f->opt_m);
		else if (kind == 3 && f->have_boot)
			snprintf(cell, sizeof(cell), "%.2f s", f->boot_s);
		else if (kind == 4 && f->files)
			snprintf(cell, sizeof(cell), "%zu", f->files);
		else if (kind == 5 && f->have_sloc)
			snprintf(cell, sizeof(cell), "%ld", f->sloc);
		fprintf(out, " %22s", cell);
	}
	fputc('\n', out);
}

static int render_text(const struct tl_report *r, FILE *out)
{
	fprintf(out, "kfootprint tailor: %s\n", r->tree);
	for (size_t i = 0; i < r->nmasks; i++)
		fprintf(out, "standard output compared with each match of '%s' masked\n", r->masks[i]);
	for (size_t i = 0; i < r->nrounds; i++) {
		const struct tl_report_round *rd = &r->rounds[i];
		fprintf(out,
			"\nround %d: kernel %s%s in %.2f s: %zu options asked, %zu in the closure, %zu unmet: %s\n",
			rd->round, rd->key, rd->cached ? " (from the cache)" : "", rd->kernel_s, rd->asked, rd->closure,
			rd->nunmet, rd->equal ? "equal" : "differs");
		for (size_t k = 0; k < rd->nunmet; k++)
			fprintf(out, "  unmet %s\n", rd->unmet[k]);
		for (size_t k = 0; k < rd->nlost; k++)
			fprintf(out, "  conf did not keep %s\n", rd->lost[k]);
		for (size_t k = 0; k < rd->nruns; k++) {
			const struct tl_report_run *w = &rd->runs[k];
			fprintf(out, "  %s (%s): ", w->command, w->file);
			if (!w->booted)
				fprintf(out, "the kernel did not reach /init (%.1f s)\n", w->seconds);
			else if (!w->ended)
				fprintf(out, "did not end (%.1f s)\n", w->seconds);
			else
				fprintf(out, "exit %d (the original: %d), standard output %s, %.1f s in QEMU\n",
					w->exit_code, w->orig_exit,
					w->stdout_same < 0 ? "not compared"
					: w->stdout_same   ? "as the reference run's"
							   : "DIFFERS from the reference run's",
					w->seconds);
			for (size_t d = 0; d < w->ndiffs; d++)
				fprintf(out, "    %s\n", w->diffs[d]);
		}
		for (size_t k = 0; k < rd->nadded; k++)
			fprintf(out, "  added %s\n", rd->added[k]);
	}
	fprintf(out, "\nresult: %s\n", r->passed ? "the re-test equals the original" : "the re-test differs");
	if (!r->nfig)
		return ferror(out) ? -1 : 0;
	fprintf(out, "\nthe kernel beside others\n  %-26s", "");
	for (size_t i = 0; i < r->nfig; i++)
		fprintf(out, " %22.22s", r->fig[i].name);
	fputc('\n', out);
	figure_row(out, "bzImage bytes", r, 0);
	figure_row(out, "vmlinux text bytes", r, 1);
	figure_row(out, "options y / m", r, 2);
	figure_row(out, "boot to /init (-icount)", r, 3);
	figure_row(out, "compiled files", r, 4);
	figure_row(out, "their SLOC", r, 5);
	for (size_t i = 1; i < r->nfig; i++) {
		const struct tl_figures *f = &r->fig[i], *t = &r->fig[0];
		if (f->why_not) {
			fprintf(out, "  %s: %s\n", f->name, f->why_not);
			continue;
		}
		fprintf(out, "  tailored / %s: bzImage", f->name);
		ratio(out, (double)t->bzimage, (double)f->bzimage);
		if (t->have_text && f->have_text) {
			fputs(", text", out);
			ratio(out, (double)t->text, (double)f->text);
		}
		if (t->have_boot && f->have_boot) {
			fputs(", boot", out);
			ratio(out, t->boot_s, f->boot_s);
		}
		if (t->have_sloc && f->have_sloc) {
			fputs(", SLOC", out);
			ratio(out, (double)t->sloc, (double)f->sloc);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

static void strings(json_writer_t *w, const char *name, char *const *v, size_t n)
{
	jsonw_strings_field(w, name, (const char *const *)v, n);
}

static int render_json(const struct tl_report *r, FILE *out)
{
	json_writer_t *w = jsonw_new(out);
	jsonw_start_object(w);
	jsonw_string_field(w, "schema", "kfootprint-tailor/1");
	jsonw_string_field(w, "tree", r->tree);
	jsonw_bool_field(w, "passed", r->passed);
	strings(w, "stdout_masks", r->masks, r->nmasks);
	jsonw_name(w, "rounds");
	jsonw_start_array(w);
	for (size_t i = 0; i < r->nrounds; i++) {
		const struct tl_report_round *rd = &r->rounds[i];
		jsonw_start_object(w);
		jsonw_int_field(w, "round", rd->round);
		jsonw_string_field(w, "kernel", rd->key);
		jsonw_bool_field(w, "cached", rd->cached);
		jsonw_fixed_field(w, "kernel_s", rd->kernel_s, 2);
		jsonw_u64_field(w, "asked", rd->asked);
		jsonw_u64_field(w, "closure", rd->closure);
		strings(w, "unmet", rd->unmet, rd->nunmet);
		strings(w, "not_kept", rd->lost, rd->nlost);
		jsonw_bool_field(w, "equal", rd->equal);
		jsonw_name(w, "runs");
		jsonw_start_array(w);
		for (size_t k = 0; k < rd->nruns; k++) {
			const struct tl_report_run *x = &rd->runs[k];
			jsonw_start_object(w);
			jsonw_string_field(w, "footprint", x->file);
			jsonw_string_field(w, "command", x->command);
			jsonw_bool_field(w, "booted", x->booted);
			jsonw_bool_field(w, "ended", x->ended);
			if (x->ended)
				jsonw_int_field(w, "exit", x->exit_code);
			jsonw_int_field(w, "original_exit", x->orig_exit);
			jsonw_fixed_field(w, "seconds", x->seconds, 1);
			if (x->stdout_same < 0)
				jsonw_null_field(w, "stdout_same");
			else
				jsonw_bool_field(w, "stdout_same", x->stdout_same);
			strings(w, "differences", x->diffs, x->ndiffs);
			jsonw_end_object(w);
		}
		jsonw_end_array(w);
		strings(w, "added", rd->added, rd->nadded);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_name(w, "kernels");
	jsonw_start_array(w);
	for (size_t i = 0; i < r->nfig; i++) {
		const struct tl_figures *f = &r->fig[i];
		jsonw_start_object(w);
		jsonw_string_field(w, "name", f->name);
		if (f->why_not) {
			jsonw_string_field(w, "unavailable", f->why_not);
		} else {
			jsonw_u64_field(w, "bzimage_bytes", f->bzimage);
			if (f->have_text)
				jsonw_u64_field(w, "vmlinux_text_bytes", f->text);
			jsonw_u64_field(w, "options_y", f->opt_y);
			jsonw_u64_field(w, "options_m", f->opt_m);
			if (f->have_boot)
				jsonw_fixed_field(w, "boot_to_init_icount_s", f->boot_s, 3);
			if (f->files)
				jsonw_u64_field(w, "compiled_files", f->files);
			if (f->have_sloc)
				jsonw_int_field(w, "sloc", f->sloc);
		}
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
	return jsonw_finish(&w);
}

static const struct tailor_format tailor_text = {{"text", "the rounds, the result, the figures side by side"},
						 render_text};
static const struct tailor_format tailor_json = {{"json", "schema kfootprint-tailor/1 (docs/tailor.md)"}, render_json};

static struct format_table formats = {
    8,
    (const struct format *const[]){&tailor_text.f, &tailor_json.f, NULL},
    "",
};

const struct tailor_format *tailor_format_at(size_t i)
{
	return FORMAT_OF(format_at(&formats, i), struct tailor_format, f);
}
