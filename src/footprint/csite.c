// SPDX-License-Identifier: GPL-2.0
/*
 * Call sites of a footprint (record --call-sites): the keys (syscall, errno) in a sorted array, since a workload
 * makes tens of distinct keys, each with its bounded, sorted list of stacks. Then its kfootprint/1 member,
 * "call_sites", written and read (footprint_json_read.h), its merge, and the kind's row.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/csite.h"
#include "footprint/footprint_json.h"
#include "footprint/footprint_json_read.h"
#include "footprint/merge.h"
#include "util/xalloc.h"

struct fp_csites *fp__csites(struct footprint *fp, uint32_t depth)
{
	struct fp_csites **c = (struct fp_csites **)fp_kind_slot(fp, &fp_kind_csites);

	if (!*c) {
		*c = xcalloc(1, sizeof(**c));
		(*c)->depth = depth;
		(*c)->exhaustive = true;
	}
	return *c;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int key_cmp(const char *syscall, int err, const char *reached, const struct fp_csite_key *k)
{
	int c = strcmp(syscall, k->syscall);

	if (c)
		return c;
	if (err != k->err)
		return (err > k->err) - (err < k->err);
	if (!reached || !k->reached)
		return !!reached - !!k->reached;
	return strcmp(reached, k->reached);
}

struct fp_csite_key *fp__csite_key(struct fp_csites *c, const char *syscall, int err, const char *reached)
{
	uint32_t lo = 0, hi = c->nkeys;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int r = key_cmp(syscall, err, reached, &c->keys[mid]);

		if (!r)
			return &c->keys[mid];
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	c->keys = xrealloc(c->keys, (c->nkeys + 1) * sizeof(*c->keys));
	memmove(&c->keys[lo + 1], &c->keys[lo], (c->nkeys - lo) * sizeof(*c->keys));
	c->nkeys++;
	c->keys[lo] = (struct fp_csite_key){.syscall = xstrdup(syscall), .err = err, .reached = dup_or_null(reached)};
	return &c->keys[lo];
}

int fp_csite_stack_cmp(const struct fp_csite_stack *a, const struct fp_csite_stack *b)
{
	for (uint32_t i = 0; i < a->nframes && i < b->nframes; i++) {
		int c = strcmp(a->frames[i].module, b->frames[i].module);

		if (c)
			return c;
		if (a->frames[i].offset != b->frames[i].offset)
			return a->frames[i].offset < b->frames[i].offset ? -1 : 1;
	}
	return (a->nframes > b->nframes) - (a->nframes < b->nframes);
}

bool fp_csite_key_of(const struct fp_csite_key *k, const char *needer)
{
	size_t n = strlen(needer);

	if (!strcmp(k->syscall, needer))
		return k->err != ENOSYS;
	/* the key's "kind value[, kind value]": a value with ", " in it would be cut, as ptrace_reach.c joins them */
	for (const char *p = k->reached; p && *p;) {
		if (!strncmp(p, needer, n) && (!p[n] || !strncmp(p + n, ", ", 2)))
			return true;
		p = strstr(p, ", ");
		if (p)
			p += 2;
	}
	return false;
}

static void stack_release(struct fp_csite_stack *s)
{
	for (uint32_t i = 0; i < s->nframes; i++) {
		free(s->frames[i].module);
		free(s->frames[i].function);
		free(s->frames[i].file);
	}
	free(s->frames);
}

void fp_csite_add(struct fp_csite_key *k, const struct fp_csite_frame *frames, uint32_t nframes, uint64_t n)
{
	struct fp_csite_stack want = {.nframes = nframes, .frames = (struct fp_csite_frame *)frames};
	uint32_t at = 0;

	k->calls = fp_sat_add(k->calls, n);
	if (!nframes) {
		k->unwound_none = fp_sat_add(k->unwound_none, n);
		return;
	}
	for (; at < k->nstacks; at++) {
		int c = fp_csite_stack_cmp(&want, &k->stacks[at]);

		if (!c) {
			k->stacks[at].calls = fp_sat_add(k->stacks[at].calls, n);
			return;
		}
		if (c < 0)
			break;
	}
	if (at == FP_CSITE_STACKS_MAX) {
		k->other = fp_sat_add(k->other, n);
		return;
	}
	if (k->nstacks == FP_CSITE_STACKS_MAX) { /* the last one kept makes room */
		k->other = fp_sat_add(k->other, k->stacks[k->nstacks - 1].calls);
		stack_release(&k->stacks[--k->nstacks]);
	}
	k->stacks = xrealloc(k->stacks, (k->nstacks + 1) * sizeof(*k->stacks));
	memmove(&k->stacks[at + 1], &k->stacks[at], (k->nstacks - at) * sizeof(*k->stacks));
	k->nstacks++;
	k->stacks[at] = (struct fp_csite_stack){.calls = n, .nframes = nframes};
	k->stacks[at].frames = xcalloc(nframes, sizeof(*frames));
	for (uint32_t i = 0; i < nframes; i++)
		k->stacks[at].frames[i] = (struct fp_csite_frame){
		    .module = xstrdup(frames[i].module),
		    .offset = frames[i].offset,
		    .function = dup_or_null(frames[i].function),
		    .file = dup_or_null(frames[i].file),
		    .line = frames[i].line,
		};
}

void fp_csite_unsampled(struct fp_csite_key *k, uint64_t n)
{
	k->calls = fp_sat_add(k->calls, n);
	k->unsampled = fp_sat_add(k->unsampled, n);
}

void fp_csites_free(struct fp_csites *c)
{
	if (!c)
		return;
	for (uint32_t i = 0; i < c->nkeys; i++) {
		for (uint32_t j = 0; j < c->keys[i].nstacks; j++)
			stack_release(&c->keys[i].stacks[j]);
		free(c->keys[i].stacks);
		free(c->keys[i].syscall);
		free(c->keys[i].reached);
	}
	free(c->keys);
	free(c->why_not);
	free(c);
}

/*
 * As kernel functions are merged: an input whose sources are all new is added; one holding every source m had
 * replaces m's; one sharing only some cannot be split, so m's are kept and say they are not exhaustive. A source
 * without call sites makes the set not exhaustive; the depth is the smallest of the inputs' (deeper frames of the
 * others are kept as they are).
 */
static void add(struct footprint *m, const struct footprint *in, uint32_t had)
{
	const struct fp_csites *c = fp_csites_of(in);
	struct fp_csites *mc = fp_csites_of(m);

	if (!c) {
		if (mc)
			mc->exhaustive = false;
		return;
	}
	if (!mc) {
		mc = fp__csites(m, c->depth);
		mc->exhaustive = c->exhaustive && !had;
	} else {
		mc->exhaustive = mc->exhaustive && c->exhaustive;
		if (c->depth < mc->depth)
			mc->depth = c->depth;
	}
	if (c->why_not && (!mc->why_not || strcmp(c->why_not, mc->why_not) < 0)) {
		free(mc->why_not);
		mc->why_not = xstrdup(c->why_not);
	}
	for (uint32_t i = 0; i < c->nkeys; i++) {
		const struct fp_csite_key *k = &c->keys[i];
		struct fp_csite_key *to = fp__csite_key(mc, k->syscall, k->err, k->reached);

		for (uint32_t j = 0; j < k->nstacks; j++)
			fp_csite_add(to, k->stacks[j].frames, k->stacks[j].nframes, k->stacks[j].calls);
		fp_csite_add(to, NULL, 0, k->unwound_none);
		fp_csite_unsampled(to, k->unsampled);
		to->calls = fp_sat_add(to->calls, k->other);
		to->other = fp_sat_add(to->other, k->other);
	}
}

static void release(struct footprint *fp)
{
	fp_csites_free(fp_csites_of(fp));
	*fp_kind_slot(fp, &fp_kind_csites) = NULL;
}

static void merge(struct footprint *m, const struct footprint *in, uint32_t had, enum fp_merge_how how)
{
	switch (how) {
	case FP_MERGE_ADD: add(m, in, had); break;
	case FP_MERGE_REPLACE:
		release(m);
		add(m, in, 0);
		break;
	case FP_MERGE_PARTIAL:
		if (fp_csites_of(m))
			fp_csites_of(m)->exhaustive = false;
		break;
	case FP_MERGE_NONE: break;
	}
}

/* --- "call_sites" written: {"depth", "exhaustive", "why_not" (when set), "keys": [...]} -------------------- */

static void write_frame(json_writer_t *w, const struct fp_csite_frame *f)
{
	jsonw_start_object_inline(w);
	jsonw_string_field(w, "module", f->module);
	jsonw_u64_field(w, "offset", f->offset);
	if (f->function)
		jsonw_string_field(w, "function", f->function);
	if (f->file) {
		jsonw_string_field(w, "file", f->file);
		jsonw_u64_field(w, "line", f->line);
	}
	jsonw_end_object(w);
}

void fp_csite_json_key(json_writer_t *w, const struct fp_csite_key *k)
{
	jsonw_start_object(w);
	jsonw_string_field(w, "syscall", k->syscall);
	if (k->err)
		jsonw_string_field(w, "errno", fp_errno_name(k->err));
	if (k->reached)
		jsonw_string_field(w, "reached", k->reached);
	jsonw_u64_field(w, "calls", k->calls);
	if (k->other)
		jsonw_u64_field(w, "other", k->other);
	if (k->unwound_none)
		jsonw_u64_field(w, "unwound_none", k->unwound_none);
	if (k->unsampled)
		jsonw_u64_field(w, "unsampled", k->unsampled);
	jsonw_name(w, "stacks");
	jsonw_start_array(w);
	for (uint32_t j = 0; j < k->nstacks; j++) {
		jsonw_start_object(w);
		jsonw_u64_field(w, "calls", k->stacks[j].calls);
		jsonw_name(w, "frames");
		jsonw_start_array(w);
		for (uint32_t f = 0; f < k->stacks[j].nframes; f++)
			write_frame(w, &k->stacks[j].frames[f]);
		jsonw_end_array(w);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
}

static void write_json(json_writer_t *w, const struct footprint *fp)
{
	const struct fp_csites *c = fp_csites_of(fp);

	if (!c)
		return;
	jsonw_name(w, "call_sites");
	jsonw_start_object(w);
	jsonw_u64_field(w, "depth", c->depth);
	jsonw_bool_field(w, "exhaustive", c->exhaustive);
	if (c->why_not)
		jsonw_string_field(w, "why_not", c->why_not);
	jsonw_name(w, "keys");
	jsonw_start_array(w);
	for (uint32_t i = 0; i < c->nkeys; i++)
		fp_csite_json_key(w, &c->keys[i]);
	jsonw_end_array(w);
	jsonw_end_object(w);
}

/* --- "call_sites" read ----------------------------------------------------------------------------------- */

/* What a stack being read collects, and the key it goes into. */
struct stack_read {
	struct fp_csites *c;
	struct fp_csite_key *k;
	struct fp_csite_stack s;
	uint64_t sum; /* the stacks' calls so far */
};

/* {"module", "offset", "function", "file", "line"} */
static int load_frame(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"module", "offset", "function", "file", "line"};
	enum { MODULE, OFFSET, FUNCTION, FILE_, LINE };
	struct stack_read *r = arg;
	struct fp_csite_frame f = {0};
	uint64_t line = 0;
	uint32_t seen = 0;
	int k, rc;

	(void)index;
	if (r->s.nframes == r->c->depth)
		return ld_fail(ld, ctx, NULL, "more than depth %u frames", r->c->depth);
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case MODULE: rc = ld_get_name(ld, ctx, "module", &f.module); break;
		case OFFSET: rc = ld_get_count(ld, ctx, "offset", UINT64_MAX, &f.offset); break;
		case FUNCTION: rc = ld_get_name(ld, ctx, "function", &f.function); break;
		case FILE_: rc = ld_get_name(ld, ctx, "file", &f.file); break;
		case LINE: rc = ld_get_count(ld, ctx, "line", UINT32_MAX, &line); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			break;
	}
	if (rc >= 0 && (!(seen & 1u << MODULE) || !(seen & 1u << OFFSET)))
		rc = ld_fail(ld, ctx, seen & 1u << MODULE ? "offset" : "module", "missing");
	if (rc >= 0 && !!(seen & 1u << FILE_) != !!(seen & 1u << LINE))
		rc = ld_fail(ld, ctx, seen & 1u << FILE_ ? "line" : "file", "missing");
	if (rc < 0) {
		free(f.module);
		free(f.function);
		free(f.file);
		return -1;
	}
	f.line = (uint32_t)line;
	r->s.frames = xrealloc(r->s.frames, (r->s.nframes + 1) * sizeof(f));
	r->s.frames[r->s.nframes++] = f;
	return 0;
}

/* {"calls", "frames"} */
static int load_stack(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"calls", "frames"};
	enum { CALLS, FRAMES };
	struct stack_read *r = arg;
	uint32_t seen = 0, before = r->k->nstacks;
	uint64_t other = r->k->other;
	int k, rc;

	if (index == FP_CSITE_STACKS_MAX)
		return ld_fail(ld, ctx, NULL, "more than %u stacks", FP_CSITE_STACKS_MAX);
	r->s = (struct fp_csite_stack){0};
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case CALLS: rc = ld_get_count(ld, ctx, "calls", COUNT_MAX, &r->s.calls); break;
		case FRAMES: rc = ld_objects(ld, ctx, "frames", load_frame, r); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			break;
	}
	if (rc >= 0 && (!(seen & 1u << CALLS) || !(seen & 1u << FRAMES)))
		rc = ld_fail(ld, ctx, seen & 1u << CALLS ? "frames" : "calls", "missing");
	if (rc >= 0 && (!r->s.nframes || !r->s.calls))
		rc = ld_fail(ld, ctx, r->s.nframes ? "calls" : "frames", "empty");
	if (rc >= 0 && __builtin_add_overflow(r->sum, r->s.calls, &r->sum))
		rc = ld_fail(ld, ctx, "calls", "the stacks' calls add up past a count");
	if (rc >= 0) {
		fp_csite_add(r->k, r->s.frames, r->s.nframes, r->s.calls);
		if (r->k->nstacks == before || r->k->other != other)
			rc = ld_fail(ld, ctx, "frames", "a stack given twice");
	}
	stack_release(&r->s);
	return rc < 0 ? -1 : 0;
}

/* {"syscall", "errno", "reached", "calls", "other", "unwound_none", "unsampled", "stacks"} */
static int load_key(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"syscall", "errno",	       "reached",   "calls",
					    "other",   "unwound_none", "unsampled", "stacks"};
	enum { SYSCALL, ERRNO, REACHED, CALLS, OTHER, UNWOUND_NONE, UNSAMPLED, STACKS };
	struct fp_csites *c = arg;
	char *syscall = NULL, *reached = NULL;
	uint64_t calls = 0, other = 0, none = 0, unsampled = 0;
	uint32_t seen = 0, before = c->nkeys;
	struct stack_read r = {.c = c};
	enum jr_event ev;
	int k, rc, err = 0;

	(void)index;
	/* syscall and errno come first, as written: the stacks go straight into their key */
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case SYSCALL:
			rc = ld_value_of(ld, ctx, "syscall", JR_STRING, false, OPT, &ev);
			if (rc > 0 && (!ld_valid_sc_name(ld->jr.text.buf) || ld->jr.text.len > 64))
				rc = ld_fail(ld, ctx, "syscall", "'%.64s' is not a syscall name", ld->jr.text.buf);
			if (rc > 0 && r.k)
				rc = ld_fail(ld, ctx, "syscall", "after the stacks");
			if (rc > 0)
				syscall = xstrdup(ld->jr.text.buf);
			break;
		case ERRNO:
			rc = ld_value_of(ld, ctx, "errno", JR_STRING, false, OPT, &ev);
			if (rc > 0 && (err = ld_errno_of_text(ld)) <= 0)
				rc = ld_fail(ld, ctx, "errno", "'%.64s' is not an errno name", ld->jr.text.buf);
			if (rc > 0 && r.k)
				rc = ld_fail(ld, ctx, "errno", "after the stacks");
			break;
		case REACHED:
			rc = r.k ? ld_fail(ld, ctx, "reached", "after the stacks")
				 : ld_get_name(ld, ctx, "reached", &reached);
			break;
		case CALLS: rc = ld_get_count(ld, ctx, "calls", COUNT_MAX, &calls); break;
		case OTHER: rc = ld_get_count(ld, ctx, "other", COUNT_MAX, &other); break;
		case UNWOUND_NONE: rc = ld_get_count(ld, ctx, "unwound_none", COUNT_MAX, &none); break;
		case UNSAMPLED: rc = ld_get_count(ld, ctx, "unsampled", COUNT_MAX, &unsampled); break;
		case STACKS:
			if (!syscall) {
				rc = ld_fail(ld, ctx, "syscall", "missing before the stacks");
				break;
			}
			r.k = fp__csite_key(c, syscall, err, reached);
			if (c->nkeys == before) {
				rc = ld_fail(ld, ctx, "syscall", "'%.64s' with this errno and reached given twice",
					     syscall);
				break;
			}
			rc = ld_objects(ld, ctx, "stacks", load_stack, &r);
			break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			break;
	}
	if (rc >= 0 && !(seen & 1u << STACKS))
		rc = ld_fail(ld, ctx, "stacks", "missing");
	if (rc >= 0 && !(seen & 1u << CALLS))
		rc = ld_fail(ld, ctx, "calls", "missing");
	if (rc >= 0 && (__builtin_add_overflow(r.sum, other, &r.sum) || __builtin_add_overflow(r.sum, none, &r.sum) ||
			__builtin_add_overflow(r.sum, unsampled, &r.sum) || r.sum != calls))
		rc = ld_fail(ld, ctx, "calls", "not the sum of the stacks', other, unwound_none and unsampled");
	if (rc >= 0) {
		r.k->other = other;
		r.k->unwound_none = none;
		r.k->unsampled = unsampled;
		r.k->calls = calls;
	}
	free(syscall);
	free(reached);
	return rc < 0 ? -1 : 0;
}

static int read_json(struct loader *ld)
{
	static const char *const names[] = {"depth", "exhaustive", "why_not", "keys"};
	enum { DEPTH, EXHAUSTIVE, WHY_NOT, KEYS };
	const char *ctx = "call_sites";
	struct fp_csites *c;
	uint64_t depth = 0;
	uint32_t seen = 0;
	enum jr_event ev;
	int k, rc;

	rc = ld_value_of(ld, "", ctx, JR_OBJECT, false, OPT, &ev);
	if (rc <= 0)
		return rc;
	c = fp__csites(ld->fp, 0);
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case DEPTH:
			rc = ld_get_count(ld, ctx, "depth", FP_CSITE_DEPTH_MAX, &depth);
			if (rc >= 0 && !depth)
				rc = ld_fail(ld, ctx, "depth", "0");
			if (rc >= 0 && (seen & 1u << KEYS))
				rc = ld_fail(ld, ctx, "depth", "after the keys");
			c->depth = (uint32_t)depth;
			break;
		case EXHAUSTIVE: rc = ld_get_bool(ld, ctx, "exhaustive", &c->exhaustive); break;
		case WHY_NOT: rc = ld_get_str(ld, ctx, "why_not", &c->why_not); break;
		case KEYS:
			rc = c->depth ? ld_objects(ld, ctx, "keys", load_key, c)
				      : ld_fail(ld, ctx, "depth", "missing before the keys");
			break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	if (!(seen & 1u << EXHAUSTIVE))
		return ld_fail(ld, ctx, "exhaustive", "missing");
	if (!(seen & 1u << KEYS))
		return ld_fail(ld, ctx, "keys", "missing");
	return 0;
}

/* The kind's parts in the stages above the model (declared there; an incomplete type is all a row needs). */
extern const struct trace_recorder trace_recorder_csites; /* trace/csite.c */
extern const struct kind_annotator csmap_annotator;	  /* kmap/csmap.c */
extern const struct kind_report csites_report;		  /* report/csite.c */

const struct fp_kind fp_kind_csites = {
    .member = "call_sites",
    .release = release,
    .merge = merge,
    .write_json = write_json,
    .read_json = read_json,
    .recorder = &trace_recorder_csites,
    .annotator = &csmap_annotator,
    .report = &csites_report,
};
