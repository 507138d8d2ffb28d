// SPDX-License-Identifier: GPL-2.0
// Loading a saved map database (mapdb_save.c's format) with the pull reader: mapdb_parse().
#include "kmap/mapdb.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/mapdb_int.h"
#include "kmap/mapdb_load.h"
#include "ktree/ktree.h"
#include "kernel/running.h"
#include "util/arena.h"
#include "util/json_reader.h"
#include "util/json_writer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- loading ----------------------------------------------------------------------------------------------- */

/*
 * A saved database (mapdb_save.c's format) is loaded with the pull reader (util/json_reader.h), in one pass
 * and without a tree of the document: each record is read member by member through its table of fields, its
 * strings copied into the database's arena with the writer's byte rule undone, and the database is checked
 * once the whole document is read, in the order its messages have always come (a syscall names its sections
 * by their position in "sections", which the file holds last). A new field is a row of its record's table.
 *
 * A member of another type than its field's reads as absent, as a missing one does, and a member the tables do
 * not name is read past: what a database holds beyond this version's fields does not stop it loading.
 */

/* A saved database nests 6 deep (a condition's symbols); deeper is not one. json-c refused past 32 too. */
#define MAX_DEPTH 32

enum ftype { F_STR, F_INT, F_BOOL, F_STRV, F_READ };

/* One member of a record: where its value goes in the record being read (a struct of the table's type). */
struct field {
	const char *key;
	enum ftype type;
	size_t off;	  /* of the char *, int, bool or char ** */
	size_t count_off; /* F_STRV: of its size_t count */
	/* F_READ: reads the value ev opened, all of it; -1 on a syntax error only */
	int (*read)(struct load *L, enum jr_event ev, void *rec);
};

#define F_STR(k, T, m)                            \
	{                                         \
		k, F_STR, offsetof(T, m), 0, NULL \
	}
#define F_INT(k, T, m)                            \
	{                                         \
		k, F_INT, offsetof(T, m), 0, NULL \
	}
#define F_BOOL(k, T, m)                            \
	{                                          \
		k, F_BOOL, offsetof(T, m), 0, NULL \
	}
#define F_STRV(k, T, m, n)                                      \
	{                                                       \
		k, F_STRV, offsetof(T, m), offsetof(T, n), NULL \
	}
#define F_READ(k, fn)               \
	{                           \
		k, F_READ, 0, 0, fn \
	}
#define TABLE(t) t, sizeof(t) / sizeof(t[0])

struct cond_rec {
	struct kt_cond c;
	char *kind;
};
static int read_object(struct load *L, const struct field *f, size_t nf, void *rec, enum jr_event ev);

/* The string just read, the writer's byte rule undone (json_writer.h); a NUL in it ends it. */
static char *str(struct load *L)
{
	char *s = arena_strndup(L->mem, L->jr.text.buf, L->jr.text.len);

	if (strchr(s, '\\'))
		jsonw_unescape_in_place(s);
	return s;
}

/* The number just read, as an int: fractions cut, the range clamped. */
static int num(const struct load *L)
{
	const char *t = L->jr.text.buf;
	double d;
	long long v;

	if (L->jr.is_int) {
		v = strtoll(t, NULL, 10); /* ERANGE gives the nearest end */
		return v < INT_MIN ? INT_MIN : v > INT_MAX ? INT_MAX : (int)v;
	}
	d = strtod(t, NULL);
	return d <= INT_MIN ? INT_MIN : d >= INT_MAX ? INT_MAX : (int)d;
}

/* An array of strings into the arena, NULL-terminated; other elements are left out. */
static int read_strv(struct load *L, enum jr_event ev, char ***out, size_t *count)
{
	size_t n = 0;

	*out = NULL;
	*count = 0;
	if (ev != JR_ARRAY)
		return jr_skip(&L->jr, ev);
	while ((ev = jr_next(&L->jr)) != JR_ARRAY_END) {
		if (ev == JR_STRING) {
			XGROW(L->strv, L->strv_cap, n + 1);
			L->strv[n++] = str(L);
		} else if (jr_skip(&L->jr, ev) < 0) {
			return -1;
		}
	}
	XGROW(L->strv, L->strv_cap, n + 1);
	L->strv[n] = NULL;
	*out = arena_memdup(L->mem, L->strv, (n + 1) * sizeof(**out));
	*count = n;
	return 0;
}

static int read_field(struct load *L, const struct field *f, enum jr_event ev, void *rec)
{
	char *at = (char *)rec + f->off, *s = NULL;
	int i = 0;
	bool b = ev == JR_TRUE;

	switch (f->type) {
	case F_STR:
		if (ev == JR_STRING)
			s = str(L);
		memcpy(at, &s, sizeof(s)); /* the field may be a const char * */
		break;
	case F_INT:
		if (ev == JR_NUMBER)
			i = num(L);
		memcpy(at, &i, sizeof(i));
		break;
	case F_BOOL: memcpy(at, &b, sizeof(b)); break;
	case F_STRV: return read_strv(L, ev, (char ***)(void *)at, (size_t *)(void *)((char *)rec + f->count_off));
	case F_READ: return f->read(L, ev, rec);
	}
	return jr_skip(&L->jr, ev);
}

/*
 * What a record's judge says after each member it has read (mapdb_parse_for()): ask again after the next, read the
 * rest, stop here with the record as it is, or leave the record out.
 */
typedef enum verdict (*judge_fn)(struct load *L, const char *key, const void *rec);

/*
 * A record's members through its table (rec is zeroed by the caller); a value that is no object reads as {}.
 * judge (NULL: none) may cut the record short: 1 when it left the record out, else 0, or -1.
 */
static int read_judged(struct load *L, const struct field *f, size_t nf, void *rec, enum jr_event ev, judge_fn judge)
{
	if (ev != JR_OBJECT)
		return jr_skip(&L->jr, ev);
	while ((ev = jr_next(&L->jr)) == JR_KEY) {
		const struct field *hit = NULL;

		for (size_t i = 0; i < nf && !hit; i++)
			if (!strcmp(f[i].key, L->jr.text.buf))
				hit = &f[i];
		ev = jr_next(&L->jr);
		if (ev == JR_ERROR)
			return -1;
		if (hit ? read_field(L, hit, ev, rec) < 0 : jr_skip(&L->jr, ev) < 0)
			return -1;
		if (L->stopped)
			return 0;
		enum verdict v = judge && hit ? judge(L, hit->key, rec) : V_ASK;
		if (v == V_ALL)
			judge = NULL;
		else if (v == V_CLOSE || v == V_DROP)
			return jr_close_unchecked(&L->jr) < 0 ? -1 : v == V_DROP;
	}
	return ev == JR_OBJECT_END ? 0 : -1;
}

static int read_object(struct load *L, const struct field *f, size_t nf, void *rec, enum jr_event ev)
{
	return read_judged(L, f, nf, rec, ev, NULL);
}

/* ---- the records' tables ---------------------------------------------------------------------------------- */

static const struct field cond_fields[] = {
    F_STR("kind", struct cond_rec, kind),	   F_STR("option", struct cond_rec, c.option),
    F_BOOL("negated", struct cond_rec, c.negated), F_STR("expr", struct cond_rec, c.expr),
    F_STR("where", struct cond_rec, c.where),	   F_STRV("symbols", struct cond_rec, c.symbols, c.nsymbols),
    F_BOOL("holds", struct cond_rec, c.holds),
};

static int read_conds(struct load *L, enum jr_event ev, void *rec)
{
	struct sys_rec *r = rec;
	size_t n = 0;

	r->s.conds = NULL;
	r->s.nconds = 0;
	r->x.bad_kind = false;
	if (ev != JR_ARRAY)
		return jr_skip(&L->jr, ev);
	while ((ev = jr_next(&L->jr)) != JR_ARRAY_END) {
		struct cond_rec c = {0};
		int k;

		if (ev == JR_ERROR || read_object(L, TABLE(cond_fields), &c, ev) < 0)
			return -1;
		k = kt_cond_kind_parse(c.kind);
		r->x.bad_kind |= k < 0;
		c.c.kind = k < 0 ? 0 : (enum kt_cond_kind)k;
		if (c.c.option) { /* a condition on one option names it alone */
			c.c.symbols = arena_alloc(L->mem, 2 * sizeof(char *));
			c.c.symbols[0] = c.c.option;
			c.c.symbols[1] = NULL;
			c.c.nsymbols = 1;
		}
		XGROW(L->conds, L->conds_cap, n + 1);
		L->conds[n++] = c.c;
	}
	r->s.conds = arena_memdup(L->mem, L->conds, n * sizeof(*L->conds));
	r->s.nconds = n;
	return 0;
}

/* "sections": [[position, depth], ...]; what is not a number in a pair reads as 0. */
static int read_sec_refs(struct load *L, enum jr_event ev, void *rec)
{
	struct sys_rec *r = rec;
	size_t n = 0;

	r->s.sections = NULL;
	r->s.nsections = 0;
	r->x.sec_ids = NULL;
	if (ev != JR_ARRAY)
		return jr_skip(&L->jr, ev);
	while ((ev = jr_next(&L->jr)) != JR_ARRAY_END) {
		int pair[2] = {0, 0};

		if (ev == JR_ERROR)
			return -1;
		if (ev != JR_ARRAY && jr_skip(&L->jr, ev) < 0)
			return -1;
		for (size_t k = 0; ev == JR_ARRAY; k++) {
			enum jr_event e = jr_next(&L->jr);

			if (e == JR_ARRAY_END)
				break;
			if (e == JR_NUMBER && k < 2)
				pair[k] = num(L);
			else if (jr_skip(&L->jr, e) < 0)
				return -1;
		}
		XGROW(L->matches, L->matches_cap, n + 1);
		XGROW(L->ids, L->ids_cap, n + 1);
		L->matches[n].section = NULL; /* once "sections" is read */
		L->matches[n].depth = pair[1];
		L->ids[n++] = pair[0];
	}
	r->s.sections = arena_memdup(L->mem, L->matches, n * sizeof(*L->matches));
	r->x.sec_ids = arena_memdup(L->mem, L->ids, n * sizeof(*L->ids));
	r->s.nsections = n;
	return 0;
}

static const struct field sys_fields[] = {
    F_STR("name", struct sys_rec, s.name),
    F_STR("entry", struct sys_rec, s.entry),
    F_STR("compat", struct sys_rec, x.compat),
    F_STR("def", struct sys_rec, s.def_name),
    F_STR("macro", struct sys_rec, s.macro),
    F_STR("status", struct sys_rec, x.status),
    F_STR("file", struct sys_rec, s.file),
    F_INT("line", struct sys_rec, s.line),
    F_STR("impl", struct sys_rec, s.impl_name),
    F_STR("impl_file", struct sys_rec, s.impl_file),
    F_INT("impl_line", struct sys_rec, s.impl_line),
    F_STR("object", struct sys_rec, s.object),
    F_STR("makefile", struct sys_rec, s.makefile),
    F_INT("makefile_line", struct sys_rec, s.makefile_line),
    F_STR("included_by", struct sys_rec, s.included_by),
    F_READ("conds", read_conds),
    F_STRV("options", struct sys_rec, s.options, s.noptions),
    F_READ("sections", read_sec_refs),
    F_BOOL("optional", struct sys_rec, s.optional),
    F_STRV("alternatives", struct sys_rec, s.alternatives, s.nalternatives),
    F_BOOL("complete", struct sys_rec, s.complete),
    F_STR("unresolved", struct sys_rec, s.unresolved),
    F_STR("not_built", struct sys_rec, s.not_built),
};

/* "syscalls" or "reach": a repeated member replaces the records before it, as a later key does. */
static int read_sys_array(struct load *L, enum jr_event ev, struct sys_vec *v)
{
	judge_fn judge = !L->want ? NULL : v == &L->sys ? mapdb_judge_sys : mapdb_judge_reach;

	v->n = 0;
	if (ev != JR_ARRAY)
		return jr_skip(&L->jr, ev);
	while ((ev = jr_next(&L->jr)) != JR_ARRAY_END) {
		struct sys_rec r = {0};
		int rc;

		if (ev == JR_ERROR || (rc = read_judged(L, TABLE(sys_fields), &r, ev, judge)) < 0)
			return -1;
		if (rc)
			continue;
		if (judge)
			mapdb_need_of(L, &r);
		if (v->n == v->cap) {
			size_t cap = v->cap;

			XGROW(v->v, cap, v->n + 1);
			XGROW(v->x, v->cap, v->n + 1);
		}
		v->v[v->n] = r.s;
		v->x[v->n++] = r.x;
	}
	return 0;
}

static int read_syscalls(struct load *L, enum jr_event ev, void *rec)
{
	return read_sys_array(L, ev, &L->sys);
}

static int read_reach(struct load *L, enum jr_event ev, void *rec)
{
	return read_sys_array(L, ev, &L->reach);
}

static const struct field opt_fields[] = {
    F_STR("name", struct opt_rec, k.name),
    F_STR("value", struct opt_rec, m.value),
    F_BOOL("kconfig", struct opt_rec, kconfig),
    F_STR("file", struct opt_rec, k.file),
    F_INT("line", struct opt_rec, k.line),
    F_STR("type", struct opt_rec, k.type),
    F_STR("prompt", struct opt_rec, k.prompt),
    F_STR("prompt_if", struct opt_rec, k.prompt_if),
    F_STR("depends", struct opt_rec, k.depends),
    F_STR("defaults", struct opt_rec, k.defaults),
    F_STRV("selected_by", struct opt_rec, k.selected_by, k.nselected_by),
    F_STRV("implied_by", struct opt_rec, k.implied_by, k.nimplied_by),
    F_STR("help", struct opt_rec, k.help),
    F_INT("ndefinitions", struct opt_rec, k.ndefinitions),
};

static int read_options(struct load *L, enum jr_event ev, void *rec)
{
	L->nopts = 0;
	if (ev != JR_ARRAY)
		return jr_skip(&L->jr, ev);
	while ((ev = jr_next(&L->jr)) != JR_ARRAY_END) {
		struct opt_rec o = {0};
		int rc;

		if (ev == JR_ERROR ||
		    (rc = read_judged(L, TABLE(opt_fields), &o, ev, L->want ? mapdb_judge_opt : NULL)) < 0)
			return -1;
		if (rc)
			continue;
		o.m.name = o.k.name;
		if (!o.kconfig) /* only a Kconfig entry has the rest, and it keeps its name there (mapdb_parse) */
			o.k = (struct kt_option){0};
		XGROW(L->opts, L->opts_cap, L->nopts + 1);
		XGROW(L->kopts, L->kopts_cap, L->nopts + 1);
		L->opts[L->nopts] = o.m;
		L->kopts[L->nopts++] = o.k;
	}
	return 0;
}

static const struct field section_fields[] = {
    F_STR("name", struct kt_section, name),
    F_STR("status", struct kt_section, status),
    F_STRV("maintainers", struct kt_section, maintainers, nmaintainers),
    F_STRV("reviewers", struct kt_section, reviewers, nreviewers),
    F_STRV("lists", struct kt_section, lists, nlists),
};

static int read_sections(struct load *L, enum jr_event ev, void *rec)
{
	L->nsecs = 0;
	if (ev != JR_ARRAY)
		return jr_skip(&L->jr, ev);
	while ((ev = jr_next(&L->jr)) != JR_ARRAY_END) {
		struct kt_section s = {0};

		if (ev == JR_ERROR ||
		    read_judged(L, TABLE(section_fields), &s, ev, L->want ? mapdb_judge_sec : NULL) < 0)
			return -1;
		XGROW(L->secs, L->secs_cap, L->nsecs + 1);
		L->secs[L->nsecs++] = s;
	}
	return 0;
}

/* "kconfig": the Kconfig facts of the closure (ktree.h struct kt_kfact), strings in the arena until build() copies
 * them. */
struct kfact_rec {
	struct kt_kfact k;
	bool prompt;
};

static const struct field kfact_fields[] = {
    F_STR("name", struct kfact_rec, k.name),
    F_STR("type", struct kfact_rec, k.type),
    F_BOOL("prompt", struct kfact_rec, prompt),
    F_STR("prompt_if", struct kfact_rec, k.prompt_if),
    F_STR("depends", struct kfact_rec, k.depends),
    F_STRV("defaults", struct kfact_rec, k.defaults, k.ndefaults),
    F_STRV("selected_by", struct kfact_rec, k.selected_by, k.nselected_by),
    F_STR("choice", struct kfact_rec, k.choice),
    F_STRV("members", struct kfact_rec, k.members, k.nmembers),
};

static int read_kconfig(struct load *L, enum jr_event ev, void *rec)
{
	L->nkfacts = 0;
	if (L->want) {
		/* the file's last member, and half of it: the reduced load ends here, without reading it past */
		L->stopped = true;
		return 0;
	}
	if (ev != JR_ARRAY)
		return jr_skip(&L->jr, ev);
	while ((ev = jr_next(&L->jr)) != JR_ARRAY_END) {
		struct kfact_rec f = {0};

		if (ev == JR_ERROR || read_object(L, TABLE(kfact_fields), &f, ev) < 0)
			return -1;
		f.k.prompt = f.prompt ? "" : NULL; /* the closure asks only whether there is one */
		XGROW(L->kfacts, L->kfacts_cap, L->nkfacts + 1);
		L->kfacts[L->nkfacts++] = f.k;
	}
	L->have_kfacts = true;
	return 0;
}

static const struct field head_fields[] = {
    F_STR("schema", struct head, schema), F_STR("abi", struct head, abi),    F_STR("tree", struct head, tree),
    F_STR("config", struct head, config), F_READ("syscalls", read_syscalls), F_READ("reach", read_reach),
    F_READ("options", read_options),	  F_READ("sections", read_sections), F_READ("kconfig", read_kconfig),
};

/* ---- the checks, once the document is read ------------------------------------------------------------------ */

/* A record's own problem, else its first section out of range; its sections pointed at theirs. NULL: none. */
static char *check_sys(struct mapdb *db, struct kt_syscall *s, const struct sys_extra *x)
{
	if (!s->name || kt_status_parse(x->status) < 0)
		return xasprintf("syscall record without a name or a known status");
	s->status = (enum kt_status)kt_status_parse(x->status);
	if (x->bad_kind)
		return xasprintf("syscall '%s': unknown condition kind", s->name);
	for (size_t i = 0; i < s->nsections; i++) {
		int id = x->sec_ids[i];

		if (id < 0 || (size_t)id >= db->nsecs)
			return xasprintf("syscall '%s': section %d out of range", s->name, id);
		s->sections[i].section = &db->own_secs[id];
	}
	return NULL;
}

/* The loaded records handed to the database; *err set on the first problem, in the order of the old loader. */
static int build(struct load *L, struct mapdb *db, const char *origin, char **err)
{
	const struct head *h = &L->head;

	if (!h->schema || strcmp(h->schema, MAPDB_SCHEMA)) {
		*err = xasprintf("schema is '%s', expected '%s'", h->schema ? h->schema : "", MAPDB_SCHEMA);
		return -1;
	}
	if (!h->abi || kf_abi_parse(h->abi, &db->abi)) {
		*err = xasprintf("unknown abi");
		return -1;
	}
	mapdb_set_version(db, h->tree);
	db->origin = xstrdup(origin);
	db->config = xstrdup(h->config ? h->config : "unknown");
	/* the vectors become the database's as they are (own_* are freed with it) */
	db->own_secs = L->secs;
	db->nsecs = L->nsecs;
	L->secs = NULL;
	for (size_t i = 0; i < db->nsecs; i++) {
		if (!db->own_secs[i].name) {
			*err = xasprintf("section %zu without a name", i);
			return -1;
		}
	}
	db->own_sys = L->sys.v;
	db->nsys = L->sys.n;
	L->sys.v = NULL;
	db->sys = xcalloc(db->nsys + 1, sizeof(*db->sys));
	db->compat = xcalloc(db->nsys + 1, sizeof(*db->compat));
	for (size_t i = 0; i < db->nsys; i++) {
		db->sys[i] = &db->own_sys[i];
		if (L->sys.x[i].compat)
			db->compat[i] = xstrdup(L->sys.x[i].compat);
		if ((*err = check_sys(db, &db->own_sys[i], &L->sys.x[i])))
			return -1;
	}
	if (!db->nsys && !L->nothers) {
		*err = xasprintf("no syscalls");
		return -1;
	}
	db->others_max_nr = -1;
	for (size_t i = 0; i < L->nothers; i++) {
		const struct kf_syscall *t = kf_syscall_by_name(db->abi, L->others[i]);

		if (t && t->nr > db->others_max_nr)
			db->others_max_nr = t->nr;
	}
	db->own_reach = L->reach.v;
	db->nreach = L->reach.n;
	L->reach.v = NULL;
	db->reach = xcalloc(db->nreach + 1, sizeof(*db->reach));
	for (size_t i = 0; i < db->nreach; i++) {
		char *why;

		db->reach[i] = &db->own_reach[i];
		if ((why = check_sys(db, &db->own_reach[i], &L->reach.x[i]))) {
			*err = xasprintf("reach %s", why);
			free(why);
			return -1;
		}
	}
	db->opts = L->opts;
	db->own_opts = L->kopts;
	db->nopts = L->nopts;
	L->opts = NULL;
	L->kopts = NULL;
	for (size_t i = 0; i < db->nopts; i++) {
		if (!db->opts[i].name) {
			*err = xasprintf("option %zu without a name", i);
			return -1;
		}
		if (db->own_opts[i].name)
			db->opts[i].opt = &db->own_opts[i];
	}
	if (db->nopts)
		qsort(db->opts, db->nopts, sizeof(*db->opts), mapdb_opt_cmp);
	if (L->have_kfacts) {
		db->kfacts = kt_kfacts_new(kf_abi_get(db->abi)->tree_arch);
		for (size_t i = 0; i < L->nkfacts; i++) {
			if (!L->kfacts[i].name) {
				*err = xasprintf("kconfig record %zu without a name", i);
				return -1;
			}
			kt_kfacts_add(db->kfacts, &L->kfacts[i]);
		}
	}
	return 0;
}

static struct mapdb *parse(const char *text, const char *origin, const struct mapdb_want *want, char **err)
{
	struct mapdb *db = xcalloc(1, sizeof(*db));
	struct load L = {.mem = &db->mem};
	enum jr_event ev;
	int rc;

	*err = NULL;
	if (want)
		mapdb_want_init(&L, want);
	jr_init_mem(&L.jr, text, strlen(text), MAX_DEPTH);
	ev = jr_next(&L.jr);
	rc = ev == JR_ERROR || read_object(&L, TABLE(head_fields), &L.head, ev) < 0 ||
		     (!L.stopped && jr_next(&L.jr) != JR_EOF)
		 ? -1
		 : 0;
	if (rc < 0)
		*err = xstrdup(jr_error(&L.jr) ? jr_error(&L.jr) : "not JSON");
	else
		rc = build(&L, db, origin, err);
	jr_release(&L.jr);
	free(L.sys.v);
	free(L.sys.x);
	free(L.reach.v);
	free(L.reach.x);
	free(L.opts);
	free(L.kopts);
	free(L.secs);
	free(L.strv);
	free(L.conds);
	free(L.matches);
	free(L.ids);
	free(L.kfacts);
	mapdb_want_release(&L);
	if (rc < 0) {
		mapdb_free(db);
		return NULL;
	}
	return db;
}

struct mapdb *mapdb_parse(const char *text, const char *origin, char **err)
{
	return parse(text, origin, NULL, err);
}

struct mapdb *mapdb_parse_for(const char *text, const char *origin, const struct mapdb_want *want, char **err)
{
	return parse(text, origin, want, err);
}
