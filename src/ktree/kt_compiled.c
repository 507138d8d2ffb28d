// SPDX-License-Identifier: GPL-2.0
// The compiled inventory of a tree under one configuration: every source file Kbuild compiles, walking forward
// from the top-level Kbuild as scripts/Makefile.build does (kt_kbuild.c walks backward from one file instead).
// Each Makefile is parsed by kt_makefile.c; here its assignments are evaluated in order against the
// configuration: obj-y/obj-m/lib-y, directories, composites (foo-y, foo-objs, foo-$(CONFIG_X)), variable lists
// (mmu-y) and ifeq/ifdef blocks. What make itself would compute from functions ($(addprefix), $(patsubst)...)
// is not evaluated: such words are counted in nunknown, never guessed.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/xalloc.h"

/* A word of a variable, with every option that had to be on for it to be there. */
struct word {
	char *w;
	struct kt_strv opts;
};

struct var {
	struct word *v;
	size_t n, cap;
	bool set; /* assigned, even to nothing (foo- := x.o makes foo.o a composite) */
};

struct walk {
	const char *srcdir;
	const struct kt_config *cfg;
	struct kt_map vars; /* builtin variables for the parser */
	struct kt_map seen; /* "dir\tmode" visited */
	struct kt_map byp;  /* path -> index + 1 in out->files */
	struct kt_compiled *out;
	size_t capfiles;
};

static const char *lookup(void *ctx, const char *name)
{
	const struct kt_config *cfg = ctx;

	if (!strncmp(name, "CONFIG_", 7))
		name += 7;
	const char *v = kt_config_get(cfg, name);
	return v && strcmp(v, "n") ? v : NULL;
}

static void var_clear(struct var *v);

static void var_free(void *p)
{
	struct var *v = p;

	var_clear(v);
	free(v->v);
	free(v);
}

static void var_clear(struct var *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->v[i].w);
		kt_strv_release(&v->v[i].opts);
	}
	v->n = 0;
}

static void var_push(struct var *v, const char *w, const struct kt_strv *a, const struct kt_strv *b)
{
	XGROW(v->v, v->cap, v->n + 1);
	struct word *x = &v->v[v->n++];
	memset(x, 0, sizeof(*x));
	x->w = xstrdup(w);
	for (size_t i = 0; a && i < a->n; i++)
		if (!kt_strv_has(&x->opts, a->v[i]))
			kt_strv_push(&x->opts, a->v[i]);
	for (size_t i = 0; b && i < b->n; i++)
		if (!kt_strv_has(&x->opts, b->v[i]))
			kt_strv_push(&x->opts, b->v[i]);
}

static struct var *getvar(struct kt_map *vars, const char *name, bool create);

/*
 * Replaces every $(CONFIG_X) by its value ("y", "m", "" for n), $(subst m,y,$(CONFIG_X)) by "y" when X is on
 * (the idiom for "built in when the feature is on at all": obj-$(subst m,y,$(CONFIG_HYPERV)) += hyperv/), and
 * $(V) by the words of a variable V of the Makefile (obj-$(VDSO64-y)); NULL when another $(...) is left.
 */
static char *subst_config(const char *s, const struct kt_config *cfg, struct kt_map *vars, struct kt_strv *opts)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = s; *p;) {
		if (p[0] == '$' && (p[1] == '(' || p[1] == '{')) {
			bool to_y = !strncmp(p, "$(subst m,y,", 12);
			const char *in = to_y ? p + 12 : p;
			const char *e = strchr(in, p[1] == '(' ? ')' : '}');
			char *ref = e ? xstrndup(in, (size_t)(e + 1 - in)) : NULL;
			char *opt = ref ? kt_mk_config_ref(ref) : NULL;
			if (to_y && e)
				e = e[1] == ')' ? e + 1 : NULL;
			if (!opt && ref && !to_y && vars) {
				char *name = xstrndup(ref + 2, strlen(ref) - 3);
				struct var *v = strpbrk(name, "$ ,:") ? NULL : getvar(vars, name, false);
				free(name);
				for (size_t i = 0; v && i < v->n; i++)
					strbuf_addf(&sb, "%s%s", i ? " " : "", v->v[i].w);
				if (v) {
					free(ref);
					p = e + 1;
					continue;
				}
			}
			free(ref);
			if (!opt || !e) {
				free(opt);
				strbuf_release(&sb);
				return NULL;
			}
			const char *v = lookup((void *)cfg, opt);
			strbuf_addstr(&sb, v && to_y ? "y" : v ? v : "");
			if (opts && !kt_strv_has(opts, opt))
				kt_strv_push(opts, opt);
			free(opt);
			p = e + 1;
			continue;
		}
		strbuf_addch(&sb, *p++);
	}
	return strbuf_detach(&sb);
}

/*
 * A Makefile condition against the configuration. ifeq ($(CONFIG_X),y) is kept by the parser as "X on"; here it
 * is compared exactly, as make does, so that an =m option does not take an `ifeq (...,y)` branch.
 */
static bool cond_holds(const struct kt_cond *c, const struct kt_config *cfg)
{
	bool eq = c->expr && !strncmp(c->expr, "ifeq", 4), neq = c->expr && !strncmp(c->expr, "ifneq", 5);

	if (c->kind == KT_COND_MAKEFILE_IF && c->option && (eq || neq)) {
		const char *open = strchr(c->expr, '('), *comma = open ? strchr(open, ',') : NULL;
		const char *close = comma ? strrchr(comma, ')') : NULL;
		if (close && comma > open) {
			/* ($(CONFIG_X),y) or (y,$(CONFIG_X)): the literal side is the other one */
			char *l = xstrndup(open + 1, (size_t)(comma - open - 1)),
			     *r = xstrndup(comma + 1, (size_t)(close - comma - 1));
			char *tl = l + strspn(l, " \t"), *tr = r + strspn(r, " \t");
			tl[strcspn(tl, " \t")] = '\0';
			tr[strcspn(tr, " \t")] = '\0';
			char *o = kt_mk_config_ref(tl);
			const char *other = tr;
			if (!o) {
				o = kt_mk_config_ref(tr);
				other = tl;
			}
			if (o && !strchr(other, '$')) {
				const char *v = lookup((void *)cfg, o);
				bool equal = !strcmp(v ? v : "", other);
				bool on_when_equal = *other != '\0';
				bool positive = eq ? on_when_equal : !on_when_equal;
				bool negate = positive ? c->negated : !c->negated; /* an else branch */
				free(o);
				free(l);
				free(r);
				return (eq ? equal : !equal) != negate;
			}
			free(o);
			free(l);
			free(r);
		}
	}
	return kt_cond_eval(c, lookup, (void *)cfg);
}

/*
 * A word that is a whole variable reference: $(name), or the substitution reference $(name:from=to)
 * (vdso_img_objs := $(vdso_img-y:%=vdso-image-%.o)). The name, and in *from and *to the substitution (NULL).
 */
static char *var_ref(const char *w, char **from, char **to)
{
	size_t n = strlen(w);

	*from = *to = NULL;
	if (n <= 3 || w[0] != '$' || !((w[1] == '(' && w[n - 1] == ')') || (w[1] == '{' && w[n - 1] == '}')))
		return NULL;
	char *in = xstrndup(w + 2, n - 3), *colon = strchr(in, ':'), *eq = colon ? strchr(colon, '=') : NULL;
	if (colon && eq && !strpbrk(in, "$ ,") && !strchr(eq + 1, '=')) {
		*colon = *eq = '\0';
		*from = xstrdup(colon + 1);
		*to = xstrdup(eq + 1);
		return in;
	}
	if (strpbrk(in, "$ ,:")) {
		free(in);
		return NULL;
	}
	return in;
}

/* make's substitution reference on one word: "%=vdso-image-%.o" turns 64 into vdso-image-64.o; ".o=.c" a suffix. */
static char *subst_ref(const char *w, const char *from, const char *to)
{
	const char *pf = strchr(from, '%'), *pt = strchr(to, '%');
	size_t n = strlen(w);

	if (!pf) { /* suffix form */
		size_t fl = strlen(from);
		if (n >= fl && !strcmp(w + n - fl, from))
			return xasprintf("%.*s%s", (int)(n - fl), w, to);
		return xstrdup(w);
	}
	size_t pre = (size_t)(pf - from), post = strlen(pf + 1);
	if (n < pre + post || strncmp(w, from, pre) || strcmp(w + n - post, pf + 1))
		return xstrdup(w);
	const char *stem = w + pre;
	int sl = (int)(n - pre - post);
	if (!pt)
		return xstrdup(to);
	return xasprintf("%.*s%.*s%s", (int)(pt - to), to, sl, stem, pt + 1);
}

static bool name_is_ref(const char *w)
{
	char *from, *to, *name = var_ref(w, &from, &to);
	bool ok = name && strncmp(name, "CONFIG_", 7);

	free(name);
	free(from);
	free(to);
	return ok;
}

static struct var *getvar(struct kt_map *vars, const char *name, bool create)
{
	struct var *v = kt_map_get(vars, name);

	if (!v && create) {
		v = xcalloc(1, sizeof(*v));
		kt_map_put(vars, name, v);
	}
	return v;
}

/* Evaluates the assignments of one Makefile, in order, into vars. */
static void eval_makefile(struct walk *wk, const struct kt_makefile *mk, struct kt_map *vars)
{
	for (size_t i = 0; i < mk->nas; i++) {
		const struct kt_mkassign *a = &mk->as[i];
		struct kt_strv opts = {0};
		bool holds = true;

		for (size_t j = 0; j < a->conds.n && holds; j++) {
			const struct kt_cond *c = &a->conds.v[j];
			holds = cond_holds(c, wk->cfg);
			if (holds && c->option && !c->negated && !kt_strv_has(&opts, c->option))
				kt_strv_push(&opts, c->option);
		}
		char *lhs = holds ? subst_config(a->lhs, wk->cfg, vars, &opts) : NULL;
		if (!lhs) {
			kt_strv_release(&opts);
			continue;
		}
		struct var *v = getvar(vars, lhs, true);
		if (!strcmp(a->op, "?=") && v->set) {
			free(lhs);
			kt_strv_release(&opts);
			continue;
		}
		/* the new words first: the right-hand side may name the variable itself (x := $(x) y.o) */
		struct var nw = {0};
		for (size_t j = 0; j < a->nwords; j++) {
			char *from, *to, *name = var_ref(a->words[j], &from, &to);
			struct var *ref = name ? getvar(vars, name, false) : NULL;
			free(name);
			if (ref) {
				for (size_t k = 0; k < ref->n; k++) {
					char *x = from ? subst_ref(ref->v[k].w, from, to) : xstrdup(ref->v[k].w);
					var_push(&nw, x, &ref->v[k].opts, &opts);
					free(x);
				}
			}
			free(from);
			free(to);
			if (ref)
				continue;
			if (name_is_ref(a->words[j])) {
				/* not defined yet: make expands a recursive variable when it is used (dom0-y +=
				 * $(xen-pad-y)) */
				var_push(&nw, a->words[j], &opts, NULL);
				continue;
			}
			struct kt_strv wopts = {0};
			char *w = subst_config(a->words[j], wk->cfg, vars, &wopts);
			if (!w)
				wk->out->nunknown++;
			else if (*w)
				var_push(&nw, w, &opts, &wopts);
			free(w);
			kt_strv_release(&wopts);
		}
		if (strcmp(a->op, "+=")) /* := = ?=: a new value */
			var_clear(v);
		v->set = true;
		for (size_t k = 0; k < nw.n; k++)
			var_push(v, nw.v[k].w, &nw.v[k].opts, NULL);
		var_clear(&nw);
		free(nw.v);
		free(lhs);
		kt_strv_release(&opts);
	}
}

/* The parsed Kbuild (preferred, as scripts/Makefile.build does) or Makefile of dir ("" is the top), or NULL. */
static struct kt_makefile *load(struct walk *wk, const char *dir, const char *name)
{
	char *rel = *dir ? xasprintf("%s/%s", dir, name) : xstrdup(name);
	char *path = kt_path(wk->srcdir, rel);
	char *text = kt_read_tree_file(path, NULL);
	struct kt_makefile *mk = NULL;

	free(path);
	if (text) {
		mk = xcalloc(1, sizeof(*mk));
		kt_makefile_parse(mk, rel, text, &wk->vars);
		free(text);
		wk->out->nmakefiles++;
	}
	free(rel);
	return mk;
}

static void mk_free(struct kt_makefile *mk)
{
	if (mk) {
		kt_makefile_release(mk);
		free(mk);
	}
}

static bool exists(const struct walk *wk, const char *rel)
{
	char *p = kt_path(wk->srcdir, rel);
	bool ok = kt_is_file(p);

	free(p);
	return ok;
}

/* Joins dir and a relative name, folding "./" and "../" as make's paths would. */
static char *join(const char *dir, const char *name)
{
	char *p = *dir ? xasprintf("%s/%s", dir, name) : xstrdup(name);
	char *q;

	while ((q = strstr(p, "/./")))
		memmove(q, q + 2, strlen(q + 2) + 1);
	while ((q = strstr(p, "/../")) && q > p) {
		char *s = q;
		while (s > p && s[-1] != '/')
			s--;
		memmove(s, q + 4, strlen(q + 4) + 1);
	}
	return p;
}

static int rank(enum kt_built b)
{
	return b == KT_BUILT_IN ? 2 : b == KT_BUILT_LIB ? 1 : 0;
}

/* Records the source of a primitive object dir/x.o. */
static void add_file(struct walk *wk, const char *obj, const char *composite, enum kt_built built,
		     const struct kt_strv *opts, const char *makefile)
{
	size_t n = strlen(obj);
	char *base = xstrndup(obj, n - 2), *path = xasprintf("%s.c", base);
	bool generated = false, assembler = false;

	if (!exists(wk, path)) {
		char *s = xasprintf("%s.S", base);
		char *shipped = xasprintf("%s.c_shipped", base);
		if (exists(wk, s)) {
			free(path);
			path = s;
			s = NULL;
			assembler = true;
		} else if (!exists(wk, shipped)) {
			generated = true; /* made by the build: vdso images, tables, firmware blobs */
		}
		free(s);
		free(shipped);
	}
	free(base);
	size_t at = (size_t)kt_map_get(&wk->byp, path);
	if (at) {
		struct kt_cfile *f = &wk->out->files[at - 1];
		if (rank(built) > rank(f->built))
			f->built = built;
		free(path);
		return;
	}
	XGROW(wk->out->files, wk->capfiles, wk->out->nfiles + 1);
	struct kt_cfile *f = &wk->out->files[wk->out->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = path;
	f->object = xstrdup(composite ? composite : obj);
	f->built = built;
	f->generated = generated;
	f->assembler = assembler;
	f->makefile = xstrdup(makefile);
	f->options = xcalloc(opts->n + 1, sizeof(char *));
	for (size_t i = 0; i < opts->n; i++)
		f->options[f->noptions++] = xstrdup(opts->v[i]);
	kt_map_put(&wk->byp, path, (void *)wk->out->nfiles);
}

static bool in_var(const struct var *v, const char *w)
{
	for (size_t i = 0; v && i < v->n; i++)
		if (!strcmp(v->v[i].w, w))
			return true;
	return false;
}

static void visit(struct walk *wk, const char *dir, enum kt_built mode, const struct kt_strv *opts);

/* One word of obj-y, obj-m or lib-y of dir: a directory to enter, a composite or a primitive object. */
static void take(struct walk *wk, const char *dir, struct kt_map *vars, const struct word *w, enum kt_built built,
		 const struct kt_strv *opts, const char *makefile, int depth)
{
	struct kt_strv all = {0};
	size_t n = strlen(w->w);

	for (size_t i = 0; i < opts->n; i++)
		kt_strv_push(&all, opts->v[i]);
	for (size_t i = 0; i < w->opts.n; i++)
		if (!kt_strv_has(&all, w->opts.v[i]))
			kt_strv_push(&all, w->opts.v[i]);
	char *from, *to, *refname = var_ref(w->w, &from, &to);
	struct var *ref = refname ? getvar(vars, refname, false) : NULL;
	if (refname && depth < 8) {
		for (size_t i = 0; ref && i < ref->n; i++) {
			struct word x = {.w = from ? subst_ref(ref->v[i].w, from, to) : xstrdup(ref->v[i].w)};
			for (size_t k = 0; k < ref->v[i].opts.n; k++)
				kt_strv_push(&x.opts, ref->v[i].opts.v[k]);
			take(wk, dir, vars, &x, built, &all, makefile, depth + 1);
			free(x.w);
			kt_strv_release(&x.opts);
		}
	}
	free(from);
	free(to);
	if (refname) { /* a deferred reference, taken word by word above */
		free(refname);
		kt_strv_release(&all);
		return;
	}
	if (n > 1 && w->w[n - 1] == '/') {
		char *sub = join(dir, w->w);
		sub[strlen(sub) - 1] = '\0';
		visit(wk, sub, built == KT_BUILT_MODULE ? KT_BUILT_MODULE : KT_BUILT_IN, &all);
		free(sub);
	} else if (n > 2 && !strcmp(w->w + n - 2, ".o")) {
		char *base = xstrndup(w->w, n - 2), *obj = join(dir, w->w);
		static const char *const sfx[] = {"-objs", "-y", "-m", "-"};
		bool composite = false;
		for (size_t s = 0; s < 4; s++) {
			char *name = xasprintf("%s%s", base, sfx[s]);
			struct var *parts = getvar(vars, name, false);
			free(name);
			if (!parts || !parts->set)
				continue;
			composite = true;
			/* a module's parts come from foo-m too; foo- only says that foo.o is a composite */
			if (s == 3 || (s == 2 && built != KT_BUILT_MODULE))
				continue;
			for (size_t i = 0; i < parts->n; i++) {
				size_t pn = strlen(parts->v[i].w);
				if (pn < 3 || strcmp(parts->v[i].w + pn - 2, ".o"))
					continue;
				struct kt_strv po = {0};
				for (size_t k = 0; k < all.n; k++)
					kt_strv_push(&po, all.v[k]);
				for (size_t k = 0; k < parts->v[i].opts.n; k++)
					if (!kt_strv_has(&po, parts->v[i].opts.v[k]))
						kt_strv_push(&po, parts->v[i].opts.v[k]);
				char *pobj = join(dir, parts->v[i].w);
				add_file(wk, pobj, obj, built, &po, makefile);
				free(pobj);
				kt_strv_release(&po);
			}
		}
		if (!composite)
			add_file(wk, obj, NULL, built, &all, makefile);
		free(base);
		free(obj);
	}
	kt_strv_release(&all);
}

/*
 * Enters dir, reached from its parent's obj-y (mode KT_BUILT_IN) or only from an obj-m (KT_BUILT_MODULE: as
 * Makefile.build has no need-builtin there, its obj-y objects are not built at all, only its modules).
 */
static void visit(struct walk *wk, const char *dir, enum kt_built mode, const struct kt_strv *opts)
{
	char *key = xasprintf("%s\t%d", dir, mode);
	bool again = kt_map_get(&wk->seen, key) != NULL;

	if (!again)
		kt_map_put(&wk->seen, key, (void *)1);
	free(key);
	if (again)
		return;
	struct kt_makefile *mk = load(wk, dir, "Kbuild");
	if (!mk)
		mk = load(wk, dir, "Makefile");
	if (!mk) {
		wk->out->nmissing++;
		return;
	}
	struct kt_map vars = {0};
	eval_makefile(wk, mk, &vars);
	struct var *objy = getvar(&vars, "obj-y", false), *objm = getvar(&vars, "obj-m", false);
	struct var *liby = getvar(&vars, "lib-y", false), *libm = getvar(&vars, "lib-m", false);
	for (size_t i = 0; objy && i < objy->n; i++) {
		bool dir_word = objy->v[i].w[strlen(objy->v[i].w) - 1] == '/';
		if (mode == KT_BUILT_IN || dir_word)
			take(wk, dir, &vars, &objy->v[i], mode, opts, mk->path, 0);
	}
	for (size_t i = 0; objm && i < objm->n; i++)
		if (!in_var(objy, objm->v[i].w))
			take(wk, dir, &vars, &objm->v[i], KT_BUILT_MODULE, opts, mk->path, 0);
	/* lib-m is built as lib-y (scripts/Makefile.build); lib.a only for a directory linked into vmlinux */
	for (int l = 0; l < 2 && mode == KT_BUILT_IN; l++) {
		struct var *lib = l ? libm : liby;
		for (size_t i = 0; lib && i < lib->n; i++)
			if (!in_var(objy, lib->v[i].w))
				take(wk, dir, &vars, &lib->v[i], KT_BUILT_LIB, opts, mk->path, 0);
	}
	kt_map_release(&vars, var_free);
	mk_free(mk);
}

/* The top Makefile's and the arch Makefile's core-y, libs-y, drivers-y: what the top Kbuild names ARCH_*. */
static void arch_dirs(struct walk *wk, const char *arch)
{
	struct kt_map vars = {0};
	char *adir = xasprintf("arch/%s", arch);
	struct kt_makefile *top = load(wk, "", "Makefile"), *am = load(wk, adir, "Makefile");
	static const char *const names[][2] = {
	    {"ARCH_CORE", "core-y"}, {"ARCH_LIB", "libs-y"}, {"ARCH_DRIVERS", "drivers-y"}};

	if (top)
		eval_makefile(wk, top, &vars);
	if (am)
		eval_makefile(wk, am, &vars);
	for (size_t n = 0; n < 3; n++) {
		struct strbuf sb = STRBUF_INIT;
		for (int m = 0; m < 2; m++) {
			/* ARCH_DRIVERS is drivers-y and drivers-m; ARCH_LIB only the directories of libs-y */
			char *name = m ? xasprintf("%.*s-m", (int)strlen(names[n][1]) - 2, names[n][1]) : NULL;
			struct var *v = getvar(&vars, name ? name : names[n][1], false);
			free(name);
			for (size_t i = 0; v && i < v->n; i++)
				if (v->v[i].w[strlen(v->v[i].w) - 1] == '/')
					strbuf_addf(&sb, "%s%s", sb.len ? " " : "", v->v[i].w);
			if (n != 2)
				break;
		}
		free(kt_map_put(&wk->vars, names[n][0], strbuf_detach(&sb)));
	}
	mk_free(top);
	mk_free(am);
	free(adir);
	kt_map_release(&vars, var_free);
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct kt_cfile *)a)->path, ((const struct kt_cfile *)b)->path);
}

struct kt_compiled *kt_compiled_eval(const char *srcdir, const char *arch, const struct kt_config *cfg, char **err)
{
	char *k = kt_path(srcdir, "kernel"), *a = xasprintf("%s/arch/%s", srcdir, arch),
	     *kb = kt_path(srcdir, "Kbuild");
	bool ok = kt_is_dir(k) && kt_is_dir(a) && kt_is_file(kb);

	free(k);
	free(a);
	free(kb);
	if (!ok) {
		*err = xasprintf("'%s' is not a kernel source tree: no Kbuild, kernel/ or arch/%s/", srcdir, arch);
		return NULL;
	}
	struct walk wk = {.srcdir = srcdir, .cfg = cfg};
	wk.out = xcalloc(1, sizeof(*wk.out));
	kt_map_put(&wk.vars, "SRCARCH", xstrdup(arch));
	kt_map_put(&wk.vars, "ARCH", xstrdup(arch));
	kt_map_put(&wk.vars, "srctree", xstrdup("."));
	kt_map_put(&wk.vars, "BITS", xstrdup(!strcmp(arch, "x86") && !lookup((void *)cfg, "X86_64") ? "32" : "64"));
	arch_dirs(&wk, arch);
	struct kt_strv none = {0};
	visit(&wk, "", KT_BUILT_IN, &none);
	kt_map_release(&wk.vars, free);
	kt_map_release(&wk.seen, NULL);
	kt_map_release(&wk.byp, NULL);
	qsort(wk.out->files, wk.out->nfiles, sizeof(*wk.out->files), cmp_file);
	return wk.out;
}

void kt_compiled_free(struct kt_compiled *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nfiles; i++) {
		struct kt_cfile *f = &c->files[i];
		free(f->path);
		free(f->object);
		free(f->makefile);
		for (size_t j = 0; j < f->noptions; j++)
			free(f->options[j]);
		free(f->options);
	}
	free(c->files);
	free(c);
}

const char *kt_built_name(enum kt_built b)
{
	return b == KT_BUILT_IN ? "built-in" : b == KT_BUILT_LIB ? "built-in (lib.a)" : "module";
}
