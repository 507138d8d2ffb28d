// SPDX-License-Identifier: GPL-2.0
// tailor's report as data (report.h): growing it round by round, and freeing it.
#include <stdlib.h>
#include <string.h>

#include "tailor/report.h"
#include "util/xalloc.h"

struct tl_report_round *tl_report_round_add(struct tl_report *r)
{
	r->rounds = xrealloc(r->rounds, (r->nrounds + 1) * sizeof(*r->rounds));
	struct tl_report_round *rd = &r->rounds[r->nrounds++];
	memset(rd, 0, sizeof(*rd));
	return rd;
}

static void free_strs(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void tl_report_release(struct tl_report *r)
{
	for (size_t i = 0; i < r->nrounds; i++) {
		struct tl_report_round *rd = &r->rounds[i];
		free_strs(rd->unmet, rd->nunmet);
		free_strs(rd->lost, rd->nlost);
		free_strs(rd->added, rd->nadded);
		for (size_t k = 0; k < rd->nruns; k++) {
			free(rd->runs[k].file);
			free(rd->runs[k].command);
			free_strs(rd->runs[k].diffs, rd->runs[k].ndiffs);
		}
		free(rd->runs);
	}
	free(r->rounds);
	for (size_t i = 0; i < r->nfig; i++)
		tl_figures_release(&r->fig[i]);
	free(r->tree);
	for (size_t i = 0; i < r->nmasks; i++)
		free(r->masks[i]);
	memset(r, 0, sizeof(*r));
}
