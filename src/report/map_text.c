// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping as plain text, the answer first: the header, the options the syscalls need with the running
 * kernel's value of each and the syscalls (and refinements) that need it, then one block per syscall (its chain),
 * one per refinement (what the calls reached: its target and chain), then each option's Kconfig entry.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/kmaint.h"
#include "report/kind_report.h"
#include "report/map_report.h"
#include "util/xalloc.h"

static void list(FILE *out, const char *label, const char *const *v, size_t n)
{
	if (!n)
		return;
	fprintf(out, "    %-12s", label);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : "", v[i]);
	fputc('\n', out);
}

/* Who to ask about the chain's file, as get_maintainer.pl prints it. */
static void maintainers(FILE *out, const struct kt_syscall *k)
{
	struct kmap_person *p = NULL;
	size_t n = kmap_maintainers(k->sections, k->nsections, &p);

	for (size_t i = 0; i < n; i++)
		fprintf(out, "    %-12s%s (%s)\n", i ? "" : "maintainers", p[i].who, p[i].role);
	kmap_maintainers_free(p, n);
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
	if (k && k->file) {
		fprintf(out, "    %-12s%s\n", "section", kmap_row_section(r) ? kmap_row_section(r) : "none");
		maintainers(out, k);
	}
	if (k)
		list(out, "options", (const char *const *)r->opts, r->nopts);
	if (k && !r->nopts && k->status == KT_RESOLVED)
		fprintf(out, "    %-12s%s\n", "options", "none: always built");
	if (*kmap_row_note(m, r, buf, sizeof(buf)))
		fprintf(out, "    %-12s%s\n", "note", buf);
}

/* A refinement: what its target is, where it is registered, and the rest of the chain as a syscall's. */
static void reached(FILE *out, const struct fp_kernel_map *m, const struct kmap_reach *r)
{
	const struct kt_syscall *k = r->ks;
	char buf[512];

	fprintf(out, "%s  calls %" PRIu64 " (errors %" PRIu64 ")%s\n", r->label, r->calls, r->errors,
		r->required ? "" : "  (not required)");
	list(out, "by", r->syscalls, r->nsyscalls);
	if (k) {
		fprintf(out, "    %-12s%s: %s%s%s at %s", "target", k->name, k->macro ? k->macro : "?",
			k->def_name ? " " : "", k->def_name ? k->def_name : "", k->file ? k->file : "?");
		if (k->line) /* 0: a row of the reviewed table naming a whole file */
			fprintf(out, ":%d", k->line);
		fputc('\n', out);
		if (k->object)
			fprintf(out, "    %-12s%s by %s:%d%s%s\n", "built as", k->object,
				k->makefile ? k->makefile : "?", k->makefile_line,
				k->included_by ? ", #included by " : "", k->included_by ? k->included_by : "");
		if (k->nsections)
			fprintf(out, "    %-12s%s\n", "section", k->sections[0].section->name);
		maintainers(out, k);
		list(out, "options", (const char *const *)r->opts, r->nopts);
		if (!r->nopts && k->status == KT_RESOLVED)
			fprintf(out, "    %-12s%s\n", "options", "none: always built");
	}
	if (*kmap_reach_note(m, r, buf, sizeof(buf)))
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

/* The running value as the answer shows it: y, m, n, absent (the config does not name it), unknown. */
static const char *running_value(const struct fp_kernel_map *m, const struct kmap_opt *o)
{
	if (!o->running)
		return "unknown";
	if (!strcmp(o->running, "n") && m->run && !kf_running_config_listed(m->run, o->name))
		return "absent";
	return o->running;
}

static void answer(FILE *out, const struct fp_kernel_map *m)
{
	size_t needed = 0, width = 0, off = 0, other = 0;
	size_t counts[5] = {0}; /* y, m, n, absent, unknown or another value */
	static const char *const names[] = {"y", "m", "n", "absent"};

	for (size_t i = 0; i < m->nopts; i++) {
		const struct kmap_opt *o = &m->opts[i];
		const char *v = running_value(m, o);
		size_t k = 0;

		off += o->noff && !o->nneeded;
		if (!o->nneeded) {
			other += !o->noff;
			continue;
		}
		needed++;
		if (strlen(o->name) > width)
			width = strlen(o->name);
		while (k < 4 && strcmp(v, names[k]))
			k++;
		counts[k]++;
	}
	fprintf(out, "needs %zu option%s", needed, needed == 1 ? "" : "s");
	if (m->run && m->run->have_config)
		fprintf(out, "; running kernel: %zu y, %zu m, %zu n, %zu absent%s\n", counts[0], counts[1], counts[2],
			counts[3], counts[2] + counts[3] ? " (the syscalls that need those fail there)" : "");
	else
		fputs("; running kernel's values unknown (no /proc/config.gz)\n", out);
	for (size_t i = 0; i < m->nopts; i++) {
		const struct kmap_opt *o = &m->opts[i];

		if (!o->nneeded)
			continue;
		fprintf(out, "  CONFIG_%-*s  %-7s ", (int)width, o->name, running_value(m, o));
		for (size_t j = 0; j < o->nneeded; j++)
			fprintf(out, "%s%s", j ? ", " : "", o->needed_by[j]);
		fputc('\n', out);
	}
	if (off)
		fprintf(out, "  (%zu more only needed off, listed below)\n", off);
	if (other)
		fprintf(out, "  (%zu more only on the paths of probes or calls not required, listed below)\n", other);
}

/* Who to ask: the MAINTAINERS sections of the required items, most items first, each with its people. */
static void who_to_ask(FILE *out, const struct fp_kernel_map *m)
{
	struct kmap_asked *v = NULL;
	size_t items = 0, n = kmap_who_to_ask(m, &v, &items);

	if (!n)
		return;
	fprintf(out, "\nwho to ask: %zu MAINTAINERS section%s, the most specific of each of %zu required items\n", n,
		n == 1 ? "" : "s", items);
	for (size_t i = 0; i < n; i++) {
		const struct kt_section *s = v[i].section->section;
		struct kmap_person *p = NULL;
		size_t np = kmap_maintainers(v[i].section, 1, &p);

		fprintf(out, "  %-4zu%s%s%s%s\n", v[i].items, s->name, s->status ? " (" : "",
			s->status ? s->status : "", s->status ? ")" : "");
		fputs("      options: ", out);
		for (size_t j = 0; j < v[i].nopts; j++)
			fprintf(out, "%s%s", j ? ", " : "", v[i].opts[j]);
		fputs(v[i].nopts ? "\n" : "none: always built\n", out);
		for (size_t j = 0; j < np; j++)
			fprintf(out, "      %s (%s)\n", p[j].who, p[j].role);
		kmap_maintainers_free(p, np);
	}
	kmap_who_to_ask_free(v, n);
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
	answer(out, m);
	who_to_ask(out, m);
	map_check_text(m, out);
	fprintf(out, "\n%zu syscalls, each with its chain\n\n", m->nrows);
	for (size_t i = 0; i < m->nrows; i++)
		row(out, m, &m->rows[i]);
	if (m->nreach)
		fprintf(out, "\n%zu refinement%s: what the calls reached, each with its chain\n\n", m->nreach,
			m->nreach == 1 ? "" : "s");
	for (size_t i = 0; i < m->nreach; i++)
		reached(out, m, &m->reach[i]);
	fprintf(out, "\n%zu options on the paths\n\n", m->nopts);
	for (size_t i = 0; i < m->nopts; i++)
		option(out, &m->opts[i]);
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		if ((*k)->report && (*k)->report->map_text)
			(*k)->report->map_text(m, out);
	return ferror(out) ? -1 : 0;
}

const struct map_renderer map_renderer_text = {
    {"text", "plain text: the options needed with their running values first, a block per syscall, the options"},
    render,
    false,
    NULL};
