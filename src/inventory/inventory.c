// SPDX-License-Identifier: GPL-2.0
// The compiled side of the inventory: from a tree and a .config (kt_compiled_eval), a built tree (.cmd files), a
// debug vmlinux (inv_dwarf.c) or the running kernel; SLOC; the roll-ups into options and directories; candidates.
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "inventory/inv_internal.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

const char inv_caution[] =
    "a review candidate, not proof that it can be removed: no observation reached it in these workloads, but "
    "ENOSYS probes, boot, suspend and recovery paths, error handling and other workloads use code a trace did "
    "not see";

static const char *const by_names[INV_NBY] = {"syscall", "refinement", "function"};

const char *inv_by_name(enum inv_by by)
{
	return by_names[by];
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *inv_relpath(const char *name, const char *comp_dir)
{
	if (name[0] == '/' && comp_dir && comp_dir[0] == '/') {
		/* the longest directory both share is the tree (an in-tree build) or the build's parent (O=) */
		size_t common = 0;
		for (size_t i = 0; name[i] && name[i] == comp_dir[i]; i++)
			if (name[i] == '/')
				common = i + 1;
		size_t cl = strlen(comp_dir);
		if (!strncmp(name, comp_dir, cl) && name[cl] == '/')
			common = cl + 1;
		if (common > 1)
			name += common;
	}
	while (!strncmp(name, "./", 2))
		name += 2;
	return xstrdup(name);
}

/* ---- the file list ---------------------------------------------------------------------------------- */

struct inv_file *inv__add(struct inventory *inv, const char *path, enum kt_built built)
{
	XGROW(inv->files, inv->files_cap, inv->nfiles + 1);
	struct inv_file *f = &inv->files[inv->nfiles++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	f->built = built;
	f->sloc = -1;
	size_t n = strlen(path);
	f->assembler = n > 2 && !strcmp(path + n - 2, ".S");
	return f;
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp(((const struct inv_file *)a)->path, ((const struct inv_file *)b)->path);
}

static void file_release(struct inv_file *f)
{
	free(f->path);
	for (size_t j = 0; j < f->noptions; j++)
		free(f->options[j]);
	free(f->options);
	for (int b = 0; b < INV_NBY; b++)
		free(f->example[b]);
}

/* Sorts by path and folds duplicates (built-in wins over lib.a over module). */
void inv__sort(struct inventory *inv)
{
	size_t out = 0;

	if (inv->nfiles)
		qsort(inv->files, inv->nfiles, sizeof(*inv->files), cmp_file);
	for (size_t i = 0; i < inv->nfiles; i++) {
		if (out && !strcmp(inv->files[out - 1].path, inv->files[i].path)) {
			struct inv_file *keep = &inv->files[out - 1];
			if (inv->files[i].built < keep->built)
				keep->built = inv->files[i].built;
			keep->nfuncs += inv->files[i].nfuncs;
			file_release(&inv->files[i]);
			continue;
		}
		inv->files[out++] = inv->files[i];
	}
	inv->nfiles = out;
}

struct inv_file *inv__file(struct inventory *inv, const char *path)
{
	struct inv_file key = {.path = (char *)path};

	return inv->nfiles ? bsearch(&key, inv->files, inv->nfiles, sizeof(key), cmp_file) : NULL;
}

/* ---- sources ----------------------------------------------------------------------------------------- */

/* "6.1.192" from a tree's top Makefile; NULL when it has none. */
static char *tree_version(const char *tree)
{
	char *path = xasprintf("%s/Makefile", tree), *text = kt_read_file(path, NULL);
	char v[4][64] = {"", "", "", ""};
	static const char *const keys[] = {"VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION"};

	free(path);
	if (!text)
		return NULL;
	for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		for (int k = 0; k < 4; k++) {
			size_t kl = strlen(keys[k]);
			if (!*v[k] && !strncmp(l, keys[k], kl) && (l[kl] == ' ' || l[kl] == '=')) {
				char *e = l + kl;
				e += strspn(e, " =");
				size_t n = strcspn(e, "\n");
				snprintf(v[k], sizeof(v[k]), "%.*s", (int)n, e);
			}
		}
	free(text);
	if (!*v[0])
		return NULL;
	return xasprintf("%s.%s.%s%s", v[0], v[1], v[2], v[3]);
}

/* The configuration: --config, the tree's own .config, or with --running /proc/config.gz. */
static struct kt_config *load_config(const struct inv_sources *src, char **used)
{
	const char *path = src->config;
	char *own = NULL, *err = NULL;

	if (!path && src->kernel_src) {
		own = xasprintf("%s/.config", src->kernel_src);
		struct stat st;
		if (stat(own, &st) == 0)
			path = own;
	}
	if (!path && src->running)
		path = "/proc/config.gz";
	if (!path) {
		free(own);
		error("no configuration for '%s': give --config FILE (a .config of the tree's architecture)",
		      src->kernel_src);
		return NULL;
	}
	struct kt_config *cfg = kt_config_load_gz(path, &err);
	if (!cfg) {
		error("--config '%s': %s", path, err);
		free(err);
		free(own);
		return NULL;
	}
	/* The evaluator knows arch/x86 only: another architecture's .config would give a plausible, wrong list. */
	if (!kt_config_enabled(cfg, "X86")) {
		static const char *const others[] = {"ARM64", "ARM",  "RISCV",	   "PPC",
						     "S390",  "MIPS", "LOONGARCH", "SPARC"};
		const char *which = NULL;
		for (size_t i = 0; i < sizeof(others) / sizeof(others[0]) && !which; i++)
			if (kt_config_enabled(cfg, others[i]))
				which = others[i];
		error("--config '%s': not an x86 configuration (%s%s%s)", path, which ? "CONFIG_" : "no CONFIG_X86=y",
		      which ? which : "", which ? "=y" : "");
		kt_config_free(cfg);
		free(own);
		return NULL;
	}
	*used = xstrdup(path);
	free(own);
	return cfg;
}

/* Copies the options of the evaluator's files onto the matching files of the list. */
static void take_options(struct inventory *inv, const struct kt_compiled *c)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		struct inv_file *f = inv__file(inv, c->files[i].path);
		if (!f || f->chain)
			continue;
		f->options = xcalloc(c->files[i].noptions + 1, sizeof(char *));
		for (size_t j = 0; j < c->files[i].noptions; j++)
			f->options[f->noptions++] = xstrdup(c->files[i].options[j]);
		f->chain = true;
	}
	inv->chains = true;
}

static void add_compiled(struct inventory *inv, const struct kt_compiled *c)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		struct inv_file *f = inv__add(inv, c->files[i].path, c->files[i].built);
		f->generated = c->files[i].generated;
		f->assembler = c->files[i].assembler;
	}
	inv__sort(inv);
	take_options(inv, c);
}

/* A built tree: every .<obj>.o.cmd names its source; a module's objects are listed in its .mod file. */
struct walkb {
	struct inventory *inv;
	const char *root;
	struct strbuf modobjs; /* "\n" + every module object + "\n" */
	size_t ncmd;
};

static void read_mods(struct walkb *w, const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d || depth > 32) {
		if (d)
			closedir(d);
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		size_t n = strlen(e->d_name);
		if (e->d_type == DT_DIR && strcmp(e->d_name, "scripts") && strcmp(e->d_name, "tools") &&
		    strcmp(e->d_name, ".git")) {
			read_mods(w, p, depth + 1);
		} else if (e->d_type == DT_REG && n > 4 && !strcmp(e->d_name + n - 4, ".mod")) {
			char *t = kt_read_file(p, NULL);
			/* "fs/fat/cache.o fs/fat/dir.o ..." relative to the tree */
			for (char *s = t, *save = NULL, *tok = t ? strtok_r(s, " \n", &save) : NULL; tok;
			     tok = strtok_r(NULL, " \n", &save))
				strbuf_addf(&w->modobjs, "%s\n", tok);
			free(t);
		} else if (e->d_type == DT_REG && e->d_name[0] == '.' && n > 6 &&
			   !strcmp(e->d_name + n - 6, ".o.cmd")) {
			char *t = kt_read_file(p, NULL);
			char *s = t ? strstr(t, "\nsource_") : NULL;
			if (s && (s = strstr(s, ":= "))) {
				s += 3;
				s[strcspn(s, "\n")] = '\0';
				char *rel = inv_relpath(s, w->root);
				/* the object: this directory's .NAME.o.cmd -> NAME.o, tree-relative */
				const char *dr = dir + strlen(w->root);
				dr += *dr == '/';
				char *obj = xasprintf("%s%s%.*s.o", dr, *dr ? "/" : "", (int)(n - 7), e->d_name + 1);
				struct inv_file *f = inv__add(w->inv, rel, KT_BUILT_IN);
				free(f->example[0]);
				f->example[0] = obj; /* kept here until the modules are known */
				w->ncmd++;
				free(rel);
			}
			free(t);
		}
		free(p);
	}
	closedir(d);
}

static int from_build_dir(struct inventory *inv, const char *dir)
{
	struct walkb w = {.inv = inv, .root = dir};
	char *probe = xasprintf("%s/Makefile", dir);
	struct stat st;

	strbuf_addch(&w.modobjs, '\n');
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || stat(probe, &st) < 0) {
		free(probe);
		strbuf_release(&w.modobjs);
		return error("--build-dir '%s': not a kernel build directory (no Makefile)", dir);
	}
	free(probe);
	read_mods(&w, dir, 0);
	if (!w.ncmd) {
		strbuf_release(&w.modobjs);
		return error("--build-dir '%s': no .o.cmd files: not built yet (make), or cleaned", dir);
	}
	for (size_t i = 0; i < inv->nfiles; i++) {
		struct inv_file *f = &inv->files[i];
		char *key = xasprintf("\n%s\n", f->example[0]);
		if (strstr(w.modobjs.buf, key))
			f->built = KT_BUILT_MODULE;
		free(key);
		free(f->example[0]);
		f->example[0] = NULL;
	}
	strbuf_release(&w.modobjs);
	inv__sort(inv);
	return 0;
}

struct inventory *inv_build(const struct inv_sources *src)
{
	struct inventory *inv = xcalloc(1, sizeof(*inv));
	struct kt_config *cfg = NULL;
	struct kt_compiled *c = NULL;
	char *err = NULL, *cfgpath = NULL;
	double t0 = now();

	if (src->kernel_src) {
		char *k = xasprintf("%s/kernel", src->kernel_src);
		struct stat st;
		bool ok = stat(k, &st) == 0 && S_ISDIR(st.st_mode);
		free(k);
		if (!ok) {
			error("--kernel-src '%s': not a kernel source tree (no kernel/ directory)", src->kernel_src);
			goto fail;
		}
		if (!src->build_dir && !src->vmlinux) {
			if (!(cfg = load_config(src, &cfgpath)))
				goto fail;
		} else if (src->config && !(cfg = load_config(src, &cfgpath))) {
			goto fail;
		}
		if (cfg && !(c = kt_compiled_eval(src->kernel_src, "x86", cfg, &err))) {
			error("--kernel-src '%s': %s", src->kernel_src, err);
			free(err);
			goto fail;
		}
		inv->tree = xstrdup(src->kernel_src);
		inv->version = tree_version(src->kernel_src);
		inv->config = cfgpath;
		cfgpath = NULL;
	} else if (src->config) {
		error("--config needs --kernel-src (the tree it configures)");
		goto fail;
	}
	if (src->kallsyms && !src->running) {
		error("--kallsyms goes with --running (the kernel whose symbols it lists)");
		goto fail;
	}
	if (src->build_dir) {
		if (from_build_dir(inv, src->build_dir) < 0)
			goto fail;
		inv->source = xasprintf("built tree %s (its .o.cmd files: exact)", src->build_dir);
		if (!inv->version)
			inv->version = tree_version(src->build_dir);
		if (c)
			take_options(inv, c);
	} else if (src->vmlinux) {
		if (inv__dwarf(inv, src->vmlinux, true) < 0)
			goto fail;
		inv->source = xasprintf("debug vmlinux %s (DWARF compilation units: what was linked)", src->vmlinux);
		inv->limits = xstrdup("a vmlinux holds no modules: its list is the built-in part only");
		if (c)
			take_options(inv, c);
	} else if (src->running) {
		if (inv__from_running(inv, src, cfg) < 0)
			goto fail;
		const struct inv_running *r = inv->running;
		inv->source = xasprintf("running kernel (%s: its functions mapped to files through the %s)", r->symbols,
					r->database);
		inv->limits = xasprintf(
		    "a function's file is known only when the database defines its name once or its symbol order tells "
		    "which (%zu ambiguous, %zu unknown names are in no file); loaded modules are left out%s",
		    r->ambiguous, r->unknown, r->note ? ": " : "");
		if (r->note) {
			char *l = xasprintf("%s%s", inv->limits, r->note);
			free(inv->limits);
			inv->limits = l;
		}
		if (c)
			take_options(inv, c);
	} else if (c) {
		add_compiled(inv, c);
		inv->source =
		    xasprintf("kernel tree %s with %s (Kbuild evaluated: predicted)", src->kernel_src, inv->config);
	} else {
		error(
		    "nothing to inventory: give --kernel-src DIR (with --config FILE), --build-dir DIR, --vmlinux FILE "
		    "or --running");
		goto fail;
	}
	if (src->vmlinux && src->build_dir && inv__dwarf(inv, src->vmlinux, false) < 0)
		goto fail;
	if (src->vmlinux && !src->build_dir && !inv->dwarf_units)
		goto fail;
	/* SLOC needs the sources: the tree, or a built tree (built in place) */
	const char *tree = src->kernel_src ? src->kernel_src : src->build_dir;
	if (tree) {
		inv__count_sloc(inv->files, inv->nfiles, tree, src->no_cache);
	} else if (src->running) {
		char *what = NULL;
		size_t had = inv__builtin_sloc(inv->files, inv->nfiles, &what);
		inv->sloc_source = xasprintf("%s: %zu of %zu files%s", what ? what : "the built-in table", had,
					     inv->nfiles, had ? "" : "; no SLOC without a tree");
		free(what);
	}
	inv->cfg = cfg;
	kt_compiled_free(c);
	inv->seconds = now() - t0;
	return inv;
fail:
	kt_compiled_free(c);
	kt_config_free(cfg);
	free(cfgpath);
	inv_free(inv);
	return NULL;
}

/* ---- observations ------------------------------------------------------------------------------------ */

struct inv_group *inv__seen_opt(struct inventory *inv, const char *name)
{
	for (size_t i = 0; i < inv->nseen_opts; i++)
		if (!strcmp(inv->seen_opts[i].name, name))
			return &inv->seen_opts[i];
	XGROW(inv->seen_opts, inv->seen_cap, inv->nseen_opts + 1);
	struct inv_group *g = &inv->seen_opts[inv->nseen_opts++];
	memset(g, 0, sizeof(*g));
	g->name = xstrdup(name);
	return g;
}

bool inv__closure_opt(struct inventory *inv, const char *name, const char *by)
{
	for (size_t i = 0; i < inv->nseen_opts; i++)
		if (!strcmp(inv->seen_opts[i].name, name))
			return false;
	struct inv_group *g = inv__seen_opt(inv, name);
	g->via = xstrdup(by);
	return true;
}

void inv__observe(struct inventory *inv, enum inv_by by, const char *file, const char *const *opts, size_t nopts,
		  uint64_t n, const char *what)
{
	inv->nobs[by]++;
	for (size_t i = 0; i < nopts; i++) {
		const char *o = opts[i];
		if (!strncmp(o, "CONFIG_", 7))
			o += 7;
		if (!*o || o[strspn(o, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")])
			continue; /* "!X" (needs X off) and compound conditions name no option that is used */
		inv__seen_opt(inv, o)->hits[by] += n;
	}
	if (!file) {
		inv->unmapped[by]++;
		return;
	}
	struct inv_file *f = inv__file(inv, file);
	if (!f) {
		inv->elsewhere[by]++;
		return;
	}
	f->hits[by] += n;
	if (!f->example[by] && what)
		f->example[by] = xstrdup(what);
}

/* ---- roll-ups and candidates -------------------------------------------------------------------------- */

static bool seen(const uint64_t *hits)
{
	for (int b = 0; b < INV_NBY; b++)
		if (hits[b])
			return true;
	return false;
}

struct pair {
	const char *name;
	size_t file;
};

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->file > y->file) - (x->file < y->file);
}

/* Groups files by the names pairs give them (an option, a directory), into *out. */
static void group(struct inventory *inv, struct pair *p, size_t np, struct inv_group **out, size_t *nout)
{
	size_t cap = 0;

	qsort(p, np, sizeof(*p), cmp_pair);
	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < np; i++) {
		if (!*nout || strcmp((*out)[*nout - 1].name, p[i].name)) {
			XGROW(*out, cap, *nout + 1);
			memset(&(*out)[*nout], 0, sizeof(**out));
			(*out)[(*nout)++].name = xstrdup(p[i].name);
		}
		struct inv_group *g = &(*out)[*nout - 1];
		const struct inv_file *f = &inv->files[p[i].file];
		g->nfiles++;
		if (f->sloc > 0)
			g->sloc += f->sloc;
		if (seen(f->hits)) {
			g->nseen++;
			g->observed = true;
		}
		for (int b = 0; b < INV_NBY; b++)
			g->hits[b] += f->hits[b];
	}
}

static int cmp_group(const void *a, const void *b)
{
	return strcmp(((const struct inv_group *)a)->name, ((const struct inv_group *)b)->name);
}

void inv_finish(struct inventory *inv)
{
	size_t np = 0, cap = 1;
	struct pair *p = xmalloc(sizeof(*p)); /* never NULL: qsort's pointer must not be, even for no element */

	inv->no_sloc = true;
	for (size_t i = 0; i < inv->nfiles; i++) {
		inv->files[i].always = inv->files[i].chain && !inv->files[i].noptions;
		if (inv->files[i].sloc >= 0)
			inv->no_sloc = false;
	}

	for (size_t i = 0; i < inv->nfiles; i++)
		for (size_t j = 0; j < inv->files[i].noptions; j++) {
			XGROW(p, cap, np + 1);
			p[np++] = (struct pair){inv->files[i].options[j], i};
		}
	group(inv, p, np, &inv->opts, &inv->nopts);
	/* an option an observed chain names is observed, gating a compiled file or not */
	size_t ocap = inv->nopts;
	for (size_t i = 0; i < inv->nseen_opts; i++) {
		struct inv_group key = {.name = inv->seen_opts[i].name};
		struct inv_group *g = inv->nopts ? bsearch(&key, inv->opts, inv->nopts, sizeof(key), cmp_group) : NULL;
		if (!g) {
			XGROW(inv->opts, ocap, inv->nopts + 1);
			g = &inv->opts[inv->nopts++];
			memset(g, 0, sizeof(*g));
			g->name = xstrdup(key.name);
			qsort(inv->opts, inv->nopts, sizeof(*inv->opts), cmp_group);
			g = bsearch(&key, inv->opts, inv->nopts, sizeof(key), cmp_group);
		}
		g->observed = true;
		if (inv->seen_opts[i].via && !g->via)
			g->via = xstrdup(inv->seen_opts[i].via);
		for (int b = 0; b < INV_NBY; b++)
			if (!g->nseen) /* the files' hits already count what reached a file under it */
				g->hits[b] += inv->seen_opts[i].hits[b];
	}
	for (size_t i = 0; i < inv->nopts; i++)
		inv->opts[i].value = inv->cfg ? kt_config_get(inv->cfg, inv->opts[i].name) : NULL;
	np = 0;
	for (size_t i = 0; i < inv->nfiles; i++) {
		XGROW(p, cap, np + 1);
		p[np++] = (struct pair){inv->files[i].path, i};
	}
	/* by directory: the names are cut at their last slash in a copy */
	char **dirs = xcalloc(np + 1, sizeof(char *));
	for (size_t i = 0; i < np; i++) {
		const char *s = strrchr(p[i].name, '/');
		dirs[i] = s ? xstrndup(p[i].name, (size_t)(s - p[i].name)) : xstrdup(".");
		p[i].name = dirs[i];
	}
	group(inv, p, np, &inv->dirs, &inv->ndirs);
	for (size_t i = 0; i < np; i++)
		free(dirs[i]);
	free(dirs);
	free(p);
}

static const struct inventory *sort_inv;

static int cmp_opt_sloc(const void *a, const void *b)
{
	const struct inv_group *x = &sort_inv->opts[*(const size_t *)a], *y = &sort_inv->opts[*(const size_t *)b];

	if (x->sloc != y->sloc)
		return x->sloc < y->sloc ? 1 : -1;
	if (x->nfiles != y->nfiles) /* without SLOC (no tree), the files it gates */
		return x->nfiles < y->nfiles ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int cmp_file_sloc(const void *a, const void *b)
{
	const struct inv_file *x = &sort_inv->files[*(const size_t *)a], *y = &sort_inv->files[*(const size_t *)b];

	if (x->sloc != y->sloc)
		return x->sloc < y->sloc ? 1 : -1;
	return strcmp(x->path, y->path);
}

size_t *inv_candidate_opts(const struct inventory *inv, size_t *n)
{
	size_t *v = xcalloc(inv->nopts + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < inv->nopts; i++)
		if (!inv->opts[i].observed && inv->opts[i].nfiles)
			v[(*n)++] = i;
	sort_inv = inv;
	qsort(v, *n, sizeof(*v), cmp_opt_sloc);
	return v;
}

static const struct inv_group *opt_of(const struct inventory *inv, const char *name)
{
	struct inv_group key = {.name = (char *)name};

	return inv->nopts ? bsearch(&key, inv->opts, inv->nopts, sizeof(key), cmp_group) : NULL;
}

/*
 * An unreached file's kind: 0 reached, 1 a candidate, 2 always built, 3 gated by reached options only, 4 its
 * chain unknown where others are known (the database has none for a .S file).
 */
static int kind_of(const struct inventory *inv, const struct inv_file *f)
{
	if (seen(f->hits))
		return 0;
	if (!f->chain)
		return inv->chains ? 4 : 1; /* without any chain, every unreached file may be removable */
	if (f->always)
		return 2;
	for (size_t j = 0; j < f->noptions; j++) {
		const struct inv_group *g = opt_of(inv, f->options[j]);
		if (g && !g->observed)
			return 1;
	}
	return 3;
}

static size_t *files_of_kind(const struct inventory *inv, int kind, size_t *n)
{
	size_t *v = xcalloc(inv->nfiles + 1, sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < inv->nfiles; i++)
		if (kind_of(inv, &inv->files[i]) == kind)
			v[(*n)++] = i;
	sort_inv = inv;
	qsort(v, *n, sizeof(*v), cmp_file_sloc);
	return v;
}

size_t *inv_candidate_files(const struct inventory *inv, size_t *n)
{
	return files_of_kind(inv, 1, n);
}

size_t *inv_always_files(const struct inventory *inv, size_t *n)
{
	return files_of_kind(inv, 2, n);
}

size_t *inv_gated_files(const struct inventory *inv, size_t *n)
{
	return files_of_kind(inv, 3, n);
}

size_t *inv_unknown_files(const struct inventory *inv, size_t *n)
{
	return files_of_kind(inv, 4, n);
}

size_t *inv_option_files(const struct inventory *inv, size_t opt, size_t *n)
{
	size_t *v = xcalloc(inv->nfiles + 1, sizeof(*v));
	const char *name = inv->opts[opt].name;

	*n = 0;
	for (size_t i = 0; i < inv->nfiles; i++) {
		const struct inv_file *f = &inv->files[i];
		if (seen(f->hits))
			continue;
		for (size_t j = 0; j < f->noptions; j++)
			if (!strcmp(f->options[j], name)) {
				v[(*n)++] = i;
				break;
			}
	}
	sort_inv = inv;
	qsort(v, *n, sizeof(*v), cmp_file_sloc);
	return v;
}

static void groups_free(struct inv_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].name);
		free(g[i].via);
	}
	free(g);
}

void inv_free(struct inventory *inv)
{
	if (!inv)
		return;
	for (size_t i = 0; i < inv->nfiles; i++)
		file_release(&inv->files[i]);
	free(inv->files);
	groups_free(inv->opts, inv->nopts);
	groups_free(inv->dirs, inv->ndirs);
	groups_free(inv->seen_opts, inv->nseen_opts);
	for (size_t i = 0; i < inv->nfootprints; i++)
		free(inv->footprints[i]);
	free(inv->footprints);
	free(inv->workload);
	free(inv->source);
	free(inv->tree);
	free(inv->config);
	free(inv->version);
	free(inv->limits);
	free(inv->closure);
	free(inv->sloc_source);
	kt_config_free(inv->cfg);
	inv__dwarf_free(inv);
	inv__running_free(inv->running);
	free(inv);
}
