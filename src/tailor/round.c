// SPDX-License-Identifier: GPL-2.0
// One round of tailor: the wants closed and built, the initramfs made, the workload re-run in the guest.
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "footprint/footprint.h"
#include "tailor/bootcache.h"
#include "tailor/initramfs.h"
#include "tailor/kbuild.h"
#include "tailor/outmask.h"
#include "tailor/round.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static char *self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return xstrdup(buf);
}

/*
 * argv[0] as execvp finds it: itself with a '/' (a relative one from the command's working directory, when the
 * footprint knows it), else in PATH (the guest's default path is /bin:/usr/bin)
 */
static char *find_program(const char *name, const char *cwd)
{
	if (name[0] != '/' && strchr(name, '/') && cwd) {
		char *at = xasprintf("%s/%s", cwd, name);
		char *real = access(at, X_OK) == 0 ? realpath(at, NULL) : NULL;
		free(at);
		return real;
	}
	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? realpath(name, NULL) : NULL;
	static const char *const dirs[] = {"/bin", "/usr/bin"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *p = xasprintf("%s/%s", dirs[i], name);
		if (access(p, X_OK) == 0)
			return p;
		free(p);
	}
	return NULL;
}

static int read_file(const char *path, struct strbuf *sb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(sb, buf, (size_t)n);
	close(fd);
	return n < 0 ? -1 : 0;
}

static int write_cpio(FILE *out, const void *c)
{
	return tl_cpio_write(c, out);
}

/*
 * The command's working directory on the host, when the footprint has it (the ptrace recorder's) and it is a
 * directory here: the first process the recording started.
 */
static const char *command_cwd(const struct footprint *fp)
{
	struct stat st;
	for (size_t i = 0; i < fp->nprocs; i++) {
		const struct fp_proc *p = fp->procs[i];
		if (p->attached)
			continue;
		bool dir = p->cwd && p->cwd[0] == '/' && stat(p->cwd, &st) == 0 && S_ISDIR(st.st_mode);
		return dir ? p->cwd : NULL;
	}
	return NULL;
}

/*
 * The initramfs: the workload's files, kfootprint and its libraries, /init, the command for /init to run and
 * the directory to run it in (/kf/cwd, when known: the guest starts in /).
 */
static int make_initrd(const struct tl_work *w, const char *path)
{
	char *dir = self_dir(), *self = NULL, *init = NULL, *prog = NULL;
	struct tl_cpio *c = tl_cpio_new();
	struct strbuf initbin = STRBUF_INIT, cmd = STRBUF_INIT;
	int rc = -1;
	if (!dir) {
		perror_msg("tailor: /proc/self/exe");
		goto out;
	}
	self = xasprintf("%s/kfootprint", dir);
	init = getenv("KF_TAILOR_INIT") ? xstrdup(getenv("KF_TAILOR_INIT")) : xasprintf("%s/kfootprint-init", dir);
	if (read_file(init, &initbin) < 0) {
		perror_msg("tailor: the guest's init '%s' (built with kfootprint)", init);
		goto out;
	}
	if (tl_cpio_add_footprint(c, w->orig) < 0 || tl_cpio_add_host(c, self) != 0)
		goto out;
	/* the command as it is named (/bin/ls where the footprint has /usr/bin/ls), found as the guest's execvp will */
	const char *cwd = command_cwd(w->orig);
	prog = find_program(w->argv[0], cwd);
	if (!prog || tl_cpio_add_host(c, prog) != 0) {
		error("tailor: the command '%s' is not found on this host", w->argv[0]);
		goto out;
	}
	tl_cpio_add_data(c, "/init", 0755, initbin.buf, initbin.len);
	const char *const rec[] = {self, "record",     "-b",	   "ptrace",	"-q",
				   "-o", "/dev/ttyS1", "--report", "/dev/null", "--"};
	for (size_t i = 0; i < sizeof(rec) / sizeof(rec[0]); i++)
		strbuf_add(&cmd, rec[i], strlen(rec[i]) + 1);
	const char *name = strchr(w->argv[0], '/') ? prog : w->argv[0];
	strbuf_add(&cmd, name, strlen(name) + 1);
	for (char *const *a = w->argv + 1; *a; a++)
		strbuf_add(&cmd, *a, strlen(*a) + 1);
	tl_cpio_add_data(c, "/kf/cmd", 0644, cmd.buf, cmd.len);
	if (cwd && tl_cpio_add_host(c, cwd) == 0)
		tl_cpio_add_data(c, "/kf/cwd", 0644, cwd, strlen(cwd));
	static const char *const dirs[] = {"/dev", "/proc", "/sys", "/tmp", "/root"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		tl_cpio_add_dir(c, dirs[i]);
	FILE *f = fopen(path, "we");
	if (!f || write_cpio(f, c) < 0 || fclose(f) != 0) {
		perror_msg("tailor: writing the initramfs '%s'", path);
		unlink(path);
		goto out;
	}
	debug("tailor: initramfs %s: %zu entries", path, tl_cpio_count(c));
	rc = 0;
out:
	tl_cpio_free(c);
	free(prog);
	strbuf_release(&initbin);
	strbuf_release(&cmd);
	free(dir);
	free(self);
	free(init);
	return rc;
}

int tl_init_initrd(const char *path)
{
	char *dir = self_dir(), *init = NULL;
	struct strbuf initbin = STRBUF_INIT;
	struct tl_cpio *c = tl_cpio_new();
	int rc = -1;
	init = getenv("KF_TAILOR_INIT") ? xstrdup(getenv("KF_TAILOR_INIT"))
					: xasprintf("%s/kfootprint-init", dir ? dir : ".");
	if (read_file(init, &initbin) < 0) {
		perror_msg("tailor: the guest's init '%s' (built with kfootprint)", init);
		goto out;
	}
	tl_cpio_add_data(c, "/init", 0755, initbin.buf, initbin.len);
	static const char *const dirs[] = {"/dev", "/proc", "/sys"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		tl_cpio_add_dir(c, dirs[i]);
	FILE *f = fopen(path, "we");
	bool bad = !f || write_cpio(f, c) < 0;
	if ((f && fclose(f) != 0) || bad) {
		perror_msg("tailor: writing the initramfs '%s'", path);
		unlink(path);
		goto out;
	}
	rc = 0;
out:
	tl_cpio_free(c);
	strbuf_release(&initbin);
	free(dir);
	free(init);
	return rc;
}

bool tl_run_equal(const struct tl_run *r, const struct tl_work *w)
{
	return r->retest.booted && r->retest.ended && r->fp && !r->diffs.n && w->orig->exit.kind == FP_EXIT_CODE &&
	       r->retest.exit_code == w->orig->exit.value && r->stdout_same != 0;
}

/* The key of a reference run: Debian's kernel, the initramfs (which holds the command), the bound. */
static bool reference_key(const char *bzimage, const char *initrd, unsigned timeout_s, char key[65])
{
	char *t = xasprintf("reference run, timeout %u", timeout_s);
	const char *files[] = {bzimage, initrd, NULL}, *words[] = {t, NULL};
	bool ok = tl_boot_key(files, words, key) == 0;
	free(t);
	return ok;
}

/* A reference run of the same inputs kept: its stdout written where a run's would be, its exit status. */
static bool reference_kept(struct tl_work *w, const char *bzimage, const char *initrd, const char *dir,
			   unsigned timeout_s)
{
	char key[65];
	size_t nout, nexit;
	if (!reference_key(bzimage, initrd, timeout_s, key))
		return false;
	char *out = tl_boot_get(key, "stdout", &nout), *ex = tl_boot_get(key, "exit", &nexit);
	bool ok = out && ex;
	if (ok) {
		char *path = xasprintf("%s/retest.stdout", dir);
		FILE *f = fopen(path, "we");
		ok = f && fwrite(out, 1, nout, f) == nout;
		if ((f && fclose(f) != 0) || !ok) {
			unlink(path);
			free(path);
			ok = false;
		} else {
			w->ref_stdout = path;
			w->ref_exit = atoi(ex);
		}
	}
	free(out);
	free(ex);
	return ok;
}

static void reference_keep(const struct tl_work *w, const char *bzimage, const char *initrd, unsigned timeout_s,
			   const char *stdout_path, int exit_code)
{
	char key[65];
	struct strbuf sb = STRBUF_INIT;
	if (reference_key(bzimage, initrd, timeout_s, key) && read_file(stdout_path, &sb) == 0) {
		char *ex = xasprintf("%d\n", exit_code);
		tl_boot_put(key, "stdout", sb.buf ? sb.buf : "", sb.len);
		tl_boot_put(key, "exit", ex, strlen(ex)); /* last: no exit, no entry */
		free(ex);
	}
	strbuf_release(&sb);
}

static char *reference_dir(const struct tl_ctx *x, size_t i)
{
	return x->nwork == 1 ? xasprintf("%s/reference", x->workdir) : xasprintf("%s/reference-%zu", x->workdir, i + 1);
}

/* In the child: the reference runs not kept, one after another; it ends with kfootprint (SIGTERM). */
static _Noreturn void reference_boots(struct tl_ctx *x, const char *bzimage, pid_t parent)
{
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0 || getppid() != parent)
		_exit(1);
	for (size_t i = 0; i < x->nwork; i++) {
		if (x->work[i].ref != TL_REF_BOOTING)
			continue;
		char *dir = reference_dir(x, i), *initrd = xasprintf("%s/initrd.cpio", dir);
		struct tl_retest r = {
		    .bzimage = bzimage, .initrd = initrd, .dir = dir, .timeout_s = x->timeout_s, .mem_mb = 512};
		tl_retest_run(&r);
		fflush(stderr);
	}
	_exit(0);
}

void tl_reference_start(struct tl_ctx *x, const char *bzimage)
{
	bool boot = false;
	for (size_t i = 0; i < x->nwork; i++) {
		struct tl_work *w = &x->work[i];
		char *dir = reference_dir(x, i), *initrd = xasprintf("%s/initrd.cpio", dir);
		if ((mkdir(dir, 0700) == 0 || errno == EEXIST) && make_initrd(w, initrd) == 0) {
			w->ref = reference_kept(w, bzimage, initrd, dir, x->timeout_s) ? TL_REF_KEPT : TL_REF_BOOTING;
			boot |= w->ref == TL_REF_BOOTING;
		}
		free(initrd);
		free(dir);
	}
	if (!boot)
		return;
	fflush(NULL); /* the child's stdio must not write the parent's buffers again */
	pid_t parent = getpid(), pid = fork();
	if (pid == 0)
		reference_boots(x, bzimage, parent);
	if (pid < 0) {
		perror_msg("tailor: the reference runs: fork");
		for (size_t i = 0; i < x->nwork; i++)
			if (x->work[i].ref == TL_REF_BOOTING)
				x->work[i].ref = TL_REF_NONE;
		return;
	}
	x->ref_pid = pid;
}

static void reference_reap(struct tl_ctx *x)
{
	int st;
	while (x->ref_pid > 0 && waitpid(x->ref_pid, &st, 0) < 0 && errno == EINTR)
		;
	x->ref_pid = 0;
}

void tl_reference_wait(struct tl_ctx *x)
{
	reference_reap(x);
	for (size_t i = 0; i < x->nwork; i++) {
		struct tl_work *w = &x->work[i];
		enum tl_ref was = w->ref;
		w->ref = TL_REF_NONE;
		if (was == TL_REF_KEPT)
			fprintf(stderr,
				"kfootprint: tailor: the reference run of '%s' on Debian's kernel (%s): kept from an "
				"earlier boot of the same kernel, initramfs and command\n",
				w->argv[0], x->ref_kernel);
		if (was != TL_REF_BOOTING)
			continue;
		char *dir = reference_dir(x, i), *initrd = xasprintf("%s/initrd.cpio", dir);
		struct tl_retest r = {.dir = dir};
		tl_retest_read(&r);
		if (r.ended) {
			reference_keep(w, x->ref_kernel, initrd, x->timeout_s, r.stdout_path, r.exit_code);
			w->ref_stdout = xstrdup(r.stdout_path);
			w->ref_exit = r.exit_code;
			fprintf(stderr,
				"kfootprint: tailor: the reference run of '%s' on Debian's kernel (%s): booted beside "
				"round 1, exit %d\n",
				w->argv[0], x->ref_kernel, r.exit_code);
		} else {
			fprintf(stderr,
				"kfootprint: tailor: the reference run of '%s' did not end: standard output is not "
				"compared (console: %s)\n",
				w->argv[0], r.console);
		}
		tl_retest_release(&r);
		free(initrd);
		free(dir);
	}
}

void tl_reference_stop(struct tl_ctx *x)
{
	if (x->ref_pid > 0)
		kill(x->ref_pid, SIGTERM); /* its timeout(1) then ends QEMU (the parent-death signal) */
	reference_reap(x);
	for (size_t i = 0; i < x->nwork; i++)
		x->work[i].ref = TL_REF_NONE;
}

/* One workload's re-test: its own initramfs (its files, its command), its own boot, its own comparison. */
static int run_one(struct tl_ctx *x, struct tl_round *r, size_t i)
{
	struct tl_run *run = &r->runs[i];
	run->dir = x->nwork == 1 ? xasprintf("%s/round%d", x->workdir, r->round)
				 : xasprintf("%s/round%d-%zu", x->workdir, r->round, i + 1);
	if (mkdir(run->dir, 0700) < 0 && errno != EEXIST)
		return perror_msg("tailor: '%s'", run->dir);
	run->initrd = xasprintf("%s/initrd.cpio", run->dir);
	if (make_initrd(&x->work[i], run->initrd) < 0)
		return -1;
	run->retest = (struct tl_retest){
	    .bzimage = r->bzimage, .initrd = run->initrd, .dir = run->dir, .timeout_s = x->timeout_s, .mem_mb = 512};
	fprintf(stderr, "kfootprint: tailor: round %d: booting the tailored kernel (%s) under QEMU for '%s'\n",
		r->round, r->kernel.key, x->work[i].argv[0]);
	tl_retest_run(&run->retest);
	if (!run->retest.booted)
		return 0; /* the caller says what the console said */
	run->fp = fp__load(run->retest.footprint);
	if (run->fp)
		tl_compare(x->work[i].orig, run->fp, x->db, &run->diffs);
	return 0;
}

/* The value the .config text gives an option: 'y', 'm', or 'n' (not set, or absent). */
static char config_value(const char *config, const char *option)
{
	char *key = xasprintf("\nCONFIG_%s=", option);
	const char *p = strstr(config, key);
	char v = p ? p[strlen(key)] : 'n';
	free(key);
	return v == 'y' || v == 'm' ? v : 'n';
}

size_t tl_not_kept(const struct kt_closure *c, const char *config, const struct kt_index *idx, char ***lost)
{
	size_t n = 0;
	*lost = NULL;
	for (size_t i = 0; i < c->nneeds; i++) {
		const struct kt_need *k = &c->needs[i];
		char got = config_value(config, k->option);
		if ((k->value == 'n') == (got == 'n'))
			continue;
		const struct kt_option *o = idx ? kt_index_option(idx, k->option) : NULL;
		const char *dep = o ? o->depends : NULL;
		*lost = xrealloc(*lost, (n + 1) * sizeof(char *));
		(*lost)[n++] =
		    xasprintf("%s: asked %s, the .config has it %s%s%s%s", k->option, k->value == 'n' ? "off" : "on",
			      got == 'n' ? "off" : "on", dep ? " (depends on " : "", dep ? dep : "", dep ? ")" : "");
	}
	return n;
}

/* A round that stops before its re-tests end: the reference runs are no use any more. */
static int round_failed(struct tl_ctx *x)
{
	tl_reference_stop(x);
	return -1;
}

int tl_round(struct tl_ctx *x, int round, struct tl_round *r)
{
	memset(r, 0, sizeof(*r));
	r->round = round;
	struct kt_want *kw = xcalloc(x->wants.n + 1, sizeof(*kw));
	for (size_t i = 0; i < x->wants.n; i++)
		kw[i] = (struct kt_want){x->wants.v[i].option, x->wants.v[i].value};
	kt_index_closure(x->idx, kw, x->wants.n, &r->closure);
	free(kw);
	r->fragment = tl_fragment(&r->closure, &x->wants);
	if (tl_kernel_config(x->src, x->cache, r->fragment, &r->kernel) < 0)
		return -1;
	if (!x->ref_done) { /* the reference runs need no tailored kernel: they boot beside its build */
		x->ref_done = true;
		if (x->ref_kernel)
			tl_reference_start(x, x->ref_kernel);
		else
			fprintf(stderr, "kfootprint: tailor: no Debian 6.1 kernel in the guest's cache for a reference "
					"run (tests/guest/run downloads it): standard output is not compared\n");
	}
	r->nlost = tl_not_kept(&r->closure, r->kernel.config, x->idx, &r->lost);
	for (size_t i = 0; i < r->nlost; i++)
		fprintf(stderr, "kfootprint: tailor: round %d: conf did not keep %s\n", round, r->lost[i]);
	if (tl_kernel_build(&r->kernel, x->cache, x->jobs, x->cache_max) < 0)
		return round_failed(x);
	r->bzimage = tl_kernel_file(&r->kernel, "arch/x86/boot/bzImage");
	r->runs = xcalloc(x->nwork, sizeof(*r->runs));
	r->nruns = x->nwork;
	for (size_t i = 0; i < x->nwork; i++)
		if (run_one(x, r, i) < 0)
			return round_failed(x);
	tl_reference_wait(x);
	for (size_t i = 0; i < x->nwork; i++) {
		struct tl_run *run = &r->runs[i];
		run->stdout_same =
		    run->retest.booted && x->work[i].ref_stdout && run->retest.ended
			? tl_masks_same_files(&x->masks, x->work[i].ref_stdout, run->retest.stdout_path) == 1
			: -1;
	}
	return 0;
}

void tl_round_release(struct tl_round *r)
{
	kt_closure_release(&r->closure);
	free(r->fragment);
	tl_kernel_release(&r->kernel);
	for (size_t i = 0; i < r->nlost; i++)
		free(r->lost[i]);
	free(r->lost);
	free(r->bzimage);
	for (size_t i = 0; i < r->nruns; i++) {
		struct tl_run *run = &r->runs[i];
		free(run->dir);
		free(run->initrd);
		tl_retest_release(&run->retest);
		if (run->fp)
			fp__free(run->fp);
		tl_diffs_release(&run->diffs);
	}
	free(r->runs);
}
