// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML page's call sites (record --call-sites): per option needed, a tree of who needed it: what needed it (a
 * syscall, or what calls reached), the key (syscall, errno), then the stacks' frames from the innermost out, the
 * stacks sharing their innermost frames under one node with their calls summed. Read from the footprint's call
 * sites and the mappings' options (kmap_opt.needed_by), as `map` shows them in text.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/csite.h"
#include "kmap/kmap.h"
#include "report/csite.h"
#include "report/html_internal.h"

static bool same_frame(const struct fp_csite_frame *a, const struct fp_csite_frame *b)
{
	return a->offset == b->offset && !strcmp(a->module, b->module);
}

/*
 * The stacks [lo, hi) of a key, which agree on their first d frames, as nodes from frame d on. The key keeps them
 * in fp_csite_stack_cmp() order, by frames from the innermost: those that share frame d are next to each other.
 */
static void frames_tree(struct strbuf *sb, const struct fp_csite_key *k, uint32_t lo, uint32_t hi, uint32_t d)
{
	strbuf_addstr(sb, "<ul class=\"cs\">");
	for (uint32_t i = lo; i < hi;) {
		const struct fp_csite_frame *f;
		uint32_t j = i;
		uint64_t calls = 0;
		bool deeper = false;

		if (k->stacks[i].nframes <= d) { /* ends here: its calls are its parent's own */
			i++;
			continue;
		}
		f = &k->stacks[i].frames[d];
		for (; j < hi && k->stacks[j].nframes > d && same_frame(&k->stacks[j].frames[d], f); j++) {
			calls += k->stacks[j].calls;
			deeper |= k->stacks[j].nframes > d + 1;
		}
		strbuf_addf(sb, "<li data-calls=\"%" PRIu64 "\"><span class=\"fr mono\">", calls);
		{
			struct strbuf t = STRBUF_INIT;

			csite_frame_short(&t, f);
			html_esc_sb(sb, &t);
			strbuf_release(&t);
		}
		strbuf_addf(sb, "</span> <span class=\"note\">%" PRIu64 "</span>", calls);
		if (f->file) {
			const char *b = strrchr(f->file, '/');

			strbuf_addstr(sb, " <span class=\"note\">");
			html_esc(sb, b && b[1] ? b + 1 : f->file);
			strbuf_addf(sb, ":%" PRIu32 "</span>", f->line);
		}
		if (deeper)
			frames_tree(sb, k, i, j, d + 1);
		strbuf_addstr(sb, "</li>");
		i = j;
	}
	strbuf_addstr(sb, "</ul>\n");
}

static void key_node(struct strbuf *sb, const struct fp_csite_key *k)
{
	strbuf_addstr(sb, "<li class=\"key\"><details><summary><code>");
	html_esc(sb, k->syscall);
	strbuf_addstr(sb, "</code>");
	if (k->err)
		strbuf_addf(sb, " %s", fp_errno_name(k->err));
	if (k->reached) {
		strbuf_addstr(sb, " [");
		html_esc(sb, k->reached);
		strbuf_addch(sb, ']');
	}
	strbuf_addf(sb, " <span class=\"note\">%" PRIu64 " %s, %u %s", k->calls, k->calls == 1 ? "call" : "calls",
		    k->nstacks, k->nstacks == 1 ? "stack" : "stacks");
	if (k->other)
		strbuf_addf(sb, ", %" PRIu64 " calls from stacks not kept", k->other);
	if (k->unwound_none)
		strbuf_addf(sb, ", %" PRIu64 " without a stack", k->unwound_none);
	strbuf_addstr(sb, "</span></summary>");
	if (k->nstacks)
		frames_tree(sb, k, 0, k->nstacks, 0);
	strbuf_addstr(sb, "</details></li>\n");
}

static void option_node(struct strbuf *sb, const struct fp_csites *c, const struct kmap_opt *o)
{
	bool any = false;

	for (size_t j = 0; j < o->nneeded && !any; j++)
		for (uint32_t k = 0; k < c->nkeys && !any; k++)
			any = fp_csite_key_of(&c->keys[k], o->needed_by[j]);
	if (!any)
		return;
	strbuf_addstr(sb, "<li class=\"opt\" data-opt=\"");
	html_esc(sb, o->name);
	strbuf_addstr(sb, "\"><details><summary><b>");
	html_esc(sb, o->name);
	strbuf_addstr(sb, "</b></summary><ul>\n");
	for (size_t j = 0; j < o->nneeded; j++) {
		bool has = false;

		for (uint32_t k = 0; k < c->nkeys && !has; k++)
			has = fp_csite_key_of(&c->keys[k], o->needed_by[j]);
		if (!has)
			continue;
		strbuf_addstr(sb, "<li class=\"by\">needed by <code>");
		html_esc(sb, o->needed_by[j]);
		strbuf_addstr(sb, "</code><ul>\n");
		for (uint32_t k = 0; k < c->nkeys; k++)
			if (fp_csite_key_of(&c->keys[k], o->needed_by[j]))
				key_node(sb, &c->keys[k]);
		strbuf_addstr(sb, "</ul></li>\n");
	}
	strbuf_addstr(sb, "</ul></details></li>\n");
}

void html_csites(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view)
{
	const struct fp_csites *c = fp_csites_of(fp);
	const struct fp_kernel_map *const *maps;
	size_t nmaps;

	if (!c)
		return;
	nmaps = html_maps(fp, view, &maps);
	strbuf_addf(
	    sb,
	    "<section id=\"call-sites\"><h2>Who made the calls</h2>\n<p class=\"note\">Each option, what needed "
	    "it, the calls' user-space stacks from the innermost frame out (record --call-sites, %u frames; "
	    "the number is the calls through a frame)%s.</p>\n",
	    c->depth, c->exhaustive ? "" : "; not every merged source recorded them");
	if (c->why_not && !c->nkeys) {
		strbuf_addstr(sb, "<p>not recorded: ");
		html_esc(sb, c->why_not);
		strbuf_addstr(sb, "</p>\n");
	}
	if (!nmaps)
		strbuf_addstr(sb, "<p>not mapped: no options to hang them on</p>\n");
	strbuf_addstr(sb, "<ul id=\"cs-options\">\n");
	for (size_t m = 0; m < nmaps; m++)
		for (size_t i = 0; i < maps[m]->nopts; i++)
			option_node(sb, c, &maps[m]->opts[i]);
	strbuf_addstr(sb, "</ul></section>\n");
}
