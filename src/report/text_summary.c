// SPDX-License-Identifier: GPL-2.0
/*
 * The lines of the text report's summary that answer the question (issue 25): the classes of the calls by what
 * each reached (a read of a pipe is IPC, an ioctl on a socket Network; --by-class keeps the guide's class of each
 * syscall), and what the kernel must have for the workload, from the built-in database: the Kconfig options its
 * calls need and the MAINTAINERS sections of that code, as `kfootprint map` works them out.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/annotate.h"
#include "kmap/kmap.h"
#include "report/report_util.h"
#include "report/text_internal.h"
#include "util/xalloc.h"

/* The class a call of a Filesystem syscall (read, write, ioctl, fcntl...) takes from the fd it reached. */
static const char *fd_class(const char *value)
{
	if (!strncmp(value, "socket:", 7))
		return "Network";
	if (!strcmp(value, "pipe") || !strncmp(value, "fifo:", 5))
		return "IPC";
	return NULL;
}

struct klass {
	const char *name;
	uint64_t calls;
};

static struct klass *klass_of(struct klass **v, size_t *n, size_t *cap, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name))
			return &(*v)[i];
	XGROW(*v, *cap, *n + 1);
	(*v)[*n] = (struct klass){name, 0};
	return &(*v)[(*n)++];
}

void text_summary_at_attach(struct strbuf *sb, const struct footprint *fp)
{
	struct fp_sysstat **v = fp_sctab_sorted(&fp->syscalls, NULL);
	size_t n = 0;
	char buf[96];

	for (struct fp_sysstat **sp = v; *sp; sp++) {
		if (!(*sp)->at_attach)
			continue;
		strbuf_addstr(sb, n++ ? ", " : "at attach:    ");
		strbuf_addf(sb, "%s %" PRIu64, rpt_sc_name(*sp, buf, sizeof(buf)), (*sp)->at_attach);
	}
	if (n)
		strbuf_addstr(sb, " (in progress when kfootprint attached: counted, without their time)\n");
	free(v);
}

void text_summary_classes(struct strbuf *sb, const struct footprint *fp)
{
	size_t ng, n = 0, cap = 0;
	struct rpt_group *g = rpt_groups(fp, &ng);
	struct klass *k = NULL;
	uint64_t all = fp__total_calls(fp);

	/* the groups come in the seed's class order, which orders ties; a class only reached comes after them */
	for (size_t i = 0; i < ng; i++)
		klass_of(&k, &n, &cap, g[i].klass);
	for (size_t i = 0; i < ng; i++) {
		bool generic = !strcmp(g[i].klass, "Filesystem");

		for (size_t j = 0; j < g[i].n; j++) {
			const struct fp_sysstat *s = g[i].rows[j];
			uint64_t moved = 0;

			/* a call reaches an fd kind once; a call with two fds of two classes (splice) counts in the
			 * first */
			for (uint32_t r = 0; generic && r < s->nreach; r++) {
				const char *c = strcmp(s->reach[r].kind, "fd") ? NULL : fd_class(s->reach[r].value);
				uint64_t take = c ? s->reach[r].calls : 0;

				if (take > s->calls - moved)
					take = s->calls - moved;
				if (take)
					klass_of(&k, &n, &cap, c)->calls += take;
				moved += take;
			}
			klass_of(&k, &n, &cap, g[i].klass)->calls += s->calls - moved;
		}
	}
	if (n && all) {
		bool *used = xcalloc(n, sizeof(*used));

		strbuf_addstr(sb, "top classes:  ");
		for (size_t m = 0; m < 3 && m < n; m++) {
			size_t best = n;

			for (size_t i = 0; i < n; i++)
				if (!used[i] && k[i].calls && (best == n || k[i].calls > k[best].calls))
					best = i;
			if (best == n)
				break;
			used[best] = true;
			if (m)
				strbuf_addstr(sb, ", ");
			rpt_add_display(sb, k[best].name);
			strbuf_addf(sb, " %" PRIu64 " (%.0f%%)", k[best].calls,
				    100.0 * (double)k[best].calls / (double)all);
		}
		strbuf_addf(sb, " of %" PRIu64 " calls\n", all);
		free(used);
	}
	free(k);
	rpt_groups_free(g, ng);
}

/* ---- what the kernel must have ---- */

struct named {
	char *name; /* a copy: the database it comes from may be gone before the lines are written */
	uint64_t calls;
};

static void add_named(struct named **v, size_t *n, size_t *cap, const char *name, uint64_t calls)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name)) {
			(*v)[i].calls += calls;
			return;
		}
	XGROW(*v, *cap, *n + 1);
	(*v)[(*n)++] = (struct named){xstrdup(name), calls};
}

static void named_free(struct named *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

static int cmp_by_name(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->name, ((const struct named *)b)->name);
}

static int cmp_by_calls(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	return x->calls != y->calls ? (x->calls < y->calls ? 1 : -1) : strcmp(x->name, y->name);
}

/* The best section of a chain, unless it is only THE REST (every file's). */
static const char *section_of(const struct kt_syscall *ks)
{
	return ks && ks->nsections && strcmp(ks->sections[0].section->name, "THE REST") ? ks->sections[0].section->name
											: NULL;
}

/* Options and sections of one mapping into the lists. */
static void collect(const struct fp_kernel_map *m, struct named **opts, size_t *no, size_t *co, struct named **secs,
		    size_t *ns, size_t *cs)
{
	for (size_t i = 0; i < m->nopts; i++)
		if (m->opts[i].nneeded)
			add_named(opts, no, co, m->opts[i].name, 0);
	for (size_t i = 0; i < m->nrows; i++) {
		const char *s = m->rows[i].required ? section_of(m->rows[i].ks) : NULL;
		if (s)
			add_named(secs, ns, cs, s, m->rows[i].calls);
	}
	for (size_t i = 0; i < m->nreach; i++) {
		const char *s = m->reach[i].required ? section_of(m->reach[i].ks) : NULL;
		if (s)
			add_named(secs, ns, cs, s, m->reach[i].calls);
	}
}

static void wrapped(struct strbuf *sb, const char *head, const struct named *v, size_t n)
{
	size_t col = strlen(head);

	strbuf_addstr(sb, head);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(v[i].name) + (i + 1 < n ? 1 : 0);
		if (i && col + 1 + len > 116) {
			strbuf_addstr(sb, "\n             ");
			col = 13;
		}
		strbuf_addch(sb, ' ');
		rpt_add_display(sb, v[i].name);
		if (i + 1 < n)
			strbuf_addch(sb, ',');
		col += 1 + len;
	}
	strbuf_addch(sb, '\n');
}

void text_summary_kernel(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view)
{
	const struct fp_kernel_map *const *maps;
	size_t nmaps = annotate_maps(fp, &maps), no = 0, co = 0, ns = 0, cs = 0;
	struct named *opts = NULL, *secs = NULL;
	const char *tree = NULL;
	char ver[32];

	if (!fp->syscalls.count)
		return;
	/* a footprint mapped already (record --map) says it with its maps; else the built-in databases answer */
	for (size_t i = 0; i < nmaps; i++) {
		collect(maps[i], &opts, &no, &co, &secs, &ns, &cs);
		snprintf(ver, sizeof(ver), "%d.%d", maps[i]->db->ver, maps[i]->db->patch);
		tree = ver;
	}
	/* else the built-in databases' view that the command made before rendering (annotate_view) */
	for (size_t a = 0; !nmaps && view && a < view->n; a++) {
		collect(view->maps[a], &opts, &no, &co, &secs, &ns, &cs);
		snprintf(ver, sizeof(ver), "%d.%d", view->maps[a]->db->ver, view->maps[a]->db->patch);
		tree = ver;
	}
	if (tree) {
		char head[96];

		if (no) /* qsort's array must not be NULL, even empty */
			qsort(opts, no, sizeof(*opts), cmp_by_name);
		if (ns)
			qsort(secs, ns, sizeof(*secs), cmp_by_calls);
		snprintf(head, sizeof(head), "kconfig:      %zu option%s needed (Linux %s)%s", no, no == 1 ? "" : "s",
			 tree, no ? ":" : "");
		wrapped(sb, head, opts, no);
		snprintf(head, sizeof(head), "maintainers:  %zu section%s%s", ns, ns == 1 ? "" : "s", ns ? ":" : "");
		wrapped(sb, head, secs, ns);
		strbuf_addstr(sb, "              see `kfootprint map FILE` for the chains\n");
	}
	named_free(opts, no);
	named_free(secs, ns);
}
