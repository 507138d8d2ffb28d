// SPDX-License-Identifier: GPL-2.0
/* Joins the syscalls of a footprint with a kernel tree's chains (mapdb) and with the running kernel. */
#include "kmap/kmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/kneeds.h"
#include "util/xalloc.h"

struct kmap_input *kmap_inputs_footprint(const struct footprint *fp, enum kf_abi abi, size_t *n)
{
	struct fp_sysstat **all = fp_sctab_sorted(&fp->syscalls, NULL);
	struct kmap_input *in = xcalloc(fp->syscalls.count + 1, sizeof(*in));

	*n = 0;
	for (uint32_t i = 0; i < fp->syscalls.count; i++) {
		const struct fp_sysstat *s = all[i];
		struct kmap_input *r;

		if (s->abi != abi)
			continue;
		r = &in[(*n)++];
		r->name = s->name;
		r->abi = s->abi;
		r->nr = s->nr;
		r->observed = true;
		r->calls = s->calls;
		r->errors = s->errors;
		r->klass = fp_sysstat_class(s);
		for (uint32_t e = 0; e < s->nerrnos; e++)
			if (s->errnos[e].err == ENOSYS)
				r->enosys = s->errnos[e].count;
	}
	free(all);
	return in;
}

static struct kmap_opt *opt_get(struct fp_kernel_map *m, const struct mapdb_opt *db, const char *name)
{
	size_t *cap = &m->optcap;

	for (size_t i = 0; i < m->nopts; i++)
		if (!strcmp(m->opts[i].name, name))
			return &m->opts[i];
	XGROW(m->opts, *cap, m->nopts + 1);
	m->opts[m->nopts] = (struct kmap_opt){.name = name, .db = db};
	m->opts[m->nopts].running = m->run ? kf_running_config(m->run, name) : NULL;
	return &m->opts[m->nopts++];
}

static void add_name(const char ***v, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], name))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = name;
}

static void row_add_opt(char ***opts, size_t *nopts, size_t *cap, char *s)
{
	for (size_t i = 0; i < *nopts; i++) {
		if (!strcmp((*opts)[i], s)) {
			free(s);
			return;
		}
	}
	XGROW(*opts, *cap, *nopts + 1);
	(*opts)[(*nopts)++] = s;
}

/*
 * Options on the path of a chain, for the row (opts) and the roll-up under the row's name; __ARCH_WANT_* are facts
 * of the architecture, not options.
 */
static void collect_options(struct fp_kernel_map *m, const struct kt_syscall *ks, bool required, const char *name,
			    char ***opts, size_t *nopts)
{
	size_t cap = 0;

	for (size_t c = 0; c < ks->nconds; c++) {
		const struct kt_cond *k = &ks->conds[c];
		const struct mapdb_opt *db;
		struct kmap_opt *o;

		if (k->kind == KT_COND_ARCH_WANT)
			continue;
		if (!k->option) {
			row_add_opt(opts, nopts, &cap, xstrdup(k->expr ? k->expr : "?"));
			continue;
		}
		row_add_opt(opts, nopts, &cap, xasprintf("%s%s", k->negated ? "!" : "", k->option));
		db = mapdb_option(m->db, k->option);
		if (!db)
			continue; /* a database always lists its options; a tree index may not know one */
		o = opt_get(m, db, db->name);
		if (!required)
			add_name(&o->probed_by, &o->nprobed, name);
		else if (k->negated)
			add_name(&o->off_for, &o->noff, name);
		else
			add_name(&o->needed_by, &o->nneeded, name);
	}
}

/* An i386 call on a 64-bit kernel runs the compat entry when the table names one (stat64 -> ia32_stat64). */
static enum kf_run_status running_status(const struct mapdb *db, const struct kf_running *run, const struct kmap_row *r)
{
	const char *compat = kf_abi_get(r->abi)->tree_compat ? mapdb_compat_entry(db, r->name) : NULL;
	enum kf_run_status st;

	if (compat && strcmp(compat, "sys_ni_syscall")) {
		st = kf_running_syscall(run, r->abi, compat);
		if (st != KF_RUN_ABSENT)
			return st;
	}
	if (compat && !strcmp(compat, "sys_ni_syscall"))
		return run->have_kallsyms ? KF_RUN_ABSENT : KF_RUN_UNKNOWN;
	return kf_running_syscall(run, r->abi, r->entry);
}

static int row_cmp(const void *a, const void *b)
{
	const struct kmap_row *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int kopt_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kmap_opt *)a)->name, ((const struct kmap_opt *)b)->name);
}

struct fp_kernel_map *kmap_build(const struct mapdb *db, const struct kf_running *run, const struct kmap_input *in,
				 size_t nin, const char *subject)
{
	struct fp_kernel_map *m = xcalloc(1, sizeof(*m));
	bool observed = false;

	m->abi = db->abi;
	m->db = db;
	m->run = run;
	m->subject = xstrdup(subject);
	/* one line, whatever a workload's argv held: every format puts it in a header line or a title */
	for (char *p = m->subject; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	m->tree_max_nr = mapdb_max_nr(db);
	if (run && run->version >= 0 && db->ver >= 0 && (run->version != db->ver || run->patchlevel != db->patch))
		m->mismatch = xasprintf("the source tree is Linux %s, the running kernel %s: the chains are %d.%d's, "
					"the running values and status %d.%d's",
					db->version, run->release, db->ver, db->patch, run->version, run->patchlevel);
	m->rows = xcalloc(nin + 1, sizeof(*m->rows));
	for (size_t i = 0; i < nin; i++) {
		struct kmap_row *r = &m->rows[m->nrows++];
		const struct kf_syscall *t = kf_syscall_by_name(db->abi, in[i].name);

		r->name = in[i].name;
		r->abi = in[i].abi;
		r->nr = in[i].nr;
		r->observed = in[i].observed;
		r->calls = in[i].calls;
		r->errors = in[i].errors;
		r->enosys = in[i].enosys;
		r->klass = in[i].klass ? in[i].klass : t ? kf_class_name(t->klass) : kf_class_name(KF_CLASS_NONE);
		r->ks = mapdb_syscall(db, r->name);
		r->newer = !r->ks;
		r->entry = t ? t->entry : r->ks ? r->ks->entry : NULL;
		if (!t && !r->ks)
			r->entry = r->name; /* unknown to every table: kallsyms may still know __x64_sys_<name> */
		r->probe = r->observed && r->calls && r->enosys == r->calls;
		r->required = r->ks && r->ks->status == KT_RESOLVED && !r->probe;
		r->running = run ? running_status(db, run, r) : KF_RUN_UNKNOWN;
		observed |= r->observed;
	}
	if (observed)
		qsort(m->rows, m->nrows, sizeof(*m->rows), row_cmp);
	for (size_t i = 0; i < m->nrows; i++)
		m->rows[i].map = m;
	for (size_t i = 0; i < m->nrows; i++)
		if (m->rows[i].ks)
			collect_options(m, m->rows[i].ks, m->rows[i].required, m->rows[i].name, &m->rows[i].opts,
					&m->rows[i].nopts);
	if (m->nopts)
		qsort(m->opts, m->nopts, sizeof(*m->opts), kopt_cmp);
	m->needs = kneeds_build(m);
	return m;
}

void kmap_free(struct fp_kernel_map *m)
{
	if (!m)
		return;
	kneeds_free(m->needs);
	for (size_t i = 0; i < m->nrows; i++) {
		for (size_t k = 0; k < m->rows[i].nopts; k++)
			free(m->rows[i].opts[k]);
		free(m->rows[i].opts);
	}
	for (size_t i = 0; i < m->nopts; i++) {
		free(m->opts[i].needed_by);
		free(m->opts[i].off_for);
		free(m->opts[i].probed_by);
	}
	for (size_t i = 0; i < m->nreach; i++) {
		for (size_t k = 0; k < m->reach[i].nopts; k++)
			free(m->reach[i].opts[k]);
		free(m->reach[i].opts);
		free(m->reach[i].label);
		free(m->reach[i].syscalls);
	}
	free(m->reach);
	free(m->rows);
	free(m->opts);
	free(m->subject);
	free(m->mismatch);
	free(m);
}

const char *kmap_row_where(const struct kmap_row *r, char *buf, size_t len)
{
	if (!r->ks || !r->ks->file)
		return NULL;
	if (r->ks->impl_file)
		snprintf(buf, len, "%s:%d (implemented by %s at %s:%d)", r->ks->file, r->ks->line,
			 r->ks->impl_name ? r->ks->impl_name : "?", r->ks->impl_file, r->ks->impl_line);
	else
		snprintf(buf, len, "%s:%d", r->ks->file, r->ks->line);
	return buf;
}

const char *kmap_row_section(const struct kmap_row *r)
{
	return r->ks && r->ks->nsections ? r->ks->sections[0].section->name : NULL;
}

const char *kmap_row_note(const struct fp_kernel_map *m, const struct kmap_row *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->newer) {
		/* a number inside the tree's range that its table lacks is a gap (x86_64 335..423), not news */
		if (r->nr >= 0 && r->nr <= m->tree_max_nr)
			snprintf(buf, len, "not in the %s table of the source tree (%d.%d)%s", kf_abi_name(r->abi),
				 m->db->ver, m->db->patch, r->probe ? "; probe: every call failed with ENOSYS" : "");
		else
			snprintf(buf, len, "newer than the source tree (%d.%d)%s", m->db->ver, m->db->patch,
				 r->probe ? "; probe: every call failed with ENOSYS" : "");
		return buf;
	}
	if (r->probe)
		snprintf(buf, len, "probe: every call failed with ENOSYS");
	if (r->ks->not_built)
		snprintf(buf + strlen(buf), len - strlen(buf), "%snot built: %s", *buf ? "; " : "", r->ks->not_built);
	else if (r->ks->unresolved || r->ks->status != KT_RESOLVED)
		snprintf(buf + strlen(buf), len - strlen(buf), "%sunresolved: %s", *buf ? "; " : "",
			 r->ks->unresolved ? r->ks->unresolved : "no chain");
	if (r->ks->optional)
		snprintf(buf + strlen(buf), len - strlen(buf), "%soptional (COND_SYSCALL)", *buf ? "; " : "");
	return buf;
}

/* ---- what the calls reached ---- */

struct kmap_reach *kmap_reach_row(const struct fp_kernel_map *m, const char *kind, const char *value)
{
	for (size_t i = 0; i < m->nreach; i++)
		if (!strcmp(m->reach[i].kind, kind) && !strcmp(m->reach[i].value, value))
			return &m->reach[i];
	return NULL;
}

static int reach_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kmap_reach *)a)->label, ((const struct kmap_reach *)b)->label);
}

void kmap_add_reach(struct fp_kernel_map *m, const struct footprint *fp)
{
	struct fp_sysstat **all = fp_sctab_sorted(&fp->syscalls, NULL);
	size_t cap = m->nreach;

	/* most calls first: each row's syscalls come out in that order */
	for (uint32_t i = 0; i < fp->syscalls.count; i++) {
		const struct fp_sysstat *s = all[i];

		for (uint32_t k = 0; s->abi == m->abi && k < s->nreach; k++) {
			const struct fp_reach *fr = &s->reach[k];
			struct kmap_reach *r = kmap_reach_row(m, fr->kind, fr->value);

			if (!r) {
				XGROW(m->reach, cap, m->nreach + 1);
				r = &m->reach[m->nreach++];
				memset(r, 0, sizeof(*r));
				r->kind = fr->kind;
				r->value = fr->value;
				r->label = xasprintf("%s %s", fr->kind, fr->value);
				r->ks = mapdb_reach(m->db, fr->kind, fr->value);
			}
			r->calls += fr->calls;
			r->errors += fr->errors;
			add_name(&r->syscalls, &r->nsyscalls, s->name);
		}
	}
	free(all);
	if (m->nreach)
		qsort(m->reach, m->nreach, sizeof(*m->reach), reach_cmp);
	for (size_t i = 0; i < m->nreach; i++) {
		struct kmap_reach *r = &m->reach[i];

		r->map = m;
		r->required = r->ks && r->ks->status == KT_RESOLVED && r->calls > r->errors;
		if (r->ks)
			collect_options(m, r->ks, r->required, r->label, &r->opts, &r->nopts);
	}
	if (m->nopts)
		qsort(m->opts, m->nopts, sizeof(*m->opts), kopt_cmp);
	kneeds_free(m->needs);
	m->needs = kneeds_build(m);
}

const char *kmap_reach_note(const struct fp_kernel_map *m, const struct kmap_reach *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!r->ks) {
		snprintf(buf, len, "nothing in the source tree (%d.%d) registers it", m->db->ver, m->db->patch);
		return buf;
	}
	if (r->calls && r->calls == r->errors)
		snprintf(buf, len, "every call failed");
	if (r->ks->not_built)
		snprintf(buf + strlen(buf), len - strlen(buf), "%snot built: %s", *buf ? "; " : "", r->ks->not_built);
	else if (r->ks->unresolved)
		snprintf(buf + strlen(buf), len - strlen(buf), "%sunresolved: %s", *buf ? "; " : "", r->ks->unresolved);
	return buf;
}
