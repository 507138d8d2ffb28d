// SPDX-License-Identifier: GPL-2.0
/* kfootprint merge: footprints of several scenarios or hosts as one (footprint/merge.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "footprint/footprint.h"
#include "footprint/footprint_json.h"
#include "footprint/merge.h"
#include "util/atomic_file.h"
#include "util/error.h"

struct merge_opts {
	const char *output; /* -o, default stdout */
	const char *label;  /* --label */
};

static const struct kf_option options[] = {
    OPT_STRING('o', "output", struct merge_opts, output, "OUT",
	       "write the merged footprint to OUT instead of standard output, atomically ('-': stdout)"),
    OPT_STRING(0, "label", struct merge_opts, label, "NAME",
	       "a label for the merged footprint (each source keeps its own)"),
    OPT_HELP(),
    OPT_END(),
};

/* The inputs are read to the end before the output is renamed over its file, but one cannot be the other. */
static int check_inputs(const struct merge_opts *o, int n, char **inputs)
{
	int stdin_seen = 0;

	for (int i = 0; i < n; i++) {
		if (!strcmp(inputs[i], "-") && stdin_seen++)
			return error("standard input given twice");
		if (!*inputs[i])
			return error("an empty file name");
	}
	return atomic_file_distinct((const char *const *)inputs, (size_t)n, &o->output, 1);
}

static int write_json(FILE *out, const void *fp)
{
	return fp__write_json(fp, out);
}

/* The reader's bound on a footprint's counts added up, and on its times in ns */
#define COUNT_MAX ((uint64_t)INT64_MAX)

/* What every input's counts and times add up to: the reader's bound on one footprint holds for their sum. */
struct merge_totals {
	uint64_t counts, times;
};

/* Loads, checks and folds in one input; 0 or -1 after a message. */
static int add_input(struct footprint *m, const char *path, struct merge_totals *t)
{
	struct footprint *fp = fp__load(path);
	uint32_t added;

	if (!fp)
		return -1;
	if (fp->counts_total > COUNT_MAX - t->counts || fp->times_total > COUNT_MAX - t->times) {
		fp__free(fp);
		return error("'%s': the inputs' %s add up past 2^63-1: refused, the merged footprint could not be read",
			     strcmp(path, "-") ? path : "standard input",
			     fp->counts_total > COUNT_MAX - t->counts ? "counts" : "times");
	}
	t->counts += fp->counts_total;
	t->times += fp->times_total;
	if (!fp->syscalls.count && !fp->nprocs) {
		fp__free(fp);
		return error("'%s': an empty footprint (no syscalls, no processes): nothing to merge",
			     strcmp(path, "-") ? path : "standard input");
	}
	added = fp_merge_add(m, fp);
	debug("'%s': %u source%s added", path, added, added == 1 ? "" : "s");
	fp__free(fp);
	return 0;
}

/*
 * The merged footprint repeats each input's counts in its per-source shares: past a quarter of the bound it is
 * read back, as report would, before it is written (the exact check, which normal sizes never need).
 */
static int check_readable(const struct footprint *m, const struct merge_totals *t)
{
	struct footprint *back;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int bad;

	if (t->counts <= COUNT_MAX / 4 && t->times <= COUNT_MAX / 4)
		return 0;
	f = open_memstream(&buf, &len);
	if (!f)
		return perror_msg("merge");
	bad = fp__write_json(m, f) < 0;
	if (fclose(f) || bad) {
		free(buf);
		return perror_msg("merge");
	}
	back = fp__load_mem(buf, len, "the merged footprint");
	free(buf);
	fp__free(back);
	return back ? 0 : -1;
}

static int cmd_merge(int argc, char **argv)
{
	struct merge_opts o = {0};
	struct atomic_file af;
	struct footprint *m;
	struct merge_totals totals = {0};
	unsigned flags = 0;
	int i = kf_command_parse(&kf_cmd_merge, 0, argc, argv, &o), rc = 0;

	if (i == KF_PARSE_HELP) {
		kf_command_help(&kf_cmd_merge, stdout);
		return 0;
	}
	if (i < 0)
		return 1;
	if (i == argc)
		return error("no footprint to merge: see 'kfootprint merge --help'"), 1;
	if (check_inputs(&o, argc - i, argv + i) < 0)
		return 1;
	/*
	 * The output is opened first: a path that cannot be written costs no work. It shows the command lines of
	 * every input, so it is no more readable than the least readable of them.
	 */
	for (int k = i; k < argc; k++)
		flags |= atomic_file_flags_like(argv[k]);
	if (atomic_file_open(&af, o.output ? o.output : "-", flags) < 0)
		return 1;
	m = fp_merge_new();
	for (; i < argc && !rc; i++)
		rc = add_input(m, argv[i], &totals);
	if (!rc) {
		fp_merge_finish(m, o.label);
		rc = check_readable(m, &totals);
	}
	if (rc)
		atomic_file_abort(&af);
	else
		rc = atomic_file_finish(&af, write_json, m);
	fp__free(m);
	return rc < 0 ? 1 : 0;
}

const struct kf_command kf_cmd_merge = {
    .name = "merge",
    .fn = cmd_merge,
    .summary = "combine footprints of several scenarios or hosts into one",
    .synopsis = "kfootprint merge [-o OUT] [--label NAME] FILE.json...",
    .description =
	"Merges footprints (schema kfootprint/1, merged ones too) into one: the union of their syscalls with counts,\n"
	"errors and time summed and kept per source, and the processes of each source. Each footprint is a source,\n"
	"named by the SHA-256 of its JSON: merging one twice keeps it once, merging a merged footprint adds its\n"
	"sources. The result depends only on the set of sources, not on their order or grouping. It is incomplete\n"
	"when a source is, with the reasons listed. FILE.json '-' reads standard input.",
    .options = options,
    .opts_size = sizeof(struct merge_opts),
    .examples = "  kfootprint merge -o all.json startup.json steady.json errors.json\n"
		"  kfootprint merge -o fleet.json --label fleet hosts/*.json\n"
		"  kfootprint report -F tree all.json              one process tree per source\n",
};
