// SPDX-License-Identifier: GPL-2.0
/*
 * The default report, a first screen that answers: the header (whether the footprint is complete comes first)
 * with a summary (calls, errors, time, processes, top classes), then one syscall table (calls, errors, % time,
 * seconds, µs/call, class) sorted as -S says, then a table per process when there are few of them (as perf
 * trace -s does) or -P asks, then what the calls reached (fd kinds, socket families, ioctl commands, ...), then the
 * process tree, then the errors section.
 *
 * Time columns appear only when the footprint has times: a bpf recording with --no-time has none, and a 0 there
 * would read as "fast". --by-class puts the seed guide's tables (one per subsystem class, System Call | # calls |
 * errors | Linux Subsystem | System Call (API)) in place of the one syscall table; -F rst is that layout too.
 *
 * The reached section is text_reach.c, each kind's its own (kind_report.h, after the errors), the aligned tables
 * text_table.c (their interface: text_internal.h); this file holds the report's order and the rest.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/kind_report.h"
#include "report/report.h"
#include "report/report_util.h"
#include "report/text_internal.h"
#include "util/error.h"
#include "util/xalloc.h"

enum sort_key { SORT_CALLS, SORT_TIME, SORT_ERRORS, SORT_NAME };

static const char *const sort_names[] = {"calls", "time", "errors", "name"};

#define NSORT (sizeof(sort_names) / sizeof(sort_names[0]))

const char *text_sort_names(void)
{
	return "calls, time, errors, name";
}

int text_opts_check(const struct text_opts *o, const char *format)
{
	size_t i;

	if (o->sort) {
		for (i = 0; i < NSORT && strcmp(o->sort, sort_names[i]); i++)
			;
		if (i == NSORT)
			return error("unknown sort key '%s': expected one of %s", o->sort, text_sort_names());
	}
	if ((o->sort || o->per_process || o->by_class) && strcmp(format, "text"))
		return error("-S, -P and --by-class shape the text report, not -F %s", format);
	return 0;
}

/* A footprint has times unless none of its calls has any (bpf --no-time, or a file written without them). */
static bool has_time(const struct footprint *fp)
{
	for (uint32_t i = 0; i < fp->syscalls.cap; i++)
		if (fp->syscalls.slots[i] && fp->syscalls.slots[i]->time_ns)
			return true;
	return false;
}

static uint64_t total_ns(const struct fp_sctab *t)
{
	uint64_t ns = 0;

	for (uint32_t i = 0; i < t->cap; i++)
		if (t->slots[i])
			ns += t->slots[i]->time_ns;
	return ns;
}

/* Ties fall back to calls, then name and ABI, so that every order is the same on every run. */
static int cmp_name(const struct fp_sysstat *x, const struct fp_sysstat *y)
{
	int c = strcmp(x->name, y->name);

	return c ? c : x->abi < y->abi ? -1 : x->abi > y->abi;
}

int text_cmp_calls(const void *a, const void *b)
{
	const struct fp_sysstat *x = *(const struct fp_sysstat *const *)a;
	const struct fp_sysstat *y = *(const struct fp_sysstat *const *)b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return cmp_name(x, y);
}

static int cmp_time(const void *a, const void *b)
{
	const struct fp_sysstat *x = *(const struct fp_sysstat *const *)a;
	const struct fp_sysstat *y = *(const struct fp_sysstat *const *)b;

	if (x->time_ns != y->time_ns)
		return x->time_ns > y->time_ns ? -1 : 1;
	return text_cmp_calls(a, b);
}

static int cmp_errors(const void *a, const void *b)
{
	const struct fp_sysstat *x = *(const struct fp_sysstat *const *)a;
	const struct fp_sysstat *y = *(const struct fp_sysstat *const *)b;

	if (x->errors != y->errors)
		return x->errors > y->errors ? -1 : 1;
	return text_cmp_calls(a, b);
}

static int cmp_by_name(const void *a, const void *b)
{
	return cmp_name(*(const struct fp_sysstat *const *)a, *(const struct fp_sysstat *const *)b);
}

static int (*const sort_cmp[])(const void *, const void *) = {text_cmp_calls, cmp_time, cmp_errors, cmp_by_name};

/* What the report is sorted by: -S, else time as strace -c sorts, or calls when there is no time to sort by. */
static enum sort_key sort_of(const struct text_opts *o, bool timed)
{
	for (size_t i = 0; o->sort && i < NSORT; i++)
		if (!strcmp(o->sort, sort_names[i]))
			return i == SORT_TIME && !timed ? SORT_CALLS : (enum sort_key)i;
	return timed ? SORT_TIME : SORT_CALLS;
}

/*
 * The syscalls of t as a table, sorted by key: syscall, calls, errors (blank when none, as strace -c leaves
 * them), then % time, seconds and µs/call when timed, then the class when with_class.
 */
static void syscall_table(struct strbuf *sb, const char *indent, const struct fp_sctab *t, enum sort_key key,
			  bool timed, bool with_class)
{
	struct fp_sysstat **v = fp_sctab_sorted(t, sort_cmp[key]);
	uint64_t all_ns = total_ns(t);
	struct text_table tab = {0};
	char nbuf[96];

	tab.heads[tab.ncols] = "syscall";
	tab.right[tab.ncols++] = false;
	tab.heads[tab.ncols] = "calls";
	tab.right[tab.ncols++] = true;
	tab.heads[tab.ncols] = "errors";
	tab.right[tab.ncols++] = true;
	if (timed) {
		tab.heads[tab.ncols] = "% time";
		tab.right[tab.ncols++] = true;
		tab.heads[tab.ncols] = "seconds";
		tab.right[tab.ncols++] = true;
		tab.heads[tab.ncols] = "µs/call";
		tab.right[tab.ncols++] = true;
	}
	if (with_class) {
		tab.heads[tab.ncols] = "class";
		tab.right[tab.ncols++] = false;
	}
	for (struct fp_sysstat **sp = v; *sp; sp++) {
		const struct fp_sysstat *s = *sp;
		char *c[TEXT_MAXCOLS];
		size_t k = 0;
		struct strbuf d = STRBUF_INIT;

		rpt_add_display(&d, rpt_sc_name(s, nbuf, sizeof(nbuf)));
		c[k++] = strbuf_detach(&d);
		c[k++] = xasprintf("%" PRIu64, s->calls);
		c[k++] = s->errors ? xasprintf("%" PRIu64, s->errors) : xstrdup("");
		if (timed) {
			c[k++] = xasprintf("%.2f", all_ns ? 100.0 * (double)s->time_ns / (double)all_ns : 0.0);
			c[k++] = xasprintf("%.6f", (double)s->time_ns / 1e9);
			c[k++] = xasprintf("%.1f", s->calls ? (double)s->time_ns / 1e3 / (double)s->calls : 0.0);
		}
		if (with_class) {
			rpt_add_display(&d, fp_sysstat_class(s));
			c[k++] = strbuf_detach(&d);
		}
		text_table_add(&tab, c);
	}
	free(v);
	text_table_print(sb, indent, &tab);
}

/* A merged footprint's sources, a line each: "  1 (label) ls / -- ptrace, 6.1.0, exit code 0". */
static void merged_sources(struct strbuf *sb, const struct footprint *fp)
{
	strbuf_addf(sb, "merged:       %u source%s\n", fp->nsources, fp->nsources == 1 ? "" : "s");
	for (uint32_t i = 0; i < fp->nsources; i++) {
		const struct fp_source *s = &fp->sources[i];

		strbuf_addf(sb, "  %u ", i + 1);
		if (s->label) {
			strbuf_addch(sb, '(');
			rpt_add_display(sb, s->label);
			strbuf_addstr(sb, ") ");
		}
		if (s->argv)
			rpt_add_argv(sb, s->argv);
		else
			strbuf_addstr(sb, "attached");
		strbuf_addstr(sb, " -- ");
		rpt_add_display(sb, s->backend ? s->backend : "?");
		strbuf_addstr(sb, ", ");
		rpt_add_display(sb, s->host_kernel ? s->host_kernel : "?");
		strbuf_addstr(sb, ", exit ");
		rpt_add_exit(sb, &s->exit);
		strbuf_addstr(sb, s->complete ? "\n" : ", incomplete\n");
	}
}

struct kill_row {
	const struct fp_sysstat *call; /* the first process's entry: names the call */
	const struct fp_proc *first;
	uint64_t tasks;
};

/*
 * One line per call that a seccomp filter killed tasks in (SECCOMP_RET_KILL_*): what the policy hit, how
 * often, and the first process it hit.
 */
static void seccomp_kills(struct strbuf *sb, const struct footprint *fp)
{
	struct kill_row *rows = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < fp->nprocs; i++) {
		const struct fp_proc *p = fp->procs[i];

		for (uint32_t j = 0; j < p->seccomp_kills.cap; j++) {
			const struct fp_sysstat *k = p->seccomp_kills.slots[j];
			size_t r;

			if (!k)
				continue;
			for (r = 0; r < n && (rows[r].call->abi != k->abi || rows[r].call->nr != k->nr); r++)
				;
			if (r == n) {
				XGROW(rows, cap, n + 1);
				rows[n++] = (struct kill_row){k, p, 0};
			}
			rows[r].tasks += k->calls;
		}
	}
	for (size_t r = 0; r < n; r++) {
		char buf[96];

		strbuf_addf(sb, "seccomp kill: %s, %" PRIu64 " task%s (first: pid %d ",
			    rpt_sc_name(rows[r].call, buf, sizeof(buf)), rows[r].tasks, rows[r].tasks == 1 ? "" : "s",
			    (int)rows[r].first->pid);
		rpt_add_display(sb, rows[r].first->comm);
		strbuf_addstr(sb, ")\n");
	}
	free(rows);
}

static void header(struct strbuf *sb, const struct footprint *fp, bool timed, const struct kmap_view *view)
{
	size_t nsc = fp->syscalls.count;
	uint64_t calls = fp__total_calls(fp), errors = fp__total_errors(fp);

	if (fp->complete) {
		strbuf_addstr(sb, "footprint:    complete\n");
	} else {
		strbuf_addstr(sb, "footprint:    ");
		rpt_add_incomplete(sb, fp);
		strbuf_addch(sb, '\n');
	}
	if (fp->nsources) {
		merged_sources(sb, fp);
	} else {
		strbuf_addstr(sb, fp->argv ? "command:      " : "attached:     ");
		rpt_add_workload(sb, fp);
		strbuf_addch(sb, '\n');
	}
	if (fp->label) {
		strbuf_addstr(sb, "label:        ");
		rpt_add_display(sb, fp->label);
		strbuf_addch(sb, '\n');
	}
	if (fp->user) {
		strbuf_addstr(sb, "user:         ");
		rpt_add_display(sb, fp->user);
		strbuf_addch(sb, '\n');
	}
	strbuf_addstr(sb, "backend:      ");
	rpt_add_display(sb, fp->backend ? fp->backend : "?");
	strbuf_addstr(sb, "\nstarted at:   ");
	rpt_add_display(sb, fp->started_at ? fp->started_at : "?");
	strbuf_addf(sb, "\nelapsed:      %.3fs", fp->elapsed_s);
	if (!fp->nsources) { /* each source has its own */
		strbuf_addstr(sb, "\nexit:         ");
		rpt_add_exit(sb, &fp->exit);
	}
	strbuf_addch(sb, '\n');
	seccomp_kills(sb, fp);
	text_summary_at_attach(sb, fp);
	strbuf_addf(sb, "lost events:  %" PRIu64 "\n", fp->lost_events);
	strbuf_addf(sb, "summary:      %" PRIu64 " %s, %" PRIu64 " %s", calls, text_plural(calls, "call", "calls"),
		    errors, text_plural(errors, "error", "errors"));
	if (calls)
		strbuf_addf(sb, " (%.1f%%)", 100.0 * (double)errors / (double)calls);
	if (timed)
		strbuf_addf(sb, ", %.6fs in system calls", (double)total_ns(&fp->syscalls) / 1e9);
	strbuf_addf(sb, ", %zu %s, %zu %s\n", nsc, text_plural(nsc, "syscall", "syscalls"), fp->nprocs,
		    text_plural(fp->nprocs, "process", "processes"));
	text_summary_classes(sb, fp);
	text_summary_kernel(sb, fp, view);
}

/* --by-class: the seed guide's tables, one per class in its order, columns aligned across all of them. */
static const char *const class_heads[5] = {"System Call", "# calls", "errors", "Linux Subsystem", "System Call (API)"};

struct cells {
	char name[96], calls[24], errors[24], api[96], klass[128];
};

static void cells_of(const struct fp_sysstat *s, struct cells *c)
{
	char nbuf[96], abuf[96];
	struct strbuf k = STRBUF_INIT;

	snprintf(c->name, sizeof(c->name), "%s", rpt_sc_name(s, nbuf, sizeof(nbuf)));
	snprintf(c->calls, sizeof(c->calls), "%" PRIu64, s->calls);
	snprintf(c->errors, sizeof(c->errors), "%" PRIu64, s->errors);
	snprintf(c->api, sizeof(c->api), "%s()", fp_sysstat_api(s, abuf, sizeof(abuf)));
	rpt_add_display(&k, fp_sysstat_class(s));
	snprintf(c->klass, sizeof(c->klass), "%s", k.buf);
	strbuf_release(&k);
}

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

static void class_row(struct strbuf *sb, const size_t w[5], const char *const c[5])
{
	strbuf_addf(sb, "%-*s  %*s  %*s  %-*s  %s\n", (int)w[0], c[0], (int)w[1], c[1], (int)w[2], c[2], (int)w[3],
		    c[3], c[4]);
}

static void class_tables(struct strbuf *sb, const struct footprint *fp)
{
	size_t ng, w[5];
	struct rpt_group *g = rpt_groups(fp, &ng);
	struct cells c;

	for (int i = 0; i < 5; i++)
		w[i] = strlen(class_heads[i]);
	for (size_t i = 0; i < ng; i++) {
		for (size_t j = 0; j < g[i].n; j++) {
			cells_of(g[i].rows[j], &c);
			w[0] = max_sz(w[0], strlen(c.name));
			w[1] = max_sz(w[1], strlen(c.calls));
			w[2] = max_sz(w[2], strlen(c.errors));
			w[3] = max_sz(w[3], strlen(c.klass));
		}
	}
	for (size_t i = 0; i < ng; i++) {
		const char *dash[5];
		char lines[5][128];

		strbuf_addch(sb, '\n');
		rpt_add_display(sb, g[i].klass);
		strbuf_addch(sb, '\n');
		class_row(sb, w, class_heads);
		for (int k = 0; k < 5; k++) {
			size_t n = k < 4 ? w[k] : strlen(class_heads[4]);

			n = n < sizeof(lines[k]) - 1 ? n : sizeof(lines[k]) - 1;
			memset(lines[k], '-', n);
			lines[k][n] = '\0';
			dash[k] = lines[k];
		}
		class_row(sb, w, dash);
		for (size_t j = 0; j < g[i].n; j++) {
			cells_of(g[i].rows[j], &c);
			class_row(sb, w, (const char *const[5]){c.name, c.calls, c.errors, c.klass, c.api});
		}
	}
	rpt_groups_free(g, ng);
}

/*
 * A table per process, in order of appearance, under "pid 101 ls: 21 calls, 4 errors, 0.011000s", each written
 * out as it is made: with -P, thousands of processes would otherwise be held in memory at once.
 */
static int process_tables(struct strbuf *sb, const struct footprint *fp, enum sort_key key, bool timed, FILE *out)
{
	strbuf_addstr(sb, "\nper process\n");
	for (size_t i = 0; i < fp->nprocs; i++) {
		const struct fp_proc *p = fp->procs[i];
		uint64_t calls = 0, errors = 0;

		for (uint32_t j = 0; j < p->syscalls.cap; j++) {
			if (p->syscalls.slots[j]) {
				calls += p->syscalls.slots[j]->calls;
				errors += p->syscalls.slots[j]->errors;
			}
		}
		strbuf_addch(sb, '\n');
		if (fp->nsources)
			strbuf_addf(sb, "source %u, ", p->source + 1);
		strbuf_addf(sb, "pid %d ", (int)p->pid);
		rpt_add_display(sb, *p->comm ? p->comm : "?");
		strbuf_addf(sb, ": %" PRIu64 " %s, %" PRIu64 " %s", calls, text_plural(calls, "call", "calls"), errors,
			    text_plural(errors, "error", "errors"));
		if (timed)
			strbuf_addf(sb, ", %.6fs in system calls", (double)total_ns(&p->syscalls) / 1e9);
		strbuf_addch(sb, '\n');
		if (p->syscalls.count)
			syscall_table(sb, "  ", &p->syscalls, key, timed, false);
		if (rpt_flush(sb, out) < 0)
			return -1;
	}
	return 0;
}

/* How many processes and path groups one line of the errors section names; the rest is counted. */
#define ERR_PROCS 4
#define ERR_PATHS 8

/* A group of failed paths: one path, or those of one directory as "dir/prefix*" (prefix: their common start). */
struct path_group {
	char *name;
	uint64_t count;
};

static int cmp_item_count(const void *a, const void *b)
{
	const struct fp_errsrc_item *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_item_name(const void *a, const void *b)
{
	return strcmp(((const struct fp_errsrc_item *)a)->name, ((const struct fp_errsrc_item *)b)->name);
}

static size_t dir_len(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? (size_t)(slash - path) + 1 : 0;
}

/*
 * Paths of one directory become one group with a glob tail: a loader's search for 13 locale files is
 * "/usr/lib/locale/C.UTF-8/LC_* (13)", not 13 lines. Returns the groups, most failures first; *n their number.
 */
static struct fp_errsrc_item *path_groups(const struct fp_errsrc *e, size_t *n)
{
	struct fp_errsrc_item *v = xcalloc(e->npaths + 1, sizeof(*v)), *g = xcalloc(e->npaths + 1, sizeof(*g));
	size_t ng = 0;

	memcpy(v, e->paths, e->npaths * sizeof(*v));
	qsort(v, e->npaths, sizeof(*v), cmp_item_name);
	for (size_t i = 0; i < e->npaths;) {
		size_t d = dir_len(v[i].name), j = i + 1, common = SIZE_MAX;
		uint64_t count = v[i].count;

		while (j < e->npaths && dir_len(v[j].name) == d && !strncmp(v[i].name, v[j].name, d)) {
			size_t k = d;

			while (v[i].name[k] && v[i].name[k] == v[j].name[k])
				k++;
			common = k < common ? k : common;
			count += v[j].count;
			j++;
		}
		if (j == i + 1)
			g[ng++] = (struct fp_errsrc_item){xstrdup(v[i].name), count};
		else
			g[ng++] = (struct fp_errsrc_item){xasprintf("%.*s*", (int)common, v[i].name), count};
		i = j;
	}
	free(v);
	qsort(g, ng, sizeof(*g), cmp_item_count);
	*n = ng;
	return g;
}

static void errsrc_line(struct strbuf *sb, const struct fp_sysstat *s, int err, uint64_t count,
			const struct fp_errsrc *e)
{
	char buf[64];

	strbuf_addf(sb, "  %s %s %" PRIu64, rpt_sc_name(s, buf, sizeof(buf)), fp_errno_name(err), count);
	if (!e) {
		strbuf_addch(sb, '\n');
		return;
	}
	struct fp_errsrc_item *procs = xcalloc(e->nprocs + 1, sizeof(*procs));
	uint64_t rest = e->procs_other;

	memcpy(procs, e->procs, e->nprocs * sizeof(*procs));
	qsort(procs, e->nprocs, sizeof(*procs), cmp_item_count);
	strbuf_addstr(sb, ": ");
	for (uint32_t i = 0; i < e->nprocs; i++) {
		if (i >= ERR_PROCS) {
			rest += procs[i].count;
			continue;
		}
		strbuf_addstr(sb, i ? ", " : "");
		rpt_add_display(sb, procs[i].name);
		strbuf_addf(sb, " %" PRIu64, procs[i].count);
	}
	if (rest)
		strbuf_addf(sb, ", others %" PRIu64, rest);
	free(procs);
	if (e->npaths || e->paths_other) {
		size_t ng;
		struct fp_errsrc_item *g = path_groups(e, &ng);
		uint64_t more = e->paths_other;
		size_t nmore = 0;

		strbuf_addstr(sb, " — ");
		for (size_t i = 0; i < ng; i++) {
			if (i >= ERR_PATHS) {
				more += g[i].count;
				nmore++;
			} else {
				strbuf_addstr(sb, i ? ", " : "");
				rpt_add_display(sb, g[i].name);
				strbuf_addf(sb, " (%" PRIu64 ")", g[i].count);
			}
			free(g[i].name);
		}
		free(g);
		if (more)
			strbuf_addf(sb, "%s%s paths (%" PRIu64 ")", ng ? ", " : "", nmore || !ng ? "more" : "other",
				    more);
	}
	strbuf_addch(sb, '\n');
}

/*
 * The errors section: per syscall and errno (most errors first), which processes failed and, for calls that take
 * a path, on which paths. Nothing at all when nothing failed.
 */
static void errors_section(struct strbuf *sb, const struct footprint *fp)
{
	struct fp_sysstat **v;

	if (!fp__total_errors(fp))
		return;
	v = fp_sctab_sorted(&fp->syscalls, cmp_errors);
	strbuf_addstr(sb, "\nerrors, by system call and errno: processes — paths\n");
	if (!fp->error_sources)
		strbuf_addf(sb, "  (processes and paths were not recorded%s%s%s)\n", fp->backend ? " by the " : "",
			    fp->backend ? fp->backend : "", fp->backend ? " backend" : "");
	for (struct fp_sysstat **sp = v; *sp && (*sp)->errors; sp++) {
		const struct fp_sysstat *s = *sp;

		for (uint32_t i = 0; i < s->nerrnos; i++) {
			const struct fp_errsrc *e = NULL;

			for (uint32_t j = 0; j < s->nerrsrc; j++)
				if (s->errsrc[j].err == s->errnos[i].err)
					e = &s->errsrc[j];
			errsrc_line(sb, s, s->errnos[i].err, s->errnos[i].count, e);
		}
	}
	free(v);
}

int text_render(const struct footprint *fp, const struct text_opts *o, FILE *out)
{
	static const struct text_opts defaults;
	struct strbuf sb = STRBUF_INIT;
	bool timed = has_time(fp);
	enum sort_key key;
	int ret;

	o = o ? o : &defaults;
	key = sort_of(o, timed);
	header(&sb, fp, timed, o->view);
	if (!fp->syscalls.count) {
		strbuf_addstr(&sb, "\nno system calls recorded\n");
	} else if (o->by_class) {
		class_tables(&sb, fp);
	} else {
		strbuf_addf(&sb, "\nsystem calls, by %s\n", sort_names[key]);
		syscall_table(&sb, "", &fp->syscalls, key, timed, true);
	}
	text_reached_section(&sb, fp);
	ret = rpt_flush(&sb, out);
	if (!ret && fp->nprocs && (o->per_process || (fp->nprocs > 1 && fp->nprocs <= TEXT_FEW_PROCS)))
		ret = process_tables(&sb, fp, key, timed, out);
	if (fp->nprocs)
		strbuf_addstr(&sb, "\nprocesses\n");
	if (!ret)
		ret = rpt_flush(&sb, out);
	if (!ret && fp->nprocs)
		ret = rpt_tree(fp, out);
	errors_section(&sb, fp);
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		if ((*k)->report && (*k)->report->text)
			(*k)->report->text(&sb, fp);
	if (!ret)
		ret = rpt_flush(&sb, out);
	strbuf_release(&sb);
	return ret;
}

static int render(const struct footprint *fp, FILE *out)
{
	return text_render(fp, NULL, out);
}

const struct renderer renderer_text = {
    {"text", "summary, one syscall table, per-process tables for a few processes, process tree (default)"},
    render,
    text_render,
    false};
