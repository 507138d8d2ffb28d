// SPDX-License-Identifier: GPL-2.0
/*
 * A mapping as JSON, through the one JSON writer: the rows and options of `map -F json` (schema
 * "kfootprint-map/1", docs/map.md: stable keys, every key always present, null or [] when there is nothing)
 * and the same facts as the "kernel" object of an annotated footprint's syscalls.
 */
#include <stdio.h>

#include "kmap/kmaint.h"
#include "kmap/kmap.h"

/* "file:line", or null when there is no file. */
static void where(json_writer_t *w, const char *name, const char *file, int line)
{
	char buf[512];

	if (!file) {
		jsonw_null_field(w, name);
		return;
	}
	snprintf(buf, sizeof(buf), "%s:%d", file, line);
	jsonw_string_field(w, name, buf);
}

/* The tree's chain of a row (or of a refinement's target), the members of its "kernel" object. */
/* Who to ask about the chain's file: get_maintainer.pl's lines, and the sections they come from. */
void kmap_json_people(json_writer_t *w, const struct kt_section_match *m, size_t n)
{
	struct kmap_person *p = NULL;
	size_t np = kmap_maintainers(m, n, &p);

	jsonw_name(w, "get_maintainer");
	jsonw_start_array(w);
	for (size_t i = 0; i < np; i++) {
		jsonw_start_object(w);
		jsonw_string_field(w, "who", p[i].who);
		jsonw_string_field(w, "role", p[i].role);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	kmap_maintainers_free(p, np);
}

static void people(json_writer_t *w, const struct kt_syscall *k)
{
	kmap_json_people(w, k->sections, k->nsections);
	jsonw_name(w, "sections");
	jsonw_start_array(w);
	for (size_t i = 0; i < k->nsections; i++)
		kmap_json_section(w, k->sections[i].section);
	jsonw_end_array(w);
}

void kmap_json_section(json_writer_t *w, const struct kt_section *s)
{
	jsonw_start_object(w);
	jsonw_string_field(w, "name", s->name);
	jsonw_string_field(w, "status", s->status);
	jsonw_strings_field(w, "maintainers", (const char *const *)s->maintainers, s->nmaintainers);
	jsonw_strings_field(w, "reviewers", (const char *const *)s->reviewers, s->nreviewers);
	jsonw_strings_field(w, "lists", (const char *const *)s->lists, s->nlists);
	jsonw_end_object(w);
}

static void chain(json_writer_t *w, const struct kt_syscall *k, char *const *opts, size_t nopts, bool who)
{
	jsonw_string_field(w, "definition", k->def_name);
	jsonw_string_field(w, "macro", k->macro);
	jsonw_string_field(w, "status", kt_status_name(k->status));
	jsonw_string_field(w, "file", k->file);
	if (k->file)
		jsonw_int_field(w, "line", k->line);
	else
		jsonw_null_field(w, "line");
	jsonw_string_field(w, "implementation", k->impl_file ? (k->impl_name ? k->impl_name : "") : NULL);
	where(w, "implementation_at", k->impl_file, k->impl_line);
	jsonw_string_field(w, "object", k->object);
	where(w, "makefile", k->makefile, k->makefile_line);
	jsonw_string_field(w, "included_by", k->included_by);
	jsonw_strings_field(w, "configs", (const char *const *)opts, nopts);
	jsonw_name(w, "conditions");
	jsonw_start_array(w);
	for (size_t i = 0; i < k->nconds; i++) {
		const struct kt_cond *c = &k->conds[i];

		jsonw_start_object(w);
		jsonw_string_field(w, "kind", kt_cond_kind_name(c->kind));
		jsonw_string_field(w, "option", c->option);
		jsonw_bool_field(w, "negated", c->negated);
		jsonw_string_field(w, "expr", c->expr);
		jsonw_string_field(w, "where", c->where);
		jsonw_strings_field(w, "symbols", (const char *const *)c->symbols, c->nsymbols);
		jsonw_bool_field(w, "holds", c->holds);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_name(w, "maintainers");
	jsonw_start_array(w);
	for (size_t i = 0; i < k->nsections; i++)
		jsonw_string(w, k->sections[i].section->name);
	jsonw_end_array(w);
	if (who)
		people(w, k);
	jsonw_bool_field(w, "optional", k->optional);
	jsonw_strings_field(w, "alternatives", (const char *const *)k->alternatives, k->nalternatives);
	jsonw_bool_field(w, "complete", k->complete);
	jsonw_string_field(w, "unresolved", k->unresolved);
	jsonw_string_field(w, "not_built", k->not_built);
}

/* "kernel": the chain as an object, or null when nothing in the tree was found for the row. */
static void kernel_member(json_writer_t *w, const struct kt_syscall *k, char *const *opts, size_t nopts)
{
	/* a map's row, with who to ask: a footprint's "kernel" objects leave them to the map */
	jsonw_name(w, "kernel");
	if (!k) {
		jsonw_null(w);
		return;
	}
	jsonw_start_object(w);
	chain(w, k, opts, nopts, true);
	jsonw_end_object(w);
}

/* What the mapping says of a row beyond the tree's chain (in a map row, these come before "kernel"). */
static void status(json_writer_t *w, const struct fp_kernel_map *m, const struct kmap_row *r)
{
	char buf[512];

	jsonw_string_field(w, "entry", r->entry);
	jsonw_string_field(w, "compat_entry", mapdb_compat_entry(m->db, r->name));
	jsonw_bool_field(w, "newer", r->newer);
	jsonw_bool_field(w, "probe", r->probe);
	jsonw_bool_field(w, "required", r->required);
	jsonw_string_field(w, "running", kf_run_status_name(r->running));
	jsonw_string_field(w, "note", *kmap_row_note(m, r, buf, sizeof(buf)) ? buf : NULL);
}

static void count(json_writer_t *w, const char *name, bool observed, uint64_t n)
{
	if (observed)
		jsonw_u64_field(w, name, n);
	else
		jsonw_null_field(w, name);
}

void kmap_json_row(json_writer_t *w, const struct fp_kernel_map *m, const struct kmap_row *r)
{
	jsonw_start_object(w);
	jsonw_string_field(w, "name", r->name);
	jsonw_string_field(w, "abi", kf_abi_name(r->abi));
	if (r->nr >= 0)
		jsonw_int_field(w, "nr", r->nr);
	else
		jsonw_null_field(w, "nr");
	count(w, "calls", r->observed, r->calls);
	count(w, "errors", r->observed, r->errors);
	count(w, "enosys", r->observed, r->enosys);
	jsonw_string_field(w, "class", r->klass);
	status(w, m, r);
	kernel_member(w, r->ks, r->opts, r->nopts);
	jsonw_end_object(w);
}

void kmap_json_kernel(json_writer_t *w, const struct fp_kernel_map *m, const struct kmap_row *r)
{
	jsonw_start_object(w);
	if (r->ks)
		chain(w, r->ks, r->opts, r->nopts, false);
	status(w, m, r);
	jsonw_end_object(w);
}

void kmap_json_option(json_writer_t *w, const struct kmap_opt *o, const char *abi)
{
	const struct kt_option *k = o->db->opt;

	jsonw_start_object(w);
	jsonw_string_field(w, "name", o->name);
	where(w, "defined_at", k ? k->file : NULL, k ? k->line : 0);
	jsonw_string_field(w, "type", k ? k->type : NULL);
	jsonw_string_field(w, "prompt", k ? k->prompt : NULL);
	jsonw_string_field(w, "prompt_if", k ? k->prompt_if : NULL);
	jsonw_string_field(w, "depends_on", k ? k->depends : NULL);
	jsonw_string_field(w, "defaults", k ? k->defaults : NULL);
	jsonw_strings_field(w, "selected_by", k ? (const char *const *)k->selected_by : NULL, k ? k->nselected_by : 0);
	jsonw_strings_field(w, "implied_by", k ? (const char *const *)k->implied_by : NULL, k ? k->nimplied_by : 0);
	jsonw_string_field(w, "help", k ? k->help : NULL);
	jsonw_string_field(w, "tree_value", o->db->value ? o->db->value : "n");
	jsonw_string_field(w, "running", o->running);
	jsonw_strings_field(w, "needed_by", o->needed_by, o->nneeded);
	jsonw_strings_field(w, "off_for", o->off_for, o->noff);
	jsonw_strings_field(w, "probed_by", o->probed_by, o->nprobed);
	if (abi)
		jsonw_string_field(w, "abi", abi);
	jsonw_end_object(w);
}

/* A refinement's target and what the mapping says of it (the chain's members follow when there is one). */
static void reach_status(json_writer_t *w, const struct fp_kernel_map *m, const struct kmap_reach *r)
{
	char buf[512];

	jsonw_string_field(w, "target", r->ks ? r->ks->name : NULL);
	jsonw_bool_field(w, "required", r->required);
	jsonw_string_field(w, "note", *kmap_reach_note(m, r, buf, sizeof(buf)) ? buf : NULL);
}

void kmap_json_reach(json_writer_t *w, const struct fp_kernel_map *m, const struct kmap_reach *r)
{
	jsonw_start_object(w);
	jsonw_string_field(w, "kind", r->kind);
	jsonw_string_field(w, "value", r->value);
	jsonw_strings_field(w, "syscalls", r->syscalls, r->nsyscalls);
	jsonw_u64_field(w, "calls", r->calls);
	jsonw_u64_field(w, "errors", r->errors);
	reach_status(w, m, r);
	kernel_member(w, r->ks, r->opts, r->nopts);
	jsonw_end_object(w);
}

void kmap_json_reach_kernel(json_writer_t *w, const struct fp_kernel_map *m, const struct kmap_reach *r)
{
	jsonw_start_object(w);
	reach_status(w, m, r);
	if (r->ks)
		chain(w, r->ks, r->opts, r->nopts, false);
	jsonw_end_object(w);
}
