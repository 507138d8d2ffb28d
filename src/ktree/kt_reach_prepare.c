// SPDX-License-Identifier: GPL-2.0
// What refinements reach, before resolving (kt_reach_prepare(), kt_internal.h): the registrations the scanner
// found get their device numbers from the tree's headers, the bpf types and protocols the file that defines their
// ops, the #define'd binfmts the file that #includes them; and the rows of the reviewed table data/reach-map.tsv
// (embedded: kt_reach_data.c), for what the tree cannot say (ioctl command families, namespaces, prctl...),
// the file and the function whose #if stack gates it.
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktree/kt_internal.h"
#include "util/xalloc.h"

static const char *num_lookup(void *ctx, const char *name)
{
	return kt_map_get(ctx, name);
}

/*
 * "#define NAME VALUE" of a header into nums (name -> decimal string), VALUE evaluated as cpp would with the
 * names defined before it: UNIX98_PTY_SLAVE_MAJOR is (UNIX98_PTY_MASTER_MAJOR+UNIX98_PTY_MAJOR_COUNT).
 */
static void read_numbers(struct kt_index *idx, const char *rel, struct kt_map *nums)
{
	char *path = kt_path(idx->srcdir, rel);
	char *text = kt_read_tree_file(path, NULL), *save = NULL;

	free(path);
	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char name[64];
		int off = 0;
		if (sscanf(l, "#define %63s %n", name, &off) != 1 || !off || strchr(name, '(') ||
		    kt_map_get(nums, name))
			continue;
		char *c = strstr(l + off, "/*");
		if (c)
			*c = '\0';
		bool ok = true;
		long v = kt_cpp_eval(l + off, num_lookup, nums, &ok);
		if (ok && *(l + off)) {
			char buf[24];
			snprintf(buf, sizeof(buf), "%ld", v);
			kt_map_put(nums, name, xstrdup(buf));
		}
	}
	free(text);
}

static const char *number(const struct kt_map *nums, const char *sym)
{
	return isdigit((unsigned char)sym[0]) ? sym : kt_map_get(nums, sym);
}

/* "chr TTYAUX_MAJOR:2" -> "chr 5:2", "misc KVM_MINOR" -> "chr 10:232"; an unknown or dynamic number -> "skip ...". */
static void device_numbers(struct kt_def *d, const struct kt_map *nums)
{
	bool misc = !strncmp(d->name, "misc ", 5);
	char *sym = xstrdup(d->name + (misc ? 5 : 4)), *minor = strchr(sym, ':'), *key;
	const char *maj = misc ? number(nums, "MISC_MAJOR") : number(nums, sym);
	/* MISC_DYNAMIC_MINOR is a request for any free minor, no minor of its own */
	const char *min = misc && strcmp(sym, "MISC_DYNAMIC_MINOR") ? number(nums, sym) : NULL;

	if (minor) {
		*minor++ = '\0';
		maj = number(nums, sym);
		min = number(nums, minor);
	}
	if (!maj || !strcmp(maj, "0") || ((misc || minor) && !min))
		key = xasprintf("skip %s", d->name);
	else if (min)
		key = xasprintf("chr %s:%s", maj, min);
	else
		key = xasprintf("%.3s %s", d->name, maj);
	free(d->name);
	d->name = key;
	free(sym);
}

static const struct kt_def *find_def(const struct kt_scan *sc, const char *prefix, const char *name, size_t *from)
{
	size_t pn = strlen(prefix);

	for (size_t i = from ? *from : 0; i < sc->ndefs; i++) {
		const struct kt_def *d = &sc->defs[i];
		if (!strncmp(d->name, prefix, pn) && !strcmp(d->name + pn, name)) {
			if (from)
				*from = i + 1;
			return d;
		}
	}
	return NULL;
}

/*
 * A bpf program or map type: the file that defines its ops, under the #ifdefs of include/linux/bpf_types.h. A
 * protocol of a family: the file that defines its struct proto, under the #ifdefs of its protocol switch.
 */
static void raw_target(struct kt_scan *sc, size_t i)
{
	bool bpf = !strncmp(sc->defs[i].name, "raw bpf_", 8);
	char *key = xstrdup(sc->defs[i].name + 4), *ops = xstrdup(sc->defs[i].calls_ksys);
	const struct kt_def *def = find_def(sc, "def ", ops, NULL);
	size_t di = def ? (size_t)(def - sc->defs) : 0;
	/* without a definition: the bpf table's user (kernel/bpf/syscall.c #includes it), or the protocol switch */
	char *file = xstrdup(def ? def->file : bpf ? "kernel/bpf/syscall.c" : sc->defs[i].file);
	int line = def ? def->line : bpf ? 1 : sc->defs[i].line;
	struct kt_def *d = kt_reach_push(sc, key, sc->defs[i].macro, file, line, ops);
	free(file);
	def = def ? &sc->defs[di] : NULL; /* kt_reach_push may have moved the array */
	for (size_t j = 0; j < sc->defs[i].conds.n; j++)
		kt_condv_push(&d->conds, &sc->defs[i].conds.v[j]);
	for (size_t j = 0; def && j < def->conds.n; j++)
		kt_condv_push(&d->conds, &def->conds.v[j]);
	free(key);
	free(ops);
}

/* The column-0 definition of func in the tree-relative file rel, scanned with its #if stack into t. */
static const struct kt_def *func_def(struct kt_index *idx, const char *rel, const char *func, struct kt_scan *t)
{
	char *path = kt_path(idx->srcdir, rel);
	size_t len;
	char *text = kt_read_tree_file(path, &len);

	free(path);
	t->want_func = func;
	if (text)
		kt_scan_text(t, rel, text, len);
	free(text);
	for (size_t i = 0; i < t->ndefs; i++)
		if (!strcmp(t->defs[i].macro, "FUNC") && !strcmp(t->defs[i].name, func))
			return &t->defs[i];
	return NULL;
}

/* "raw fsopts tmpfs" (shmem_parse_one): "fsopts tmpfs" at the parser's definition, under both #if stacks. */
static void fsopts_target(struct kt_index *idx, size_t i)
{
	struct kt_scan *sc = &idx->scan, t = {0};
	char *key = xstrdup(sc->defs[i].name + 4), *fn = xstrdup(sc->defs[i].calls_ksys),
	     *rel = xstrdup(sc->defs[i].file);
	const struct kt_def *def = func_def(idx, rel, fn, &t);

	if (def) {
		struct kt_def *d = kt_reach_push(sc, key, "parse_param", rel, def->line, fn);
		for (size_t j = 0; j < def->conds.n; j++)
			kt_condv_push(&d->conds, &def->conds.v[j]);
		for (size_t j = 0; j < sc->defs[i].conds.n; j++)
			kt_condv_push(&d->conds, &sc->defs[i].conds.v[j]);
	}
	kt_scan_release(&t);
	free(key);
	free(fn);
	free(rel);
}

/* compat_binfmt_elf.c: `#define elf_format compat_elf_format` then `#include "binfmt_elf.c"`. */
static void binfmt_aliases(struct kt_scan *sc, size_t n0)
{
	for (size_t a = 0; a < n0; a++) {
		if (strncmp(sc->defs[a].name, "alias ", 6))
			continue;
		for (size_t k = 0; k < sc->nincs; k++) {
			const struct kt_inc *inc = &sc->incs[k];
			if (strcmp(inc->by, sc->defs[a].file))
				continue;
			for (size_t r = 0; r < n0; r++) {
				const struct kt_def *reg = &sc->defs[r];
				if (strncmp(reg->name, "binfmt ", 7) || strcmp(reg->file, inc->file) ||
				    !reg->calls_ksys || strcmp(reg->calls_ksys, sc->defs[a].name + 6))
					continue;
				const char *to = sc->defs[a].calls_ksys;
				size_t tn = strlen(to);
				char *key = xasprintf("binfmt %.*s", (int)(tn > 7 ? tn - 7 : tn), to);
				struct kt_def *d = kt_reach_push(sc, key, sc->defs[r].macro, inc->by, inc->line, to);
				reg = &sc->defs[r];
				for (size_t j = 0; j < reg->conds.n; j++)
					kt_condv_push(&d->conds, &reg->conds.v[j]);
				for (size_t j = 0; j < sc->incs[k].conds.n; j++)
					kt_condv_push(&d->conds, &sc->incs[k].conds.v[j]);
				free(key);
			}
		}
	}
}

/* A row of the reviewed table: the function's definition in the file gives the line and its #if stack. */
static void table_row(struct kt_index *idx, int lineno, char **f)
{
	char *key = xasprintf("%s %s", f[0], f[1]), *how = xasprintf("data/reach-map.tsv:%d", lineno);
	const char *func = strcmp(f[3], "-") ? f[3] : NULL;
	struct kt_scan t = {0};
	const struct kt_def *fd = func ? func_def(idx, f[2], func, &t) : NULL;

	/* line 0: the whole file; with a function, kt_resolve_reach() says the file lacks it */
	struct kt_def *d = kt_reach_push(&idx->scan, key, how, f[2], fd ? fd->line : 0, func);
	for (size_t j = 0; fd && j < fd->conds.n; j++)
		kt_condv_push(&d->conds, &fd->conds.v[j]);
	kt_scan_release(&t);
	free(key);
	free(how);
}

static void table(struct kt_index *idx)
{
	char *text = xstrdup(kt_reach_table), *save = NULL;
	int lineno = 0;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *f[5] = {0}, *p = l;
		int n = 0;
		lineno++; /* strtok_r skips empty lines: the table has none */
		if (*l == '#')
			continue;
		while (n < 5 && p) {
			f[n++] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		/* a row of a file this tree does not have says nothing about it (a tree without virt/, another version)
		 */
		char *path = n == 5 ? kt_path(idx->srcdir, f[2]) : NULL;
		if (path && kt_is_file(path))
			table_row(idx, lineno, f);
		free(path);
	}
	free(text);
}

void kt_reach_prepare(struct kt_index *idx)
{
	struct kt_scan *sc = &idx->scan;
	struct kt_map nums = {0};
	size_t n0 = sc->ndefs;

	read_numbers(idx, "include/uapi/linux/major.h", &nums);
	read_numbers(idx, "include/linux/miscdevice.h", &nums);
	for (size_t i = 0; i < n0; i++) {
		struct kt_def *d = &sc->defs[i];
		if (kt_reach_def(d) &&
		    (!strncmp(d->name, "chr ", 4) || !strncmp(d->name, "blk ", 4) || !strncmp(d->name, "misc ", 5)))
			device_numbers(d, &nums);
	}
	kt_map_release(&nums, free);
	for (size_t i = 0; i < n0; i++)
		if (!strncmp(sc->defs[i].name, "raw bpf_", 8) || !strncmp(sc->defs[i].name, "raw proto ", 10))
			raw_target(sc, i);
		else if (!strncmp(sc->defs[i].name, "raw fsopts ", 11))
			fsopts_target(idx, i);
	binfmt_aliases(sc, n0);
	kt_reach_switches(sc, idx->srcdir);
	table(idx);
}
