// SPDX-License-Identifier: GPL-2.0
// The kernel tree index: ties the scanner, Kbuild, Kconfig and MAINTAINERS readers together and resolves every
// syscall of an ABI's table to its chain. Resolution order and rules are described in docs/ktree.md.
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/kt_internal.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* How a .c file gets into vmlinux (per file, shared by all its syscalls). */
struct chain {
	bool ok;
	struct kt_condv conds;
	char *object, *makefile, *included_by, *why;
	int line;
	int busy; /* guards against #include cycles */
};

struct kt_index {
	char *srcdir;
	enum kf_abi abi;
	char *arch;
	char version[128];
	struct kt_config *cfg;
	struct kt_map vars;
	struct kt_scan scan;
	struct kt_kbuild *kb;
	struct kt_kconfig kc;
	struct kt_maint *maint;
	bool have_maint;
	struct kt_map chains;	    /* file -> struct chain * */
	struct kt_map memo;	    /* option -> value string (or &off) for the Kconfig-derived defaults */
	struct kt_map byname;	    /* table name -> (index + 1) */
	struct kt_strv arch_on;	    /* __ARCH_WANT_* in force */
	struct kt_strv tree_rows;   /* names in the tree's own syscall table; empty when it has none */
	struct kt_map compat_entry; /* i386: name -> compat entry point (syscall_32.tbl's 5th column) */
	struct kt_syscall *sys;
	size_t nsys;
	bool from_cache;
};

static char off_marker[] = "n";
static char busy_marker[] = "busy";

static const char *option_value(struct kt_index *idx, const char *name);

/* Symbols as they appear in conditions: CONFIG_X, X (Kconfig/Makefile), __ARCH_WANT_X, a few arch macros. */
static const char *lookup(void *ctx, const char *name)
{
	struct kt_index *idx = ctx;

	if (!strncmp(name, "CONFIG_", 7))
		return option_value(idx, name + 7);
	if (!strncmp(name, "__ARCH_WANT_", 12))
		return kt_strv_has(&idx->arch_on, name) ? "1" : NULL;
	if (!strcmp(name, "BITS_PER_LONG"))
		return kt_map_get(&idx->vars, "BITS");
	if (!strcmp(name, "__KERNEL__"))
		return "1";
	if (name[0] == '_' || islower((unsigned char)name[0]))
		return NULL; /* compiler or file-local macros: not options */
	return option_value(idx, name);
}

/* Architecture symbols fixed by the ABI when no configuration is given. */
static const char *arch_symbol(const struct kt_index *idx, const char *name, bool *known)
{
	bool is32 = idx->abi == KF_ABI_I386;

	*known = true;
	if (!strcmp(idx->arch, "x86")) {
		if (!strcmp(name, "X86") || !strcmp(name, "MMU"))
			return "y";
		if (!strcmp(name, "X86_64") || !strcmp(name, "64BIT"))
			return is32 ? NULL : "y";
		if (!strcmp(name, "X86_32"))
			return is32 ? "y" : NULL;
	} else if (!strcmp(idx->arch, "arm64")) {
		if (!strcmp(name, "ARM64") || !strcmp(name, "64BIT") || !strcmp(name, "MMU"))
			return "y";
	}
	*known = false;
	return NULL;
}

static const char *default_value(struct kt_index *idx, const char *name);

/* True when an option that is on selects name ("X if COND" entries of the reverse select map). */
static bool selected(struct kt_index *idx, const char *name)
{
	struct kt_strv *sel = kt_map_get(&idx->kc.rsel, name);
	bool on = false;

	for (size_t i = 0; !on && sel && i < sel->n; i++) {
		const char *s = sel->v[i];
		const char *iff = strstr(s, " if ");
		char *who = iff ? xstrndup(s, (size_t)(iff - s)) : xstrdup(s);

		on = default_value(idx, who) && (!iff || kt_kexpr_eval(iff + 4, lookup, idx) > 0);
		free(who);
	}
	return on;
}

/* The Kconfig-derived value of an option (see kt_index_build in ktree.h). */
static const char *default_value(struct kt_index *idx, const char *name)
{
	bool known;
	const char *a = arch_symbol(idx, name, &known);

	if (known)
		return a;
	const char *m = kt_map_get(&idx->memo, name);
	if (m == busy_marker)
		return NULL; /* a dependency cycle: treat as off */
	if (m)
		return m == off_marker ? NULL : m;
	const struct kt_option *o = kt_map_get(&idx->kc.opts, name);
	if (!o) {
		kt_map_put(&idx->memo, name, off_marker);
		return NULL;
	}
	kt_map_put(&idx->memo, name, busy_marker);
	const char *v = NULL;
	if (!o->depends || kt_kexpr_eval(o->depends, lookup, idx) > 0) {
		struct kt_option_raw *r = kt_option_raw(&idx->kc, name);
		if (o->prompt && (!o->prompt_if || kt_kexpr_eval(o->prompt_if, lookup, idx) > 0))
			v = "y";
		for (size_t i = 0; !v && r && i < r->defaults.n; i++) {
			const char *d = r->defaults.v[i];
			const char *iff = strstr(d, " if ");
			char *e = iff ? xstrndup(d, (size_t)(iff - d)) : xstrdup(d);
			if (!iff || kt_kexpr_eval(iff + 4, lookup, idx) > 0) {
				bool boolish = !o->type || !strcmp(o->type, "bool") || !strcmp(o->type, "tristate");
				if (boolish) {
					int t = kt_kexpr_eval(e, lookup, idx);
					v = t == 2 ? "y" : t == 1 ? "m" : off_marker;
				} else {
					v = "default"; /* int/hex/string: some value */
				}
			}
			free(e);
		}
		if ((!v || v == off_marker) && selected(idx, name))
			v = "y";
	} else if (selected(idx, name)) {
		/* select overrides depends on in Kconfig */
		v = "y";
	}
	if (v == off_marker)
		v = NULL;
	kt_map_put(&idx->memo, name, v ? (void *)v : off_marker);
	return v;
}

static const char *option_value(struct kt_index *idx, const char *name)
{
	if (idx->cfg)
		return kt_config_get(idx->cfg, name);
	return default_value(idx, name);
}

const char *kt_index_option_value(const struct kt_index *idx, const char *name)
{
	if (!strncmp(name, "CONFIG_", 7))
		name += 7;
	return option_value((struct kt_index *)idx, name);
}

/* ---- per-file chains ---- */

static void chain_free(void *p)
{
	struct chain *c = p;

	kt_condv_release(&c->conds);
	free(c->object);
	free(c->makefile);
	free(c->included_by);
	free(c->why);
	free(c);
}

static const struct chain *file_chain(struct kt_index *idx, const char *file)
{
	struct chain *c = kt_map_get(&idx->chains, file);

	if (c)
		return c->busy ? NULL : c;
	c = xcalloc(1, sizeof(*c));
	c->busy = 1;
	kt_map_put(&idx->chains, file, c);
	char *why = NULL;
	if (kt_kbuild_resolve(idx->kb, file, &c->conds, &c->object, &c->makefile, &c->line, &why) == 0) {
		c->ok = true;
	} else {
		kt_condv_release(&c->conds);
		/* not built by itself: maybe #included by another .c file (membarrier.c in build_utility.c) */
		for (size_t i = 0; i < idx->scan.nincs && !c->ok; i++) {
			const struct kt_inc *inc = &idx->scan.incs[i];
			if (strcmp(inc->file, file) != 0)
				continue;
			const struct chain *by = file_chain(idx, inc->by);
			if (!by || !by->ok)
				continue;
			for (size_t j = 0; j < inc->conds.n; j++) {
				kt_condv_push(&c->conds, &inc->conds.v[j]);
				c->conds.v[c->conds.n - 1].kind = KT_COND_INCLUDE;
			}
			for (size_t j = 0; j < by->conds.n; j++)
				kt_condv_push(&c->conds, &by->conds.v[j]);
			c->object = xstrdup(by->object);
			c->makefile = xstrdup(by->makefile);
			c->line = by->line;
			c->included_by = xstrdup(inc->by);
			c->ok = true;
		}
		if (c->ok)
			free(why);
		else
			c->why = why;
	}
	c->busy = 0;
	return c;
}

/* ---- syscalls ---- */

struct cand {
	const struct kt_def *def;
	struct kt_condv conds;
	const struct chain *ch;
	size_t failing;
};

static void cand_eval(struct kt_index *idx, struct cand *c)
{
	for (size_t i = 0; i < c->def->conds.n; i++)
		kt_condv_push(&c->conds, &c->def->conds.v[i]);
	c->ch = file_chain(idx, c->def->file);
	if (c->ch && c->ch->ok)
		for (size_t i = 0; i < c->ch->conds.n; i++)
			kt_condv_push(&c->conds, &c->ch->conds.v[i]);
	c->failing = 0;
	for (size_t i = 0; i < c->conds.n; i++) {
		c->conds.v[i].holds = kt_cond_eval(&c->conds.v[i], lookup, idx);
		c->failing += !c->conds.v[i].holds;
	}
	if (!c->ch || !c->ch->ok)
		c->failing += 1000; /* a file we cannot place is the worst choice */
}

/* Candidates of a name; the chosen one is the first whose conditions all hold, else the closest. */
static size_t choose(struct kt_index *idx, const char *name, bool compat, bool func, struct cand **out)
{
	struct cand *c = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < idx->scan.ndefs; i++) {
		const struct kt_def *d = &idx->scan.defs[i];
		bool is_func = !strcmp(d->macro, "FUNC");
		if (strcmp(d->name, name) || is_func != func || (!func && d->compat != compat))
			continue;
		XGROW(c, cap, n + 1);
		memset(&c[n], 0, sizeof(c[n]));
		c[n].def = d;
		cand_eval(idx, &c[n]);
		n++;
	}
	/* stable: best first (fewest failing conditions, then scan order) */
	for (size_t i = 1; i < n; i++) {
		struct cand t = c[i];
		size_t j = i;
		while (j > 0 && c[j - 1].failing > t.failing) {
			c[j] = c[j - 1];
			j--;
		}
		c[j] = t;
	}
	*out = c;
	return n;
}

static void cands_free(struct cand *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		kt_condv_release(&c[i].conds);
	free(c);
}

static char *cond_text(const struct kt_cond *c)
{
	if (c->option && c->kind == KT_COND_ARCH_WANT)
		return xasprintf("%s is %sdefined for %s (%s)", c->option, c->negated ? "" : "not ", "the architecture",
				 c->where ? c->where : "?");
	if (c->option)
		return xasprintf("CONFIG_%s is %s (%s)", c->option, c->negated ? "on" : "off",
				 c->where ? c->where : "?");
	return xasprintf("%s%s is false (%s)", c->negated ? "!" : "", c->expr ? c->expr : "?",
			 c->where ? c->where : "?");
}

static void add_option(struct kt_strv *opts, const char *o)
{
	if (strncmp(o, "__ARCH_WANT_", 12) != 0 && !kt_strv_has(opts, o))
		kt_strv_push(opts, o);
}

static bool same_cond(const struct kt_cond *a, const struct kt_cond *b)
{
	if (a->option && b->option)
		return !strcmp(a->option, b->option) && a->negated == b->negated;
	return a->where && b->where && !strcmp(a->where, b->where) && a->expr && b->expr && !strcmp(a->expr, b->expr);
}

static void resolve(struct kt_index *idx, struct kt_syscall *s, const struct kf_syscall *row)
{
	s->name = row->name;
	s->entry = row->entry;
	if (idx->tree_rows.n && !kt_strv_has(&idx->tree_rows, row->name)) {
		s->status = KT_NOT_IN_TREE;
		s->unresolved = xasprintf("not in the syscall table of this tree (newer than %s)", idx->version);
		return;
	}
	if (!row->entry) {
		s->status = KT_NO_ENTRY;
		s->unresolved = xstrdup("no entry point in the syscall table: the kernel has no code for it");
		return;
	}
	const char *row_entry = row->entry;
	if (!strcmp(row->entry, "sys_ni_syscall")) {
		s->status = KT_NI_SYSCALL;
		s->unresolved = xstrdup("the entry point is sys_ni_syscall (always ENOSYS)");
		return;
	}
	/* an i386 call on a 64-bit kernel (IA32_EMULATION) enters through the table's compat entry point */
	const char *ce = kt_map_get(&idx->compat_entry, row->name);
	if (ce && option_value(idx, "X86_64")) {
		s->entry = ce;
		row_entry = ce;
	}
	bool compat = !strncmp(row_entry, "compat_sys_", 11);
	const char *name = compat ? row_entry + 11 : !strncmp(row_entry, "sys_", 4) ? row_entry + 4 : row_entry;
	struct cand *c;
	size_t n = choose(idx, name, compat, false, &c);

	s->def_name = xstrdup(name);
	s->optional = kt_strv_has(&idx->scan.cond_syscalls, compat ? row_entry + 4 : name);
	if (!n) {
		s->status = KT_NO_DEFINITION;
		s->unresolved = xstrdup("no SYSCALL_DEFINE in this tree");
		free(c);
		return;
	}
	struct cand *best = &c[0];
	const struct kt_def *d = best->def;
	s->status = best->failing ? KT_NOT_BUILT : KT_RESOLVED;
	s->macro = xstrdup(d->macro);
	s->file = xstrdup(d->file);
	s->line = d->line;
	for (size_t i = 1; i < n; i++) {
		s->alternatives = xrealloc(s->alternatives, (s->nalternatives + 1) * sizeof(char *));
		s->alternatives[s->nalternatives++] = xasprintf("%s:%d", c[i].def->file, c[i].def->line);
	}
	struct kt_condv conds = {0};
	for (size_t i = 0; i < best->conds.n; i++)
		kt_condv_push(&conds, &best->conds.v[i]);

	struct strbuf why = STRBUF_INIT;
	if (best->ch && best->ch->ok) {
		s->object = xstrdup(best->ch->object);
		s->makefile = xstrdup(best->ch->makefile);
		s->makefile_line = best->ch->line;
		s->included_by = best->ch->included_by ? xstrdup(best->ch->included_by) : NULL;
	} else {
		strbuf_addstr(&why, best->ch && best->ch->why ? best->ch->why : "not reached by any Makefile");
	}

	/* a thin wrapper: follow it to the ksys_*() helper in another file (x86_64 mmap -> mm/mmap.c) */
	if (d->calls_ksys) {
		struct cand *ic;
		size_t in = choose(idx, d->calls_ksys, false, true, &ic);
		if (in && strcmp(ic[0].def->file, d->file) != 0) {
			s->impl_name = xstrdup(d->calls_ksys);
			s->impl_file = xstrdup(ic[0].def->file);
			s->impl_line = ic[0].def->line;
			for (size_t i = 0; i < ic[0].conds.n; i++) {
				bool dup = false;
				for (size_t j = 0; j < conds.n && !dup; j++)
					dup = same_cond(&conds.v[j], &ic[0].conds.v[i]);
				if (!dup)
					kt_condv_push(&conds, &ic[0].conds.v[i]);
			}
			if (ic[0].failing && s->status == KT_RESOLVED)
				s->status = KT_NOT_BUILT;
		}
		cands_free(ic, in);
	}
	s->conds = conds.v;
	s->nconds = conds.n;

	struct kt_strv opts = {0};
	for (size_t i = 0; i < s->nconds; i++) {
		const struct kt_cond *k = &s->conds[i];
		if (k->option)
			add_option(&opts, k->option);
		else /* a compound #if may name other architectures' symbols (CONFIG_ALPHA): only this one's count */
			for (size_t j = 0; j < k->nsymbols; j++)
				if (kt_map_get(&idx->kc.opts, k->symbols[j]))
					add_option(&opts, k->symbols[j]);
		if (!k->holds && !s->not_built && s->status == KT_NOT_BUILT)
			s->not_built = cond_text(k);
	}
	if (s->status == KT_NOT_BUILT && !s->not_built)
		s->not_built = xstrdup(why.len ? why.buf : "no candidate definition is built");
	for (size_t i = 0; i < opts.n; i++) {
		if (!kt_map_get(&idx->kc.opts, opts.v[i])) {
			if (why.len)
				strbuf_addstr(&why, "; ");
			strbuf_addf(&why, "CONFIG_%s has no Kconfig entry", opts.v[i]);
		}
	}
	s->options = opts.v;
	s->noptions = opts.n;

	s->nsections = kt_maint_match(idx->maint, s->file, &s->sections);
	if (!s->nsections) {
		if (why.len)
			strbuf_addstr(&why, "; ");
		strbuf_addstr(&why, idx->have_maint ? "no MAINTAINERS section" : "no MAINTAINERS file");
	}
	s->complete = why.len == 0;
	s->unresolved = why.len ? strbuf_detach(&why) : NULL;
	strbuf_release(&why);
	cands_free(c, n);
}

/* ---- the tree ---- */

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int read_version(struct kt_index *idx, char **err)
{
	char *path = kt_path(idx->srcdir, "Makefile");
	char *text = kt_read_file(path, NULL);
	char v[4][24] = {"", "", "", ""};
	static const char *const keys[] = {"VERSION", "PATCHLEVEL", "SUBLEVEL", "EXTRAVERSION"};

	if (!text) {
		*err = xasprintf("'%s' is not a kernel source tree: cannot read '%s': %s", idx->srcdir, path,
				 kt_strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		for (size_t k = 0; k < 4; k++) {
			size_t n = strlen(keys[k]);
			if (strncmp(l, keys[k], n))
				continue;
			const char *p = l + n;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p != '=' || v[k][0])
				continue;
			p++;
			while (*p == ' ' || *p == '\t')
				p++;
			size_t m = strcspn(p, " \t\n#");
			if (m >= sizeof(v[k]))
				m = sizeof(v[k]) - 1;
			memcpy(v[k], p, m);
			v[k][m] = '\0';
		}
	}
	free(text);
	if (!v[0][0] || !isdigit((unsigned char)v[0][0])) {
		*err = xasprintf("'%s' is not a kernel source tree: its Makefile has no VERSION", idx->srcdir);
		return -1;
	}
	snprintf(idx->version, sizeof(idx->version), "%s.%s%s%s%s", v[0], v[1][0] ? v[1] : "0", v[2][0] ? "." : "",
		 v[2], v[3]);
	return 0;
}

/* The tree's own table (arch/x86/entry/syscalls/syscall_64.tbl: "nr abi name entry"), to tell newer rows. */
static void read_tree_table(struct kt_index *idx)
{
	const char *tbl = idx->abi == KF_ABI_I386      ? "arch/x86/entry/syscalls/syscall_32.tbl"
			  : idx->abi == KF_ABI_AARCH64 ? NULL
						       : "arch/x86/entry/syscalls/syscall_64.tbl";
	const char *want = idx->abi == KF_ABI_X32 ? "x32" : idx->abi == KF_ABI_I386 ? "i386" : "64";

	if (!tbl) {
		/* the generic table: every "#define __NR_name ..." is a row of this tree */
		char *gp = kt_path(idx->srcdir, "include/uapi/asm-generic/unistd.h");
		char *gt = kt_read_tree_file(gp, NULL);
		free(gp);
		for (const char *l = gt; l && (l = strstr(l, "#define __NR_"));) {
			l += 13;
			size_t n = strspn(l, "abcdefghijklmnopqrstuvwxyz0123456789_");
			if (n && n < 64 && (l[n] == ' ' || l[n] == '\t')) {
				char *name = xstrndup(l, n);
				kt_strv_push(&idx->tree_rows, name);
				free(name);
			}
		}
		free(gt);
		return;
	}
	char *path = kt_path(idx->srcdir, tbl);
	char *text = kt_read_tree_file(path, NULL);
	free(path);
	if (!text)
		return;
	char *save = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char nr[16], abi[16], name[64], native[64], compat[64];
		int n = l[0] == '#' ? 0 : sscanf(l, "%15s %15s %63s %63s %63s", nr, abi, name, native, compat);
		if (n < 3)
			continue;
		if ((!strcmp(abi, "common") && idx->abi != KF_ABI_I386) || !strcmp(abi, want))
			kt_strv_push(&idx->tree_rows, name);
		if (n == 5 && idx->abi == KF_ABI_I386)
			free(kt_map_put(&idx->compat_entry, name, xstrdup(compat)));
	}
	free(text);
}

static void eval_arch_want(struct kt_index *idx)
{
	for (size_t i = 0; i < idx->scan.arch_want.n; i++) {
		const struct kt_condv *cv = &idx->scan.arch_want_conds[i];
		bool on = true;
		for (size_t j = 0; j < cv->n && on; j++)
			on = kt_cond_eval(&cv->v[j], lookup, idx);
		if (on && !kt_strv_has(&idx->arch_on, idx->scan.arch_want.v[i]))
			kt_strv_push(&idx->arch_on, idx->scan.arch_want.v[i]);
	}
}

struct kt_index *kt_index_build(const char *srcdir, enum kf_abi abi, const struct kt_config *cfg, unsigned flags,
				char **err)
{
	char real[PATH_MAX];

	*err = NULL;
	(void)flags;
	if (!realpath(srcdir, real)) {
		*err = xasprintf("cannot open kernel tree '%s': %s", srcdir, strerror(errno));
		return NULL;
	}
	if (!kt_is_dir(real)) {
		*err = xasprintf("'%s' is not a directory", srcdir);
		return NULL;
	}
	struct kt_index *idx = xcalloc(1, sizeof(*idx));
	idx->srcdir = xstrdup(real);
	idx->abi = abi;
	idx->arch = xstrdup(abi == KF_ABI_AARCH64 ? "arm64" : "x86");
	idx->cfg = kt_config_dup(cfg);
	if (read_version(idx, err) < 0)
		goto fail;
	char *k = kt_path(idx->srcdir, "kernel"), *a = xasprintf("%s/arch/%s", idx->srcdir, idx->arch);
	bool ok = kt_is_dir(k) && kt_is_dir(a);
	free(k);
	if (!ok) {
		*err = xasprintf("'%s' is not a kernel source tree: no kernel/ or arch/%s/", srcdir, idx->arch);
		free(a);
		goto fail;
	}
	free(a);

	kt_map_put(&idx->vars, "SRCARCH", idx->arch);
	kt_map_put(&idx->vars, "ARCH", idx->arch);
	kt_map_put(&idx->vars, "srctree", ".");

	double t0 = seconds();
	char *cache = flags & KT_BUILD_NO_CACHE ? NULL : kt_cache_file(idx->srcdir, idx->arch);
	if (cache && kt_cache_load(cache, idx->srcdir, idx->arch, &idx->scan, &idx->kc) == 0) {
		idx->from_cache = true;
	} else {
		if (kt_scan_tree(&idx->scan, idx->srcdir, idx->arch, err) < 0) {
			free(cache);
			goto fail;
		}
		kt_kconfig_load(&idx->kc, idx->srcdir, idx->arch);
		char *cerr = NULL;
		if (cache && kt_cache_save(cache, idx->srcdir, idx->arch, &idx->scan, &idx->kc, &cerr) < 0) {
			debug("kernel tree index: %s", cerr); /* a read-only home is no reason to fail */
			free(cerr);
		}
	}
	free(cache);
	double t1 = seconds(), t2 = t1;
	char *mp = kt_path(idx->srcdir, "MAINTAINERS");
	char *mt = kt_read_tree_file(mp, NULL);
	free(mp);
	idx->have_maint = mt != NULL;
	idx->maint = kt_maint_parse(mt ? mt : "", idx->srcdir);
	free(mt);
	/* process_$(BITS).o: 64 unless the configuration (or, without one, the ABI) is 32-bit */
	if (!strcmp(idx->arch, "x86"))
		kt_map_put(&idx->vars, "BITS", option_value(idx, "X86_64") ? "64" : "32");
	else
		kt_map_put(&idx->vars, "BITS", "64");
	idx->kb = kt_kbuild_new(idx->srcdir, &idx->vars, lookup, idx);
	eval_arch_want(idx);
	read_tree_table(idx);

	idx->nsys = kf_syscall_count(abi);
	idx->sys = xcalloc(idx->nsys ? idx->nsys : 1, sizeof(*idx->sys));
	for (size_t i = 0; i < idx->nsys; i++) {
		const struct kf_syscall *row = kf_syscall_at(abi, i);
		resolve(idx, &idx->sys[i], row);
		kt_map_put(&idx->byname, row->name, (void *)(i + 1));
	}
	double t3 = seconds();
	debug(
	    "kernel tree index of %s: %s %.3f s (%zu C files, %zu MB; %zu Kconfig files, %zu entries), resolve %.3f s",
	    idx->srcdir, idx->from_cache ? "cache" : "scan", t1 - t0, idx->scan.files_read, idx->scan.bytes_read >> 20,
	    idx->kc.nfiles, idx->kc.nentries, t3 - t2);
	return idx;
fail:
	kt_index_free(idx);
	return NULL;
}

static void syscall_release(struct kt_syscall *s)
{
	free(s->def_name);
	free(s->macro);
	free(s->file);
	free(s->impl_name);
	free(s->impl_file);
	free(s->object);
	free(s->makefile);
	free(s->included_by);
	for (size_t i = 0; i < s->nconds; i++)
		kt_cond_release(&s->conds[i]);
	free(s->conds);
	for (size_t i = 0; i < s->noptions; i++)
		free(s->options[i]);
	free(s->options);
	free(s->sections);
	for (size_t i = 0; i < s->nalternatives; i++)
		free(s->alternatives[i]);
	free(s->alternatives);
	free(s->unresolved);
	free(s->not_built);
}

void kt_index_free(struct kt_index *idx)
{
	if (!idx)
		return;
	for (size_t i = 0; i < idx->nsys; i++)
		syscall_release(&idx->sys[i]);
	free(idx->sys);
	kt_map_release(&idx->byname, NULL);
	kt_map_release(&idx->chains, chain_free);
	kt_map_release(&idx->memo, NULL);
	kt_kbuild_free(idx->kb);
	kt_maint_free(idx->maint);
	kt_kconfig_release(&idx->kc);
	kt_scan_release(&idx->scan);
	kt_map_release(&idx->vars, NULL);
	kt_strv_release(&idx->arch_on);
	kt_strv_release(&idx->tree_rows);
	kt_map_release(&idx->compat_entry, free);
	kt_config_free(idx->cfg);
	free(idx->arch);
	free(idx->srcdir);
	free(idx);
}

const char *kt_index_version(const struct kt_index *idx)
{
	return idx->version;
}

const char *kt_index_srcdir(const struct kt_index *idx)
{
	return idx->srcdir;
}

enum kf_abi kt_index_abi(const struct kt_index *idx)
{
	return idx->abi;
}

bool kt_index_from_cache(const struct kt_index *idx)
{
	return idx->from_cache;
}

const struct kt_syscall *kt_index_syscall(const struct kt_index *idx, const char *name)
{
	size_t i = (size_t)kt_map_get(&idx->byname, name);

	return i ? &idx->sys[i - 1] : NULL;
}

size_t kt_index_nsyscalls(const struct kt_index *idx)
{
	return idx->nsys;
}

const struct kt_syscall *kt_index_syscall_at(const struct kt_index *idx, size_t i)
{
	return i < idx->nsys ? &idx->sys[i] : NULL;
}

const struct kt_option *kt_index_option(const struct kt_index *idx, const char *name)
{
	if (!strncmp(name, "CONFIG_", 7))
		name += 7;
	return kt_map_get(&idx->kc.opts, name);
}

size_t kt_index_file_sections(const struct kt_index *idx, const char *path, struct kt_section_match **out)
{
	return kt_maint_match(idx->maint, path, out);
}

char *kt_cache_dir(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");

	if (x && *x == '/')
		return xasprintf("%s/kfootprint", x);
	if (h && *h == '/')
		return xasprintf("%s/.cache/kfootprint", h);
	return NULL;
}
