// SPDX-License-Identifier: GPL-2.0
/*
 * kfootprint tailor: the kernel a footprint needs, built, booted under QEMU and re-tested (src/tailor/,
 * docs/tailor.md). Each round closes the wanted options over the tree's Kconfig, builds (or takes from the cache)
 * the kernel, re-runs the workload in it, and adds the options of the calls that now fail; it stops when the
 * re-test equals the original or after --rounds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "abi/abi.h"
#include "cmd/cmd.h"
#include "footprint/footprint.h"
#include "kmap/mapdb.h"
#include "report/tailor_render.h"
#include "tailor/kbuild.h"
#include "tailor/report.h"
#include "tailor/round.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct tailor_opts {
	const char *output, *kernel_src, *rounds, *jobs, *timeout, *without, *measure, *config;
	bool baselet;
	const char *masks[TL_MASKS_MAX + 1]; /* --stdout-mask, compiled once the re-test is sure to run */
	size_t nmasks;
};

static int opt_stdout_mask(const char *value, void *opts)
{
	struct tailor_opts *o = opts;
	if (o->nmasks == TL_MASKS_MAX + 1)
		return error("tailor: --stdout-mask: more than %d masks", TL_MASKS_MAX);
	o->masks[o->nmasks++] = value; /* one past the bound is kept: tl_masks_add says it in its words */
	return 0;
}

#define T struct tailor_opts
static const struct kf_option options[] = {
    OPT_STRING('o', "output", T, output, "DIR",
	       "write the report, .config, the fragment, bzImage, vmlinux and the re-test there"),
    OPT_STRING(0, "kernel-src", T, kernel_src, "DIR",
	       "the kernel tree to build (read only; default: Debian's linux-source-6.1, extracted once)"),
    OPT_STRING(0, "rounds", T, rounds, "N", "re-test and add what failed at most N times (default 3)"),
    OPT_STRING('j', "jobs", T, jobs, "N", "make -jN (default: the number of CPUs)"),
    OPT_STRING(0, "timeout", T, timeout, "SECS", "end a guest after SECS (default 300)"),
    OPT_CALLBACK(0, "stdout-mask", "ERE", opt_stdout_mask,
		 "before the re-test's standard output is held to the reference run's, replace each match of the "
		 "extended regular expression ERE in both, line by line: what the workload prints differently on every "
		 "run (repeatable)"),
    OPT_STRING(0, "without", T, without, "OPT,...",
	       "leave these needed options out of round 1, to see the re-test find them (CONFIG_ omitted)"),
    OPT_STRING(0, "measure", T, measure, "kcov|gcov|kcov,gcov",
	       "no re-test: build the measurement kernel of the tailored .config in -o DIR (or --config, or the "
	       "baselet) with kcov or gcov, debugfs, DWARF and function_graph, into DIR/measure-METHOD"),
    OPT_STRING(0, "config", T, config, "FILE", "--measure: the .config to add the measurement options to"),
    OPT_BOOL(0, "baselet", T, baselet,
	     "print the baselet: each option, 'boot' and what the recorded boot shows of it (or 'table' and why a boot "
	     "cannot show it), and why it is there"),
    OPT_VERBOSE("diagnostics (-v)"),
    OPT_HELP(),
    OPT_END(),
};
#undef T

static int write_str(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		return perror_msg("tailor: cannot write '%s'", path);
	return 0;
}

static void say_run(FILE *out, const struct tl_run *r, const struct tl_work *w, size_t nwork, size_t nmasks)
{
	if (nwork > 1)
		fprintf(out, "  %s (%s):\n", w->file, w->argv[0]);
	if (!r->retest.booted) {
		fprintf(out, "  the kernel did not reach /init in %.1f s (console: %s)\n", r->retest.seconds,
			r->retest.console ? r->retest.console : "none");
		return;
	}
	fprintf(out, "  re-test: %s, %.1f s in QEMU", r->retest.ended ? "ran" : "did not end", r->retest.seconds);
	if (r->retest.ended)
		fprintf(out, ", exit %d (the original: %d)", r->retest.exit_code, w->orig->exit.value);
	if (r->stdout_same >= 0)
		fprintf(out, ", standard output %s the reference run's%s", r->stdout_same ? "equals" : "differs from",
			nmasks ? " (masked)" : "");
	fputc('\n', out);
	for (size_t i = 0; i < r->diffs.n; i++) {
		const struct tl_diff *d = &r->diffs.v[i];
		fprintf(out, "  %s now fails with %s (%llu calls)", d->syscall, fp_errno_name(d->err), d->calls);
		for (char **o = d->options; o && *o; o++)
			fprintf(out, "%s%s", o == d->options ? ": " : ", ", *o);
		fputc('\n', out);
	}
}

static void say_round(FILE *out, const struct tl_round *r, size_t asked, const struct tl_ctx *x)
{
	fprintf(out, "round %d: kernel %s%s in %.2f s, %zu options asked, %zu in the closure, %zu unmet\n", r->round,
		r->kernel.key, r->kernel.cached ? " (from the cache)" : "", r->kernel.seconds, asked, r->closure.nneeds,
		r->closure.nunmet);
	for (size_t i = 0; i < r->closure.nunmet; i++)
		fprintf(out, "  unmet %s: %s\n", r->closure.unmet[i].option, r->closure.unmet[i].why);
	for (size_t i = 0; i < r->nruns; i++)
		say_run(out, &r->runs[i], &x->work[i], x->nwork, x->masks.n);
}

/* --without: each named option must be one the footprint or the baselet wants */
static int drop_wants(struct tl_wants *w, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;
	for (char *t = strtok_r(copy, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
		if (!strncmp(t, "CONFIG_", 7))
			t += 7;
		size_t i = 0;
		while (i < w->n && strcmp(w->v[i].option, t))
			i++;
		if (i == w->n) {
			rc = error("tailor: --without %s: not an option the footprint or the baselet needs", t);
			break;
		}
		free(w->v[i].option);
		free(w->v[i].why);
		memmove(&w->v[i], &w->v[i + 1], (w->n - i - 1) * sizeof(w->v[0]));
		w->n--;
	}
	free(copy);
	return rc;
}

/* A footprint tailor can re-test: x86_64 calls only, and a command (its own, or the one after --). */
static int check_workload(struct tl_work *w, char *const *cmd)
{
	const struct footprint *fp = w->orig;
	for (uint32_t k = 0; k < fp->syscalls.cap; k++)
		if (fp->syscalls.slots[k] && fp->syscalls.slots[k]->abi != KF_ABI_X86_64)
			return error("tailor: '%s' has %s calls: tailor builds x86_64 kernels for x86_64 workloads",
				     w->file, kf_abi_name(fp->syscalls.slots[k]->abi));
	w->argv = cmd ? cmd : fp->argv;
	if (!w->argv || !w->argv[0])
		return error("tailor: '%s' was attached to, not started: give the command after --", w->file);
	return 0;
}

/* The round's .config, fragment and bzImage, and each workload's re-test footprint (retest-N.json for several). */
static int write_outputs(const char *dir, const struct tl_round *rd)
{
	char *p = xasprintf("%s/fragment", dir), *c = xasprintf("%s/.config", dir);
	char *bz = xasprintf("%s/bzImage", dir), *vml = xasprintf("%s/vmlinux", dir);
	char *vsrc = tl_kernel_file(&rd->kernel, "vmlinux");
	int wr = write_str(p, rd->fragment) | write_str(c, rd->kernel.config) | tl_copy_file(rd->bzimage, bz) |
		 tl_copy_file(vsrc, vml);
	free(vml);
	free(vsrc);
	for (size_t k = 0; k < rd->nruns; k++) {
		if (!rd->runs[k].fp)
			continue;
		char *rt =
		    rd->nruns == 1 ? xasprintf("%s/retest.json", dir) : xasprintf("%s/retest-%zu.json", dir, k + 1);
		wr |= tl_copy_file(rd->runs[k].retest.footprint, rt);
		free(rt);
	}
	free(p);
	free(c);
	free(bz);
	return wr;
}

/* The options of the calls that failed in a round, wanted from the next one on; how many were new. */
static size_t add_failed(struct tl_wants *w, const struct tl_round *rd, int r, struct tl_report_round *rep)
{
	size_t added = 0;
	for (size_t n = 0; n < rd->nruns; n++)
		for (size_t k = 0; k < rd->runs[n].diffs.n; k++) {
			const struct tl_diff *d = &rd->runs[n].diffs.v[k];
			for (char **opt = d->options; opt && *opt; opt++)
				if (!tl_wants_has(w, *opt)) {
					char *why = xasprintf("%s failed with %s in round %d", d->syscall,
							      fp_errno_name(d->err), r);
					tl_wants_add(w, *opt, 'y', why, r);
					rep->added = xrealloc(rep->added, (rep->nadded + 1) * sizeof(char *));
					rep->added[rep->nadded++] = xasprintf("%s: %s", *opt, why);
					free(why);
					added++;
				}
		}
	return added;
}

/* What a round did, for the report: kept after the round's own data is freed. */
static void note_round(struct tl_report_round *rep, const struct tl_round *rd, const struct tl_ctx *x)
{
	rep->round = rd->round;
	memcpy(rep->key, rd->kernel.key, sizeof(rep->key));
	rep->cached = rd->kernel.cached;
	rep->kernel_s = rd->kernel.seconds;
	rep->asked = x->wants.n;
	rep->closure = rd->closure.nneeds;
	rep->unmet = xcalloc(rd->closure.nunmet + 1, sizeof(char *));
	for (size_t i = 0; i < rd->closure.nunmet; i++)
		rep->unmet[rep->nunmet++] = xasprintf("%s: %s", rd->closure.unmet[i].option, rd->closure.unmet[i].why);
	rep->lost = xcalloc(rd->nlost + 1, sizeof(char *));
	for (size_t i = 0; i < rd->nlost; i++)
		rep->lost[rep->nlost++] = xstrdup(rd->lost[i]);
	rep->runs = xcalloc(rd->nruns + 1, sizeof(*rep->runs));
	rep->nruns = rd->nruns;
	rep->equal = true;
	for (size_t k = 0; k < rd->nruns; k++) {
		const struct tl_run *run = &rd->runs[k];
		struct tl_report_run *o = &rep->runs[k];
		struct strbuf cmd = STRBUF_INIT;
		for (char *const *a = x->work[k].argv; *a; a++)
			strbuf_addf(&cmd, "%s%s", a == x->work[k].argv ? "" : " ", *a);
		o->command = strbuf_detach(&cmd);
		o->file = xstrdup(x->work[k].file);
		o->booted = run->retest.booted;
		o->ended = run->retest.ended;
		o->exit_code = run->retest.exit_code;
		o->orig_exit = x->work[k].orig->exit.value;
		o->seconds = run->retest.seconds;
		o->stdout_same = run->stdout_same;
		o->diffs = xcalloc(run->diffs.n + 1, sizeof(char *));
		for (size_t d = 0; d < run->diffs.n; d++) {
			const struct tl_diff *df = &run->diffs.v[d];
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "%s now fails with %s (%llu calls)", df->syscall, fp_errno_name(df->err),
				    df->calls);
			for (char **op = df->options; op && *op; op++)
				strbuf_addf(&sb, "%s%s", op == df->options ? ": " : ", ", *op);
			o->diffs[o->ndiffs++] = strbuf_detach(&sb);
		}
		rep->equal &= tl_run_equal(run, &x->work[k]);
	}
}

/* The figures of the last kernel beside Debian's and tinyconfig's, booted with /init alone. */
static void add_figures(struct tl_report *rep, struct tl_ctx *x, const char *dir)
{
	char *initrd = xasprintf("%s/figures-initrd.cpio", dir), *bz = xasprintf("%s/bzImage", dir);
	char *vml = xasprintf("%s/vmlinux", dir), *cfg = xasprintf("%s/.config", dir);
	if (tl_init_initrd(initrd) < 0) {
		free(initrd);
		initrd = NULL;
	}
	fprintf(stderr, "kfootprint: tailor: the figures: sizes, and a boot of each kernel under -icount\n");
	rep->fig[0].name = xstrdup("tailored");
	tl_figures_of(&rep->fig[0], bz, vml, cfg, initrd, dir);
	tl_figures_sloc(&rep->fig[0], x->src, cfg);
	tl_baseline_debian(&rep->fig[1], x->src, initrd, dir);
	tl_baseline_tiny(x, &rep->fig[2], initrd, dir);
	rep->nfig = 3;
	if (initrd)
		unlink(initrd);
	free(initrd);
	free(bz);
	free(vml);
	free(cfg);
}

/* report.text and report.json in dir, each whole or not at all. */
static int write_reports(const struct tl_report *rep, const char *dir)
{
	int rc = 0;
	for (size_t i = 0; tailor_format_at(i); i++) {
		const struct tailor_format *f = tailor_format_at(i);
		char *path = xasprintf("%s/report.%s", dir, f->f.name), *tmp = xasprintf("%s.tmp", path);
		FILE *out = fopen(tmp, "we");
		bool bad = !out || f->render(rep, out) < 0;
		if ((out && fclose(out) != 0) || bad || rename(tmp, path) < 0) {
			rc = perror_msg("tailor: cannot write '%s'", path);
			unlink(tmp);
		}
		free(path);
		free(tmp);
	}
	return rc;
}

static int cmd_tailor(int argc, char **argv)
{
	struct tailor_opts o = {0};
	/* the options and footprints before "--", in any order; the command after it (getopt would move it) */
	int dash = 1;
	while (dash < argc && strcmp(argv[dash], "--"))
		dash++;
	char *const *cmd = dash + 1 < argc ? argv + dash + 1 : NULL;
	int i = kf_command_parse(&kf_cmd_tailor, 0, dash, argv, &o);
	if (i == KF_PARSE_HELP) {
		kf_command_help(&kf_cmd_tailor, stdout);
		return 0;
	}
	if (i < 0)
		return 1;
	unsigned long rounds = 3, jobs = (unsigned long)sysconf(_SC_NPROCESSORS_ONLN), timeout = 300;
	if ((o.rounds && parse_ulong("--rounds", o.rounds, 1, 20, &rounds) < 0) ||
	    (o.jobs && parse_ulong("--jobs", o.jobs, 1, 1024, &jobs) < 0) ||
	    (o.timeout && parse_ulong("--timeout", o.timeout, 5, 86400, &timeout) < 0))
		return 1;
	if (o.baselet) {
		if (i < dash || cmd || o.measure)
			return error("tailor: --baselet prints the baselet only: no footprint, no command"), 1;
		size_t nb;
		const struct tl_base *b = tl_baselet(&nb);
		for (size_t k = 0; k < nb; k++)
			printf("%s\t%s\t%s\t%s\n", b[k].option, b[k].boot ? "boot" : "table",
			       b[k].boot ? b[k].boot : b[k].unseen, b[k].why);
		return fflush(stdout) == 0 ? 0 : (perror_msg("tailor: standard output"), 1);
	}
	if (o.nmasks && (o.baselet || o.measure))
		return error("tailor: --stdout-mask is for a re-test: not with --baselet or --measure"), 1;
	if (o.config && !o.measure)
		return error("tailor: --config is the base of --measure: give --measure kcov|gcov"), 1;
	if (o.measure) {
		if (!o.output)
			return error("tailor: no output directory: give -o DIR"), 1;
		if (i < dash || cmd)
			return error("tailor: --measure builds a kernel only: no footprint, no command"), 1;
		struct tl_measure m = {o.measure, o.output, o.config, o.kernel_src, (unsigned)jobs};
		return tl_measure(&m) < 0;
	}
	if (i >= dash)
		return error("tailor: no footprint: see 'kfootprint tailor --help'"), 1;
	int nfiles = dash - i;
	if (!o.output)
		return error("tailor: no output directory: give -o DIR"), 1;
	if (cmd && nfiles > 1)
		return error("tailor: -- COMMAND re-runs one workload: each of %d footprints re-runs its own", nfiles),
		       1;

	int ret = 1;
	bool made_out = false; /* removed again when nothing was written into it */
	struct tl_report rep = {0};
	char *err = NULL, *cache = tl_cache_dir(), *src = NULL;
	struct mapdb *db = NULL;
	struct tl_ctx x = {
	    .cache = cache, .jobs = (unsigned)jobs, .timeout_s = (unsigned)timeout, .cache_max = 20ull << 30};
	x.work = xcalloc((size_t)nfiles, sizeof(*x.work));
	for (size_t k = 0; k < o.nmasks; k++)
		if (tl_masks_add(&x.masks, o.masks[k]) < 0)
			goto out;
	for (size_t k = 0; k < x.masks.n; k++)
		rep.masks[rep.nmasks++] = xstrdup(x.masks.src[k]);
	for (int f = 0; f < nfiles; f++) {
		struct tl_work *w = &x.work[x.nwork];
		w->file = argv[i + f];
		if (!(w->orig = fp__load(w->file)))
			goto out;
		x.nwork++;
		if (check_workload(w, cmd) < 0)
			goto out;
	}
	db = mapdb_builtin(KF_ABI_X86_64, &err);
	if (!db) {
		error("tailor: %s", err);
		goto out;
	}
	x.db = db;
	size_t nb;
	const struct tl_base *b = tl_baselet(&nb);
	for (size_t k = 0; k < nb; k++) {
		char *why = b[k].boot ? xasprintf("%s (the recorded boot: %s)", b[k].why, b[k].boot) : NULL;
		tl_wants_add(&x.wants, b[k].option, 'y', why ? why : b[k].why, 0);
		free(why);
	}
	for (size_t k = 0; k < x.nwork; k++)
		if (tl_needs(x.work[k].orig, db, &x.wants) < 0)
			goto out;
	if (o.without && drop_wants(&x.wants, o.without) < 0)
		goto out;
	src = tl_source(o.kernel_src, cache);
	if (!src)
		goto out;
	x.src = src;
	if (mkdir(o.output, 0755) == 0)
		made_out = true;
	else if (errno != EEXIST) {
		perror_msg("tailor: '%s'", o.output);
		goto out;
	}
	x.workdir = o.output;
	x.idx = kt_index_build(src, KF_ABI_X86_64, NULL, 0, &err);
	if (!x.idx) {
		error("tailor: %s", err);
		goto out;
	}
	x.ref_kernel = tl_debian_kernel(NULL);
	for (int r = 1; r <= (int)rounds; r++) {
		struct tl_round rd;
		int rc = tl_round(&x, r, &rd);
		if (rc == 0 || rd.kernel.built)
			say_round(stderr, &rd, x.wants.n, &x);
		if (rc < 0) {
			tl_round_release(&rd);
			goto out;
		}
		struct tl_report_round *rr = tl_report_round_add(&rep);
		if (!rep.tree)
			rep.tree = xasprintf("Linux %s (%s)", rd.kernel.version, src);
		note_round(rr, &rd, &x);
		bool same = rr->equal;
		int wr = write_outputs(o.output, &rd);
		size_t added = add_failed(&x.wants, &rd, r, rr);
		tl_round_release(&rd);
		if (wr)
			goto out;
		made_out = false;
		if (same) {
			fprintf(stderr, "kfootprint: tailor: round %d: the re-test equals the original\n", r);
			rep.passed = true;
			break;
		}
		if (!added) {
			error("tailor: round %d differs and its failing calls name no option to add", r);
			break;
		}
		fprintf(stderr, "kfootprint: tailor: round %d: %zu options added\n", r, added);
	}
	if (rep.nrounds) {
		add_figures(&rep, &x, o.output);
		if (write_reports(&rep, o.output) == 0 && rep.passed)
			ret = 0;
		fprintf(stderr, "kfootprint: tailor: the report: %s/report.text (and report.json)\n", o.output);
	}
out:
	tl_report_release(&rep);
	if (made_out)
		rmdir(o.output);
	tl_wants_release(&x.wants);
	if (x.idx)
		kt_index_free(x.idx);
	free(x.ref_kernel);
	for (size_t k = 0; k < x.nwork; k++) {
		fp__free(x.work[k].orig);
		free(x.work[k].ref_stdout);
	}
	free(x.work);
	tl_masks_release(&x.masks);
	mapdb_free(db);
	free(err);
	free(src);
	free(cache);
	return ret;
}

const struct kf_command kf_cmd_tailor = {
    .name = "tailor",
    .fn = cmd_tailor,
    .summary = "build the kernel a footprint needs, boot it under QEMU, re-run the workload, compare",
    .synopsis = "kfootprint tailor -o DIR [OPTIONS] FOOTPRINT.json... [-- COMMAND [ARG...]]\n"
		"       kfootprint tailor -o DIR --measure kcov|gcov [--config FILE]",
    .description = "Closes the options the footprint needs (and the baselet QEMU x86_64 boots with) over the "
		   "tree's Kconfig, builds\nthe kernel with the tree's own kconfig and make (cached by "
		   "configuration), boots it with an initramfs of\nthe workload's own files, re-runs the "
		   "workload there under the ptrace recorder, and compares: a call\nthat succeeded before "
		   "and fails now adds the options its mapping names, for the next round.",
    .options = options,
    .opts_size = sizeof(struct tailor_opts),
    .examples = "  kfootprint -o ls.json -- ls /     then\n  kfootprint tailor -o out ls.json\n"
		"  kfootprint tailor -o out --measure kcov   the measurement kernel of out/.config\n"
		"  kfootprint tailor --baselet              what every tailored kernel gets, and from where\n",
};
