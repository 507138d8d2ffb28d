// SPDX-License-Identifier: GPL-2.0
/*
 * The typed member readers of the kfootprint/1 reader (footprint_json_read.h): each reads one value and checks
 * its type and range, so that the schema's readers say only which members there are and what they mean.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "footprint/footprint_json_read.h"
#include "util/json_writer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * Keeps "where: what" as the load's problem (the first one only) and returns -1. Names and values quoted from
 * the file may hold any byte: control bytes become '?' so that the message stays one line and cannot drive a
 * terminal.
 */
__attribute__((format(printf, 4, 5))) int ld_fail(struct loader *ld, const char *ctx, const char *key, const char *fmt,
						  ...)
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
const char *ld_type_name(const struct loader *ld, enum jr_event ev)
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
 * that, -1 otherwise (after ld_fail(), or on a syntax error).
 */
int ld_value_of(struct loader *ld, const char *ctx, const char *key, enum jr_event t, bool is_int, unsigned flags,
		enum jr_event *got)
{
	enum jr_event ev = jr_next(&ld->jr);

	*got = ev;
	if (ev == JR_ERROR)
		return -1;
	if (ev == JR_NULL) {
		if (flags & NUL_OK)
			return 0;
		return ld_fail(ld, ctx, key, "must not be null");
	}
	if (ev == t || (t == JR_TRUE && ev == JR_FALSE)) {
		if (t == JR_NUMBER && is_int && !ld->jr.is_int)
			return ld_fail(ld, ctx, key, "expected int, got double");
		return 1;
	}
	return ld_fail(ld, ctx, key, "expected %s, got %s", want_name(t, is_int), ld_type_name(ld, ev));
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
		return ld_fail(ld, ctx, key, "%.64s is out of range", t);
	*out = v;
	return 0;
}

/* A count: an integer in [0, max], max at most INT64_MAX. */
int ld_to_count(struct loader *ld, const char *ctx, const char *key, uint64_t max, uint64_t *out)
{
	int64_t v;

	if (ld->jr.text.buf[0] == '-')
		return ld_fail(ld, ctx, key, "expected an unsigned integer, got a negative one");
	if (to_i64(ld, ctx, key, 0, (int64_t)(max > COUNT_MAX ? COUNT_MAX : max), &v) < 0)
		return -1;
	/*
	 * One bound on all the 63-bit counts together (not threads or execs, 32-bit), so that no sum of them a
	 * report, a diff or a merge makes can wrap.
	 */
	if (max >= COUNT_MAX) {
		if ((uint64_t)v > COUNT_MAX - ld->fp->counts_total)
			return ld_fail(
			    ld, ctx, key,
			    "the footprint's counts add up past 2^63-1: refused, no sum of them could be shown");
		ld->fp->counts_total += (uint64_t)v;
	}
	*out = (uint64_t)v;
	return 0;
}

int ld_get_count(struct loader *ld, const char *ctx, const char *key, uint64_t max, uint64_t *out)
{
	enum jr_event ev;
	int rc = ld_value_of(ld, ctx, key, JR_NUMBER, true, OPT, &ev);

	return rc <= 0 ? rc : ld_to_count(ld, ctx, key, max, out);
}

/* An optional count that may be null (left as it is then). */
int ld_get_count_or_null(struct loader *ld, const char *ctx, const char *key, uint64_t *out, bool *found)
{
	enum jr_event ev;
	int rc = ld_value_of(ld, ctx, key, JR_NUMBER, true, NUL_OK, &ev);

	*found = rc > 0;
	if (rc <= 0)
		return rc;
	if (!ld->jr.is_int)
		return ld_fail(ld, ctx, key, "expected an unsigned integer, got double");
	return ld_to_count(ld, ctx, key, COUNT_MAX, out);
}

int ld_get_int(struct loader *ld, const char *ctx, const char *key, int64_t min, int64_t max, int *out)
{
	enum jr_event ev;
	int64_t v;
	int rc = ld_value_of(ld, ctx, key, JR_NUMBER, true, OPT, &ev);

	if (rc <= 0)
		return rc;
	if (to_i64(ld, ctx, key, min, max, &v) < 0)
		return -1;
	*out = (int)v;
	return 0;
}

/* A time in seconds: finite and not negative. *found tells a null from a number. */
int ld_get_seconds(struct loader *ld, const char *ctx, const char *key, unsigned flags, double *out, bool *found)
{
	enum jr_event ev;
	int rc = ld_value_of(ld, ctx, key, JR_NUMBER, false, flags, &ev);

	if (found)
		*found = rc > 0;
	if (rc <= 0)
		return rc;
	*out = strtod(ld->jr.text.buf, NULL);
	if (!isfinite(*out))
		return ld_fail(ld, ctx, key, "not a finite number");
	if (*out < 0)
		return ld_fail(ld, ctx, key, "a negative time");
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
int ld_get_ns(struct loader *ld, const char *ctx, const char *key, uint64_t *out)
{
	double d;
	bool found;

	if (ld_get_seconds(ld, ctx, key, NUL_OK, &d, &found) < 0)
		return -1;
	if (found && s_to_ns(ld->jr.text.buf, out) < 0)
		return ld_fail(ld, ctx, key, "%.64s seconds is out of range", ld->jr.text.buf);
	if (found && *out > COUNT_MAX - ld->fp->times_total)
		return ld_fail(ld, ctx, key,
			       "the footprint's times add up past 2^63-1 ns (292 years): refused, no sum "
			       "of them could be shown");
	if (found)
		ld->fp->times_total += *out;
	return 0;
}

int ld_get_bool(struct loader *ld, const char *ctx, const char *key, bool *out)
{
	enum jr_event ev;
	int rc = ld_value_of(ld, ctx, key, JR_TRUE, false, OPT, &ev);

	if (rc > 0)
		*out = ev == JR_TRUE;
	return rc < 0 ? -1 : 0;
}

/* The string just read back to the bytes it stands for (see json_writer.h); NUL bytes are refused. */
int ld_to_bytes(struct loader *ld, const char *ctx, const char *key, char **out)
{
	const char *s = ld->jr.text.buf;
	bool had_nul;

	if (ld->jr.text.len != strlen(s))
		return ld_fail(ld, ctx, key, "contains a NUL character");
	*out = jsonw_unescape_bytes(s, &had_nul);
	if (had_nul) {
		free(*out);
		*out = NULL;
		return ld_fail(ld, ctx, key, "contains a NUL byte");
	}
	return 0;
}

/* A string or null into *out (NULL for null), replacing what was there. */
int ld_get_str(struct loader *ld, const char *ctx, const char *key, char **out)
{
	enum jr_event ev;
	char *s = NULL;
	int rc = ld_value_of(ld, ctx, key, JR_STRING, false, NUL_OK, &ev);

	if (rc < 0 || (rc > 0 && ld_to_bytes(ld, ctx, key, &s) < 0))
		return -1;
	free(*out);
	*out = s;
	return 0;
}

/* A name (a module, file, function or comm): a string, not empty, no NUL or control byte, at most 4096 bytes. */
static bool valid_name(const struct loader *ld)
{
	const char *s = ld->jr.text.buf;

	if (!ld->jr.text.len || ld->jr.text.len > 4096 || strlen(s) != ld->jr.text.len)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return false;
	return true;
}

int ld_get_name(struct loader *ld, const char *ctx, const char *key, char **out)
{
	enum jr_event ev;
	int rc = ld_value_of(ld, ctx, key, JR_STRING, false, OPT, &ev);

	if (rc > 0 && !valid_name(ld))
		return ld_fail(ld, ctx, key, "'%.64s' is not a name", ld->jr.text.buf);
	if (rc > 0) {
		free(*out);
		*out = xstrdup(ld->jr.text.buf);
	}
	return rc;
}

/* An array of strings (argv, exec_chain) or null; *out stays NULL for null. */
int ld_get_strv(struct loader *ld, const char *ctx, const char *name, char ***out)
{
	enum jr_event ev;
	char **argv = NULL;
	size_t n = 0, cap = 0;
	int rc = ld_value_of(ld, ctx, name, JR_ARRAY, false, NUL_OK, &ev);

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
			ld_fail(ld, ctx, key, "expected string");
			goto fail;
		}
		XGROW(argv, cap, n + 2);
		if (ld_to_bytes(ld, ctx, key, &argv[n]) < 0)
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
int ld_next_member(struct loader *ld, const char *ctx, const char *const *names, size_t n, uint32_t *seen, int *k)
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
				return ld_fail(ld, ctx, names[i], "given twice");
			*seen |= 1u << i;
			*k = (int)i;
			break;
		}
	}
	return 1;
}

/* Skips the value of an unknown member. */
int ld_skip_value(struct loader *ld)
{
	return jr_skip(&ld->jr, jr_next(&ld->jr));
}

/* The context of member key of ctx in messages: "ctx.key", or "key" at the top. */
const char *ld_sub_ctx(char *buf, size_t len, const char *ctx, const char *key)
{
	snprintf(buf, len, "%s%s%s", ctx, *ctx ? "." : "", key);
	return buf;
}

/* An array of objects (or null), member key of ctx: fn reads each, its context "ctx.key[i]". */
int ld_objects(struct loader *ld, const char *ctx, const char *key,
	       int (*fn)(struct loader *ld, const char *ctx, size_t i, void *arg), void *arg)
{
	enum jr_event ev;
	int rc = ld_value_of(ld, ctx, key, JR_ARRAY, false, NUL_OK, &ev);

	if (rc <= 0)
		return rc;
	for (size_t i = 0; (ev = jr_next(&ld->jr)) != JR_ARRAY_END; i++) {
		char sub[320];

		if (ev == JR_ERROR)
			return -1;
		snprintf(sub, sizeof(sub), "%s%s%s[%zu]", ctx, *ctx ? "." : "", key, i);
		if (ev != JR_OBJECT)
			return ld_fail(ld, sub, NULL, "expected object");
		if (fn(ld, sub, i, arg) < 0)
			return -1;
	}
	return 0;
}

/*
 * An object whose keys are data (errno names, syscall keys), or null, member key of ctx: fn reads the value
 * of each, the key being in ld->jr.text and ctx "ctx.key".
 */
int ld_keyed(struct loader *ld, const char *ctx, const char *key,
	     int (*fn)(struct loader *ld, const char *ctx, void *arg), void *arg)
{
	enum jr_event ev;
	char sub[256];
	int rc = ld_value_of(ld, ctx, key, JR_OBJECT, false, NUL_OK, &ev);

	if (rc <= 0)
		return rc;
	ld_sub_ctx(sub, sizeof(sub), ctx, key);
	while ((ev = jr_next(&ld->jr)) == JR_KEY)
		if (fn(ld, sub, arg) < 0)
			return -1;
	return ev == JR_OBJECT_END ? 0 : -1;
}

/* The errno named by the string or key just read; 0 for none. */
int ld_errno_of_text(const struct loader *ld)
{
	const struct strbuf *t = &ld->jr.text;

	return t->len == strlen(t->buf) ? fp_errno_parse(t->buf) : 0;
}

int ld_get_exit(struct loader *ld, const char *ctx, struct fp_exit *out)
{
	static const char *const names[] = {"code", "signal", "core"};
	enum { CODE, SIGNAL, CORE };
	enum jr_event ev;
	uint32_t seen = 0;
	char sub[256], *sig = NULL;
	bool core = false;
	int k, rc, code = 0;

	memset(out, 0, sizeof(*out));
	rc = ld_value_of(ld, ctx, "exit", JR_OBJECT, false, NUL_OK, &ev);
	if (rc <= 0)
		return rc;
	ld_sub_ctx(sub, sizeof(sub), ctx, "exit");
	while ((rc = ld_next_member(ld, sub, NAMES(names), &seen, &k)) > 0) {
		if (k == CODE)
			rc = ld_value_of(ld, sub, "code", JR_NUMBER, true, OPT, &ev) < 0 ? -1 : 0;
		else if (k == SIGNAL)
			rc = ld_value_of(ld, sub, "signal", JR_STRING, false, OPT, &ev) < 0 ? -1 : 0;
		else if (k == CORE)
			rc = ld_get_bool(ld, sub, "core", &core);
		else
			rc = ld_skip_value(ld);
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
		rc = ld_fail(ld, sub, "signal", "missing");
	} else {
		out->kind = FP_EXIT_SIGNAL;
		out->value = fp_signal_parse(sig);
		out->core = core;
		if (out->value <= 0)
			rc = ld_fail(ld, sub, "signal", "unknown signal '%.64s'", sig);
	}
out:
	free(sig);
	return rc < 0 ? -1 : 0;
}

/* The places read, owned by the footprint as an attachment that writes nothing. */
struct places {
	struct fp_kplace **v;
	size_t n;
};

static void places_free(void *data)
{
	struct places *p = data;

	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i]->configs);
		free(p->v[i]);
	}
	free(p->v);
	free(p);
}

static struct fp_kplace *place_new(struct footprint *fp)
{
	struct places *p = NULL;

	for (size_t i = 0; i < fp->nattachments && !p; i++)
		if (fp->attachments[i].free == places_free)
			p = fp->attachments[i].data;
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		fp__attach(fp, (struct fp_attachment){p, NULL, places_free});
	}
	p->v = xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	return p->v[p->n++] = xcalloc(1, sizeof(struct fp_kplace));
}

/*
 * An item's "kernel" object as the annotate stage wrote it (kmap_json.c, kfmap.c): its "file", "included_by" and
 * "configs" into *out (NULL for null or an object that names none of them); the other members are the mapping's
 * to show, and a member of another type than those is passed over as the inventory always did. 0 or -1.
 */
int ld_get_place(struct loader *ld, const struct fp_kplace **out)
{
	enum jr_event ev = jr_next(&ld->jr);
	struct fp_kplace *p = NULL;
	size_t cap = 0;

	if (ev != JR_OBJECT)
		return ev == JR_ERROR || jr_skip(&ld->jr, ev) < 0 ? -1 : 0;
	while ((ev = jr_next(&ld->jr)) == JR_KEY) {
		int k = !strcmp(ld->jr.text.buf, "file")	  ? 0
			: !strcmp(ld->jr.text.buf, "included_by") ? 1
			: !strcmp(ld->jr.text.buf, "configs")	  ? 2
								  : -1;

		ev = jr_next(&ld->jr);
		if (k >= 0 && !p)
			p = place_new(ld->fp);
		if (ev == JR_STRING && k == 0) {
			p->file = fp__intern(ld->fp, ld->jr.text.buf);
		} else if (ev == JR_STRING && k == 1) {
			p->included_by = fp__intern(ld->fp, ld->jr.text.buf);
		} else if (ev == JR_ARRAY && k == 2) {
			while ((ev = jr_next(&ld->jr)) != JR_ARRAY_END) {
				if (ev == JR_STRING) {
					XGROW(p->configs, cap, p->nconfigs + 1);
					p->configs[p->nconfigs++] = fp__intern(ld->fp, ld->jr.text.buf);
				} else if (ev == JR_ERROR || jr_skip(&ld->jr, ev) < 0) {
					return -1;
				}
			}
		} else if (ev == JR_ERROR || jr_skip(&ld->jr, ev) < 0) {
			return -1;
		}
	}
	if (ev != JR_OBJECT_END)
		return -1;
	*out = p;
	return 0;
}

/*
 * One refinement of a row's "reached" (workload-wide or per process), into the scratch row arg (its reach only):
 * {"kind", "value", "fd"?, "calls", "errors", "kernel"?}; the "kernel" object's place is kept (ld_get_place()).
 */
int ld_load_reach(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"kind", "value", "fd", "calls", "errors", "kernel"};
	enum { KIND, VALUE, FD, CALLS, ERRORS, KERNEL };
	struct fp_sysstat *into = arg;
	char *str[3] = {NULL, NULL, NULL};
	uint64_t calls = 0, errors = 0;
	const struct fp_kplace *place = NULL;
	struct fp_reach *r;
	uint32_t seen = 0;
	int k, rc;

	if (index == FP_REACH_MAX)
		return ld_fail(ld, ctx, NULL, "more than %d refinements", FP_REACH_MAX);
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case KIND:
		case VALUE:
		case FD: rc = ld_get_str(ld, ctx, names[k], &str[k]); break;
		case CALLS: rc = ld_get_count(ld, ctx, "calls", COUNT_MAX, &calls); break;
		case ERRORS: rc = ld_get_count(ld, ctx, "errors", COUNT_MAX, &errors); break;
		case KERNEL: rc = ld_get_place(ld, &place); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			break;
	}
	for (int i = KIND; rc >= 0 && i <= VALUE; i++)
		if (!str[i] || !*str[i])
			rc = ld_fail(ld, ctx, names[i], str[i] ? "empty" : "missing");
	if (rc >= 0 && str[FD] && !*str[FD])
		rc = ld_fail(ld, ctx, "fd", "empty");
	if (rc >= 0 && !(seen & 1u << CALLS))
		rc = ld_fail(ld, ctx, "calls", "missing");
	if (rc >= 0 && errors > calls)
		rc = ld_fail(ld, ctx, "errors", "%llu is out of range", (unsigned long long)errors);
	if (rc >= 0 && fp_sysstat_find_reach(into, str[KIND], str[VALUE], str[FD]))
		rc = ld_fail(ld, ctx, NULL, "%.32s '%.64s' given twice", str[KIND], str[VALUE]);
	if (rc >= 0) {
		r = fp_sysstat_add_reach(into, fp__intern(ld->fp, str[KIND]), fp__intern(ld->fp, str[VALUE]),
					 str[FD] ? fp__intern(ld->fp, str[FD]) : NULL, calls, errors);
		if (r)
			r->annot.loaded = place;
	}
	for (int i = 0; i < 3; i++)
		free(str[i]);
	return rc < 0 ? -1 : 0;
}

/* Moves the refinements read into a scratch row onto row s, adding them up (a key given twice is one entry). */
int ld_move_reach(struct loader *ld, const char *ctx, struct fp_sysstat *from, struct fp_sysstat *s)
{
	int rc = 0;

	for (uint32_t i = 0; i < from->nreach && !rc; i++) {
		const struct fp_reach *r = &from->reach[i];
		struct fp_reach *t = fp_sysstat_find_reach(s, r->kind, r->value, r->fd);

		if (t && (r->calls > COUNT_MAX - t->calls || r->errors > COUNT_MAX - t->errors))
			rc = ld_fail(ld, ctx, "reached", "counted twice, past the range of a count");
		else if ((t = fp_sysstat_add_reach(s, r->kind, r->value, r->fd, r->calls, r->errors)) &&
			 !t->annot.loaded)
			t->annot.loaded = r->annot.loaded;
	}
	if (!rc && from->reach_other > COUNT_MAX - s->reach_other)
		rc = ld_fail(ld, ctx, "reached_other", "past the range of a count");
	else
		s->reach_other += from->reach_other;
	fp_sysstat_reach_release(from);
	return rc;
}
