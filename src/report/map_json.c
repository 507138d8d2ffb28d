// SPDX-License-Identifier: GPL-2.0
/*
 * The mapping as JSON, schema "kfootprint-map/1" (docs/map.md): stable keys, every key always present (null or
 * [] when there is nothing), so other tools need no guessing.
 */
#include <json-c/json.h>
#include <string.h>

#include "report/map_report.h"

static json_object *str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static json_object *strv(const char *const *v, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_string(v[i]));
	return a;
}

static json_object *where(const char *file, int line)
{
	char buf[512];

	if (!file)
		return NULL;
	snprintf(buf, sizeof(buf), "%s:%d", file, line);
	return json_object_new_string(buf);
}

static json_object *kernel(const struct kmap_row *r)
{
	const struct kt_syscall *k = r->ks;
	json_object *o = json_object_new_object(), *a;

	json_object_object_add(o, "definition", str(k->def_name));
	json_object_object_add(o, "macro", str(k->macro));
	json_object_object_add(o, "status", json_object_new_string(kt_status_name(k->status)));
	json_object_object_add(o, "file", str(k->file));
	json_object_object_add(o, "line", k->file ? json_object_new_int(k->line) : NULL);
	json_object_object_add(o, "implementation",
			       k->impl_file ? json_object_new_string(k->impl_name ? k->impl_name : "") : NULL);
	json_object_object_add(o, "implementation_at", where(k->impl_file, k->impl_line));
	json_object_object_add(o, "object", str(k->object));
	json_object_object_add(o, "makefile", where(k->makefile, k->makefile_line));
	json_object_object_add(o, "included_by", str(k->included_by));
	json_object_object_add(o, "configs", strv((const char *const *)r->opts, r->nopts));
	a = json_object_new_array();
	for (size_t i = 0; i < k->nconds; i++) {
		const struct kt_cond *c = &k->conds[i];
		json_object *co = json_object_new_object();

		json_object_object_add(co, "kind", json_object_new_string(kt_cond_kind_name(c->kind)));
		json_object_object_add(co, "option", str(c->option));
		json_object_object_add(co, "negated", json_object_new_boolean(c->negated));
		json_object_object_add(co, "expr", str(c->expr));
		json_object_object_add(co, "where", str(c->where));
		json_object_object_add(co, "symbols", strv((const char *const *)c->symbols, c->nsymbols));
		json_object_object_add(co, "holds", json_object_new_boolean(c->holds));
		json_object_array_add(a, co);
	}
	json_object_object_add(o, "conditions", a);
	a = json_object_new_array();
	for (size_t i = 0; i < k->nsections; i++)
		json_object_array_add(a, json_object_new_string(k->sections[i].section->name));
	json_object_object_add(o, "maintainers", a);
	json_object_object_add(o, "optional", json_object_new_boolean(k->optional));
	json_object_object_add(o, "alternatives", strv((const char *const *)k->alternatives, k->nalternatives));
	json_object_object_add(o, "complete", json_object_new_boolean(k->complete));
	json_object_object_add(o, "unresolved", str(k->unresolved));
	json_object_object_add(o, "not_built", str(k->not_built));
	return o;
}

json_object *map_json_row(const struct fp_kernel_map *m, const struct kmap_row *r)
{
	json_object *o = json_object_new_object();
	char buf[512];

	json_object_object_add(o, "name", json_object_new_string(r->name));
	json_object_object_add(o, "abi", json_object_new_string(kf_abi_name(r->abi)));
	json_object_object_add(o, "nr", r->nr >= 0 ? json_object_new_int(r->nr) : NULL);
	json_object_object_add(o, "calls", r->observed ? json_object_new_uint64(r->calls) : NULL);
	json_object_object_add(o, "errors", r->observed ? json_object_new_uint64(r->errors) : NULL);
	json_object_object_add(o, "enosys", r->observed ? json_object_new_uint64(r->enosys) : NULL);
	json_object_object_add(o, "class", json_object_new_string(r->klass));
	json_object_object_add(o, "entry", str(r->entry));
	json_object_object_add(o, "compat_entry", str(mapdb_compat_entry(m->db, r->name)));
	json_object_object_add(o, "newer", json_object_new_boolean(r->newer));
	json_object_object_add(o, "probe", json_object_new_boolean(r->probe));
	json_object_object_add(o, "required", json_object_new_boolean(r->required));
	json_object_object_add(o, "running", json_object_new_string(kf_run_status_name(r->running)));
	json_object_object_add(o, "note", *kmap_row_note(m, r, buf, sizeof(buf)) ? json_object_new_string(buf) : NULL);
	json_object_object_add(o, "kernel", r->ks ? kernel(r) : NULL);
	return o;
}

json_object *map_json_option(const struct kmap_opt *o)
{
	const struct kt_option *k = o->db->opt;
	json_object *j = json_object_new_object();
	char buf[512];

	json_object_object_add(j, "name", json_object_new_string(o->name));
	json_object_object_add(j, "defined_at", k ? str(map_opt_where(o, buf, sizeof(buf))) : NULL);
	json_object_object_add(j, "type", str(k ? k->type : NULL));
	json_object_object_add(j, "prompt", str(k ? k->prompt : NULL));
	json_object_object_add(j, "prompt_if", str(k ? k->prompt_if : NULL));
	json_object_object_add(j, "depends_on", str(k ? k->depends : NULL));
	json_object_object_add(j, "defaults", str(k ? k->defaults : NULL));
	json_object_object_add(j, "selected_by",
			       strv(k ? (const char *const *)k->selected_by : NULL, k ? k->nselected_by : 0));
	json_object_object_add(j, "implied_by",
			       strv(k ? (const char *const *)k->implied_by : NULL, k ? k->nimplied_by : 0));
	json_object_object_add(j, "help", str(k ? k->help : NULL));
	json_object_object_add(j, "tree_value", json_object_new_string(o->db->value ? o->db->value : "n"));
	json_object_object_add(j, "running", str(o->running));
	json_object_object_add(j, "needed_by", strv(o->needed_by, o->nneeded));
	json_object_object_add(j, "off_for", strv(o->off_for, o->noff));
	json_object_object_add(j, "probed_by", strv(o->probed_by, o->nprobed));
	return j;
}

static int render(const struct fp_kernel_map *m, FILE *out)
{
	json_object *root = json_object_new_object(), *tree = json_object_new_object(), *run = json_object_new_object(),
		    *a;
	int rc;

	json_object_object_add(root, "schema", json_object_new_string("kfootprint-map/1"));
	json_object_object_add(root, "tool", json_object_new_string("kfootprint " KF_VERSION));
	json_object_object_add(root, "subject", json_object_new_string(m->subject));
	json_object_object_add(root, "abi", json_object_new_string(kf_abi_name(m->abi)));
	json_object_object_add(tree, "version", json_object_new_string(m->db->version));
	json_object_object_add(tree, "origin", json_object_new_string(m->db->origin));
	json_object_object_add(tree, "config", json_object_new_string(m->db->config));
	json_object_object_add(root, "tree", tree);
	json_object_object_add(run, "release", m->run && *m->run->release ? str(m->run->release) : NULL);
	json_object_object_add(run, "config", json_object_new_boolean(m->run && m->run->have_config));
	json_object_object_add(run, "kallsyms", json_object_new_boolean(m->run && m->run->have_kallsyms));
	json_object_object_add(run, "mismatch", str(m->mismatch));
	json_object_object_add(root, "running", run);
	a = json_object_new_array();
	for (size_t i = 0; i < m->nrows; i++)
		json_object_array_add(a, map_json_row(m, &m->rows[i]));
	json_object_object_add(root, "syscalls", a);
	a = json_object_new_array();
	for (size_t i = 0; i < m->nopts; i++)
		json_object_array_add(a, map_json_option(&m->opts[i]));
	json_object_object_add(root, "configs", a);
	rc = fprintf(out, "%s\n",
		     json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							      JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return rc < 0 || ferror(out) ? -1 : 0;
}

const struct map_renderer map_renderer_json = {"json", "JSON, schema kfootprint-map/1 (docs/map.md)", render};
