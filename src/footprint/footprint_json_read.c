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
#include "util/error.h"
#include "util/input.h"
#include "util/json_reader.h"
#include "util/json_writer.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Our documents nest 5 deep: anything much deeper is not a footprint. */
#define LOAD_MAX_DEPTH 16
/* Counts are written as int64 by every JSON tool; past it, a count is not one kfootprint wrote. */
#define COUNT_MAX ((uint64_t)INT64_MAX)

/* Field flags. */
enum { OPT = 0, REQ = 1 << 0, NUL_OK = 1 << 1 };

/* A per-process syscall key that names a syscall only the workload-wide list (not read yet) knows. */
struct pending {
	size_t proc; /* index in fp->procs */
	char *key;
	uint64_t calls, errors, time_ns;
};

struct loader {
	const char *what;
	struct footprint *fp;
	struct json_reader jr;
	char *msg;	    /* the first problem with the content */
	char *schema_msg;   /* the schema's problem */
	bool schema_seen;   /* a good one */
	bool syscalls_read; /* the workload-wide syscalls[] */
	size_t proc_source; /* 1 + the index of the first process with a "source" (merged footprints) */
	struct pending *pending;
	size_t npending, pending_cap;
};

/*
 * Keeps "where: what" as the load's problem (the first one only) and returns -1. Names and values quoted from
 * the file may hold any byte: control bytes become '?' so that the message stays one line and cannot drive a
 * terminal.
 */
__attribute__((format(printf, 4, 5))) static int fail(struct loader *ld, const char *ctx, const char *key,
						      const char *fmt, ...)
{
	char msg[1024];
	int n;
	va_list ap;

	if (ld->msg)
		return -1;
	n = snprintf(msg, sizeof(msg), "%s%s%s%s", ctx, *ctx && key ? "." : "", key ? key : "",
		     *ctx || key ? ": " : "");
	if (n < 0 || (size_t)n >= sizeof(msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	for (char *p = msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	ld->msg = xstrdup(msg);
	return -1;
}

/* The name json-c gave each type, which the messages have always used. */
static const char *type_name(const struct loader *ld, enum jr_event ev)
{
	switch (ev) {
	case JR_OBJECT: return "object";
	case JR_ARRAY: return "array";
	case JR_STRING: return "string";
	case JR_NUMBER: return ld->jr.is_int ? "int" : "double";
	case JR_TRUE:
	case JR_FALSE: return "boolean";
	case JR_NULL: return "null";
	default: return "nothing";
	}
}

/* json-c's names of the types a field may want. */
static const char *want_name(enum jr_event t, bool is_int)
{
	return t == JR_OBJECT	? "object"
	       : t == JR_ARRAY	? "array"
	       : t == JR_STRING ? "string"
	       : t == JR_TRUE	? "boolean"
	       : is_int		? "int"
				: "double";
}

/*
 * Reads the value of member `key` and checks its type (t; JR_TRUE stands for a boolean, JR_NUMBER with
 * is_int for an integer): 1 when it is one (a container is then open), 0 when it is null and NUL_OK allows
 * that, -1 otherwise (after fail(), or on a syntax error).
 */
static int value_of(struct loader *ld, const char *ctx, const char *key, enum jr_event t, bool is_int, unsigned flags,
		    enum jr_event *got)
{
	enum jr_event ev = jr_next(&ld->jr);

	*got = ev;
	if (ev == JR_ERROR)
		return -1;
	if (ev == JR_NULL) {
		if (flags & NUL_OK)
			return 0;
		return fail(ld, ctx, key, "must not be null");
	}
	if (ev == t || (t == JR_TRUE && ev == JR_FALSE)) {
		if (t == JR_NUMBER && is_int && !ld->jr.is_int)
			return fail(ld, ctx, key, "expected int, got double");
		return 1;
	}
	return fail(ld, ctx, key, "expected %s, got %s", want_name(t, is_int), type_name(ld, ev));
}

/* The integer just read, within [min, max]. */
static int to_i64(struct loader *ld, const char *ctx, const char *key, int64_t min, int64_t max, int64_t *out)
{
	const char *t = ld->jr.text.buf;
	char *end;
	long long v;

	errno = 0;
	v = strtoll(t, &end, 10);
	if (errno || *end || v < min || v > max)
		return fail(ld, ctx, key, "%.64s is out of range", t);
	*out = v;
	return 0;
}

/* A count: an integer in [0, max], max at most INT64_MAX. */
static int to_count(struct loader *ld, const char *ctx, const char *key, uint64_t max, uint64_t *out)
{
	int64_t v;

	if (ld->jr.text.buf[0] == '-')
		return fail(ld, ctx, key, "expected an unsigned integer, got a negative one");
	if (to_i64(ld, ctx, key, 0, (int64_t)(max > COUNT_MAX ? COUNT_MAX : max), &v) < 0)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

static int get_count(struct loader *ld, const char *ctx, const char *key, uint64_t max, uint64_t *out)
{
	enum jr_event ev;
	int rc = value_of(ld, ctx, key, JR_NUMBER, true, OPT, &ev);

	return rc <= 0 ? rc : to_count(ld, ctx, key, max, out);
}

/* An optional count that may be null (left as it is then). */
static int get_count_or_null(struct loader *ld, const char *ctx, const char *key, uint64_t *out, bool *found)
{
	enum jr_event ev;
	int rc = value_of(ld, ctx, key, JR_NUMBER, true, NUL_OK, &ev);

	*found = rc > 0;
	if (rc <= 0)
		return rc;
	if (!ld->jr.is_int)
		return fail(ld, ctx, key, "expected an unsigned integer, got double");
	return to_count(ld, ctx, key, COUNT_MAX, out);
}

static int get_int(struct loader *ld, const char *ctx, const char *key, int64_t min, int64_t max, int *out)
{
	enum jr_event ev;
	int64_t v;
	int rc = value_of(ld, ctx, key, JR_NUMBER, true, OPT, &ev);

	if (rc <= 0)
		return rc;
	if (to_i64(ld, ctx, key, min, max, &v) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

/* A time in seconds: finite and not negative. *found tells a null from a number. */
static int get_seconds(struct loader *ld, const char *ctx, const char *key, unsigned flags, double *out, bool *found)
{
	enum jr_event ev;
	int rc = value_of(ld, ctx, key, JR_NUMBER, false, flags, &ev);

	if (found)
		*found = rc > 0;
	if (rc <= 0)
		return rc;
	*out = strtod(ld->jr.text.buf, NULL);
	if (!isfinite(*out))
		return fail(ld, ctx, key, "not a finite number");
	if (*out < 0)
		return fail(ld, ctx, key, "a negative time");
	return 0;
}

/*
 * Seconds back to nanoseconds. The text jsonw_ns_as_s() wrote ("12.000710000") is read digit by digit, so
 * that any count of nanoseconds comes back exactly (a double holds only 2^53 ns, 104 days); other forms of a
 * number (1e-3) go through the double. -1 past UINT64_MAX nanoseconds.
 */
static int s_to_ns(const char *t, uint64_t *out)
{
	const char *p = t;
	uint64_t sec = 0, frac = 0;
	int nfrac = 0;
	double d;

	while (*p >= '0' && *p <= '9') {
		if (sec > UINT64_MAX / 10 || __builtin_add_overflow(sec * 10, (uint64_t)(*p - '0'), &sec))
			return -1;
		p++;
	}
	if (p != t && (!*p || *p == '.')) {
		if (*p == '.')
			for (p++; *p >= '0' && *p <= '9'; p++)
				if (nfrac < 9) {
					frac = frac * 10 + (uint64_t)(*p - '0');
					nfrac++;
				}
		if (!*p) {
			for (; nfrac < 9; nfrac++)
				frac *= 10;
			if (sec > UINT64_MAX / 1000000000u || __builtin_add_overflow(sec * 1000000000u, frac, out))
				return -1;
			return 0;
		}
	}
	d = strtod(t, NULL) * 1e9;
	if (!(d < 18446744073709551615.0))
		return -1;
	*out = d > 0 ? (uint64_t)(d + 0.5) : 0;
	return 0;
}

/* A time in seconds as nanoseconds; null or absent is 0. */
static int get_ns(struct loader *ld, const char *ctx, const char *key, uint64_t *out)
{
	double d;
	bool found;

	if (get_seconds(ld, ctx, key, NUL_OK, &d, &found) < 0)
		return -1;
	if (found && s_to_ns(ld->jr.text.buf, out) < 0)
		return fail(ld, ctx, key, "%.64s seconds is out of range", ld->jr.text.buf);
	return 0;
}

static int get_bool(struct loader *ld, const char *ctx, const char *key, bool *out)
{
	enum jr_event ev;
	int rc = value_of(ld, ctx, key, JR_TRUE, false, OPT, &ev);

	if (rc > 0)
		*out = ev == JR_TRUE;
	return rc < 0 ? -1 : 0;
}

/* The string just read back to the bytes it stands for (see json_writer.h); NUL bytes are refused. */
static int to_bytes(struct loader *ld, const char *ctx, const char *key, char **out)
{
	const char *s = ld->jr.text.buf;
	bool had_nul;

	if (ld->jr.text.len != strlen(s))
		return fail(ld, ctx, key, "contains a NUL character");
	*out = jsonw_unescape_bytes(s, &had_nul);
	if (had_nul) {
		free(*out);
		*out = NULL;
		return fail(ld, ctx, key, "contains a NUL byte");
	}
	return 0;
}

/* A string or null into *out (NULL for null), replacing what was there. */
static int get_str(struct loader *ld, const char *ctx, const char *key, char **out)
{
	enum jr_event ev;
	char *s = NULL;
	int rc = value_of(ld, ctx, key, JR_STRING, false, NUL_OK, &ev);

	if (rc < 0 || (rc > 0 && to_bytes(ld, ctx, key, &s) < 0))
		return -1;
	free(*out);
	*out = s;
	return 0;
}

/* An array of strings (argv, exec_chain) or null; *out stays NULL for null. */
static int get_strv(struct loader *ld, const char *ctx, const char *name, char ***out)
{
	enum jr_event ev;
	char **argv = NULL;
	size_t n = 0, cap = 0;
	int rc = value_of(ld, ctx, name, JR_ARRAY, false, NUL_OK, &ev);

	if (rc <= 0)
		return rc;
	XGROW(argv, cap, 1);
	argv[0] = NULL;
	while ((ev = jr_next(&ld->jr)) != JR_ARRAY_END) {
		char key[32];

		if (ev == JR_ERROR)
			goto fail;
		snprintf(key, sizeof(key), "%s[%zu]", name, n);
		if (ev != JR_STRING) {
			fail(ld, ctx, key, "expected string");
			goto fail;
		}
		XGROW(argv, cap, n + 2);
		if (to_bytes(ld, ctx, key, &argv[n]) < 0)
			goto fail;
		argv[++n] = NULL;
	}
	fp_argv_free(*out);
	*out = argv;
	return 0;
fail:
	fp_argv_free(argv);
	return -1;
}

/*
 * The members of an object, as indexes into names (-1 for an unknown one, whose value the caller skips).
 * A known member given twice is a problem: a footprint never has one, and which would count is a guess.
 * Returns 1 with *k set, 0 at the end of the object, -1 on a problem.
 */
static int next_member(struct loader *ld, const char *ctx, const char *const *names, size_t n, uint32_t *seen, int *k)
{
	enum jr_event ev = jr_next(&ld->jr);
	const struct strbuf *t = &ld->jr.text;

	if (ev == JR_OBJECT_END)
		return 0;
	if (ev != JR_KEY)
		return -1;
	*k = -1;
	for (size_t i = 0; i < n; i++) {
		if (strlen(names[i]) == t->len && !memcmp(names[i], t->buf, t->len)) {
			if (*seen & 1u << i)
				return fail(ld, ctx, names[i], "given twice");
			*seen |= 1u << i;
			*k = (int)i;
			break;
		}
	}
	return 1;
}

/* Skips the value of an unknown member. */
static int skip_value(struct loader *ld)
{
	return jr_skip(&ld->jr, jr_next(&ld->jr));
}

#define NAMES(a) a, sizeof(a) / sizeof(a[0])

/* The context of member key of ctx in messages: "ctx.key", or "key" at the top. */
static const char *sub_ctx(char *buf, size_t len, const char *ctx, const char *key)
{
	snprintf(buf, len, "%s%s%s", ctx, *ctx ? "." : "", key);
	return buf;
}

/* An array of objects (or null), member key of ctx: fn reads each, its context "ctx.key[i]". */
static int load_objects(struct loader *ld, const char *ctx, const char *key,
			int (*fn)(struct loader *ld, const char *ctx, size_t i, void *arg), void *arg)
{
	enum jr_event ev;
	int rc = value_of(ld, ctx, key, JR_ARRAY, false, NUL_OK, &ev);

	if (rc <= 0)
		return rc;
	for (size_t i = 0; (ev = jr_next(&ld->jr)) != JR_ARRAY_END; i++) {
		char sub[320];

		if (ev == JR_ERROR)
			return -1;
		snprintf(sub, sizeof(sub), "%s%s%s[%zu]", ctx, *ctx ? "." : "", key, i);
		if (ev != JR_OBJECT)
			return fail(ld, sub, NULL, "expected object");
		if (fn(ld, sub, i, arg) < 0)
			return -1;
	}
	return 0;
}

/*
 * An object whose keys are data (errno names, syscall keys), or null, member key of ctx: fn reads the value
 * of each, the key being in ld->jr.text and ctx "ctx.key".
 */
static int load_keyed(struct loader *ld, const char *ctx, const char *key,
		      int (*fn)(struct loader *ld, const char *ctx, void *arg), void *arg)
{
	enum jr_event ev;
	char sub[256];
	int rc = value_of(ld, ctx, key, JR_OBJECT, false, NUL_OK, &ev);

	if (rc <= 0)
		return rc;
	sub_ctx(sub, sizeof(sub), ctx, key);
	while ((ev = jr_next(&ld->jr)) == JR_KEY)
		if (fn(ld, sub, arg) < 0)
			return -1;
	return ev == JR_OBJECT_END ? 0 : -1;
}

/* The errno named by the string or key just read; 0 for none. */
static int errno_of_text(const struct loader *ld)
{
	const struct strbuf *t = &ld->jr.text;

	return t->len == strlen(t->buf) ? fp_errno_parse(t->buf) : 0;
}

static int get_exit(struct loader *ld, const char *ctx, struct fp_exit *out)
{
	static const char *const names[] = {"code", "signal", "core"};
	enum { CODE, SIGNAL, CORE };
	enum jr_event ev;
	uint32_t seen = 0;
	char sub[256], *sig = NULL;
	bool core = false;
	int k, rc, code = 0;

	memset(out, 0, sizeof(*out));
	rc = value_of(ld, ctx, "exit", JR_OBJECT, false, NUL_OK, &ev);
	if (rc <= 0)
		return rc;
	sub_ctx(sub, sizeof(sub), ctx, "exit");
	while ((rc = next_member(ld, sub, NAMES(names), &seen, &k)) > 0) {
		if (k == CODE)
			rc = value_of(ld, sub, "code", JR_NUMBER, true, OPT, &ev) < 0 ? -1 : 0;
		else if (k == SIGNAL)
			rc = value_of(ld, sub, "signal", JR_STRING, false, OPT, &ev) < 0 ? -1 : 0;
		else if (k == CORE)
			rc = get_bool(ld, sub, "core", &core);
		else
			rc = skip_value(ld);
		if (rc < 0)
			goto out;
		if (k == CODE) {
			int64_t v;

			if (to_i64(ld, sub, "code", INT_MIN, INT_MAX, &v) < 0) {
				rc = -1;
				goto out;
			}
			code = (int)v;
		} else if (k == SIGNAL) {
			free(sig);
			sig = xstrndup(ld->jr.text.buf, ld->jr.text.len);
		}
	}
	if (rc < 0)
		goto out;
	if (seen & 1u << CODE) {
		out->kind = FP_EXIT_CODE;
		out->value = code;
	} else if (!sig) {
		rc = fail(ld, sub, "signal", "missing");
	} else {
		out->kind = FP_EXIT_SIGNAL;
		out->value = fp_signal_parse(sig);
		out->core = core;
		if (out->value <= 0)
			rc = fail(ld, sub, "signal", "unknown signal '%.64s'", sig);
	}
out:
	free(sig);
	return rc < 0 ? -1 : 0;
}

/* Names as the kernel's tables spell them; anything else (a ':' above all) would make per-process keys ambiguous. */
static bool valid_sc_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

struct errnos {
	struct fp_errno_count *v;
	size_t n, cap;
};

/* One member of an errnos object: name -> count, each name once. */
static int load_errno(struct loader *ld, const char *ctx, void *arg)
{
	struct errnos *es = arg;
	const struct strbuf *t = &ld->jr.text;
	int err = errno_of_text(ld);
	char name[64];
	uint64_t count = 0;
	enum jr_event ev;

	snprintf(name, sizeof(name), "%s", t->buf);
	if (err <= 0)
		return fail(ld, ctx, NULL, "unknown errno '%.64s'", t->buf);
	for (size_t i = 0; i < es->n; i++)
		if (es->v[i].err == err)
			return fail(ld, ctx, name, "given twice");
	ev = jr_next(&ld->jr);
	if (ev == JR_ERROR)
		return -1;
	if (ev == JR_NULL)
		return fail(ld, ctx, name, "must not be null");
	if (ev != JR_NUMBER || !ld->jr.is_int)
		return fail(ld, ctx, name, "expected an unsigned integer, got %s", type_name(ld, ev));
	if (to_count(ld, ctx, name, COUNT_MAX, &count) < 0)
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
	while ((rc = next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case SOURCE: rc = get_int(ld, ctx, "source", 0, INT_MAX, &source); break;
		case CALLS: rc = get_count(ld, ctx, "calls", COUNT_MAX, &ps->calls); break;
		case ERRORS: rc = get_count(ld, ctx, "errors", COUNT_MAX, &ps->errors); break;
		case TIME: rc = get_ns(ld, ctx, "time_s", &ps->time_ns); break;
		case ERRNOS: rc = load_keyed(ld, ctx, "errnos", load_errno, &es); break;
		default: rc = skip_value(ld);
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
		return fail(ld, ctx, seen & 1u << SOURCE ? "calls" : "source", "missing");
	if (ps->errors > ps->calls)
		return fail(ld, ctx, "errors", "%llu is out of range", (unsigned long long)ps->errors);
	if (i && ps->source <= ps[-1].source)
		return fail(ld, ctx, "source", "out of order or listed twice");
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
		return fail(ld, ctx, NULL, "more than %u %s", it->max, it->list);
	while ((rc = next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		if (k >= 0 && k < 2 && !strcmp(names[k], it->key))
			rc = get_str(ld, ctx, it->key, &name);
		else if (k == 2)
			rc = get_count(ld, ctx, "count", COUNT_MAX, &count);
		else
			rc = skip_value(ld);
		if (rc < 0)
			break;
	}
	if (rc >= 0 && !name)
		rc = fail(ld, ctx, it->key, "missing");
	before = it->paths ? e->npaths : e->nprocs;
	if (rc >= 0) {
		if (it->paths)
			fp_errsrc_add_path(e, name, count);
		else
			fp_errsrc_add_proc(e, name, count);
		if ((it->paths ? e->npaths : e->nprocs) == before)
			rc = fail(ld, ctx, it->key, "given twice");
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

	while ((rc = next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case ERRNO:
			rc = value_of(ld, ctx, "errno", JR_STRING, false, OPT, &ev);
			if (rc > 0) {
				e.err = errno_of_text(ld);
				rc = e.err > 0 ? 0 : fail(ld, ctx, "errno", "unknown errno '%.64s'", ld->jr.text.buf);
			}
			break;
		case COUNT: rc = get_count(ld, ctx, "count", COUNT_MAX, &e.count); break;
		case PROCS: rc = load_objects(ld, ctx, "processes", load_errsrc_item, &procs); break;
		case OTHER_PROCS: rc = get_count(ld, ctx, "other_processes", COUNT_MAX, &e.procs_other); break;
		case PATHS: rc = load_objects(ld, ctx, "paths", load_errsrc_item, &paths); break;
		case OTHER_PATHS: rc = get_count(ld, ctx, "other_paths", COUNT_MAX, &e.paths_other); break;
		default: rc = skip_value(ld);
		}
		if (rc < 0)
			break;
	}
	if (rc >= 0 && (!(seen & 1u << ERRNO) || !(seen & 1u << COUNT)))
		rc = fail(ld, ctx, seen & 1u << ERRNO ? "count" : "errno", "missing");
	if (rc >= 0) {
		bool over = __builtin_add_overflow(sum, e.procs_other, &sum);

		for (uint32_t i = 0; i < e.nprocs; i++)
			over |= __builtin_add_overflow(sum, e.procs[i].count, &sum);
		if (over || sum != e.count)
			rc = fail(ld, ctx, "processes", "the counts do not add up to the entry's");
		sum = 0;
		over = __builtin_add_overflow(sum, e.paths_other, &sum);
		for (uint32_t i = 0; i < e.npaths; i++)
			over |= __builtin_add_overflow(sum, e.paths[i].count, &sum);
		if (rc >= 0 && (over || sum > e.count))
			rc = fail(ld, ctx, "paths", "the counts add up to more than the entry's");
	}
	if (rc >= 0) {
		for (uint32_t i = 0; i < into->nerrsrc; i++)
			if (into->errsrc[i].err == e.err)
				rc = fail(ld, ctx, "errno", "given twice");
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
	static const char *const names[] = {"name",   "abi",	"nr",	 "calls",      "errors",
					    "time_s", "errnos", "class", "per_source", "error_sources"};
	enum { NAME, ABI, NR, CALLS, ERRORS, TIME, ERRNOS, CLASS, PER_SOURCE, ERROR_SOURCES };
	struct fp_sysstat scratch = {0}; /* error_sources, until the row exists */
	struct shares shares = {0};
	char *name = NULL, *abi_s = NULL, *klass = NULL;
	struct errnos es = {0};
	uint64_t calls = 0, errors = 0, time_ns = 0;
	uint32_t seen = 0;
	int k, rc, nr = 0;
	enum jr_event ev;
	enum kf_abi abi;
	const struct kf_syscall *row;
	struct fp_sysstat *s;

	while ((rc = next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case NAME:
		case ABI:
			rc = value_of(ld, ctx, names[k], JR_STRING, false, OPT, &ev);
			if (rc > 0) {
				char **to = k == NAME ? &name : &abi_s;

				*to = xstrndup(ld->jr.text.buf, ld->jr.text.len);
				if (strlen(*to) != ld->jr.text.len)
					rc = fail(ld, ctx, names[k], "contains a NUL character");
			}
			break;
		case NR: rc = get_int(ld, ctx, "nr", 0, INT_MAX, &nr); break;
		case CALLS: rc = get_count(ld, ctx, "calls", COUNT_MAX, &calls); break;
		case ERRORS: rc = get_count(ld, ctx, "errors", COUNT_MAX, &errors); break;
		case TIME: rc = get_ns(ld, ctx, "time_s", &time_ns); break;
		case ERRNOS: rc = load_keyed(ld, ctx, "errnos", load_errno, &es); break;
		case CLASS: rc = get_str(ld, ctx, "class", &klass); break;
		case PER_SOURCE: rc = load_objects(ld, ctx, "per_source", load_share, &shares); break;
		case ERROR_SOURCES: rc = load_objects(ld, ctx, "error_sources", load_errsrc, &scratch); break;
		default: rc = skip_value(ld);
		}
		if (rc < 0)
			goto out;
	}
	if (rc < 0)
		goto out;
	rc = -1;
	for (int i = NAME; i <= CALLS; i++)
		if (!(seen & 1u << i)) {
			fail(ld, ctx, names[i], "missing");
			goto out;
		}
	if (errors > calls) {
		fail(ld, ctx, "errors", "%llu is out of range", (unsigned long long)errors);
		goto out;
	}
	if (!valid_sc_name(name)) {
		fail(ld, ctx, "name", "'%.64s' is not a syscall name", name);
		goto out;
	}
	if (kf_abi_parse(abi_s, &abi) < 0) {
		fail(ld, ctx, "abi", "unknown ABI '%.64s'", abi_s);
		goto out;
	}
	if (fp_sctab_find(&ld->fp->syscalls, abi, nr)) {
		fail(ld, ctx, NULL, "%s syscall %d listed twice", kf_abi_name(abi), nr);
		goto out;
	}
	for (uint32_t i = 0; i < ld->fp->syscalls.cap; i++) {
		struct fp_sysstat *t = ld->fp->syscalls.slots[i];

		if (t && t->abi == abi && !strcmp(t->name, name)) {
			fail(ld, ctx, NULL, "%s syscall '%s' listed twice", kf_abi_name(abi), name);
			goto out;
		}
	}
	/* The numbers the tables know keep their names; a name only a newer kernel has is kept as given. */
	row = kf_syscall_by_nr(abi, nr);
	if (row && strcmp(row->name, name)) {
		fail(ld, ctx, NULL, "%s syscall %d is '%s', not '%s'", kf_abi_name(abi), nr, row->name, name);
		goto out;
	}
	row = row ? row : kf_syscall_by_name(abi, name);
	if (row && row->nr != nr) {
		fail(ld, ctx, NULL, "%s syscall '%s' is number %d, not %d", kf_abi_name(abi), name, row->nr, nr);
		goto out;
	}
	s = fp_sctab_get(&ld->fp->syscalls, abi, nr, row ? row->name : fp__intern(ld->fp, name));
	s->calls = calls;
	s->errors = errors;
	s->time_ns = time_ns;
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
			rc = fail(ld, ctx, "error_sources", "%s: more failures than errnos has", fp_errno_name(e->err));
	}
	s->errsrc = scratch.errsrc;
	s->nerrsrc = scratch.nerrsrc;
	scratch.errsrc = NULL;
	scratch.nerrsrc = 0;
	if (s->nper_source) {
		uint64_t c = 0, e = 0;
		bool over = false;

		for (uint32_t i = 0; i < s->nper_source; i++)
			over |= __builtin_add_overflow(c, s->per_source[i].calls, &c) ||
				__builtin_add_overflow(e, s->per_source[i].errors, &e);
		if (over || c != s->calls || e != s->errors)
			rc = fail(ld, ctx, "per_source", "the sources' counts do not add up to the row's");
	}
out:
	fp_sysstat_errsrc_release(&scratch);
	shares_free(shares.v, shares.n);
	free(name);
	free(abi_s);
	free(klass);
	free(es.v);
	return rc;
}

/* The (abi, nr) of a per-process key: the tables first, then the workload-wide list for names they lack. */
static int resolve_key(struct loader *ld, const char *key, enum kf_abi *abi, int *nr, const char **name)
{
	const char *colon = strchr(key, ':');
	const struct kf_syscall *row;

	*abi = kf_abi_host();
	*name = key;
	if (colon) {
		char a[32];

		if ((size_t)(colon - key) >= sizeof(a))
			return -1;
		memcpy(a, key, colon - key);
		a[colon - key] = '\0';
		if (kf_abi_parse(a, abi) < 0)
			return -1;
		*name = colon + 1;
	}
	/* a name the tables know has their number in the workload-wide list too (load_syscall checks) */
	row = kf_syscall_by_name(*abi, *name);
	if (row) {
		*nr = row->nr;
		*name = row->name;
		return 0;
	}
	for (uint32_t i = 0; i < ld->fp->syscalls.cap; i++) {
		struct fp_sysstat *s = ld->fp->syscalls.slots[i];

		if (s && s->abi == *abi && !strcmp(s->name, *name)) {
			*nr = s->nr;
			*name = s->name;
			return 0;
		}
	}
	return -1;
}

/* Adds counts to a per-process entry ("openat" and "x86_64:openat" are one): past COUNT_MAX is a problem. */
static int add_proc_syscall(struct loader *ld, struct fp_proc *p, const char *ctx, const char *key, enum kf_abi abi,
			    int nr, const char *name, uint64_t calls, uint64_t errors, uint64_t time_ns)
{
	struct fp_sysstat *s = fp_sctab_get(&p->syscalls, abi, nr, name);

	if (calls > COUNT_MAX - s->calls || errors > COUNT_MAX - s->errors ||
	    __builtin_add_overflow(s->time_ns, time_ns, &s->time_ns))
		return fail(ld, ctx, NULL, "'%.64s' counted twice, past the range of a count", key);
	s->calls += calls;
	s->errors += errors;
	return 0;
}

/* The per-process syscall key just read, into key[KEY_MAX]; a longer one, or one with a NUL, is no syscall. */
#define KEY_MAX 128
static int read_sc_key(struct loader *ld, const char *ctx, char *key)
{
	if (ld->jr.text.len != strlen(ld->jr.text.buf) || ld->jr.text.len >= KEY_MAX)
		return fail(ld, ctx, NULL, "unknown syscall '%.64s'", ld->jr.text.buf);
	memcpy(key, ld->jr.text.buf, ld->jr.text.len + 1);
	return 0;
}

/* The process whose per-process keys are read, and its index in fp->procs to come. */
struct proc_at {
	struct fp_proc *p;
	size_t index;
};

/* One member of a process's "syscalls": key -> {"calls", "errors", "time_s"}. */
static int load_proc_syscall(struct loader *ld, const char *ctx, void *arg)
{
	static const char *const names[] = {"calls", "errors", "time_s"};
	enum { CALLS, ERRORS, TIME };
	const struct proc_at *at = arg;
	char key[KEY_MAX], sub[512];
	enum kf_abi abi = KF_ABI_X86_64;
	int nr = 0, k, rc;
	const char *name = NULL;
	uint64_t calls = 0, errors = 0, time_ns = 0;
	uint32_t seen = 0;
	bool later = false;
	enum jr_event ev;

	if (read_sc_key(ld, ctx, key) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.%s", ctx, key);
	if (resolve_key(ld, key, &abi, &nr, &name) < 0) {
		/* a name only the workload-wide list has, which a hand-made file may give after processes[] */
		if (ld->syscalls_read || !valid_sc_name(strchr(key, ':') ? strchr(key, ':') + 1 : key))
			return fail(ld, ctx, NULL, "unknown syscall '%.64s'", key);
		later = true;
	}
	if (value_of(ld, sub, NULL, JR_OBJECT, false, OPT, &ev) < 0)
		return -1;
	while ((rc = next_member(ld, sub, NAMES(names), &seen, &k)) > 0) {
		if (k == CALLS)
			rc = get_count(ld, sub, "calls", COUNT_MAX, &calls);
		else if (k == ERRORS)
			rc = get_count(ld, sub, "errors", COUNT_MAX, &errors);
		else if (k == TIME)
			rc = get_ns(ld, sub, "time_s", &time_ns);
		else
			rc = skip_value(ld);
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	if (!(seen & 1u << CALLS))
		return fail(ld, sub, "calls", "missing");
	if (errors > calls)
		return fail(ld, sub, "errors", "%llu is out of range", (unsigned long long)errors);
	if (later) {
		XGROW(ld->pending, ld->pending_cap, ld->npending + 1);
		ld->pending[ld->npending++] = (struct pending){at->index, xstrdup(key), calls, errors, time_ns};
		return 0;
	}
	return add_proc_syscall(ld, at->p, ctx, key, abi, nr, name, calls, errors, time_ns);
}

/* One member of "seccomp_killed": {"getppid": 1}: the calls a seccomp filter killed tasks of the process in. */
static int load_seccomp_kill(struct loader *ld, const char *ctx, void *arg)
{
	struct fp_proc *p = arg;
	char key[KEY_MAX];
	enum kf_abi abi = KF_ABI_X86_64;
	int nr = 0;
	const char *name = NULL;
	uint64_t n = 0;

	if (read_sc_key(ld, ctx, key) < 0)
		return -1;
	if (resolve_key(ld, key, &abi, &nr, &name) < 0)
		return fail(ld, ctx, NULL, "unknown syscall '%.64s'", key);
	if (get_count(ld, ctx, key, UINT32_MAX, &n) < 0)
		return -1;
	fp_sctab_get(&p->seccomp_kills, abi, nr, name)->calls += n;
	return 0;
}

/* Per-file counts are added up (a path given twice is one file); past COUNT_MAX is a problem. */
static int add_open(struct loader *ld, struct fp_proc *p, const char *ctx, const char *path, int flags, int err,
		    uint64_t n)
{
	struct fp_file *f = fp__file(p, path);
	uint64_t have = err ? f->errors : (flags & O_ACCMODE) == O_WRONLY ? f->opens_write : f->opens_read;

	if (n > COUNT_MAX - have || (!err && n > COUNT_MAX - f->opens))
		return fail(ld, ctx, NULL, "counted twice, past the range of a count");
	fp__open(ld->fp, p, path, flags, err, n);
	return 0;
}

static int load_file(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"path", "mode", "opens", "errors", "opens_read", "opens_write"};
	enum { PATH, MODE, OPENS, ERRORS, RD, WR };
	struct fp_proc *p = arg;
	char *path = NULL, *mode = NULL;
	uint64_t opens = 0, errors = 0, r = 0, w = 0;
	bool have_r = false, have_w = false;
	uint32_t seen = 0;
	int k, rc;
	enum jr_event ev;

	while ((rc = next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case PATH:
			rc = value_of(ld, ctx, "path", JR_STRING, false, OPT, &ev);
			if (rc > 0)
				rc = to_bytes(ld, ctx, "path", &path);
			break;
		case MODE: rc = get_str(ld, ctx, "mode", &mode); break;
		case OPENS: rc = get_count(ld, ctx, "opens", COUNT_MAX, &opens); break;
		case ERRORS: rc = get_count(ld, ctx, "errors", COUNT_MAX, &errors); break;
		case RD: rc = get_count_or_null(ld, ctx, "opens_read", &r, &have_r); break;
		case WR: rc = get_count_or_null(ld, ctx, "opens_write", &w, &have_w); break;
		default: rc = skip_value(ld);
		}
		if (rc < 0)
			goto out;
	}
	if (rc < 0)
		goto out;
	rc = -1;
	if (!path) {
		fail(ld, ctx, "path", "missing");
		goto out;
	}
	if (mode && strcmp(mode, "r") && strcmp(mode, "w") && strcmp(mode, "rw") && *mode) {
		fail(ld, ctx, "mode", "expected \"r\", \"w\" or \"rw\", got '%s'", mode);
		goto out;
	}
	/* Files written by hand may give only mode and opens. */
	if (!have_r && !have_w) {
		r = mode && strchr(mode, 'r') ? opens : 0;
		w = mode && strchr(mode, 'w') ? opens : 0;
	}
	/* fp__open() keeps the per-file counts; the per-process totals are loaded separately after. */
	if (add_open(ld, p, ctx, path, O_RDONLY, 0, r) < 0 || (w && add_open(ld, p, ctx, path, O_WRONLY, 0, w) < 0) ||
	    (errors && add_open(ld, p, ctx, path, O_RDONLY, ENOENT, errors) < 0))
		goto out;
	/* An O_RDWR open is one open that counts for reading and for writing. */
	if (opens)
		fp__file(p, path)->opens = opens;
	rc = 0;
out:
	free(path);
	free(mode);
	return rc;
}

static int load_proc(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"pid",	   "ppid",   "threads",	   "execs",	 "attached",
					    "comm",	   "exe",    "argv",	   "start_s",	 "end_s",
					    "exit",	   "files",  "syscalls",   "opens_read", "opens_write",
					    "open_errors", "source", "exec_chain", "host_pid",	 "seccomp_killed"};
	enum {
		PID,
		PPID,
		THREADS,
		EXECS,
		ATTACHED,
		COMM,
		EXE,
		ARGV,
		START,
		END,
		EXIT,
		FILES,
		SYSCALLS,
		RD,
		WR,
		ERRS,
		SOURCE,
		CHAIN,
		HOST_PID,
		KILLS
	};
	int source = 0, host_pid = 0;
	/* read into a process of its own, moved into ld->fp once its pid is known (members come in any order) */
	struct fp_proc tmp = {.threads = 1, .end_s = -1}, *p;
	uint64_t threads = 1, execs = 0, opens[3] = {0, 0, 0};
	int pid = 0, ppid = 0, k, rc;
	char *comm = NULL;
	uint32_t seen = 0;
	bool found = false;
	struct proc_at at = {&tmp, ld->fp->nprocs};

	while ((rc = next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case PID: rc = get_int(ld, ctx, "pid", 1, INT_MAX, &pid); break;
		case PPID: rc = get_int(ld, ctx, "ppid", 0, INT_MAX, &ppid); break;
		case THREADS: rc = get_count(ld, ctx, "threads", UINT32_MAX, &threads); break;
		case EXECS: rc = get_count(ld, ctx, "execs", UINT32_MAX, &execs); break;
		case ATTACHED: rc = get_bool(ld, ctx, "attached", &tmp.attached); break;
		case COMM: rc = get_str(ld, ctx, "comm", &comm); break;
		case EXE: rc = get_str(ld, ctx, "exe", &tmp.exe); break;
		case ARGV: rc = get_strv(ld, ctx, "argv", &tmp.argv); break;
		case START: rc = get_seconds(ld, ctx, "start_s", OPT, &tmp.start_s, NULL); break;
		case END: rc = get_seconds(ld, ctx, "end_s", NUL_OK, &tmp.end_s, &found); break;
		case EXIT: rc = get_exit(ld, ctx, &tmp.exit); break;
		case FILES: rc = load_objects(ld, ctx, "files", load_file, &tmp); break;
		case SYSCALLS: rc = load_keyed(ld, ctx, "syscalls", load_proc_syscall, &at); break;
		case RD:
		case WR:
		case ERRS: rc = get_count(ld, ctx, names[k], COUNT_MAX, &opens[k - RD]); break;
		case SOURCE: rc = get_int(ld, ctx, "source", 0, INT_MAX, &source); break;
		case CHAIN: rc = get_strv(ld, ctx, "exec_chain", &tmp.exec_chain); break;
		case HOST_PID: rc = get_int(ld, ctx, "host_pid", 0, INT_MAX, &host_pid); break;
		case KILLS: rc = load_keyed(ld, ctx, "seccomp_killed", load_seccomp_kill, &tmp); break;
		default: rc = skip_value(ld);
		}
		if (rc < 0)
			goto fail;
	}
	if (rc < 0)
		goto fail;
	if (!(seen & 1u << PID)) {
		fail(ld, ctx, "pid", "missing");
		goto fail;
	}
	if (!found)
		tmp.end_s = -1;
	if (tmp.exec_chain) { /* bounded as a recording keeps it */
		size_t n = 0;

		while (tmp.exec_chain[n])
			n++;
		if (n > FP_EXEC_CHAIN_MAX) {
			fail(ld, ctx, "exec_chain", "more than %d programs", FP_EXEC_CHAIN_MAX);
			goto fail;
		}
	}
	if (seen & 1u << SOURCE && !ld->proc_source)
		ld->proc_source = ld->fp->nprocs + 1;
	p = fp__proc_new(ld->fp, pid, ppid, 0);
	p->source = (uint32_t)source;
	p->host_pid = host_pid != pid ? host_pid : 0;
	p->seccomp_kills = tmp.seccomp_kills;
	p->attached = tmp.attached;
	p->exe = tmp.exe;
	p->argv = tmp.argv;
	p->exec_chain = tmp.exec_chain;
	p->start_s = tmp.start_s;
	p->end_s = tmp.end_s;
	p->exit = tmp.exit;
	p->syscalls = tmp.syscalls;
	p->files = tmp.files;
	p->files_cap = tmp.files_cap;
	p->nfiles = tmp.nfiles;
	p->threads = (uint32_t)threads;
	p->execs = (uint32_t)execs;
	/* the totals as written, not as the files add up (those lost to a full table are not listed) */
	p->opens_read = opens[0];
	p->opens_write = opens[1];
	p->open_errors = opens[2];
	if (comm) {
		/* The kernel's comm is 15 bytes; a longer one can only be hand-made: keep what fits. */
		snprintf(p->comm, sizeof(p->comm), "%s", comm);
		free(comm);
	}
	return 0;
fail:
	free(comm);
	fp__proc_release(&tmp);
	return -1;
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
		ld->schema_msg = xasprintf("schema: expected string, got %s", type_name(ld, ev));
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
	int k, rc = value_of(ld, ctx, "host", JR_OBJECT, false, NUL_OK, &ev);

	if (rc <= 0)
		return rc;
	sub_ctx(sub, sizeof(sub), ctx, "host");
	while ((rc = next_member(ld, sub, NAMES(names), &seen, &k)) > 0)
		if ((k < 0 ? skip_value(ld) : get_str(ld, sub, names[k], k ? r->host_arch : r->host_kernel)) < 0)
			return -1;
	return rc;
}

static int load_pids(struct loader *ld, const char *ctx, const struct run *r)
{
	enum jr_event ev;
	size_t cap = 0;
	int rc = value_of(ld, ctx, "attached_pids", JR_ARRAY, false, NUL_OK, &ev);

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
			return fail(ld, ctx, "attached_pids", "expected positive integers");
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
	int k, rc = value_of(ld, ctx, "workload", JR_OBJECT, false, NUL_OK, &ev);

	if (rc <= 0)
		return rc;
	sub_ctx(sub, sizeof(sub), ctx, "workload");
	while ((rc = next_member(ld, sub, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case ARGV: rc = get_strv(ld, sub, "argv", r->argv); break;
		case PIDS: rc = load_pids(ld, sub, r); break;
		case LABEL: rc = get_str(ld, sub, "label", r->label); break;
		case USER: rc = get_str(ld, sub, "user", r->user); break;
		default: rc = skip_value(ld);
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
	case R_TOOL: return get_str(ld, ctx, "tool", r->tool);
	case R_HOST: return load_host(ld, ctx, r);
	case R_WORKLOAD: return load_workload(ld, ctx, r);
	case R_BACKEND: return get_str(ld, ctx, "backend", r->backend);
	case R_STARTED: return get_str(ld, ctx, "started_at", r->started_at);
	case R_ELAPSED: return get_seconds(ld, ctx, "elapsed_s", OPT, r->elapsed_s, NULL);
	case R_EXIT: return get_exit(ld, ctx, r->exit);
	case R_COMPLETE: return get_bool(ld, ctx, "complete", r->complete);
	case R_WHY: return get_str(ld, ctx, "incomplete_why", r->incomplete_why);
	case R_LOST: return get_count(ld, ctx, "lost_events", COUNT_MAX, r->lost_events);
	default: return skip_value(ld);
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

	while ((rc = next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		if (k == 0) {
			rc = value_of(ld, ctx, "digest", JR_STRING, false, OPT, &ev);
			if (rc > 0 && !valid_digest(ld->jr.text.buf, ld->jr.text.len))
				return fail(ld, ctx, "digest", "expected %d lower-case hex digits", SHA256_HEX_LEN);
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
		return fail(ld, ctx, "digest", "missing");
	for (uint32_t i = 0; i < ld->fp->nsources; i++)
		if (!strcmp(ld->fp->sources[i].digest, src->digest))
			return fail(ld, ctx, "digest", "listed twice");
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
		return fail(ld, "", NULL, "processes[%zu].source: without sources[]", ld->proc_source - 1);
	for (uint32_t i = 0; i < fp->syscalls.cap; i++) {
		const struct fp_sysstat *s = fp->syscalls.slots[i];

		if (!s)
			continue;
		if (!fp->nsources && s->nper_source)
			return fail(ld, "syscalls", s->name, "per_source: without sources[]");
		if (fp->nsources && !s->nper_source)
			return fail(ld, "syscalls", s->name, "per_source: missing in a merged footprint");
		if (s->nper_source && s->per_source[s->nper_source - 1].source >= fp->nsources)
			return fail(ld, "syscalls", s->name, "per_source: %u is not an index in sources[]",
				    s->per_source[s->nper_source - 1].source);
	}
	for (size_t i = 0; fp->nsources && i < fp->nprocs; i++)
		if (fp->procs[i]->source >= fp->nsources)
			return fail(ld, "", NULL, "processes[%zu].source: %u is not an index in sources[]", i,
				    fp->procs[i]->source);
	return 0;
}

/* The top-level members: the schema, the run (RUN_NAMES), then what only a footprint has. */
enum { SCHEMA, SYSCALLS = R_LOST + 1, PROCESSES, SOURCES, ERROR_SOURCES };

static int load_member(struct loader *ld, int k)
{
	struct footprint *fp = ld->fp;
	const struct run run = RUN_OF(fp);

	switch (k) {
	case SCHEMA: return load_schema(ld);
	case SYSCALLS:
		if (load_objects(ld, "", "syscalls", load_syscall, NULL) < 0)
			return -1;
		ld->syscalls_read = true;
		return 0;
	case PROCESSES: return load_objects(ld, "", "processes", load_proc, NULL);
	case SOURCES: return load_objects(ld, "", "sources", load_source, NULL);
	case ERROR_SOURCES: return get_bool(ld, "", "error_sources", &fp->error_sources);
	default: return load_run_member(ld, "", k, &run);
	}
}

/* The per-process keys that waited for the workload-wide list. */
static int resolve_pending(struct loader *ld)
{
	for (size_t i = 0; i < ld->npending && !ld->msg; i++) {
		struct pending *pe = &ld->pending[i];
		enum kf_abi abi;
		int nr;
		const char *name;
		char ctx[64];

		snprintf(ctx, sizeof(ctx), "processes[%zu].syscalls", pe->proc);
		if (resolve_key(ld, pe->key, &abi, &nr, &name) < 0)
			return fail(ld, ctx, NULL, "unknown syscall '%.64s'", pe->key);
		if (add_proc_syscall(ld, ld->fp->procs[pe->proc], ctx, pe->key, abi, nr, name, pe->calls, pe->errors,
				     pe->time_ns) < 0)
			return -1;
	}
	return ld->msg ? -1 : 0;
}

static void load_document(struct loader *ld)
{
	static const char *const names[] = {"schema", RUN_NAMES, "syscalls", "processes", "sources", "error_sources"};
	enum jr_event ev = jr_next(&ld->jr);
	uint32_t seen = 0;
	int k, rc;

	if (ev == JR_ERROR)
		return;
	if (ev != JR_OBJECT) {
		ld->schema_msg = xstrdup("not a kfootprint footprint (expected a JSON object)");
		if (jr_skip(&ld->jr, ev) == 0)
			jr_next(&ld->jr);
		return;
	}
	while ((rc = next_member(ld, "", NAMES(names), &seen, &k)) != 0) {
		if (rc > 0 && !ld->msg && !ld->schema_msg)
			rc = load_member(ld, k);
		else if (rc > 0 && k == SCHEMA && !ld->schema_msg)
			rc = load_schema(ld);
		else if (rc > 0)
			rc = skip_value(ld);
		/* after a problem with the content, the rest is still read: for the syntax, and the schema */
		if (rc < 0 && (jr_error(&ld->jr) || jr_resync(&ld->jr, 1) < 0))
			return;
	}
	if (jr_next(&ld->jr) != JR_EOF)
		return;
	if (!ld->schema_msg && !ld->schema_seen)
		ld->schema_msg = xstrdup("schema: missing");
	if (!ld->msg && !ld->schema_msg && resolve_pending(ld) == 0)
		check_sources(ld);
}

/* Runs the loader over jr; reports and returns NULL on a problem. */
static struct footprint *load(struct loader *ld)
{
	struct footprint *fp = ld->fp = fp__new();
	const char *err;

	load_document(ld);
	err = jr_error(&ld->jr);
	if (err)
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
	for (size_t i = 0; i < ld->npending; i++)
		free(ld->pending[i].key);
	free(ld->pending);
	free(ld->msg);
	free(ld->schema_msg);
	jr_release(&ld->jr);
	return fp;
}

struct footprint *fp__load_mem(const char *buf, size_t len, const char *what)
{
	struct loader ld = {.what = what};

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
	jr_init_input(&ld.jr, &in, LOAD_MAX_DEPTH);
	fp = load(&ld);
	kf_input_close(&in);
	return fp;
}
