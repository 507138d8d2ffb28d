// SPDX-License-Identifier: GPL-2.0
/*
 * What each call reached, for the ptrace backend (docs/reach.md): the kind of the fds a call takes (the `f`
 * arguments of data/syscalls/args.tsv), socket triples, address families, ioctl commands, binary formats,
 * namespace flags, filesystem types, the options of prctl, bpf, perf_event_open, keyctl and open, fcntl's
 * command and the seccomp operation (of seccomp(2) or prctl(PR_SET_SECCOMP)). Values come
 * from the one formatter (abi/reach.h), as the bpf backend's.
 *
 * An fd's kind is read from /proc/TID/fd/N: stat() gives the mode, the device numbers and the superblock's device,
 * whose filesystem type comes from the tracee's /proc/TID/mountinfo (or, for the kernel's internal mounts that no
 * mountinfo lists, from objects of each kind the tracer makes at start: a pipe, a socket, an eventfd, a memfd, a
 * pidfd, a namespace file); readlink() gives the anonymous inode's name and memfd's; a socket's family, type and
 * protocol are the kernel's own (SO_DOMAIN, SO_TYPE, SO_PROTOCOL on a copy of the fd, pidfd_getfd()). That costs
 * two to seven syscalls of the tracer, so each thread group keeps the kind of each fd it looked up until the fd
 * goes: its close, close_range, dup2 or dup3 over it, an exec (close-on-exec), or a call that says EBADF for it.
 * A kind is never stored for an fd that could not be looked up.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/nsfs.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "abi/reach.h"
#include "abi/syscalls.h"
#include "trace/ptrace_int.h"
#include "util/xalloc.h"

/* An fd past this is looked up on every call: the cache is an array indexed by fd. */
#define FDCACHE_MAX 65536
/* Filesystems known by device; past this many, the table starts again. */
#define DEVS_MAX 4096

/* What the tracer does at a call's exit, by syscall (set up by name from the tables, per ABI). */
enum reach_op {
	OP_NONE,
	OP_SOCKET,
	OP_SOCKETPAIR,
	OP_ADDR1, /* bind, connect: the sockaddr is argument 1 */
	OP_SENDTO,
	OP_SENDMSG,
	OP_IOCTL,
	OP_EXEC,
	OP_CLONE,
	OP_CLONE3,
	OP_UNSHARE,
	OP_SETNS,
	OP_MOUNT,
	OP_FSOPEN,
	OP_MOUNT_CHANGE, /* umount2, move_mount, fsmount, mount_setattr: devices may now name other filesystems */
	OP_PRCTL,
	OP_ARCH_PRCTL,
	OP_BPF,
	OP_PERF,
	OP_KEYCTL,
	OP_FCNTL,
	OP_SECCOMP,
	OP_OPEN,
	OP_MMAP,
	OP_CLOSE,
	OP_CLOSE_RANGE,
	OP_DUP2, /* dup2, dup3: argument 1 is replaced */
};

static const struct {
	const char *name;
	enum reach_op op;
} ops[] = {
    {"socket", OP_SOCKET},
    {"socketpair", OP_SOCKETPAIR},
    {"bind", OP_ADDR1},
    {"connect", OP_ADDR1},
    {"sendto", OP_SENDTO},
    {"sendmsg", OP_SENDMSG},
    {"ioctl", OP_IOCTL},
    {"execve", OP_EXEC},
    {"execveat", OP_EXEC},
    {"clone", OP_CLONE},
    {"clone3", OP_CLONE3},
    {"unshare", OP_UNSHARE},
    {"setns", OP_SETNS},
    {"mount", OP_MOUNT},
    {"fsopen", OP_FSOPEN},
    {"umount2", OP_MOUNT_CHANGE},
    {"umount", OP_MOUNT_CHANGE},
    {"move_mount", OP_MOUNT_CHANGE},
    {"fsmount", OP_MOUNT_CHANGE},
    {"mount_setattr", OP_MOUNT_CHANGE},
    {"prctl", OP_PRCTL},
    {"arch_prctl", OP_ARCH_PRCTL},
    {"bpf", OP_BPF},
    {"perf_event_open", OP_PERF},
    {"keyctl", OP_KEYCTL},
    {"fcntl", OP_FCNTL},
    {"fcntl64", OP_FCNTL},
    {"seccomp", OP_SECCOMP},
    {"open", OP_OPEN},
    {"openat", OP_OPEN},
    {"openat2", OP_OPEN},
    {"creat", OP_OPEN},
    {"mmap", OP_MMAP},
    {"mmap2", OP_MMAP},
    {"close", OP_CLOSE},
    {"close_range", OP_CLOSE_RANGE},
    {"dup2", OP_DUP2},
    {"dup3", OP_DUP2},
};

struct dev_fs {
	dev_t dev;
	const char *fstype; /* interned in the footprint */
};

struct pt_reach {
	uint8_t *op[KF_ABI_NR]; /* by syscall number */
	int nops[KF_ABI_NR];
	struct dev_fs *devs;
	size_t ndevs, devs_cap;
	dev_t anon_dev, shm_dev; /* anon_inodefs', and the kernel's internal shmem mount's (memfd) */
	bool have_anon, have_shm;
	struct dev_fs internal[8]; /* filesystems no mountinfo lists, learned at start */
	int ninternal;
};

/* A thread group's fds, as looked up (pt_group.fdc). */
struct pt_fdcache {
	const char **kind; /* by fd; NULL: not looked up */
	uint32_t cap;
	int pidfd; /* for pidfd_getfd; 0: not opened yet, -1: cannot */
};

/* --- filesystems by device ---------------------------------------------------------------------------------- */

static void learn(struct pt_reach *r, struct footprint *fp, int fd, const char *fstype, dev_t *dev, bool *have)
{
	struct stat sb;

	if (fd < 0)
		return;
	if (fstat(fd, &sb) == 0 && r->ninternal < (int)(sizeof(r->internal) / sizeof(r->internal[0]))) {
		bool known = false;

		for (int i = 0; i < r->ninternal; i++)
			known |= r->internal[i].dev == sb.st_dev;
		if (!known)
			r->internal[r->ninternal++] = (struct dev_fs){sb.st_dev, fp__intern(fp, fstype)};
		if (dev) {
			*dev = sb.st_dev;
			*have = true;
		}
	}
	close(fd);
}

/*
 * The kernel's internal mounts are on no mountinfo: the tracer makes one object of each kind and notes the device
 * of its superblock, named as the kernel names those filesystem types (fs/pipe.c "pipefs", net/socket.c "sockfs",
 * fs/anon_inodes.c "anon_inodefs", mm/shmem.c "tmpfs", fs/pidfs.c "pidfs", fs/nsfs.c "nsfs").
 */
static void learn_internal(struct pt_reach *r, struct footprint *fp)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) == 0) {
		close(p[1]);
		learn(r, fp, p[0], "pipefs", NULL, NULL);
	}
	learn(r, fp, socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0), "sockfs", NULL, NULL);
	learn(r, fp, eventfd(0, EFD_CLOEXEC), "anon_inodefs", &r->anon_dev, &r->have_anon);
	learn(r, fp, (int)syscall(SYS_memfd_create, "kfootprint", MFD_CLOEXEC), "tmpfs", &r->shm_dev, &r->have_shm);
	/* before pidfs (6.9), a pidfd is an anonymous inode: the same device, learned already */
	learn(r, fp, (int)syscall(SYS_pidfd_open, getpid(), 0), "pidfs", NULL, NULL);
	learn(r, fp, open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC), "nsfs", NULL, NULL);
}

static const char *dev_find(const struct pt_reach *r, dev_t dev)
{
	for (size_t i = 0; i < r->ndevs; i++)
		if (r->devs[i].dev == dev)
			return r->devs[i].fstype;
	for (int i = 0; i < r->ninternal; i++)
		if (r->internal[i].dev == dev)
			return r->internal[i].fstype;
	return NULL;
}

/* Every mount the task sees: "36 35 98:0 / /mnt rw - ext3 /dev/root rw" (proc(5)); "fuse.sshfs" is "fuse". */
static void read_mountinfo(struct pt_reach *r, struct footprint *fp, pid_t tid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/mountinfo", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return;
	if (r->ndevs >= DEVS_MAX)
		r->ndevs = 0;
	while (getline(&line, &cap, f) > 0) {
		unsigned maj, min;
		char *sep = strstr(line, " - "), *type, *end;

		if (!sep || sscanf(line, "%*u %*u %u:%u", &maj, &min) != 2)
			continue;
		type = sep + 3;
		end = type + strcspn(type, " .\n");
		*end = '\0';
		if (dev_find(r, makedev(maj, min)))
			continue;
		XGROW(r->devs, r->devs_cap, r->ndevs + 1);
		r->devs[r->ndevs++] = (struct dev_fs){makedev(maj, min), fp__intern(fp, type)};
	}
	free(line);
	fclose(f);
}

static const char *dev_fstype(struct pt_state *st, dev_t dev, pid_t tid)
{
	const char *fs = dev_find(st->reach, dev);

	if (!fs) {
		read_mountinfo(st->reach, st->fp, tid);
		fs = dev_find(st->reach, dev);
	}
	return fs;
}

/* --- an fd's kind --------------------------------------------------------------------------------------------- */

static int group_pidfd(struct pt_fdcache *c, pid_t tgid)
{
	if (!c->pidfd) {
		c->pidfd = (int)syscall(SYS_pidfd_open, tgid, 0);
		if (c->pidfd == 0) /* cannot be: 0 is the tracer's stdin */
			c->pidfd = -1;
	}
	return c->pidfd;
}

/* A copy of the task's fd in the tracer (close it), or -1. */
static int fd_copy(struct pt_task *t, int fd)
{
	struct pt_fdcache *c = t->group->fdc;
	int pidfd = group_pidfd(c, t->group->tgid);

	return pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
}

static void socket_triple(struct pt_task *t, int fd, struct kf_fdraw *r)
{
	int s = fd_copy(t, fd);
	socklen_t len = sizeof(int);

	if (s < 0)
		return;
	getsockopt(s, SOL_SOCKET, SO_DOMAIN, &r->family, &len);
	len = sizeof(int);
	getsockopt(s, SOL_SOCKET, SO_TYPE, &r->type, &len);
	len = sizeof(int);
	getsockopt(s, SOL_SOCKET, SO_PROTOCOL, &r->protocol, &len);
	close(s);
}

/* Looks the fd up in /proc; NULL when the task has no such fd. */
static const char *fd_lookup(struct pt_state *st, struct pt_task *t, int fd)
{
	struct pt_reach *rs = st->reach;
	struct kf_fdraw r = {0};
	char path[64], link[256], value[KF_REACH_VALUE_MAX];
	const char *fs;
	struct stat sb;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)t->tid, fd);
	if (stat(path, &sb) < 0)
		return NULL;
	r.mode = sb.st_mode;
	r.maj = major(sb.st_rdev);
	r.min = minor(sb.st_rdev);
	fs = dev_fstype(st, sb.st_dev, t->tid);
	if (fs)
		snprintf(r.fstype, sizeof(r.fstype), "%s", fs);
	r.anon = rs->have_anon && sb.st_dev == rs->anon_dev;
	if (r.anon || (rs->have_shm && sb.st_dev == rs->shm_dev)) {
		/* "anon_inode:[eventfd]", "/memfd:name (deleted)": the dentry's name */
		n = readlink(path, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = '\0';
		/* the kernel's dentry names are short; a longer one is cut as the raw struct holds it */
		if (r.anon && !strncmp(link, "anon_inode:", 11))
			snprintf(r.name, sizeof(r.name), "%.*s", (int)sizeof(r.name) - 1, link + 11);
		else if (link[0] == '/')
			snprintf(r.name, sizeof(r.name), "%.*s", (int)sizeof(r.name) - 1, link + 1);
	}
	if (S_ISSOCK(sb.st_mode))
		socket_triple(t, fd, &r);
	kf_fdraw_format(&r, value, sizeof(value));
	return fp__intern(st->fp, value);
}

static const char *fd_kind(struct pt_state *st, struct pt_task *t, int fd)
{
	struct pt_fdcache *c = t->group->fdc;
	const char *kind;

	if (fd < 0)
		return NULL;
	if ((uint32_t)fd < c->cap && c->kind[fd])
		return c->kind[fd];
	kind = fd_lookup(st, t, fd);
	if (kind && fd < FDCACHE_MAX) {
		if ((uint32_t)fd >= c->cap) {
			uint32_t cap = c->cap ? c->cap : 64;

			while (cap <= (uint32_t)fd)
				cap *= 2;
			c->kind = xrealloc(c->kind, cap * sizeof(*c->kind));
			memset(c->kind + c->cap, 0, (cap - c->cap) * sizeof(*c->kind));
			c->cap = cap;
		}
		c->kind[fd] = kind;
	}
	return kind;
}

static void fd_forget(struct pt_fdcache *c, int64_t from, int64_t to)
{
	if (from < 0)
		return;
	for (int64_t fd = from; fd <= to && fd < (int64_t)c->cap; fd++)
		c->kind[fd] = NULL;
}

/* --- set-up --------------------------------------------------------------------------------------------------- */

void pt_reach_init(struct pt_state *st)
{
	struct pt_reach *r = xcalloc(1, sizeof(*r));

	st->reach = r;
	st->fp->reach = true;
	for (int abi = 0; abi < KF_ABI_NR; abi++) {
		int max = kf_syscall_max_nr((enum kf_abi)abi);

		if (max < 0)
			continue;
		r->nops[abi] = max + 1;
		r->op[abi] = xcalloc((size_t)max + 1, 1);
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			const struct kf_syscall *row = kf_syscall_by_name((enum kf_abi)abi, ops[i].name);

			if (row && row->nr >= 0 && row->nr <= max)
				r->op[abi][row->nr] = (uint8_t)ops[i].op;
		}
	}
	learn_internal(r, st->fp);
}

void pt_reach_release(struct pt_state *st)
{
	struct pt_reach *r = st->reach;

	if (!r)
		return;
	for (int abi = 0; abi < KF_ABI_NR; abi++)
		free(r->op[abi]);
	free(r->devs);
	free(r);
	st->reach = NULL;
}

void pt_reach_group_free(struct pt_group *g)
{
	struct pt_fdcache *c = g->fdc;

	if (!c)
		return;
	if (c->pidfd > 0)
		close(c->pidfd);
	free(c->kind);
	free(c);
	g->fdc = NULL;
}

void pt_reach_exec(struct pt_group *g)
{
	/* close-on-exec fds are gone; the others keep their kind, but which is which is not worth a lookup */
	if (g && g->fdc)
		fd_forget(g->fdc, 0, (int64_t)g->fdc->cap - 1);
}

static enum reach_op op_of(const struct pt_state *st, const struct pt_task *t)
{
	const struct pt_reach *r = st->reach;

	return t->nr >= 0 && t->nr < r->nops[t->abi] ? (enum reach_op)r->op[t->abi][t->nr] : OP_NONE;
}

/* --- at entry: what an exec names, before the exec replaces it ----------------------------------------------- */

/*
 * The binary format that will load the program an exec names, from its first bytes as the kernel's handlers test
 * them (fs/binfmt_elf.c, fs/compat_binfmt_elf.c, fs/binfmt_script.c): "\177ELF" of the kernel's own class is
 * elf, of the other class compat_elf; "#!" is script; anything else that execs is binfmt_misc's. Read at entry,
 * in the task's root and working directory; counted at the exit of a successful exec.
 */
static const char *binfmt_at_entry(struct pt_task *t, const struct kf_syscall *row)
{
	bool at = row->path_arg == 1; /* execveat(dirfd, path, argv, envp, flags) */
	int dirfd = at ? (int)t->args[0] : AT_FDCWD, flags = at ? (int)t->args[4] : 0, fd = -1, dir = -1;
	struct open_how how = {.flags = O_RDONLY | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT};
	unsigned char m[5] = {0};
	char base[64];
	bool wide = kf_abi_get(kf_abi_host())->bits == 64;

	if (row->path_arg < 0 || pt_read_path(t, t->args[row->path_arg]) < 0)
		return NULL;
	if (!t->path[0]) {
		if (!(flags & AT_EMPTY_PATH))
			return NULL;
		snprintf(base, sizeof(base), "/proc/%d/fd/%d", (int)t->tid, dirfd);
		fd = open(base, O_RDONLY | O_CLOEXEC);
	} else if (t->path[0] == '/') {
		snprintf(base, sizeof(base), "/proc/%d/root", (int)t->tid);
		dir = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dir >= 0)
			fd = (int)syscall(SYS_openat2, dir, t->path, &how, sizeof(how));
	} else {
		if (dirfd == AT_FDCWD)
			snprintf(base, sizeof(base), "/proc/%d/cwd", (int)t->tid);
		else
			snprintf(base, sizeof(base), "/proc/%d/fd/%d", (int)t->tid, dirfd);
		dir = open(base, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dir >= 0)
			fd = openat(dir, t->path, O_RDONLY | O_CLOEXEC);
	}
	if (dir >= 0)
		close(dir);
	if (fd < 0)
		return NULL;
	if (read(fd, m, sizeof(m)) < 2) {
		close(fd);
		return NULL;
	}
	close(fd);
	if (!memcmp(m, "\177ELF", 4))
		return (m[4] == 2) == wide ? "elf" : "compat_elf";
	if (m[0] == '#' && m[1] == '!')
		return "script";
	return "misc";
}

void pt_reach_enter(struct pt_state *st, struct pt_task *t, const struct kf_syscall *row)
{
	t->row = row;
	t->binfmt = NULL;
	if (row && (row->flags & KF_SC_EXEC))
		t->binfmt = binfmt_at_entry(t, row);
}

/* --- at exit ---------------------------------------------------------------------------------------------------- */

static void reach(struct pt_state *st, struct pt_task *t, struct fp_proc *p, const char *kind, const char *value,
		  const char *fd, int err)
{
	size_t len = strlen(t->reached);

	if (!value)
		return;
	fp__reach(st->fp, p, (enum kf_abi)t->abi, t->nr, kind, value, fd, err, 1);
	if (st->opts->stops && len + 1 < sizeof(t->reached))
		snprintf(t->reached + len, sizeof(t->reached) - len, "%s%s %s", len ? ", " : "", kind, value);
}

static void reach_name(struct pt_state *st, struct pt_task *t, struct fp_proc *p, const char *kind, const char *table,
		       long long v, int err)
{
	char buf[32];

	reach(st, t, p, kind, kf_reach_name(table, v, buf, sizeof(buf)), NULL, err);
}

static bool compat(const struct pt_task *t)
{
	return kf_abi_get((enum kf_abi)t->abi)->bits == 32 || t->abi == KF_ABI_X32;
}

/* The family of a sockaddr in the task's memory (its first two bytes), or -1. */
static int sockaddr_family(const struct pt_task *t, uint64_t addr, uint64_t len)
{
	uint16_t family;

	if (!addr || len < sizeof(family) || pt_read_mem(t->tid, addr, &family, sizeof(family)) < 0)
		return -1;
	return family;
}

/* sendmsg's msg_name: the first two members of struct msghdr (compat_msghdr: 32-bit pointer and length). */
static int msghdr_family(const struct pt_task *t, uint64_t msg)
{
	if (compat(t)) {
		uint32_t h[2] = {0, 0};

		return pt_read_mem(t->tid, msg, h, sizeof(h)) < 0 ? -1 : sockaddr_family(t, h[0], h[1]);
	}
	struct {
		uint64_t name;
		uint32_t len;
	} h = {0, 0};
	return pt_read_mem(t->tid, msg, &h, sizeof(h)) < 0 ? -1 : sockaddr_family(t, h.name, h.len);
}

static void reach_ns(struct pt_state *st, struct pt_task *t, struct fp_proc *p, uint64_t flags, int err)
{
	const char *names[16];
	int n = kf_reach_ns_flags(flags, names, 16);

	for (int i = 0; i < n; i++)
		reach(st, t, p, "ns", names[i], NULL, err);
}

/* The user-space struct's first u32 (bpf_attr's prog_type or map_type, perf_event_attr's type), or -1. */
static long long first_u32(const struct pt_task *t, uint64_t addr)
{
	uint32_t v;

	return addr && pt_read_mem(t->tid, addr, &v, sizeof(v)) == 0 ? (long long)v : -1;
}

static void reach_string(struct pt_state *st, struct pt_task *t, struct fp_proc *p, const char *kind, uint64_t addr,
			 int err)
{
	char *s = NULL;

	if (addr && pt_read_string(t->tid, addr, &s) == 0 && *s)
		reach(st, t, p, kind, s, NULL, err);
	free(s);
}

static void reach_fds(struct pt_state *st, struct pt_task *t, struct fp_proc *p, int err)
{
	const struct kf_syscall *row = t->row;
	const char *seen[6];
	int nseen = 0;

	for (int i = 0; i < 6; i++) {
		const char *kind;
		int fd;
		bool dup = false;

		if (!(row->fd_args & (1u << i)))
			continue;
		fd = (int)t->args[i];
		if (err == EBADF) {
			/* not open: nothing reached (and a kind kept for it is stale) */
			if (fd >= 0)
				fd_forget(t->group->fdc, fd, fd);
			continue;
		}
		kind = fd_kind(st, t, fd);
		for (int k = 0; k < nseen; k++)
			dup |= seen[k] == kind;
		if (!kind || dup)
			continue;
		seen[nseen++] = kind;
		reach(st, t, p, "fd", kind, NULL, err);
	}
}

void pt_reach_exit(struct pt_state *st, struct pt_task *t, struct fp_proc *p, int err, int64_t ret)
{
	enum reach_op op = op_of(st, t);
	const uint64_t *a = t->args;
	int fam;

	if (!t->row || !t->group)
		return;
	if (!t->group->fdc) {
		t->group->fdc = xcalloc(1, sizeof(*t->group->fdc));
	}
	if (t->row->fd_args && !(op == OP_MMAP && ((a[3] & MAP_ANONYMOUS) || (int)a[4] < 0)))
		reach_fds(st, t, p, err);
	switch (op) {
	case OP_NONE: break;
	case OP_SOCKET:
	case OP_SOCKETPAIR: {
		/* the kernel's triple, as the fd says it (the protocol socket() chose for 0), else the arguments */
		int sv[2] = {-1, -1};
		const char *kind = NULL;
		char buf[KF_REACH_VALUE_MAX];

		if (!err && op == OP_SOCKET)
			kind = fd_kind(st, t, (int)ret);
		else if (!err && pt_read_mem(t->tid, a[3], sv, sizeof(sv)) == 0)
			kind = fd_kind(st, t, sv[0]);
		if (kind && !strncmp(kind, "socket:", 7)) {
			reach(st, t, p, "socket", kind + 7, NULL, err);
		} else {
			kf_socket_format((int)a[0], (int)a[1], (int)a[2], buf, sizeof(buf));
			reach(st, t, p, "socket", buf, NULL, err);
		}
		break;
	}
	case OP_ADDR1:
		fam = sockaddr_family(t, a[1], a[2]);
		if (fam >= 0)
			reach_name(st, t, p, "af", "af", fam, err);
		break;
	case OP_SENDTO:
		fam = sockaddr_family(t, a[4], a[5]);
		if (fam >= 0)
			reach_name(st, t, p, "af", "af", fam, err);
		break;
	case OP_SENDMSG:
		fam = msghdr_family(t, a[1]);
		if (fam >= 0)
			reach_name(st, t, p, "af", "af", fam, err);
		break;
	case OP_IOCTL: {
		char buf[32];

		if (err == EBADF)
			break;
		reach(st, t, p, "ioctl", kf_reach_name("ioctl", (uint32_t)a[1], buf, sizeof(buf)),
		      fd_kind(st, t, (int)a[0]), err);
		break;
	}
	case OP_EXEC:
		if (!err && t->binfmt)
			reach(st, t, p, "binfmt", t->binfmt, NULL, 0);
		break;
	case OP_CLONE:
	case OP_UNSHARE: reach_ns(st, t, p, a[0], err); break;
	case OP_CLONE3: {
		uint64_t flags;

		if (a[0] && pt_read_mem(t->tid, a[0], &flags, sizeof(flags)) == 0)
			reach_ns(st, t, p, flags, err);
		break;
	}
	case OP_SETNS:
		if ((int)a[1]) {
			reach_ns(st, t, p, (uint32_t)a[1], err);
		} else if (!err) {
			/* nstype 0: the namespace the fd is of, as the kernel says it (a CLONE_NEW* flag) */
			int c = fd_copy(t, (int)a[0]), type = c < 0 ? -1 : ioctl(c, NS_GET_NSTYPE);

			if (c >= 0)
				close(c);
			if (type > 0)
				reach_ns(st, t, p, (uint32_t)type, 0);
		}
		break;
	case OP_MOUNT: {
		char c = 0;

		reach_string(st, t, p, "fstype", a[2], err);
		/* with options, a non-empty data string: the code that parses them */
		if (a[4] && pt_read_mem(t->tid, a[4], &c, 1) == 0 && c)
			reach_string(st, t, p, "fsopts", a[2], err);
		if (!err)
			st->reach->ndevs = 0;
		break;
	}
	case OP_FSOPEN: reach_string(st, t, p, "fstype", a[0], err); break;
	case OP_MOUNT_CHANGE:
		if (!err)
			st->reach->ndevs = 0;
		break;
	case OP_PRCTL:
		reach_name(st, t, p, "prctl", "prctl", (int)a[0], err);
		/* prctl(PR_SET_SECCOMP, mode) is the seccomp operation of that mode (kernel/seccomp.c) */
		if ((int)a[0] == PR_SET_SECCOMP && (a[1] == SECCOMP_MODE_STRICT || a[1] == SECCOMP_MODE_FILTER))
			reach_name(st, t, p, "seccomp", "seccomp",
				   a[1] == SECCOMP_MODE_STRICT ? SECCOMP_SET_MODE_STRICT : SECCOMP_SET_MODE_FILTER,
				   err);
		break;
	case OP_FCNTL:
		if (err != EBADF) /* as an ioctl's command: no file, no command */
			reach_name(st, t, p, "fcntl", "fcntl", (int)a[1], err);
		break;
	case OP_SECCOMP: reach_name(st, t, p, "seccomp", "seccomp", (int)a[0], err); break;
	case OP_ARCH_PRCTL: reach_name(st, t, p, "arch_prctl", "arch_prctl", (int)a[0], err); break;
	case OP_BPF: {
		long long type = (int)a[0] == BPF_PROG_LOAD || (int)a[0] == BPF_MAP_CREATE ? first_u32(t, a[1]) : -1;

		reach_name(st, t, p, "bpf_cmd", "bpf_cmd", (int)a[0], err);
		if (type >= 0)
			reach_name(st, t, p, (int)a[0] == BPF_PROG_LOAD ? "bpf_prog" : "bpf_map",
				   (int)a[0] == BPF_PROG_LOAD ? "bpf_prog" : "bpf_map", type, err);
		break;
	}
	case OP_PERF: {
		long long type = first_u32(t, a[0]);

		if (type >= 0)
			reach_name(st, t, p, "perf_type", "perf_type", type, err);
		break;
	}
	case OP_KEYCTL: reach_name(st, t, p, "keyctl", "keyctl", (int)a[0], err); break;
	case OP_OPEN:
		if (!t->is_open)
			break;
		if ((t->oflags & O_TMPFILE) == O_TMPFILE)
			reach(st, t, p, "oflag", "O_TMPFILE", NULL, err);
		if (t->oflags & O_DIRECT)
			reach(st, t, p, "oflag", "O_DIRECT", NULL, err);
		if (t->oflags & O_PATH)
			reach(st, t, p, "oflag", "O_PATH", NULL, err);
		break;
	case OP_MMAP: break;
	case OP_CLOSE:
		if (!err || err == EBADF)
			fd_forget(t->group->fdc, (int)a[0], (int)a[0]);
		break;
	case OP_CLOSE_RANGE:
		if (!err)
			fd_forget(t->group->fdc, (uint32_t)a[0], (uint32_t)a[1]);
		break;
	case OP_DUP2:
		if (!err)
			fd_forget(t->group->fdc, (int)a[1], (int)a[1]);
		break;
	}
}
