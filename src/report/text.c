// SPDX-License-Identifier: GPL-2.0
/*
 * The default report: a header (whether the footprint is complete comes first), one table per subsystem
 * class in the seed guide's order with its columns (System Call | # calls | errors | Linux Subsystem |
 * System Call (API)), then the process tree. Columns are aligned across all the tables.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_util.h"
#include "util/xalloc.h"

static const char *const heads[5] = {"System Call", "# calls", "errors", "Linux Subsystem", "System Call (API)"};

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

static void header(struct strbuf *sb, const struct footprint *fp)
{
	size_t nsc = fp->syscalls.count;

	if (fp->complete) {
		strbuf_addstr(sb, "footprint:    complete\n");
	} else {
		strbuf_addstr(sb, "footprint:    ");
		rpt_add_incomplete(sb, fp);
		strbuf_addch(sb, '\n');
	}
	strbuf_addstr(sb, fp->argv ? "command:      " : "attached:     ");
	rpt_add_workload(sb, fp);
	strbuf_addch(sb, '\n');
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
	strbuf_addf(sb, "\nelapsed:      %.3fs\nexit:         ", fp->elapsed_s);
	rpt_add_exit(sb, &fp->exit);
	strbuf_addch(sb, '\n');
	seccomp_kills(sb, fp);
	strbuf_addf(sb, "lost events:  %" PRIu64 "\n", fp->lost_events);
	strbuf_addf(sb, "totals:       %" PRIu64 " calls, %" PRIu64 " errors, %zu syscall%s, %zu process%s\n",
		    fp__total_calls(fp), fp__total_errors(fp), nsc, nsc == 1 ? "" : "s", fp->nprocs,
		    fp->nprocs == 1 ? "" : "es");
}

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

static void row(struct strbuf *sb, const size_t w[5], const char *const c[5])
{
	/* names left, counts right, as a reader scans them */
	strbuf_addf(sb, "%-*s  %*s  %*s  %-*s  %s\n", (int)w[0], c[0], (int)w[1], c[1], (int)w[2], c[2], (int)w[3],
		    c[3], c[4]);
}

static void tables(struct strbuf *sb, const struct footprint *fp)
{
	size_t ng, w[5];
	struct rpt_group *g = rpt_groups(fp, &ng);
	struct cells c;

	for (int i = 0; i < 5; i++)
		w[i] = strlen(heads[i]);
	for (size_t i = 0; i < ng; i++) {
		for (size_t j = 0; j < g[i].n; j++) {
			cells_of(g[i].rows[j], &c);
			w[0] = max_sz(w[0], strlen(c.name));
			w[1] = max_sz(w[1], strlen(c.calls));
			w[2] = max_sz(w[2], strlen(c.errors));
			w[3] = max_sz(w[3], strlen(c.klass));
		}
	}
	if (!ng)
		strbuf_addstr(sb, "\nno system calls recorded\n");
	for (size_t i = 0; i < ng; i++) {
		const char *dash[5];
		char lines[5][128];

		strbuf_addch(sb, '\n');
		rpt_add_display(sb, g[i].klass);
		strbuf_addch(sb, '\n');
		row(sb, w, heads);
		for (int k = 0; k < 5; k++) {
			size_t n = k < 4 ? w[k] : strlen(heads[4]);

			n = n < sizeof(lines[k]) - 1 ? n : sizeof(lines[k]) - 1;
			memset(lines[k], '-', n);
			lines[k][n] = '\0';
			dash[k] = lines[k];
		}
		row(sb, w, dash);
		for (size_t j = 0; j < g[i].n; j++) {
			cells_of(g[i].rows[j], &c);
			row(sb, w, (const char *const[5]){c.name, c.calls, c.errors, c.klass, c.api});
		}
	}
	rpt_groups_free(g, ng);
}

static int render(const struct footprint *fp, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	int ret;

	header(&sb, fp);
	tables(&sb, fp);
	if (fp->nprocs)
		strbuf_addstr(&sb, "\nprocesses\n");
	ret = rpt_flush(&sb, out);
	strbuf_release(&sb);
	if (!ret && fp->nprocs)
		ret = rpt_tree(fp, out);
	return ret;
}

const struct renderer renderer_text = {"text", "header, one table per subsystem class, process tree (default)", render};
