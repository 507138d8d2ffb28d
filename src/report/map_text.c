// SPDX-License-Identifier: GPL-2.0
/* The mapping as plain text: header, one block per syscall, then the option roll-up. */
#include <inttypes.h>
#include <string.h>

#include "report/map_report.h"

static void list(FILE *out, const char *label, const char *const *v, size_t n)
{
	if (!n)
		return;
	fprintf(out, "    %-12s", label);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : "", v[i]);
	fputc('\n', out);
}

static void row(FILE *out, const struct fp_kernel_map *m, const struct kmap_row *r)
{
	const struct kt_syscall *k = r->ks;
	char buf[512], calls[64] = "";

	if (r->observed)
		snprintf(calls, sizeof(calls), "  calls %" PRIu64 " (errors %" PRIu64 ")", r->calls, r->errors);
	fprintf(out, "%s%s  [%s]  running: %s%s\n", r->name, calls, r->klass, kf_run_status_name(r->running),
		r->required ? ""
		: r->probe  ? "  (probe, not required)"
			    : "  (not required)");
	if (kmap_row_where(r, buf, sizeof(buf)))
		fprintf(out, "    %-12s%s (%s)\n", "defined at", buf, k->macro ? k->macro : "?");
	if (k && k->object)
		fprintf(out, "    %-12s%s by %s:%d%s%s\n", "built as", k->object, k->makefile ? k->makefile : "?",
			k->makefile_line, k->included_by ? ", #included by " : "",
			k->included_by ? k->included_by : "");
	else if (k && k->included_by)
		fprintf(out, "    %-12s#included by %s\n", "built as", k->included_by);
	if (k && k->file)
		fprintf(out, "    %-12s%s\n", "section", kmap_row_section(r) ? kmap_row_section(r) : "none");
	if (k)
		list(out, "options", (const char *const *)r->opts, r->nopts);
	if (k && !r->nopts && k->status == KT_RESOLVED)
		fprintf(out, "    %-12s%s\n", "options", "none: always built");
	if (*kmap_row_note(m, r, buf, sizeof(buf)))
		fprintf(out, "    %-12s%s\n", "note", buf);
}

static void option(FILE *out, const struct kmap_opt *o)
{
	const struct kt_option *k = o->db->opt;
	char buf[512];

	fprintf(out, "CONFIG_%s  running: %s  tree: %s\n", o->name, map_opt_running(o),
		o->db->value ? o->db->value : "n");
	if (!k) {
		fprintf(out, "    %-12s%s\n", "defined at", "no Kconfig entry in the source tree");
	} else {
		fprintf(out, "    %-12s%s\n", "defined at", map_opt_where(o, buf, sizeof(buf)));
		if (k->prompt)
			fprintf(out, "    %-12s%s \"%s\"%s%s\n", "prompt", k->type ? k->type : "", k->prompt,
				k->prompt_if ? " if " : "", k->prompt_if ? k->prompt_if : "");
		else
			fprintf(out, "    %-12shidden (%s%s%s)\n", "prompt", k->type ? k->type : "untyped",
				k->defaults ? ", default " : "", k->defaults ? k->defaults : "");
		if (k->depends)
			fprintf(out, "    %-12s%s\n", "depends on", k->depends);
		list(out, "selected by", (const char *const *)k->selected_by, k->nselected_by);
	}
	list(out, "needed by", o->needed_by, o->nneeded);
	list(out, "off for", o->off_for, o->noff);
	list(out, "probed by", o->probed_by, o->nprobed);
}

static int render(const struct fp_kernel_map *m, FILE *out)
{
	struct map_counts c;
	char buf[1024];

	map_count(m, &c);
	fprintf(out, "kfootprint map of %s, %s\n", m->subject, kf_abi_name(m->abi));
	fprintf(out, "source tree:    %s\n", map_tree_line(m, buf, sizeof(buf)));
	fprintf(out, "running kernel: %s\n", map_running_line(m, buf, sizeof(buf)));
	if (m->mismatch)
		fprintf(out, "version mismatch: %s\n", m->mismatch);
	fprintf(out,
		"%zu syscalls: %zu required, %zu probes, %zu newer than the source tree, %zu without a full chain\n",
		c.rows, c.required, c.probes, c.newer, c.unresolved);
	fputc('\n', out);
	for (size_t i = 0; i < m->nrows; i++)
		row(out, m, &m->rows[i]);
	fprintf(out, "\n%zu options on the paths\n\n", m->nopts);
	for (size_t i = 0; i < m->nopts; i++)
		option(out, &m->opts[i]);
	return ferror(out) ? -1 : 0;
}

const struct map_renderer map_renderer_text = {"text", "plain text: a block per syscall, then the options", render};
