// SPDX-License-Identifier: GPL-2.0
/*
 * kfootprint map: syscalls (of a footprint, named, or a whole table) -> kernel source, Makefile objects,
 * Kconfig options, MAINTAINERS sections, and what the running kernel has.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "footprint/footprint.h"
#include "kmap/annotate.h"
#include "kmap/kmap.h"
#include "ktree/ktree.h"
#include "kmap/mapdb.h"
#include "kernel/running.h"
#include "report/map_report.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/input.h"
#include "util/sniff.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct map_opts {
	const char *kernel_src;	   /* --kernel-src: a tree instead of the built-in database */
	const char *kernel_config; /* --kernel-config: the .config the tree's chains are evaluated with */
	const char *format;	   /* -F */
	const char *output;	   /* -o */
	const char *syscalls;	   /* --syscalls LIST */
	bool all;		   /* --all-syscalls */
	const char *abi;	   /* --abi */
	bool abi_given;
	const char *save_db;  /* --save-db FILE */
	const char *db;	      /* --db FILE: a database saved by --save-db */
	bool no_running;      /* --no-running */
	bool no_cache;	      /* --no-cache */
	const char *vmlinux;  /* --vmlinux: a debug vmlinux resolving kernel functions by DWARF */
	const char *kallsyms; /* --kallsyms: the symbol order resolving them otherwise */
	const char *file;     /* FILE.json */
};

/* "x86_64 or i386 (with --kernel-src also x32, aarch64)": which ABIs map with and without a tree. */
static const char *abi_choices(void)
{
	static char buf[512];
	size_t len = 0, nother = 0;

	if (*buf)
		return buf;
	for (size_t i = 0; i < mapdb_nbuiltins; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					!i			   ? ""
					: i + 1 == mapdb_nbuiltins ? " or "
								   : ", ",
					kf_abi_name(mapdb_builtins[i].abi));
	for (int a = 0; a < KF_ABI_NR && len < sizeof(buf); a++)
		if (!mapdb_has_builtin((enum kf_abi)a))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
						nother++ ? ", " : " (with --kernel-src also ", kf_abi_name(a));
	if (nother && len < sizeof(buf))
		snprintf(buf + len, sizeof(buf) - len, ")");
	return buf;
}

/* The kinds' options of map (kmap/annotate.h struct kind_annotator), each in its own struct. */
static const struct kf_option *kind_options(size_t i, void **values)
{
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		if ((*k)->annotator && (*k)->annotator->map_options && !i--) {
			*values = (*k)->annotator->map_values;
			return (*k)->annotator->map_options;
		}
	return NULL;
}

/* Whether a kind is asked to save its database (an output of map beside --save-db). */
static bool kinds_save(void)
{
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		if ((*k)->annotator && (*k)->annotator->save_path && (*k)->annotator->save_path())
			return true;
	return false;
}

#define M struct map_opts
static const struct kf_option options[] = {
    OPT_CHOICE('F', "format", M, format, "FORMAT", map_renderer_names, "%s (default text)"),
    OPT_STRING('o', "output", M, output, "OUT", "write to OUT instead of standard output, atomically"),
    OPT_STRING(0, "syscalls", M, syscalls, "LIST", "map these syscalls (comma-separated table names)"),
    OPT_BOOL(0, "all-syscalls", M, all, "map every row of the ABI's table"),
    OPT_CHOICE(0, "abi", M, abi, "ABI", abi_choices,
	       "%s; by default the host's, or for a footprint without calls of it, the one it used"),
    OPT_STRING(0, "kernel-src", M, kernel_src, "DIR",
	       "index this kernel source tree instead (cached in ~/.cache/kfootprint)"),
    OPT_STRING(0, "kernel-config", M, kernel_config, "FILE",
	       "evaluate the tree's conditions with this .config (default: the tree's Kconfig defaults, every option "
	       "with a prompt on)"),
    OPT_BOOL(0, "no-running", M, no_running, "do not read the running kernel (/proc/config.gz, /proc/kallsyms)"),
    OPT_BOOL(0, "no-cache", M, no_cache, "--kernel-src: neither read nor write the index cache"),
    OPT_STRING(0, "save-db", M, save_db, "FILE",
	       "--kernel-src: save the index as a map database (how data/mapdb-*.json are made)"),
    OPT_STRING(0, "db", M, db, "FILE", "use a map database saved by --save-db instead of the built-in one"),
    OPT_STRING(0, "vmlinux", M, vmlinux, "FILE",
	       "kernel functions: resolve names defined in several files by this debug vmlinux's DWARF"),
    OPT_STRING(0, "kallsyms", M, kallsyms, "FILE",
	       "kernel functions: resolve them by this kallsyms or System.map's symbol order (default /proc/kallsyms)"),
    OPT_GROUP(kind_options),
    OPT_VERBOSE("diagnostics"),
    OPT_HELP(),
    OPT_END(),
};
#undef M

/* Returns 0, 1 for --help, or -1 after an error message. */
static int parse_map_opts(int argc, char **argv, struct map_opts *o, enum kf_abi *abi)
{
	int inputs, i = kf_command_parse(&kf_cmd_map, 0, argc, argv, o);

	if (i < 0)
		return i == KF_PARSE_HELP ? 1 : -1;
	if (i < argc)
		o->file = argv[i++];
	if (i < argc)
		return error("one footprint at a time: unexpected '%s'", argv[i]);
	inputs = !!o->file + !!o->syscalls + o->all;
	if (inputs == 0 && !o->save_db && !kinds_save())
		return error(
		    "nothing to map: give FILE.json, --syscalls or --all-syscalls (see 'kfootprint map --help')");
	if (inputs > 1)
		return error("give one of FILE.json, --syscalls and --all-syscalls");
	if (map_renderer_check(NULL, o->format) < 0)
		return -1;
	if (!o->abi)
		o->abi = kf_abi_name(kf_abi_host());
	else
		o->abi_given = true;
	if (kf_abi_parse(o->abi, abi))
		return error("unknown ABI '%s': expected %s", o->abi, abi_choices());
	if (o->db && o->kernel_src)
		return error("give --db or --kernel-src, not both");
	if (!o->kernel_src && !o->db && !mapdb_has_builtin(*abi))
		return error("no built-in database for ABI '%s' (there are %s): use --kernel-src", o->abi,
			     mapdb_builtin_names());
	if (o->save_db && !o->kernel_src)
		return error("--save-db needs --kernel-src");
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		if ((*k)->annotator && (*k)->annotator->check && (*k)->annotator->check(o->kernel_src) < 0)
			return -1;
	if (o->kernel_config && !o->kernel_src)
		return error("--kernel-config needs --kernel-src");
	return 0;
}

/*
 * Without --abi, a footprint with no call of the host's ABI is mapped as the first other ABI with a built-in
 * database that it used: a 32-bit program's is mapped as i386.
 */
static enum kf_abi footprint_abi(const struct footprint *fp, const struct map_opts *o, enum kf_abi abi)
{
	bool used[KF_ABI_NR] = {false};

	if (o->abi_given)
		return abi;
	for (uint32_t i = 0; i < fp->syscalls.cap; i++)
		if (fp->syscalls.slots[i])
			used[fp->syscalls.slots[i]->abi] = true;
	if (used[abi])
		return abi;
	for (size_t i = 0; i < mapdb_nbuiltins; i++)
		if (used[mapdb_builtins[i].abi])
			return mapdb_builtins[i].abi;
	return abi;
}

/* The tree the chains come from: an index of --kernel-src, or the built-in database. */
static struct mapdb *open_db(const struct map_opts *o, enum kf_abi abi)
{
	struct kt_config *cfg = NULL;
	struct kt_index *idx;
	char *err = NULL, *desc;
	struct mapdb *db;

	if (o->db) {
		struct strbuf sb = STRBUF_INIT;
		const char *what;
		char *why;

		if (kf_input_read_all(o->db, KF_MAPDB_MAX, &sb, &why) < 0) {
			error("--db '%s': %s", o->db, why);
			free(why);
			strbuf_release(&sb);
			return NULL;
		}
		db = mapdb_parse(sb.buf, o->db, &err);
		/* a footprint, a map, a page given as the database: said as what it looks like */
		what = db ? NULL : kf_sniff(sb.buf, sb.len < KF_SNIFF_LEN ? sb.len : KF_SNIFF_LEN);
		strbuf_release(&sb);
		if (what && what != kf_sniff_mapdb) {
			error("--db '%s': %s, not a map database (kfootprint map --save-db)", o->db, what);
			free(err);
			return NULL;
		}
		if (db && db->abi != abi) {
			error("--db '%s': a database for %s, not %s (see --abi)", o->db, kf_abi_name(db->abi),
			      kf_abi_name(abi));
			mapdb_free(db);
			return NULL;
		}
		if (!db) {
			error("--db '%s': %s", o->db, err);
			free(err);
		}
		return db;
	}
	if (!o->kernel_src) {
		db = mapdb_builtin(abi, &err);
		if (!db) {
			error("%s", err);
			free(err);
		}
		return db;
	}
	if (o->kernel_config) {
		cfg = kt_config_load_gz(o->kernel_config, &err);
		if (!cfg) {
			error("--kernel-config '%s': %s", o->kernel_config, err ? err : "cannot read");
			free(err);
			return NULL;
		}
	}
	idx = kt_index_build(o->kernel_src, abi, cfg, o->no_cache ? KT_BUILD_NO_CACHE : 0, &err);
	kt_config_free(cfg);
	if (!idx) {
		error("--kernel-src '%s': %s", o->kernel_src, err ? err : "cannot index");
		free(err);
		return NULL;
	}
	debug("map: index of '%s' %s", o->kernel_src, kt_index_from_cache(idx) ? "from the cache" : "built");
	desc = o->kernel_config ? xasprintf("%s", o->kernel_config)
				: xstrdup("the tree's Kconfig defaults, every option with a prompt on");
	db = mapdb_from_index(idx, desc);
	free(desc);
	return db;
}

static bool input_has(const struct kmap_input *in, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(in[i].name, name))
			return true;
	return false;
}

/*
 * A name the ABI knows: the tree's table or kfootprint's own (which has the rows newer than the tree). Not
 * kallsyms: it has __x64_sys_waitpid, a generic definition x86_64 never dispatches to.
 */
static int named_inputs(const char *list, const struct mapdb *db, enum kf_abi abi, struct kmap_input **in, size_t *n,
			char ***names)
{
	char *copy = xstrdup(list), *save = NULL;
	size_t cap = 0;

	*n = 0;
	for (char *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		const struct kf_syscall *t;

		while (isspace((unsigned char)*s))
			s++;
		for (size_t e = strlen(s); e && isspace((unsigned char)s[e - 1]); e--)
			s[e - 1] = '\0';
		if (!*s)
			continue;
		if (s[strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_")]) {
			error("invalid syscall name '%s' in --syscalls", s);
			goto fail;
		}
		t = kf_syscall_by_name(abi, s);
		if (!t && !mapdb_syscall(db, s)) {
			error("unknown syscall '%s' for %s", s, kf_abi_name(abi));
			goto fail;
		}
		if (!input_has(*in, *n, s)) {
			XGROW(*in, cap, *n + 1);
			(*in)[(*n)++] = (struct kmap_input){.name = s, .abi = abi, .nr = t ? t->nr : -1};
		}
	}
	if (!*n) {
		error("--syscalls: no name given");
		goto fail;
	}
	*names = xcalloc(2, sizeof(char *));
	(*names)[0] = copy; /* the inputs point into it */
	return 0;
fail:
	free(copy);
	return -1;
}

static struct kmap_input *table_inputs(const struct mapdb *db, enum kf_abi abi, size_t *n)
{
	struct kmap_input *in = xcalloc(db->nsys + 1, sizeof(*in));

	for (size_t i = 0; i < db->nsys; i++) {
		const struct kf_syscall *t = kf_syscall_by_name(abi, db->sys[i]->name);

		in[i] = (struct kmap_input){.name = db->sys[i]->name, .abi = abi, .nr = t ? t->nr : -1};
	}
	*n = db->nsys;
	return in;
}

static char *footprint_subject(const char *path, const struct footprint *fp)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "footprint '%s'", path);
	if (fp->argv && fp->argv[0]) {
		strbuf_addstr(&sb, " (");
		for (size_t i = 0; fp->argv[i] && sb.len < 200; i++)
			strbuf_addf(&sb, "%s%s", i ? " " : "", fp->argv[i]);
		strbuf_addch(&sb, ')');
	} else if (fp->nattached) {
		strbuf_addf(&sb, " (pid %d%s)", (int)fp->attached_pids[0], fp->nattached > 1 ? ", ..." : "");
	}
	if (fp->label)
		strbuf_addf(&sb, " [%s]", fp->label);
	return strbuf_detach(&sb);
}

struct map_job {
	const struct map_renderer *r;
	const struct fp_kernel_map *m;
};

static int render_map(FILE *out, const void *ctx)
{
	const struct map_job *job = ctx;

	return job->r->render(job->m, out);
}

static int write_out(const struct map_opts *o, struct atomic_file *af, const struct fp_kernel_map *m)
{
	struct map_job job = {map_renderer_find(o->format), m};

	if (job.r->ready && job.r->ready(m) < 0)
		return -1;

	if (!o->output)
		return atomic_file_write(NULL, 0, stdout, render_map, &job);
	return atomic_file_finish(af, render_map, &job);
}

static int write_db(FILE *out, const void *db)
{
	return mapdb_save(db, out);
}

/* -o, --save-db and the kinds' databases, opened before a footprint is read or a tree indexed: a bad path costs no
 * work. */
static int open_outputs(const struct map_opts *o, struct atomic_file *out, struct atomic_file *db,
			struct atomic_file *kdb)
{
	unsigned flags = atomic_file_flags_like(o->file);
	const char *outs[2 + FP_KINDS_MAX] = {o->output, o->save_db};
	size_t nouts = 2;

	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		if ((*k)->annotator && (*k)->annotator->save_path)
			outs[nouts++] = (*k)->annotator->save_path();
	if (atomic_file_distinct((const char *[]){o->file, o->kernel_config, o->db, o->vmlinux, o->kallsyms}, 5, outs,
				 nouts) < 0)
		return -1;
	if (o->output && atomic_file_open(out, o->output, flags) < 0)
		return -1;
	if (o->save_db && atomic_file_open(db, o->save_db, 0) < 0) {
		atomic_file_abort(out);
		return -1;
	}
	for (size_t i = 0; fp_kinds[i]; i++) {
		const char *path = fp_kinds[i]->annotator && fp_kinds[i]->annotator->save_path
				       ? fp_kinds[i]->annotator->save_path()
				       : NULL;

		if (path && atomic_file_open(&kdb[i], path, 0) < 0) {
			atomic_file_abort(out);
			atomic_file_abort(db);
			while (i--)
				atomic_file_abort(&kdb[i]);
			return -1;
		}
	}
	return 0;
}

static int cmd_map(int argc, char **argv)
{
	struct map_opts o = {.format = "text"};
	struct atomic_file out = {0}, dbout = {0}, kdbout[FP_KINDS_MAX] = {{0}};
	struct annotate_ctx ctx = {0};
	struct kf_running run;
	struct footprint *fp = NULL;
	struct mapdb *db = NULL;
	const struct fp_kernel_map *m = NULL;
	struct fp_kernel_map *own = NULL;
	struct kmap_input *in = NULL;
	char **names = NULL, *subject = NULL;
	enum kf_abi abi = kf_abi_host();
	size_t nin = 0;
	int rc, ret = 1;

	memset(&run, 0, sizeof(run));
	rc = parse_map_opts(argc, argv, &o, &abi);
	if (rc > 0) {
		kf_command_help(&kf_cmd_map, stdout);
		return 0;
	}
	if (rc < 0 || open_outputs(&o, &out, &dbout, kdbout) < 0)
		return 1;
	/* Load the footprint first: a typo in its name should not wait for a tree to be indexed. */
	if (o.file) {
		fp = fp__load(o.file);
		if (!fp)
			goto out;
		abi = footprint_abi(fp, &o, abi);
	}
	db = open_db(&o, abi);
	if (!db)
		goto out;
	if (o.save_db && atomic_file_finish(&dbout, write_db, db))
		goto out;
	ctx = (struct annotate_ctx){.db = db,
				    .abi = abi,
				    .kernel_src = o.kernel_src,
				    .no_cache = o.no_cache,
				    .db_given = o.db != NULL,
				    .vmlinux = o.vmlinux,
				    .kallsyms = o.kallsyms,
				    .no_running = o.no_running,
				    .run = o.no_running ? NULL : &run,
				    .file = o.file,
				    .err_prefix = ""};
	for (size_t i = 0; fp_kinds[i]; i++) {
		const struct kind_annotator *a = fp_kinds[i]->annotator;

		if (a && a->save_path && a->save_path() &&
		    (a->make_db(&ctx, &ctx.kind_db[i]) < 0 ||
		     atomic_file_finish(&kdbout[i], a->write_db, ctx.kind_db[i])))
			goto out;
	}
	if ((o.save_db || kinds_save()) && !o.file && !o.syscalls && !o.all) {
		ret = 0;
		goto out;
	}
	if (!o.no_running)
		kf_running__load(&run, NULL, NULL);
	if (fp) {
		subject = footprint_subject(o.file, fp);
		m = annotate_kernel(fp, db, o.no_running ? NULL : &run, subject);
		if (annotate_kinds(fp, m, &ctx) < 0)
			goto out;
		if (fp->syscalls.count > m->nrows)
			warning("'%s': %zu syscalls of other ABIs are not mapped (see --abi)", o.file,
				fp->syscalls.count - m->nrows);
	} else {
		if (o.syscalls) {
			if (named_inputs(o.syscalls, db, abi, &in, &nin, &names))
				goto out;
			subject = nin == 1 ? xasprintf("syscall %s", in[0].name) : xasprintf("%zu named syscalls", nin);
		} else {
			in = table_inputs(db, abi, &nin);
			subject = xasprintf("the whole %s table", kf_abi_name(abi));
		}
		m = own = kmap_build(db, o.no_running ? NULL : &run, in, nin, subject);
	}
	if (m->mismatch)
		debug("map: %s", m->mismatch);
	ret = write_out(&o, &out, m) ? 1 : 0;
out:
	atomic_file_abort(&out);
	atomic_file_abort(&dbout);
	for (size_t i = 0; i < FP_KINDS_MAX; i++)
		atomic_file_abort(&kdbout[i]);
	kmap_free(own);
	free(in);
	free(subject);
	if (names) {
		free(names[0]);
		free(names);
	}
	fp__free(fp); /* before what its mapping borrows */
	annotate_ctx_release(&ctx);
	mapdb_free(db);
	kf_running__release(&run);
	return ret;
}

const struct kf_command kf_cmd_map = {
    .name = "map",
    .fn = cmd_map,
    .summary = "map syscalls to kernel source, Makefile objects, Kconfig options, maintainers",
    .synopsis = "kfootprint map [OPTIONS] FILE.json\n"
		"kfootprint map [OPTIONS] --syscalls NAME[,NAME...]\n"
		"kfootprint map [OPTIONS] --all-syscalls",
    .description =
	"For each syscall, where the kernel implements it (SYSCALL_DEFINE file:line), the Makefile object and every\n"
	"Kconfig option on the path to vmlinux, the MAINTAINERS section, and whether the running kernel has it\n"
	"(built-in, a COND_SYSCALL stub, or absent); then the options rolled up with their Kconfig entries.\n"
	"Without --kernel-src the built-in database (Linux 6.1, generated from Debian's linux-source-6.1) answers.",
    .options = options,
    .opts_size = sizeof(struct map_opts),
    .more_help = map_renderer_help,
    .examples = "  kfootprint -o ls.json -- ls /; kfootprint map ls.json\n"
		"  kfootprint map --syscalls eventfd2,futex,socket\n"
		"  kfootprint map -F kconfig -o ls.config ls.json\n"
		"  kfootprint map --kernel-src /usr/src/linux-source-6.1 --all-syscalls -F json\n",
};
