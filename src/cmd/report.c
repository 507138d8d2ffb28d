// SPDX-License-Identifier: GPL-2.0
/* kfootprint report: render a saved footprint (schema kfootprint/1) again, in any format. */
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "footprint/filter.h"
#include "footprint/footprint.h"
#include "kmap/annotate.h"
#include "report/report.h"
#include "util/atomic_file.h"
#include "util/error.h"

struct report_opts {
	const char *format; /* -F */
	const char *output; /* -o, default stdout */
	const char *input;
	struct fp_filter filter; /* -e trace=, -e status= */

	/* -S, -P, --by-class */
	struct text_opts text;
};

static int opt_expr(const char *value, void *opts)
{
	return fp_filter_parse(&((struct report_opts *)opts)->filter, value);
}

static const struct kf_option options[] = {
    OPT_CHOICE('F', "format", struct report_opts, format, "FORMAT", renderer_names, "%s (default text)"),
    OPT_STRING('o', "output", struct report_opts, output, "OUT",
	       "write to OUT instead of standard output, atomically ('-': stdout)"),
    OPT_CHOICE('S', "sort", struct report_opts, text.sort, "KEY", text_sort_names,
	       "sort the text report's syscall tables by %s (default time, as strace -c; calls without times)"),
    OPT_BOOL('P', "per-process", struct report_opts, text.per_process,
	     "text: a syscall table per process (shown without -P when there are 2 to 4 processes)"),
    OPT_BOOL(0, "by-class", struct report_opts, text.by_class,
	     "text: one table per subsystem class instead of the one syscall table"),
    OPT_CALLBACK('e', "expr", "EXPR", opt_expr,
		 "trace=SET (names, %file, %network, %process, %signal, %memory, %ipc, %desc, %creds, %clock; "
		 "!SET: all but) or status=failed|successful: show only those calls, as strace -e does"),
    OPT_HELP(),
    OPT_END(),
};

/* 0, 1 for --help, -1 after a message. */
static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	int i = kf_command_parse(&kf_cmd_report, 0, argc, argv, o);

	if (i < 0)
		return i == KF_PARSE_HELP ? 1 : -1;
	if (renderer_check(o->format) < 0)
		return -1;
	if (text_opts_check(&o->text, o->format) < 0)
		return -1;
	if (i == argc)
		return error("no footprint to report: see 'kfootprint report --help'");
	if (argc - i > 1)
		return error("one footprint at a time, got %d files", argc - i);
	o->input = argv[i];
	return 0;
}

struct render_job {
	const struct renderer *r;
	const struct footprint *fp;
	const struct text_opts *text;
};

static int render_job(FILE *out, const void *ctx)
{
	const struct render_job *job = ctx;

	return renderer_render(job->r, job->fp, job->text, out);
}

static int render_to(const struct renderer *r, const struct footprint *fp, const struct text_opts *text,
		     struct atomic_file *af)
{
	struct render_job job = {r, fp, text};

	if (!af->path)
		return atomic_file_write(NULL, 0, stdout, render_job, &job);
	return atomic_file_finish(af, render_job, &job);
}

static int cmd_report(int argc, char **argv)
{
	struct report_opts o = {.format = "text"};
	struct atomic_file out = {0};
	struct footprint *fp;
	int rc = parse_opts(argc, argv, &o);

	if (rc) {
		if (rc > 0)
			kf_command_help(&kf_cmd_report, stdout);
		fp_filter_release(&o.filter);
		return rc > 0 ? 0 : 1;
	}
	/* -o is checked before a large footprint is read; what is rendered from it is no more readable than it */
	if (atomic_file_distinct(&o.input, 1, &o.output, 1) < 0 ||
	    (o.output && atomic_file_open(&out, o.output, atomic_file_flags_like(o.input)) < 0)) {
		fp_filter_release(&o.filter);
		return 1;
	}
	fp = fp__load(o.input);
	if (!fp) {
		atomic_file_abort(&out);
		fp_filter_release(&o.filter);
		return 1;
	}
	annotate_classes(fp);
	fp_filter_apply(&o.filter, fp);
	struct kmap_view view;
	const struct renderer *r = renderer_find(o.format);
	annotate_view(fp, &view, r->closure); /* before rendering: the renderers resolve nothing */
	o.text.view = &view;
	rc = render_to(r, fp, &o.text, &out) < 0 ? 1 : 0;
	kmap_view_release(&view);
	fp__free(fp);
	fp_filter_release(&o.filter);
	return rc;
}

const struct kf_command kf_cmd_report = {
    .name = "report",
    .fn = cmd_report,
    .summary = "render a saved footprint (FILE.json) again",
    .synopsis = "kfootprint report [-F FORMAT] [-S KEY] [-P] [--by-class] [-o OUT] [-e EXPR] FILE.json",
    .description =
	"Renders a footprint saved by 'kfootprint record -o FILE.json' (schema kfootprint/1) to standard output;\n"
	"FILE.json '-' reads standard input.",
    .options = options,
    .opts_size = sizeof(struct report_opts),
    .more_help = renderer_help,
    .examples = "  kfootprint report ls.json                     summary, syscall table, process tree\n"
		"  kfootprint report -S errors -P ls.json        the failing calls first, a table per process\n"
		"  kfootprint report -F strace ls.json           the layout of strace -c, to diff with it\n"
		"  kfootprint report -F rst -o ls.rst ls.json    grid tables for kernel documentation\n"
		"  kfootprint report -F csv ls.json | sort -t, -k4 -n\n"
		"  kfootprint -F json -- ls 2>&1 >/dev/null | kfootprint report -F tree -\n",
};
