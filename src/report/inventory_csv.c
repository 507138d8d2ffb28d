// SPDX-License-Identifier: GPL-2.0
// The inventory as CSV (RFC 4180): one table, a row per option, directory and file, with what observed it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/inventory_report.h"
#include "report/report_util.h"
#include "util/xalloc.h"

static void row(struct strbuf *sb, const char *kind, const char *name, const char *built, long sloc, size_t files,
		size_t seen, const uint64_t *hits, const char *review)
{
	rpt_add_csv_field(sb, kind);
	strbuf_addch(sb, ',');
	rpt_add_csv_field(sb, name);
	strbuf_addch(sb, ',');
	rpt_add_csv_field(sb, built);
	if (sloc >= 0)
		strbuf_addf(sb, ",%ld", sloc);
	else
		strbuf_addstr(sb, ",");
	strbuf_addf(sb, ",%zu,%zu", files, seen);
	for (int b = 0; b < INV_NBY; b++)
		strbuf_addf(sb, ",%llu", (unsigned long long)hits[b]);
	strbuf_addf(sb, ",%s\r\n", review ? review : "");
}

static const struct {
	const char *name;
	size_t *(*list)(const struct inventory *, size_t *);
} reviews[] = {{"candidate", inv_candidate_files},
	       {"always-built", inv_always_files},
	       {"gated", inv_gated_files},
	       {"chain-unknown", inv_unknown_files}};

int inv_render_csv(const struct inventory *inv, size_t top, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "kind,name,built_or_value,sloc,files,files_observed,by_syscall,by_refinement,by_function,"
			   "review\r\n");
	for (size_t i = 0; i < inv->nopts; i++) {
		const struct inv_group *g = &inv->opts[i];
		row(&sb, "option", g->name, g->value, g->sloc, g->nfiles, g->nseen, g->hits,
		    inv->nfootprints && !g->observed && g->nfiles ? "candidate" : NULL);
	}
	for (size_t i = 0; i < inv->ndirs; i++) {
		const struct inv_group *g = &inv->dirs[i];
		row(&sb, "directory", g->name, NULL, g->sloc, g->nfiles, g->nseen, g->hits, NULL);
	}
	/* a file's review: a candidate, or unreached code no configuration removes (always-built, gated) */
	const char **review = xcalloc(inv->nfiles + 1, sizeof(*review));
	for (size_t k = 0; inv->nfootprints && k < sizeof(reviews) / sizeof(reviews[0]); k++) {
		size_t n, *v = reviews[k].list(inv, &n);
		for (size_t i = 0; i < n; i++)
			review[v[i]] = reviews[k].name;
		free(v);
	}
	for (size_t i = 0; i < inv->nfiles; i++) {
		const struct inv_file *f = &inv->files[i];
		bool seen = f->hits[0] || f->hits[1] || f->hits[2];
		row(&sb, "file", f->path, kt_built_name(f->built), f->sloc, 1, seen, f->hits, review[i]);
	}
	free(review);
	(void)top;
	int r = rpt_flush(&sb, out);

	strbuf_release(&sb);
	return r;
}
