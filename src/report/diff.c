// SPDX-License-Identifier: GPL-2.0
/* kfootprint diff: the comparison of two footprints (see diff.h); the renderers are in diff_render.c. */
#include "report/diff.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/csite.h"
#include "footprint/kline.h"
#include "kmap/annotate.h"
#include "kmap/kneeds.h"
#include "report/csite.h"
#include "report/report_util.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct diff_entry {
	char *key;
	const char *abi;
	uint64_t n;
};

struct diff_list {
	struct diff_entry *v;
	size_t n, cap;
};

void diff_list_add(struct diff_list *l, const char *key, const char *abi, uint64_t n)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = (struct diff_entry){xstrdup(key), abi, n};
}

/* --- the kinds ---------------------------------------------------------------------------------------- */

static void collect_syscalls(const struct footprint *fp, struct diff_list *out)
{
	for (uint32_t i = 0; i < fp->syscalls.cap; i++) {
		const struct fp_sysstat *s = fp->syscalls.slots[i];

		if (s)
			diff_list_add(out, s->name, kf_abi_name(s->abi), s->calls);
	}
}

static void collect_errnos(const struct footprint *fp, struct diff_list *out)
{
	for (uint32_t i = 0; i < fp->syscalls.cap; i++) {
		const struct fp_sysstat *s = fp->syscalls.slots[i];

		for (uint32_t e = 0; s && e < s->nerrnos; e++) {
			struct strbuf sb;

			strbuf_init(&sb);
			strbuf_addf(&sb, "%s %s", s->name, fp_errno_name(s->errnos[e].err));
			diff_list_add(out, sb.buf, kf_abi_name(s->abi), s->errnos[e].count);
			strbuf_release(&sb);
		}
	}
}

/*
 * The options some observed syscall needs on, from the kernel maps the annotate stage attached; counted in
 * syscalls that need it. An option only needed off (an #else branch) is no need of the workload.
 */
static void collect_options(const struct footprint *fp, struct diff_list *out)
{
	const struct fp_kernel_map *const *maps;
	size_t n = annotate_maps(fp, &maps);

	for (size_t m = 0; m < n; m++)
		for (size_t o = 0; o < maps[m]->needs->n; o++)
			if (maps[m]->needs->v[o].nneeded)
				diff_list_add(out, maps[m]->needs->v[o].name, NULL, maps[m]->needs->v[o].nneeded);
}

/* A process that forked without an exec runs its parent's program: counted under the nearest exe. */
static void collect_processes(const struct footprint *fp, struct diff_list *out)
{
	/* [i]: the index + 1 of the nearest process with an exe from procs[i] up; parents come first: one pass */
	size_t *parents = fp__parents(fp), *holder = xcalloc(fp->nprocs + 1, sizeof(*holder));

	for (size_t i = 0; i < fp->nprocs; i++)
		holder[i] = fp->procs[i]->exe ? i + 1 : parents[i] ? holder[parents[i] - 1] : 0;
	for (size_t i = 0; i < fp->nprocs; i++) {
		const struct fp_proc *p = holder[i] ? fp->procs[holder[i] - 1] : NULL;
		struct strbuf sb;

		strbuf_init(&sb);
		if (p && p->exe) {
			rpt_add_display(&sb, p->exe);
		} else {
			strbuf_addch(&sb, '[');
			rpt_add_display(&sb, fp->procs[i]->comm);
			strbuf_addch(&sb, ']');
		}
		diff_list_add(out, sb.buf, NULL, 1);
		strbuf_release(&sb);
	}
	free(holder);
	free(parents);
}

/*
 * Kernel lines (record --kernel-lines): each covered line once, so that the diff lists the lines newly covered and
 * no longer covered (keys "file:line", grouped by file), and each file with its count of covered lines.
 */
static void collect_klines(const struct footprint *fp, struct diff_list *out)
{
	const struct fp_klines *k = fp_klines_of(fp);
	struct strbuf sb = STRBUF_INIT;

	for (uint32_t i = 0; k && i < k->nlines; i++)
		if (k->lines[i].count) { /* gcov's 0: compiled, not run */
			strbuf_reset(&sb);
			strbuf_addf(&sb, "%s:%" PRIu32, k->lines[i].file, k->lines[i].line);
			diff_list_add(out, sb.buf, NULL, 1);
		}
	strbuf_release(&sb);
}

static void collect_kline_files(const struct footprint *fp, struct diff_list *out)
{
	const struct fp_klines *k = fp_klines_of(fp);

	for (uint32_t i = 0; k && i < k->nlines; i++)
		if (k->lines[i].count)
			diff_list_add(out, k->lines[i].file, NULL, 1);
}

/* A call-site key as one string: "eventfd2 EINVAL [fd pipe]". */
static void add_csite_key(struct strbuf *sb, const struct fp_csite_key *k)
{
	strbuf_addstr(sb, k->syscall);
	if (k->err)
		strbuf_addf(sb, " %s", fp_errno_name(k->err));
	if (k->reached)
		strbuf_addf(sb, " [%s]", k->reached);
}

static bool has_csites(const struct footprint *fp)
{
	return fp_csites_of(fp) != NULL;
}

static void collect_csite_keys(const struct footprint *fp, struct diff_list *out)
{
	const struct fp_csites *c = fp_csites_of(fp);
	struct strbuf sb = STRBUF_INIT;

	for (uint32_t i = 0; c && i < c->nkeys; i++) {
		strbuf_reset(&sb);
		add_csite_key(&sb, &c->keys[i]);
		diff_list_add(out, sb.buf, NULL, c->keys[i].calls);
	}
	strbuf_release(&sb);
}

/*
 * A stack by its frames' modules' file names and functions (offsets only where no symbol covers a frame): the same
 * call site of a rebuilt binary compares equal when it keeps its symbols.
 */
static void collect_csites(const struct footprint *fp, struct diff_list *out)
{
	const struct fp_csites *c = fp_csites_of(fp);
	struct strbuf sb = STRBUF_INIT;

	for (uint32_t i = 0; c && i < c->nkeys; i++)
		for (uint32_t j = 0; j < c->keys[i].nstacks; j++) {
			strbuf_reset(&sb);
			add_csite_key(&sb, &c->keys[i]);
			strbuf_addstr(&sb, ": ");
			csite_stack_line(&sb, &c->keys[i].stacks[j], FP_CSITE_DEPTH_MAX);
			diff_list_add(out, sb.buf, NULL, c->keys[i].stacks[j].calls);
		}
	strbuf_release(&sb);
}

static const struct diff_kind kind_syscall = {
    .name = "syscall",
    .title = "syscalls",
    .unit = "calls",
    .need = true,
    .count_need = true,
    .collect = collect_syscalls,
};
static const struct diff_kind kind_errno = {
    .name = "errno",
    .title = "errnos",
    .unit = "errors",
    .need = false,
    .count_need = true,
    .collect = collect_errnos,
};
static const struct diff_kind kind_option = {
    .name = "option",
    .title = "kernel options",
    .unit = "syscalls",
    .need = true,
    .count_need = false,
    .collect = collect_options,
};
static const struct diff_kind kind_process = {
    .name = "process",
    .title = "processes",
    .unit = "processes",
    .need = false,
    .count_need = false,
    .collect = collect_processes,
};
static const struct diff_kind kind_csite_key = {
    .name = "call_site_key",
    .title = "call-site keys (syscall, errno, what it reached)",
    .unit = "calls",
    .need = false,
    .count_need = false,
    .collect = collect_csite_keys,
    .present = has_csites,
};
static const struct diff_kind kind_csite = {
    .name = "call_site",
    .title = "call sites (key: stack, innermost frame first)",
    .unit = "calls",
    .need = false,
    .count_need = false,
    .collect = collect_csites,
    .present = has_csites,
};

static bool has_klines(const struct footprint *fp)
{
	return fp_klines_of(fp) != NULL;
}

static const struct diff_kind kind_kline_file = {
    .name = "kernel_line_file",
    .title = "files of kernel lines",
    .unit = "covered lines",
    .collect = collect_kline_files,
    .present = has_klines,
};
static const struct diff_kind kind_kline = {
    .name = "kernel_line",
    .title = "kernel lines",
    .unit = "lines",
    .collect = collect_klines,
    .present = has_klines,
};

const struct diff_kind *const diff_kinds[] = {
    &kind_syscall, &kind_errno,	     &kind_option, &kind_process, &kind_csite_key,
    &kind_csite,   &kind_kline_file, &kind_kline,  NULL,
};

/* --- the comparison ----------------------------------------------------------------------------------- */

static int abi_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int entry_cmp(const void *a, const void *b)
{
	const struct diff_entry *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : abi_cmp(x->abi, y->abi);
}

/* Sorted, each (key, ABI) once with its counts summed. */
static void list_normalize(struct diff_list *l)
{
	size_t w = 0;

	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), entry_cmp);
	for (size_t r = 0; r < l->n; r++) {
		if (w && !entry_cmp(&l->v[w - 1], &l->v[r])) {
			l->v[w - 1].n += l->v[r].n;
			free(l->v[r].key);
			continue;
		}
		l->v[w++] = l->v[r];
	}
	l->n = w;
}

static void list_release(struct diff_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].key);
	free(l->v);
}

static bool beyond(uint64_t small, uint64_t large, double ratio, uint64_t min)
{
	return large - small >= min && (double)large >= ratio * (double)small;
}

static void add_item(struct diff *d, size_t *cap, const struct diff_kind *k, const struct diff_entry *e, uint64_t old,
		     uint64_t new, enum diff_change c)
{
	struct diff_item *it;
	bool need = false;

	if (c == DIFF_MORE || c == DIFF_FEWER) {
		uint64_t lo = c == DIFF_MORE ? old : new, hi = c == DIFF_MORE ? new : old;

		if (c == DIFF_MORE && k->count_need && d->opts.fail_ratio > 0)
			need = beyond(lo, hi, d->opts.fail_ratio, d->opts.min_calls);
		if (!need && !d->opts.all && !beyond(lo, hi, d->opts.calls_ratio, d->opts.min_calls))
			return;
	}
	if (c == DIFF_ADDED)
		need = k->need;
	if (d->nitems == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		d->items = xrealloc(d->items, *cap * sizeof(*d->items));
	}
	it = &d->items[d->nitems++];
	*it = (struct diff_item){k, xstrdup(e->key), e->abi, old, new, c, need};
	d->nadded += c == DIFF_ADDED;
	d->nremoved += c == DIFF_REMOVED;
	d->nchanged += c == DIFF_MORE || c == DIFF_FEWER;
	d->nneeds += need;
}

/* A merge join of the two sorted lists of one kind. */
static void compare_kind(struct diff *d, size_t *cap, const struct diff_kind *k, const struct footprint *old,
			 const struct footprint *new)
{
	struct diff_list a = {0}, b = {0};
	size_t i = 0, j = 0;

	if (k->present && (!k->present(old) || !k->present(new)))
		return;
	k->collect(old, &a);
	k->collect(new, &b);
	list_normalize(&a);
	list_normalize(&b);
	while (i < a.n || j < b.n) {
		int c = i == a.n ? 1 : j == b.n ? -1 : entry_cmp(&a.v[i], &b.v[j]);

		if (c < 0) {
			add_item(d, cap, k, &a.v[i], a.v[i].n, 0, DIFF_REMOVED);
			i++;
		} else if (c > 0) {
			add_item(d, cap, k, &b.v[j], 0, b.v[j].n, DIFF_ADDED);
			j++;
		} else {
			if (a.v[i].n != b.v[j].n)
				add_item(d, cap, k, &a.v[i], a.v[i].n, b.v[j].n,
					 b.v[j].n > a.v[i].n ? DIFF_MORE : DIFF_FEWER);
			i++;
			j++;
		}
	}
	list_release(&a);
	list_release(&b);
}

static void side_init(struct diff_side *s, const struct footprint *fp, const char *file)
{
	struct strbuf sb;

	strbuf_init(&sb);
	rpt_add_workload(&sb, fp);
	s->file = file;
	s->workload = strbuf_detach(&sb);
	s->label = fp->label ? xstrdup(fp->label) : NULL;
	s->calls = fp__total_calls(fp);
	s->procs = fp->nprocs;
}

struct diff *diff_build(const struct footprint *old, const char *old_file, const struct footprint *new,
			const char *new_file, const struct diff_opts *o)
{
	struct diff *d = xcalloc(1, sizeof(*d));
	size_t cap = 0;

	d->opts = *o;
	side_init(&d->old, old, old_file);
	side_init(&d->new, new, new_file);
	for (size_t k = 0; diff_kinds[k]; k++)
		compare_kind(d, &cap, diff_kinds[k], old, new);
	return d;
}

void diff_free(struct diff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nitems; i++)
		free(d->items[i].key);
	free(d->items);
	free(d->old.workload);
	free(d->new.workload);
	free(d->old.label);
	free(d->new.label);
	free(d);
}

const char *diff_change_name(enum diff_change c)
{
	static const char *const names[] = {"same", "added", "removed", "more", "fewer"};

	return names[c];
}
