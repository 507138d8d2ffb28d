// SPDX-License-Identifier: GPL-2.0
/*
 * record -b bpf --call-sites (csite_int.h): src/bpf/kfcsite.bpf.c, loaded only when asked, sends sampled calls of
 * the workload with the task's user registers, its frame-pointer stack and a copy of the top of its user stack
 * through a ring buffer; a thread here unwinds each one with libdw's CFI while the workload runs, as perf's
 * unwind-libdw does with PERF_SAMPLE_STACK_USER: a Dwfl per program image (its modules from /proc/PID/maps, in
 * csite_sym.c's cache) attached to our own state, whose memory is the copy first, /proc/PID/mem past it.
 *
 * The started command's processes have their mappings from perf's records (bpf_cmaps.c), which name the image an
 * event was made in by its time and keep its mappings once the process is gone: short-lived processes, whose
 * /proc/PID/maps is empty by the time their events are read, are symbolized too. Processes followed by -p (and
 * all when perf_event_open refuses, or records were lost) have theirs from /proc/PID/maps: there a program image
 * is (tgid, start time, execs seen), and an event's image must still be the process's after its maps
 * were read, or its maps are of another program and the event counts as unwound_none rather than mis-symbolized.
 * Where the CFI gives less than a frame beyond the innermost (no CFI, a process gone before its maps were read),
 * the frame-pointer stack is taken. Calls the kernel side did not send (sampled away, or dropped on a full ring
 * buffer) are counted per key as unsampled at the end: a key's stacks are then a sample, and say so.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "abi/abi.h"
#include "abi/syscalls.h"
#include "bpf/kfcsite.h"
#include "kfcsite.skel.h"
#include "trace/bpf_int.h"
#include "trace/csite_int.h"
#include "trace/trace.h"
#include "util/error.h"
#include "util/xalloc.h"

#define CSB_ALWAYS   32		/* the first calls of each (syscall, errno) always unwound */
#define CSB_EVERY    16		/* past them, one call in CSB_EVERY */
#define CSB_RECORDED (1u << 31) /* the gen of the images from perf's records, in the cache beside the others */
#define CSB_REACHED  128	/* ptrace's reached: what a call reached, "kind value[, kind value]" */

_Static_assert(sizeof(struct kf_reach_key) == 64, "reach_add() (kfreach.bpf.h) hashes a key as its 8 words");

/* A task to follow, given before the programs are loaded (they load once the backend's are: csb_ready()). */
struct csb_pending {
	__u32 tid;
	__u8 value; /* the tasks map's: 1 followed, 0 the held command */
};

/* What the calls of a kernel-side key reached (its hash, from its first event), for its unsampled calls. */
struct csb_reached {
	__u32 hash;
	char *reached;
};

struct csb {
	struct fp_csites *cs;
	uint32_t depth;
	struct kfcsite_bpf *skel;
	struct ring_buffer *rb;
	pthread_t thread;
	bool running;
	bool held;    /* the next pid is the started command, held before its exec: followed from the exec */
	bool prepare; /* execs are counted before their new mappings (sched_prepare_exec) */
	atomic_bool stop;
	struct cs_cache cache;
	struct csm *maps; /* the started command's mappings, from perf's records; NULL: /proc/PID/maps only */
	bool loaded;	  /* csb_ready() loaded and attached the programs */
	bool start;	  /* csb_start() was asked before that */
	struct csb_pending *pending;
	size_t npending, pending_cap;
	int fsnames; /* the backend's map of filesystem type names, which reach keys give by address */
	struct csb_reached *reached;
	size_t nreached, reached_cap;
	uint64_t recorded;					/* -v: events of images from the records */
	uint64_t events, by_cfi, fp_agrees, by_fp, none, stale; /* -v's figures */
};

/* The current image of tgid as the kernel side counts its execs (0: none seen, or the process is gone). */
static uint32_t gen_now(const struct csb *b, pid_t tgid)
{
	__u32 key = (__u32)tgid, gen = 0;

	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.gens), &key, &gen))
		gen = 0;
	return gen;
}

/* Whether /proc/PID is still the process and program image the event was made in. */
static bool same_image(const struct csb *b, const struct kfc_event *e)
{
	struct trace_stat st;
	long hz = sysconf(_SC_CLK_TCK);

	if (trace_read_stat((pid_t)e->tgid, &st) < 0 || hz <= 0)
		return false;
	return st.start == e->start / (1000000000ull / (unsigned long long)hz) && gen_now(b, (pid_t)e->tgid) == e->gen;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	const struct cs_proc *p = arg;
	const struct kfc_event *e = p->cur;

	(void)dwfl;
	if (*thread_argp || !e)
		return 0;
	*thread_argp = arg;
	return (pid_t)e->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	const struct cs_proc *p = arg;
	const struct kfc_event *e = p->cur;

	(void)dwfl;
	*thread_argp = arg;
	return e && (pid_t)e->tid == tid;
}

/* The copy of the stack where it holds addr, the live process's memory past it. */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct cs_proc *p = arg;
	const struct kfc_event *e = p->cur;
	char path[64];

	(void)dwfl;
	if (!e)
		return false;
	if (addr >= e->sp && addr - e->sp <= e->stack_len && e->stack_len - (addr - e->sp) >= sizeof(*result)) {
		memcpy(result, e->stack + (addr - e->sp), sizeof(*result));
		return true;
	}
	if (p->mem_fd == -2)
		return false;
	if (p->mem_fd < 0) {
		snprintf(path, sizeof(path), "/proc/%u/mem", e->tgid);
		p->mem_fd = open(path, O_RDONLY | O_CLOEXEC);
		if (p->mem_fd < 0)
			return false;
	}
	p->mem_reads++;
	return pread(p->mem_fd, result, sizeof(*result), (off_t)addr) == (ssize_t)sizeof(*result);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	const struct cs_proc *p = arg;
	const struct kfc_event *e = p->cur;
#if defined(__x86_64__)
	/* DWARF's x86-64 numbering: 6 rbp, 7 rsp; the pc apart */
	Dwarf_Word regs[2] = {e->bp, e->sp};

	if (!dwfl_thread_state_registers(thread, 6, 2, regs))
		return false;
	dwfl_thread_state_register_pc(thread, e->ip);
	return true;
#else
	(void)thread;
	(void)e;
	return false;
#endif
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
    .next_thread = next_thread,
    .get_thread = get_thread,
    .memory_read = memory_read,
    .set_initial_registers = set_initial_registers,
};

/* The modules of the event's image again, as they are now (a library mapped since): 0 or -1. */
static int report_again(struct csb *b, struct cs_proc *p, const struct kfc_event *e)
{
	if (p->recorded) {
		p->reported = e->time;
		return csm_report(b->maps, p->dwfl, (pid_t)e->tgid, p->gen & ~CSB_RECORDED, e->time);
	}
	return same_image(b, e) ? cs_report_maps(p) : -1;
}

/* The event's image, attached to our state when new; NULL when its maps cannot be had as they were. */
static struct cs_proc *image_of(struct csb *b, const struct kfc_event *e)
{
	bool fresh;
	uint32_t image = b->maps ? csm_image(b->maps, (pid_t)e->tgid, e->time) : 0;
	struct cs_proc *p;

	if (image) {
		b->recorded++;
		p = cs_cache_get(&b->cache, (pid_t)e->tgid, e->start, CSB_RECORDED | image, false, &fresh);
		if (fresh && !p->broken) {
			p->recorded = true;
			/* its memory past the stack's copy only while it is still this image */
			if (!same_image(b, e))
				p->mem_fd = -2;
			if (report_again(b, p, e) < 0 ||
			    !dwfl_attach_state(p->dwfl, NULL, (pid_t)e->tgid, &thread_callbacks, p))
				p->broken = true;
		} else if (!p->broken && csm_newer(b->maps, (pid_t)e->tgid, image, p->reported, e->time) &&
			   report_again(b, p, e) < 0) {
			p->broken = true;
		}
		return p;
	}
	p = cs_cache_get(&b->cache, (pid_t)e->tgid, e->start, e->gen, true, &fresh);
	if (fresh && !p->broken) {
		if (!same_image(b, e)) {
			p->broken = true;
			b->stale++;
		} else if (!dwfl_attach_state(p->dwfl, NULL, (pid_t)e->tgid, &thread_callbacks, p)) {
			p->broken = true;
		}
	}
	return p;
}

static uint32_t unwind(struct csb *b, struct cs_proc *p, const struct kfc_event *e, Dwarf_Addr *pc)
{
	uint32_t n;

	p->cur = e;
	p->mem_reads = 0;
	n = cs_unwind(p->dwfl, (pid_t)e->tid, b->depth, pc);
	p->cur = NULL;
	/* frames read from /proc/PID/mem after an exec would be the new program's: none rather than wrong ones */
	if (p->mem_reads && gen_now(b, (pid_t)e->tgid) != e->gen)
		n = 0;
	return n;
}

/* A key's reach keys as a string, kept by the key's hash. */
static const char *remember(struct csb *b, __u32 hash, const struct kf_reach_key *keys, __u32 n)
{
	char s[CSB_REACHED];

	if (!n || n > KF_REACH_LAST)
		return NULL;
	bpf_reach_format(b->fsnames, keys, n, s, sizeof(s));
	if (!s[0])
		return NULL;
	XGROW(b->reached, b->reached_cap, b->nreached + 1);
	b->reached[b->nreached] = (struct csb_reached){hash, xstrdup(s)};
	return b->reached[b->nreached++].reached;
}

/* The string kept for hash; NULL when none is (a workload's calls make tens of keys: a scan). */
static const char *known(const struct csb *b, __u32 hash)
{
	for (size_t i = 0; hash && i < b->nreached; i++)
		if (b->reached[i].hash == hash)
			return b->reached[i].reached;
	return NULL;
}

/*
 * What the calls of the key with this hash reached: as an event brought it, else as the kernel side kept it when
 * it made the key (every event of a key may have been lost); NULL for nothing.
 */
static const char *reached_by_hash(struct csb *b, __u32 hash)
{
	const char *s = known(b, hash);
	struct kf_reach_last l;

	if (s || !hash || bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.key_reach), &hash, &l))
		return s;
	return remember(b, hash, l.keys, l.n);
}

/* What the event's call reached, as ptrace says it; NULL for nothing. */
static const char *reached_of(struct csb *b, const struct kfc_event *e)
{
	const char *s = known(b, e->reach_hash);

	return s ? s : remember(b, e->reach_hash, e->reach, e->nreach);
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct csb *b = ctx;
	const struct kfc_event *e = data;
	char buf[64];
	Dwarf_Addr pc[FP_CSITE_DEPTH_MAX];
	uint32_t n = 0;
	struct cs_proc *p;
	struct fp_csite_key *k;
	const struct kf_syscall *row;

	if (size < sizeof(*e))
		return 0;
	b->events++;
	if (b->maps) /* the mappings made before the call are in the records by now */
		csm_drain(b->maps);
	k = fp__csite_key(b->cs, kf_syscall_name(kf_abi_host(), e->nr, buf, sizeof(buf)), e->err, reached_of(b, e));
	row = kf_syscall_by_nr(kf_abi_host(), e->nr);
	if (row && (row->flags & KF_SC_EXEC) && !e->err) { /* as with ptrace: the stack that made it is gone */
		fp_csite_add(k, NULL, 0, 1);
		return 0;
	}
	p = image_of(b, e);
	if (!p->broken) {
		n = unwind(b, p, e, pc);
		/* a frame outside every module known: a library mapped since its maps were read, once more */
		if (n && !dwfl_addrmodule(p->dwfl, pc[n - 1]) && report_again(b, p, e) == 0)
			n = unwind(b, p, e, pc);
	}
	if (n >= 2) {
		uint32_t same = 1;

		b->by_cfi++;
		while (same < n && same < e->nfp && e->fp[same] == pc[same] + 1)
			same++;
		if (same == n || same == e->nfp)
			b->fp_agrees++;
	} else if (e->nfp > n && !p->broken) {
		n = e->nfp < b->depth ? e->nfp : b->depth;
		for (uint32_t i = 0; i < n; i++) /* return addresses, but the first */
			pc[i] = i ? e->fp[i] - 1 : e->fp[i];
		b->by_fp++;
	}
	if (!n)
		b->none++;
	cs_add_stack(k, p->dwfl, pc, n, 1);
	return 0;
}

static void *poll_loop(void *arg)
{
	struct csb *b = arg;

	while (!atomic_load(&b->stop)) {
		int rc = ring_buffer__poll(b->rb, 100);

		if (rc < 0 && rc != -EINTR) {
			warning("--call-sites: reading the ring buffer: %s", strerror(-rc));
			break;
		}
	}
	return NULL;
}

/* libbpf's messages as the backend's (bpf.c), which sets its own only later: -v, and -vv for the verifier's log */
static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!kf_verbose || (level == LIBBPF_DEBUG && kf_verbose < 2))
		return 0;
	fputs("kfootprint: libbpf: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

static void csb_free(struct csb *b)
{
	for (size_t i = 0; i < b->nreached; i++)
		free(b->reached[i].reached);
	free(b->reached);
	free(b->pending);
	if (b->fsnames >= 0)
		close(b->fsnames);
	ring_buffer__free(b->rb);
	kfcsite_bpf__destroy(b->skel);
	csm_free(b->maps);
	cs_cache_free(&b->cache);
	free(b);
}

struct csb *csb_new(struct footprint *fp, uint32_t depth, char *why, size_t len)
{
	struct csb *b = xcalloc(1, sizeof(*b));

	b->cs = fp__csites(fp, depth);
	b->held = fp->argv != NULL;
	b->depth = depth;
	b->fsnames = -1;
	libbpf_set_print(print_libbpf);
	b->skel = kfcsite_bpf__open();
	if (!b->skel) {
		snprintf(why, len, "cannot open the BPF call-site sampler: %s", strerror(errno));
		csb_free(b);
		return NULL;
	}
	b->skel->rodata->always = CSB_ALWAYS;
	b->skel->rodata->every = CSB_EVERY;
	/* one of the two counts the execs: the earlier where the kernel has it */
	b->prepare = libbpf_find_vmlinux_btf_id("sched_prepare_exec", BPF_TRACE_RAW_TP) > 0;
	bpf_program__set_autoload(b->skel->progs.kfc_prepare_exec, b->prepare);
	bpf_program__set_autoload(b->skel->progs.kfc_exec, !b->prepare);
	if (kf_verbose >= 2)
		bpf_program__set_log_level(b->skel->progs.kfc_sys_exit, 4);
	return b;
}

/* Loads and attaches the programs with the backend's task storage; the tasks given so far followed. */
static int load(struct csb *b, const struct trace_bpf_shared *sh, char *why, size_t len)
{
	int err, fd;

	b->skel->rodata->with_reach = sh->reach;
	b->skel->rodata->run_gen = sh->run_gen;
	/* its own: the events left at the end are read after the backend has closed its maps */
	b->fsnames = fcntl(sh->fsnames_fd, F_DUPFD_CLOEXEC, 3);
	if (b->fsnames < 0) {
		snprintf(why, len, "cannot share the backend's filesystem names: %s", strerror(errno));
		return -1;
	}
	err = bpf_map__reuse_fd(b->skel->maps.kf_tasks, sh->tasks_fd);
	if (err) {
		snprintf(why, len, "cannot share the backend's task storage: %s", strerror(-err));
		return -1;
	}
	err = kfcsite_bpf__load(b->skel);
	if (err) {
		snprintf(why, len, "cannot load the BPF call-site sampler: %s", strerror(-err));
		return -1;
	}
	b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.events), on_event, b, NULL);
	if (!b->rb) {
		snprintf(why, len, "cannot map its ring buffer: %s", strerror(errno));
		return -1;
	}
	fd = bpf_map__fd(b->skel->maps.tasks);
	for (size_t i = 0; i < b->npending; i++)
		if (bpf_map_update_elem(fd, &b->pending[i].tid, &b->pending[i].value, BPF_ANY)) {
			snprintf(why, len, "cannot follow task %u: %s", b->pending[i].tid, strerror(errno));
			return -1;
		}
	/* after the backend's: its sys_exit, which leaves each call's reach, runs first */
	err = kfcsite_bpf__attach(b->skel);
	if (err) {
		snprintf(why, len, "cannot attach the call-site sampler (sys_exit, sched_process_fork/exec/exit): %s",
			 strerror(-err));
		return -1;
	}
	b->loaded = true;
	return 0;
}

void csb_ready(struct csb *b, const struct trace_bpf_shared *sh)
{
	char why[256];

	if (b->loaded)
		return;
	if (load(b, sh, why, sizeof(why)) < 0) {
		/* said, and kept in the footprint: the rest of the recording goes on */
		warning("--call-sites: %s", why);
		if (!b->cs->why_not)
			b->cs->why_not = xstrdup(why);
		kfcsite_bpf__detach(b->skel);
		return;
	}
	if (b->start)
		csb_start(b);
}

static void follow(struct csb *b, __u32 tid, __u8 value)
{
	XGROW(b->pending, b->pending_cap, b->npending + 1);
	b->pending[b->npending++] = (struct csb_pending){tid, value};
}

/* Every thread of pid; later ones follow from the kernel side's fork hook. */
int csb_add_pid(struct csb *b, pid_t pid)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	__u8 one = !b->held;
	__u32 tid = (__u32)pid;

	if (b->held) { /* its mappings from its exec on, and its children's, from perf's records */
		char why[256];

		b->maps = csm_new(pid, why, sizeof(why));
		if (!b->maps)
			debug("--call-sites: %s: the maps of its processes read from /proc while they live", why);
	}
	b->held = false; /* the started command is the first pid, and the only one */

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d) {
		follow(b, tid, one);
		return 0;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] != '.')
			follow(b, (__u32)atoi(de->d_name), one);
	}
	closedir(d);
	return 0;
}

int csb_start(struct csb *b)
{
	int err;

	if (b->running)
		return 0;
	if (!b->loaded) { /* once loaded (csb_ready()) */
		b->start = true;
		return 0;
	}
	err = pthread_create(&b->thread, NULL, poll_loop, b);
	if (err)
		return error("--call-sites: cannot start the unwinding thread: %s", strerror(err));
	b->running = true;
	return 0;
}

static uint64_t stat_sum(const struct csb *b, __u32 key)
{
	int n = libbpf_num_possible_cpus();
	__u64 *v, sum = 0;

	if (n <= 0)
		return 0;
	v = xcalloc((size_t)n, sizeof(*v));
	if (!bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.stats), &key, v))
		for (int i = 0; i < n; i++)
			sum += v[i];
	free(v);
	return sum;
}

/* Each key's calls that were not unwound: what the kernel side counted less what came through. */
static void count_unsampled(struct csb *b)
{
	int fd = bpf_map__fd(b->skel->maps.keys);
	struct kfc_key key, next, *prev = NULL;
	__u64 calls;
	char buf[64];

	while (bpf_map_get_next_key(fd, prev, &next) == 0) {
		struct fp_csite_key *k;

		key = next;
		prev = &key;
		if (bpf_map_lookup_elem(fd, &key, &calls))
			continue;
		k = fp__csite_key(b->cs, kf_syscall_name(kf_abi_host(), key.nr, buf, sizeof(buf)), key.err,
				  reached_by_hash(b, key.reach));
		if (calls > k->calls)
			fp_csite_unsampled(k, calls - k->calls);
	}
}

void csb_finish(struct csb *b, struct footprint *fp)
{
	atomic_store(&b->stop, true);
	if (b->running)
		pthread_join(b->thread, NULL);
	kfcsite_bpf__detach(b->skel);
	if (fp && b->loaded) {
		uint64_t records = 0;
		bool lost = false;

		ring_buffer__consume(b->rb);
		count_unsampled(b);
		if (b->maps)
			csm_stats(b->maps, &records, &lost);
		debug("call sites (bpf): %llu events of images known from %llu perf records%s",
		      (unsigned long long)b->recorded, (unsigned long long)records,
		      lost ? " (some lost: /proc/PID/maps read instead)" : "");
		debug("call sites (bpf): %llu calls, %llu sent, %llu lost on a full ring buffer, %llu keys beyond the "
		      "map; unwound %llu by CFI (frame pointers agreeing: %llu), %llu by frame pointers, %llu not "
		      "(%llu of "
		      "another image)",
		      (unsigned long long)stat_sum(b, KFC_CALLS), (unsigned long long)stat_sum(b, KFC_SAMPLED),
		      (unsigned long long)stat_sum(b, KFC_LOST), (unsigned long long)stat_sum(b, KFC_KEYS_FULL),
		      (unsigned long long)b->by_cfi, (unsigned long long)b->fp_agrees, (unsigned long long)b->by_fp,
		      (unsigned long long)b->none, (unsigned long long)b->stale);
	}
	csb_free(b);
}
