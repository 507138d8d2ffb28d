// SPDX-License-Identifier: GPL-2.0
/*
 * The bpf backend: a libbpf CO-RE skeleton (src/bpf/kfrec.bpf.c) counts the workload's calls in the kernel,
 * so the workload runs at near its untraced speed. This file checks that BPF can load, loads and attaches
 * the programs once, runs the observation loop and tears everything down on every path: the links belong
 * to this process, so even a crash leaves nothing attached.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/kfrec.h"
#include "kfrec.btf.h"
#include "kfrec.skel.h"
#include "trace/bpf_int.h"
#include "trace/contain.h"
#include "util/error.h"
#include "util/xalloc.h"

#define POLL_MS		  50	     /* the ring is read at least this often while the workload runs */
#define RING_SIZE	  (1u << 20) /* see docs/bpf.md for how this was sized */
#define RING_WAKE_AT	  (RING_SIZE / 4)
#define PROC_PID_INIT_INO 0xeffffffcu	/* include/linux/proc_ns.h: the initial pid namespace */
#define GIVE_UP_NS	  2000000000ull /* after SIGKILL: tasks stuck in the kernel are left behind, never waited on */
#define CAP_PERFMON_BIT	  38
#define CAP_BPF_BIT	  39
#define CAP_SYS_ADMIN_BIT 21

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int n;

	/* libbpf's own log, for -v (warnings) and -vv (debug); whole, while two threads load (bpf_load.c). */
	if (!kf_verbose || (level == LIBBPF_DEBUG && kf_verbose < 2))
		return 0;
	flockfile(stderr);
	fputs("kfootprint: libbpf: ", stderr);
	n = vfprintf(stderr, fmt, ap);
	funlockfile(stderr);
	return n;
}

/* The effective capability set of this process, from /proc (no libcap needed). */
static int effective_caps(unsigned long long *caps)
{
	char line[256];
	FILE *f = fopen("/proc/self/status", "re");
	int rc = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", caps) == 1) {
			rc = 0;
			break;
		}
	fclose(f);
	return rc;
}

static int usable(char *why, size_t len)
{
	unsigned long long caps = 0;
	bool cap_bpf, cap_perfmon, cap_admin;
	struct utsname u;
	int major = 0, minor = 0;

	if (effective_caps(&caps) < 0) {
		snprintf(why, len, "cannot read the capabilities in /proc/self/status");
		return -1;
	}
	cap_bpf = caps & (1ull << CAP_BPF_BIT);
	cap_perfmon = caps & (1ull << CAP_PERFMON_BIT);
	cap_admin = caps & (1ull << CAP_SYS_ADMIN_BIT);
	if (!cap_admin && !(cap_bpf && cap_perfmon)) {
		snprintf(why, len, "needs root or CAP_BPF and CAP_PERFMON (missing%s%s)", cap_bpf ? "" : " CAP_BPF",
			 cap_perfmon ? "" : " CAP_PERFMON");
		return -1;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) < 0) {
		snprintf(why, len, "no kernel BTF: '/sys/kernel/btf/vmlinux': %s (CONFIG_DEBUG_INFO_BTF)",
			 strerror(errno));
		return -1;
	}
	/*
	 * Task storage, which follows each task cheaply, came in Linux 5.11. Asked of the version, not by
	 * creating a probe map: that costs 5-15 ms of start-up here.
	 */
	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "?");
	if (sscanf(u.release, "%d.%d", &major, &minor) != 2 || major < 5 || (major == 5 && minor < 11)) {
		snprintf(why, len, "kernel %s lacks BPF task storage (needs Linux 5.11 or later)", u.release);
		return -1;
	}
	debug("backend bpf: usable (capabilities %s, kernel BTF present)",
	      cap_admin ? "CAP_SYS_ADMIN" : "CAP_BPF+CAP_PERFMON");
	return 0;
}

/*
 * Pids are reported as kfootprint's own pid namespace sees them (under `unshare -fp`, in a container): the
 * kernel side is given its inode, or 0 for the initial namespace, whose numbers it has at hand.
 */
static uint32_t own_pidns(void)
{
	struct stat st;

	if (stat("/proc/self/ns/pid", &st) < 0 || st.st_ino == PROC_PID_INIT_INO)
		return 0;
	return (uint32_t)st.st_ino;
}

/* Whether /proc numbers processes as kfootprint's namespace does (it may be the host's /proc). */
static bool proc_is_own_ns(void)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);

	if (n <= 0)
		return true;
	buf[n] = '\0';
	return atoi(buf) == (int)getpid();
}

/* The kernel side's constants, from kfootprint's syscall tables. */
static void fill_rodata(struct kfrec_bpf__rodata *ro, bool with_time)
{
	int nopen = 0;

	ro->with_time = with_time;
	ro->pidns_ino = own_pidns();
	ro->ring_wake_at = RING_WAKE_AT;
	for (int i = 0; i < KF_BPF_OPEN_MAX; i++)
		ro->open_sc[i].nr = -1;
	for (int a = 0; a < KF_ABI_NR; a++) {
		enum kf_abi abi = (enum kf_abi)a;
		size_t n = kf_syscall_count(abi);

		if (!kf_abi_get(abi)->bpf || abi >= KF_BPF_NABI)
			continue;
		ro->nr_exit[abi] = ro->nr_exit_group[abi] = ro->nr_execve[abi] = ro->nr_rt_sigreturn[abi] = -2;
		for (size_t i = 0; i < n; i++) {
			const struct kf_syscall *sc = kf_syscall_at(abi, i);

			if (sc->flags & KF_SC_NORETURN)
				*(strcmp(sc->name, "exit") ? &ro->nr_exit_group[abi] : &ro->nr_exit[abi]) = sc->nr;
			if ((sc->flags & KF_SC_EXEC) && !strcmp(sc->name, "execve"))
				ro->nr_execve[abi] = sc->nr;
			if (!strcmp(sc->name, "rt_sigreturn"))
				ro->nr_rt_sigreturn[abi] = sc->nr;
			/* A failure of these sends its path (KF_EV_FAIL); bpf_sends_path() says the same. */
			if ((sc->flags & KF_SC_PATH) && sc->path_arg >= 0 && sc->path_arg < 6 && sc->nr >= 0 &&
			    sc->nr < KF_BPF_OPEN_NR_MAX)
				ro->path_slot[abi * KF_BPF_OPEN_NR_MAX + sc->nr] = (__u8)(sc->path_arg + 1);
			if (!(sc->flags & KF_SC_OPEN) || sc->nr < 0 || sc->nr >= KF_BPF_OPEN_NR_MAX)
				continue;
			if (nopen == KF_BPF_OPEN_MAX) {
				warning("bpf: more open-like calls than %d: '%s' not followed", KF_BPF_OPEN_MAX,
					sc->name);
				continue;
			}
			ro->open_slot[abi * KF_BPF_OPEN_NR_MAX + sc->nr] = (__u8)(nopen + 1);
			ro->open_sc[nopen].nr = sc->nr;
			ro->open_sc[nopen].abi = (__u8)abi;
			ro->open_sc[nopen].path_arg = sc->path_arg;
			ro->open_sc[nopen].flags_arg = (sc->flags & KF_SC_CREAT) ? -1 : sc->flags_arg;
			ro->open_sc[nopen].how = !!(sc->flags & KF_SC_OPEN_HOW);
			nopen++;
		}
	}
}

static struct fp_exit status_exit(int status)
{
	struct fp_exit how = {.kind = FP_EXIT_CODE, .value = WEXITSTATUS(status)};

	if (WIFSIGNALED(status)) {
		how.kind = FP_EXIT_SIGNAL;
		how.value = WTERMSIG(status);
		how.core = WCOREDUMP(status);
	}
	return how;
}

static void try_reap(struct bpf_session *s)
{
	int status;

	if (!s->root || s->root_reaped)
		return;
	if (waitpid(s->root, &status, WNOHANG) == s->root) {
		s->root_reaped = true;
		s->root_status = status;
	}
}

/* The live status line: calls from the kernel side's per-CPU counters, losses from its .bss. */
static void progress(struct bpf_session *s)
{
	const struct kfrec_bpf__bss *b = s->skel->bss;
	uint64_t calls = 0;

	for (int i = 0; i < KF_BPF_CPU_MAX; i++)
		calls += __atomic_load_n(&b->cpu_calls[i].calls, __ATOMIC_RELAXED);
	trace_progress(s->opts, s->fp, calls, s->nlive, b->lost_events + b->lost_stats + b->lost_tasks);
}

/* Observes until every followed task has ended, or until -d / a stop signal ends observation. */
static int observe(struct bpf_session *s)
{
	const struct trace_opts *o = s->opts;
	struct trace_end end;
	uint64_t give_up_at = 0;
	/* the command's end wakes the wait at once: its reaping is what ends most runs, and a 1 ms nap was 10% of one
	 */
	int rootfd = s->root ? (int)syscall(SYS_pidfd_open, s->root, 0) : -1;
	struct pollfd pf[2] = {{.fd = ring_buffer__epoll_fd(s->rb), .events = POLLIN},
			       {.fd = rootfd, .events = POLLIN}};
	int ret = 0;

	trace_end_init(&end, o);
	for (;;) {
		/* Once the last known process ended, only the kernel's task count and the reaping remain. */
		bool wait_root = rootfd >= 0 && !s->root_reaped;
		int timeout = s->nlive || wait_root ? POLL_MS : 1;
		int n = poll(pf, wait_root ? 2 : 1, timeout) < 0 ? -errno : 0;
		uint64_t kept;

		/* Woken or not, read what waits: wake-ups come only when the ring fills up (RING_WAKE_AT). */
		if (n >= 0 || n == -EINTR)
			n = ring_buffer__consume(s->rb);
		if (n < 0 && n != -EINTR) {
			ret = error("bpf: reading the event ring: %s", strerror(-n));
			break;
		}
		try_reap(s);
		if (o->progress)
			progress(s);
		/* Ended processes whose end the ring could not carry: their records wait in the kernel. */
		kept = __atomic_load_n(&s->skel->bss->kept_ended, __ATOMIC_RELAXED);
		if (kept != s->kept_seen) {
			s->kept_seen = kept;
			if (bpf_read_procs(s, true)) {
				ret = -1;
				break;
			}
		}
		/* Half full: move the final counts of ended processes out, so long workloads never fill it. */
		if (__atomic_load_n(&s->skel->bss->nstats, __ATOMIC_RELAXED) - s->stats_drained >
			bpf_map__max_entries(s->skel->maps.stats) / 2 &&
		    bpf_read_stats(s, true)) {
			ret = -1;
			break;
		}
		if (__atomic_load_n(&s->skel->bss->nreach, __ATOMIC_RELAXED) - s->reach_drained > KF_REACH_MAX / 2 &&
		    bpf_read_reach(s, true)) {
			ret = -1;
			break;
		}
		/* The workload's cgroup, when it has one, also knows of a process whose fork event was lost. */
		if (__atomic_load_n(&s->skel->bss->live_tasks, __ATOMIC_SEQ_CST) <= 0 && (!s->root || s->root_reaped) &&
		    contain_empty(o->contain))
			break;
		/* Ending observation: contain.c signals the whole workload, not only the processes seen so far. */
		if (trace_end_step(&end, o, s->fp) == TRACE_END_DETACH)
			break;
		if (end.killed && !give_up_at) {
			give_up_at = fp__now_ns() + GIVE_UP_NS;
		} else if (give_up_at && fp__now_ns() >= give_up_at) {
			warning("bpf: workload tasks still running after SIGKILL: leaving them");
			break;
		}
	}
	if (rootfd >= 0)
		close(rootfd);
	return ret;
}

/* Runs of a program the kernel skipped because it was already running on that CPU (a nested event). */
static uint64_t prog_misses(struct bpf_session *s, const char *name)
{
	struct bpf_prog_info info;

	return bpf_prog_stats(s, name, &info) ? info.recursion_misses : 0;
}

/*
 * Whatever could not be recorded makes the footprint incomplete, with the reason: exec and open events
 * the ring had no room for, calls no map had room for, tasks that could not be followed, and calls the
 * kernel did not run our program for.
 */
static void account_losses(struct bpf_session *s)
{
	const struct kfrec_bpf__bss *b = s->skel->bss;
	uint64_t misses = prog_misses(s, "kf_sys_enter") + prog_misses(s, "kf_sys_exit") +
			  prog_misses(s, "kf_sys_exit_cast") + prog_misses(s, "kf_exit") + prog_misses(s, "kf_fork") +
			  prog_misses(s, "kf_exec") + prog_misses(s, "kf_misc");
	uint64_t lost =
	    b->lost_events + b->lost_stats + b->lost_tasks + b->lost_reach + misses + s->lost_live + b->unsure_lost;
	const struct {
		uint64_t n;
		const char *what;
	} parts[] = {{b->lost_events, "exec/open events (ring full)"},
		     {b->lost_stats, "calls (maps full)"},
		     {b->lost_tasks, "tasks not followed (maps full)"},
		     {b->lost_reach, "refinements (map full)"},
		     {misses, "program runs the kernel skipped"},
		     {s->lost_live, "calls of tasks alive at the end (no memory to take them)"},
		     {b->unsure_lost, "tasks ending at the end whose counts may be counted twice"}};
	char why[320];
	int n;

	debug("backend bpf: %llu ring events (%llu KB), ring %u KB, at most %llu KB waiting",
	      (unsigned long long)s->events, (unsigned long long)s->bytes >> 10, RING_SIZE >> 10,
	      (unsigned long long)b->ring_high >> 10);
	debug("backend bpf: %llu process records taken out of the kernel while running; %llu forks and %llu ends "
	      "the ring could not carry (the records told them), %llu processes without a record, %llu spilled "
	      "counters",
	      (unsigned long long)s->recs_taken, (unsigned long long)b->late_forks, (unsigned long long)b->kept_ended,
	      (unsigned long long)b->norec_procs, (unsigned long long)b->nstats);
	if (!lost)
		return;
	/* Only what was lost, with its cause: "lost events: 12 exec/open events (ring full)". */
	n = snprintf(why, sizeof(why), "lost events:");
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (parts[i].n && n < (int)sizeof(why))
			n += snprintf(why + n, sizeof(why) - (size_t)n, "%s %llu %s", n > 12 ? "," : "",
				      (unsigned long long)parts[i].n, parts[i].what);
	debug("backend bpf: %s", why);
	fp__set_incomplete(s->fp, why);
	fp__lost(s->fp, lost);
}

/* The BTF CO-RE relocates against: what the program cache's key says of it (bpf_cache.c). */
struct btf_choice {
	const char *what; /* "full" or the kernel the minimal one is of */
	const void *btf;  /* the minimal BTF, NULL for the full one */
	size_t len;
};

/* A minimal BTF into a memfd for libbpf's btf_custom_path, or -1. */
static int btf_memfd(const unsigned char *btf, size_t len)
{
	int fd = memfd_create("kfrec.btf", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, btf, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * CO-RE needs the running kernel's BTF. Parsing all of /sys/kernel/btf/vmlinux costs ~120 ms here (0.5 s in a
 * TCG guest's boot), more than many workloads run; when this is a kernel the build cut a minimal BTF for (same
 * build-id notes: the build kernel's, or one of BTF_KERNELS), that BTF is exactly what the parse would find.
 * Returns a memfd, or -1: full BTF. *build_kernel: the build kernel's, whose kfunc ids kf_sys_exit_cast holds.
 */
static int min_btf_fd(bool *build_kernel, struct btf_choice *bc)
{
	unsigned char notes[4096];
	ssize_t n = -1;
	int fd;

	*build_kernel = false;
	*bc = (struct btf_choice){"full", NULL, 0};
	fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, notes, sizeof(notes));
		close(fd);
	}
	if (n > 0 && n < (ssize_t)sizeof(notes) && sizeof(kfrec_min_btf) > 1 &&
	    n == (ssize_t)sizeof(kfrec_btf_notes) - 1 && !memcmp(notes, kfrec_btf_notes, (size_t)n)) {
		debug("backend bpf: the build kernel: CO-RE against its minimal BTF (%zu bytes)",
		      sizeof(kfrec_min_btf) - 1);
		*build_kernel = true;
		*bc = (struct btf_choice){"build kernel", kfrec_min_btf, sizeof(kfrec_min_btf) - 1};
		return btf_memfd(kfrec_min_btf, sizeof(kfrec_min_btf) - 1);
	}
	for (size_t i = 0; n > 0 && n < (ssize_t)sizeof(notes) && kfrec_btf_kernels[i].name; i++) {
		if (n != (ssize_t)kfrec_btf_kernels[i].notes_len ||
		    memcmp(notes, kfrec_btf_kernels[i].notes, (size_t)n) || !kfrec_btf_kernels[i].btf_len)
			continue;
		debug("backend bpf: a BTF_KERNELS kernel (%s): CO-RE against its minimal BTF (%u bytes)",
		      kfrec_btf_kernels[i].name, kfrec_btf_kernels[i].btf_len);
		*bc = (struct btf_choice){kfrec_btf_kernels[i].name, kfrec_btf_kernels[i].btf,
					  kfrec_btf_kernels[i].btf_len};
		return btf_memfd(kfrec_btf_kernels[i].btf, kfrec_btf_kernels[i].btf_len);
	}
	debug("backend bpf: not the build kernel: CO-RE against the full kernel BTF");
	return -1;
}

/* CPU time of this process (its threads too), in ms: -v's account of start-up and teardown. */
static double self_cpu_ms(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static int run(const struct trace_opts *opts, struct footprint *fp)
{
	double c_load = self_cpu_ms(), c_end = 0;
	struct bpf_session s = {.opts = opts, .fp = fp};
	struct bpf_program *cast_prog;
	bool with_time = !opts->no_time;
	uint64_t t_load, t_run = 0, t_end = 0;
	int go_fd = -1, err, ret = -1;

	fp->error_sources = true; /* each failure's process and path (src/trace/bpf_events.c) */

	LIBBPF_OPTS(bpf_object_open_opts, oo);
	struct rusage ru;
	char btf_path[64];
	const char *step;
	int btf_fd = -1, cached = 0;
	bool cast, build_kernel, no_cache = false, cache_ok = true;
	struct btf_choice bc;

	libbpf_set_print(print_libbpf);
	t_load = fp__now_ns();
	/* The command first, held: its fork and set-up overlap the loading, and the fork copies less. */
	if (opts->argv && bpf_start_command(&s, &go_fd))
		return -1;
	btf_fd = min_btf_fd(&build_kernel, &bc);
	if (btf_fd >= 0) {
		snprintf(btf_path, sizeof(btf_path), "/proc/self/fd/%d", btf_fd);
		oo.btf_custom_path = btf_path;
	}
	/* sys_exit reading files with plain loads: its kfunc's id is the build kernel's (src/bpf/kffile.bpf.h) */
	cast = btf_fd >= 0 && build_kernel && opts->reach;
	/* The hand-over of live tasks' counts at the end reads /proc and opens pidfds as kfootprint numbers tasks. */
	s.proc_is_ns = proc_is_own_ns();
	s.per_task = s.proc_is_ns && bpf_per_task_usable();
reopen:
	s.skel = kfrec_bpf__open_opts(&oo);
	if (!s.skel) {
		perror_msg("bpf: opening the programs");
		goto out;
	}
	fill_rodata(s.skel->rodata, with_time);
	s.skel->rodata->per_task = s.per_task;
	s.skel->rodata->with_progress = opts->progress;
	bpf_reach_setup(&s, opts->reach);
	s.skel->rodata->with_csite_reach = opts->reach && trace_recording_joins_bpf(opts->joins);
	memcpy(s.path_slot, (const void *)s.skel->rodata->path_slot, sizeof(s.path_slot));
	bpf_map__set_max_entries(s.skel->maps.events, RING_SIZE);
	if (!s.rec)
		s.rec = xcalloc(1, sizeof(struct kf_proc_rec));
	if (!with_time)
		bpf_program__set_autoload(s.skel->progs.kf_sys_enter, false);
	cast_prog = bpf_object__find_program_by_name(s.skel->obj, "kf_sys_exit_cast");
	cast = cast && cast_prog;
	if (cast_prog)
		bpf_program__set_autoload(cast_prog, cast);
	bpf_program__set_autoload(s.skel->progs.kf_sys_exit, !cast);
	/* What an earlier run loaded with the same key, when it can be taken (bpf_cache.c); else a load. */
	cached = no_cache ? 0 : bpf_cache_open(&s, bc.what, bc.btf, bc.len);
	if (cached < 0) {
		kfrec_bpf__destroy(s.skel);
		no_cache = true;
		goto reopen;
	}
	/* -vv: bpf_load() asks for the verifier's statistics per program (time, instructions walked). */
	err = cached ? 0 : bpf_load(&s, btf_fd >= 0 ? btf_path : NULL);
	if (err && cast) {
		debug("backend bpf: sys_exit with plain loads refused (%s): the one with helper reads instead",
		      strerror(-err));
		bpf_cache_close(&s, false);
		bpf_unload(&s);
		kfrec_bpf__destroy(s.skel);
		cast = false;
		goto reopen;
	}
	debug("backend bpf: files read with %s", cast ? "plain loads (bpf_rdonly_cast)" : "helper reads");
	if (err) {
		error("bpf: loading the programs: %s%s", strerror(-err), kf_verbose ? "" : " (-v shows libbpf's log)");
		goto out;
	}
	if (!cached)
		s.run_gen = s.skel->bss->run_gen = 1; /* fresh maps: any generation */
	s.skel->bss->next_proc = opts->argv ? 2 : (uint32_t)opts->npids + 1;
	debug("backend bpf: opened and %s in %.1f ms (CPU %.1f ms)", cached ? "taken from the cache" : "loaded",
	      (double)(fp__now_ns() - t_load) / 1e6, self_cpu_ms() - c_load);
	/* The ring first: the other CPU may still be verifying programs (bpf_load.c). */
	s.rb = ring_buffer__new(bpf_map__fd(s.skel->maps.events), bpf_on_event, &s, NULL);
	if (!s.rb) {
		perror_msg("bpf: opening the event ring");
		goto out;
	}
	err = bpf_attach(&s, &step);
	if (btf_fd >= 0)
		close(btf_fd); /* every load has relocated against it */
	btf_fd = -1;
	if (err) {
		error("bpf: %s the programs: %s", step, strerror(-err));
		goto out;
	}
	if (opts->argv ? bpf_follow_command(&s) : bpf_attach_pids(&s))
		goto out;
	if (opts->joins) {
		struct trace_bpf_shared sh = {.tasks_fd = bpf_map__fd(s.skel->maps.tasks),
					      .fsnames_fd = bpf_map__fd(s.skel->maps.fsnames),
					      .run_gen = s.run_gen,
					      .reach = s.skel->rodata->with_csite_reach};

		trace_recording_bpf_ready(opts->joins, &sh);
	}
	debug("backend bpf: loaded and attached in %.1f ms (CPU %.1f ms; %s%s)", (double)(fp__now_ns() - t_load) / 1e6,
	      self_cpu_ms() - c_load, with_time ? "calls, errors, time" : "calls and errors, no time",
	      s.per_task ? "; calls counted per task" : "");
	if (go_fd >= 0) {
		err = bpf_release_command(&s, go_fd);
		go_fd = -1;
		if (err)
			goto out;
	}
	t_run = fp__now_ns();
	if (observe(&s))
		goto out;
	t_end = fp__now_ns();
	c_end = self_cpu_ms();
	/* Detach first: what is read below no longer moves. The counting first, then the live tasks' counts taken. */
	if (bpf_take_live(&s))
		goto out;
	bpf_detach(&s, NULL);
	if (bpf_count_at_attach(&s))
		goto out;
	/* Nothing runs now: user space's claims on live tasks can go, which the next run's cached maps must not see. */
	if (bpf_cache_held(&s) && bpf_release_claims(&s))
		cache_ok = false;
	debug("backend bpf: workload ran %.1f ms, detached in %.1f ms (CPU %.1f ms)", (double)(t_end - t_run) / 1e6,
	      (double)(fp__now_ns() - t_end) / 1e6, self_cpu_ms() - c_end);
	ring_buffer__consume(s.rb);
	if (bpf_read_procs(&s, false) || bpf_read_stats(&s, false) || bpf_read_reach(&s, false))
		goto out;
	bpf_apply_live(&s);
	bpf_order_procs(&s);
	account_losses(&s);
	bpf_reach_debug(&s);
	if (s.root_reaped)
		fp->exit = status_exit(s.root_status);
	else if (!s.root && bpf_proc(&s, 1))
		fp->exit = bpf_proc(&s, 1)->exit;
	ret = 0;
out:
	if (go_fd >= 0)
		close(go_fd); /* the held child exits 127 without running the command */
	/* A failure ends observation too: the workload gets the same treatment (contain.h). */
	if (ret < 0 && s.root && !s.root_reaped && !opts->keep_running)
		waitpid(s.root, NULL, contain_terminate(opts->contain) ? 0 : WNOHANG);
	t_end = fp__now_ns();
	c_end = self_cpu_ms();
	ring_buffer__free(s.rb);
	/* An orderly end leaves the cache clean (pinning a fresh load); any other, dropped by the next run. */
	bpf_cache_close(&s, ret == 0 && cache_ok);
	bpf_unload(&s); /* first: a load still running in a thread reads the skeleton's maps */
	kfrec_bpf__destroy(s.skel);
	if (btf_fd >= 0)
		close(btf_fd);
	debug("backend bpf: freed in %.1f ms (CPU %.1f ms)", (double)(fp__now_ns() - t_end) / 1e6,
	      self_cpu_ms() - c_end);
	if (kf_verbose && !getrusage(RUSAGE_SELF, &ru))
		debug("backend bpf: peak RSS %ld KB (the footprint, the ring's pages read)", ru.ru_maxrss);
	free(s.byproc);
	free(s.rec);
	free(s.live);
	free(s.at_attach);
	return ret;
}

const struct backend backend_bpf = {"bpf", usable, run};
