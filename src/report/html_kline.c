// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML page's kernel lines (record --kernel-lines): what the counts cover, then per option and per file the
 * covered lines, from a mapping that placed them (record --map with the kind's map, klmap.h: with compiled lines
 * when it read the line table), else per file from the footprint's own lines. Nothing when the footprint has none.
 */
#include <inttypes.h>
#include <string.h>

#include "footprint/kline.h"
#include "kmap/kfmap.h"
#include "kmap/klmap.h"
#include "kmap/kmap.h"
#include "report/html_internal.h"

static void mapped(struct strbuf *sb, const struct klmap *kl)
{
	strbuf_addstr(sb, "<h3>Options</h3>\n<table class=\"kl-opts\"><tr><th>option<th>covered lines<th>files");
	for (size_t i = 0; i < kl->nopts; i++) {
		strbuf_addstr(sb, "\n<tr><td>CONFIG_");
		html_esc(sb, kl->opts[i].name);
		strbuf_addf(sb, "<td>%" PRIu64 "<td>%u", kl->opts[i].lines, kl->opts[i].files);
	}
	strbuf_addstr(sb, "</table>\n<h3>Files</h3>\n<table class=\"kl-files\"><tr><th>file<th>object<th>covered");
	if (kl->compiled)
		strbuf_addstr(sb, "<th>compiled");
	for (size_t i = 0; i < kl->nfiles; i++) {
		const struct klm_file *f = &kl->files[i];

		strbuf_addstr(sb, "\n<tr><td>");
		html_esc(sb, f->path);
		strbuf_addstr(sb, "<td>");
		html_esc(sb, f->chain && f->chain->object ? f->chain->object : "-");
		strbuf_addf(sb, "<td>%u", f->nlines);
		if (kl->compiled)
			strbuf_addf(sb, "<td>%u", f->ncompiled);
	}
	strbuf_addstr(sb, "</table>\n");
}

static void unmapped(struct strbuf *sb, const struct fp_klines *k)
{
	strbuf_addstr(sb, "<p class=\"note\">not mapped to options (map --vmlinux places them)</p>\n"
			  "<table class=\"kl-files\"><tr><th>file<th>covered");
	for (uint32_t i = 0, n = 0; i < k->nlines; i++) {
		n += k->lines[i].count > 0; /* gcov's 0: compiled, not run */
		if (i + 1 < k->nlines && !strcmp(k->lines[i].file, k->lines[i + 1].file))
			continue;
		strbuf_addstr(sb, "\n<tr><td>");
		html_esc(sb, k->lines[i].file);
		strbuf_addf(sb, "<td>%u", n);
		n = 0;
	}
	strbuf_addstr(sb, "</table>\n");
}

void html_klines(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view)
{
	const struct fp_klines *k = fp_klines_of(fp);
	const struct fp_kernel_map *const *maps;
	const struct klmap *kl = NULL;
	size_t nmaps;

	if (!k)
		return;
	nmaps = html_maps(fp, view, &maps);
	for (size_t m = 0; m < nmaps && !kl; m++)
		kl = maps[m]->kl;
	strbuf_addf(sb, "<section id=\"kernel-lines\"><h2>Kernel lines</h2>\n<p class=\"note\">%s: %s</p>\n",
		    fp_kline_method_name(k->method),
		    k->whole_guest ? "counts cover the whole guest, not only the workload"
				   : "PCs of the workload's own tasks");
	if (k->why_not && !k->nlines && !k->npcs) {
		strbuf_addstr(sb, "<p>not recorded: ");
		html_esc(sb, k->why_not);
		strbuf_addstr(sb, "</p>\n");
	} else if (k->npcs && !k->nlines) {
		strbuf_addf(sb, "<p>%u PCs, not symbolized yet: kfootprint map --vmlinux VMLINUX</p>\n", k->npcs);
	} else if (kl) {
		mapped(sb, kl);
	} else {
		unmapped(sb, k);
	}
	strbuf_addstr(sb, "</section>\n");
}
