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
#include "tailor/round.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/xalloc.h"

struct tailor_opts {
	const char *output, *kernel_src, *rounds, *jobs, *timeout, *without;
};

#define T struct tailor_opts
static const struct kf_option options[] = {
    OPT_STRING('o', "output", T, output, "DIR", "write .config, the fragment, bzImage and the re-test there"),
    OPT_STRING(0, "kernel-src", T, kernel_src, "DIR",
	       "the kernel tree to build (read only; default: Debian's linux-source-6.1, extracted once)"),
    OPT_STRING(0, "rounds", T, rounds, "N", "re-test and add what failed at most N times (default 3)"),
    OPT_STRING('j', "jobs", T, jobs, "N", "make -jN (default: the number of CPUs)"),
    OPT_STRING(0, "timeout", T, timeout, "SECS", "end a guest after SECS (default 300)"),
    OPT_STRING(0, "without", T, without, "OPT,...",
	       "leave these needed options out of round 1, to see the re-test find them (CONFIG_ omitted)"),
    OPT_VERBOSE("diagnostics (-v)"),
    OPT_HELP(),
    OPT_END(),
};
#undef T

static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "re");
	char *tmp = xasprintf("%s.tmp", to);
	FILE *out = in ? fopen(tmp, "we") : NULL;
	char buf[65536];
	size_t n;
	int rc = 0;
	while (out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (!in || !out || ferror(in) || fclose(out) != 0 || rc < 0 || rename(tmp, to) < 0) {
		rc = perror_msg("tailor: cannot write '%s'", to);
		unlink(tmp);
	}
	if (in)
		fclose(in);
	free(tmp);
	return rc;
}

static int write_str(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		return perror_msg("tailor: cannot write '%s'", path);
	return 0;
}

static void say_round(FILE *out, const struct tl_round *r, size_t asked, const struct footprint *orig)
{
	fprintf(out, "round %d: kernel %s%s, %zu options asked, %zu in the closure, %zu unmet\n", r->round,
		r->kernel.key, r->kernel.cached ? " (from the cache)" : "", asked, r->closure.nneeds,
		r->closure.nunmet);
	for (size_t i = 0; i < r->closure.nunmet; i++)
		fprintf(out, "  unmet %s: %s\n", r->closure.unmet[i].option, r->closure.unmet[i].why);
	if (!r->retest.booted) {
		fprintf(out, "  the kernel did not reach /init in %.1f s (console: %s)\n", r->retest.seconds,
			r->retest.console ? r->retest.console : "none");
		return;
	}
	fprintf(out, "  re-test: %s, %.1f s in QEMU", r->retest.ended ? "ran" : "did not end", r->retest.seconds);
	if (r->retest.ended)
		fprintf(out, ", exit %d (the original: %d)", r->retest.exit_code, orig->exit.value);
	fputc('\n', out);
	for (size_t i = 0; i < r->diffs.n; i++) {
		const struct tl_diff *d = &r->diffs.v[i];
		fprintf(out, "  %s now fails with %s (%llu calls)", d->syscall, fp_errno_name(d->err), d->calls);
		for (char **o = d->options; o && *o; o++)
			fprintf(out, "%s%s", o == d->options ? ": " : ", ", *o);
		fputc('\n', out);
	}
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

static bool equal(const struct tl_round *r, const struct footprint *orig)
{
	return r->retest.booted && r->retest.ended && r->fp && !r->diffs.n && orig->exit.kind == FP_EXIT_CODE &&
	       r->retest.exit_code == orig->exit.value;
}

static int cmd_tailor(int argc, char **argv)
{
	struct tailor_opts o = {0};
	int i = kf_command_parse(&kf_cmd_tailor, 0, argc, argv, &o);
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
	if (i >= argc)
		return error("tailor: no footprint: see 'kfootprint tailor --help'"), 1;
	const char *file = argv[i++];
	char *const *cmd = NULL;
	if (i < argc && !strcmp(argv[i], "--"))
		i++;
	if (i < argc)
		cmd = argv + i;
	if (!o.output)
		return error("tailor: no output directory: give -o DIR"), 1;

	int ret = 1;
	char *err = NULL, *cache = tl_cache_dir(), *src = NULL;
	struct mapdb *db = NULL;
	struct tl_ctx x = {
	    .cache = cache, .jobs = (unsigned)jobs, .timeout_s = (unsigned)timeout, .cache_max = 20ull << 30};
	struct footprint *fp = fp__load(file);
	if (!fp)
		goto out;
	for (uint32_t k = 0; k < fp->syscalls.cap; k++)
		if (fp->syscalls.slots[k] && fp->syscalls.slots[k]->abi != KF_ABI_X86_64) {
			error("tailor: '%s' has %s calls: tailor builds x86_64 kernels for x86_64 workloads", file,
			      kf_abi_name(fp->syscalls.slots[k]->abi));
			goto out;
		}
	x.argv = cmd ? cmd : fp->argv;
	if (!x.argv || !x.argv[0]) {
		error("tailor: '%s' was attached to, not started: give the command after --", file);
		goto out;
	}
	db = mapdb_builtin(KF_ABI_X86_64, &err);
	if (!db) {
		error("tailor: %s", err);
		goto out;
	}
	x.orig = fp;
	x.db = db;
	size_t nb;
	const struct tl_base *b = tl_baselet(&nb);
	for (size_t k = 0; k < nb; k++)
		tl_wants_add(&x.wants, b[k].option, 'y', b[k].why, 0);
	if (tl_needs(fp, db, &x.wants) < 0)
		goto out;
	if (o.without && drop_wants(&x.wants, o.without) < 0)
		goto out;
	src = tl_source(o.kernel_src, cache);
	if (!src)
		goto out;
	x.src = src;
	if (mkdir(o.output, 0755) < 0 && errno != EEXIST) {
		perror_msg("tailor: '%s'", o.output);
		goto out;
	}
	x.workdir = o.output;
	x.idx = kt_index_build(src, KF_ABI_X86_64, NULL, 0, &err);
	if (!x.idx) {
		error("tailor: %s", err);
		goto out;
	}
	for (int r = 1; r <= (int)rounds; r++) {
		struct tl_round rd;
		int rc = tl_round(&x, r, &rd);
		say_round(stderr, &rd, x.wants.n, fp);
		if (rc < 0) {
			tl_round_release(&rd);
			goto out;
		}
		bool same = equal(&rd, fp);
		char *p = xasprintf("%s/fragment", o.output), *c = xasprintf("%s/.config", o.output);
		char *bz = xasprintf("%s/bzImage", o.output), *rt = xasprintf("%s/retest.json", o.output);
		int wr = write_str(p, rd.fragment) | write_str(c, rd.kernel.config) | copy_file(rd.bzimage, bz);
		if (rd.fp)
			wr |= copy_file(rd.retest.footprint, rt);
		free(p);
		free(c);
		free(bz);
		free(rt);
		size_t added = 0;
		for (size_t k = 0; k < rd.diffs.n; k++)
			for (char **opt = rd.diffs.v[k].options; opt && *opt; opt++)
				if (!tl_wants_has(&x.wants, *opt)) {
					char *why = xasprintf("%s failed with %s in round %d", rd.diffs.v[k].syscall,
							      fp_errno_name(rd.diffs.v[k].err), r);
					tl_wants_add(&x.wants, *opt, 'y', why, r);
					free(why);
					added++;
				}
		tl_round_release(&rd);
		if (wr)
			goto out;
		if (same) {
			fprintf(stderr, "kfootprint: tailor: round %d: the re-test equals the original\n", r);
			ret = 0;
			break;
		}
		if (!added) {
			error("tailor: round %d differs and its failing calls name no option to add", r);
			break;
		}
		fprintf(stderr, "kfootprint: tailor: round %d: %zu options added\n", r, added);
	}
out:
	tl_wants_release(&x.wants);
	if (x.idx)
		kt_index_free(x.idx);
	if (fp)
		fp__free(fp);
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
    .synopsis = "kfootprint tailor -o DIR [OPTIONS] FOOTPRINT.json [-- COMMAND [ARG...]]",
    .description = "Closes the options the footprint needs (and the baselet QEMU x86_64 boots with) over the "
		   "tree's Kconfig, builds\nthe kernel with the tree's own kconfig and make (cached by "
		   "configuration), boots it with an initramfs of\nthe workload's own files, re-runs the "
		   "workload there under the ptrace recorder, and compares: a call\nthat succeeded before "
		   "and fails now adds the options its mapping names, for the next round.",
    .options = options,
    .opts_size = sizeof(struct tailor_opts),
    .examples = "  kfootprint -o ls.json -- ls /     then\n  kfootprint tailor -o out ls.json\n",
};
