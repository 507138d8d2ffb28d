// SPDX-License-Identifier: GPL-2.0
/*
 * Reads schema kfootprint/1 back into a struct footprint. The input is untrusted (a file a user hands to
 * `kfootprint report`): every field used is type- and range-checked, unknown fields are skipped unread, and
 * one problem is reported as "kfootprint: 'FILE': where: what" before NULL is returned, with everything freed.
 *
 * The document is streamed (util/json_reader.h): memory is the footprint being built plus one token, not a
 * tree of the whole file (json-c took ten times the file). So that the message is the one a whole-document
 * parser would give, a problem found on the way is kept while the rest is still read: a syntax error anywhere
 * comes first, then a missing or foreign schema, then the first problem with the content.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "abi/syscalls.h"
#include "footprint/footprint.h"
#include "footprint/footprint_json.h"
#include "footprint/footprint_json_read.h"
#include "util/error.h"
#include "util/input.h"
#include "util/json_reader.h"
#include "util/json_writer.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Our documents nest 5 deep: anything much deeper is not a footprint. */
#define LOAD_MAX_DEPTH 16

struct errnos {
	struct fp_errno_count *v;
	size_t n, cap;
};

/* One member of an errnos object: name -> count, each name once. */
static int load_errno(struct loader *ld, const char *ctx, void *arg)
{
	struct errnos *es = arg;
	const struct strbuf *t = &ld->jr.text;
	int err = ld_errno_of_text(ld);
	char name[64];
	uint64_t count = 0;
	enum jr_event ev;

	snprintf(name, sizeof(name), "%s", t->buf);
	if (err <= 0)
		return ld_fail(ld, ctx, NULL, "unknown errno '%.64s'", t->buf);
	for (size_t i = 0; i < es->n; i++)
		if (es->v[i].err == err)
			return ld_fail(ld, ctx, name, "given twice");
	ev = jr_next(&ld->jr);
	if (ev == JR_ERROR)
		return -1;
	if (ev == JR_NULL)
		return ld_fail(ld, ctx, name, "must not be null");
	if (ev != JR_NUMBER || !ld->jr.is_int)
		return ld_fail(ld, ctx, name, "expected an unsigned integer, got %s", ld_type_name(ld, ev));
	if (ld_to_count(ld, ctx, name, COUNT_MAX, &count) < 0)
		return -1;
	XGROW(es->v, es->cap, es->n + 1);
	es->v[es->n++] = (struct fp_errno_count){err, count};
	return 0;
}

static void shares_free(struct fp_srcstat *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(v[i].errnos);
	free(v);
}

struct shares {
	struct fp_srcstat *v;
	uint32_t n;
	size_t cap;
};

/* One source's share of a merged footprint's row (footprint/merge.h), by source index; checked at the end. */
static int load_share(struct loader *ld, const char *ctx, size_t i, void *arg)
{
	static const char *const names[] = {"source", "calls", "errors", "time_s", "errnos"};
	enum { SOURCE, CALLS, ERRORS, TIME, ERRNOS };
	struct shares *sh = arg;
	struct fp_srcstat *ps;
	struct errnos es = {0};
	uint32_t seen = 0;
	int k, rc, source = 0;

	XGROW(sh->v, sh->cap, (size_t)sh->n + 1);
	ps = &sh->v[sh->n];
	memset(ps, 0, sizeof(*ps));
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case SOURCE: rc = ld_get_int(ld, ctx, "source", 0, INT_MAX, &source); break;
		case CALLS: rc = ld_get_count(ld, ctx, "calls", COUNT_MAX, &ps->calls); break;
		case ERRORS: rc = ld_get_count(ld, ctx, "errors", COUNT_MAX, &ps->errors); break;
		case TIME: rc = ld_get_ns(ld, ctx, "time_s", &ps->time_ns); break;
		case ERRNOS: rc = ld_keyed(ld, ctx, "errnos", load_errno, &es); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			break;
	}
	ps->errnos = es.v;
	ps->nerrnos = (uint32_t)es.n;
	ps->source = (uint32_t)source;
	sh->n++; /* freed with the others from here on */
	if (rc < 0)
		return -1;
	if (!(seen & 1u << SOURCE) || !(seen & 1u << CALLS))
		return ld_fail(ld, ctx, seen & 1u << SOURCE ? "calls" : "source", "missing");
	if (ps->errors > ps->calls)
		return ld_fail(ld, ctx, "errors", "%llu is out of range", (unsigned long long)ps->errors);
	if (i && ps->source <= ps[-1].source)
		return ld_fail(ld, ctx, "source", "out of order or listed twice");
	return 0;
}

/* An error source's processes ("comm") or paths ("path"), within the model's bound. */
struct errsrc_items {
	const char *list, *key;
	uint32_t max;
	bool paths;
	struct fp_errsrc *e;
};

/* One of an error source's processes or paths: {"comm"|"path": name, "count": n}. */
static int load_errsrc_item(struct loader *ld, const char *ctx, size_t i, void *arg)
{
	static const char *const names[] = {"comm", "path", "count"};
	struct errsrc_items *it = arg;
	struct fp_errsrc *e = it->e;
	char *name = NULL;
	uint64_t count = 0;
	uint32_t seen = 0, before;
	int k, rc;

	if (i == it->max)
		return ld_fail(ld, ctx, NULL, "more than %u %s", it->max, it->list);
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		if (k >= 0 && k < 2 && !strcmp(names[k], it->key))
			rc = ld_get_str(ld, ctx, it->key, &name);
		else if (k == 2)
			rc = ld_get_count(ld, ctx, "count", COUNT_MAX, &count);
		else
			rc = ld_skip_value(ld);
		if (rc < 0)
			break;
	}
	if (rc >= 0 && !name)
		rc = ld_fail(ld, ctx, it->key, "missing");
	before = it->paths ? e->npaths : e->nprocs;
	if (rc >= 0) {
		if (it->paths)
			fp_errsrc_add_path(e, name, count);
		else
			fp_errsrc_add_proc(e, name, count);
		if ((it->paths ? e->npaths : e->nprocs) == before)
			rc = ld_fail(ld, ctx, it->key, "given twice");
	}
	free(name);
	return rc < 0 ? -1 : 0;
}

/*
 * One entry of a row's error_sources, into the scratch row `into` (its errsrc only):
 * {"errno", "count", "processes", "other_processes", "paths", "other_paths"}.
 */
static int load_errsrc(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"errno", "count", "processes", "other_processes", "paths", "other_paths"};
	enum { ERRNO, COUNT, PROCS, OTHER_PROCS, PATHS, OTHER_PATHS };
	struct fp_sysstat *into = arg;
	struct fp_errsrc e = {0}, *to;
	struct errsrc_items procs = {"processes", "comm", FP_ERRSRC_PROCS, false, &e};
	struct errsrc_items paths = {"paths", "path", FP_ERRSRC_PATHS, true, &e};
	uint64_t sum = 0;
	uint32_t seen = 0;
	int k, rc;
	enum jr_event ev;

	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case ERRNO:
			rc = ld_value_of(ld, ctx, "errno", JR_STRING, false, OPT, &ev);
			if (rc > 0) {
				e.err = ld_errno_of_text(ld);
				rc =
				    e.err > 0 ? 0 : ld_fail(ld, ctx, "errno", "unknown errno '%.64s'", ld->jr.text.buf);
			}
			break;
		case COUNT: rc = ld_get_count(ld, ctx, "count", COUNT_MAX, &e.count); break;
		case PROCS: rc = ld_objects(ld, ctx, "processes", load_errsrc_item, &procs); break;
		case OTHER_PROCS: rc = ld_get_count(ld, ctx, "other_processes", COUNT_MAX, &e.procs_other); break;
		case PATHS: rc = ld_objects(ld, ctx, "paths", load_errsrc_item, &paths); break;
		case OTHER_PATHS: rc = ld_get_count(ld, ctx, "other_paths", COUNT_MAX, &e.paths_other); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			break;
	}
	if (rc >= 0 && (!(seen & 1u << ERRNO) || !(seen & 1u << COUNT)))
		rc = ld_fail(ld, ctx, seen & 1u << ERRNO ? "count" : "errno", "missing");
	if (rc >= 0) {
		bool over = __builtin_add_overflow(sum, e.procs_other, &sum);

		for (uint32_t i = 0; i < e.nprocs; i++)
			over |= __builtin_add_overflow(sum, e.procs[i].count, &sum);
		if (over || sum != e.count)
			rc = ld_fail(ld, ctx, "processes", "the counts do not add up to the entry's");
		sum = 0;
		over = __builtin_add_overflow(sum, e.paths_other, &sum);
		for (uint32_t i = 0; i < e.npaths; i++)
			over |= __builtin_add_overflow(sum, e.paths[i].count, &sum);
		if (rc >= 0 && (over || sum > e.count))
			rc = ld_fail(ld, ctx, "paths", "the counts add up to more than the entry's");
	}
	if (rc >= 0) {
		for (uint32_t i = 0; i < into->nerrsrc; i++)
			if (into->errsrc[i].err == e.err)
				rc = ld_fail(ld, ctx, "errno", "given twice");
	}
	if (rc < 0) {
		struct fp_sysstat tmp = {.errsrc = xmalloc(sizeof(e)), .nerrsrc = 1};

		*tmp.errsrc = e;
		fp_sysstat_errsrc_release(&tmp);
		return -1;
	}
	to = fp_sysstat_errsrc(into, e.err);
	*to = e;
	return 0;
}

static int load_syscall(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"name",    "abi",		"nr",	    "calls",	  "errors",
					    "time_s",  "errnos",	"class",    "per_source", "error_sources",
					    "reached", "reached_other", "at_attach"};
	enum {
		NAME,
		ABI,
		NR,
		CALLS,
		ERRORS,
		TIME,
		ERRNOS,
		CLASS,
		PER_SOURCE,
		ERROR_SOURCES,
		REACHED,
		REACHED_OTHER,
		AT_ATTACH
	};
	struct fp_sysstat scratch = {0}; /* error_sources and reached, until the row exists */
	struct shares shares = {0};
	char *name = NULL, *abi_s = NULL, *klass = NULL;
	struct errnos es = {0};
	uint64_t calls = 0, errors = 0, time_ns = 0, at_attach = 0;
	uint32_t seen = 0;
	int k, rc, nr = 0;
	enum jr_event ev;
	enum kf_abi abi;
	const struct kf_syscall *row;
	struct fp_sysstat *s;

	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case NAME:
		case ABI:
			rc = ld_value_of(ld, ctx, names[k], JR_STRING, false, OPT, &ev);
			if (rc > 0) {
				char **to = k == NAME ? &name : &abi_s;

				*to = xstrndup(ld->jr.text.buf, ld->jr.text.len);
				if (strlen(*to) != ld->jr.text.len)
					rc = ld_fail(ld, ctx, names[k], "contains a NUL character");
			}
			break;
		case NR: rc = ld_get_int(ld, ctx, "nr", 0, INT_MAX, &nr); break;
		case CALLS: rc = ld_get_count(ld, ctx, "calls", COUNT_MAX, &calls); break;
		case ERRORS: rc = ld_get_count(ld, ctx, "errors", COUNT_MAX, &errors); break;
		case TIME: rc = ld_get_ns(ld, ctx, "time_s", &time_ns); break;
		case ERRNOS: rc = ld_keyed(ld, ctx, "errnos", load_errno, &es); break;
		case CLASS: rc = ld_get_str(ld, ctx, "class", &klass); break;
		case PER_SOURCE: rc = ld_objects(ld, ctx, "per_source", load_share, &shares); break;
		case ERROR_SOURCES: rc = ld_objects(ld, ctx, "error_sources", load_errsrc, &scratch); break;
		case REACHED: rc = ld_objects(ld, ctx, "reached", ld_load_reach, &scratch); break;
		case REACHED_OTHER: rc = ld_get_count(ld, ctx, "reached_other", COUNT_MAX, &scratch.reach_other); break;
		case AT_ATTACH: rc = ld_get_count(ld, ctx, "at_attach", COUNT_MAX, &at_attach); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			goto out;
	}
	if (rc < 0)
		goto out;
	rc = -1;
	for (int i = NAME; i <= CALLS; i++)
		if (!(seen & 1u << i)) {
			ld_fail(ld, ctx, names[i], "missing");
			goto out;
		}
	if (errors > calls) {
		ld_fail(ld, ctx, "errors", "%llu is out of range", (unsigned long long)errors);
		goto out;
	}
	if (at_attach > calls) {
		ld_fail(ld, ctx, "at_attach", "%llu is out of range", (unsigned long long)at_attach);
		goto out;
	}
	if (!ld_valid_sc_name(name)) {
		ld_fail(ld, ctx, "name", "'%.64s' is not a syscall name", name);
		goto out;
	}
	if (kf_abi_parse(abi_s, &abi) < 0) {
		ld_fail(ld, ctx, "abi", "unknown ABI '%.64s'", abi_s);
		goto out;
	}
	if (fp_sctab_find(&ld->fp->syscalls, abi, nr)) {
		ld_fail(ld, ctx, NULL, "%s syscall %d listed twice", kf_abi_name(abi), nr);
		goto out;
	}
	if (ld_names_find(&ld->names, abi, name)) {
		ld_fail(ld, ctx, NULL, "%s syscall '%s' listed twice", kf_abi_name(abi), name);
		goto out;
	}
	/* The numbers the tables know keep their names; a name only a newer kernel has is kept as given. */
	row = kf_syscall_by_nr(abi, nr);
	if (row && strcmp(row->name, name)) {
		ld_fail(ld, ctx, NULL, "%s syscall %d is '%s', not '%s'", kf_abi_name(abi), nr, row->name, name);
		goto out;
	}
	row = row ? row : kf_syscall_by_name(abi, name);
	if (row && row->nr != nr) {
		ld_fail(ld, ctx, NULL, "%s syscall '%s' is number %d, not %d", kf_abi_name(abi), name, row->nr, nr);
		goto out;
	}
	s = fp_sctab_get(&ld->fp->syscalls, abi, nr, row ? row->name : fp__intern(ld->fp, name));
	ld_names_add(&ld->names, s);
	s->calls = calls;
	s->errors = errors;
	s->time_ns = time_ns;
	s->at_attach = at_attach;
	if (klass)
		s->annot.klass = fp__intern(ld->fp, klass);
	for (size_t i = 0; i < es.n; i++)
		fp_sysstat_add_errno(s, es.v[i].err, es.v[i].count);
	s->per_source = shares.v;
	s->nper_source = s->per_source_cap = shares.n;
	shares.v = NULL;
	shares.n = 0;
	rc = 0;
	for (uint32_t i = 0; i < scratch.nerrsrc && !rc; i++) {
		const struct fp_errsrc *e = &scratch.errsrc[i];
		uint32_t j = 0;

		while (j < s->nerrnos && s->errnos[j].err != e->err)
			j++;
		if (j == s->nerrnos || e->count > s->errnos[j].count)
			rc = ld_fail(ld, ctx, "error_sources", "%s: more failures than errnos has",
				     fp_errno_name(e->err));
	}
	s->errsrc = scratch.errsrc;
	s->nerrsrc = scratch.nerrsrc;
	scratch.errsrc = NULL;
	scratch.nerrsrc = 0;
	if (!rc)
		rc = ld_move_reach(ld, ctx, &scratch, s);
	if (s->nper_source) {
		uint64_t c = 0, e = 0;
		bool over = false;

		for (uint32_t i = 0; i < s->nper_source; i++)
			over |= __builtin_add_overflow(c, s->per_source[i].calls, &c) ||
				__builtin_add_overflow(e, s->per_source[i].errors, &e);
		if (over || c != s->calls || e != s->errors)
			rc = ld_fail(ld, ctx, "per_source", "the sources' counts do not add up to the row's");
	}
out:
	fp_sysstat_errsrc_release(&scratch);
	fp_sysstat_reach_release(&scratch);
	shares_free(shares.v, shares.n);
	free(name);
	free(abi_s);
	free(klass);
	free(es.v);
	return rc;
}

/* The schema comes first in any message: a file of another kind is that, whatever else is wrong with it. */
static int load_schema(struct loader *ld)
{
	enum jr_event ev;
	char *s = NULL, *end;
	const char *ver;
	long major;
	int rc;

	ev = jr_next(&ld->jr);
	if (ev == JR_ERROR)
		return -1;
	if (ev == JR_NULL) {
		ld->schema_msg = xstrdup("schema: must not be null");
		return jr_skip(&ld->jr, ev);
	}
	if (ev != JR_STRING) {
		ld->schema_msg = xasprintf("schema: expected string, got %s", ld_type_name(ld, ev));
		return jr_skip(&ld->jr, ev);
	}
	s = xstrndup(ld->jr.text.buf, 64);
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	rc = 0;
	ver = s + 11;
	if (strncmp(s, "kfootprint/", 11)) {
		ld->schema_msg = xasprintf("not a kfootprint footprint (schema '%s')", s);
	} else {
		errno = 0;
		major = strtol(ver, &end, 10);
		if (*ver < '0' || *ver > '9' || errno || (*end && *end != '.'))
			ld->schema_msg = xasprintf("bad schema version '%s'", s);
		else if (major != 1)
			ld->schema_msg =
			    xasprintf("schema '%s' is not supported (this kfootprint reads %s)", s, FP_SCHEMA);
		else
			ld->schema_seen = true;
	}
	free(s);
	return rc;
}

/*
 * What a footprint and each footprint merged into one say alike about their run: the same members, read by
 * load_run_member() into the same-named fields of struct footprint or struct fp_source.
 */
struct run {
	char **tool, **host_kernel, **host_arch, ***argv, **label, **user, **backend, **started_at, **incomplete_why;
	pid_t **pids;
	uint32_t *npids;
	double *elapsed_s;
	struct fp_exit *exit;
	bool *complete;
	uint64_t *lost_events;
};
#define RUN_OF(x)                                                                                                  \
	((struct run){&(x)->tool, &(x)->host_kernel, &(x)->host_arch, &(x)->argv, &(x)->label, &(x)->user,         \
		      &(x)->backend, &(x)->started_at, &(x)->incomplete_why, &(x)->attached_pids, &(x)->nattached, \
		      &(x)->elapsed_s, &(x)->exit, &(x)->complete, &(x)->lost_events})
/* The run's members, at these indexes (1 to 10) of both objects' name lists. */
#define RUN_NAMES                                                                                               \
	"tool", "host", "workload", "backend", "started_at", "elapsed_s", "exit", "complete", "incomplete_why", \
	    "lost_events"
enum { R_TOOL = 1, R_HOST, R_WORKLOAD, R_BACKEND, R_STARTED, R_ELAPSED, R_EXIT, R_COMPLETE, R_WHY, R_LOST };

static int load_host(struct loader *ld, const char *ctx, const struct run *r)
{
	static const char *const names[] = {"kernel", "arch"};
	enum jr_event ev;
	uint32_t seen = 0;
	char sub[256];
	int k, rc = ld_value_of(ld, ctx, "host", JR_OBJECT, false, NUL_OK, &ev);

	if (rc <= 0)
		return rc;
	ld_sub_ctx(sub, sizeof(sub), ctx, "host");
	while ((rc = ld_next_member(ld, sub, NAMES(names), &seen, &k)) > 0)
		if ((k < 0 ? ld_skip_value(ld) : ld_get_str(ld, sub, names[k], k ? r->host_arch : r->host_kernel)) < 0)
			return -1;
	return rc;
}

static int load_pids(struct loader *ld, const char *ctx, const struct run *r)
{
	enum jr_event ev;
	size_t cap = 0;
	int rc = ld_value_of(ld, ctx, "attached_pids", JR_ARRAY, false, NUL_OK, &ev);

	if (rc <= 0)
		return rc;
	while ((ev = jr_next(&ld->jr)) != JR_ARRAY_END) {
		int64_t x = -1;

		if (ev == JR_ERROR)
			return -1;
		if (ev == JR_NUMBER && ld->jr.is_int) {
			errno = 0;
			x = strtoll(ld->jr.text.buf, NULL, 10);
			x = errno ? -1 : x;
		}
		if (x <= 0 || x > INT_MAX)
			return ld_fail(ld, ctx, "attached_pids", "expected positive integers");
		XGROW(*r->pids, cap, *r->npids + 1);
		(*r->pids)[(*r->npids)++] = (pid_t)x;
	}
	return 0;
}

static int load_workload(struct loader *ld, const char *ctx, const struct run *r)
{
	static const char *const names[] = {"argv", "attached_pids", "label", "user"};
	enum { ARGV, PIDS, LABEL, USER };
	enum jr_event ev;
	uint32_t seen = 0;
	char sub[256];
	int k, rc = ld_value_of(ld, ctx, "workload", JR_OBJECT, false, NUL_OK, &ev);

	if (rc <= 0)
		return rc;
	ld_sub_ctx(sub, sizeof(sub), ctx, "workload");
	while ((rc = ld_next_member(ld, sub, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case ARGV: rc = ld_get_strv(ld, sub, "argv", r->argv); break;
		case PIDS: rc = load_pids(ld, sub, r); break;
		case LABEL: rc = ld_get_str(ld, sub, "label", r->label); break;
		case USER: rc = ld_get_str(ld, sub, "user", r->user); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			return -1;
	}
	return rc;
}

/* The value of the run's member k (R_TOOL to R_LOST). */
static int load_run_member(struct loader *ld, const char *ctx, int k, const struct run *r)
{
	switch (k) {
	case R_TOOL: return ld_get_str(ld, ctx, "tool", r->tool);
	case R_HOST: return load_host(ld, ctx, r);
	case R_WORKLOAD: return load_workload(ld, ctx, r);
	case R_BACKEND: return ld_get_str(ld, ctx, "backend", r->backend);
	case R_STARTED: return ld_get_str(ld, ctx, "started_at", r->started_at);
	case R_ELAPSED: return ld_get_seconds(ld, ctx, "elapsed_s", OPT, r->elapsed_s, NULL);
	case R_EXIT: return ld_get_exit(ld, ctx, r->exit);
	case R_COMPLETE: return ld_get_bool(ld, ctx, "complete", r->complete);
	case R_WHY: return ld_get_str(ld, ctx, "incomplete_why", r->incomplete_why);
	case R_LOST: return ld_get_count(ld, ctx, "lost_events", COUNT_MAX, r->lost_events);
	default: return ld_skip_value(ld);
	}
}

/* A complete run has no reason for being incomplete; an incomplete one always has one. */
static void settle_incomplete(bool complete, char **why)
{
	if (complete) {
		free(*why);
		*why = NULL;
	} else if (!*why) {
		*why = xstrdup("unknown");
	}
}

static bool valid_digest(const char *s, size_t len)
{
	size_t n = 0;

	for (; n < len; n++)
		if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
			return false;
	return n == SHA256_HEX_LEN;
}

/* One footprint that went into a merged one (footprint/merge.h). */
static int load_source_members(struct loader *ld, const char *ctx, struct fp_source *src)
{
	static const char *const names[] = {"digest", RUN_NAMES};
	const struct run run = RUN_OF(src);
	enum jr_event ev;
	uint32_t seen = 0;
	int k, rc;

	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		if (k == 0) {
			rc = ld_value_of(ld, ctx, "digest", JR_STRING, false, OPT, &ev);
			if (rc > 0 && !valid_digest(ld->jr.text.buf, ld->jr.text.len))
				return ld_fail(ld, ctx, "digest", "expected %d lower-case hex digits", SHA256_HEX_LEN);
			if (rc > 0)
				src->digest = xstrndup(ld->jr.text.buf, ld->jr.text.len);
		} else {
			rc = load_run_member(ld, ctx, k, &run);
		}
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	if (!src->digest)
		return ld_fail(ld, ctx, "digest", "missing");
	for (uint32_t i = 0; i < ld->fp->nsources; i++)
		if (!strcmp(ld->fp->sources[i].digest, src->digest))
			return ld_fail(ld, ctx, "digest", "listed twice");
	settle_incomplete(src->complete, &src->incomplete_why);
	return 0;
}

static int load_source(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	struct fp_source src = {.complete = true};

	if (load_source_members(ld, ctx, &src) < 0) {
		fp_source_release(&src);
		return -1;
	}
	ld->fp->sources = xrealloc(ld->fp->sources, (ld->fp->nsources + 1) * sizeof(*ld->fp->sources));
	ld->fp->sources[ld->fp->nsources++] = src;
	return 0;
}

/* What indexes sources[] points into it, once the whole document is read (members come in any order). */
static int check_sources(struct loader *ld)
{
	struct footprint *fp = ld->fp;

	if (!fp->nsources && ld->proc_source)
		return ld_fail(ld, "", NULL, "processes[%zu].source: without sources[]", ld->proc_source - 1);
	for (uint32_t i = 0; i < fp->syscalls.cap; i++) {
		const struct fp_sysstat *s = fp->syscalls.slots[i];

		if (!s)
			continue;
		if (!fp->nsources && s->nper_source)
			return ld_fail(ld, "syscalls", s->name, "per_source: without sources[]");
		if (fp->nsources && !s->nper_source)
			return ld_fail(ld, "syscalls", s->name, "per_source: missing in a merged footprint");
		if (s->nper_source && s->per_source[s->nper_source - 1].source >= fp->nsources)
			return ld_fail(ld, "syscalls", s->name, "per_source: %u is not an index in sources[]",
				       s->per_source[s->nper_source - 1].source);
	}
	for (size_t i = 0; fp->nsources && i < fp->nprocs; i++)
		if (fp->procs[i]->source >= fp->nsources)
			return ld_fail(ld, "", NULL, "processes[%zu].source: %u is not an index in sources[]", i,
				       fp->procs[i]->source);
	return 0;
}

/* The top-level members: the schema, the run (RUN_NAMES), then what only a footprint has. */
enum { SCHEMA, SYSCALLS = R_LOST + 1, PROCESSES, SOURCES, ERROR_SOURCES, REACHED, KINDS };

static int load_member(struct loader *ld, int k)
{
	struct footprint *fp = ld->fp;
	const struct run run = RUN_OF(fp);

	switch (k) {
	case SCHEMA: return load_schema(ld);
	case SYSCALLS:
		if (ld_objects(ld, "", "syscalls", load_syscall, NULL) < 0)
			return -1;
		ld->syscalls_read = true;
		return 0;
	case PROCESSES: return ld_objects(ld, "", "processes", ld_load_proc, NULL);
	case SOURCES: return ld_objects(ld, "", "sources", load_source, NULL);
	case ERROR_SOURCES: return ld_get_bool(ld, "", "error_sources", &fp->error_sources);
	case REACHED: return ld_get_bool(ld, "", "reached", &fp->reach);
	default: return k >= KINDS ? fp_kinds[k - KINDS]->read_json(ld) : load_run_member(ld, "", k, &run);
	}
}

static void load_document(struct loader *ld)
{
	static const char *const fixed[] = {"schema",  RUN_NAMES,	"syscalls", "processes",
					    "sources", "error_sources", "reached"};
	const char *names[KINDS + FP_KINDS_MAX];
	size_t nnames = KINDS;
	enum jr_event ev = jr_next(&ld->jr);
	uint32_t seen = 0;
	int k, rc;

	_Static_assert(sizeof(fixed) / sizeof(fixed[0]) == KINDS, "a name for each fixed member");
	memcpy(names, fixed, sizeof(fixed));
	for (const struct fp_kind *const *kind = fp_kinds; *kind && nnames < KINDS + FP_KINDS_MAX; kind++)
		names[nnames++] = (*kind)->member;

	if (ev == JR_ERROR)
		return;
	if (ev != JR_OBJECT) {
		ld->schema_msg = xstrdup("not a kfootprint footprint (expected a JSON object)");
		if (jr_skip(&ld->jr, ev) == 0)
			jr_next(&ld->jr);
		return;
	}
	while ((rc = ld_next_member(ld, "", names, nnames, &seen, &k)) != 0) {
		if (rc > 0 && !ld->msg && !ld->schema_msg)
			rc = load_member(ld, k);
		else if (rc > 0 && k == SCHEMA && !ld->schema_msg)
			rc = load_schema(ld);
		else if (rc > 0)
			rc = ld_skip_value(ld);
		/* after a problem with the content, the rest is still read: for the syntax, and the schema */
		if (rc < 0 && (jr_error(&ld->jr) || jr_resync(&ld->jr, 1) < 0))
			return;
	}
	if (jr_next(&ld->jr) != JR_EOF)
		return;
	if (!ld->schema_msg && !ld->schema_seen)
		ld->schema_msg = xstrdup("schema: missing");
	if (!ld->msg && !ld->schema_msg && ld_resolve_pending(ld) == 0)
		check_sources(ld);
}

/* Runs the loader over jr; reports and returns NULL on a problem. */
static struct footprint *load(struct loader *ld)
{
	struct footprint *fp = ld->fp = fp__new();
	const char *err, *kind;

	load_document(ld);
	err = jr_error(&ld->jr);
	/* Not JSON, or JSON without a footprint's schema: say what it looks like, when that is known. */
	kind = err || ld->schema_msg ? kf_sniff(ld->head, *ld->nhead) : NULL;
	if (kind && kind != kf_sniff_footprint)
		error("'%s': %s, not a footprint", ld->what, kind);
	else if (err)
		error("'%s': %s", ld->what, err);
	else if (ld->schema_msg)
		error("'%s': %s", ld->what, ld->schema_msg);
	else if (ld->msg)
		error("'%s': %s", ld->what, ld->msg);
	if (err || ld->schema_msg || ld->msg) {
		fp__free(fp);
		fp = NULL;
	} else {
		settle_incomplete(fp->complete, &fp->incomplete_why);
	}
	for (size_t i = 0; i < ld->npending; i++) {
		free(ld->pending[i].key);
		fp_sysstat_reach_release(&ld->pending[i].reach);
	}
	free(ld->pending);
	ld_names_release(&ld->names);
	free(ld->msg);
	free(ld->schema_msg);
	jr_release(&ld->jr);
	return fp;
}

struct footprint *fp__load_mem(const char *buf, size_t len, const char *what)
{
	size_t nhead = len < KF_SNIFF_LEN ? len : KF_SNIFF_LEN;
	struct loader ld = {.what = what, .head = buf, .nhead = &nhead};

	jr_init_mem(&ld.jr, buf, len, LOAD_MAX_DEPTH);
	return load(&ld);
}

struct footprint *fp__load(const char *path)
{
	struct loader ld = {.what = strcmp(path, "-") ? path : "standard input"};
	struct kf_input in;
	struct footprint *fp;
	char *why;

	/* '-' is a pipe: kfootprint -F json -- CMD 2>&1 >/dev/null | kfootprint report - */
	if (kf_input_open(&in, path, KF_FOOTPRINT_MAX, &why) < 0) {
		error("'%s': %s", ld.what, why);
		free(why);
		return NULL;
	}
	ld.head = in.head;
	ld.nhead = &in.nhead;
	jr_init_input(&ld.jr, &in, LOAD_MAX_DEPTH);
	fp = load(&ld);
	kf_input_close(&in);
	return fp;
}
