// SPDX-License-Identifier: GPL-2.0
/*
 * Reads schema kfootprint/1 back into a struct footprint. The input is untrusted (a file a user hands to
 * `kfootprint report`): every field used is type-checked, unknown fields are ignored, and the first problem is
 * reported as "kfootprint: 'FILE': where: what" before NULL is returned, with everything freed.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "footprint/footprint_json.h"
#include "util/error.h"
#include "util/json_writer.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Our documents nest 5 deep: anything much deeper is not a footprint, and json-c recurses per level. */
#define LOAD_MAX_DEPTH 16

/* Field flags. */
enum { OPT = 0, REQ = 1 << 0, NUL_OK = 1 << 1 };

struct loader {
	const char *what;
	struct footprint *fp;
};

/*
 * Reports "kfootprint: 'FILE': where: what" on one line. Names and values quoted from the file may hold any
 * byte: control bytes become '?' so that the message stays one line and cannot drive a terminal.
 */
__attribute__((format(printf, 4, 5))) static int fail(const struct loader *ld, const char *ctx, const char *key,
						      const char *fmt, ...)
{
	char msg[1024];
	int n;
	va_list ap;

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
	return error("'%s': %s", ld->what, msg);
}

/*
 * The member `key` of obj: *out is NULL when it is absent or null (if allowed). Returns -1 after reporting
 * when it is required but missing, or of another type than t.
 */
static int member(const struct loader *ld, struct json_object *obj, const char *ctx, const char *key, enum json_type t,
		  unsigned flags, struct json_object **out)
{
	struct json_object *v = NULL;

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &v) || (!v && (flags & NUL_OK))) {
		if (flags & REQ)
			return fail(ld, ctx, key, v ? "must not be null" : "missing");
		return 0;
	}
	if (!v)
		return fail(ld, ctx, key, "must not be null");
	/* Integers are numbers too where a double is wanted. */
	if (json_object_get_type(v) != t && !(t == json_type_double && json_object_is_type(v, json_type_int)))
		return fail(ld, ctx, key, "expected %s, got %s", json_type_to_name(t),
			    json_type_to_name(json_object_get_type(v)));
	*out = v;
	return 0;
}

static int to_u64(const struct loader *ld, struct json_object *v, const char *ctx, const char *key, uint64_t max,
		  uint64_t *out)
{
	if (!json_object_is_type(v, json_type_int))
		return fail(ld, ctx, key, "expected an unsigned integer, got %s",
			    json_type_to_name(json_object_get_type(v)));
	if (json_object_get_int64(v) < 0)
		return fail(ld, ctx, key, "expected an unsigned integer, got a negative one");
	*out = json_object_get_uint64(v);
	if (*out > max)
		return fail(ld, ctx, key, "%llu is out of range", (unsigned long long)*out);
	return 0;
}

static int get_u64(const struct loader *ld, struct json_object *obj, const char *ctx, const char *key, unsigned flags,
		   uint64_t max, uint64_t *out)
{
	struct json_object *v;

	if (member(ld, obj, ctx, key, json_type_int, flags, &v) < 0)
		return -1;
	return v ? to_u64(ld, v, ctx, key, max, out) : 0;
}

static int get_int(const struct loader *ld, struct json_object *obj, const char *ctx, const char *key, unsigned flags,
		   int64_t min, int64_t max, int *out)
{
	struct json_object *v;
	int64_t x;

	if (member(ld, obj, ctx, key, json_type_int, flags, &v) < 0)
		return -1;
	if (!v)
		return 0;
	x = json_object_get_int64(v);
	if (x < min || x > max)
		return fail(ld, ctx, key, "%lld is out of range", (long long)x);
	*out = (int)x;
	return 0;
}

/* *found tells a null or absent member from a present one. */
static int get_double(const struct loader *ld, struct json_object *obj, const char *ctx, const char *key,
		      unsigned flags, double *out, bool *found)
{
	struct json_object *v;

	if (found)
		*found = false;
	if (member(ld, obj, ctx, key, json_type_double, flags, &v) < 0)
		return -1;
	if (!v)
		return 0;
	*out = json_object_get_double(v);
	if (!isfinite(*out))
		return fail(ld, ctx, key, "not a finite number");
	if (found)
		*found = true;
	return 0;
}

static int get_bool(const struct loader *ld, struct json_object *obj, const char *ctx, const char *key, bool *out)
{
	struct json_object *v;

	if (member(ld, obj, ctx, key, json_type_boolean, OPT, &v) < 0)
		return -1;
	if (v)
		*out = json_object_get_boolean(v);
	return 0;
}

/* A JSON string back to the bytes it stands for (see json_writer.h); NUL bytes are refused. */
static int to_bytes(const struct loader *ld, struct json_object *v, const char *ctx, const char *key, char **out)
{
	const char *s = json_object_get_string(v);
	bool had_nul;

	if ((size_t)json_object_get_string_len(v) != strlen(s))
		return fail(ld, ctx, key, "contains a NUL character");
	*out = jsonw_unescape_bytes(s, &had_nul);
	if (had_nul) {
		free(*out);
		*out = NULL;
		return fail(ld, ctx, key, "contains a NUL byte");
	}
	return 0;
}

/* Replaces *out (freeing the old value) when the member is present; a null member leaves NULL. */
static int get_str(const struct loader *ld, struct json_object *obj, const char *ctx, const char *key, unsigned flags,
		   char **out)
{
	struct json_object *v;
	char *s = NULL;

	if (member(ld, obj, ctx, key, json_type_string, flags | NUL_OK, &v) < 0)
		return -1;
	if (v && to_bytes(ld, v, ctx, key, &s) < 0)
		return -1;
	if (v || json_object_object_get_ex(obj, key, NULL)) {
		free(*out);
		*out = s;
	}
	return 0;
}

/* An argv array or null; *out stays NULL for null or absent. */
static int get_argv(const struct loader *ld, struct json_object *obj, const char *ctx, char ***out)
{
	struct json_object *v;
	char **argv;
	size_t n;

	*out = NULL;
	if (member(ld, obj, ctx, "argv", json_type_array, NUL_OK, &v) < 0)
		return -1;
	if (!v)
		return 0;
	n = json_object_array_length(v);
	argv = xcalloc(n + 1, sizeof(*argv));
	for (size_t i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(v, i);
		char key[32];

		snprintf(key, sizeof(key), "argv[%zu]", i);
		if (!json_object_is_type(a, json_type_string)) {
			fp_argv_free(argv);
			return fail(ld, ctx, key, "expected string");
		}
		if (to_bytes(ld, a, ctx, key, &argv[i]) < 0) {
			fp_argv_free(argv);
			return -1;
		}
	}
	*out = argv;
	return 0;
}

static int get_exit(const struct loader *ld, struct json_object *obj, const char *ctx, struct fp_exit *out)
{
	struct json_object *v, *sig;
	char sub[256];

	memset(out, 0, sizeof(*out));
	if (member(ld, obj, ctx, "exit", json_type_object, NUL_OK, &v) < 0)
		return -1;
	if (!v)
		return 0;
	snprintf(sub, sizeof(sub), "%s%sexit", ctx, *ctx ? "." : "");
	if (json_object_object_get_ex(v, "code", NULL)) {
		out->kind = FP_EXIT_CODE;
		return get_int(ld, v, sub, "code", REQ, INT_MIN, INT_MAX, &out->value);
	}
	if (member(ld, v, sub, "signal", json_type_string, REQ, &sig) < 0)
		return -1;
	out->kind = FP_EXIT_SIGNAL;
	out->value = fp_signal_parse(json_object_get_string(sig));
	if (out->value <= 0)
		return fail(ld, sub, "signal", "unknown signal '%s'", json_object_get_string(sig));
	return get_bool(ld, v, sub, "core", &out->core);
}

/*
 * Seconds back to nanoseconds. The text jsonw_ns_as_s() wrote ("12.000710000") is read digit by digit, so
 * that any count of nanoseconds comes back exactly (a double holds only 2^53 ns, 104 days); other forms of a
 * number (1e-3) go through the double. Saturates at UINT64_MAX.
 */
static uint64_t s_to_ns(struct json_object *v)
{
	const char *t = json_object_get_string(v), *p = t;
	uint64_t sec = 0, frac = 0;
	int nfrac = 0;
	double d;

	while (*p >= '0' && *p <= '9') {
		if (sec > UINT64_MAX / 10 || __builtin_add_overflow(sec * 10, (uint64_t)(*p - '0'), &sec))
			return UINT64_MAX;
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
			uint64_t ns;

			for (; nfrac < 9; nfrac++)
				frac *= 10;
			if (sec > UINT64_MAX / 1000000000u || __builtin_add_overflow(sec * 1000000000u, frac, &ns))
				return UINT64_MAX;
			return ns;
		}
	}
	d = json_object_get_double(v) * 1e9;
	if (!(d > 0))
		return 0;
	return d >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)(d + 0.5);
}

/* A time in seconds as nanoseconds; absent is 0. */
static int get_ns(const struct loader *ld, struct json_object *obj, const char *ctx, const char *key, uint64_t *out)
{
	struct json_object *v;

	if (member(ld, obj, ctx, key, json_type_double, NUL_OK, &v) < 0)
		return -1;
	if (!v)
		return 0;
	if (!isfinite(json_object_get_double(v)))
		return fail(ld, ctx, key, "not a finite number");
	*out = s_to_ns(v);
	return 0;
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

static int load_syscall(struct loader *ld, struct json_object *o, const char *ctx)
{
	struct json_object *name_o, *abi_o, *errnos, *klass;
	enum kf_abi abi;
	int nr = 0;
	uint64_t calls = 0, errors = 0, time_ns = 0;
	struct fp_sysstat *s;
	const struct kf_syscall *row;
	const char *name;

	if (!json_object_is_type(o, json_type_object))
		return fail(ld, ctx, NULL, "expected object");
	if (member(ld, o, ctx, "name", json_type_string, REQ, &name_o) < 0 ||
	    member(ld, o, ctx, "abi", json_type_string, REQ, &abi_o) < 0 ||
	    get_int(ld, o, ctx, "nr", REQ, 0, INT_MAX, &nr) < 0 ||
	    get_u64(ld, o, ctx, "calls", REQ, UINT64_MAX, &calls) < 0 ||
	    get_u64(ld, o, ctx, "errors", OPT, calls, &errors) < 0 || get_ns(ld, o, ctx, "time_s", &time_ns) < 0 ||
	    member(ld, o, ctx, "errnos", json_type_object, NUL_OK, &errnos) < 0 ||
	    member(ld, o, ctx, "class", json_type_string, NUL_OK, &klass) < 0)
		return -1;
	name = json_object_get_string(name_o);
	if (!valid_sc_name(name))
		return fail(ld, ctx, "name", "'%.64s' is not a syscall name", name);
	if (kf_abi_parse(json_object_get_string(abi_o), &abi) < 0)
		return fail(ld, ctx, "abi", "unknown ABI '%.64s'", json_object_get_string(abi_o));
	if (fp_sctab_find(&ld->fp->syscalls, abi, nr))
		return fail(ld, ctx, NULL, "%s syscall %d listed twice", kf_abi_name(abi), nr);
	for (uint32_t i = 0; i < ld->fp->syscalls.cap; i++) {
		struct fp_sysstat *t = ld->fp->syscalls.slots[i];

		if (t && t->abi == abi && !strcmp(t->name, name))
			return fail(ld, ctx, NULL, "%s syscall '%s' listed twice", kf_abi_name(abi), name);
	}
	/* The numbers the tables know keep their names; a name only a newer kernel has is kept as given. */
	row = kf_syscall_by_nr(abi, nr);
	if (row && strcmp(row->name, name))
		return fail(ld, ctx, NULL, "%s syscall %d is '%s', not '%s'", kf_abi_name(abi), nr, row->name, name);
	row = row ? row : kf_syscall_by_name(abi, name);
	if (row && row->nr != nr)
		return fail(ld, ctx, NULL, "%s syscall '%s' is number %d, not %d", kf_abi_name(abi), name, row->nr, nr);
	s = fp_sctab_get(&ld->fp->syscalls, abi, nr, row ? row->name : fp__intern(ld->fp, name));
	s->calls = calls;
	s->errors = errors;
	s->time_ns = time_ns;
	if (klass && to_bytes(ld, klass, ctx, "class", &s->klass) < 0)
		return -1;
	if (!errnos)
		return 0;
	json_object_object_foreach(errnos, ename, ev)
	{
		char sub[256];
		uint64_t n;
		int err = fp_errno_parse(ename);

		snprintf(sub, sizeof(sub), "%s.errnos", ctx);
		if (err <= 0)
			return fail(ld, sub, NULL, "unknown errno '%.64s'", ename);
		if (!ev || to_u64(ld, ev, sub, ename, UINT64_MAX, &n) < 0)
			return ev ? -1 : fail(ld, sub, ename, "must not be null");
		fp_sysstat_add_errno(s, err, n);
	}
	return 0;
}

/* The (abi, nr) of a per-process key: from the workload-wide list first, so unknown names resolve too. */
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
	for (uint32_t i = 0; i < ld->fp->syscalls.cap; i++) {
		struct fp_sysstat *s = ld->fp->syscalls.slots[i];

		if (s && s->abi == *abi && !strcmp(s->name, *name)) {
			*nr = s->nr;
			*name = s->name;
			return 0;
		}
	}
	row = kf_syscall_by_name(*abi, *name);
	if (!row)
		return -1;
	*nr = row->nr;
	*name = row->name;
	return 0;
}

static int load_proc_syscalls(struct loader *ld, struct fp_proc *p, struct json_object *o, const char *ctx)
{
	char sub[256];

	snprintf(sub, sizeof(sub), "%s.syscalls", ctx);
	json_object_object_foreach(o, key, v)
	{
		enum kf_abi abi;
		int nr;
		const char *name;
		uint64_t calls = 0, errors = 0, time_ns = 0;
		char sub2[512];

		snprintf(sub2, sizeof(sub2), "%s.%s", sub, key);
		if (resolve_key(ld, key, &abi, &nr, &name) < 0)
			return fail(ld, sub, NULL, "unknown syscall '%.64s'", key);
		if (!v || !json_object_is_type(v, json_type_object))
			return fail(ld, sub2, NULL, "expected object");
		if (get_u64(ld, v, sub2, "calls", REQ, UINT64_MAX, &calls) < 0 ||
		    get_u64(ld, v, sub2, "errors", OPT, calls, &errors) < 0 ||
		    get_ns(ld, v, sub2, "time_s", &time_ns) < 0)
			return -1;
		struct fp_sysstat *s = fp_sctab_get(&p->syscalls, abi, nr, name);

		/* "openat" and "x86_64:openat" are the same entry: add up, saturating */
		s->calls = calls > UINT64_MAX - s->calls ? UINT64_MAX : s->calls + calls;
		s->errors = errors > s->calls - s->errors ? s->calls : s->errors + errors;
		s->time_ns = time_ns > UINT64_MAX - s->time_ns ? UINT64_MAX : s->time_ns + time_ns;
	}
	return 0;
}

static int load_seccomp_kills(struct loader *ld, struct fp_proc *p, struct json_object *o, const char *ctx)
{
	char sub[256];

	snprintf(sub, sizeof(sub), "%s.seccomp_killed", ctx);
	json_object_object_foreach(o, key, v)
	{
		enum kf_abi abi;
		int nr;
		const char *name;
		uint64_t n = 0;

		if (resolve_key(ld, key, &abi, &nr, &name) < 0)
			return fail(ld, sub, NULL, "unknown syscall '%.64s'", key);
		if (!v || !json_object_is_type(v, json_type_int))
			return fail(ld, sub, key, "expected a count");
		if (to_u64(ld, v, sub, key, UINT32_MAX, &n) < 0)
			return -1;
		fp_sctab_get(&p->seccomp_kills, abi, nr, name)->calls += n;
	}
	return 0;
}

static int load_files(struct loader *ld, struct fp_proc *p, struct json_object *arr, const char *ctx)
{
	size_t n = json_object_array_length(arr);

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i), *path_o, *mode_o, *rd, *wr;
		uint64_t opens = 0, errors = 0, r = 0, w = 0;
		char sub[256], *path;
		const char *mode = "";

		snprintf(sub, sizeof(sub), "%s.files[%zu]", ctx, i);
		if (!o || !json_object_is_type(o, json_type_object))
			return fail(ld, sub, NULL, "expected object");
		if (member(ld, o, sub, "path", json_type_string, REQ, &path_o) < 0 ||
		    member(ld, o, sub, "mode", json_type_string, NUL_OK, &mode_o) < 0 ||
		    get_u64(ld, o, sub, "opens", OPT, UINT64_MAX, &opens) < 0 ||
		    get_u64(ld, o, sub, "errors", OPT, UINT64_MAX, &errors) < 0 ||
		    member(ld, o, sub, "opens_read", json_type_int, NUL_OK, &rd) < 0 ||
		    member(ld, o, sub, "opens_write", json_type_int, NUL_OK, &wr) < 0 ||
		    (rd && to_u64(ld, rd, sub, "opens_read", UINT64_MAX, &r) < 0) ||
		    (wr && to_u64(ld, wr, sub, "opens_write", UINT64_MAX, &w) < 0))
			return -1;
		if (mode_o)
			mode = json_object_get_string(mode_o);
		if (strcmp(mode, "r") && strcmp(mode, "w") && strcmp(mode, "rw") && *mode)
			return fail(ld, sub, "mode", "expected \"r\", \"w\" or \"rw\", got '%s'", mode);
		/* Files written by hand may give only mode and opens. */
		if (!rd && !wr) {
			r = strchr(mode, 'r') ? opens : 0;
			w = strchr(mode, 'w') ? opens : 0;
		}
		if (to_bytes(ld, path_o, sub, "path", &path) < 0)
			return -1;
		/* fp__open() keeps the per-file counts; the per-process totals are loaded separately after. */
		fp__open(ld->fp, p, path, O_RDONLY, 0, r);
		if (w)
			fp__open(ld->fp, p, path, O_WRONLY, 0, w);
		if (errors)
			fp__open(ld->fp, p, path, O_RDONLY, ENOENT, errors);
		/* An O_RDWR open is one open that counts for reading and for writing. */
		if (opens)
			fp__file(p, path)->opens = opens;
		free(path);
	}
	return 0;
}

static int load_proc(struct loader *ld, struct json_object *o, const char *ctx)
{
	struct json_object *files, *scs, *kills;
	int pid = 0, ppid = 0, host_pid = 0;
	uint64_t threads = 1, execs = 0;
	struct fp_proc *p;
	char *comm = NULL;
	bool found;

	if (!json_object_is_type(o, json_type_object))
		return fail(ld, ctx, NULL, "expected object");
	if (get_int(ld, o, ctx, "pid", REQ, 1, INT_MAX, &pid) < 0 ||
	    get_int(ld, o, ctx, "ppid", OPT, 0, INT_MAX, &ppid) < 0 ||
	    get_int(ld, o, ctx, "host_pid", OPT, 0, INT_MAX, &host_pid) < 0)
		return -1;
	p = fp__proc_new(ld->fp, pid, ppid, 0);
	p->host_pid = host_pid != pid ? host_pid : 0;
	p->end_s = -1;
	if (get_u64(ld, o, ctx, "threads", OPT, UINT32_MAX, &threads) < 0 ||
	    get_u64(ld, o, ctx, "execs", OPT, UINT32_MAX, &execs) < 0 ||
	    get_bool(ld, o, ctx, "attached", &p->attached) < 0 || get_str(ld, o, ctx, "comm", OPT, &comm) < 0 ||
	    get_str(ld, o, ctx, "exe", OPT, &p->exe) < 0 || get_argv(ld, o, ctx, &p->argv) < 0 ||
	    get_double(ld, o, ctx, "start_s", OPT, &p->start_s, NULL) < 0 ||
	    get_double(ld, o, ctx, "end_s", NUL_OK, &p->end_s, &found) < 0 || get_exit(ld, o, ctx, &p->exit) < 0 ||
	    member(ld, o, ctx, "files", json_type_array, NUL_OK, &files) < 0 ||
	    member(ld, o, ctx, "syscalls", json_type_object, NUL_OK, &scs) < 0 ||
	    member(ld, o, ctx, "seccomp_killed", json_type_object, NUL_OK, &kills) < 0) {
		free(comm);
		return -1;
	}
	p->threads = (uint32_t)threads;
	p->execs = (uint32_t)execs;
	if (!found || p->end_s < 0)
		p->end_s = -1;
	if (comm) {
		/* The kernel's comm is 15 bytes; a longer one can only be hand-made: keep what fits. */
		snprintf(p->comm, sizeof(p->comm), "%s", comm);
		free(comm);
	}
	if ((files && load_files(ld, p, files, ctx) < 0) || (scs && load_proc_syscalls(ld, p, scs, ctx) < 0) ||
	    (kills && load_seccomp_kills(ld, p, kills, ctx) < 0))
		return -1;
	p->opens_read = p->opens_write = p->open_errors = 0;
	if (get_u64(ld, o, ctx, "opens_read", OPT, UINT64_MAX, &p->opens_read) < 0 ||
	    get_u64(ld, o, ctx, "opens_write", OPT, UINT64_MAX, &p->opens_write) < 0 ||
	    get_u64(ld, o, ctx, "open_errors", OPT, UINT64_MAX, &p->open_errors) < 0)
		return -1;
	return 0;
}

static int load_schema(struct loader *ld, struct json_object *root)
{
	struct json_object *v;
	const char *s, *ver;
	char *end;
	long major;

	if (member(ld, root, "", "schema", json_type_string, REQ, &v) < 0)
		return -1;
	s = json_object_get_string(v);
	if (strncmp(s, "kfootprint/", 11))
		return fail(ld, "", NULL, "not a kfootprint footprint (schema '%.64s')", s);
	ver = s + 11;
	errno = 0;
	major = strtol(ver, &end, 10);
	if (*ver < '0' || *ver > '9' || errno || (*end && *end != '.'))
		return fail(ld, "", NULL, "bad schema version '%.64s'", s);
	if (major != 1)
		return fail(ld, "", NULL, "schema '%.64s' is not supported (this kfootprint reads %s)", s, FP_SCHEMA);
	return 0;
}

static int load_workload(struct loader *ld, struct json_object *root)
{
	struct json_object *w, *pids;
	struct footprint *fp = ld->fp;

	if (member(ld, root, "", "workload", json_type_object, NUL_OK, &w) < 0)
		return -1;
	if (!w)
		return 0;
	if (get_argv(ld, w, "workload", &fp->argv) < 0 ||
	    member(ld, w, "workload", "attached_pids", json_type_array, NUL_OK, &pids) < 0 ||
	    get_str(ld, w, "workload", "label", OPT, &fp->label) < 0 ||
	    get_str(ld, w, "workload", "user", OPT, &fp->user) < 0)
		return -1;
	if (!pids)
		return 0;
	size_t n = json_object_array_length(pids);
	fp->attached_pids = xcalloc(n + 1, sizeof(*fp->attached_pids));
	for (size_t i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(pids, i);
		int64_t x = p && json_object_is_type(p, json_type_int) ? json_object_get_int64(p) : -1;

		if (x <= 0 || x > INT_MAX)
			return fail(ld, "workload", "attached_pids", "expected positive integers");
		fp->attached_pids[fp->nattached++] = (pid_t)x;
	}
	return 0;
}

static int load_root(struct loader *ld, struct json_object *root)
{
	struct footprint *fp = ld->fp;
	struct json_object *host, *arr;

	if (!json_object_is_type(root, json_type_object))
		return fail(ld, "", NULL, "not a kfootprint footprint (expected a JSON object)");
	if (load_schema(ld, root) < 0 || get_str(ld, root, "", "tool", OPT, &fp->tool) < 0 ||
	    member(ld, root, "", "host", json_type_object, NUL_OK, &host) < 0 ||
	    (host && (get_str(ld, host, "host", "kernel", OPT, &fp->host_kernel) < 0 ||
		      get_str(ld, host, "host", "arch", OPT, &fp->host_arch) < 0)) ||
	    load_workload(ld, root) < 0 || get_str(ld, root, "", "backend", OPT, &fp->backend) < 0 ||
	    get_str(ld, root, "", "started_at", OPT, &fp->started_at) < 0 ||
	    get_double(ld, root, "", "elapsed_s", OPT, &fp->elapsed_s, NULL) < 0 ||
	    get_exit(ld, root, "", &fp->exit) < 0 || get_bool(ld, root, "", "complete", &fp->complete) < 0 ||
	    get_str(ld, root, "", "incomplete_why", OPT, &fp->incomplete_why) < 0 ||
	    get_u64(ld, root, "", "lost_events", OPT, UINT64_MAX, &fp->lost_events) < 0)
		return -1;
	if (fp->complete) {
		free(fp->incomplete_why);
		fp->incomplete_why = NULL;
	} else if (!fp->incomplete_why) {
		fp->incomplete_why = xstrdup("unknown");
	}
	if (member(ld, root, "", "syscalls", json_type_array, NUL_OK, &arr) < 0)
		return -1;
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		char ctx[64];

		snprintf(ctx, sizeof(ctx), "syscalls[%zu]", i);
		if (load_syscall(ld, json_object_array_get_idx(arr, i), ctx) < 0)
			return -1;
	}
	if (member(ld, root, "", "processes", json_type_array, NUL_OK, &arr) < 0)
		return -1;
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		char ctx[64];
		struct json_object *o = json_object_array_get_idx(arr, i);

		snprintf(ctx, sizeof(ctx), "processes[%zu]", i);
		if (!o)
			return fail(ld, ctx, NULL, "expected object");
		if (load_proc(ld, o, ctx) < 0)
			return -1;
	}
	return 0;
}

/* Line and column (from 1) of a byte offset, for parse errors. */
static void line_col(const char *buf, size_t off, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (buf[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

struct footprint *fp__load_mem(const char *buf, size_t len, const char *what)
{
	struct loader ld = {what, NULL};
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error jerr;

	if (len > INT_MAX) {
		error("'%s': too large", what);
		return NULL;
	}
	tok = json_tokener_new_ex(LOAD_MAX_DEPTH);
	if (!tok) {
		error("'%s': out of memory", what);
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	root = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_continue) /* the input ended inside a value (or was empty) */
		jerr = json_tokener_error_parse_eof;
	if (jerr == json_tokener_success && json_tokener_get_parse_end(tok) < len) {
		/* Strict mode stops after the first value: only whitespace may follow. */
		size_t end = json_tokener_get_parse_end(tok);

		while (end < len && strchr(" \t\r\n", buf[end]) && buf[end])
			end++;
		if (end < len) {
			size_t line, col;

			line_col(buf, end, &line, &col);
			error("'%s': not JSON: trailing data at line %zu, column %zu", what, line, col);
			json_object_put(root);
			json_tokener_free(tok);
			return NULL;
		}
	}
	if (jerr != json_tokener_success) {
		size_t line, col, off = json_tokener_get_parse_end(tok);

		line_col(buf, off < len ? off : len, &line, &col);
		if (!len)
			error("'%s': not JSON: empty file", what);
		else
			error("'%s': not JSON: %s at line %zu, column %zu", what, json_tokener_error_desc(jerr), line,
			      col);
		json_object_put(root);
		json_tokener_free(tok);
		return NULL;
	}
	json_tokener_free(tok);
	ld.fp = fp__new();
	if (load_root(&ld, root) < 0) {
		fp__free(ld.fp);
		ld.fp = NULL;
	}
	json_object_put(root);
	return ld.fp;
}

struct footprint *fp__load(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct footprint *fp;
	bool in = !strcmp(path, "-"); /* a pipe: kfootprint -F json -- CMD 2>&1 >/dev/null | kfootprint report - */
	const char *what = in ? "standard input" : path;

	if (strbuf_read_file(&sb, in ? "/dev/stdin" : path) < 0) {
		perror_msg("'%s'", what);
		strbuf_release(&sb);
		return NULL;
	}
	fp = fp__load_mem(sb.buf, sb.len, what);
	strbuf_release(&sb);
	return fp;
}
