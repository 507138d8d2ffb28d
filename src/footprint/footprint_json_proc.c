// SPDX-License-Identifier: GPL-2.0
/*
 * processes[] of a kfootprint/1 document (footprint_json_read.h): each process with its files, syscalls and
 * seccomp kills. A per-process syscall key resolves through the tables, else through the workload-wide list,
 * which may come later in a hand-made file: such keys wait in ld->pending for ld_resolve_pending().
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "abi/syscalls.h"
#include "footprint/footprint.h"
#include "footprint/footprint_json_read.h"
#include "util/xalloc.h"

/* Names as the kernel's tables spell them; anything else (a ':' above all) would make per-process keys ambiguous. */
bool ld_valid_sc_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* The (abi, nr) of a per-process key: the tables first, then the workload-wide list for names they lack. */
static int resolve_key(struct loader *ld, const char *key, enum kf_abi *abi, int *nr, const char **name)
{
	const char *colon = strchr(key, ':');
	const struct kf_syscall *row;

	*abi = kf_abi_host();
	*name = key;
	if (colon) {
		char a[32];

		if ((size_t)(colon - key) >= sizeof(a))
			return -1;
		memcpy(a, key, colon - key);
		a[colon - key] = '\0';
		if (kf_abi_parse(a, abi) < 0)
			return -1;
		*name = colon + 1;
	}
	/* a name the tables know has their number in the workload-wide list too (load_syscall checks) */
	row = kf_syscall_by_name(*abi, *name);
	if (row) {
		*nr = row->nr;
		*name = row->name;
		return 0;
	}
	const struct fp_sysstat *s = ld_names_find(&ld->names, *abi, *name);

	if (!s)
		return -1;
	*nr = s->nr;
	*name = s->name;
	return 0;
}

/* Adds counts to a per-process entry ("openat" and "x86_64:openat" are one): past COUNT_MAX is a problem. */
static int add_proc_syscall(struct loader *ld, struct fp_proc *p, const char *ctx, const char *key, enum kf_abi abi,
			    int nr, const char *name, uint64_t calls, uint64_t errors, uint64_t time_ns)
{
	struct fp_sysstat *s = fp_sctab_get(&p->syscalls, abi, nr, name);

	if (calls > COUNT_MAX - s->calls || errors > COUNT_MAX - s->errors ||
	    __builtin_add_overflow(s->time_ns, time_ns, &s->time_ns))
		return ld_fail(ld, ctx, NULL, "'%.64s' counted twice, past the range of a count", key);
	s->calls += calls;
	s->errors += errors;
	return 0;
}

/* The per-process syscall key just read, into key[KEY_MAX]; a longer one, or one with a NUL, is no syscall. */
#define KEY_MAX 128
static int read_sc_key(struct loader *ld, const char *ctx, char *key)
{
	if (ld->jr.text.len != strlen(ld->jr.text.buf) || ld->jr.text.len >= KEY_MAX)
		return ld_fail(ld, ctx, NULL, "unknown syscall '%.64s'", ld->jr.text.buf);
	memcpy(key, ld->jr.text.buf, ld->jr.text.len + 1);
	return 0;
}

/* The process whose per-process keys are read, and its index in fp->procs to come. */
struct proc_at {
	struct fp_proc *p;
	size_t index;
};

/* One member of a process's "syscalls": key -> {"calls", "errors", "time_s", "reached"}. */
static int load_proc_syscall(struct loader *ld, const char *ctx, void *arg)
{
	static const char *const names[] = {"calls", "errors", "time_s", "reached", "reached_other"};
	enum { CALLS, ERRORS, TIME, REACHED, REACHED_OTHER };
	struct fp_sysstat scratch = {0}; /* reached, until the entry exists */
	const struct proc_at *at = arg;
	char key[KEY_MAX], sub[512];
	enum kf_abi abi = KF_ABI_X86_64;
	int nr = 0, k, rc;
	const char *name = NULL;
	uint64_t calls = 0, errors = 0, time_ns = 0;
	uint32_t seen = 0;
	bool later = false;
	enum jr_event ev;

	if (read_sc_key(ld, ctx, key) < 0)
		return -1;
	snprintf(sub, sizeof(sub), "%s.%s", ctx, key);
	if (resolve_key(ld, key, &abi, &nr, &name) < 0) {
		/* a name only the workload-wide list has, which a hand-made file may give after processes[] */
		if (ld->syscalls_read || !ld_valid_sc_name(strchr(key, ':') ? strchr(key, ':') + 1 : key))
			return ld_fail(ld, ctx, NULL, "unknown syscall '%.64s'", key);
		later = true;
	}
	if (ld_value_of(ld, sub, NULL, JR_OBJECT, false, OPT, &ev) < 0)
		return -1;
	while ((rc = ld_next_member(ld, sub, NAMES(names), &seen, &k)) > 0) {
		if (k == CALLS)
			rc = ld_get_count(ld, sub, "calls", COUNT_MAX, &calls);
		else if (k == ERRORS)
			rc = ld_get_count(ld, sub, "errors", COUNT_MAX, &errors);
		else if (k == TIME)
			rc = ld_get_ns(ld, sub, "time_s", &time_ns);
		else if (k == REACHED)
			rc = ld_objects(ld, sub, "reached", ld_load_reach, &scratch);
		else if (k == REACHED_OTHER)
			rc = ld_get_count(ld, sub, "reached_other", COUNT_MAX, &scratch.reach_other);
		else
			rc = ld_skip_value(ld);
		if (rc < 0)
			goto fail;
	}
	if (rc < 0)
		goto fail;
	if (!(seen & 1u << CALLS)) {
		ld_fail(ld, sub, "calls", "missing");
		goto fail;
	}
	if (errors > calls) {
		ld_fail(ld, sub, "errors", "%llu is out of range", (unsigned long long)errors);
		goto fail;
	}
	if (later) {
		XGROW(ld->pending, ld->pending_cap, ld->npending + 1);
		ld->pending[ld->npending++] =
		    (struct pending){at->index, xstrdup(key), calls, errors, time_ns, scratch};
		return 0;
	}
	if (add_proc_syscall(ld, at->p, ctx, key, abi, nr, name, calls, errors, time_ns) < 0)
		goto fail;
	return ld_move_reach(ld, sub, &scratch, fp_sctab_find(&at->p->syscalls, abi, nr));
fail:
	fp_sysstat_reach_release(&scratch);
	return -1;
}

/* One member of "seccomp_killed": {"getppid": 1}: the calls a seccomp filter killed tasks of the process in. */
static int load_seccomp_kill(struct loader *ld, const char *ctx, void *arg)
{
	struct fp_proc *p = arg;
	char key[KEY_MAX];
	enum kf_abi abi = KF_ABI_X86_64;
	int nr = 0;
	const char *name = NULL;
	uint64_t n = 0;

	if (read_sc_key(ld, ctx, key) < 0)
		return -1;
	if (resolve_key(ld, key, &abi, &nr, &name) < 0)
		return ld_fail(ld, ctx, NULL, "unknown syscall '%.64s'", key);
	if (ld_get_count(ld, ctx, key, UINT32_MAX, &n) < 0)
		return -1;
	fp_sctab_get(&p->seccomp_kills, abi, nr, name)->calls += n;
	return 0;
}

/* Per-file counts are added up (a path given twice is one file); past COUNT_MAX is a problem. */
static int add_open(struct loader *ld, struct fp_proc *p, const char *ctx, const char *path, int flags, int err,
		    uint64_t n)
{
	struct fp_file *f = fp__file(p, path);
	uint64_t have = err ? f->errors : (flags & O_ACCMODE) == O_WRONLY ? f->opens_write : f->opens_read;

	if (n > COUNT_MAX - have || (!err && n > COUNT_MAX - f->opens))
		return ld_fail(ld, ctx, NULL, "counted twice, past the range of a count");
	fp__open(ld->fp, p, path, flags, err, n);
	return 0;
}

static int load_file(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {"path", "mode", "opens", "errors", "opens_read", "opens_write"};
	enum { PATH, MODE, OPENS, ERRORS, RD, WR };
	struct fp_proc *p = arg;
	char *path = NULL, *mode = NULL;
	uint64_t opens = 0, errors = 0, r = 0, w = 0;
	bool have_r = false, have_w = false;
	uint32_t seen = 0;
	int k, rc;
	enum jr_event ev;

	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case PATH:
			rc = ld_value_of(ld, ctx, "path", JR_STRING, false, OPT, &ev);
			if (rc > 0)
				rc = ld_to_bytes(ld, ctx, "path", &path);
			break;
		case MODE: rc = ld_get_str(ld, ctx, "mode", &mode); break;
		case OPENS: rc = ld_get_count(ld, ctx, "opens", COUNT_MAX, &opens); break;
		case ERRORS: rc = ld_get_count(ld, ctx, "errors", COUNT_MAX, &errors); break;
		case RD: rc = ld_get_count_or_null(ld, ctx, "opens_read", &r, &have_r); break;
		case WR: rc = ld_get_count_or_null(ld, ctx, "opens_write", &w, &have_w); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			goto out;
	}
	if (rc < 0)
		goto out;
	rc = -1;
	if (!path) {
		ld_fail(ld, ctx, "path", "missing");
		goto out;
	}
	if (mode && strcmp(mode, "r") && strcmp(mode, "w") && strcmp(mode, "rw") && *mode) {
		ld_fail(ld, ctx, "mode", "expected \"r\", \"w\" or \"rw\", got '%s'", mode);
		goto out;
	}
	/* Files written by hand may give only mode and opens. */
	if (!have_r && !have_w) {
		r = mode && strchr(mode, 'r') ? opens : 0;
		w = mode && strchr(mode, 'w') ? opens : 0;
	}
	/* fp__open() keeps the per-file counts; the per-process totals are loaded separately after. */
	if (add_open(ld, p, ctx, path, O_RDONLY, 0, r) < 0 || (w && add_open(ld, p, ctx, path, O_WRONLY, 0, w) < 0) ||
	    (errors && add_open(ld, p, ctx, path, O_RDONLY, ENOENT, errors) < 0))
		goto out;
	/* An O_RDWR open is one open that counts for reading and for writing. */
	if (opens)
		fp__file(p, path)->opens = opens;
	rc = 0;
out:
	free(path);
	free(mode);
	return rc;
}

int ld_load_proc(struct loader *ld, const char *ctx, size_t index, void *arg)
{
	static const char *const names[] = {
	    "pid",	   "ppid",	  "threads", "execs",	   "attached", "comm",		 "exe",
	    "argv",	   "start_s",	  "end_s",   "exit",	   "files",    "syscalls",	 "opens_read",
	    "opens_write", "open_errors", "source",  "exec_chain", "host_pid", "seccomp_killed", "cwd"};
	enum {
		PID,
		PPID,
		THREADS,
		EXECS,
		ATTACHED,
		COMM,
		EXE,
		ARGV,
		START,
		END,
		EXIT,
		FILES,
		SYSCALLS,
		RD,
		WR,
		ERRS,
		SOURCE,
		CHAIN,
		HOST_PID,
		KILLS,
		CWD
	};
	int source = 0, host_pid = 0;
	/* read into a process of its own, moved into ld->fp once its pid is known (members come in any order) */
	struct fp_proc tmp = {.threads = 1, .end_s = -1}, *p;
	uint64_t threads = 1, execs = 0, opens[3] = {0, 0, 0};
	int pid = 0, ppid = 0, k, rc;
	char *comm = NULL;
	uint32_t seen = 0;
	bool found = false;
	struct proc_at at = {&tmp, ld->fp->nprocs};

	while ((rc = ld_next_member(ld, ctx, NAMES(names), &seen, &k)) > 0) {
		switch (k) {
		case PID: rc = ld_get_int(ld, ctx, "pid", 1, INT_MAX, &pid); break;
		case PPID: rc = ld_get_int(ld, ctx, "ppid", 0, INT_MAX, &ppid); break;
		case THREADS: rc = ld_get_count(ld, ctx, "threads", UINT32_MAX, &threads); break;
		case EXECS: rc = ld_get_count(ld, ctx, "execs", UINT32_MAX, &execs); break;
		case ATTACHED: rc = ld_get_bool(ld, ctx, "attached", &tmp.attached); break;
		case COMM: rc = ld_get_str(ld, ctx, "comm", &comm); break;
		case EXE: rc = ld_get_str(ld, ctx, "exe", &tmp.exe); break;
		case ARGV: rc = ld_get_strv(ld, ctx, "argv", &tmp.argv); break;
		case START: rc = ld_get_seconds(ld, ctx, "start_s", OPT, &tmp.start_s, NULL); break;
		case END: rc = ld_get_seconds(ld, ctx, "end_s", NUL_OK, &tmp.end_s, &found); break;
		case EXIT: rc = ld_get_exit(ld, ctx, &tmp.exit); break;
		case FILES: rc = ld_objects(ld, ctx, "files", load_file, &tmp); break;
		case SYSCALLS: rc = ld_keyed(ld, ctx, "syscalls", load_proc_syscall, &at); break;
		case RD:
		case WR:
		case ERRS: rc = ld_get_count(ld, ctx, names[k], COUNT_MAX, &opens[k - RD]); break;
		case SOURCE: rc = ld_get_int(ld, ctx, "source", 0, INT_MAX, &source); break;
		case CHAIN: rc = ld_get_strv(ld, ctx, "exec_chain", &tmp.exec_chain); break;
		case HOST_PID: rc = ld_get_int(ld, ctx, "host_pid", 0, INT_MAX, &host_pid); break;
		case KILLS: rc = ld_keyed(ld, ctx, "seccomp_killed", load_seccomp_kill, &tmp); break;
		case CWD: rc = ld_get_str(ld, ctx, "cwd", &tmp.cwd); break;
		default: rc = ld_skip_value(ld);
		}
		if (rc < 0)
			goto fail;
	}
	if (rc < 0)
		goto fail;
	if (!(seen & 1u << PID)) {
		ld_fail(ld, ctx, "pid", "missing");
		goto fail;
	}
	if (!found)
		tmp.end_s = -1;
	if (tmp.exec_chain) { /* bounded as a recording keeps it */
		size_t n = 0;

		while (tmp.exec_chain[n])
			n++;
		if (n > FP_EXEC_CHAIN_MAX) {
			ld_fail(ld, ctx, "exec_chain", "more than %d programs", FP_EXEC_CHAIN_MAX);
			goto fail;
		}
	}
	if (seen & 1u << SOURCE && !ld->proc_source)
		ld->proc_source = ld->fp->nprocs + 1;
	p = fp__proc_new(ld->fp, pid, ppid, 0);
	p->source = (uint32_t)source;
	p->host_pid = host_pid != pid ? host_pid : 0;
	p->seccomp_kills = tmp.seccomp_kills;
	p->attached = tmp.attached;
	p->exe = tmp.exe;
	p->cwd = tmp.cwd;
	p->argv = tmp.argv;
	p->exec_chain = tmp.exec_chain;
	p->start_s = tmp.start_s;
	p->end_s = tmp.end_s;
	p->exit = tmp.exit;
	p->syscalls = tmp.syscalls;
	p->files = tmp.files;
	p->files_cap = tmp.files_cap;
	p->nfiles = tmp.nfiles;
	p->threads = (uint32_t)threads;
	p->execs = (uint32_t)execs;
	/* the totals as written, not as the files add up (those lost to a full table are not listed) */
	p->opens_read = opens[0];
	p->opens_write = opens[1];
	p->open_errors = opens[2];
	if (comm) {
		/* The kernel's comm is 15 bytes; a longer one can only be hand-made: keep what fits. */
		snprintf(p->comm, sizeof(p->comm), "%s", comm);
		free(comm);
	}
	return 0;
fail:
	free(comm);
	fp__proc_release(&tmp);
	return -1;
}

/* The per-process keys that waited for the workload-wide list. */
int ld_resolve_pending(struct loader *ld)
{
	for (size_t i = 0; i < ld->npending && !ld->msg; i++) {
		struct pending *pe = &ld->pending[i];
		enum kf_abi abi;
		int nr;
		const char *name;
		char ctx[64];

		snprintf(ctx, sizeof(ctx), "processes[%zu].syscalls", pe->proc);
		if (resolve_key(ld, pe->key, &abi, &nr, &name) < 0)
			return ld_fail(ld, ctx, NULL, "unknown syscall '%.64s'", pe->key);
		if (add_proc_syscall(ld, ld->fp->procs[pe->proc], ctx, pe->key, abi, nr, name, pe->calls, pe->errors,
				     pe->time_ns) < 0 ||
		    ld_move_reach(ld, ctx, &pe->reach, fp_sctab_find(&ld->fp->procs[pe->proc]->syscalls, abi, nr)) < 0)
			return -1;
	}
	return ld->msg ? -1 : 0;
}
