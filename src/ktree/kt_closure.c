// SPDX-License-Identifier: GPL-2.0
// The closure of needed options over Kconfig: from the options a footprint needs to the assignments a fragment on
// allnoconfig must carry so that every one of them survives `conf`. Kconfig drops an assignment whose `depends on`
// does not hold, and a hidden option cannot be assigned at all: it follows from a default or a select. So each
// needed option brings in what its dependencies, its prompt's condition, or (hidden) one default or selector need,
// recursively, trying the alternatives of an `||` in order and undoing a failed one. What cannot be met (a
// dependency the base rules out, an option the tree does not define) is reported with its expression, never
// dropped. The kernel's own `conf` stays the judge: this only proposes (docs/kconfig-closure.md).
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_closure_int.h"
#include "abi/abi.h"
#include "ktree/kt_kexpr_tree.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static char on_y[] = "y", on_m[] = "m", off_n[] = "n", busy[] = "busy", some[] = "default";

struct solver {
	const struct kt_kconfig *kc;
	const char *arch;   /* $(ARCH), $(SRCARCH) */
	const char *forced; /* space-separated symbols on whatever the configuration (the ABI's tree_on) */
	struct kt_map set;  /* name -> on_y / off_n / NULL: the fragment's assignments (NULL: undone) */
	char **log;	    /* names assigned, in order, for undoing */
	size_t nlog, caplog;
	struct kt_map memo; /* name -> value under the current assignments */
	struct kt_map busy; /* names being made to hold: a cycle is taken as met */
	int depth;	    /* of ensure() calls */
	struct kt_closure *out;
	size_t nchanges; /* assignments made since the memo was last cleared */
};

/*
 * Kconfig macros are expanded by the kconfig tool as it reads: $(ARCH) and $(SRCARCH) are the architecture, and
 * every other one ($(cc-option,...), $(success,...)) is a toolchain test, taken to succeed (the judge will say).
 */
static char *expand(const struct solver *s, const char *text)
{
	if (!strchr(text, '$'))
		return xstrdup(text);
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = text; *p;) {
		if (p[0] != '$' || p[1] != '(') {
			strbuf_addch(&sb, *p++);
			continue;
		}
		const char *b = p + 2, *q = b;
		for (int depth = 1; *q && depth; q++)
			depth += (*q == '(') - (*q == ')');
		size_t n = (size_t)(q - b) - (q > b && q[-1] == ')');
		bool arch = (n == 4 && !strncmp(b, "ARCH", 4)) || (n == 7 && !strncmp(b, "SRCARCH", 7));
		strbuf_addstr(&sb, arch ? s->arch : "y");
		p = q;
	}
	return strbuf_detach(&sb);
}

static const char *value(struct solver *s, const char *name);

static const char *lookup(void *ctx, const char *name)
{
	const char *v = value(ctx, name);
	return v == off_n ? NULL : v;
}

static int eval(struct solver *s, const char *text)
{
	char *e = expand(s, text);
	int v = kt_kexpr_eval(e, lookup, s);
	free(e);
	return v;
}

static int tri(const char *v)
{
	return v == on_y ? 2 : v == on_m ? 1 : v == some ? 2 : 0;
}

static bool is_bool(const struct kt_option *o)
{
	return !o->type || !strcmp(o->type, "bool") || !strcmp(o->type, "tristate");
}

static bool visible(struct solver *s, const struct kt_option *o)
{
	return o->prompt && (!o->prompt_if || eval(s, o->prompt_if) > 0);
}

static bool selected(struct solver *s, const char *name)
{
	struct kt_strv *sel = kt_map_get(&s->kc->rsel, name);

	for (size_t i = 0; sel && i < sel->n; i++) {
		const char *iff = strstr(sel->v[i], " if ");
		char *who = iff ? xstrndup(sel->v[i], (size_t)(iff - sel->v[i])) : xstrdup(sel->v[i]);
		bool on = tri(value(s, who)) > 0 && (!iff || eval(s, iff + 4) > 0);
		free(who);
		if (on)
			return true;
	}
	return false;
}

static bool deps_hold(struct solver *s, const char *name)
{
	const struct kt_option *o = kt_map_get(&s->kc->opts, name);
	return o && (!o->depends || eval(s, o->depends) > 0);
}

/* The member conf gives a choice: the one assigned y, else the first default that holds, else the first. */
static const char *chosen(struct solver *s, const struct kt_option_raw *ch)
{
	for (size_t i = 0; i < ch->members.n; i++) {
		const char *m = ch->members.v[i];
		if (kt_map_get(&s->set, m) == on_y && deps_hold(s, m))
			return m;
	}
	for (size_t i = 0; i < ch->defaults.n; i++) {
		const char *d = ch->defaults.v[i];
		const char *iff = strstr(d, " if ");
		char *m = iff ? xstrndup(d, (size_t)(iff - d)) : xstrdup(d);
		for (char *t = m + strlen(m); t > m && isspace((unsigned char)t[-1]);)
			*--t = '\0';
		const char *hit = NULL;
		if ((!iff || eval(s, iff + 4) > 0) && deps_hold(s, m))
			for (size_t j = 0; !hit && j < ch->members.n; j++)
				hit = !strcmp(ch->members.v[j], m) ? ch->members.v[j] : NULL;
		free(m);
		if (hit)
			return hit;
	}
	for (size_t i = 0; i < ch->members.n; i++)
		if (deps_hold(s, ch->members.v[i]))
			return ch->members.v[i];
	return NULL;
}

/* The option's value on allnoconfig with the assignments made so far, as `conf` would compute it. */
static const char *value(struct solver *s, const char *name)
{
	if (kt_word_in(s->forced, name))
		return on_y;
	const char *m = kt_map_get(&s->memo, name);
	if (m == busy)
		return off_n; /* a cycle of defaults: off, as conf breaks it */
	if (m)
		return m;
	const struct kt_option *o = kt_map_get(&s->kc->opts, name);
	if (!o) {
		kt_map_put(&s->memo, name, off_n);
		return off_n;
	}
	kt_map_put(&s->memo, name, busy);
	const struct kt_option_raw *r = kt_option_raw(s->kc, name);
	const char *v = off_n;
	if (!o->depends || eval(s, o->depends) > 0) {
		const struct kt_option_raw *ch = r && r->choice ? kt_option_raw(s->kc, r->choice) : NULL;
		if (ch) {
			const char *c = chosen(s, ch);
			v = c && !strcmp(c, name) ? on_y : off_n;
		} else if (visible(s, o) && is_bool(o)) {
			const char *a = kt_map_get(&s->set, name); /* allnoconfig: off unless assigned */
			v = a == on_y ? on_y : off_n;
		} else {
			for (size_t i = 0; r && i < r->defaults.n; i++) {
				const char *d = r->defaults.v[i];
				const char *iff = strstr(d, " if ");
				if (iff && eval(s, iff + 4) <= 0)
					continue;
				char *e = iff ? xstrndup(d, (size_t)(iff - d)) : xstrdup(d);
				int t = is_bool(o) ? eval(s, e) : 2;
				free(e);
				v = !is_bool(o) ? some : t == 2 ? on_y : t == 1 ? on_m : off_n;
				break;
			}
		}
	}
	if (v == off_n && selected(s, name))
		v = on_y; /* select overrides depends on */
	kt_map_put(&s->memo, name, (void *)v);
	return v;
}

static void forget(struct solver *s)
{
	kt_map_release(&s->memo, NULL);
	memset(&s->memo, 0, sizeof(s->memo));
}

static void assign(struct solver *s, const char *name, char *v)
{
	kt_map_put(&s->set, name, v);
	XGROW(s->log, s->caplog, s->nlog + 1);
	s->log[s->nlog++] = xstrdup(name);
	forget(s);
}

struct mark {
	size_t nlog, nneeds, nunmet;
};

static struct mark mark_of(const struct solver *s)
{
	return (struct mark){s->nlog, s->out->nneeds, s->out->nunmet};
}

static void undo(struct solver *s, struct mark m)
{
	while (s->nlog > m.nlog) {
		char *n = s->log[--s->nlog];
		kt_map_put(&s->set, n, NULL);
		free(n);
	}
	while (s->out->nneeds > m.nneeds)
		kt_need_release(&s->out->needs[--s->out->nneeds]);
	while (s->out->nunmet > m.nunmet) {
		struct kt_unmet *u = &s->out->unmet[--s->out->nunmet];
		free(u->option);
		free(u->why);
	}
	forget(s);
}

static const struct kt_need *recorded(const struct solver *s, const char *name)
{
	for (size_t i = 0; i < s->out->nneeds; i++)
		if (!strcmp(s->out->needs[i].option, name))
			return &s->out->needs[i];
	return NULL;
}

static void record(struct solver *s, const char *name, char value, enum kt_need_how how, const char *because,
		   const char *expr, bool hidden)
{
	if (recorded(s, name))
		return;
	struct kt_closure *c = s->out;
	XGROW(c->needs, c->capneeds, c->nneeds + 1);
	c->needs[c->nneeds++] = (struct kt_need){.option = xstrdup(name),
						 .value = value,
						 .how = how,
						 .because = because ? xstrdup(because) : NULL,
						 .expr = expr ? xstrdup(expr) : NULL,
						 .hidden = hidden};
}

static bool unmet(struct solver *s, const char *name, char *why)
{
	struct kt_closure *c = s->out;
	XGROW(c->unmet, c->capunmet, c->nunmet + 1);
	c->unmet[c->nunmet++] = (struct kt_unmet){.option = xstrdup(name), .why = why};
	return false;
}

static bool ensure(struct solver *s, const char *name, enum kt_need_how how, const char *because, const char *expr);

static bool ensure_off(struct solver *s, const char *name, const char *because, const char *expr)
{
	if (tri(value(s, name)) == 0) {
		const struct kt_option *o = kt_map_get(&s->kc->opts, name);
		if (o)
			record(s, name, 'n', KT_NEED_OFF, because, expr, !o->prompt);
		return true;
	}
	return unmet(s, because ? because : name,
		     xasprintf("needs %s off (%s), but %s is on", name, expr ? expr : "asked", name));
}

static int eval_node(struct solver *s, const struct kexpr *e)
{
	switch (e->op) {
	case KX_SYM:
		if (kexpr_is_const(e))
			return !strcmp(e->sym, "y") ? 2 : !strcmp(e->sym, "m") ? 1 : 0;
		return tri(value(s, e->sym));
	case KX_NOT: return 2 - eval_node(s, e->l);
	case KX_AND: {
		int a = eval_node(s, e->l), b = a ? eval_node(s, e->r) : 0;
		return a < b ? a : b;
	}
	case KX_OR: {
		int a = eval_node(s, e->l), b = a == 2 ? 2 : eval_node(s, e->r);
		return a > b ? a : b;
	}
	default: break;
	}
	/* comparisons: the text evaluator knows them (strings, numbers, tristate values) */
	struct strbuf sb = STRBUF_INIT;
	static const char *const ops[] = {
	    [KX_EQ] = "=", [KX_NE] = "!=", [KX_LT] = "<", [KX_LE] = "<=", [KX_GT] = ">", [KX_GE] = ">="};
	for (int side = 0; side < 2; side++) {
		const struct kexpr *a = side ? e->r : e->l;
		if (a->quoted)
			strbuf_addf(&sb, "\"%s\"", a->sym);
		else
			strbuf_addstr(&sb, a->sym);
		if (!side)
			strbuf_addf(&sb, " %s ", ops[e->op]);
	}
	int v = kt_kexpr_eval(sb.buf, lookup, s);
	strbuf_release(&sb);
	return v;
}

/* Makes e hold (because: whose condition it is, how: which of its conditions), undoing what a failed try made. */
static bool satisfy(struct solver *s, const struct kexpr *e, const char *because, enum kt_need_how how,
		    const char *text)
{
	switch (e->op) {
	case KX_SYM:
		if (kexpr_is_const(e))
			return strcmp(e->sym, "n") && strcmp(e->sym, "")
				   ? true
				   : unmet(s, because, xasprintf("%s is false", text));
		return ensure(s, e->sym, how, because, text);
	case KX_NOT:
		if (e->l->op == KX_SYM && !kexpr_is_const(e->l))
			return ensure_off(s, e->l->sym, because, text);
		break;
	case KX_AND: return satisfy(s, e->l, because, how, text) && satisfy(s, e->r, because, how, text);
	case KX_OR: {
		if (eval_node(s, e) > 0)
			return true; /* holds already: take no alternative it does not need */
		struct mark m = mark_of(s);
		if (satisfy(s, e->l, because, how, text))
			return true;
		undo(s, m);
		return satisfy(s, e->r, because, how, text);
	}
	case KX_EQ:
	case KX_NE: {
		const struct kexpr *sym = kexpr_is_const(e->l) ? e->r : e->l, *k = sym == e->l ? e->r : e->l;
		if (!kexpr_is_const(sym) && kexpr_is_const(k) && !k->quoted) {
			bool want_on = (e->op == KX_EQ) == (strcmp(k->sym, "n") != 0);
			return want_on ? ensure(s, sym->sym, how, because, text)
				       : ensure_off(s, sym->sym, because, text);
		}
		break;
	}
	default: break;
	}
	if (eval_node(s, e) > 0)
		return true;
	/* a comparison of strings or numbers, a negated compound: nothing to turn on, and it does not hold */
	return unmet(s, because, xasprintf("%s does not hold here", text));
}

static bool satisfy_text(struct solver *s, const char *text, const char *because, enum kt_need_how how)
{
	char *x = expand(s, text);
	struct kexpr *e = kexpr_parse(x, NULL);
	bool ok = satisfy(s, e, because, how, x);
	kexpr_free(e);
	free(x);
	return ok;
}

static bool try_selector(struct solver *s, const char *name, const char *entry)
{
	const char *iff = strstr(entry, " if ");
	char *who = iff ? xstrndup(entry, (size_t)(iff - entry)) : xstrdup(entry);
	bool ok = ensure(s, who, KT_NEED_SELECTS, name, entry) &&
		  (!iff || satisfy_text(s, iff + 4, name, KT_NEED_SELECTS)) && tri(value(s, name)) > 0;
	free(who);
	return ok;
}

/* A hidden option is on only through one of its defaults or a selector. */
static bool turn_on_hidden(struct solver *s, const char *name, const struct kt_option_raw *r)
{
	for (size_t i = 0; r && i < r->defaults.n; i++) {
		const char *d = r->defaults.v[i];
		const char *iff = strstr(d, " if ");
		char *e = iff ? xstrndup(d, (size_t)(iff - d)) : xstrdup(d);
		struct mark m = mark_of(s);
		bool ok = (!iff || satisfy_text(s, iff + 4, name, KT_NEED_DEFAULT)) &&
			  satisfy_text(s, e, name, KT_NEED_DEFAULT) && tri(value(s, name)) > 0;
		free(e);
		if (ok)
			return true;
		undo(s, m);
		if (iff && eval(s, iff + 4) > 0)
			break; /* this default holds and is off: the later ones are never looked at */
	}
	/*
	 * A selector: the one that brings in the fewest assignments (VIRTIO is selected by twenty drivers; with PCI
	 * on, VIRTIO_PCI costs one, CAIF_VIRTIO three). Trying each costs a closure of its own, so only near the
	 * top; deeper down the first that holds is taken.
	 */
	struct kt_strv *sel = kt_map_get(&s->kc->rsel, name);
	size_t best = SIZE_MAX, best_cost = SIZE_MAX;
	bool cheapest = s->depth <= 2;
	for (size_t i = 0; sel && i < sel->n; i++) {
		struct mark m = mark_of(s);
		bool ok = try_selector(s, name, sel->v[i]);
		size_t cost = s->nlog - m.nlog;
		if (ok && !cheapest)
			return true;
		undo(s, m);
		if (ok && cost < best_cost) {
			best = i;
			best_cost = cost;
		}
	}
	return best != SIZE_MAX && try_selector(s, name, sel->v[best]);
}

static bool ensure(struct solver *s, const char *name, enum kt_need_how how, const char *because, const char *expr)
{
	const struct kt_option *o = kt_map_get(&s->kc->opts, name);
	if (!o && !kt_word_in(s->forced, name))
		return unmet(s, name,
			     xasprintf("not defined for %s by this tree's Kconfig%s%s", s->arch,
				       because ? ", needed by " : "", because ? because : ""));
	if (tri(value(s, name)) > 0) {
		/*
		 * On already, by a default or a select. One with a prompt is pinned all the same: a later assignment
		 * can make its prompt visible (EXPERT makes BLOCK's), and allnoconfig then answers no.
		 */
		if (o && o->prompt && !kt_map_get(&s->set, name) && !recorded(s, name))
			assign(s, name, on_y);
		if (o && (how == KT_NEED_ROOT || o->prompt))
			record(s, name, 'y', how, because, expr, !o->prompt);
		return true;
	}
	if (kt_map_get(&s->busy, name))
		return true; /* a cycle: met once its start is */
	kt_map_put(&s->busy, name, on_y);
	s->depth++;
	const struct kt_option_raw *r = kt_option_raw(s->kc, name);
	bool ok = !o->depends || satisfy_text(s, o->depends, name, KT_NEED_DEPENDS);
	bool hidden = !o->prompt;
	const struct kt_need *off = recorded(s, name);
	if (off && off->value == 'n') {
		kt_map_put(&s->busy, name, NULL);
		s->depth--;
		return unmet(s, name,
			     xasprintf("needed on, but %s needs it off (%s)", off->because ? off->because : "",
				       off->expr ? off->expr : "asked"));
	}
	if (ok && !hidden) {
		ok = !o->prompt_if || satisfy_text(s, o->prompt_if, name, KT_NEED_VISIBLE);
		if (ok)
			assign(s, name, on_y);
	} else if (ok) {
		ok = turn_on_hidden(s, name, r);
		if (!ok)
			unmet(s, name,
			      xasprintf("hidden, and no default or select that turns it on can be made to hold"));
	}
	if (ok && tri(value(s, name)) == 0) {
		const struct kt_option_raw *ch = r && r->choice ? kt_option_raw(s->kc, r->choice) : NULL;
		const char *c = ch ? chosen(s, ch) : NULL;
		ok = unmet(s, name,
			   c ? xasprintf("a choice that gives %s instead", c)
			     : xasprintf("still off once its conditions hold"));
	}
	kt_map_put(&s->busy, name, NULL);
	s->depth--;
	if (ok)
		record(s, name, 'y', how, because, expr, hidden);
	return ok;
}

void kt_need_release(struct kt_need *n)
{
	free(n->option);
	free(n->because);
	free(n->expr);
}

int kt_closure_solve(const struct kt_kconfig *kc, const char *arch, const char *forced, const struct kt_want *want,
		     size_t n, struct kt_closure *out)
{
	struct solver s = {.kc = kc, .arch = arch, .forced = forced ? forced : "", .out = out};

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		struct mark m = mark_of(&s);
		bool ok = want[i].value == 'n' ? ensure_off(&s, want[i].option, NULL, NULL)
					       : ensure(&s, want[i].option, KT_NEED_ROOT, NULL, NULL);
		if (!ok) {
			/* the root named once, with what stood in its way; what it had brought in is dropped */
			struct strbuf why = STRBUF_INIT;
			for (size_t j = m.nunmet; j < out->nunmet; j++) {
				const struct kt_unmet *u = &out->unmet[j];
				if (strcmp(u->option, want[i].option))
					strbuf_addf(&why, "%s%s: %s", why.len ? "; " : "", u->option, u->why);
				else
					strbuf_addf(&why, "%s%s", why.len ? "; " : "", u->why);
			}
			undo(&s, m);
			unmet(&s, want[i].option, strbuf_detach(&why));
		}
	}
	/*
	 * What a later assignment changed: a default that no longer holds, a choice that moved. Made to hold again,
	 * a few rounds; what still does not is unmet.
	 */
	for (int round = 0; round < 4; round++) {
		bool again = false;
		for (size_t i = 0; i < out->nneeds; i++) {
			const struct kt_need *k = &out->needs[i];
			if ((k->value == 'y') == (tri(value(&s, k->option)) > 0))
				continue;
			again = true;
			if (round < 3 && k->value == 'y') {
				char *name = xstrdup(k->option);
				kt_map_put(&s.set, name, NULL);
				forget(&s);
				ensure(&s, name, k->how, k->because, k->expr);
				free(name);
			} else if (round == 3) {
				unmet(&s, k->option,
				      xasprintf("%s once the rest is assigned", k->value == 'y' ? "off" : "on"));
			}
		}
		if (!again)
			break;
	}
	/* the roots that hold, first, in the order asked */
	for (size_t i = 0, k = 0; i < n; i++)
		for (size_t j = k; j < out->nneeds; j++)
			if (out->needs[j].how == KT_NEED_ROOT && !strcmp(out->needs[j].option, want[i].option)) {
				struct kt_need t = out->needs[j];
				memmove(&out->needs[k + 1], &out->needs[k], (j - k) * sizeof(t));
				out->needs[k++] = t;
				break;
			}
	for (size_t i = 0; i < out->nneeds; i++)
		out->needs[i].final = value(&s, out->needs[i].option) == on_y	? 'y'
				      : value(&s, out->needs[i].option) == on_m ? 'm'
										: 'n';
	for (size_t i = 0; i < s.nlog; i++)
		free(s.log[i]);
	free(s.log);
	kt_map_release(&s.set, NULL);
	kt_map_release(&s.memo, NULL);
	kt_map_release(&s.busy, NULL);
	return out->nunmet ? -1 : 0;
}

void kt_closure_release(struct kt_closure *c)
{
	for (size_t i = 0; i < c->nneeds; i++)
		kt_need_release(&c->needs[i]);
	free(c->needs);
	for (size_t i = 0; i < c->nunmet; i++) {
		free(c->unmet[i].option);
		free(c->unmet[i].why);
	}
	free(c->unmet);
	memset(c, 0, sizeof(*c));
}

const char *kt_need_how_name(enum kt_need_how h)
{
	static const char *const names[] = {
	    [KT_NEED_ROOT] = "needed",	   [KT_NEED_DEPENDS] = "depends on", [KT_NEED_VISIBLE] = "prompt if",
	    [KT_NEED_SELECTS] = "selects", [KT_NEED_DEFAULT] = "default",    [KT_NEED_OFF] = "must be off",
	};
	return (unsigned)h < sizeof(names) / sizeof(names[0]) && names[h] ? names[h] : "?";
}

int kt_index_closure(const struct kt_index *idx, const struct kt_want *want, size_t n, struct kt_closure *out)
{
	/* nothing forced: the tree's own defaults make X86 and MMU, and 64BIT (asked for) makes X86_64 */
	return kt_closure_solve(&idx->kc, kf_abi_get(idx->abi)->tree_arch, NULL, want, n, out);
}
