// SPDX-License-Identifier: GPL-2.0
/* kfootprint report: render a saved footprint (schema kfootprint/1) again, in any format. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "footprint/footprint.h"
#include "report/report.h"
#include "util/atomic_file.h"
#include "util/error.h"

struct report_opts {
	const char *format; /* -F */
	const char *output; /* -o, default stdout */
	const char *input;
};

static const char usage_text[] =
    "usage: kfootprint report [-F FORMAT] [-o OUT] FILE.json\n"
    "\n"
    "Renders a footprint saved by 'kfootprint record -o FILE.json' (schema kfootprint/1) to standard output;\n"
    "FILE.json '-' reads standard input.\n"
    "\n"
    "  -F, --format FORMAT    %s (default text)\n"
    "  -o, --output OUT       write to OUT instead of standard output, atomically ('-': stdout)\n"
    "  -h, --help             this help\n"
    "\n"
    "formats:\n"
    "%s"
    "\n"
    "examples:\n"
    "  kfootprint report ls.json                     tables per subsystem and the process tree\n"
    "  kfootprint report -F strace ls.json           the layout of strace -c, to diff with it\n"
    "  kfootprint report -F rst -o ls.rst ls.json    grid tables for kernel documentation\n"
    "  kfootprint report -F csv ls.json | sort -t, -k4 -n\n"
    "  kfootprint -F json -- ls 2>&1 >/dev/null | kfootprint report -F tree -\n";

static void report_usage(FILE *out)
{
	static const char *const names[] = {"text", "strace", "rst", "tree", "json", "csv"};
	char formats[1024];
	size_t len = 0;

	formats[0] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct renderer *r = renderer_find(names[i]);

		if (r && len < sizeof(formats))
			len += (size_t)snprintf(formats + len, sizeof(formats) - len, "  %-8s %s\n", r->name, r->help);
	}
	fprintf(out, usage_text, renderer_names(), formats);
}

static const struct option long_opts[] = {
    {"format", required_argument, NULL, 'F'},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* 0, 1 for --help, -1 after a message. */
static int parse_opts(int argc, char **argv, struct report_opts *o)
{
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "F:o:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'F': o->format = optarg; break;
		case 'o': o->output = optarg; break;
		case 'h': return 1;
		default: return error("see 'kfootprint report --help'");
		}
	}
	if (!renderer_find(o->format))
		return error("unknown format '%s': expected one of %s", o->format, renderer_names());
	if (optind == argc)
		return error("no footprint to report: see 'kfootprint report --help'");
	if (argc - optind > 1)
		return error("one footprint at a time, got %d files", argc - optind);
	o->input = argv[optind];
	return 0;
}

struct render_job {
	const struct renderer *r;
	const struct footprint *fp;
};

static int render_job(FILE *out, const void *ctx)
{
	const struct render_job *job = ctx;

	return job->r->render(job->fp, out);
}

static int render_to(const struct renderer *r, const struct footprint *fp, struct atomic_file *af)
{
	struct render_job job = {r, fp};

	if (!af->path)
		return atomic_file_write(NULL, 0, stdout, render_job, &job);
	return atomic_file_finish(af, render_job, &job);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = {.format = "text"};
	struct atomic_file out = {0};
	struct footprint *fp;
	int rc = parse_opts(argc, argv, &o);

	if (rc) {
		if (rc > 0)
			report_usage(stdout);
		return rc > 0 ? 0 : 2;
	}
	/* -o is checked before a large footprint is read; what is rendered from it is no more readable than it */
	if (o.output && atomic_file_open(&out, o.output, atomic_file_flags_like(o.input)) < 0)
		return 1;
	fp = fp__load(o.input);
	if (!fp) {
		atomic_file_abort(&out);
		return 1;
	}
	rc = render_to(renderer_find(o.format), fp, &out) < 0 ? 1 : 0;
	fp__free(fp);
	return rc;
}
