// SPDX-License-Identifier: GPL-2.0
// What tailor asks of Kconfig: the footprint's options from its mapping, the baselet, what re-tests added; and
// the fragment of their closure, each line under the reason it is there.
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "kmap/annotate.h"
#include "kmap/kmap.h"
#include "kmap/kneeds.h"
#include "tailor/tailor.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

bool tl_wants_has(const struct tl_wants *w, const char *option)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].option, option))
			return true;
	return false;
}

void tl_wants_add(struct tl_wants *w, const char *option, char value, const char *why, int round)
{
	if (tl_wants_has(w, option))
		return;
	XGROW(w->v, w->cap, w->n + 1);
	w->v[w->n++] = (struct tl_want){xstrdup(option), value, xstrdup(why), round};
}

void tl_wants_release(struct tl_wants *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->v[i].option);
		free(w->v[i].why);
	}
	free(w->v);
	memset(w, 0, sizeof(*w));
}

static char *joined(const char *head, const char *const *v, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, head);
	for (size_t i = 0; i < n && i < 6; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : " ", v[i]);
	if (n > 6)
		strbuf_addf(&sb, " and %zu more", n - 6);
	return strbuf_detach(&sb);
}

int tl_needs(struct footprint *fp, const struct mapdb *db, struct tl_wants *w)
{
	const struct fp_kernel_map *m = annotate_kernel(fp, db, NULL, "tailor");
	if (!m)
		return -1;
	/*
	 * The needs the mapping made (kneeds.h): the options its items name. What the map's own closure brought in
	 * is left to tailor's, which closes these with the baselet and what re-tests add, by the same solver.
	 */
	for (size_t i = 0; i < m->needs->n; i++) {
		const struct kneed *o = &m->needs->v[i];
		char *why = NULL;
		if (o->nneeded) {
			why = joined("needed by", o->needed_by, o->nneeded);
			tl_wants_add(w, o->name, 'y', why, 0);
		} else if (o->noff) {
			why = joined("needed off by", o->off_for, o->noff);
			tl_wants_add(w, o->name, 'n', why, 0);
		}
		free(why);
	}
	return 0;
}

static const struct tl_want *want_of(const struct tl_wants *w, const char *option)
{
	for (size_t i = 0; i < w->n; i++)
		if (!strcmp(w->v[i].option, option))
			return &w->v[i];
	return NULL;
}

char *tl_fragment(const struct kt_closure *c, const struct tl_wants *w)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "# kfootprint tailor: allnoconfig plus these (merge_config.sh -n, or KCONFIG_ALLCONFIG)\n");
	for (size_t i = 0; i < c->nneeds; i++) {
		const struct kt_need *k = &c->needs[i];
		const struct tl_want *wt = want_of(w, k->option);
		/* never a comment that starts "# CONFIG_": merge_config.sh would read it as "is not set" */
		if (wt && k->how == KT_NEED_ROOT)
			strbuf_addf(&sb, "\n# %s: %s%s\n", k->option, wt->why,
				    wt->round ? " (a re-test found it)" : "");
		else
			strbuf_addf(&sb, "\n# %s: %s %s\n", k->option, kt_need_how_name(k->how),
				    k->because ? k->because : "");
		if (k->hidden)
			strbuf_addf(&sb, "#   hidden: follows from the others (%s)\n", k->value == 'y' ? "on" : "off");
		else if (k->value == 'y')
			strbuf_addf(&sb, "CONFIG_%s=y\n", k->option);
		else
			strbuf_addf(&sb, "# CONFIG_%s is not set\n", k->option);
	}
	for (size_t i = 0; i < c->nunmet; i++)
		strbuf_addf(&sb, "\n# unmet: %s: %s\n", c->unmet[i].option, c->unmet[i].why);
	return strbuf_detach(&sb);
}
