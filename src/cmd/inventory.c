// SPDX-License-Identifier: GPL-2.0
/*
 * kfootprint inventory: what a kernel compiles held against what footprints observed, with the review candidates
 * (src/inventory/ does the work, src/report/inventory_*.c the formats).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "inventory/inventory.h"
#include "inventory/inv_lines.h"
#include "report/inventory_lines.h"
#include "report/inventory_report.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/parse.h"

struct inventory_opts {
	const char *kernel_src, *config, *build_dir, *vmlinux, *kallsyms, *source_root;
	bool running, no_cache, lines;
	const char *format, *output, *top;
};

#define O struct inventory_opts
static const struct kf_option options[] = {
    OPT_STRING(
	0, "kernel-src", O, kernel_src, "DIR",
	"the kernel source tree: its Kbuild is evaluated with --config (and gives SLOC and options to the others)"),
    OPT_STRING(0, "config", O, config, "FILE",
	       "the .config (plain, gzip'd or xz'd) the tree is built with (default DIR/.config; with --running "
	       "/proc/config.gz)"),
    OPT_STRING(0, "build-dir", O, build_dir, "DIR", "a built tree: the exact list from its .o.cmd files"),
    OPT_STRING(0, "vmlinux", O, vmlinux, "FILE",
	       "a debug vmlinux: its DWARF units (what was linked) and functions with line ranges"),
    OPT_BOOL(0, "running", O, running,
	     "the running kernel: its functions (kallsyms) mapped to files through the tree (--kernel-src, with "
	     "/proc/config.gz as the configuration) or the built-in database"),
    OPT_STRING(0, "kallsyms", O, kallsyms, "FILE",
	       "with --running: read the symbols from FILE (a kallsyms dump) instead of /proc/kallsyms"),
    OPT_BOOL(0, "lines", O, lines,
	     "line level, with --vmlinux: compiled lines (its DWARF line table) and the footprints' covered kernel "
	     "lines per option, directory and file, with #if blocks never entered and error paths never taken"),
    OPT_STRING(0, "source-root", O, source_root, "DIR",
	       "with --lines: the tree the covered files' sources are read from (default --kernel-src)"),
    OPT_CHOICE('F', "format", O, format, "FORMAT", inv_renderer_names, "%s (default text)"),
    OPT_STRING('o', "output", O, output, "OUT", "write to OUT instead of standard output, atomically"),
    OPT_STRING(0, "top", O, top, "N", "text and rst: show N rows of each list (default 20, 0: all)"),
    OPT_BOOL(0, "no-cache", O, no_cache, "neither read nor write the SLOC cache (~/.cache/kfootprint)"),
    OPT_VERBOSE("diagnostics: timings"),
    OPT_HELP(),
    OPT_END(),
};
#undef O

struct lines_job {
	const char *format;
	const struct inv_lines *l;
	size_t top;
};

static int render_lines(FILE *out, const void *ctx)
{
	const struct lines_job *j = ctx;

	return invl_render(j->l, j->format, j->top, out);
}

/* --lines: the line table against the footprints' kernel lines (inventory/inv_lines.h). */
static int lines(const struct inventory_opts *o, size_t top, char **paths, size_t n, struct atomic_file *out)
{
	if (o->running || o->build_dir || o->config || o->kallsyms)
		return error("--lines reads --vmlinux (--kernel-src, --source-root), not --running, --build-dir, "
			     "--config or --kallsyms");
	if (invl_format_check(o->format) < 0)
		return -1;
	struct inv_lines_src src = {o->vmlinux, o->kernel_src, o->source_root};
	struct inv_lines *l = inv_lines_build(&src, paths, n);
	if (!l)
		return -1;
	struct lines_job j = {o->format, l, top};
	int r = o->output ? atomic_file_finish(out, render_lines, &j)
			  : atomic_file_write(NULL, 0, stdout, render_lines, &j);
	inv_lines_free(l);
	return r ? -1 : 0;
}

struct job {
	const struct inv_renderer *r;
	const struct inventory *inv;
	size_t top;
};

static int render(FILE *out, const void *ctx)
{
	const struct job *j = ctx;

	return j->r->render(j->inv, j->top, out);
}

static int cmd_inventory(int argc, char **argv)
{
	struct inventory_opts o = {.format = "text", .top = "20"};
	struct atomic_file out = {0};
	unsigned long top;
	int i = kf_command_parse(&kf_cmd_inventory, 0, argc, argv, &o);

	if (i == KF_PARSE_HELP) {
		kf_command_help(&kf_cmd_inventory, stdout);
		return 0;
	}
	if (i < 0)
		return 1;
	if (inv_renderer_check(o.format) < 0)
		return 1;
	const struct inv_renderer *r = inv_renderer_find(o.format);
	if (parse_ulong("--top", o.top, 0, 1000000, &top) < 0)
		return 1;
	if (atomic_file_distinct((const char *[]){o.config, o.vmlinux, o.kallsyms}, 3, &o.output, 1) < 0 ||
	    (o.output && atomic_file_open(&out, o.output, 0) < 0))
		return 1;
	if (o.lines) {
		int lr = lines(&o, top, argv + i, (size_t)(argc - i), &out);
		atomic_file_abort(&out);
		return lr < 0 ? 1 : 0;
	}
	if (o.source_root) {
		atomic_file_abort(&out);
		error("--source-root is for --lines");
		return 1;
	}
	struct inv_sources src = {.kernel_src = o.kernel_src,
				  .config = o.config,
				  .build_dir = o.build_dir,
				  .vmlinux = o.vmlinux,
				  .running = o.running,
				  .kallsyms = o.kallsyms,
				  .no_cache = o.no_cache};
	struct inventory *inv = inv_build(&src);
	int ret = 1;
	if (!inv)
		goto out;
	debug("inventory: %zu files from %s in %.2f s", inv->nfiles, inv->source, inv->seconds);
	if (argc > i && inv_observe(inv, argv + i, (size_t)(argc - i)) < 0)
		goto out;
	inv_finish(inv);
	struct job j = {r, inv, top};
	if (!o.output)
		ret = atomic_file_write(NULL, 0, stdout, render, &j) ? 1 : 0;
	else
		ret = atomic_file_finish(&out, render, &j) ? 1 : 0;
out:
	atomic_file_abort(&out);
	inv_free(inv);
	return ret;
}

const struct kf_command kf_cmd_inventory = {
    .name = "inventory",
    .fn = cmd_inventory,
    .more_help = inv_renderer_help,
    .summary = "compiled kernel code against what footprints observed: review candidates",
    .synopsis = "kfootprint inventory [OPTIONS] [FOOTPRINT.json...]",
    .description =
	"What a kernel compiles - from a tree and its .config (--kernel-src, --config), a built tree (--build-dir),\n"
	"a debug vmlinux (--vmlinux) or the running kernel (--running) - per Kconfig option, directory and file\n"
	"with its SLOC, against what the footprints (merged, and annotated as map annotates them) reached: files\n"
	"and options of their syscalls, of what the calls reached (refinements) and of kernel functions. First\n"
	"the compiled options no observation reached (nor the closure of those reached over depends on and\n"
	"select), by the code they gate, with their files; then, apart, the unreached files no configuration\n"
	"removes (always built, or gated only by reached options). These are review candidates: never proof that\n"
	"they can go (ENOSYS probes, boot and recovery paths, other workloads). With --lines, the same at line\n"
	"level: compiled lines (the distinct file:line of --vmlinux's DWARF line table) and the footprints'\n"
	"covered kernel lines per option, directory and file, with the #if blocks compiled and never entered and\n"
	"the error paths never taken, as candidates.",
    .options = options,
    .opts_size = sizeof(struct inventory_opts),
    .examples = "  kfootprint inventory --kernel-src /usr/src/linux --config /boot/config-6.1.0-13-amd64 ls.json\n"
		"  kfootprint inventory --vmlinux /usr/lib/debug/boot/vmlinux-6.1.0-13-amd64 -F json a.json b.json\n"
		"  kfootprint inventory --kernel-src ~/linux --build-dir ~/linux -F csv -o inv.csv run.json\n"
		"  kfootprint inventory --running --kernel-src /usr/src/linux-source-6.1 run.json\n"
		"  kfootprint inventory --lines --vmlinux vmlinux --source-root ~/linux kcov.json\n",
};
