// SPDX-License-Identifier: GPL-2.0
/*
 * The annotator of the kind "call sites" (annotate.h struct kind_annotator): nothing to look up in a kernel tree,
 * the stacks are the footprint's; the mapping only borrows them, so that map's renderers, which see the mapping and
 * not the footprint, can name the call sites that needed each option (report/csite.c).
 */
#include "footprint/csite.h"
#include "kmap/annotate.h"

static int annotate(struct footprint *fp, const struct fp_kernel_map *map, struct annotate_ctx *ctx, void **db)
{
	struct fp_kernel_map *own = annotate_own_map(fp, map);

	(void)ctx;
	(void)db;
	if (own)
		own->csites = fp_csites_of(fp); /* fp owns the mapping: the borrow ends with both */
	return 0;
}

const struct kind_annotator csmap_annotator = {
    .annotate = annotate,
};
