// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping as JSON, schema "kfootprint-map/1" (docs/map.md): stable keys, every key always present (null or
 * [] when there is nothing), so other tools need no guessing. Rows and options are kmap_json.c's; the layout is
 * the one this document was first published with (json_writer.h).
 */
#include "kmap/kmaint.h"
#include "report/kind_report.h"
#include "report/map_report.h"

/* "who_to_ask": the summary of the text's, each section with its people as get_maintainer.pl names them. */
static void who_to_ask(json_writer_t *w, const struct fp_kernel_map *m)
{
	struct kmap_asked *v = NULL;
	size_t items = 0, n = kmap_who_to_ask(m, &v, &items);

	jsonw_name(w, "who_to_ask");
	jsonw_start_array(w);
	for (size_t i = 0; i < n; i++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "section", v[i].section->section->name);
		jsonw_string_field(w, "status", v[i].section->section->status);
		jsonw_u64_field(w, "items", v[i].items);
		jsonw_strings_field(w, "configs", v[i].opts, v[i].nopts);
		kmap_json_people(w, v[i].section, 1);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	kmap_who_to_ask_free(v, n);
}

static int render(const struct fp_kernel_map *m, FILE *out)
{
	json_writer_t *w = jsonw_new_style(out, JSONW_SHORT_ESCAPES | JSONW_OPEN_EMPTY);

	jsonw_start_object(w);
	jsonw_string_field(w, "schema", "kfootprint-map/1");
	jsonw_string_field(w, "tool", "kfootprint " KF_VERSION);
	jsonw_string_field(w, "subject", m->subject);
	jsonw_string_field(w, "abi", kf_abi_name(m->abi));
	jsonw_name(w, "tree");
	jsonw_start_object(w);
	jsonw_string_field(w, "version", m->db->version);
	jsonw_string_field(w, "origin", m->db->origin);
	jsonw_string_field(w, "config", m->db->config);
	jsonw_end_object(w);
	jsonw_name(w, "running");
	jsonw_start_object(w);
	jsonw_string_field(w, "release", m->run && *m->run->release ? m->run->release : NULL);
	jsonw_bool_field(w, "config", m->run && m->run->have_config);
	jsonw_bool_field(w, "kallsyms", m->run && m->run->have_kallsyms);
	jsonw_string_field(w, "mismatch", m->mismatch);
	jsonw_end_object(w);
	jsonw_name(w, "syscalls");
	jsonw_start_array(w);
	for (size_t i = 0; i < m->nrows; i++)
		kmap_json_row(w, m, &m->rows[i]);
	jsonw_end_array(w);
	jsonw_name(w, "reached");
	jsonw_start_array(w);
	for (size_t i = 0; i < m->nreach; i++)
		kmap_json_reach(w, m, &m->reach[i]);
	jsonw_end_array(w);
	jsonw_name(w, "configs");
	jsonw_start_array(w);
	for (size_t i = 0; i < m->nopts; i++)
		kmap_json_option(w, &m->opts[i], NULL);
	jsonw_end_array(w);
	who_to_ask(w, m);
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		if ((*k)->report && (*k)->report->map_json)
			(*k)->report->map_json(w, m);
	map_check_json(w, m);
	jsonw_end_object(w);
	jsonw_destroy(&w);
	return ferror(out) ? -1 : 0;
}

const struct map_renderer map_renderer_json = {
    {"json", "JSON, schema kfootprint-map/1 (docs/map.md)"}, render, true, NULL};
