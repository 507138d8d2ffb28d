// SPDX-License-Identifier: GPL-2.0
/*
 * The answer of the HTML page: the Kconfig options the calls need, each with its label (wanted, only needed off,
 * only on the path of probes), the MAINTAINERS sections of that code with their people and lists, and what the
 * calls reached; then, as detail, each syscall's source. What `kfootprint map` and the text summary say, from the
 * same data: the mapping's rows and refinements and its needs (kmap/kneeds.h), read, never resolved.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kmap/annotate.h"
#include "kmap/kmap.h"
#include "kmap/kneeds.h"
#include "report/html_internal.h"
#include "util/xalloc.h"

size_t html_maps(const struct footprint *fp, const struct kmap_view *view, const struct fp_kernel_map *const **maps)
{
	size_t n = annotate_maps(fp, maps);

	if (n)
		return n;
	if (view && view->n) {
		*maps = (const struct fp_kernel_map *const *)view->maps;
		return view->n;
	}
	*maps = NULL;
	return 0;
}

static void names(struct strbuf *sb, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(sb, ", ");
		html_esc(sb, v[i]);
	}
}

/* ---- the MAINTAINERS sections ---- */

struct sec {
	const struct kt_section *s; /* the first mapping's: its M:, R: and L: lines */
	uint64_t calls;
	const char **by; /* the syscalls and refinements whose code it maintains, most calls first */
	size_t nby, cap;
};

struct secs {
	struct sec *v;
	size_t n, cap;
};

/* The best section of a chain, unless it is only THE REST (every file's): as the text summary counts them. */
static const struct kt_section *best_section(const struct kt_syscall *ks)
{
	return ks && ks->nsections && strcmp(ks->sections[0].section->name, "THE REST") ? ks->sections[0].section
											: NULL;
}

static void sec_add(struct secs *ss, const struct kt_section *s, const char *item, uint64_t calls)
{
	struct sec *e = NULL;

	if (!s)
		return;
	for (size_t i = 0; i < ss->n && !e; i++)
		if (!strcmp(ss->v[i].s->name, s->name))
			e = &ss->v[i];
	if (!e) {
		XGROW(ss->v, ss->cap, ss->n + 1);
		e = &ss->v[ss->n++];
		*e = (struct sec){.s = s};
	}
	e->calls += calls;
	for (size_t i = 0; i < e->nby; i++)
		if (!strcmp(e->by[i], item))
			return;
	XGROW(e->by, e->cap, e->nby + 1);
	e->by[e->nby++] = item;
}

static int cmp_sec(const void *a, const void *b)
{
	const struct sec *x = a, *y = b;

	return x->calls != y->calls ? (x->calls < y->calls ? 1 : -1) : strcmp(x->s->name, y->s->name);
}

/* The sections of the required rows and refinements of every mapping, most calls first. */
static void collect_sections(struct secs *ss, const struct fp_kernel_map *const *maps, size_t nmaps)
{
	memset(ss, 0, sizeof(*ss));
	for (size_t m = 0; m < nmaps; m++) {
		for (size_t i = 0; i < maps[m]->nrows; i++)
			if (maps[m]->rows[i].required)
				sec_add(ss, best_section(maps[m]->rows[i].ks), maps[m]->rows[i].name,
					maps[m]->rows[i].calls);
		for (size_t i = 0; i < maps[m]->nreach; i++)
			if (maps[m]->reach[i].required)
				sec_add(ss, best_section(maps[m]->reach[i].ks), maps[m]->reach[i].label,
					maps[m]->reach[i].calls);
	}
	if (ss->n)
		qsort(ss->v, ss->n, sizeof(*ss->v), cmp_sec);
}

static void secs_release(struct secs *ss)
{
	for (size_t i = 0; i < ss->n; i++)
		free(ss->v[i].by);
	free(ss->v);
}

static void people(struct strbuf *sb, const char *cls, const char *tag, char *const *v, size_t n)
{
	if (!n)
		return;
	strbuf_addf(sb, "<ul class=\"addr %s\">", cls);
	for (size_t i = 0; i < n; i++) {
		strbuf_addf(sb, "<li>%s ", tag);
		html_esc(sb, v[i]);
		strbuf_addstr(sb, "</li>");
	}
	strbuf_addstr(sb, "</ul>");
}

/* Who to write to about a section: its M: (maintainers), R: (reviewers) and L: (lists) lines as the database has them.
 */
static void section_people(struct strbuf *sb, const struct kt_section *s)
{
	people(sb, "m", "M:", s->maintainers, s->nmaintainers);
	people(sb, "r", "R:", s->reviewers, s->nreviewers);
	people(sb, "l", "L:", s->lists, s->nlists);
	if (!s->nmaintainers && !s->nreviewers && !s->nlists)
		strbuf_addstr(sb, "<span class=\"note\">none in the database</span>");
}

static void sections_table(struct strbuf *sb, const struct secs *ss)
{
	strbuf_addf(sb,
		    "<h3>MAINTAINERS sections</h3>\n<p class=\"note\">%zu section%s maintain%s the code of the "
		    "calls (the best match of each file; THE REST, every file's, left out)</p>\n",
		    ss->n, ss->n == 1 ? "" : "s", ss->n == 1 ? "s" : "");
	if (!ss->n)
		return;
	strbuf_addstr(
	    sb, "<table id=\"sections\" class=\"sortable\"><thead><tr><th>section</th><th>status</th>"
		"<th class=\"n\">calls</th><th>for</th><th>maintainers, reviewers, lists</th></tr></thead><tbody>\n");
	for (size_t i = 0; i < ss->n; i++) {
		const struct sec *e = &ss->v[i];

		strbuf_addstr(sb, "<tr><td class=\"sec\">");
		html_esc(sb, e->s->name);
		strbuf_addstr(sb, "</td><td>");
		html_esc(sb, e->s->status ? e->s->status : "");
		strbuf_addf(sb, "</td><td class=\"n\" data-v=\"%" PRIu64 "\">%" PRIu64 "</td><td class=\"mono\">",
			    e->calls, e->calls);
		names(sb, e->by, e->nby);
		strbuf_addstr(sb, "</td><td>");
		section_people(sb, e->s);
		strbuf_addstr(sb, "</td></tr>\n");
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

/* ---- the options ---- */

static bool listed(const char *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

/*
 * How many distinct options the calls of the mappings need on (the text summary's kconfig: count), and how many
 * more the kernel functions alone need.
 */
static size_t count_needed(const struct fp_kernel_map *const *maps, size_t nmaps, size_t *funcs_only)
{
	const char **calls = NULL, **funcs = NULL;
	size_t n = 0, nf = 0, cap = 0, fcap = 0;

	for (size_t m = 0; m < nmaps; m++)
		for (size_t i = 0; maps[m]->needs && i < maps[m]->needs->n; i++) {
			const struct kneed *k = &maps[m]->needs->v[i];

			if (k->nneeded && !listed(calls, n, k->name)) {
				XGROW(calls, cap, n + 1);
				calls[n++] = k->name;
			}
		}
	for (size_t m = 0; m < nmaps; m++)
		for (size_t i = 0; maps[m]->needs && i < maps[m]->needs->n; i++) {
			const struct kneed *k = &maps[m]->needs->v[i];

			if (k->want == KNEED_Y && k->nfuncs && !listed(calls, n, k->name) &&
			    !listed(funcs, nf, k->name)) {
				XGROW(funcs, fcap, nf + 1);
				funcs[nf++] = k->name;
			}
		}
	free(calls);
	free(funcs);
	*funcs_only = nf;
	return n;
}

/*
 * The labels: what the items want (needed, only needed off, probed), then what the closure over Kconfig adds
 * (kneeds.h): the ABI's own options, and what the needed ones need on allnoconfig (BLOCK for EXT4_FS), as map -F
 * kconfig.
 */
enum { G_WANTED, G_OFF, G_PROBED, G_ABI, G_BROUGHT, G_N };

static int group_of(const struct kneed *n)
{
	if (n->want == KNEED_Y || n->want == KNEED_M)
		return G_WANTED;
	if (n->want == KNEED_N)
		return G_OFF;
	if (n->nprobed)
		return G_PROBED;
	if (n->abi)
		return G_ABI;
	return n->closed && n->because ? G_BROUGHT : G_PROBED;
}

static void option_row(struct strbuf *sb, const struct fp_kernel_map *m, const struct kneed *n, bool abi, bool running)
{
	static const char *const label[G_N] = {"needed", "only needed off", "probed", "for the ABI", "brought in"};
	static const char *const want[G_N] = {"y", "off", "probe", "abi", "closure"};
	int g = group_of(n);

	strbuf_addf(sb, "<tr data-want=\"%s\"><td class=\"mono opt\">CONFIG_", want[g]);
	html_esc(sb, n->name);
	strbuf_addf(sb, "</td><td><span class=\"label want-%s\">%s</span></td>", want[g], label[g]);
	if (abi) {
		strbuf_addstr(sb, "<td>");
		html_esc(sb, kf_abi_name(m->abi));
		strbuf_addstr(sb, "</td>");
	}
	if (running) {
		strbuf_addf(sb, "<td%s>", n->lacking ? " class=\"bad\"" : "");
		html_esc(sb, n->running ? n->running : "unknown");
		if (n->lacking)
			strbuf_addstr(sb, " (lacking)");
		strbuf_addstr(sb, "</td>");
	}
	strbuf_addstr(sb, "<td class=\"mono\">");
	names(sb, n->needed_by, n->nneeded);
	if (n->nfuncs)
		strbuf_addf(sb, "%s%zu kernel function%s", n->nneeded ? "; " : "", n->nfuncs,
			    n->nfuncs == 1 ? "" : "s");
	if (n->noff) {
		strbuf_addstr(sb, n->nneeded || n->nfuncs ? "; off for " : "off for ");
		names(sb, n->off_for, n->noff);
	}
	if (n->nfuncs_off)
		strbuf_addf(sb, "%s%zu kernel function%s off", n->nneeded || n->nfuncs || n->noff ? "; " : "",
			    n->nfuncs_off, n->nfuncs_off == 1 ? "" : "s");
	if (n->nprobed) {
		strbuf_addstr(sb, n->nneeded || n->nfuncs || n->noff || n->nfuncs_off ? "; probed by " : "probed by ");
		names(sb, n->probed_by, n->nprobed);
	}
	if (g == G_ABI) {
		strbuf_addstr(sb, "the ABI: the architecture's allnoconfig may answer another");
	} else if (g == G_BROUGHT) {
		strbuf_addstr(sb, "for CONFIG_");
		html_esc(sb, n->because);
		strbuf_addf(sb, " (%s", n->how ? n->how : "?");
		if (n->expr) {
			strbuf_addch(sb, ' ');
			html_esc(sb, n->expr);
		}
		strbuf_addch(sb, ')');
	}
	if (n->unmet) {
		strbuf_addstr(sb, "<br><span class=\"bad\">cannot hold on allnoconfig: ");
		html_esc(sb, n->unmet);
		strbuf_addstr(sb, "</span>");
	}
	strbuf_addstr(sb, "</td><td class=\"mono\">");
	if (n->kc.entry) {
		html_esc(sb, n->kc.where ? n->kc.where : "");
		if (n->kc.prompt) {
			strbuf_addstr(sb, " &quot;");
			html_esc(sb, n->kc.prompt);
			strbuf_addstr(sb, "&quot;");
		} else {
			strbuf_addstr(sb, " hidden");
		}
		if (n->kc.depends) {
			strbuf_addstr(sb, "<br>depends on ");
			html_esc(sb, n->kc.depends);
		}
	} else if (!n->closed) { /* the closure's own entries may come without the facts of theirs */
		strbuf_addstr(sb, "no Kconfig entry");
	}
	strbuf_addstr(sb, "</td></tr>\n");
}

static void options_table(struct strbuf *sb, const struct fp_kernel_map *const *maps, size_t nmaps)
{
	size_t count[G_N] = {0};
	bool running = false; /* a view of the built-in databases did not consult the running kernel: no column */

	for (size_t m = 0; m < nmaps; m++)
		running |= maps[m]->run != NULL;
	for (size_t m = 0; m < nmaps; m++)
		for (size_t i = 0; maps[m]->needs && i < maps[m]->needs->n; i++)
			count[group_of(&maps[m]->needs->v[i])]++;
	strbuf_addf(
	    sb,
	    "<h3>Kconfig options</h3>\n<p class=\"note\">%zu needed on; %zu more for the ABI and %zu brought in "
	    "by the closure over Kconfig (what the needed ones need on allnoconfig, as <code>map -F kconfig</code>); "
	    "%zu only needed off (the #else of a definition chosen); %zu only on the paths of probes or of calls "
	    "that all failed</p>\n",
	    count[G_WANTED], count[G_ABI], count[G_BROUGHT], count[G_OFF], count[G_PROBED]);
	if (!count[G_WANTED] && !count[G_ABI] && !count[G_BROUGHT] && !count[G_OFF] && !count[G_PROBED])
		return;
	strbuf_addf(sb,
		    "<table id=\"options\" class=\"sortable\"><thead><tr><th>option</th><th>wanted</th>%s%s"
		    "<th>needed by</th><th>Kconfig</th></tr></thead><tbody>\n",
		    nmaps > 1 ? "<th>ABI</th>" : "", running ? "<th>running</th>" : "");
	/* the needed ones first: the answer, with what a fragment needs for them; then what a reader would ask about */
	static const int order[G_N] = {G_WANTED, G_ABI, G_BROUGHT, G_OFF, G_PROBED};
	for (int o = 0; o < G_N; o++)
		for (size_t m = 0, g = order[o]; m < nmaps; m++)
			for (size_t i = 0; maps[m]->needs && i < maps[m]->needs->n; i++)
				if (group_of(&maps[m]->needs->v[i]) == (int)g)
					option_row(sb, maps[m], &maps[m]->needs->v[i], nmaps > 1, running);
	strbuf_addstr(sb, "</tbody></table>\n");
}

/* The syscalls that are not required (probes, newer than the tree) and why, and the conditions that are no option. */
static void option_notes(struct strbuf *sb, const struct fp_kernel_map *const *maps, size_t nmaps)
{
	size_t n = 0;

	for (size_t m = 0; m < nmaps; m++)
		n += maps[m]->needs ? maps[m]->needs->nnotes + maps[m]->needs->nconds : 0;
	if (!n)
		return;
	strbuf_addstr(sb, "<ul id=\"option-notes\" class=\"note\">\n");
	for (size_t m = 0; m < nmaps; m++) {
		const struct kneeds *k = maps[m]->needs;

		for (size_t i = 0; k && i < k->nnotes; i++) {
			strbuf_addstr(sb, "<li><code>");
			html_esc(sb, k->notes[i].item);
			strbuf_addstr(sb, "</code> not required: ");
			html_esc(sb, k->notes[i].why);
			strbuf_addstr(sb, "</li>\n");
		}
		for (size_t i = 0; k && i < k->nconds; i++) {
			strbuf_addstr(sb, "<li><code>");
			html_esc(sb, k->conds[i].item);
			strbuf_addstr(sb, "</code> also needs <code>");
			html_esc(sb, k->conds[i].expr ? k->conds[i].expr : "?");
			strbuf_addstr(sb, "</code>");
			if (k->conds[i].where) {
				strbuf_addstr(sb, " (");
				html_esc(sb, k->conds[i].where);
				strbuf_addstr(sb, ")");
			}
			strbuf_addstr(sb, "</li>\n");
		}
	}
	strbuf_addstr(sb, "</ul>\n");
}

/* ---- what the calls reached ---- */

static void chain_target(struct strbuf *sb, const struct kt_syscall *k)
{
	if (!k)
		return;
	html_esc(sb, k->macro ? k->macro : "?");
	if (k->def_name) {
		strbuf_addch(sb, ' ');
		html_esc(sb, k->def_name);
	}
	strbuf_addstr(sb, " at ");
	html_esc(sb, k->file ? k->file : "?");
	if (k->line) /* 0: a row of the reviewed table naming a whole file */
		strbuf_addf(sb, ":%d", k->line);
}

static void reached_table(struct strbuf *sb, const struct fp_kernel_map *const *maps, size_t nmaps)
{
	size_t n = 0;

	for (size_t m = 0; m < nmaps; m++)
		n += maps[m]->nreach;
	strbuf_addf(sb,
		    "<h3>What the calls reached</h3>\n<p class=\"note\">%zu fd kind%s, filesystem%s, socket "
		    "famil%s, ioctl command%s... each with the code it reaches</p>\n",
		    n, n == 1 ? "" : "s", n == 1 ? "" : "s", n == 1 ? "y" : "ies", n == 1 ? "" : "s");
	if (!n)
		return;
	strbuf_addstr(sb, "<table id=\"reached\" class=\"sortable\"><thead><tr><th>reached</th><th class=\"n\">calls"
			  "</th><th class=\"n\">errors</th><th>by</th><th>registered at</th><th>section</th>"
			  "<th>options</th><th>note</th></tr></thead><tbody>\n");
	for (size_t m = 0; m < nmaps; m++) {
		for (size_t i = 0; i < maps[m]->nreach; i++) {
			const struct kmap_reach *r = &maps[m]->reach[i];
			char buf[512];

			strbuf_addstr(sb, "<tr><td class=\"mono\">");
			html_esc(sb, r->label);
			strbuf_addf(sb,
				    "</td><td class=\"n\" data-v=\"%" PRIu64 "\">%" PRIu64 "</td><td class=\"n\" "
				    "data-v=\"%" PRIu64 "\">%" PRIu64 "</td><td class=\"mono\">",
				    r->calls, r->calls, r->errors, r->errors);
			names(sb, r->syscalls, r->nsyscalls);
			strbuf_addstr(sb, "</td><td class=\"mono\">");
			chain_target(sb, r->ks);
			strbuf_addstr(sb, "</td><td>");
			html_esc(sb, r->ks && r->ks->nsections ? r->ks->sections[0].section->name : "");
			strbuf_addstr(sb, "</td><td class=\"mono\">");
			names(sb, (const char *const *)r->opts, r->nopts);
			if (!r->nopts && r->ks && r->ks->status == KT_RESOLVED)
				strbuf_addstr(sb, "none: always built");
			strbuf_addstr(sb, "</td><td>");
			if (!r->required)
				strbuf_addstr(sb, "<span class=\"label want-probe\">not required</span> ");
			html_esc(sb, kmap_reach_note(maps[m], r, buf, sizeof(buf)));
			strbuf_addstr(sb, "</td></tr>\n");
		}
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}

/* ---- the page's parts ---- */

static void tree_of(char *buf, size_t len, const struct fp_kernel_map *m)
{
	snprintf(buf, len, "%d.%d", m->db->ver, m->db->patch);
}

void html_answer_summary(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view)
{
	const struct fp_kernel_map *const *maps;
	size_t nmaps = html_maps(fp, view, &maps), funcs, n;
	struct secs ss;
	char tree[32];

	if (!nmaps || !fp->syscalls.count)
		return;
	n = count_needed(maps, nmaps, &funcs);
	tree_of(tree, sizeof(tree), maps[0]);
	collect_sections(&ss, maps, nmaps);
	strbuf_addf(sb,
		    "<dt>kconfig</dt><dd id=\"sum-kconfig\"><a href=\"#options\">%zu option%s needed</a> (Linux %s)", n,
		    n == 1 ? "" : "s", tree);
	if (funcs)
		strbuf_addf(sb, ", and %zu more for the kernel functions", funcs);
	strbuf_addf(sb, "</dd>\n<dt>maintainers</dt><dd id=\"sum-sections\"><a href=\"#sections\">%zu section%s</a>",
		    ss.n, ss.n == 1 ? "" : "s");
	for (size_t i = 0; i < ss.n && i < 3; i++) {
		strbuf_addstr(sb, i ? ", " : ": ");
		html_esc(sb, ss.v[i].s->name);
	}
	strbuf_addstr(sb, ss.n > 3 ? ", ...</dd>\n" : "</dd>\n");
	secs_release(&ss);
}

void html_answer(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view)
{
	const struct fp_kernel_map *const *maps;
	size_t nmaps = html_maps(fp, view, &maps);
	struct secs ss;
	char tree[32];

	strbuf_addstr(sb, "<section id=\"answer\"><h2>What the kernel must have</h2>\n");
	if (!nmaps) {
		strbuf_addstr(sb, fp->syscalls.count
				      ? "<p>not mapped: no database of the ABIs this footprint used</p>\n"
				      : "<p>no system calls recorded</p>\n");
		strbuf_addstr(sb, "</section>\n");
		return;
	}
	tree_of(tree, sizeof(tree), maps[0]);
	strbuf_addf(sb, "<p class=\"note\">Linux %s, ", tree);
	html_esc(sb, maps[0]->db->origin ? maps[0]->db->origin : "database");
	if (maps[0]->run && *maps[0]->run->release) {
		strbuf_addstr(sb, "; running kernel ");
		html_esc(sb, maps[0]->run->release);
		if (!maps[0]->run->have_config)
			strbuf_addstr(sb, ", its options unknown (no /proc/config.gz)");
	} else {
		strbuf_addstr(sb, "; the running kernel not consulted");
	}
	strbuf_addstr(sb, ". <code>kfootprint map FILE</code> gives each chain.</p>\n");
	options_table(sb, maps, nmaps);
	option_notes(sb, maps, nmaps);
	collect_sections(&ss, maps, nmaps);
	sections_table(sb, &ss);
	secs_release(&ss);
	reached_table(sb, maps, nmaps);
	strbuf_addstr(sb, "</section>\n");
}

void html_sources(struct strbuf *sb, const struct footprint *fp, const struct kmap_view *view)
{
	const struct fp_kernel_map *const *maps;
	size_t nmaps = html_maps(fp, view, &maps);

	if (!nmaps)
		return;
	strbuf_addstr(sb, "<h2>Kernel source of each system call</h2>\n<table id=\"sources\" class=\"sortable\">"
			  "<thead><tr><th>System call</th><th>ABI</th><th>defined at</th><th>section</th>"
			  "<th>running</th><th>options</th><th>note</th></tr></thead><tbody>\n");
	for (size_t m = 0; m < nmaps; m++) {
		for (size_t i = 0; i < maps[m]->nrows; i++) {
			const struct kmap_row *r = &maps[m]->rows[i];
			char buf[512];

			strbuf_addstr(sb, "<tr><td class=\"mono\">");
			html_esc(sb, r->name);
			strbuf_addstr(sb, "</td><td>");
			html_esc(sb, kf_abi_name(r->abi));
			strbuf_addstr(sb, "</td><td class=\"mono\">");
			html_esc(sb, kmap_row_where(r, buf, sizeof(buf)) ? buf : "");
			strbuf_addstr(sb, "</td><td>");
			html_esc(sb, kmap_row_section(r));
			strbuf_addstr(sb, "</td><td>");
			html_esc(sb, kf_run_status_name(r->running));
			strbuf_addstr(sb, "</td><td class=\"mono\">");
			names(sb, (const char *const *)r->opts, r->nopts);
			strbuf_addstr(sb, "</td><td>");
			if (!r->required)
				strbuf_addstr(sb, r->probe ? "<span class=\"label want-probe\">probe</span> "
							   : "<span class=\"label want-probe\">not required</span> ");
			html_esc(sb, kmap_row_note(maps[m], r, buf, sizeof(buf)));
			strbuf_addstr(sb, "</td></tr>\n");
		}
	}
	strbuf_addstr(sb, "</tbody></table>\n");
}
