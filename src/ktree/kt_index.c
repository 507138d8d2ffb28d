// SPDX-License-Identifier: GPL-2.0
// The kernel tree index: ties the scanner, Kbuild, Kconfig and MAINTAINERS readers together, gives every option
// its value, and has every syscall of an ABI's table resolved to its chain (kt_resolve.c). Resolution order and
// rules are described in docs/ktree.md.
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ktree/kt_internal.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static char off_marker[] = "n";
static char busy_marker[] = "busy";

/* Symbols as they appear in conditions: CONFIG_X, X (Kconfig/Makefile), __ARCH_WANT_X, a few arch macros. */
const char *kt_index_lookup(void *ctx, const char *name)
{
	struct kt_index *idx = ctx;

	if (!strncmp(name, "CONFIG_", 7))
		return kt_index_value(idx, name + 7);
	if (!strncmp(name, "__ARCH_WANT_", 12))
		return kt_strv_has(&idx->arch_on, name) ? "1" : NULL;
	if (!strcmp(name, "BITS_PER_LONG"))
		return kt_map_get(&idx->vars, "BITS");
	if (!strcmp(name, "__KERNEL__"))
		return "1";
	if (name[0] == '_' || islower((unsigned char)name[0]))
		return NULL; /* compiler or file-local macros: not options */
	return kt_index_value(idx, name);
}

/* Architecture symbols fixed by the ABI when no configuration is given (its descriptor's tree_on, tree_off). */
static const char *arch_symbol(const struct kt_index *idx, const char *name, bool *known)
{
	const struct kf_abi_desc *d = kf_abi_get(idx->abi);

	*known = true;
	if (kt_word_in(d->tree_on, name))
		return "y";
	if (kt_word_in(d->tree_off, name))
		return NULL;
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

		on = default_value(idx, who) && (!iff || kt_kexpr_eval(iff + 4, kt_index_lookup, idx) > 0);
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
	if (!o->depends || kt_kexpr_eval(o->depends, kt_index_lookup, idx) > 0) {
		struct kt_option_raw *r = kt_option_raw(&idx->kc, name);
		if (o->prompt && (!o->prompt_if || kt_kexpr_eval(o->prompt_if, kt_index_lookup, idx) > 0))
			v = "y";
		for (size_t i = 0; !v && r && i < r->defaults.n; i++) {
			const char *d = r->defaults.v[i];
			const char *iff = strstr(d, " if ");
			char *e = iff ? xstrndup(d, (size_t)(iff - d)) : xstrdup(d);
			if (!iff || kt_kexpr_eval(iff + 4, kt_index_lookup, idx) > 0) {
				bool boolish = !o->type || !strcmp(o->type, "bool") || !strcmp(o->type, "tristate");
				if (boolish) {
					int t = kt_kexpr_eval(e, kt_index_lookup, idx);
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

const char *kt_index_value(struct kt_index *idx, const char *name)
{
	if (idx->cfg)
		return kt_config_get(idx->cfg, name);
	return default_value(idx, name);
}

const char *kt_index_option_value(const struct kt_index *idx, const char *name)
{
	if (!strncmp(name, "CONFIG_", 7))
		name += 7;
	return kt_index_value((struct kt_index *)idx, name);
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
	const struct kf_abi_desc *d = kf_abi_get(idx->abi);
	const char *tbl = d->tree_table;

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
		if (kt_word_in(d->tree_rows, abi))
			kt_strv_push(&idx->tree_rows, name);
		if (n == 5 && d->tree_compat)
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
			on = kt_cond_eval(&cv->v[j], kt_index_lookup, idx);
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
	idx->arch = xstrdup(kf_abi_get(abi)->tree_arch);
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
		kt_map_put(&idx->vars, "BITS", kt_index_value(idx, "X86_64") ? "64" : "32");
	else
		kt_map_put(&idx->vars, "BITS", "64");
	idx->kb = kt_kbuild_new(idx->srcdir, &idx->vars, kt_index_lookup, idx);
	eval_arch_want(idx);
	read_tree_table(idx);

	idx->nsys = kf_syscall_count(abi);
	idx->sys = xcalloc(idx->nsys ? idx->nsys : 1, sizeof(*idx->sys));
	for (size_t i = 0; i < idx->nsys; i++) {
		const struct kf_syscall *row = kf_syscall_at(abi, i);
		kt_resolve(idx, &idx->sys[i], row);
		kt_map_put(&idx->byname, row->name, (void *)(i + 1));
	}
	kt_resolve_reach(idx);
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
	for (size_t i = 0; i < idx->nreach; i++)
		syscall_release(&idx->reach[i]);
	free(idx->reach);
	kt_strv_release(&idx->reach_keys);
	kt_map_release(&idx->reach_byname, NULL);
	kt_map_release(&idx->byname, NULL);
	kt_map_release(&idx->chains, kt_chain_free);
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

size_t kt_index_nreach(const struct kt_index *idx)
{
	return idx->nreach;
}

const struct kt_syscall *kt_index_reach_at(const struct kt_index *idx, size_t i)
{
	return i < idx->nreach ? &idx->reach[i] : NULL;
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
