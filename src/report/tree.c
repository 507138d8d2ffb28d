// SPDX-License-Identifier: GPL-2.0
/*
 * The process tree in the layout of the SystemTap boot study: pid and name indented two spaces per level of
 * depth, then the process's successful opens for reading and writing and its run time (or "running..." when
 * it had not ended when the observation stopped); an incomplete footprint is said so in a first line:
 *
 *   1    init                  read  90 write  30 running...
 *     251  init                read  29 write   0 run 23.08s
 */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/report_util.h"
#include "util/xalloc.h"

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

/* Children in order of appearance, depth-first without recursion: a fork chain can be deep. */
static size_t *tree_order(const struct footprint *fp, struct node *nodes)
{
	size_t n = fp->nprocs, *order = xcalloc(n + 1, sizeof(*order)), *stack = xcalloc(n + 1, sizeof(*stack));
	size_t *last_child = xcalloc(n + 1, sizeof(*last_child));
	size_t no = 0, sp = 0;

	for (size_t i = 0; i < n; i++) {
		const struct fp_proc *parent = fp__parent(fp, fp->procs[i]);
		size_t pi;

		if (!parent)
			continue;
		for (pi = 0; pi < i && fp->procs[pi] != parent; pi++)
			;
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
	return order;
}

int rpt_tree(const struct footprint *fp, FILE *out)
{
	size_t n = fp->nprocs, namecol = 0, pidw = 5;
	struct node *nodes = xcalloc(n + 1, sizeof(*nodes));
	size_t *order;
	struct strbuf *heads = xcalloc(n + 1, sizeof(*heads)), sb = STRBUF_INIT;
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
		strbuf_addchars(&heads[k], ' ', 1 + 2 * depth);
		strbuf_addf(&heads[k], "%-*d", (int)pidw, (int)p->pid);
		proc_name(&heads[k], p);
		if (heads[k].len > namecol)
			namecol = heads[k].len;
	}
	for (size_t k = 0; k < n && !ret; k++) {
		const struct fp_proc *p = fp->procs[order[k]];

		strbuf_addstr(&sb, heads[k].buf);
		strbuf_addchars(&sb, ' ', namecol + 2 - heads[k].len);
		strbuf_addf(&sb, "read %3llu write %3llu ", (unsigned long long)p->opens_read,
			    (unsigned long long)p->opens_write);
		if (p->end_s < 0)
			strbuf_addstr(&sb, "running...\n");
		else
			strbuf_addf(&sb, "run %.2fs\n", p->end_s > p->start_s ? p->end_s - p->start_s : 0.0);
		ret = rpt_flush(&sb, out);
	}
	for (size_t k = 0; k < n; k++)
		strbuf_release(&heads[k]);
	strbuf_release(&sb);
	free(heads);
	free(order);
	free(nodes);
	return ret;
}

static int render(const struct footprint *fp, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	/* A tree with processes missing, or cut short, says so before the first line. */
	if (!fp->complete) {
		strbuf_addstr(&sb, "footprint ");
		rpt_add_incomplete(&sb, fp);
		strbuf_addch(&sb, '\n');
		ret = rpt_flush(&sb, out);
		strbuf_release(&sb);
	}
	return ret ? ret : rpt_tree(fp, out);
}

const struct renderer renderer_tree = {"tree", "process tree: pid, name by depth, opens for read/write, run time",
				       render};
