// SPDX-License-Identifier: GPL-2.0
/*
 * Saving a map database (kfootprint map --save-db): a JSON document whose arrays hold one record a line, so a
 * regenerated database diffs line by line. Each record is written compact; absent, zero and false fields are
 * left out (the loader reads them back as such).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/mapdb.h"
#include "util/json_writer.h"
#include "util/xalloc.h"

struct kfact_out {
	FILE *out;
	size_t i, n;
};

static void put_str(json_writer_t *w, const char *key, const char *v)
{
	if (v)
		jsonw_string_field(w, key, v);
}

static void put_int(json_writer_t *w, const char *key, int v)
{
	if (v)
		jsonw_int_field(w, key, v);
}

static void put_strv(json_writer_t *w, const char *key, char *const *v, size_t n)
{
	if (n) /* the database leaves empty lists out */
		jsonw_strings_field(w, key, (const char *const *)v, n);
}

/* Sections are saved once and referred to by position; collects them in first-use order. */
static size_t section_id(const struct kt_section ***secs, size_t *n, size_t *cap, const struct kt_section *s)
{
	for (size_t i = 0; i < *n; i++)
		if ((*secs)[i] == s)
			return i;
	XGROW(*secs, *cap, *n + 1);
	(*secs)[*n] = s;
	return (*n)++;
}

static void put_conds(json_writer_t *w, const struct kt_syscall *s)
{
	if (!s->nconds)
		return;
	jsonw_name(w, "conds");
	jsonw_start_array(w);
	for (size_t i = 0; i < s->nconds; i++) {
		const struct kt_cond *c = &s->conds[i];

		jsonw_start_object(w);
		put_str(w, "kind", kt_cond_kind_name(c->kind));
		put_str(w, "option", c->option);
		if (c->negated)
			jsonw_bool_field(w, "negated", true);
		put_str(w, "expr", c->expr);
		put_str(w, "where", c->where);
		if (!c->option)
			put_strv(w, "symbols", c->symbols, c->nsymbols);
		jsonw_bool_field(w, "holds", c->holds);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

static void syscall_record(json_writer_t *w, const struct kt_syscall *s, const char *compat,
			   const struct kt_section ***secs, size_t *nsecs, size_t *cap)
{
	jsonw_start_object(w);
	put_str(w, "name", s->name);
	put_str(w, "entry", s->entry);
	put_str(w, "compat", compat);
	put_str(w, "def", s->def_name);
	put_str(w, "macro", s->macro);
	put_str(w, "status", kt_status_name(s->status));
	put_str(w, "file", s->file);
	put_int(w, "line", s->line);
	put_str(w, "impl", s->impl_name);
	put_str(w, "impl_file", s->impl_file);
	put_int(w, "impl_line", s->impl_line);
	put_str(w, "object", s->object);
	put_str(w, "makefile", s->makefile);
	put_int(w, "makefile_line", s->makefile_line);
	put_str(w, "included_by", s->included_by);
	put_conds(w, s);
	put_strv(w, "options", s->options, s->noptions);
	if (s->nsections) {
		jsonw_name(w, "sections");
		jsonw_start_array(w);
		for (size_t i = 0; i < s->nsections; i++) {
			jsonw_start_array(w);
			jsonw_int(w, (int64_t)section_id(secs, nsecs, cap, s->sections[i].section));
			jsonw_int(w, s->sections[i].depth);
			jsonw_end_array(w);
		}
		jsonw_end_array(w);
	}
	if (s->optional)
		jsonw_bool_field(w, "optional", true);
	put_strv(w, "alternatives", s->alternatives, s->nalternatives);
	jsonw_bool_field(w, "complete", s->complete);
	put_str(w, "unresolved", s->unresolved);
	put_str(w, "not_built", s->not_built);
	jsonw_end_object(w);
}

static void option_record(json_writer_t *w, const struct mapdb_opt *m)
{
	const struct kt_option *k = m->opt;

	jsonw_start_object(w);
	put_str(w, "name", m->name);
	put_str(w, "value", m->value);
	if (k) {
		put_str(w, "file", k->file);
		put_int(w, "line", k->line);
		put_str(w, "type", k->type);
		put_str(w, "prompt", k->prompt);
		put_str(w, "prompt_if", k->prompt_if);
		put_str(w, "depends", k->depends);
		put_str(w, "defaults", k->defaults);
		put_strv(w, "selected_by", k->selected_by, k->nselected_by);
		put_strv(w, "implied_by", k->implied_by, k->nimplied_by);
		put_str(w, "help", k->help);
		put_int(w, "ndefinitions", k->ndefinitions);
		jsonw_bool_field(w, "kconfig", true);
	}
	jsonw_end_object(w);
}

static void section_record(json_writer_t *w, const struct kt_section *s)
{
	jsonw_start_object(w);
	put_str(w, "name", s->name);
	put_str(w, "status", s->status);
	put_strv(w, "maintainers", s->maintainers, s->nmaintainers);
	put_strv(w, "reviewers", s->reviewers, s->nreviewers);
	put_strv(w, "lists", s->lists, s->nlists);
	jsonw_end_object(w);
}

/* The Kconfig facts of one symbol or choice (ktree.h struct kt_kfact), for the closure without a tree. */
static void kfact_record(void *ctx, const struct kt_kfact *k)
{
	struct kfact_out *o = ctx;
	json_writer_t *w = jsonw_new_style(o->out, JSONW_COMPACT | JSONW_SHORT_ESCAPES);

	jsonw_start_object(w);
	put_str(w, "name", k->name);
	put_str(w, "type", k->type);
	if (k->prompt)
		jsonw_bool_field(w, "prompt", true);
	put_str(w, "prompt_if", k->prompt_if);
	put_str(w, "depends", k->depends);
	put_strv(w, "defaults", (char *const *)k->defaults, k->ndefaults);
	put_strv(w, "selected_by", (char *const *)k->selected_by, k->nselected_by);
	put_str(w, "choice", k->choice);
	put_strv(w, "members", (char *const *)k->members, k->nmembers);
	jsonw_end_object(w);
	jsonw_destroy(&w);
	fputs(++o->i < o->n ? ",\n" : "\n", o->out);
}

/* The head object opens the document and stays open: the arrays follow it as members, one record a line. */
static int put_head(const struct mapdb *db, FILE *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	json_writer_t *w;
	int rc;

	if (!m)
		return -1;
	w = jsonw_new_style(m, JSONW_COMPACT | JSONW_SHORT_ESCAPES);
	jsonw_start_object(w);
	put_str(w, "schema", MAPDB_SCHEMA);
	put_str(w, "tree", db->version);
	put_str(w, "abi", kf_abi_name(db->abi));
	put_str(w, "config", db->config);
	put_str(w, "generated_by", "kfootprint " KF_VERSION " map --save-db");
	jsonw_end_object(w);
	jsonw_destroy(&w);
	rc = fclose(m);
	if (!rc && fprintf(out, "%.*s,\n\"syscalls\": [\n", (int)len - 1, buf) < 0)
		rc = -1;
	free(buf);
	return rc;
}

static size_t tree_rows(const struct mapdb *db)
{
	size_t n = 0;

	for (size_t i = 0; i < db->nsys; i++)
		n += db->sys[i]->status != KT_NOT_IN_TREE;
	return n;
}

int mapdb_save(const struct mapdb *db, FILE *out)
{
	const struct kt_section **secs = NULL;
	size_t nsecs = 0, cap = 0;
	json_writer_t *w;

	if (put_head(db, out) < 0)
		return -1;
	/* Rows the tree's table lacks say nothing about the tree: a database lists the tree's own rows only. */
	for (size_t i = 0, left = tree_rows(db); i < db->nsys; i++) {
		if (db->sys[i]->status == KT_NOT_IN_TREE)
			continue;
		w = jsonw_new_style(out, JSONW_COMPACT | JSONW_SHORT_ESCAPES);
		syscall_record(w, db->sys[i], db->compat ? db->compat[i] : NULL, &secs, &nsecs, &cap);
		jsonw_destroy(&w);
		fputs(--left ? ",\n" : "\n", out);
	}
	/* a database without targets (a tree that registers none) is written as before there were any */
	if (db->nreach)
		fputs("],\n\"reach\": [\n", out);
	for (size_t i = 0; i < db->nreach; i++) {
		w = jsonw_new_style(out, JSONW_COMPACT | JSONW_SHORT_ESCAPES);
		syscall_record(w, db->reach[i], NULL, &secs, &nsecs, &cap);
		jsonw_destroy(&w);
		fputs(i + 1 < db->nreach ? ",\n" : "\n", out);
	}
	fputs("],\n\"options\": [\n", out);
	for (size_t i = 0; i < db->nopts; i++) {
		w = jsonw_new_style(out, JSONW_COMPACT | JSONW_SHORT_ESCAPES);
		option_record(w, &db->opts[i]);
		jsonw_destroy(&w);
		fputs(i + 1 < db->nopts ? ",\n" : "\n", out);
	}
	fputs("],\n\"sections\": [\n", out);
	for (size_t i = 0; i < nsecs; i++) {
		w = jsonw_new_style(out, JSONW_COMPACT | JSONW_SHORT_ESCAPES);
		section_record(w, secs[i]);
		jsonw_destroy(&w);
		fputs(i + 1 < nsecs ? ",\n" : "\n", out);
	}
	/* the facts of every symbol the closure of the options can read: a database saved before them has none */
	struct kt_kfacts *own = db->idx ? mapdb_index_kfacts(db) : NULL;
	const struct kt_kfacts *kf = own ? own : db->kfacts;
	if (kt_kfacts_count(kf)) {
		struct kfact_out o = {out, 0, kt_kfacts_count(kf)};

		fputs("],\n\"kconfig\": [\n", out);
		kt_kfacts_each(kf, kfact_record, &o);
	}
	kt_kfacts_free(own);
	fputs("]}\n", out);
	free(secs);
	if (!ferror(out))
		return 0;
	if (!errno)
		errno = EIO;
	return -1;
}
