// SPDX-License-Identifier: GPL-2.0
// Kconfig reading: one entry per symbol (file:line, type, prompt, depends, defaults, help) and the reverse
// select/imply maps. Files are found by walking the tree (arch/<arch> first, then the generic directories) rather
// than by following `source`, so a tree with a broken source line still yields every entry it has.
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct block {
	char *expr;		      /* the `if` expression or the menu's `depends on` (NULL when none) */
	bool is_menu;		      /* menu/choice/if: which end keyword closes it */
	int kind;		      /* 0 if, 1 menu, 2 choice */
	struct kt_option_raw *choice; /* kind 2: the choice's raw entry, under key */
	char *key;
};

struct kparser {
	struct kt_kconfig *kc;
	const char *rel;
	struct block *b;
	size_t nb, capb;
	struct kt_option *cur; /* entry being read, NULL for menu/comment/choice headers */
	struct kt_option_raw *raw;
	bool cur_new;	    /* first definition of the name (fields may be filled) */
	int cur_kind;	    /* 0 entry, 1 menu header, 2 comment/other, 3 choice header */
	struct strbuf deps; /* the entry's own depends on */
	/* following `source` (NULL srcdir: do not) */
	const char *srcdir, *arch;
	const char *inherited; /* the if/menu dependencies around the `source` line that brought us here */
	int depth;
	struct kt_map *visited;
};

static void source_file(struct kt_kconfig *kc, const char *srcdir, const char *arch, const char *rel,
			const char *inherited, int depth, struct kt_map *visited);

static char *trim_dup(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/* Parses `"prompt text" [if EXPR]`; returns the text (or NULL) and sets *cond. */
static char *quoted(const char *s, char **cond)
{
	*cond = NULL;
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '"' && *s != '\'')
		return NULL;
	char q = *s++;
	struct strbuf sb = STRBUF_INIT;
	while (*s && *s != q) {
		if (*s == '\\' && s[1])
			s++;
		strbuf_addch(&sb, *s++);
	}
	if (*s)
		s++;
	while (isspace((unsigned char)*s))
		s++;
	if (!strncmp(s, "if", 2) && isspace((unsigned char)s[2]))
		*cond = trim_dup(s + 3);
	return strbuf_detach(&sb);
}

static bool kw(const char *s, const char *word, const char **rest)
{
	size_t n = strlen(word);

	if (strncmp(s, word, n) || (s[n] && !isspace((unsigned char)s[n])))
		return false;
	*rest = s + n;
	while (isspace((unsigned char)**rest))
		(*rest)++;
	return true;
}

static void finish_entry(struct kparser *p)
{
	if (p->cur && p->cur_new) {
		struct strbuf all = STRBUF_INIT;
		if (p->inherited)
			strbuf_addstr(&all, p->inherited);
		for (size_t i = 0; i < p->nb; i++) {
			if (!p->b[i].expr)
				continue;
			if (all.len)
				strbuf_addstr(&all, " && ");
			strbuf_addf(&all, "%s", p->b[i].expr);
		}
		if (p->deps.len) {
			if (all.len)
				strbuf_addstr(&all, " && ");
			strbuf_add(&all, p->deps.buf, p->deps.len);
		}
		if (all.len)
			p->cur->depends = strbuf_detach(&all);
		strbuf_release(&all);
	}
	strbuf_reset(&p->deps);
	p->cur = NULL;
	p->raw = NULL;
	p->cur_kind = 2;
}

/* The innermost enclosing block when it is a choice (members of a choice nest no further blocks in practice). */
static const struct block *current_choice(const struct kparser *p)
{
	for (size_t i = p->nb; i-- > 0;) {
		if (p->b[i].kind == 2)
			return p->b[i].choice ? &p->b[i] : NULL;
		if (p->b[i].kind == 1)
			return NULL;
	}
	return NULL;
}

static void new_entry(struct kparser *p, const char *name, int line)
{
	finish_entry(p);
	struct kt_option *o = kt_map_get(&p->kc->opts, name);
	p->cur_new = o == NULL;
	if (!o) {
		o = xcalloc(1, sizeof(*o));
		o->name = xstrdup(name);
		o->file = xstrdup(p->rel);
		o->line = line;
		kt_map_put(&p->kc->opts, name, o);
	}
	o->ndefinitions++;
	p->kc->nentries++;
	struct kt_option_raw *r = kt_map_get(&p->kc->raw, name);
	if (!r) {
		r = xcalloc(1, sizeof(*r));
		kt_map_put(&p->kc->raw, name, r);
	}
	p->cur = o;
	p->raw = r;
	p->cur_kind = 0;
	const struct block *ch = current_choice(p);
	if (ch && !r->choice) {
		r->choice = xstrdup(ch->key);
		if (!kt_strv_has(&ch->choice->members, name))
			kt_strv_push(&ch->choice->members, name);
	}
}

static void reverse(struct kt_map *m, const char *target, const char *who, const char *cond)
{
	struct kt_strv *sv = kt_map_get(m, target);

	if (!sv) {
		sv = xcalloc(1, sizeof(*sv));
		kt_map_put(m, target, sv);
	}
	char *s = cond ? xasprintf("%s if %s", who, cond) : xstrdup(who);
	if (!kt_strv_has(sv, s))
		kt_strv_push(sv, s);
	free(s);
}

static void set_type(struct kparser *p, const char *type, const char *rest)
{
	if (!p->cur)
		return;
	if (!p->cur->type)
		p->cur->type = xstrdup(type);
	char *cond;
	char *prompt = quoted(rest, &cond);
	if (prompt && !p->cur->prompt) {
		p->cur->prompt = prompt;
		p->cur->prompt_if = cond;
	} else {
		free(prompt);
		free(cond);
	}
}

static void add_default(struct kparser *p, const char *rest)
{
	if (p->raw)
		kt_strv_push(&p->raw->defaults, rest);
	else if (p->cur_kind == 3 && p->nb && p->b[p->nb - 1].choice)
		kt_strv_push(&p->b[p->nb - 1].choice->defaults, rest); /* the choice's `default MEMBER [if EXPR]` */
}

/* A choice's raw entry, keyed by where it starts; a second parse of the same text finds the same entry. */
static void open_choice(struct kparser *p, int line)
{
	struct block *b = &p->b[p->nb - 1];
	b->key = xasprintf(KT_CHOICE_PREFIX "%s:%d", p->rel, line);
	b->choice = kt_map_get(&p->kc->raw, b->key);
	if (!b->choice) {
		b->choice = xcalloc(1, sizeof(*b->choice));
		kt_map_put(&p->kc->raw, b->key, b->choice);
	}
}

static void select_like(struct kparser *p, const char *rest, bool imply)
{
	if (!p->cur)
		return;
	char *s = trim_dup(rest), *cond = NULL;
	char *sp = s;
	while (*sp && !isspace((unsigned char)*sp))
		sp++;
	if (*sp) {
		*sp++ = '\0';
		while (isspace((unsigned char)*sp))
			sp++;
		if (!strncmp(sp, "if", 2) && isspace((unsigned char)sp[2]))
			cond = trim_dup(sp + 3);
	}
	if (*s) {
		char *entry = cond ? xasprintf("%s if %s", s, cond) : xstrdup(s);
		kt_strv_push(imply ? &p->raw->implies : &p->raw->selects, entry);
		free(entry);
		reverse(imply ? &p->kc->rimp : &p->kc->rsel, s, p->cur->name, cond);
	}
	free(cond);
	free(s);
}

/* Reads the help text that starts after line `l`; returns the position after it. */
static const char *read_help(struct kparser *p, const char *l)
{
	struct strbuf para = STRBUF_INIT;
	int indent = -1;
	bool para_done = false;

	while (*l) {
		const char *eol = strchr(l, '\n');
		size_t n = eol ? (size_t)(eol - l) : strlen(l);
		int ind = 0;
		size_t i;
		for (i = 0; i < n && (l[i] == ' ' || l[i] == '\t'); i++)
			ind += l[i] == '\t' ? 8 - ind % 8 : 1;
		bool blank = i == n;
		if (!blank) {
			if (indent < 0)
				indent = ind;
			else if (ind < indent)
				break;
		}
		if (blank) {
			if (para.len)
				para_done = true;
		} else if (!para_done) {
			if (para.len)
				strbuf_addch(&para, ' ');
			size_t e = n;
			while (e > i && isspace((unsigned char)l[e - 1]))
				e--;
			strbuf_add(&para, l + i, e - i);
		}
		l = eol ? eol + 1 : l + n;
	}
	if (p->cur && p->cur_new && !p->cur->help && para.len)
		p->cur->help = strbuf_detach(&para);
	strbuf_release(&para);
	return l;
}

static void push_block(struct kparser *p, char *expr, int kind)
{
	XGROW(p->b, p->capb, p->nb + 1);
	p->b[p->nb].expr = expr;
	p->b[p->nb].kind = kind;
	p->b[p->nb].is_menu = kind != 0;
	p->b[p->nb].choice = NULL;
	p->b[p->nb].key = NULL;
	p->nb++;
}

static void pop_block(struct kparser *p, int kind)
{
	/* pop up to and including the innermost block of that kind; tolerate garbage nesting */
	for (size_t i = p->nb; i-- > 0;) {
		if (p->b[i].kind != kind)
			continue;
		for (size_t j = i; j < p->nb; j++) {
			free(p->b[j].expr);
			free(p->b[j].key);
		}
		p->nb = i;
		return;
	}
}

/* `source "arch/$(SRCARCH)/Kconfig"`: the path with the architecture's variables expanded; NULL if unquoted. */
static char *source_path(const struct kparser *p, const char *r, bool relative)
{
	char *cond, *q = quoted(r, &cond);

	free(cond);
	if (!q)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	if (relative) {
		const char *slash = strrchr(p->rel, '/');
		if (slash)
			strbuf_add(&sb, p->rel, (size_t)(slash + 1 - p->rel));
	}
	for (const char *c = q; *c;) {
		if (!strncmp(c, "$(SRCARCH)", 10) || !strncmp(c, "$(HEADER_ARCH)", 14)) {
			strbuf_addstr(&sb, p->arch);
			c += c[2] == 'S' ? 10 : 14;
		} else {
			strbuf_addch(&sb, *c++);
		}
	}
	free(q);
	return strbuf_detach(&sb);
}

/* The dependencies in force at this point: inherited ones and the open if/menu blocks. */
static char *current_deps(const struct kparser *p)
{
	struct strbuf sb = STRBUF_INIT;

	if (p->inherited)
		strbuf_addstr(&sb, p->inherited);
	for (size_t i = 0; i < p->nb; i++) {
		if (!p->b[i].expr)
			continue;
		if (sb.len)
			strbuf_addstr(&sb, " && ");
		strbuf_addstr(&sb, p->b[i].expr);
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

static void parse_text(struct kparser *proto, const char *text);

void kt_kconfig_parse(struct kt_kconfig *kc, const char *rel, const char *text)
{
	struct kparser p = {.kc = kc, .rel = rel};

	parse_text(&p, text);
}

static void parse_text(struct kparser *proto, const char *text)
{
	struct kparser p = *proto;
	struct kt_kconfig *kc = p.kc;

	p.b = NULL;
	p.nb = p.capb = 0;
	p.cur = NULL;
	p.raw = NULL;
	p.cur_kind = 2;
	strbuf_init(&p.deps);
	struct strbuf ln = STRBUF_INIT;
	int lineno = 1;

	kc->nfiles++;
	for (const char *l = text; *l;) {
		int start = lineno;
		strbuf_reset(&ln);
		kt_logical_line(&l, &ln, &lineno, "");
		char *s = ln.buf;
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '#' || !*s)
			continue;
		/* a comment after the statement, outside quotes */
		bool inq = false;
		for (char *c = s; *c; c++) {
			if (*c == '"')
				inq = !inq;
			else if (*c == '#' && !inq) {
				*c = '\0';
				break;
			}
		}
		for (size_t n = strlen(s); n && isspace((unsigned char)s[n - 1]);)
			s[--n] = '\0';
		const char *r;
		if (kw(s, "config", &r) || kw(s, "menuconfig", &r)) {
			char *name = trim_dup(r);
			if (*name)
				new_entry(&p, name, start);
			free(name);
		} else if (kw(s, "help", &r) || kw(s, "---help---", &r)) {
			const char *before = l;
			l = read_help(&p, l);
			for (const char *q = before; q < l; q++) /* the lines the help text consumed */
				lineno += *q == '\n';
		} else if (kw(s, "bool", &r) || kw(s, "boolean", &r)) {
			set_type(&p, "bool", r);
		} else if (kw(s, "tristate", &r)) {
			set_type(&p, "tristate", r);
		} else if (kw(s, "int", &r)) {
			set_type(&p, "int", r);
		} else if (kw(s, "hex", &r)) {
			set_type(&p, "hex", r);
		} else if (kw(s, "string", &r)) {
			set_type(&p, "string", r);
		} else if (kw(s, "def_bool", &r)) {
			set_type(&p, "bool", "");
			add_default(&p, r);
		} else if (kw(s, "def_tristate", &r)) {
			set_type(&p, "tristate", "");
			add_default(&p, r);
		} else if (kw(s, "prompt", &r)) {
			set_type(&p, p.cur && p.cur->type ? p.cur->type : "bool", r);
		} else if (kw(s, "default", &r)) {
			add_default(&p, r);
		} else if (kw(s, "depends", &r)) {
			if (!strncmp(r, "on", 2) && (isspace((unsigned char)r[2]) || !r[2]))
				r += 2;
			char *e = trim_dup(r);
			if (p.cur_kind == 0 && p.cur) {
				if (p.deps.len)
					strbuf_addstr(&p.deps, " && ");
				strbuf_addstr(&p.deps, e);
				free(e);
			} else if ((p.cur_kind == 1 || p.cur_kind == 3) && p.nb) {
				/* a menu's or choice's depends applies to everything inside */
				struct block *b = &p.b[p.nb - 1];
				char *x = b->expr ? xasprintf("%s && %s", b->expr, e) : xstrdup(e);
				free(b->expr);
				free(e);
				b->expr = x;
			} else {
				free(e);
			}
		} else if (kw(s, "select", &r)) {
			select_like(&p, r, false);
		} else if (kw(s, "imply", &r)) {
			select_like(&p, r, true);
		} else if (kw(s, "if", &r)) {
			finish_entry(&p);
			push_block(&p, trim_dup(r), 0);
		} else if (kw(s, "endif", &r)) {
			finish_entry(&p);
			pop_block(&p, 0);
		} else if (kw(s, "menu", &r)) {
			finish_entry(&p);
			push_block(&p, NULL, 1);
			p.cur_kind = 1;
		} else if (kw(s, "endmenu", &r)) {
			finish_entry(&p);
			pop_block(&p, 1);
		} else if (kw(s, "choice", &r)) {
			finish_entry(&p);
			push_block(&p, NULL, 2);
			p.cur_kind = 3;
			open_choice(&p, start);
		} else if (kw(s, "endchoice", &r)) {
			finish_entry(&p);
			pop_block(&p, 2);
		} else if (kw(s, "source", &r) || kw(s, "osource", &r) || kw(s, "rsource", &r) ||
			   kw(s, "orsource", &r)) {
			finish_entry(&p);
			char *path = p.srcdir ? source_path(&p, r, s[0] == 'r' || s[1] == 'r') : NULL;
			if (path) {
				char *deps = current_deps(&p);
				source_file(kc, p.srcdir, p.arch, path, deps, p.depth + 1, p.visited);
				free(deps);
			}
			free(path);
		} else if (kw(s, "comment", &r) || kw(s, "mainmenu", &r)) {
			finish_entry(&p);
		}
		/* range, option, modules, visible if, transitional: not needed */
	}
	finish_entry(&p);
	for (size_t i = 0; i < p.nb; i++) {
		free(p.b[i].expr);
		free(p.b[i].key);
	}
	free(p.b);
	strbuf_release(&p.deps);
	strbuf_release(&ln);
}

static void attach(struct kt_map *rev, struct kt_map *opts, bool imply)
{
	for (size_t i = 0; i < rev->cap; i++) {
		if (!rev->keys[i])
			continue;
		struct kt_option *o = kt_map_get(opts, rev->keys[i]);
		struct kt_strv *sv = rev->vals[i];
		if (!o)
			continue;
		char ***v = imply ? &o->implied_by : &o->selected_by;
		size_t *n = imply ? &o->nimplied_by : &o->nselected_by;
		for (size_t j = 0; j < *n; j++)
			free((*v)[j]);
		free(*v);
		*v = xcalloc(sv->n, sizeof(char *));
		for (size_t j = 0; j < sv->n; j++)
			(*v)[j] = xstrdup(sv->v[j]);
		*n = sv->n;
	}
}

void kt_kconfig_finish(struct kt_kconfig *kc)
{
	/* defaults, for hidden options turned on by `def_bool TMPFS || HUGETLBFS` rather than by a select */
	for (size_t i = 0; i < kc->opts.cap; i++) {
		struct kt_option *o = kc->opts.vals[i];
		const struct kt_option_raw *r = kc->opts.keys[i] ? kt_map_get(&kc->raw, kc->opts.keys[i]) : NULL;
		if (!r || !r->defaults.n)
			continue;
		struct strbuf sb = STRBUF_INIT;
		for (size_t j = 0; j < r->defaults.n; j++)
			strbuf_addf(&sb, "%s%s", j ? "; " : "", r->defaults.v[j]);
		free(o->defaults);
		o->defaults = strbuf_detach(&sb);
	}
	attach(&kc->rsel, &kc->opts, false);
	attach(&kc->rimp, &kc->opts, true);
}

static void source_file(struct kt_kconfig *kc, const char *srcdir, const char *arch, const char *rel,
			const char *inherited, int depth, struct kt_map *visited)
{
	/* a file is read once (arch/<arch>/Kconfig comes first, then again through arch/Kconfig) */
	if (depth > 32 || kt_map_get(visited, rel))
		return;
	kt_map_put(visited, rel, (void *)1);
	char *path = kt_path(srcdir, rel);
	char *text = kt_read_tree_file(path, NULL);
	free(path);
	kt_strv_push(&kc->seen, rel);
	if (!text)
		return; /* osource, or a broken tree: what is there still counts */
	struct kparser p = {.kc = kc,
			    .rel = rel,
			    .srcdir = srcdir,
			    .arch = arch,
			    .inherited = inherited,
			    .depth = depth,
			    .visited = visited};
	parse_text(&p, text);
	free(text);
}

static void parse_file(struct kt_kconfig *kc, const char *srcdir, const char *rel)
{
	char *path = kt_path(srcdir, rel);
	char *text = kt_read_tree_file(path, NULL);

	free(path);
	kt_strv_push(&kc->seen, rel);
	if (text) {
		kt_kconfig_parse(kc, rel, text);
		free(text);
	}
}

/* every directory, and the files named Kconfig* */
static bool kconfig_wants(const char *rel, const char *name, bool is_dir, const void *ctx)
{
	return is_dir || !strncmp(name, "Kconfig", 7);
}

static void walk(struct kt_kconfig *kc, const char *srcdir, const char *rel, int depth)
{
	if (depth > 32 || !strcmp(rel, "scripts/kconfig/tests") || !strcmp(rel, "tools") || !strcmp(rel, "arch"))
		return;
	struct kt_strv dirs = {0}, files = {0};
	kt_strv_push(&kc->seen, rel);
	if (!kt_list_dir(srcdir, rel, kconfig_wants, NULL, &dirs, &files))
		return;
	/* the directory's own Kconfig before its subdirectories' */
	for (size_t i = 0; i < files.n; i++)
		parse_file(kc, srcdir, files.v[i]);
	for (size_t i = 0; i < dirs.n; i++)
		walk(kc, srcdir, dirs.v[i], depth + 1);
	kt_strv_release(&files);
	kt_strv_release(&dirs);
}

void kt_kconfig_load(struct kt_kconfig *kc, const char *srcdir, const char *arch)
{
	char *archdir = xasprintf("arch/%s", arch);

	char *archk = xasprintf("%s/Kconfig", archdir), *top = kt_path(srcdir, "Kconfig");

	if (kt_is_file(top)) {
		/* follow `source` from the top as kconfig does, the architecture's file first so that its
		 * definitions win (MMU is defined by 22 architectures); scripts/kconfig/tests is never sourced */
		struct kt_map visited = {0};
		source_file(kc, srcdir, arch, archk, NULL, 0, &visited);
		source_file(kc, srcdir, arch, "Kconfig", NULL, 0, &visited);
		kt_map_release(&visited, NULL);
	} else {
		/* no top Kconfig (a partial tree): every Kconfig file we can find, the architecture's first */
		walk(kc, srcdir, archdir, 0);
		parse_file(kc, srcdir, "arch/Kconfig");
		walk(kc, srcdir, "", 0);
	}
	free(archk);
	free(top);
	free(archdir);
	kt_kconfig_finish(kc);
}

struct kt_option_raw *kt_option_raw(const struct kt_kconfig *kc, const char *name)
{
	return kt_map_get(&kc->raw, name);
}

void kt_option_free(struct kt_option *o)
{
	if (!o)
		return;
	free(o->name);
	free(o->file);
	free(o->type);
	free(o->prompt);
	free(o->prompt_if);
	free(o->depends);
	free(o->defaults);
	for (size_t i = 0; i < o->nselected_by; i++)
		free(o->selected_by[i]);
	free(o->selected_by);
	for (size_t i = 0; i < o->nimplied_by; i++)
		free(o->implied_by[i]);
	free(o->implied_by);
	free(o->help);
	free(o);
}

static void free_opt(void *p)
{
	kt_option_free(p);
}

void kt_option_raw_free(struct kt_option_raw *r)
{
	if (!r)
		return;
	kt_strv_release(&r->selects);
	kt_strv_release(&r->implies);
	kt_strv_release(&r->defaults);
	kt_strv_release(&r->members);
	free(r->choice);
	free(r);
}

static void free_raw(void *p)
{
	kt_option_raw_free(p);
}

static void free_strv(void *p)
{
	kt_strv_release(p);
	free(p);
}

void kt_kconfig_release(struct kt_kconfig *kc)
{
	kt_map_release(&kc->opts, free_opt);
	kt_map_release(&kc->raw, free_raw);
	kt_map_release(&kc->rsel, free_strv);
	kt_map_release(&kc->rimp, free_strv);
	kt_strv_release(&kc->seen);
	memset(kc, 0, sizeof(*kc));
}
