// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder of the kind "kernel lines" by kcov (footprint/kline.h), record --kernel-lines: the kernel PCs each
 * task of the workload ran, and only theirs. kcov traces the one task that enabled it, follows it across execve
 * and not across fork, so every task is enabled by itself before it runs:
 *   - the command: kfootprint opens /sys/kernel/debug/kcov, sizes and maps the area before the fork; the held
 *     child enables it and closes its copy just before its execve (before_exec);
 *   - a task born while traced: at its first stop (task_new), calls injected into it (the ptrace backend holds
 *     it): open, KCOV_INIT_TRACE, then the tracer takes the fd (pidfd_getfd) and maps the area, then KCOV_ENABLE
 *     and close, its registers and the stack words it lent put back exactly: the workload sees no extra fd;
 *   - each area is read at its task's exit stop (task_exit), and those still open at the end: area[0] is the
 *     count; an area that filled up (count >= size - 1) lost PCs, which kcov does not count: the task is then
 *     marked as having lost at least one (lost is a lower bound), never silent.
 * The tasks open the kcov file through kfootprint's own descriptor (/proc/<tracer>/fd/<n> opens a new kcov):
 * no debugfs mount is needed in the workload's view, and when /sys/kernel/debug is not mounted, debugfs is
 * mounted on a private temporary directory only long enough to open that one file.
 * Bounded memory: one area mapped per live task (size x 8 bytes), unmapped at its exit. kcov logs every basic
 * block run, repeats included: a small command fills 150 000 to 230 000 entries, the default holds a million.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/kcov.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "footprint/kline.h"
#include "trace/gcov.h"
#include "trace/trace.h"
#include "util/error.h"
#include "util/options.h"
#include "util/parse.h"
#include "util/xalloc.h"

#define KC_PATH		"/sys/kernel/debug/kcov"
#define KC_SIZE_DEFAULT (1u << 20) /* PCs per task, repeats included: 8 MiB of the kernel's vmalloc per live task */

static struct {
	const char *method; /* --kernel-lines[=kcov|gcov] */
	unsigned long size; /* --kernel-lines-area */
	const char *pcs;    /* --kernel-lines-pcs FILE */
} opts;

struct kc_task {
	pid_t tid, tgid;
	int fd; /* kfootprint's descriptor of the task's kcov */
	uint64_t *area;
};

struct kc {
	struct footprint *fp;
	struct kl_gcov *gcov; /* --kernel-lines=gcov: all is there (gcov.c), nothing here runs */
	struct fp_klines *k;
	size_t size;
	char *why_not; /* kcov cannot be used here at all: one line, said once */
	pid_t root;
	int root_fd; /* the command's kcov, opened before the fork; its file is also what tasks open */
	uint64_t *root_area;
	bool root_enabled; /* written by the child's copy only: the parent knows by the area */
	char path[64];	   /* /proc/<kfootprint>/fd/<root_fd>, for the tasks to open */
	struct kc_task *live;
	size_t nlive, cap;
};

static int opt_size(const char *value, void *values)
{
	unsigned long v;

	if (parse_ulong("--kernel-lines-area", value, 1, 1ul << 26, &v) < 0)
		return -1;
	/* the area is mapped whole: a number of pages (512 PCs each), rounded up */
	((__typeof__(opts) *)values)->size = (v + 511) & ~511ul;
	return 0;
}

static const char *method_choices(void)
{
	return "kcov, gcov";
}

#define O __typeof__(opts)
static const struct kf_option options[] = {
    OPT_OPTIONAL(
	0, "kernel-lines", O, method, "METHOD", "kcov", method_choices,
	"also record the kernel's source lines the workload ran, in a measurement kernel (tailor --measure "
	"kcov|gcov): %s: kcov, the PCs of the workload's own tasks; gcov, every line's execution count, of the "
	"whole guest; ptrace only (auto picks it); kcov needs a command (-- COMMAND), not -p"),
    OPT_CALLBACK(0, "kernel-lines-area", "N", opt_size,
		 "--kernel-lines: the PCs each task's kcov area holds (default 1048576, rounded up to 512s: a page); a "
		 "fuller area is counted as loss"),
    OPT_STRING(0, "kernel-lines-pcs", O, pcs, "FILE",
	       "--kernel-lines: also write the tasks and the distinct PCs as the kernel gave them to FILE, one a line "
	       "(`task TID TGID COMM covered PCS LOST` or `task ... uncovered WHY`, `pc 0xADDR HITS`), for "
	       "addr2line -e vmlinux"),
    OPT_END(),
};
#undef O

static int rec_check(void)
{
	if ((opts.size || opts.pcs) && !opts.method)
		return error("%s is of --kernel-lines: give --kernel-lines too",
			     opts.size ? "--kernel-lines-area" : "--kernel-lines-pcs");
	if (!opts.method)
		return 0;
	if (strcmp(opts.method, "kcov") && strcmp(opts.method, "gcov"))
		return error("--kernel-lines=%s: expected kcov or gcov", opts.method);
	if (!strcmp(opts.method, "gcov") && (opts.size || opts.pcs))
		return error("%s is of kcov's areas: --kernel-lines=gcov has none",
			     opts.size ? "--kernel-lines-area" : "--kernel-lines-pcs");
	return 1;
}

/* The kcov file: where debugfs is, else debugfs on a private directory, unmounted once the file is open. */
static int open_kcov(char *why, size_t len)
{
	int fd = open(KC_PATH, O_RDWR | O_CLOEXEC);
	char dir[] = "/tmp/kfootprint-debugfs.XXXXXX";

	if (fd >= 0 || errno != ENOENT) {
		if (fd < 0)
			snprintf(why, len, "%s: %s", KC_PATH, strerror(errno));
		return fd;
	}
	if (!mkdtemp(dir)) {
		snprintf(why, len, "no %s, and no directory to mount debugfs on: %s", KC_PATH, strerror(errno));
		return -1;
	}
	if (mount("debugfs", dir, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
		snprintf(why, len, "no %s, and mounting debugfs: %s", KC_PATH, strerror(errno));
	} else {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/kcov", dir);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			snprintf(why, len,
				 "the kernel has no kcov (CONFIG_KCOV): no kcov in debugfs; a measurement "
				 "kernel has it: kfootprint tailor --measure kcov");
		umount2(dir, MNT_DETACH);
	}
	rmdir(dir);
	return fd;
}

static uint64_t *map_area(int fd, size_t size)
{
	void *a = mmap(NULL, size * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return a == MAP_FAILED ? NULL : a;
}

/* _text of the running kernel from /proc/kallsyms (0: not shown, as to a user without CAP_SYSLOG). */
static uint64_t runtime_text(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[256];
	uint64_t a = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long long v;
		char type, name[128];

		if (sscanf(line, "%llx %c %127s", &v, &type, name) == 3 && !strcmp(name, "_text")) {
			a = v;
			break;
		}
	}
	if (f)
		fclose(f);
	return a;
}

/* The GNU build id among the kernel's notes (/sys/kernel/notes: Elf64_Nhdr records), hex; NULL when none. */
static char *build_id(void)
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;

	if (fd >= 0)
		close(fd);
	for (size_t off = 0; n > 0 && off + 12 <= (size_t)n;) {
		uint32_t nsz, dsz, type;

		memcpy(&nsz, buf + off, 4);
		memcpy(&dsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t name = off + 12, desc = name + ((nsz + 3) & ~3u), end = desc + ((dsz + 3) & ~3u);
		if (nsz > 256 || dsz > 256 || end > (size_t)n)
			break;
		if (type == 3 && nsz == 4 && !memcmp(buf + name, "GNU", 4)) {
			char *hex = xmalloc(2 * dsz + 1);
			for (uint32_t i = 0; i < dsz; i++)
				snprintf(hex + 2 * i, 3, "%02x", buf[desc + i]);
			return hex;
		}
		off = end;
	}
	return NULL;
}

void kl_kernel_identity(struct fp_klines *k)
{
	struct utsname u;

	if (uname(&u) == 0)
		k->kernel_release = xstrdup(u.release);
	k->build_id = build_id();
	k->runtime_text = runtime_text();
}

static void *rec_new(const void *o, struct footprint *fp)
{
	struct kc *r = xcalloc(1, sizeof(*r));
	char why[256] = "";

	(void)o;
	r->fp = fp;
	r->size = opts.size ? opts.size : KC_SIZE_DEFAULT;
	r->root_fd = -1;
	if (!strcmp(opts.method, "gcov")) {
		r->gcov = kl_gcov_new(fp);
		r->why_not = xstrdup("gcov"); /* no kcov in any task */
		return r;
	}
	r->k = fp__klines(fp, FP_KLINE_KCOV);
	kl_kernel_identity(r->k);
	r->root_fd = open_kcov(why, sizeof(why));
	if (r->root_fd >= 0 && ioctl(r->root_fd, KCOV_INIT_TRACE, (unsigned long)r->size) < 0)
		snprintf(why, sizeof(why), "KCOV_INIT_TRACE of %zu PCs: %s", r->size, strerror(errno));
	else if (r->root_fd >= 0 && !(r->root_area = map_area(r->root_fd, r->size)))
		snprintf(why, sizeof(why), "mapping the kcov area of %zu PCs: %s", r->size, strerror(errno));
	if (why[0]) {
		if (r->root_fd >= 0)
			close(r->root_fd);
		r->root_fd = -1;
		r->why_not = xstrdup(why);
		r->k->why_not = xstrdup(why);
		fprintf(stderr, "kfootprint: kernel lines: %s; recording the rest\n", why);
	} else {
		snprintf(r->path, sizeof(r->path), "/proc/%d/fd/%d", (int)getpid(), r->root_fd);
	}
	return r;
}

/* In the command's child, just before its execve: the fork's copy of the fd is the same kcov. */
static void rec_before_exec(void *p)
{
	struct kc *r = p;

	if (r->root_fd < 0)
		return;
	if (ioctl(r->root_fd, KCOV_ENABLE, KCOV_TRACE_PC) < 0) {
		static const char msg[] = "kfootprint: kernel lines: KCOV_ENABLE in the command failed\n";
		ssize_t w = write(2, msg, sizeof(msg) - 1);
		(void)w;
	}
	close(r->root_fd);
}

/*
 * kcov is refused with -p: only a task itself can disable its kcov, so a task enabled while attached to, that
 * outlives the recording, would go on filling its area (8 bytes per basic block, a vmalloc of --kernel-lines-area
 * entries) until it exits. gcov counts the whole kernel and touches no task: it works with -p.
 */
static int rec_add_pid(void *p, pid_t pid, bool attached)
{
	struct kc *r = p;
	static const char why[] = "-p: kcov stays on in a task until the task itself turns it off, and a task that "
				  "outlives the recording would keep it: give a command (-- COMMAND) or use "
				  "--kernel-lines=gcov";

	if (attached && !r->why_not) {
		r->why_not = xstrdup(why);
		r->k->why_not = xstrdup(why);
		fprintf(stderr, "kfootprint: kernel lines: %s; recording the rest\n", why);
		if (r->root_area)
			munmap(r->root_area, r->size * sizeof(uint64_t));
		if (r->root_fd >= 0)
			close(r->root_fd);
		r->root_area = NULL;
		r->root_fd = -1;
	}
	if (!r->root)
		r->root = pid;
	return 0;
}

static int rec_start(void *p)
{
	struct kc *r = p;

	if (r->gcov)
		kl_gcov_start(r->gcov);
	return 0;
}

static char *comm_of(pid_t tid)
{
	char path[64], buf[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return xstrdup(buf);
}

/* One task's area into the footprint: its row, its PCs; the area stays as it is (the caller unmaps it). */
static void take_area(struct kc *r, pid_t tid, pid_t tgid, const uint64_t *area)
{
	char *comm = comm_of(tid);
	struct fp_kline_task *t = fp__kline_task(r->k, tid, tgid, comm);
	uint64_t n = __atomic_load_n(&area[0], __ATOMIC_RELAXED);

	free(comm);
	if (n > r->size - 1)
		n = r->size - 1;
	t->pcs = n;
	if (n == 0) {
		t->covered = false;
		t->why_not = xstrdup("its kcov area is empty: kcov was not enabled in it");
		return;
	}
	t->covered = true;
	if (n >= r->size - 1) { /* full: what came after is gone, uncounted by kcov */
		t->lost = 1;
		r->k->lost++;
	}
	fp_kline_add_pcs(r->k, area + 1, n);
}

static void not_covered(struct kc *r, pid_t tid, pid_t tgid, const char *why)
{
	char *comm = comm_of(tid);
	struct fp_kline_task *t = fp__kline_task(r->k, tid, tgid, comm);

	free(comm);
	t->covered = false;
	t->why_not = xstrdup(why);
}

#if defined(__x86_64__)
/*
 * One call run in the stopped task tid: from the syscall instruction at ip, single-stepped over (its SIGTRAP
 * stop after the call, which is swallowed). The call's result, or -ESRCH / -EINTR when the task died or another
 * stop came (its signal is queued back to it: the workload loses nothing).
 */
static long inject(pid_t tid, const struct user_regs_struct *saved, uint64_t ip, long nr, uint64_t a0, uint64_t a1,
		   uint64_t a2)
{
	struct user_regs_struct regs = *saved;
	int status;

	regs.rip = ip;
	regs.rax = (uint64_t)nr;
	regs.orig_rax = (uint64_t)-1; /* not in a call: no restart logic on the way out */
	regs.rdi = a0;
	regs.rsi = a1;
	regs.rdx = a2;
	if (ptrace(PTRACE_SETREGS, tid, NULL, &regs) < 0 || ptrace(PTRACE_SINGLESTEP, tid, NULL, NULL) < 0)
		return -ESRCH;
	while (waitpid(tid, &status, __WALL) < 0)
		if (errno != EINTR)
			return -ESRCH;
	if (!WIFSTOPPED(status))
		return -ESRCH;
	if (WSTOPSIG(status) != SIGTRAP || (status >> 16) != 0) {
		if ((status >> 16) == 0)
			syscall(SYS_tkill, tid, WSTOPSIG(status));
		return -EINTR;
	}
	if (ptrace(PTRACE_GETREGS, tid, NULL, &regs) < 0)
		return -ESRCH;
	return (long)regs.rax;
}

/* kcov set up in a new task at its first stop; its fd and area kfootprint's; why on failure. */
static int enable_in(struct kc *r, pid_t tid, pid_t tgid, struct kc_task *kt, char *why, size_t len)
{
	struct user_regs_struct saved;
	uint64_t stack[8], ip, addr;
	size_t words = (strlen(r->path) + 8) / 8;
	long fd, rc;
	int pidfd = -1;
	errno = 0;

	if (ptrace(PTRACE_GETREGS, tid, NULL, &saved) < 0)
		return snprintf(why, len, "its registers: %s", strerror(errno)), -1;
	/* a new task stops where its fork-like call returns: right after that call's syscall instruction */
	ip = saved.rip - 2;
	long text = ptrace(PTRACE_PEEKTEXT, tid, (void *)ip, NULL);
	if (errno || (text & 0xffff) != 0x050f)
		return snprintf(why, len, "no syscall instruction where it stopped"), -1;
	/* the path, on its stack below the red zone, the words lent given back after */
	addr = ((saved.rsp - 128) & ~(uint64_t)15) - sizeof(stack);
	for (size_t i = 0; i < words; i++) {
		errno = 0;
		stack[i] = (uint64_t)ptrace(PTRACE_PEEKDATA, tid, (void *)(addr + 8 * i), NULL);
		if (errno)
			return snprintf(why, len, "its stack: %s", strerror(errno)), -1;
	}
	for (size_t i = 0; i < words; i++) {
		uint64_t w = 0;
		size_t n = strlen(r->path) + 1 - 8 * i;
		memcpy(&w, r->path + 8 * i, n > 8 ? 8 : n);
		ptrace(PTRACE_POKEDATA, tid, (void *)(addr + 8 * i), (void *)w);
	}
	fd = inject(tid, &saved, ip, SYS_openat, (uint64_t)AT_FDCWD, addr, O_RDWR);
	rc = fd;
	if (fd >= 0)
		rc = inject(tid, &saved, ip, SYS_ioctl, (uint64_t)fd, KCOV_INIT_TRACE, r->size);
	if (rc >= 0) {
		pidfd = (int)syscall(SYS_pidfd_open, tgid, 0);
		kt->fd = pidfd < 0 ? -1 : (int)syscall(SYS_pidfd_getfd, pidfd, (int)fd, 0);
		if (pidfd >= 0)
			close(pidfd);
		kt->area = kt->fd < 0 ? NULL : map_area(kt->fd, r->size);
		if (!kt->area)
			snprintf(why, len, "taking its kcov (pidfd_getfd, mmap): %s", strerror(errno));
	}
	if (rc >= 0 && kt->area)
		rc = inject(tid, &saved, ip, SYS_ioctl, (uint64_t)fd, KCOV_ENABLE, KCOV_TRACE_PC);
	if (rc < 0 && !why[0])
		snprintf(why, len, "a call run in it failed: %s", strerror((int)-rc));
	if (fd >= 0 && rc != -ESRCH)
		inject(tid, &saved, ip, SYS_close, (uint64_t)fd, 0, 0);
	for (size_t i = 0; i < words; i++)
		ptrace(PTRACE_POKEDATA, tid, (void *)(addr + 8 * i), (void *)stack[i]);
	ptrace(PTRACE_SETREGS, tid, NULL, &saved);
	return why[0] ? -1 : 0;
}
#else
static int enable_in(struct kc *r, pid_t tid, pid_t tgid, struct kc_task *kt, char *why, size_t len)
{
	(void)r, (void)tid, (void)tgid, (void)kt;
	snprintf(why, len, "kcov is set up in new tasks on x86_64 only");
	return -1;
}
#endif

static void drop(struct kc_task *kt, size_t size)
{
	if (kt->area)
		munmap(kt->area, size * sizeof(uint64_t));
	if (kt->fd >= 0)
		close(kt->fd);
}

static void rec_task_new(void *p, pid_t tid, pid_t tgid)
{
	struct kc *r = p;
	char why[256] = "";
	/* the thread group as the kernel has it: pidfd_open takes its leader only */
	long real = trace_status_field(tid, "Tgid:");
	if (real > 0)
		tgid = (pid_t)real;
	struct kc_task kt = {tid, tgid, -1, NULL};

	if (r->why_not)
		return; /* said once, for the whole run */
	if (enable_in(r, tid, tgid, &kt, why, sizeof(why)) < 0) {
		drop(&kt, r->size);
		not_covered(r, tid, tgid, why);
		return;
	}
	XGROW(r->live, r->cap, r->nlive + 1);
	r->live[r->nlive++] = kt;
}

static void rec_task_exit(void *p, pid_t tid, pid_t tgid)
{
	struct kc *r = p;

	if (r->gcov)
		return;
	if (tid == r->root && r->root_area) {
		take_area(r, tid, tgid, r->root_area);
		munmap(r->root_area, r->size * sizeof(uint64_t));
		r->root_area = NULL;
		return;
	}
	for (size_t i = 0; i < r->nlive; i++) {
		if (r->live[i].tid != tid)
			continue;
		take_area(r, tid, tgid, r->live[i].area);
		drop(&r->live[i], r->size);
		r->live[i] = r->live[--r->nlive];
		return;
	}
}

/* --kernel-lines-pcs: written beside and renamed, never half a file. */
static void write_pcs(const struct fp_klines *k, const char *path)
{
	char *tmp = xasprintf("%s.tmp.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "we");
	bool bad;

	if (!f) {
		perror_msg("--kernel-lines-pcs: '%s'", path);
		free(tmp);
		return;
	}
	fprintf(f, "# kfootprint kernel lines: kcov, release %s, build id %s, _text 0x%llx, lost %llu%s%s\n",
		k->kernel_release ? k->kernel_release : "?", k->build_id ? k->build_id : "?",
		(unsigned long long)k->runtime_text, (unsigned long long)k->lost, k->why_not ? ", why not: " : "",
		k->why_not ? k->why_not : "");
	for (uint32_t i = 0; i < k->ntasks; i++) {
		const struct fp_kline_task *t = &k->tasks[i];
		if (t->covered)
			fprintf(f, "task %d %d %s covered %llu %llu\n", (int)t->tid, (int)t->tgid,
				t->comm ? t->comm : "?", (unsigned long long)t->pcs, (unsigned long long)t->lost);
		else
			fprintf(f, "task %d %d %s uncovered %s\n", (int)t->tid, (int)t->tgid, t->comm ? t->comm : "?",
				t->why_not ? t->why_not : "");
	}
	for (uint32_t i = 0; i < k->npcs; i++)
		fprintf(f, "pc 0x%llx %llu\n", (unsigned long long)k->pcs[i].pc, (unsigned long long)k->pcs[i].hits);
	bad = ferror(f);
	if (fclose(f) != 0 || bad || rename(tmp, path) < 0) {
		perror_msg("--kernel-lines-pcs: '%s'", path);
		unlink(tmp);
	}
	free(tmp);
}

static void rec_finish(void *p, struct footprint *fp)
{
	struct kc *r = p;

	if (r->gcov) {
		kl_gcov_finish(r->gcov, fp);
		free(r->why_not);
		free(r);
		return;
	}
	if (fp && r->root_area)
		take_area(r, r->root, r->root, r->root_area);
	for (size_t i = 0; i < r->nlive; i++) {
		if (fp)
			take_area(r, r->live[i].tid, r->live[i].tgid, r->live[i].area);
		drop(&r->live[i], r->size);
	}
	if (r->root_area)
		munmap(r->root_area, r->size * sizeof(uint64_t));
	if (r->root_fd >= 0)
		close(r->root_fd);
	if (fp && r->k->lost)
		fprintf(stderr,
			"kfootprint: kernel lines: %llu task area(s) overflowed: PCs lost (--kernel-lines-area)\n",
			(unsigned long long)r->k->lost);
	if (fp && opts.pcs)
		write_pcs(r->k, opts.pcs);
	free(r->live);
	free(r->why_not);
	free(r);
}

const struct trace_recorder trace_recorder_kcov = {
    .name = "--kernel-lines",
    .options = options,
    .values = &opts,
    .check = rec_check,
    .new = rec_new,
    .add_pid = rec_add_pid,
    .start = rec_start,
    .finish = rec_finish,
    .task_new = rec_task_new,
    .task_exit = rec_task_exit,
    .before_exec = rec_before_exec,
    .needs_stops = "--kernel-lines: the %s backend cannot enable kcov in each new task: use -b %s",
};
