// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel alone (--running): every text symbol of vmlinux in kallsyms, mapped to the file that defines
 * it through the database of kernel functions (kmap/kfmap.h: the tree's definitions with --kernel-src, else the
 * built-in one of 6.1), with kfmap's resolution of a name several files define (symbol order). The files that
 * hold a function of the running kernel are the compiled list.
 *
 * kallsyms rather than tracefs' available_filter_functions: it has addresses, which give the symbol order the
 * duplicates are resolved by, and it lists the notrace functions (and those of files built without ftrace, as
 * lib/string.c or the entry code) that available_filter_functions leaves out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "inventory/inv_internal.h"
#include "kernel/running.h"
#include "kmap/kfmap.h"
#include "util/error.h"
#include "util/input.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* as kfmap's own limit: /proc/kallsyms is about 5 MB, a System.map of a large configuration a few times that */
#define KALLSYMS_MAX (256ull << 20)

static bool is_header(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && !strcmp(path + n - 2, ".h");
}

/*
 * The names of vmlinux's functions: t and T lines without a "[module]" column. The __pfx_ and __cfi_ symbols are
 * the padding before each function (CALL_PADDING, kCFI), not functions of their own.
 */
static int read_names(struct kfm_names *names, struct inv_running *r, const char *path, bool given)
{
	struct strbuf sb = STRBUF_INIT;
	char *why = NULL, *save = NULL;
	size_t lines = 0;

	if (kf_input_read_all(path, KALLSYMS_MAX, &sb, &why) < 0) {
		error("--running: %s'%s': %s", given ? "--kallsyms " : "", path, why);
		free(why);
		strbuf_release(&sb);
		return -1;
	}
	for (char *l = strtok_r(sb.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(l, ' '), *name;

		lines++;
		if (!sp || !sp[1] || sp[2] != ' ' || (sp[1] != 't' && sp[1] != 'T'))
			continue;
		name = sp + 3;
		if (strchr(name, '[')) {
			r->modules++;
			continue;
		}
		name[strcspn(name, " \t")] = '\0';
		if (!*name || !strncmp(name, "__pfx_", 6) || !strncmp(name, "__cfi_", 6))
			continue;
		kfm_names_add(names, name);
	}
	strbuf_release(&sb);
	if (!names->n)
		return error("--running: %s'%s': no text symbols (t or T) of vmlinux in %zu lines: not a kallsyms file",
			     given ? "--kallsyms " : "", path, lines);
	return 0;
}

/* The database: the tree's function definitions and index, or the built-in one. */
static struct kfdb *open_db(const struct inv_sources *src, const struct kt_config *cfg, struct kt_index **idx)
{
	char *err = NULL;
	struct kfdb *db;

	if (src->kernel_src) {
		const char *arch = kf_abi_get(kf_abi_host())->tree_arch;
		struct kt_fdefs *fd;

		*idx = kt_index_build(src->kernel_src, kf_abi_host(), cfg, src->no_cache ? KT_BUILD_NO_CACHE : 0, &err);
		if (!*idx)
			goto fail;
		fd = kt_fdefs_build(src->kernel_src, arch, src->no_cache ? KT_FDEFS_NO_CACHE : 0, &err);
		if (!fd)
			goto fail;
		return kfdb_from_tree(fd, *idx);
	}
	db = kfdb_builtin(&err);
	if (db)
		return db;
	error("--running: %s", err);
	free(err);
	return NULL;
fail:
	error("--kernel-src '%s': %s", src->kernel_src, err);
	free(err);
	return NULL;
}

/*
 * The options of the database's chain (those that must be on: "!X" needs X off, which removes nothing); a chain
 * with none is compiled whenever its directory is. A chain the database could not complete stays unknown.
 */
static void take_chain(struct inv_file *f, const struct kfdb_file *c)
{
	if (!c || c->why)
		return;
	f->options = xcalloc(c->nopts + 1, sizeof(char *));
	for (size_t i = 0; i < c->nopts; i++)
		if (!c->opts[i][strspn(c->opts[i], "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")])
			f->options[f->noptions++] = xstrdup(c->opts[i]);
	f->chain = true;
}

static bool same_series(const char *a, const char *b)
{
	int a1, a2, b1, b2;

	return kf_parse_version(a, &a1, &a2) == 0 && kf_parse_version(b, &b1, &b2) == 0 && a1 == b1 && a2 == b2;
}

int inv__from_running(struct inventory *inv, const struct inv_sources *src, const struct kt_config *cfg)
{
	const char *path = src->kallsyms ? src->kallsyms : "/proc/kallsyms";
	struct inv_running *r = xcalloc(1, sizeof(*r));
	struct kfm_names names = {0};
	struct kt_index *idx = NULL;
	struct kfdb *db = NULL;
	struct kfmap *m = NULL;
	struct utsname u;
	char *err = NULL;
	bool *seen = NULL;
	int ret = -1;

	inv->running = r;
	r->symbols = xstrdup(path);
	if (!src->kallsyms && !uname(&u))
		r->release = xstrdup(u.release);
	if (read_names(&names, r, path, src->kallsyms != NULL) < 0)
		goto out;
	if (!(db = open_db(src, cfg, &idx)))
		goto out;
	r->database = src->kernel_src ? xasprintf("kernel tree %s (%s)", src->kernel_src, db->version)
				      : xasprintf("%s %s", db->origin, db->version);
	struct kfmap_opts o = {.kallsyms = path, .no_running = true};
	if (!(m = kfmap_build_names(db, &names, &o, &err))) {
		error("--running: %s", err);
		free(err);
		goto out;
	}
	r->names = m->nrows;
	r->resolved = m->count[KFM_UNIQUE] + m->count[KFM_DWARF] + m->count[KFM_KALLSYMS];
	r->by_order = m->count[KFM_DWARF] + m->count[KFM_KALLSYMS];
	r->ambiguous = m->count[KFM_AMBIGUOUS];
	r->unknown = m->count[KFM_UNKNOWN];
	struct strbuf note = STRBUF_INIT;
	if (r->release && db->version && !same_series(r->release, db->version))
		strbuf_addf(&note,
			    "the running kernel %s is not the database's %s: functions added or renamed since count as "
			    "unknown, and files added since are missing from the list",
			    r->release, db->version);
	if (!m->kallsyms && m->kallsyms_note)
		strbuf_addf(&note, "%sno symbol order, names several files define stay ambiguous: %s",
			    note.len ? "; " : "", m->kallsyms_note);
	if (note.len)
		r->note = strbuf_detach(&note);
	strbuf_release(&note);
	seen = xcalloc(db->nfiles + 1, sizeof(*seen));
	for (size_t i = 0; i < m->nrows; i++) {
		const struct kfm_row *row = &m->rows[i];
		const struct kfdb_file *f;
		const char *file;

		if (row->file < 0 || (size_t)row->file >= db->nfiles || seen[row->file])
			continue;
		seen[row->file] = true;
		f = kfdb_chain(db, (uint32_t)row->file);
		file = f->included_by ? f->included_by : f->path;
		if (is_header(file)) {
			r->in_headers++;
			continue;
		}
		/* an #included file's chain has its own #if: the unit listed is the includer, with the includer's */
		long unit = f->included_by ? kfdb_file_index(db, f->included_by) : (long)row->file;
		take_chain(inv__add(inv, file, KT_BUILT_IN), unit >= 0 ? kfdb_chain(db, (uint32_t)unit) : NULL);
	}
	inv->chains = true;
	inv__sort(inv);
	ret = 0;
out:
	free(seen);
	kfmap_free(m);
	kfdb_free(db);
	kt_index_free(idx);
	kfm_names_release(&names);
	return ret;
}

void inv__running_free(struct inv_running *r)
{
	if (!r)
		return;
	free(r->symbols);
	free(r->database);
	free(r->release);
	free(r->note);
	free(r);
}
