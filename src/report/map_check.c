// SPDX-License-Identifier: GPL-2.0
/*
 * The self-check of a mapping against the running kernel (kmap/kmap_check.h) in the map's text and JSON: one
 * line of its result, then one line per contradiction, each a mapping error of kfootprint's.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "kmap/kmap_check.h"
#include "report/map_report.h"

void map_check_text(const struct fp_kernel_map *m, FILE *out)
{
	struct kmap_contra *c;
	size_t n;
	enum kmap_check_state s = kmap_check(m, &c, &n);

	if (s == KMAP_CHECK_NO_FOOTPRINT)
		return;
	if (s != KMAP_CHECKED)
		fprintf(out, "self-check: not made (%s)\n", kmap_check_state_name(s));
	else
		fprintf(out,
			"self-check: %zu contradiction%s with the running kernel (a call that succeeded there cannot "
			"need an option it has off)\n",
			n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		fprintf(out,
			"  mapping error: %s: %" PRIu64 " call%s succeeded on %s, which has CONFIG_%s %s, but its "
			"chain needs it\n",
			c[i].by, c[i].ok, c[i].ok == 1 ? "" : "s", m->run->release, c[i].option,
			*c[i].running == 'n' ? "not set" : "not named at all");
	free(c);
}

void map_check_json(json_writer_t *w, const struct fp_kernel_map *m)
{
	struct kmap_contra *c;
	size_t n;
	enum kmap_check_state s = kmap_check(m, &c, &n);

	jsonw_name(w, "self_check");
	jsonw_start_object(w);
	jsonw_string_field(w, "state", kmap_check_state_name(s));
	jsonw_name(w, "contradictions");
	jsonw_start_array(w);
	for (size_t i = 0; i < n; i++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "by", c[i].by);
		jsonw_string_field(w, "option", c[i].option);
		jsonw_string_field(w, "running", c[i].running);
		jsonw_u64_field(w, "succeeded", c[i].ok);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
	free(c);
}
