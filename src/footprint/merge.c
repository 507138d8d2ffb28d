// SPDX-License-Identifier: GPL-2.0
/* Merged footprints: see merge.h. */
#include "footprint/merge.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "abi/syscalls.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static ssize_t digest_write(void *cookie, const char *buf, size_t n)
{
	sha256_update(cookie, buf, n);
	return (ssize_t)n;
}

void fp_digest(const struct footprint *fp, char *hex)
{
	/* Hashed as it is written, so that a large footprint is not held twice. */
	cookie_io_functions_t io = {.write = digest_write};
	struct sha256 c;
	FILE *f;

	sha256_init(&c);
	f = fopencookie(&c, "w", io);
	if (!f)
		abort(); /* only when out of memory */
	fp__write_json(fp, f);
	fclose(f);
	sha256_final_hex(&c, hex);
}

struct footprint *fp_merge_new(void)
{
	return fp__new();
}

static bool has_digest(const struct footprint *m, const char *digest)
{
	for (uint32_t i = 0; i < m->nsources; i++)
		if (!strcmp(m->sources[i].digest, digest))
			return true;
	return false;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void source_copy(struct fp_source *d, const struct fp_source *s)
{
	*d = *s;
	d->digest = xstrdup(s->digest);
	d->tool = dup_or_null(s->tool);
	d->host_kernel = dup_or_null(s->host_kernel);
	d->host_arch = dup_or_null(s->host_arch);
	d->label = dup_or_null(s->label);
	d->user = dup_or_null(s->user);
	d->backend = dup_or_null(s->backend);
	d->started_at = dup_or_null(s->started_at);
	d->incomplete_why = dup_or_null(s->incomplete_why);
	d->argv = fp_argv_dup(s->argv);
	d->attached_pids = xcalloc(s->nattached + 1, sizeof(*d->attached_pids));
	if (s->nattached)
		memcpy(d->attached_pids, s->attached_pids, s->nattached * sizeof(*s->attached_pids));
}

/* The header of a footprint that is not merged, as a source. */
static void source_of(struct fp_source *d, const struct footprint *fp, const char *digest)
{
	struct fp_source s = {
	    .digest = (char *)digest,
	    .tool = fp->tool,
	    .host_kernel = fp->host_kernel,
	    .host_arch = fp->host_arch,
	    .label = fp->label,
	    .user = fp->user,
	    .backend = fp->backend,
	    .started_at = fp->started_at,
	    .incomplete_why = fp->complete ? NULL : fp->incomplete_why,
	    .argv = fp->argv,
	    .attached_pids = fp->attached_pids,
	    .nattached = fp->nattached,
	    .elapsed_s = fp->elapsed_s,
	    .exit = fp->exit,
	    .complete = fp->complete,
	    .lost_events = fp->lost_events,
	};

	source_copy(d, &s);
}

/* The row of m for a row of another footprint, created when new; its name is m's own. */
static struct fp_sysstat *row_of(struct footprint *m, const struct fp_sysstat *s)
{
	struct fp_sysstat *r = fp_sctab_find(&m->syscalls, s->abi, s->nr);
	const struct kf_syscall *row;

	if (r)
		return r;
	row = kf_syscall_by_nr(s->abi, s->nr);
	return fp_sctab_get(&m->syscalls, s->abi, s->nr, row ? row->name : fp__intern(m, s->name));
}

static void add_share(struct footprint *m, const struct fp_sysstat *s, uint32_t source, uint64_t calls, uint64_t errors,
		      uint64_t time_ns, const struct fp_errno_count *errnos, uint32_t nerrnos)
{
	struct fp_sysstat *r = row_of(m, s);
	struct fp_srcstat *ps;

	/* Whatever the order of the inputs, a row gets the same class: the least of those given. */
	if (s->annot.klass && (!r->annot.klass || strcmp(s->annot.klass, r->annot.klass) < 0))
		r->annot.klass = fp__intern(m, s->annot.klass);
	if (r->nper_source == r->per_source_cap) {
		r->per_source_cap = r->per_source_cap ? 2 * r->per_source_cap : 4;
		r->per_source = xrealloc(r->per_source, r->per_source_cap * sizeof(*r->per_source));
	}
	ps = &r->per_source[r->nper_source++];
	ps->source = source;
	ps->calls = calls;
	ps->errors = errors;
	ps->time_ns = time_ns;
	ps->nerrnos = nerrnos;
	ps->errnos = xcalloc(nerrnos + 1, sizeof(*ps->errnos));
	if (nerrnos)
		memcpy(ps->errnos, errnos, nerrnos * sizeof(*errnos));
}

/* Adds the refinements of row s (of another footprint) to row r of m, interned in m. */
static void add_reach(struct footprint *m, struct fp_sysstat *r, const struct fp_sysstat *s)
{
	for (uint32_t k = 0; k < s->nreach; k++) {
		const struct fp_reach *x = &s->reach[k];

		fp_sysstat_add_reach(r, fp__intern(m, x->kind), fp__intern(m, x->value),
				     x->fd ? fp__intern(m, x->fd) : NULL, x->calls, x->errors);
	}
	r->reach_other += s->reach_other;
}

static void proc_copy(struct footprint *m, const struct fp_proc *p, uint32_t source)
{
	struct fp_proc *q = fp__proc_new(m, p->pid, p->ppid, 0);

	q->source = source;
	q->host_pid = p->host_pid;
	memcpy(q->comm, p->comm, sizeof(q->comm));
	q->exe = dup_or_null(p->exe);
	q->cwd = dup_or_null(p->cwd);
	q->argv = fp_argv_dup(p->argv);
	q->start_s = p->start_s;
	q->end_s = p->end_s;
	q->exit = p->exit;
	q->threads = p->threads;
	q->execs = p->execs;
	q->exec_chain = fp_argv_dup(p->exec_chain);
	q->attached = p->attached;
	q->opens_read = p->opens_read;
	q->opens_write = p->opens_write;
	q->open_errors = p->open_errors;
	for (uint32_t i = 0; i < p->files_cap; i++) {
		const struct fp_file *f = p->files[i];
		struct fp_file *g;

		if (!f)
			continue;
		g = fp__file(q, f->path);
		g->opens = f->opens;
		g->opens_read = f->opens_read;
		g->opens_write = f->opens_write;
		g->errors = f->errors;
	}
	for (uint32_t i = 0; i < p->syscalls.cap; i++) {
		const struct fp_sysstat *s = p->syscalls.slots[i];
		struct fp_sysstat *t;

		if (!s)
			continue;
		t = fp_sctab_get(&q->syscalls, s->abi, s->nr, row_of(m, s)->name);
		t->calls = s->calls;
		t->errors = s->errors;
		t->time_ns = s->time_ns;
		add_reach(m, t, s);
	}
	for (uint32_t i = 0; i < p->seccomp_kills.cap; i++) {
		const struct fp_sysstat *s = p->seccomp_kills.slots[i];

		if (s)
			fp_sctab_get(&q->seccomp_kills, s->abi, s->nr, row_of(m, s)->name)->calls = s->calls;
	}
}

/*
 * Error sources and what calls reached are kept workload-wide, not per source: an input's are summed in when all
 * its sources are new (so merging one again adds nothing); an input holding every source m had replaces m's; one
 * that shares only some cannot be split, and the result says it has none (error_sources, reached false). Merged
 * footprints say they have them when every source had them.
 */
static void add_errsrc(struct footprint *m, const struct footprint *in, bool first)
{
	m->error_sources = first ? in->error_sources : m->error_sources && in->error_sources;
	m->reach = first ? in->reach : m->reach && in->reach;
	for (uint32_t i = 0; i < in->syscalls.cap; i++) {
		const struct fp_sysstat *s = in->syscalls.slots[i];
		struct fp_sysstat *r;

		if (!s || (!s->nerrsrc && !s->nreach && !s->reach_other))
			continue;
		r = row_of(m, s);
		add_reach(m, r, s);
		for (uint32_t k = 0; k < s->nerrsrc; k++) {
			const struct fp_errsrc *e = &s->errsrc[k];
			struct fp_errsrc *to = fp_sysstat_errsrc(r, e->err);

			to->count += e->count;
			to->procs_other += e->procs_other;
			to->paths_other += e->paths_other;
			for (uint32_t j = 0; j < e->nprocs; j++)
				fp_errsrc_add_proc(to, e->procs[j].name, e->procs[j].count);
			for (uint32_t j = 0; j < e->npaths; j++)
				fp_errsrc_add_path(to, e->paths[j].name, e->paths[j].count);
		}
	}
}

uint64_t fp_sat_add(uint64_t a, uint64_t b)
{
	return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

uint32_t fp_merge_add(struct footprint *m, const struct footprint *in)
{
	uint32_t nin = in->nsources ? in->nsources : 1, added = 0;
	uint32_t had = m->nsources;
	bool first = had == 0;
	int64_t *to = xcalloc(nin, sizeof(*to)); /* an input's source -> m's, or -1 when m has it already */

	for (uint32_t j = 0; j < nin; j++) {
		char hex[SHA256_HEX_LEN + 1];
		const char *digest = hex;

		if (in->nsources)
			digest = in->sources[j].digest;
		else
			fp_digest(in, hex);
		to[j] = -1;
		if (has_digest(m, digest))
			continue;
		m->sources = xrealloc(m->sources, (m->nsources + 1) * sizeof(*m->sources));
		if (in->nsources)
			source_copy(&m->sources[m->nsources], &in->sources[j]);
		else
			source_of(&m->sources[m->nsources], in, digest);
		to[j] = m->nsources++;
		added++;
	}
	for (uint32_t i = 0; added && i < in->syscalls.cap; i++) {
		const struct fp_sysstat *s = in->syscalls.slots[i];

		if (!s)
			continue;
		if (!in->nsources) {
			if (to[0] >= 0)
				add_share(m, s, (uint32_t)to[0], s->calls, s->errors, s->time_ns, s->errnos,
					  s->nerrnos);
			continue;
		}
		for (uint32_t k = 0; k < s->nper_source; k++) {
			const struct fp_srcstat *ps = &s->per_source[k];

			if (ps->source < nin && to[ps->source] >= 0)
				add_share(m, s, (uint32_t)to[ps->source], ps->calls, ps->errors, ps->time_ns,
					  ps->errnos, ps->nerrnos);
		}
	}
	if (added == nin) {
		add_errsrc(m, in, first);
	} else if (added && nin - added == had) {
		for (uint32_t i = 0; i < m->syscalls.cap; i++) {
			if (m->syscalls.slots[i]) {
				fp_sysstat_errsrc_release(m->syscalls.slots[i]);
				fp_sysstat_reach_release(m->syscalls.slots[i]);
			}
		}
		add_errsrc(m, in, true);
	} else if (added) {
		m->error_sources = false;
		m->reach = false;
	}
	/* the other kinds of observation, as the error sources above */
	enum fp_merge_how how = added == nin		      ? FP_MERGE_ADD
				: added && nin - added == had ? FP_MERGE_REPLACE
				: added			      ? FP_MERGE_PARTIAL
							      : FP_MERGE_NONE;
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		(*k)->merge(m, in, had, how);
	for (size_t i = 0; added && i < in->nprocs; i++) {
		uint32_t j = in->nsources ? in->procs[i]->source : 0;

		if (j < nin && to[j] >= 0)
			proc_copy(m, in->procs[i], (uint32_t)to[j]);
	}
	free(to);
	return added;
}

/* --- the order of sources and the totals ---------------------------------------------------------- */

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static const struct fp_source *sort_sources; /* qsort has no context argument */

static int cmp_source(const void *a, const void *b)
{
	const struct fp_source *x = &sort_sources[*(const uint32_t *)a], *y = &sort_sources[*(const uint32_t *)b];
	int c = cmp_str(x->started_at, y->started_at);

	if (!c)
		c = cmp_str(x->label, y->label);
	return c ? c : strcmp(x->digest, y->digest);
}

static int cmp_share(const void *a, const void *b)
{
	uint32_t x = ((const struct fp_srcstat *)a)->source, y = ((const struct fp_srcstat *)b)->source;

	return x < y ? -1 : x > y;
}

struct proc_key {
	uint32_t source;
	size_t index;
	struct fp_proc *p;
};

static int cmp_proc(const void *a, const void *b)
{
	const struct proc_key *x = a, *y = b;

	if (x->source != y->source)
		return x->source < y->source ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The value every source has, or NULL when they differ. */
static char *common(const struct footprint *m, size_t offset)
{
	const char *v = NULL;

	for (uint32_t i = 0; i < m->nsources; i++) {
		const char *s = *(char *const *)((const char *)&m->sources[i] + offset);

		if (i && cmp_str(s, v))
			return NULL;
		v = s;
	}
	return dup_or_null(v);
}

static void finish_rows(struct footprint *m, const uint32_t *rank)
{
	for (uint32_t i = 0; i < m->syscalls.cap; i++) {
		struct fp_sysstat *r = m->syscalls.slots[i];

		if (!r)
			continue;
		for (uint32_t k = 0; k < r->nper_source; k++)
			r->per_source[k].source = rank[r->per_source[k].source];
		qsort(r->per_source, r->nper_source, sizeof(*r->per_source), cmp_share);
		r->calls = r->errors = r->time_ns = 0;
		r->nerrnos = 0;
		for (uint32_t k = 0; k < r->nper_source; k++) {
			const struct fp_srcstat *ps = &r->per_source[k];

			r->calls = fp_sat_add(r->calls, ps->calls);
			r->errors = fp_sat_add(r->errors, ps->errors);
			r->time_ns = fp_sat_add(r->time_ns, ps->time_ns);
			for (uint32_t e = 0; e < ps->nerrnos; e++)
				fp_sysstat_add_errno(r, ps->errnos[e].err, ps->errnos[e].count);
		}
	}
}

static void finish_procs(struct footprint *m, const uint32_t *rank)
{
	struct proc_key *keys = xcalloc(m->nprocs + 1, sizeof(*keys));

	for (size_t i = 0; i < m->nprocs; i++)
		keys[i] = (struct proc_key){rank[m->procs[i]->source], i, m->procs[i]};
	qsort(keys, m->nprocs, sizeof(*keys), cmp_proc);
	for (size_t i = 0; i < m->nprocs; i++) {
		m->procs[i] = keys[i].p;
		m->procs[i]->source = keys[i].source;
	}
	free(keys);
}

static void finish_header(struct footprint *m, const char *label)
{
	struct strbuf why = STRBUF_INIT;

	free(m->label);
	m->label = dup_or_null(label);
	m->host_kernel = common(m, offsetof(struct fp_source, host_kernel));
	m->host_arch = common(m, offsetof(struct fp_source, host_arch));
	m->user = common(m, offsetof(struct fp_source, user));
	m->backend = common(m, offsetof(struct fp_source, backend));
	m->complete = true;
	for (uint32_t i = 0; i < m->nsources; i++) {
		const struct fp_source *s = &m->sources[i];

		if (s->started_at && (!m->started_at || strcmp(s->started_at, m->started_at) < 0)) {
			free(m->started_at);
			m->started_at = xstrdup(s->started_at);
		}
		m->elapsed_s += s->elapsed_s;
		m->lost_events = fp_sat_add(m->lost_events, s->lost_events);
		if (s->complete)
			continue;
		m->complete = false;
		strbuf_addf(&why, "%ssource %u%s%s%s: %s", why.len ? "; " : "", i + 1, s->label ? " (" : "",
			    s->label ? s->label : "", s->label ? ")" : "",
			    s->incomplete_why ? s->incomplete_why : "unknown");
	}
	free(m->incomplete_why);
	m->incomplete_why = m->complete ? NULL : strbuf_detach(&why);
	strbuf_release(&why);
}

void fp_merge_finish(struct footprint *m, const char *label)
{
	uint32_t *order = xcalloc(m->nsources + 1, sizeof(*order)), *rank = xcalloc(m->nsources + 1, sizeof(*rank));
	struct fp_source *sorted = xcalloc(m->nsources + 1, sizeof(*sorted));

	for (uint32_t i = 0; i < m->nsources; i++)
		order[i] = i;
	sort_sources = m->sources;
	qsort(order, m->nsources, sizeof(*order), cmp_source);
	sort_sources = NULL;
	for (uint32_t i = 0; i < m->nsources; i++) {
		rank[order[i]] = i;
		sorted[i] = m->sources[order[i]];
	}
	free(m->sources);
	m->sources = sorted;
	finish_rows(m, rank);
	finish_procs(m, rank);
	finish_header(m, label);
	free(order);
	free(rank);
}
