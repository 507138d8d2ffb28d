// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel lines of a footprint (record --kernel-lines): the tasks in the order kcov met them, the distinct PCs and
 * the lines each in a sorted array. A workload's kcov areas hold up to millions of PCs, of a few tens of thousands
 * of distinct ones, so an area is sorted once and merged into the set, never inserted PC by PC. Then its merge, its
 * kfootprint/1 member "kernel_lines" written and read strictly, and the kind's row.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint_json_read.h"
#include "footprint/kline.h"
#include "footprint/merge.h"
#include "util/xalloc.h"

struct fp_klines *fp__klines(struct footprint *fp, enum fp_kline_method m)
{
	struct fp_klines **k = (struct fp_klines **)fp_kind_slot(fp, &fp_kind_klines);

	if (!*k) {
		*k = xcalloc(1, sizeof(**k));
		(*k)->method = m;
		(*k)->whole_guest = m == FP_KLINE_GCOV;
	}
	return *k;
}

struct fp_kline_task *fp__kline_task(struct fp_klines *k, pid_t tid, pid_t tgid, const char *comm)
{
	struct fp_kline_task *t;

	k->tasks = xrealloc(k->tasks, ((size_t)k->ntasks + 1) * sizeof(*k->tasks));
	t = &k->tasks[k->ntasks++];
	*t = (struct fp_kline_task){.tid = tid, .tgid = tgid, .comm = comm ? xstrdup(comm) : NULL};
	return t;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

void fp_kline_add_pcs(struct fp_klines *k, const uint64_t *pcs, size_t n)
{
	uint64_t *s;
	struct fp_kline_pc *m;
	size_t ns = 0, i = 0, j = 0, o = 0;

	if (!n)
		return;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, pcs, n * sizeof(*s));
	qsort(s, n, sizeof(*s), u64_cmp);
	for (size_t r = 0; r < n; r++)
		if (!ns || s[ns - 1] != s[r])
			s[ns++] = s[r];
	m = xmalloc((k->npcs + ns) * sizeof(*m));
	while (i < k->npcs || j < ns) {
		if (j == ns || (i < k->npcs && k->pcs[i].pc < s[j]))
			m[o++] = k->pcs[i++];
		else if (i == k->npcs || s[j] < k->pcs[i].pc)
			m[o++] = (struct fp_kline_pc){.pc = s[j++], .hits = 1};
		else {
			m[o] = k->pcs[i++];
			m[o++].hits++;
			j++;
		}
	}
	free(s);
	free(k->pcs);
	k->pcs = m;
	k->npcs = (uint32_t)o;
}

static int line_cmp(const char *file, uint32_t line, const struct fp_kline_line *l)
{
	int c = strcmp(file, l->file);

	return c ? c : (line > l->line) - (line < l->line);
}

/* The index of (file, line), or the one it would take (*found false). */
static uint32_t line_at(const struct fp_klines *k, const char *file, uint32_t line, bool *found)
{
	uint32_t lo = 0, hi = k->nlines;

	*found = false;
	/* the symbolizer and gcov's reader add in order: the end first */
	if (k->nlines && line_cmp(file, line, &k->lines[k->nlines - 1]) > 0)
		return k->nlines;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = line_cmp(file, line, &k->lines[mid]);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

void fp_kline_add_line(struct fp_klines *k, const char *file, uint32_t line, uint64_t count, const char *function)
{
	bool found;
	uint32_t at = line_at(k, file, line, &found);
	struct fp_kline_line *l;

	if (found) {
		l = &k->lines[at];
		l->count = __builtin_add_overflow(l->count, count, &l->count) ? UINT64_MAX : l->count;
		if (!l->function && function)
			l->function = xstrdup(function);
		return;
	}
	k->lines = xrealloc(k->lines, ((size_t)k->nlines + 1) * sizeof(*k->lines));
	memmove(&k->lines[at + 1], &k->lines[at], (k->nlines - at) * sizeof(*k->lines));
	k->nlines++;
	k->lines[at] = (struct fp_kline_line){
	    .file = xstrdup(file), .line = line, .count = count, .function = function ? xstrdup(function) : NULL};
}

const struct fp_kline_line *fp_kline_find(const struct fp_klines *k, const char *file, uint32_t line)
{
	bool found;
	uint32_t at = line_at(k, file, line, &found);

	return found ? &k->lines[at] : NULL;
}

void fp_klines_free(struct fp_klines *k)
{
	if (!k)
		return;
	for (uint32_t i = 0; i < k->ntasks; i++) {
		free(k->tasks[i].comm);
		free(k->tasks[i].why_not);
	}
	for (uint32_t i = 0; i < k->nlines; i++) {
		free(k->lines[i].file);
		free(k->lines[i].function);
	}
	free(k->tasks);
	free(k->pcs);
	free(k->lines);
	free(k->kernel_release);
	free(k->build_id);
	free(k->why_not);
	free(k->vmlinux);
	free(k->mixed);
	free(k);
}

/* --- merge ------------------------------------------------------------------------------------------------ */

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static bool same_str(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* Keeps the first reason given (in byte order, so that a merge does not depend on the order of its inputs). */
static void keep_least(char **to, const char *s)
{
	if (s && (!*to || strcmp(s, *to) < 0)) {
		free(*to);
		*to = xstrdup(s);
	}
}

/* Copies what identifies k's kernel into an empty m. */
static void take_kernel(struct fp_klines *m, const struct fp_klines *k)
{
	m->kernel_release = dup_or_null(k->kernel_release);
	m->build_id = dup_or_null(k->build_id);
	m->runtime_text = k->runtime_text;
	m->text_offset = k->text_offset;
	m->vmlinux = dup_or_null(k->vmlinux);
}

/*
 * k's PCs into m's. Runtime PCs of one kernel (one build id) differ between boots by the KASLR slide only, which
 * the runtime _text of each tells: they are moved to m's boot. PCs of another kernel, or of a boot whose _text is
 * unknown, mean other code: they are not mixed in (the lines, source-level, are).
 */
static bool add_pcs(struct fp_klines *m, const struct fp_klines *k)
{
	uint64_t *v;

	if (!k->npcs)
		return true;
	if (!m->build_id || !same_str(m->build_id, k->build_id) ||
	    (m->runtime_text != k->runtime_text && (!m->runtime_text || !k->runtime_text)))
		return false;
	v = xmalloc(k->npcs * sizeof(*v));
	for (uint32_t h = 1;; h++) {
		uint32_t n = 0;

		for (uint32_t i = 0; i < k->npcs; i++)
			if (k->pcs[i].hits >= h)
				v[n++] = k->pcs[i].pc - k->runtime_text + m->runtime_text;
		if (!n)
			break;
		fp_kline_add_pcs(m, v, n);
	}
	free(v);
	return true;
}

/*
 * Lines are a union with counts added and tasks are appended. Inputs of the other method (kcov sets against gcov
 * counts) are not mixed: m keeps its own and says so (mixed); lines of another kernel are added, and mixed says so
 * too.
 */
static void add(struct footprint *mfp, const struct footprint *in)
{
	const struct fp_klines *k = fp_klines_of(in);
	struct fp_klines *m = fp_klines_of(mfp);
	bool fresh = !m;

	if (!k)
		return;
	if (!m) {
		m = fp__klines(mfp, k->method);
		take_kernel(m, k);
		m->whole_guest = k->whole_guest;
	}
	if (k->mixed)
		keep_least(&m->mixed, k->mixed);
	if (k->method != m->method) {
		keep_least(&m->mixed, "inputs of kcov and of gcov: only one method's lines are kept");
		return;
	}
	if (!fresh && !same_str(m->build_id, k->build_id))
		keep_least(&m->mixed, "inputs of different kernels (build ids): their lines are added up");
	m->whole_guest |= k->whole_guest;
	keep_least(&m->why_not, k->why_not);
	m->lost = fp_sat_add(m->lost, k->lost);
	if (!fresh && !add_pcs(m, k))
		keep_least(&m->mixed, "PCs of another kernel or boot are not merged");
	else if (fresh)
		for (uint32_t i = 0; i < k->npcs; i++) {
			m->pcs = m->npcs ? m->pcs : xmalloc(k->npcs * sizeof(*m->pcs));
			m->pcs[m->npcs++] = k->pcs[i];
		}
	for (uint32_t i = 0; i < k->ntasks; i++) {
		const struct fp_kline_task *t = &k->tasks[i];
		struct fp_kline_task *to = fp__kline_task(m, t->tid, t->tgid, t->comm);

		to->covered = t->covered;
		to->why_not = dup_or_null(t->why_not);
		to->pcs = t->pcs;
		to->lost = t->lost;
	}
	for (uint32_t i = 0; i < k->nlines; i++)
		fp_kline_add_line(m, k->lines[i].file, k->lines[i].line, k->lines[i].count, k->lines[i].function);
}

static void release(struct footprint *fp)
{
	fp_klines_free(fp_klines_of(fp));
	*fp_kind_slot(fp, &fp_kind_klines) = NULL;
}

static void merge(struct footprint *m, const struct footprint *in, uint32_t had, enum fp_merge_how how)
{
	(void)had;
	switch (how) {
	case FP_MERGE_ADD: add(m, in); break;
	case FP_MERGE_REPLACE:
		release(m);
		add(m, in);
		break;
	case FP_MERGE_PARTIAL:
		if (fp_klines_of(m) && fp_klines_of(in))
			keep_least(&fp_klines_of(m)->mixed,
				   "an input shares only some sources: its lines are not added");
		break;
	case FP_MERGE_NONE: break;
	}
}

/*
 * --- "kernel_lines" written -------------------------------------------------------------------------------------
 * {"method", "whole_guest", "kernel_release"?, "build_id"?, "runtime_text", "text_offset", "why_not"?, "mixed"?,
 *  "lost", "vmlinux"?, "tasks": [...], "pcs": [{"pc", "hits"}], "lines": [{"file", "line", "count", "function"?}]}.
 * Addresses are hex strings: a kernel address is past what every JSON tool reads as an exact number (2^53).
 */

static void hex_field(json_writer_t *w, const char *name, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	jsonw_string_field(w, name, buf);
}

static void opt_str(json_writer_t *w, const char *name, const char *s)
{
	if (s)
		jsonw_string_field(w, name, s);
}

static void write_json(json_writer_t *w, const struct footprint *fp)
{
	const struct fp_klines *k = fp_klines_of(fp);

	if (!k)
		return;
	jsonw_name(w, "kernel_lines");
	jsonw_start_object(w);
	jsonw_string_field(w, "method", fp_kline_method_name(k->method));
	jsonw_bool_field(w, "whole_guest", k->whole_guest);
	opt_str(w, "kernel_release", k->kernel_release);
	opt_str(w, "build_id", k->build_id);
	hex_field(w, "runtime_text", k->runtime_text);
	hex_field(w, "text_offset", k->text_offset);
	opt_str(w, "why_not", k->why_not);
	opt_str(w, "mixed", k->mixed);
	jsonw_u64_field(w, "lost", k->lost);
	opt_str(w, "vmlinux", k->vmlinux);
	jsonw_name(w, "tasks");
	jsonw_start_array(w);
	for (uint32_t i = 0; i < k->ntasks; i++) {
		const struct fp_kline_task *t = &k->tasks[i];

		jsonw_start_object_inline(w);
		jsonw_int_field(w, "tid", t->tid);
		jsonw_int_field(w, "tgid", t->tgid);
		opt_str(w, "comm", t->comm);
		jsonw_bool_field(w, "covered", t->covered);
		opt_str(w, "why_not", t->why_not);
		jsonw_u64_field(w, "pcs", t->pcs);
		jsonw_u64_field(w, "lost", t->lost);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_name(w, "pcs");
	jsonw_start_array(w);
	for (uint32_t i = 0; i < k->npcs; i++) {
		jsonw_start_object_inline(w);
		hex_field(w, "pc", k->pcs[i].pc);
		jsonw_u64_field(w, "hits", k->pcs[i].hits);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_name(w, "lines");
	jsonw_start_array(w);
	for (uint32_t i = 0; i < k->nlines; i++) {
		const struct fp_kline_line *l = &k->lines[i];

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "file", l->file);
		jsonw_u64_field(w, "line", l->line);
		jsonw_u64_field(w, "count", l->count);
		opt_str(w, "function", l->function);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	jsonw_end_object(w);
}

/* --- "kernel_lines" read ---------------------------------------------------------------------------------------- */

const char *fp_kline_method_name(enum fp_kline_method m)
{
	return m == FP_KLINE_GCOV ? "gcov" : "kcov";
}

/* An address: "0x" and 1 to 16 hex digits. */
static int get_addr(struct loader *ld, const char *ctx, const char *key, uint64_t *out)
{
	enum jr_event ev;
	int rc = ld_value_of(ld, ctx, key, JR_STRING, false, OPT, &ev);
	const char *s = ld->jr.text.buf;
	size_t n;

	if (rc <= 0)
		return rc;
	n = ld->jr.text.len;
	if (n < 3 || n > 18 || s[0] != '0' || s[1] != 'x' || strspn(s + 2, "0123456789abcdef") != n - 2)
		return ld_fail(ld, ctx, key, "'%.64s' is not an address (0x and lowercase hex digits)", s);
	*out = strtoull(s + 2, NULL, 16);
	return 1;
}

/* {"tid", "tgid", "comm", "covered", "why_not", "pcs", "lost"} */
static int load_task(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"tid", "tgid", "comm", "covered", "why_not", "pcs", "lost"};
	enum { TID, TGID, COMM, COVERED, WHY_NOT, PCS, LOST };
	struct fp_klines *k = arg;
	struct fp_kline_task t = {0};
	uint32_t seen = 0;
	int key, rc;

	(void)index;
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &key)) > 0) {
		switch (key) {
		case TID: rc = ld_get_int(ld, ctx, "tid", 1, INT32_MAX, &t.tid); break;
		case TGID: rc = ld_get_int(ld, ctx, "tgid", 1, INT32_MAX, &t.tgid); break;
		case COMM: rc = ld_get_name(ld, ctx, "comm", &t.comm); break;
		case COVERED: rc = ld_get_bool(ld, ctx, "covered", &t.covered); break;
		case WHY_NOT: rc = ld_get_str(ld, ctx, "why_not", &t.why_not); break;
		case PCS: rc = ld_get_count(ld, ctx, "pcs", COUNT_MAX, &t.pcs); break;
		case LOST: rc = ld_get_count(ld, ctx, "lost", COUNT_MAX, &t.lost); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			break;
	}
	if (rc >= 0)
		for (int i = TID; i <= LOST; i++)
			if (i != COMM && i != WHY_NOT && !(seen & 1u << i)) {
				rc = ld_fail(ld, ctx, names[i], "missing");
				break;
			}
	if (rc >= 0 && t.covered && t.why_not)
		rc = ld_fail(ld, ctx, "why_not", "given for a covered task");
	if (rc >= 0) {
		struct fp_kline_task *to = fp__kline_task(k, t.tid, t.tgid, NULL);

		*to = t;
		return 0;
	}
	free(t.comm);
	free(t.why_not);
	return -1;
}

/* {"pc", "hits"}, in increasing order of pc */
static int load_pc(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"pc", "hits"};
	enum { PC, HITS };
	struct fp_klines *k = arg;
	struct fp_kline_pc p = {0};
	uint32_t seen = 0;
	int key, rc;

	(void)index;
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &key)) > 0) {
		switch (key) {
		case PC: rc = get_addr(ld, ctx, "pc", &p.pc); break;
		case HITS: rc = ld_get_count(ld, ctx, "hits", COUNT_MAX, &p.hits); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	if (!(seen & 1u << PC) || !(seen & 1u << HITS))
		return ld_fail(ld, ctx, seen & 1u << PC ? "hits" : "pc", "missing");
	if (!p.hits)
		return ld_fail(ld, ctx, "hits", "0");
	if (k->npcs && p.pc <= k->pcs[k->npcs - 1].pc)
		return ld_fail(ld, ctx, "pc", "not after the one before (PCs are distinct, in increasing order)");
	if (k->npcs == UINT32_MAX)
		return ld_fail(ld, ctx, NULL, "too many PCs");
	if (!(k->npcs & (k->npcs - 1)) || !k->npcs)
		k->pcs = xrealloc(k->pcs, (k->npcs ? 2 * (size_t)k->npcs : 1) * sizeof(*k->pcs));
	k->pcs[k->npcs++] = p;
	return 0;
}

/* {"file", "line", "count", "function"}, in increasing order of (file, line) */
static int load_line(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"file", "line", "count", "function"};
	enum { FILE_, LINE, COUNT, FUNCTION };
	struct fp_klines *k = arg;
	char *file = NULL, *function = NULL;
	uint64_t line = 0, count = 0;
	uint32_t seen = 0;
	int key, rc;

	(void)index;
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &key)) > 0) {
		switch (key) {
		case FILE_: rc = ld_get_name(ld, ctx, "file", &file); break;
		case LINE: rc = ld_get_count(ld, ctx, "line", UINT32_MAX, &line); break;
		case COUNT: rc = ld_get_count(ld, ctx, "count", COUNT_MAX, &count); break;
		case FUNCTION: rc = ld_get_name(ld, ctx, "function", &function); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			break;
	}
	if (rc >= 0)
		for (int i = FILE_; i <= COUNT; i++)
			if (!(seen & 1u << i)) {
				rc = ld_fail(ld, ctx, names[i], "missing");
				break;
			}
	if (rc >= 0 && !line)
		rc = ld_fail(ld, ctx, "line", "0");
	if (rc >= 0 && k->nlines && line_cmp(file, (uint32_t)line, &k->lines[k->nlines - 1]) <= 0)
		rc = ld_fail(ld, ctx, "line", "not after the one before (lines are distinct, by file and line)");
	if (rc >= 0 && k->nlines == UINT32_MAX)
		rc = ld_fail(ld, ctx, NULL, "too many lines");
	if (rc >= 0)
		fp_kline_add_line(k, file, (uint32_t)line, count, function);
	free(file);
	free(function);
	return rc < 0 ? -1 : 0;
}

static int read_json(struct loader *ld)
{
	static const char *const names[] = {"method",	   "whole_guest", "kernel_release", "build_id", "runtime_text",
					    "text_offset", "why_not",	  "mixed",	    "lost",	"vmlinux",
					    "tasks",	   "pcs",	  "lines"};
	enum {
		METHOD,
		WHOLE_GUEST,
		RELEASE,
		BUILD_ID,
		RUNTIME_TEXT,
		TEXT_OFFSET,
		WHY_NOT,
		MIXED,
		LOST,
		VMLINUX,
		TASKS,
		PCS,
		LINES
	};
	const char *ctx = "kernel_lines";
	struct fp_klines *k;
	uint32_t seen = 0;
	uint64_t sum = 0;
	enum jr_event ev;
	int key, rc;

	rc = ld_value_of(ld, "", ctx, JR_OBJECT, false, OPT, &ev);
	if (rc <= 0)
		return rc;
	k = fp__klines(ld->fp, FP_KLINE_KCOV);
	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &key)) > 0) {
		switch (key) {
		case METHOD:
			rc = ld_value_of(ld, ctx, "method", JR_STRING, false, OPT, &ev);
			if (rc > 0 && strcmp(ld->jr.text.buf, "kcov") && strcmp(ld->jr.text.buf, "gcov"))
				rc = ld_fail(ld, ctx, "method", "'%.64s' is not kcov or gcov", ld->jr.text.buf);
			if (rc > 0)
				k->method = strcmp(ld->jr.text.buf, "gcov") ? FP_KLINE_KCOV : FP_KLINE_GCOV;
			break;
		case WHOLE_GUEST: rc = ld_get_bool(ld, ctx, "whole_guest", &k->whole_guest); break;
		case RELEASE: rc = ld_get_name(ld, ctx, "kernel_release", &k->kernel_release); break;
		case BUILD_ID:
			rc = ld_value_of(ld, ctx, "build_id", JR_STRING, false, OPT, &ev);
			if (rc > 0 && (!ld->jr.text.len || ld->jr.text.len > 128 || ld->jr.text.len % 2 ||
				       strspn(ld->jr.text.buf, "0123456789abcdef") != ld->jr.text.len))
				rc = ld_fail(ld, ctx, "build_id", "'%.64s' is not a build id (lowercase hex digits)",
					     ld->jr.text.buf);
			if (rc > 0)
				k->build_id = xstrdup(ld->jr.text.buf);
			break;
		case RUNTIME_TEXT: rc = get_addr(ld, ctx, "runtime_text", &k->runtime_text); break;
		case TEXT_OFFSET: rc = get_addr(ld, ctx, "text_offset", &k->text_offset); break;
		case WHY_NOT: rc = ld_get_str(ld, ctx, "why_not", &k->why_not); break;
		case MIXED: rc = ld_get_str(ld, ctx, "mixed", &k->mixed); break;
		case LOST: rc = ld_get_count(ld, ctx, "lost", COUNT_MAX, &k->lost); break;
		case VMLINUX: rc = ld_get_name(ld, ctx, "vmlinux", &k->vmlinux); break;
		case TASKS: rc = ld_objects(ld, ctx, "tasks", load_task, k); break;
		case PCS: rc = ld_objects(ld, ctx, "pcs", load_pc, k); break;
		case LINES: rc = ld_objects(ld, ctx, "lines", load_line, k); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return -1;
	for (int i = METHOD; i <= LINES; i++)
		if ((i == METHOD || i == WHOLE_GUEST || i == LOST || i == TASKS || i == PCS || i == LINES) &&
		    !(seen & 1u << i))
			return ld_fail(ld, ctx, names[i], "missing");
	if (k->method == FP_KLINE_GCOV && !k->whole_guest)
		return ld_fail(ld, ctx, "whole_guest", "false for gcov, whose counts are the whole guest's");
	for (uint32_t i = 0; i < k->ntasks; i++)
		if (__builtin_add_overflow(sum, k->tasks[i].lost, &sum))
			break;
	if (sum > k->lost)
		return ld_fail(ld, ctx, "lost", "less than its tasks' lost PCs");
	return 0;
}

/* The kind's parts in the stages above the model (declared there; an incomplete type is all a row needs). */
extern const struct trace_recorder trace_recorder_kcov; /* trace/kcov.c */
extern const struct kind_annotator klmap_annotator;	/* kmap/klmap.c */
extern const struct kind_report klines_report;		/* report/kline.c */

const struct fp_kind fp_kind_klines = {
    .member = "kernel_lines",
    .recorder = &trace_recorder_kcov,
    .annotator = &klmap_annotator,
    .report = &klines_report,
    .release = release,
    .merge = merge,
    .write_json = write_json,
    .read_json = read_json,
};
