// SPDX-License-Identifier: GPL-2.0
/*
 * The process tree in the layout of the SystemTap boot study: pid and name indented two spaces per level of
 * depth, then the process's successful opens for reading and writing and its run time (or "running..." when
 * it had not ended when the observation stopped). After the study's columns, what a reader asks next: how it
 * ended, its threads when it had more than one, the programs it exec'd when more than one, and its argv cut
 * to a width. A legend line first says what the columns count;
 * an incomplete footprint says so in a line before it.
 *
 *   1    init                  read  90 write  30 running...
 *     251  sh                  read  29 write   0 run 23.08s  exit 0  threads 2  dash → run-parts: run-parts /etc
 */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_util.h"
#include "util/xalloc.h"

/* Display columns of argv before it is cut with "…": a tree line stays readable in a terminal. */
#define ARGV_WIDTH 60
/*
 * Deeper than this, the indentation stops growing and the line says its depth, "[depth 41] ": a fork chain
 * 80,000 deep would otherwise make lines of 160,000 columns, every line padded to the widest (28 MB of
 * footprint, 14.6 GB and 50 s to render).
 */
#define INDENT_DEPTH 40

static const char legend[] =
    "# read N write M: files opened for reading / for writing (successful opens, the SystemTap "
    "study's counts); run: fork to exit; then exit, threads, exec chain (a → b), argv\n";

struct node {
	size_t first_child, next_sibling; /* indexes + 1; 0: none */
	size_t depth;
};

static void proc_name(struct strbuf *sb, const struct fp_proc *p)
{
	const char *name = p->comm;

	if (!*name && p->exe) {
		name = strrchr(p->exe, '/');
		name = name ? name + 1 : p->exe;
	}
	rpt_add_display(sb, *name ? name : "?");
}

/* Shortens sb to its first n bytes (n < len: the buffer is allocated). */
static void shorten(struct strbuf *sb, size_t n)
{
	sb->len = n;
	sb->buf[n] = '\0';
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* Cuts what was appended from `from` on to `width` display columns, ending in "…" when it was longer. */
static void cut_to_width(struct strbuf *sb, size_t from, size_t width)
{
	size_t cols = 0, i, keep = sb->len;

	for (i = from; i < sb->len; i++) {
		if (((unsigned char)sb->buf[i] & 0xc0) == 0x80)
			continue; /* a UTF-8 continuation byte: same column */
		if (cols == width - 1)
			keep = i;
		if (++cols > width) {
			shorten(sb, keep);
			strbuf_addstr(sb, "…");
			return;
		}
	}
}

/* "dash → dash → true", with "… → " first when older programs were dropped from the bounded chain. */
static void add_chain(struct strbuf *sb, const struct fp_proc *p)
{
	size_t n = 0;

	while (p->exec_chain[n])
		n++;
	if (p->execs > n)
		strbuf_addstr(sb, "… → ");
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(sb, " → ");
		rpt_add_display(sb, base_name(p->exec_chain[i]));
	}
}

/* Exit status, threads, exec chain and argv: the columns after the study's. */
static void tail(struct strbuf *sb, const struct fp_proc *p, size_t *status_w)
{
	size_t start;

	switch (p->exit.kind) {
	case FP_EXIT_CODE: strbuf_addf(sb, "exit %d", p->exit.value); break;
	case FP_EXIT_SIGNAL:
		strbuf_addf(sb, "%s%s", fp_signal_name(p->exit.value), p->exit.core ? " (core)" : "");
		break;
	default: break;
	}
	if (sb->len > *status_w)
		*status_w = sb->len;
	strbuf_addch(sb, '\t'); /* where the status column is padded to its width */
	if (p->threads > 1)
		strbuf_addf(sb, "threads %u  ", p->threads);
	start = sb->len;
	if (p->exec_chain && p->exec_chain[0] && p->exec_chain[1]) {
		add_chain(sb, p);
		strbuf_addstr(sb, ": ");
	}
	if (p->argv && p->argv[0])
		rpt_add_argv(sb, p->argv);
	cut_to_width(sb, start, ARGV_WIDTH);
	while (sb->len && sb->buf[sb->len - 1] == ' ')
		shorten(sb, sb->len - 1);
}

static void source_line(struct strbuf *sb, const struct footprint *fp, uint32_t i)
{
	const struct fp_source *s = &fp->sources[i];

	strbuf_addf(sb, "source %u", i + 1);
	if (s->label) {
		strbuf_addstr(sb, " (");
		rpt_add_display(sb, s->label);
		strbuf_addch(sb, ')');
	}
	strbuf_addstr(sb, ": ");
	if (s->argv)
		rpt_add_argv(sb, s->argv);
	else
		strbuf_addstr(sb, "attached");
	strbuf_addch(sb, '\n');
}

/* Children in order of appearance, depth-first without recursion: a fork chain can be deep. */
static size_t *tree_order(const struct footprint *fp, struct node *nodes)
{
	size_t n = fp->nprocs, *order = xcalloc(n + 1, sizeof(*order)), *stack = xcalloc(n + 1, sizeof(*stack));
	size_t *last_child = xcalloc(n + 1, sizeof(*last_child)), *parents = fp__parents(fp);
	size_t no = 0, sp = 0;

	for (size_t i = 0; i < n; i++) {
		size_t pi = parents[i] - 1;

		if (!parents[i])
			continue;
		if (last_child[pi])
			nodes[last_child[pi] - 1].next_sibling = i + 1;
		else
			nodes[pi].first_child = i + 1;
		last_child[pi] = i + 1;
		nodes[i].depth = 1; /* marks a child; the real depth is set on the walk */
	}
	for (size_t r = n; r-- > 0;) /* roots pushed in reverse so that they pop in order */
		if (!nodes[r].depth)
			stack[sp++] = r + 1;
	while (sp) {
		size_t i = stack[--sp] - 1, kids = 0;

		order[no++] = i;
		for (size_t c = nodes[i].first_child; c; c = nodes[c - 1].next_sibling) {
			nodes[c - 1].depth = nodes[i].depth + 1;
			kids++;
		}
		/* push children in reverse order */
		size_t base = sp;
		for (size_t c = nodes[i].first_child; c; c = nodes[c - 1].next_sibling)
			stack[sp++] = c;
		for (size_t a = base, b = sp - 1; kids > 1 && a < b; a++, b--) {
			size_t t = stack[a];

			stack[a] = stack[b];
			stack[b] = t;
		}
	}
	free(stack);
	free(last_child);
	free(parents);
	return order;
}

int rpt_tree(const struct footprint *fp, FILE *out)
{
	size_t n = fp->nprocs, namecol = 0, pidw = 5;
	struct node *nodes = xcalloc(n + 1, sizeof(*nodes));
	size_t *order;
	struct strbuf *heads = xcalloc(n + 1, sizeof(*heads)), *tails = xcalloc(n + 1, sizeof(*tails));
	struct strbuf sb = STRBUF_INIT;
	size_t runcol = 0, status_w = 0;
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		char digits[16];
		size_t w = (size_t)snprintf(digits, sizeof(digits), "%d", (int)fp->procs[i]->pid) + 2;

		if (w > pidw)
			pidw = w;
	}
	order = tree_order(fp, nodes);
	for (size_t k = 0; k < n; k++) {
		size_t i = order[k];
		const struct fp_proc *p = fp->procs[i];
		size_t depth = nodes[i].depth;

		strbuf_init(&heads[k]);
		strbuf_addchars(&heads[k], ' ', 1 + 2 * (depth > INDENT_DEPTH ? INDENT_DEPTH : depth));
		if (depth > INDENT_DEPTH)
			strbuf_addf(&heads[k], "[depth %zu] ", depth);
		strbuf_addf(&heads[k], "%-*d", (int)pidw, (int)p->pid);
		proc_name(&heads[k], p);
		if (heads[k].len > namecol)
			namecol = heads[k].len;
		strbuf_init(&tails[k]);
		tail(&tails[k], p, &status_w);
	}
	/* the study's columns, then the tail aligned after the longest of them */
	for (size_t k = 0; k < n; k++) {
		const struct fp_proc *p = fp->procs[order[k]];
		struct strbuf *h = &heads[k];

		strbuf_addchars(h, ' ', namecol + 2 - h->len);
		strbuf_addf(h, "read %3llu write %3llu ", (unsigned long long)p->opens_read,
			    (unsigned long long)p->opens_write);
		if (p->end_s < 0)
			strbuf_addstr(h, "running...");
		else
			strbuf_addf(h, "run %.2fs", p->end_s > p->start_s ? p->end_s - p->start_s : 0.0);
		if (h->len > runcol)
			runcol = h->len;
	}
	if (n)
		strbuf_addstr(&sb, legend);
	for (size_t k = 0; k < n && !ret; k++) {
		const struct fp_proc *p = fp->procs[order[k]];
		const char *t = tails[k].buf, *tab = strchr(t, '\t');

		/* A merged footprint: one tree per source (its pids are its own), each under its source's line. */
		if (fp->nsources && p->source < fp->nsources && (!k || fp->procs[order[k - 1]]->source != p->source))
			source_line(&sb, fp, p->source);
		strbuf_addstr(&sb, heads[k].buf);
		strbuf_addchars(&sb, ' ', runcol + 2 - heads[k].len);
		strbuf_add(&sb, t, (size_t)(tab - t));
		if (tab[1]) {
			strbuf_addchars(&sb, ' ', status_w + 2 - (size_t)(tab - t));
			strbuf_addstr(&sb, tab + 1);
		}
		while (sb.len && sb.buf[sb.len - 1] == ' ')
			shorten(&sb, sb.len - 1);
		strbuf_addch(&sb, '\n');
		ret = rpt_flush(&sb, out);
	}
	for (size_t k = 0; k < n; k++) {
		strbuf_release(&heads[k]);
		strbuf_release(&tails[k]);
	}
	strbuf_release(&sb);
	free(heads);
	free(tails);
	free(order);
	free(nodes);
	return ret;
}

static int render(const struct footprint *fp, FILE *out)
{
	/* A tree with processes missing, or cut short, says so before the first line. */
	int ret = rpt_incomplete_line(fp, out);

	return ret ? ret : rpt_tree(fp, out);
}

const struct renderer renderer_tree = {
    {"tree", "process tree: pid, name by depth, opens for read/write, run time, exit, exec chain, argv"},
    render,
    NULL,
    false};
