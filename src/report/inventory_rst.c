// SPDX-License-Identifier: GPL-2.0
// The inventory in reStructuredText: the options and files reached, and the review candidates, as list-tables
// ready for kernel documentation.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/inventory_report.h"
#include "report/report_util.h"

/* Free text in a paragraph: the characters that would start inline markup are escaped. */
static void text(struct strbuf *sb, const char *s)
{
	struct strbuf raw = STRBUF_INIT;

	rpt_add_display(&raw, s);
	for (const char *p = raw.buf; *p; p++) {
		if (strchr("*`_|\\", *p))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *p);
	}
	strbuf_release(&raw);
}

static void table(struct strbuf *sb, const char *title, const char *cols)
{
	strbuf_addf(sb, ".. list-table:: %s\n   :header-rows: 1\n\n", title);
	strbuf_addstr(sb, cols);
}

int inv_render_rst(const struct inventory *inv, size_t top, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	struct inv_totals t;
	size_t n;

	inv_totals(inv, &t);
	strbuf_addstr(&sb, "Kernel inventory\n================\n\n");
	strbuf_addstr(&sb, "Compiled: ");
	text(&sb, inv->source);
	strbuf_addf(&sb, ". %zu built-in files (%ld SLOC), %zu in modules (%ld SLOC). SLOC: ", t.files[KT_BUILT_IN],
		    t.sloc[KT_BUILT_IN], t.files[KT_BUILT_MODULE], t.sloc[KT_BUILT_MODULE]);
	text(&sb, inv->no_sloc && inv->nfiles ? "none, no SLOC without a tree" : inv_sloc_rule);
	strbuf_addstr(&sb, ".\n\n");
	if (inv->closure) {
		strbuf_addstr(&sb, "Options reached: those the needs want on, ");
		text(&sb, inv->closure);
		strbuf_addstr(&sb, ".\n\n");
	}
	if (inv->running)
		strbuf_addf(&sb,
			    "Running kernel's functions: %zu names, %zu resolved to a file, %zu ambiguous, %zu "
			    "unknown.\n\n",
			    inv->running->names, inv->running->resolved, inv->running->ambiguous,
			    inv->running->unknown);
	table(&sb, "Options reached", "   * - Option\n     - Value\n     - Files\n     - SLOC\n     - Observed by\n");
	for (size_t i = 0; i < inv->nopts; i++) {
		const struct inv_group *g = &inv->opts[i];
		if (!g->observed)
			continue;
		strbuf_addf(&sb, "   * - ``CONFIG_%s``\n     - %s\n     - %zu\n     - %ld\n     - ", g->name,
			    g->value ? g->value : "-", g->nfiles, g->sloc);
		if (g->via && !g->nseen) {
			strbuf_addstr(&sb, "closure: needed by ");
			text(&sb, g->via);
		} else {
			inv_add_hits(&sb, g->hits);
		}
		strbuf_addch(&sb, '\n');
	}
	size_t *c = inv_candidate_opts(inv, &n);
	strbuf_addstr(&sb, "\nReview candidates (");
	text(&sb, inv_caution);
	strbuf_addstr(&sb, ").\n\n");
	table(&sb, "Compiled options no observation reached, by the code they gate",
	      "   * - Option\n     - Value\n     - Files\n     - SLOC\n");
	for (size_t i = 0; inv->nfootprints && i < n && (!top || i < top); i++) {
		const struct inv_group *g = &inv->opts[c[i]];
		strbuf_addf(&sb, "   * - ``CONFIG_%s``\n     - %s\n     - %zu\n     - %ld\n", g->name,
			    g->value ? g->value : "-", g->nfiles, g->sloc);
	}
	free(c);
	if (inv->nfootprints && inv->chains) {
		size_t na, ng, nu;
		free(inv_always_files(inv, &na));
		free(inv_gated_files(inv, &ng));
		free(inv_unknown_files(inv, &nu));
		strbuf_addf(&sb,
			    "\nNot removable by configuration: %zu files no observation reached are compiled "
			    "unconditionally (no option on their Makefile chain), %zu are gated only by options the "
			    "workload reached; of %zu the chain is not known.\n",
			    na, ng, nu);
	}
	int r = rpt_flush(&sb, out);

	strbuf_release(&sb);
	return r;
}
