// SPDX-License-Identifier: GPL-2.0
/*
 * bpf backend: what each call reached (fp__reach). The kernel side (src/bpf/kfreach.bpf.h) counts raw
 * observations per process x call x what was reached; here its rows per call are set before load, and its map
 * is read into the footprint through the formatter the ptrace backend uses too (abi/reach.h), so that both
 * write the same values.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "abi/reach.h"
#include "bpf/kfrec.h"
#include "kfrec.skel.h"
#include "trace/bpf_int.h"
#include "util/error.h"
#include "util/xalloc.h"

/* What a call decodes besides its fd arguments (those come from the syscall table: kf_syscall.fd_args). */
static const struct {
	const char *name;
	uint8_t op; /* enum kf_reach_op */
	int8_t arg;
} ops[] = {
    {"ioctl", KF_RO_IOCTL, 1},		 {"mmap", KF_RO_MMAP, 3},	  {"mmap2", KF_RO_MMAP, 3},
    {"socket", KF_RO_SOCKET, 0},	 {"socketpair", KF_RO_SOCKET, 3}, {"bind", KF_RO_ADDR, 1},
    {"connect", KF_RO_ADDR, 1},		 {"sendto", KF_RO_ADDR, 4},	  {"sendmsg", KF_RO_MSGHDR, 1},
    {"execve", KF_RO_EXEC, 0},		 {"execveat", KF_RO_EXEC, 0},	  {"clone", KF_RO_CLONE, 0},
    {"clone3", KF_RO_CLONE3, 0},	 {"unshare", KF_RO_UNSHARE, 0},	  {"setns", KF_RO_SETNS, 1},
    {"mount", KF_RO_FSTYPE, 2},		 {"fsopen", KF_RO_FSTYPE, 0},	  {"prctl", KF_RO_PRCTL, 0},
    {"arch_prctl", KF_RO_ARCH_PRCTL, 0}, {"bpf", KF_RO_BPF, 0},		  {"perf_event_open", KF_RO_PERF, 0},
    {"keyctl", KF_RO_KEYCTL, 0},	 {"open", KF_RO_OPEN, 1},	  {"openat", KF_RO_OPEN, 2},
    {"openat2", KF_RO_OPEN_HOW, 2},	 {"fcntl", KF_RO_FCNTL, 1},	  {"fcntl64", KF_RO_FCNTL, 1},
    {"seccomp", KF_RO_SECCOMP, 0},
};

/* The kinds as the model names them, by enum kf_reach_kind; and the name table of those that are numbers. */
static const struct {
	const char *kind;
	const char *table;
} kinds[KF_RK_NR] = {
    [KF_RK_FD] = {"fd", NULL},
    [KF_RK_SOCKET] = {"socket", NULL},
    [KF_RK_AF] = {"af", "af"},
    [KF_RK_IOCTL] = {"ioctl", "ioctl"},
    [KF_RK_BINFMT] = {"binfmt", NULL},
    [KF_RK_NS] = {"ns", NULL},
    [KF_RK_FSTYPE] = {"fstype", NULL},
    [KF_RK_PRCTL] = {"prctl", "prctl"},
    [KF_RK_ARCH_PRCTL] = {"arch_prctl", "arch_prctl"},
    [KF_RK_BPF_CMD] = {"bpf_cmd", "bpf_cmd"},
    [KF_RK_BPF_PROG] = {"bpf_prog", "bpf_prog"},
    [KF_RK_BPF_MAP] = {"bpf_map", "bpf_map"},
    [KF_RK_PERF_TYPE] = {"perf_type", "perf_type"},
    [KF_RK_KEYCTL] = {"keyctl", "keyctl"},
    [KF_RK_OFLAG] = {"oflag", NULL},
    [KF_RK_FCNTL] = {"fcntl", "fcntl"},
    [KF_RK_SECCOMP] = {"seccomp", "seccomp"},
    [KF_RK_FSOPTS] = {"fsopts", NULL},
};

/* Anything that ran and is neither ELF nor #! is misc, as ptrace names it (it reads the file's first bytes). */
static const char *const binfmts[] = {
    [KF_BINFMT_ELF] = "elf",	   [KF_BINFMT_COMPAT_ELF] = "compat_elf",
    [KF_BINFMT_SCRIPT] = "script", [KF_BINFMT_MISC] = "misc",
    [KF_BINFMT_OTHER] = "misc",
};

/*
 * Whether an exec can go through binfmt_misc (built in, or its module loaded: /proc/filesystems lists it) and a
 * kprobe can tell when it does (the kernel has kprobes: their perf event type is there).
 */
static bool have_binfmt_misc(void)
{
	char line[128];
	bool found = false;
	FILE *f;

	if (access("/sys/bus/event_source/devices/kprobe/type", F_OK) < 0)
		return false;
	f = fopen("/proc/filesystems", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = strstr(line, "\tbinfmt_misc\n") != NULL;
	fclose(f);
	return found;
}

void bpf_reach_setup(struct bpf_session *s, bool on)
{
	struct kfrec_bpf__rodata *ro = s->skel->rodata;

	ro->with_reach = on;
	for (size_t i = 0; i < sizeof(ro->reach_sc) / sizeof(ro->reach_sc[0]); i++) {
		ro->reach_sc[i].fd[0] = ro->reach_sc[i].fd[1] = -1;
		ro->reach_sc[i].op = KF_RO_NONE;
	}
	/* The kprobe telling binfmt_misc from a script costs its attachment: only where binfmt_misc can run. */
	if (!on || !have_binfmt_misc())
		bpf_program__set_autoload(s->skel->progs.kf_misc, false);
	if (!on)
		return;
	for (int a = 0; a < KF_BPF_NABI && a < KF_ABI_NR; a++) {
		enum kf_abi abi = (enum kf_abi)a;

		if (!kf_abi_get(abi)->bpf)
			continue;
		for (size_t i = 0; i < kf_syscall_count(abi); i++) {
			const struct kf_syscall *sc = kf_syscall_at(abi, i);
			volatile struct kf_reach_sc *r;
			int nfd = 0;

			if (sc->nr < 0 || sc->nr >= KF_REACH_NR_MAX)
				continue;
			r = &ro->reach_sc[a * KF_REACH_NR_MAX + sc->nr];
			for (int b = 0; b < 6 && nfd < 2; b++)
				if (sc->fd_args & (1u << b))
					r->fd[nfd++] = (int8_t)b;
		}
		/* by name, each op once: a start-up cost paid on every record */
		for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			const struct kf_syscall *sc = kf_syscall_by_name(abi, ops[k].name);
			volatile struct kf_reach_sc *r;

			if (!sc || sc->nr < 0 || sc->nr >= KF_REACH_NR_MAX)
				continue;
			r = &ro->reach_sc[a * KF_REACH_NR_MAX + sc->nr];
			r->op = ops[k].op;
			r->arg = ops[k].arg;
			/* mmap's op only says when its fd counts: i386's old mmap passes a struct, no fd */
			if (r->op == KF_RO_MMAP && r->fd[0] < 0)
				r->op = KF_RO_NONE;
		}
	}
}

/* The model's kind of a file, from the kernel side's raw observation, through the one formatter. */
static void file_value(int fsnames, const struct kf_reach_file *f, char *buf, size_t len)
{
	char fs[KF_FSNAME_MAX] = "";

	struct kf_fdraw r = {.mode = f->mode,
			     .maj = f->rdev >> 20,
			     .min = f->rdev & 0xfffff,
			     .family = f->family,
			     .type = f->type,
			     .protocol = f->protocol};

	/* the kernel side noted the name of the type when it first made a key with it */
	if (f->fstype && bpf_map_lookup_elem(fsnames, &f->fstype, fs) < 0)
		fs[0] = '\0';
	fs[sizeof(fs) - 1] = '\0';
	memcpy(r.fstype, fs, sizeof(fs));
	memcpy(r.name, f->name, sizeof(f->name));
	r.name[sizeof(f->name) - 1] = '\0';
	r.anon = !strcmp(r.fstype, "anon_inodefs");
	kf_fdraw_format(&r, buf, len);
}

/* (kind, value, fd) of a key; false for one the model has no value for. */
static bool key_value(int fsnames, const struct kf_reach_key *k, const char **kind, char *value, size_t len, char *fd,
		      bool *has_fd)
{
	const char *ns[1];
	const char *v = NULL;

	*has_fd = false;
	if (!k->kind || k->kind >= KF_RK_NR)
		return false;
	*kind = kinds[k->kind].kind;
	switch (k->kind) {
	case KF_RK_FD: file_value(fsnames, &k->f, value, len); return true;
	case KF_RK_SOCKET: kf_socket_format(k->f.family, k->f.type, k->f.protocol, value, len); return true;
	case KF_RK_IOCTL:
		/* made on an fd with no file (EBADF): the command, on no fd kind */
		*has_fd = k->f.fstype != 0;
		if (*has_fd)
			file_value(fsnames, &k->f, fd, KF_REACH_VALUE_MAX);
		break;
	case KF_RK_BINFMT: v = k->val < sizeof(binfmts) / sizeof(binfmts[0]) ? binfmts[k->val] : NULL; break;
	case KF_RK_NS: v = kf_reach_ns_flags(k->val, ns, 1) == 1 ? ns[0] : NULL; break;
	case KF_RK_FSTYPE:
	case KF_RK_FSOPTS: snprintf(value, len, "%.*s", (int)sizeof(k->f.name), k->f.name); return true;
	case KF_RK_OFLAG:
		v = k->val == 020000000	  ? "O_TMPFILE"
		    : k->val == 040000	  ? "O_DIRECT"
		    : k->val == 010000000 ? "O_PATH"
					  : NULL;
		break;
	default: break;
	}
	/* an ioctl command is unsigned (_IOR sets bit 31), as ptrace reads it; options are ints */
	if (kinds[k->kind].table)
		v = kf_reach_name(kinds[k->kind].table,
				  k->kind == KF_RK_IOCTL ? (long long)k->val : (long long)(int32_t)k->val, value, len);
	if (!v)
		return false;
	if (v != value)
		snprintf(value, len, "%s", v);
	return true;
}

void bpf_reach_format(int fsnames, const struct kf_reach_key *keys, size_t n, char *out, size_t len)
{
	char value[KF_REACH_VALUE_MAX], fdv[KF_REACH_VALUE_MAX];
	size_t at = 0;

	if (len)
		out[0] = '\0';
	for (size_t i = 0; i < n && at + 1 < len; i++) {
		const char *kind = NULL;
		bool has_fd;

		if (keys[i].abi >= KF_ABI_NR ||
		    !key_value(fsnames, &keys[i], &kind, value, sizeof(value), fdv, &has_fd))
			continue;
		snprintf(out + at, len - at, "%s%s %s", at ? ", " : "", kind, value);
		at += strlen(out + at);
	}
}

/* Whether process instance proc ended (its counts are final). */
static bool proc_done(struct bpf_session *s, uint32_t proc)
{
	struct fp_proc *p = bpf_proc(s, proc);

	return p && p->end_s >= 0;
}

/* calls of key's call (errors of them failed) reached what key says: into the footprint. */
static void reach_into(struct bpf_session *s, int fsnames, const struct kf_reach_key *key, uint64_t calls,
		       uint64_t errors)
{
	char value[KF_REACH_VALUE_MAX], fdv[KF_REACH_VALUE_MAX];
	const char *kind = NULL;
	bool has_fd;
	struct fp_proc *p;

	if (key->abi >= KF_ABI_NR || !key_value(fsnames, key, &kind, value, sizeof(value), fdv, &has_fd))
		return;
	p = bpf_proc(s, key->proc);
	if (calls > errors)
		fp__reach(s->fp, p, (enum kf_abi)key->abi, key->nr, kind, value, has_fd ? fdv : NULL, 0,
			  calls - errors);
	if (errors)
		fp__reach(s->fp, p, (enum kf_abi)key->abi, key->nr, kind, value, has_fd ? fdv : NULL, 1, errors);
}

int bpf_read_reach(struct bpf_session *s, bool ended_only)
{
	int fd = bpf_map__fd(s->skel->maps.reach), fsnames = bpf_map__fd(s->skel->maps.fsnames);
	struct kf_reach_key key, next, *done = NULL;
	struct kf_reach_val val;
	size_t ndone = 0, done_cap = 0;
	void *prev = NULL;
	int rc = 0;

	if (!s->skel->rodata->with_reach)
		return 0;
	s->fp->reach = true;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		key = next;
		prev = &key;
		if (ended_only && !proc_done(s, key.proc))
			continue;
		if (bpf_map_lookup_elem(fd, &key, &val) < 0)
			continue;
		reach_into(s, fsnames, &key, val.calls, val.errors);
		if (ended_only) {
			XGROW(done, done_cap, ndone + 1);
			done[ndone++] = key;
		}
	}
	if (errno != ENOENT)
		rc = perror_msg("bpf: reading what calls reached");
	/* Deleted after the walk, which deleting would restart. */
	for (size_t i = 0; i < ndone; i++)
		if (!bpf_map_delete_elem(fd, &done[i]))
			s->reach_drained++;
	if (ended_only)
		debug("backend bpf: moved %zu refinements of ended processes out of the kernel", ndone);
	free(done);
	return rc;
}

void bpf_reach_taken(struct bpf_session *s, const struct kf_reach_pend *e, size_t n)
{
	int fsnames = bpf_map__fd(s->skel->maps.fsnames);

	/* Every key in a cache went through the hash first: its filesystem type's name is known. */
	for (size_t i = 0; i < n; i++)
		if (e[i].key.kind && e[i].calls)
			reach_into(s, fsnames, &e[i].key, e[i].calls, e[i].errors);
}

void bpf_reach_debug(struct bpf_session *s)
{
	struct bpf_prog_info info;
	bool have;

	if (!kf_verbose)
		return;
	have = bpf_prog_stats(s, "kf_sys_exit", &info) || bpf_prog_stats(s, "kf_sys_exit_cast", &info);
	debug("backend bpf: %llu refinement entries made, %llu moved out while running",
	      (unsigned long long)s->skel->bss->nreach, (unsigned long long)s->reach_drained);
	/* With kernel.bpf_stats_enabled (or a BPF_ENABLE_STATS fd held): the cost per call of the exit program. */
	if (have && info.run_cnt)
		debug("backend bpf: sys_exit program: %llu runs, %.1f ns each", (unsigned long long)info.run_cnt,
		      (double)info.run_time_ns / (double)info.run_cnt);
}
