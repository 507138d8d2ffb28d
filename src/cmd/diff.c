// SPDX-License-Identifier: GPL-2.0
/*
 * kfootprint diff OLD.json NEW.json: what NEW needs that OLD did not. Exit status 0 (nothing new), 1 (NEW needs
 * something new), 2 (an error, usage errors included): diff(1)'s convention, so that CI can gate on it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "footprint/footprint.h"
#include "kmap/annotate.h"
#include "kmap/mapdb.h"
#include "report/diff.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/parse.h"

#define DIFF_EXIT_ERROR 2

struct diff_cmd_opts {
	const char *format;
	const char *output;
	struct diff_opts d;
	const char *old, *new;
};

static int parse_ratio(const char *opt, const char *value, double *out)
{
	char *end;
	double r;

	errno = 0;
	r = strtod(value, &end);
	if (end == value || *end || errno || !isfinite(r) || r < 1)
		return error("invalid %s '%s': expected a number >= 1", opt, value);
	*out = r;
	return 0;
}

static int opt_calls_ratio(const char *value, void *opts)
{
	return parse_ratio("--calls-ratio", value, &((struct diff_cmd_opts *)opts)->d.calls_ratio);
}

static int opt_fail_ratio(const char *value, void *opts)
{
	return parse_ratio("--fail-ratio", value, &((struct diff_cmd_opts *)opts)->d.fail_ratio);
}

static int opt_min_calls(const char *value, void *opts)
{
	unsigned long n;

	if (parse_ulong("--min-calls", value, 0, ~0UL, &n) < 0)
		return -1;
	((struct diff_cmd_opts *)opts)->d.min_calls = n;
	return 0;
}

static const struct kf_option options[] = {
    OPT_CHOICE('F', "format", struct diff_cmd_opts, format, "FORMAT", diff_format_names, "%s (default text)"),
    OPT_STRING('o', "output", struct diff_cmd_opts, output, "OUT",
	       "write to OUT instead of standard output, atomically ('-': stdout)"),
    OPT_CALLBACK(0, "calls-ratio", "R", opt_calls_ratio,
		 "list a count change when the larger count is at least R times the smaller (default 1.5)"),
    OPT_CALLBACK(0, "min-calls", "N", opt_min_calls, "a listed count change also differs by at least N (default 10)"),
    OPT_CALLBACK(0, "fail-ratio", "R", opt_fail_ratio,
		 "an increase of a syscall's calls or errors by R times (and by --min-calls) is a need too: exit 1"),
    OPT_BOOL('a', "all", struct diff_cmd_opts, d.all, "list every count change, whatever the thresholds"),
    OPT_VERBOSE("the same as --all"),
    OPT_HELP(),
    OPT_END(),
};

static void diff_help(FILE *out)
{
	diff_format_help(out);
	fputs("\nexit status:\n"
	      "  0  NEW needs nothing OLD did not\n"
	      "  1  NEW needs something new: a syscall (of an ABI), a kernel option; with --fail-ratio, more calls\n"
	      "  2  an error, usage errors included (diff(1)'s convention, unlike the other commands)\n",
	      out);
}

/* 0, 1 for --help, -1 after a message. */
static int parse_opts(int argc, char **argv, struct diff_cmd_opts *o)
{
	int i = kf_command_parse(&kf_cmd_diff, 0, argc, argv, o);

	if (i < 0)
		return i == KF_PARSE_HELP ? 1 : -1;
	if (diff_format_check(o->format) < 0)
		return -1;
	if (argc - i != 2)
		return error("two footprints to compare, got %d: see 'kfootprint diff --help'", argc - i);
	o->old = argv[i];
	o->new = argv[i + 1];
	if (!strcmp(o->old, "-") && !strcmp(o->new, "-"))
		return error("only one footprint can come from standard input");
	if (kf_verbose)
		o->d.all = true;
	return 0;
}

static struct footprint *load(const char *path)
{
	struct footprint *fp = fp__load(path);

	if (fp && !fp->syscalls.count) {
		error("'%s': empty footprint: no syscall recorded, nothing to compare", path);
		fp__free(fp);
		return NULL;
	}
	return fp;
}

static bool uses_abi(const struct footprint *fp, enum kf_abi abi)
{
	for (uint32_t i = 0; i < fp->syscalls.cap; i++)
		if (fp->syscalls.slots[i] && fp->syscalls.slots[i]->abi == abi)
			return true;
	return false;
}

/*
 * The annotate stage on both sides, with the built-in database of each ABI either side used, so that the
 * options compare whether the files were saved annotated or not, and against the same tree. The running
 * kernel is not consulted: a diff says what the workloads need, not what this machine has.
 */
static int annotate_both(struct footprint *old, struct footprint *new, struct mapdb **dbs)
{
	for (size_t a = 0; a < mapdb_nbuiltins; a++) {
		enum kf_abi abi = mapdb_builtins[a].abi;
		char *err = NULL;

		if (!uses_abi(old, abi) && !uses_abi(new, abi))
			continue;
		dbs[a] = mapdb_builtin(abi, &err);
		if (!dbs[a]) {
			error("built-in %s map database: %s", kf_abi_name(abi), err);
			free(err);
			return -1;
		}
		annotate_kernel(old, dbs[a], NULL, "OLD");
		annotate_kernel(new, dbs[a], NULL, "NEW");
	}
	annotate_classes(old);
	annotate_classes(new);
	return 0;
}

static int cmd_diff(int argc, char **argv)
{
	struct diff_cmd_opts o = {.format = "text", .d = {.calls_ratio = 1.5, .min_calls = 10}};
	struct footprint *old = NULL, *new = NULL;
	struct mapdb **dbs = calloc(mapdb_nbuiltins + 1, sizeof(*dbs));
	struct atomic_file af = {0};
	struct diff *d = NULL;
	int rc = parse_opts(argc, argv, &o), status = DIFF_EXIT_ERROR;

	if (rc || !dbs) {
		if (rc > 0)
			kf_command_help(&kf_cmd_diff, stdout);
		free(dbs);
		return rc > 0 ? 0 : DIFF_EXIT_ERROR;
	}
	/* the output first: a path that cannot be written costs no work */
	if (atomic_file_distinct((const char *[]){o.old, o.new}, 2, &o.output, 1) < 0)
		goto out;
	if (o.output &&
	    atomic_file_open(&af, o.output, atomic_file_flags_like(o.old) | atomic_file_flags_like(o.new)) < 0)
		goto out;
	old = load(o.old);
	new = old ? load(o.new) : NULL;
	if (!new || annotate_both(old, new, dbs) < 0)
		goto out;
	d = diff_build(old, o.old, new, o.new, &o.d);
	if (diff_format_find(o.format)->render(d, o.output ? af.f : stdout) < 0) {
		perror_msg("writing %s", o.output ? o.output : "standard output");
		goto out;
	}
	if (o.output && atomic_file_commit(&af) < 0) {
		o.output = NULL; /* committed or aborted: nothing left to throw away */
		goto out;
	}
	o.output = NULL;
	status = d->nneeds ? 1 : 0;
out:
	if (o.output)
		atomic_file_abort(&af);
	diff_free(d);
	fp__free(old); /* before the databases their mappings borrow */
	fp__free(new);
	for (size_t a = 0; a < mapdb_nbuiltins; a++)
		if (dbs[a])
			mapdb_free(dbs[a]);
	free(dbs);
	return status;
}

const struct kf_command kf_cmd_diff = {
    .name = "diff",
    .fn = cmd_diff,
    .summary = "what NEW.json needs that OLD.json did not (exit 1 when anything)",
    .synopsis = "kfootprint diff [-F FORMAT] [-o OUT] [--calls-ratio R] [--min-calls N] [--fail-ratio R] OLD.json "
		"NEW.json",
    .description =
	"Compares two saved footprints item kind by item kind: syscalls (with their ABI), errnos per syscall,\n"
	"the kernel options the syscalls need (both sides mapped with the built-in database, saved annotated or\n"
	"not), and processes by executable. Lists what was added, what was removed, and count changes beyond the\n"
	"thresholds. A new syscall or a new kernel option is a need: exit status 1. One of the files may be '-'.",
    .options = options,
    .opts_size = sizeof(struct diff_cmd_opts),
    .more_help = diff_help,
    .examples = "  kfootprint diff old.json new.json             text; exit 1 when NEW needs more\n"
		"  kfootprint diff -F markdown -o pr.md a.json b.json\n"
		"  kfootprint diff --fail-ratio 2 --min-calls 100 base.json head.json\n"
		"  kfootprint diff -F json a.json b.json | python3 -m json.tool\n",
};
