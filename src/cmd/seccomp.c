// SPDX-License-Identifier: GPL-2.0
/*
 * kfootprint seccomp: a footprint as an OCI runtime-spec "linux.seccomp" object (what runc, crun, Podman and
 * Docker read): deny by default with an errno, allow what the workload was seen calling.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "abi/abi.h"
#include "abi/syscalls.h"
#include "cmd/cmd.h"
#include "footprint/csite.h"
#include "footprint/footprint.h"
#include "report/csite.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/json_writer.h"
#include "util/xalloc.h"

struct seccomp_opts {
	const char *output;	   /* -o */
	const char *default_errno; /* --default-errno */
	bool no_runtime;	   /* --no-runtime */
	const char *input;
};

static const char *errno_choices(void)
{
	return "ENOSYS, EPERM";
}

#define S struct seccomp_opts
static const struct kf_option options[] = {
    OPT_STRING('o', "output", S, output, "OUT", "write the profile to OUT instead of standard output, atomically"),
    OPT_CHOICE(
	0, "default-errno", S, default_errno, "ERRNO", errno_choices,
	"%s: what a call the footprint does not have fails with (default ENOSYS, so that libc's fallbacks work)"),
    OPT_BOOL(0, "no-runtime", S, no_runtime,
	     "allow only the footprint's calls, not those runc's init makes between loading the filter and its exec"),
    OPT_HELP(),
    OPT_END(),
};
#undef S

/*
 * What runc's init (runc 1.1, noNewPrivileges true as `runc spec` writes it) calls on its own thread after it
 * loaded the filter and before the workload's first instruction: it closes its sync pipe, reopens the exec FIFO
 * through /proc/self/fd and writes to it, checks with fstatfs that /proc/self/fd is procfs and lists it to close
 * what the workload must not inherit, then execs the workload; the Go runtime on that thread may wait on
 * futexes, sleep, yield, poll, take a preemption signal (tgkill to itself, rt_sigreturn) and map memory. Read
 * from `strace -f runc run`, from its prctl(PR_SET_SECCOMP) to the execve; tests/integration/seccomp_runc.sh
 * shows runc's init failing without them. A name not in an ABI's table is left out for it.
 */
static const char *const runtime_calls[] = {
    /* runc's init */
    "close",
    "openat",
    "write",
    "getpid",
    "fcntl",
    "fstatfs",
    "getdents64",
    "epoll_ctl",
    "execve",
    /* the Go runtime on its thread */
    "futex",
    "nanosleep",
    "sched_yield",
    "epoll_pwait",
    "gettid",
    "tgkill",
    "rt_sigreturn",
    "rt_sigprocmask",
    "mmap",
    "munmap",
    "madvise",
};

/* Syscall names, each once (a profile holds a few hundred at most). */
struct name_set {
	const char **names;
	size_t n, cap;
};

static bool name_set_has(const struct name_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->names[i], name))
			return true;
	return false;
}

static void name_set_add(struct name_set *set, const char *name)
{
	if (name_set_has(set, name))
		return;
	if (set->n == set->cap) {
		set->cap = set->cap ? 2 * set->cap : 64;
		set->names = xrealloc(set->names, set->cap * sizeof(*set->names));
	}
	set->names[set->n++] = name;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

struct profile {
	const char *arches[KF_ABI_NR]; /* SCMP_ARCH_* of every ABI used, in descriptor order */
	size_t narches;
	struct name_set allow;
	struct name_set enosys; /* probes: every call failed with ENOSYS, none allowed by another ABI */
	int default_errno;
	const struct fp_csites *csites; /* record --call-sites: a rule of its own, with a comment, per call sited */
};

/* A call is a probe when it only ever failed, and only with ENOSYS: the workload already copes with that. */
static bool is_enosys_probe(const struct fp_sysstat *s)
{
	return s->calls && s->errors == s->calls && s->nerrnos == 1 && s->errnos[0].err == ENOSYS;
}

/*
 * Argument filters would go here: runtime-spec can compare an argument (SCMP_CMP_EQ, SCMP_CMP_MASKED_EQ...),
 * which would express the socket families or clone flags a workload used. The footprint does not record
 * argument values yet, so every allowed call is allowed whatever its arguments.
 */

static int build(const struct footprint *fp, const char *what, bool runtime, struct profile *p)
{
	struct fp_sysstat **all = fp_sctab_sorted(&fp->syscalls, NULL);
	bool used[KF_ABI_NR] = {false};
	const char *machine = NULL;
	enum kf_abi first = KF_ABI_NR;
	int ret = 0;

	if (!fp->syscalls.count) {
		free(all);
		return error("'%s': no syscalls recorded: a profile from it would deny everything", what);
	}
	for (size_t i = 0; i < fp->syscalls.count; i++)
		used[all[i]->abi] = true;
	for (int a = 0; a < KF_ABI_NR; a++) {
		const struct kf_abi_desc *d = kf_abi_get((enum kf_abi)a);

		if (!used[a])
			continue;
		if (!d->seccomp_arch) {
			ret = error("'%s': seccomp has no architecture for the %s calls it holds", what, d->name);
			goto out;
		}
		/* A process runs the ABIs of one machine (x86_64, i386, x32): a profile mixing machines is a mistake.
		 */
		if (machine && strcmp(machine, d->tree_arch)) {
			ret = error(
			    "'%s': its calls are of ABIs of different machines (%s and %s): one profile serves one",
			    what, kf_abi_name(first), d->name);
			goto out;
		}
		if (!machine) {
			machine = d->tree_arch;
			first = (enum kf_abi)a;
		}
		p->arches[p->narches++] = d->seccomp_arch;
	}
	for (size_t i = 0; i < fp->syscalls.count; i++) {
		const struct fp_sysstat *s = all[i];

		/*
		 * runtime-spec names calls, and the runtime resolves names per architecture: a number with no name
		 * cannot be allowed. A probe of one fails with ENOSYS anyway when that is the default.
		 */
		if (!kf_syscall_by_nr(s->abi, s->nr)) {
			if (!is_enosys_probe(s) || p->default_errno != ENOSYS)
				warning("'%s': %s syscall %d has no name a profile can hold: it fails with the default "
					"errno",
					what, kf_abi_name(s->abi), s->nr);
			continue;
		}
		if (!is_enosys_probe(s))
			name_set_add(&p->allow, s->name);
	}
	for (size_t i = 0; i < fp->syscalls.count; i++) {
		const struct fp_sysstat *s = all[i];

		if (kf_syscall_by_nr(s->abi, s->nr) && is_enosys_probe(s) && !name_set_has(&p->allow, s->name))
			name_set_add(&p->enosys, s->name);
	}
	for (size_t i = 0; runtime && i < sizeof(runtime_calls) / sizeof(runtime_calls[0]); i++)
		for (int a = 0; a < KF_ABI_NR; a++)
			if (used[a] && kf_syscall_by_name((enum kf_abi)a, runtime_calls[i])) {
				name_set_add(&p->allow, runtime_calls[i]);
				break;
			}
	/* a probe that the runtime needs is allowed: the runtime made it, not the workload */
	for (size_t i = 0; i < p->enosys.n;)
		if (name_set_has(&p->allow, p->enosys.names[i]))
			p->enosys.names[i] = p->enosys.names[--p->enosys.n];
		else
			i++;
	qsort(p->allow.names, p->allow.n, sizeof(*p->allow.names), cmp_str);
	if (p->enosys.n)
		qsort(p->enosys.names, p->enosys.n, sizeof(*p->enosys.names), cmp_str);
out:
	free(all);
	return ret;
}

static void write_rule(json_writer_t *w, const struct name_set *set, const char *action, int err, const char *comment)
{
	jsonw_start_object(w);
	jsonw_name(w, "names");
	jsonw_start_array(w);
	for (size_t i = 0; i < set->n; i++)
		jsonw_string(w, set->names[i]);
	jsonw_end_array(w);
	jsonw_string_field(w, "action", action);
	if (err)
		jsonw_u64_field(w, "errnoRet", (uint64_t)err);
	if (comment)
		jsonw_string_field(w, "comment", comment);
	jsonw_end_object(w);
}

#define SECCOMP_SITES  4 /* stacks named per rule */
#define SECCOMP_FRAMES 3 /* frames of each: the wrapper, its caller and theirs */

/* Whether the footprint's call sites have a stack of the call name (not a probe's). */
static bool sited(const struct fp_csites *c, const char *name)
{
	for (uint32_t i = 0; c && i < c->nkeys; i++)
		if (fp_csite_key_of(&c->keys[i], name) && !strcmp(c->keys[i].syscall, name) && c->keys[i].nstacks)
			return true;
	return false;
}

/*
 * A rule allowing one call, with a "comment" naming its call sites, most calls first: runtime-spec has no field
 * for it, but runc, crun and Docker's own profiles read past unknown members (Docker's default profile has
 * "comment"s), and JSON has no comments of its own.
 */
static void write_sited_rule(json_writer_t *w, const struct fp_csites *c, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned shown = 0;

	strbuf_addf(&sb, "%s from ", name);
	for (uint32_t i = 0; i < c->nkeys && shown < SECCOMP_SITES; i++) {
		const struct fp_csite_key *k = &c->keys[i];
		const struct fp_csite_stack **v;
		uint32_t n;

		if (strcmp(k->syscall, name) || !fp_csite_key_of(k, name))
			continue;
		v = csite_top(k, &n);
		for (uint32_t j = 0; j < n && shown < SECCOMP_SITES; j++, shown++) {
			if (shown)
				strbuf_addstr(&sb, "; ");
			csite_stack_line(&sb, v[j], SECCOMP_FRAMES);
			strbuf_addf(&sb, " (%" PRIu64 " %s%s%s)", v[j]->calls, v[j]->calls == 1 ? "call" : "calls",
				    k->err ? " failing with " : "", k->err ? fp_errno_name(k->err) : "");
		}
		free(v);
	}
	jsonw_start_object(w);
	jsonw_name(w, "names");
	jsonw_start_array_inline(w);
	jsonw_string(w, name);
	jsonw_end_array(w);
	jsonw_string_field(w, "action", "SCMP_ACT_ALLOW");
	jsonw_string_field(w, "comment", sb.buf);
	jsonw_end_object(w);
	strbuf_release(&sb);
}

static int write_profile(FILE *out, const void *ctx)
{
	const struct profile *p = ctx;
	json_writer_t *w = jsonw_new(out);

	jsonw_start_object(w);
	jsonw_string_field(w, "defaultAction", "SCMP_ACT_ERRNO");
	jsonw_u64_field(w, "defaultErrnoRet", (uint64_t)p->default_errno);
	jsonw_name(w, "architectures");
	jsonw_start_array_inline(w);
	for (size_t i = 0; i < p->narches; i++)
		jsonw_string(w, p->arches[i]);
	jsonw_end_array(w);
	jsonw_name(w, "syscalls");
	jsonw_start_array(w);
	if (p->csites) {
		struct name_set rest = {0};

		for (size_t i = 0; i < p->allow.n; i++)
			if (!sited(p->csites, p->allow.names[i]))
				name_set_add(&rest, p->allow.names[i]);
		if (rest.n)
			write_rule(w, &rest, "SCMP_ACT_ALLOW", 0,
				   "no call site recorded: runc's init's own calls, calls that never return, or whose "
				   "stack could not be read");
		free(rest.names);
		for (size_t i = 0; i < p->allow.n; i++)
			if (sited(p->csites, p->allow.names[i]))
				write_sited_rule(w, p->csites, p->allow.names[i]);
	} else if (p->allow.n) {
		write_rule(w, &p->allow, "SCMP_ACT_ALLOW", 0, NULL);
	}
	/* with ENOSYS as the default they are denied alike; with EPERM they must still fail the way they did */
	if (p->enosys.n && p->default_errno != ENOSYS)
		write_rule(w, &p->enosys, "SCMP_ACT_ERRNO", ENOSYS,
			   p->csites ? "probes: every call failed with ENOSYS, and the workload coped" : NULL);
	jsonw_end_array(w);
	jsonw_end_object(w);
	return jsonw_finish(&w);
}

/* 0, 1 for --help, -1 after a message. */
static int parse_opts(int argc, char **argv, struct seccomp_opts *o)
{
	int i = kf_command_parse(&kf_cmd_seccomp, 0, argc, argv, o);

	if (i < 0)
		return i == KF_PARSE_HELP ? 1 : -1;
	if (strcmp(o->default_errno, "ENOSYS") && strcmp(o->default_errno, "EPERM"))
		return error("unknown errno '%s' for --default-errno: expected one of %s", o->default_errno,
			     errno_choices());
	if (i == argc)
		return error("no footprint to make a profile of: see 'kfootprint seccomp --help'");
	if (argc - i > 1)
		return error("one footprint at a time, got %d files", argc - i);
	o->input = argv[i];
	return 0;
}

static int cmd_seccomp(int argc, char **argv)
{
	struct seccomp_opts o = {.default_errno = "ENOSYS"};
	struct profile p = {0};
	struct atomic_file af = {0};
	struct footprint *fp = NULL;
	int rc = parse_opts(argc, argv, &o);

	if (rc) {
		if (rc > 0)
			kf_command_help(&kf_cmd_seccomp, stdout);
		return rc > 0 ? 0 : 1;
	}
	p.default_errno = fp_errno_parse(o.default_errno);
	/*
	 * Opened before any work, so that a bad path costs none. The profile holds only syscall names, but it is
	 * derived from the footprint: no more readable than it.
	 */
	if (atomic_file_distinct(&o.input, 1, &o.output, 1) < 0 ||
	    (o.output && atomic_file_open(&af, o.output, atomic_file_flags_like(o.input)) < 0))
		return 1;
	rc = 1;
	fp = fp__load(o.input);
	if (!fp || build(fp, o.input, !o.no_runtime, &p) < 0)
		goto out;
	p.csites = fp_csites_of(fp);
	if (!fp->complete)
		warning("'%s': the footprint is incomplete (%s): the profile may lack calls", o.input,
			fp->incomplete_why ? fp->incomplete_why : "unknown why");
	if (o.output)
		rc = atomic_file_finish(&af, write_profile, &p) < 0;
	else
		rc = atomic_file_write(NULL, 0, stdout, write_profile, &p) < 0;
out:
	atomic_file_abort(&af);
	free(p.allow.names);
	free(p.enosys.names);
	fp__free(fp);
	return rc;
}

const struct kf_command kf_cmd_seccomp = {
    .name = "seccomp",
    .fn = cmd_seccomp,
    .summary = "an OCI seccomp profile (runc, crun, Podman, Docker) allowing what a footprint calls",
    .synopsis = "kfootprint seccomp [--default-errno ENOSYS|EPERM] [--no-runtime] [-o OUT] FILE.json",
    .description =
	"Writes the runtime-spec 'linux.seccomp' object for a footprint: every call the footprint has is allowed,\n"
	"on every architecture (ABI) it used; any other call fails with ENOSYS (or EPERM); a call that only ever\n"
	"failed with ENOSYS (a probe) keeps failing with ENOSYS. The calls runc's init makes after loading the\n"
	"filter (execve among them) are allowed too, unless --no-runtime. Arguments are not filtered.",
    .options = options,
    .opts_size = sizeof(struct seccomp_opts),
    .examples = "  kfootprint -o app.json -- ./app; kfootprint seccomp -o seccomp.json app.json\n"
		"  jq --slurpfile s seccomp.json '.linux.seccomp = $s[0]' config.json    into a bundle's config\n"
		"  kfootprint seccomp --default-errno EPERM app.json\n",
};
