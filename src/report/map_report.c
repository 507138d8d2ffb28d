// SPDX-License-Identifier: GPL-2.0
/* The table of mapping renderers, and what they share. */
#include "report/map_report.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const struct map_renderer *const map_renderers[] = {
    &map_renderer_text,
    &map_renderer_rst,
    &map_renderer_json,
    &map_renderer_kconfig,
};

const struct map_renderer *map_renderer_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(map_renderers) / sizeof(map_renderers[0]); i++)
		if (!strcmp(map_renderers[i]->name, name))
			return map_renderers[i];
	return NULL;
}

const char *map_renderer_names(void)
{
	return "text, rst, json, kconfig";
}

const char *map_tree_line(const struct fp_kernel_map *m, char *buf, size_t len)
{
	snprintf(buf, len, "Linux %s (%s; configuration: %s)", m->db->version, m->db->origin, m->db->config);
	return buf;
}

const char *map_running_line(const struct fp_kernel_map *m, char *buf, size_t len)
{
	const struct kf_running *r = m->run;

	if (!r) {
		snprintf(buf, len, "not consulted");
		return buf;
	}
	snprintf(buf, len, "%s (options: %s; syscalls: %s)", *r->release ? r->release : "unknown",
		 r->have_config	 ? "/proc/config.gz"
		 : r->config_why ? r->config_why
				 : "unknown",
		 r->have_kallsyms  ? "/proc/kallsyms"
		 : r->kallsyms_why ? r->kallsyms_why
				   : "unknown");
	return buf;
}

void map_count(const struct fp_kernel_map *m, struct map_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->rows = m->nrows;
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kmap_row *r = &m->rows[i];

		c->required += r->required;
		c->probes += r->probe;
		c->newer += r->newer;
		c->unresolved += r->ks && !r->ks->complete;
	}
}

const char *map_opt_where(const struct kmap_opt *o, char *buf, size_t len)
{
	if (!o->db->opt || !o->db->opt->file)
		return NULL;
	snprintf(buf, len, "%s:%d", o->db->opt->file, o->db->opt->line);
	return buf;
}

const char *map_opt_running(const struct kmap_opt *o)
{
	return o->running ? o->running : "unknown";
}

static char *run_subject(const struct footprint *fp)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "this run");
	if (fp->argv && fp->argv[0]) {
		strbuf_addstr(&sb, " (");
		for (size_t i = 0; fp->argv[i] && sb.len < 200; i++)
			strbuf_addf(&sb, "%s%s", i ? " " : "", fp->argv[i]);
		strbuf_addch(&sb, ')');
	}
	return strbuf_detach(&sb);
}

/*
 * The map of fp's syscalls of one ABI from the built-in database, which it borrows: the caller frees the map,
 * then *dbp. NULL when fp has none of that ABI (unless always) or on an error, which sets *rc after reporting it.
 */
static struct fp_kernel_map *map_abi(const struct footprint *fp, enum kf_abi abi, const struct kf_running *run,
				     const char *subject, bool always, struct mapdb **dbp, int *rc)
{
	struct fp_kernel_map *m = NULL;
	struct mapdb *db;
	char *err = NULL;
	size_t n;
	struct kmap_input *in = kmap_inputs_footprint(fp, abi, &n);

	if (!n && !always) {
		free(in);
		return NULL;
	}
	*dbp = db = mapdb_builtin(abi, &err);
	if (!db) {
		*rc = error("--map: %s", err);
		free(err);
	} else {
		m = kmap_build(db, run, in, n, subject);
	}
	free(in);
	return m;
}

int map_footprint_report(const struct footprint *fp, const char *format, FILE *out)
{
	static const enum kf_abi abis[] = {KF_ABI_X86_64, KF_ABI_I386};
	const struct map_renderer *r = map_renderer_find(format);
	struct kf_running run;
	char *subject;
	int rc = 0;

	if (!r)
		return error("unknown map format '%s': expected one of %s", format, map_renderer_names());
	kf_running__load(&run, NULL, NULL);
	subject = run_subject(fp);
	for (size_t a = 0; a < sizeof(abis) / sizeof(abis[0]) && !rc; a++) {
		/* x86_64 always, other ABIs when used */
		struct mapdb *db = NULL;
		struct fp_kernel_map *m = map_abi(fp, abis[a], &run, subject, a == 0, &db, &rc);

		if (!m)
			continue;
		if (strcmp(r->name, "json") && strcmp(r->name, "kconfig"))
			fputc('\n', out); /* apart from the footprint report before it */
		if (r->render(m, out) < 0)
			rc = perror_msg("writing the map");
		kmap_free(m);
		mapdb_free(db);
	}
	free(subject);
	kf_running__release(&run);
	return rc;
}

/* The row of a map JSON that belongs in a footprint's syscalls[].kernel: what the footprint lacks. */
static json_object *kernel_part(json_object *row)
{
	static const char *const keep[] = {"entry", "compat_entry", "newer", "probe", "required", "running", "note"};
	json_object *k = NULL, *v;

	if (json_object_object_get_ex(row, "kernel", &v) && v)
		k = json_object_get(v);
	else
		k = json_object_new_object();
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (json_object_object_get_ex(row, keep[i], &v))
			json_object_object_add(k, keep[i], json_object_get(v));
	return k;
}

static void annotate(json_object *root, const struct fp_kernel_map *m, json_object *configs)
{
	json_object *sys;

	if (!json_object_object_get_ex(root, "syscalls", &sys) || !json_object_is_type(sys, json_type_array))
		return;
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kmap_row *r = &m->rows[i];

		for (size_t j = 0; j < json_object_array_length(sys); j++) {
			json_object *s = json_object_array_get_idx(sys, j), *name, *abi, *row;

			if (!json_object_object_get_ex(s, "name", &name) ||
			    !json_object_object_get_ex(s, "abi", &abi) ||
			    strcmp(json_object_get_string(name), r->name) ||
			    strcmp(json_object_get_string(abi), kf_abi_name(r->abi)))
				continue;
			row = map_json_row(m, r);
			json_object_object_add(s, "kernel", kernel_part(row));
			json_object_put(row);
			break;
		}
	}
	for (size_t i = 0; i < m->nopts; i++) {
		json_object *o = map_json_option(&m->opts[i]);

		if (m->abi != KF_ABI_X86_64)
			json_object_object_add(o, "abi", json_object_new_string(kf_abi_name(m->abi)));
		json_object_array_add(configs, o);
	}
}

char *map_annotate_footprint_json(const struct footprint *fp)
{
	static const enum kf_abi abis[] = {KF_ABI_X86_64, KF_ABI_I386};
	json_object *root, *configs;
	struct kf_running run;
	char *buf = NULL, *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	int rc = 0;

	if (!mem || fp__write_json(fp, mem) < 0 || fclose(mem)) {
		perror_msg("--map: writing the footprint");
		free(buf);
		return NULL;
	}
	root = json_tokener_parse(buf);
	free(buf);
	if (!root) {
		error("--map: the footprint does not read back");
		return NULL;
	}
	kf_running__load(&run, NULL, NULL);
	configs = json_object_new_array();
	for (size_t a = 0; a < sizeof(abis) / sizeof(abis[0]) && !rc; a++) {
		struct mapdb *db = NULL;
		struct fp_kernel_map *m = map_abi(fp, abis[a], &run, "this run", false, &db, &rc);

		if (!m)
			continue;
		annotate(root, m, configs);
		kmap_free(m);
		mapdb_free(db);
	}
	json_object_object_add(root, "configs", configs);
	if (!rc)
		text = xasprintf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
										  JSON_C_TO_STRING_SPACED |
										  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	kf_running__release(&run);
	return text;
}
