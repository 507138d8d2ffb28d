/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_REPORT_KIND_REPORT_H
#define KF_REPORT_KIND_REPORT_H

/*
 * A kind's sections of the reports (struct fp_kind's report): the renderers call each registered kind's, in the
 * order of fp_kinds[], where they used to call one kind's by name. Each reads what the annotate stage attached
 * (the footprint, the mapping) and resolves nothing; NULL: the kind has no such section.
 */
#include <stdio.h>

#include "footprint/footprint.h"
#include "kmap/kmap.h"
#include "util/json_writer.h"
#include "util/strbuf.h"

struct kind_report {
	/* The text report's section, after the errors (text.c): nothing when fp has no part of the kind. */
	void (*text)(struct strbuf *sb, const struct footprint *fp);
	/* The mapping's part: map -F text (at the end), json (its member, after "configs"), rst (at the end). */
	void (*map_text)(const struct fp_kernel_map *m, FILE *out);
	void (*map_json)(json_writer_t *w, const struct fp_kernel_map *m);
	void (*map_rst)(const struct fp_kernel_map *m, FILE *out);
	/* The Kconfig fragment's comment heading the kind's needs (kneeds.h), before them. */
	void (*map_kconfig)(const struct fp_kernel_map *m, FILE *out);
};

#endif
