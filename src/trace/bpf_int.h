/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TRACE_BPF_INT_H
#define KF_TRACE_BPF_INT_H

/* Private to the bpf backend: src/trace/bpf.c (load, loop, teardown), bpf_task.c, bpf_events.c. */
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "abi/syscalls.h"
#include "bpf/kfrec.h"
#include "footprint/footprint.h"
#include "trace/trace.h"

struct bpf_cache;
struct bpf_live;
struct bpf_loader;
struct bpf_prog_info;
struct bpf_object;
struct bpf_program;
struct kfrec_bpf;
struct ring_buffer;

struct bpf_session {
	const struct trace_opts *opts;
	struct footprint *fp;
	struct kfrec_bpf *skel;
	struct bpf_object *part[2]; /* the objects that loaded the programs on two CPUs (bpf_load.c), or none */
	struct bpf_loader *loader;  /* and the thread of the second */
	struct bpf_cache *cache;    /* the pinned programs and maps this run took or pins (bpf_cache.c), or NULL */
	uint32_t run_gen;	    /* this run's generation of task storage (struct kf_task.gen) */
	struct ring_buffer *rb;
	pid_t root; /* the started command, 0 when attaching */
	bool root_reaped;
	int root_status;	 /* its wait status once reaped */
	struct fp_proc **byproc; /* process instance id -> footprint process */
	size_t byproc_cap;
	uint32_t nlive;		/* processes seen starting and not yet seen ending */
	uint64_t events;	/* events read from the ring */
	uint64_t bytes;		/* and their size */
	uint64_t stats_drained; /* spill entries read and deleted while running */
	uint64_t reach_drained; /* refinement entries read and deleted while running */
	uint64_t kept_seen;	/* the kernel's kept_ended count when the records were last swept */
	uint64_t late_procs;	/* processes first known from their record (their fork event was lost) */
	uint64_t recs_taken;	/* process records taken out of the kernel while the workload ran */
	bool proc_is_ns;	/* /proc shows kfootprint's own pid namespace (else the initial one's) */
	bool per_task;		/* tasks count their calls in their own storage (kfrec.h) */
	struct bpf_live *live;	/* the counts of tasks alive at the end, taken by bpf_take_live() */
	size_t nlive_taken, live_cap;
	uint64_t live_folded;		 /* tasks whose exit folded their counts while user space took the others' */
	uint64_t lost_live;		 /* calls of live tasks neither side could claim (no memory) */
	void *rec;			 /* a struct kf_proc_rec to read records into */
	struct bpf_at_attach *at_attach; /* -p: the call each seeded thread was in, from /proc (bpf_task.c) */
	size_t nat_attach, at_attach_cap;
	/* the kernel side's path_slot: failures of these calls come with their path, one event each */
	uint8_t path_slot[KF_BPF_NABI * KF_BPF_OPEN_NR_MAX];
};

/* A -p thread and the call /proc/TID/syscall said it was in once seeded (-1: none, in user space). */
struct bpf_at_attach {
	pid_t pid, tid;
	uint32_t proc;
	long nr;
};

/*
 * -p, after the programs are detached: a seeded thread that never left the call it was in (its state still
 * KF_TASK_ATTACHED) has that call counted, marked in progress at attach. The kernel side counts and marks it when
 * it returned while observed. 0, or -1 after reporting.
 */
int bpf_count_at_attach(struct bpf_session *s);

/* bpf_events.c */
int bpf_on_event(void *ctx, void *data, size_t size);
/*
 * Takes the records of processes out of the kernel's map into the footprint: only those of ended
 * processes (whose end the ring could not carry) when ended_only, else every one (at the end, with the
 * programs detached: the live processes' counts so far). Returns 0 or -1 after reporting.
 */
int bpf_read_procs(struct bpf_session *s, bool ended_only);
/* Puts processes first known from their record back in the order they started. */
void bpf_order_procs(struct bpf_session *s);
/* The process of an instance id, or NULL when its start was never seen. */
struct fp_proc *bpf_proc(struct bpf_session *s, uint32_t proc);
void bpf_set_proc(struct bpf_session *s, uint32_t proc, struct fp_proc *p);
/*
 * Reads the kernel's spill hash (calls that found no room in a process record) into the footprint.
 * ended_only: only those of processes that ended, deleting them from the map, which keeps it small on
 * long runs. Returns 0 or -1 after reporting.
 */
int bpf_read_stats(struct bpf_session *s, bool ended_only);

/* bpf_load.c */
/*
 * Loads the skeleton: its maps, and the programs whose autoload is on; on two CPUs with KF_BPF_SPLIT=1 when CO-RE
 * relocates against btf_path (NULL: the full kernel BTF, parsed once: one object). 0 or a negative errno.
 */
int bpf_load(struct bpf_session *s, const char *btf_path);
/*
 * Attaches every loaded program (waiting for those the other CPU loads: bpf_load() may return before); the links
 * are the skeleton's. 0 or a negative errno, and in *what the step that failed ("loading" or "attaching").
 */
int bpf_attach(struct bpf_session *s, const char **what);
/* The loaded program of that name, whichever object loaded it; NULL when this mode did not load it. */
struct bpf_program *bpf_prog(struct bpf_session *s, const char *name);
/* The fd of the program of that name, loaded or from the cache; -1 when this run has none. */
int bpf_prog_fd(struct bpf_session *s, const char *name);
/*
 * The kernel's statistics of that program for this run (run_cnt, run_time_ns, recursion_misses: a cached program's
 * minus what they were when this run took it). false when this run has no such program.
 */
bool bpf_prog_stats(struct bpf_session *s, const char *name, struct bpf_prog_info *info);
/* Detaches the programs whose name starts with prefix (NULL: all), whichever way they were attached. */
void bpf_detach(struct bpf_session *s, const char *prefix);
/* Waits for a load still running, closes the objects that loaded parts of the programs (before kfrec_bpf__destroy()).
 */
void bpf_unload(struct bpf_session *s);

/* bpf_cache.c: the programs and maps pinned in bpffs for the next run with the same key (docs/bpf.md#the-cache) */
/*
 * Before load, once the object's .rodata and autoloads are set: takes the cache of this key when it can. Returns
 * 1 when the programs and every map come from it (no load; the maps reset for this run, run_gen set), 0 to load as
 * ever (then pinned at the end when this run holds the cache), -1 when the skeleton was given part of a cache that
 * then failed: it is to be opened again and loaded without one. -v says which, and why.
 */
int bpf_cache_open(struct bpf_session *s, const char *btf_what, const void *btf, size_t btf_len);
/* Whether this run's programs came from the cache. */
bool bpf_cache_loaded(const struct bpf_session *s);
/* Whether this run holds the cache (took it, or pins a fresh load into it at its end). */
bool bpf_cache_held(const struct bpf_session *s);
/* Attaches the cached programs by fd; the links are this run's. 0 or a negative errno. */
int bpf_cache_attach(struct bpf_session *s);
/* The fd of a cached program, -1 when none; and its statistics when this run took it (may be NULL). */
int bpf_cache_prog_fd(const struct bpf_session *s, const char *name, const struct bpf_prog_info **base);
void bpf_cache_detach(struct bpf_session *s, const char *prefix);
/*
 * At the end (links closed): an orderly end (ok) pins a fresh load and marks the cache clean for the next run;
 * otherwise the next run drops and rebuilds it. Releases everything of the cache.
 */
void bpf_cache_close(struct bpf_session *s, bool ok);

/* bpffs.c */
/*
 * Makes path a bpffs, mounting one (root's, mode 0700) when nothing is mounted there, under a lock in lock_dir
 * (the cache's, root's and private). 0 when path is a bpffs; -1 and why not.
 */
int bpffs_ready(int lock_dir, const char *path, char *why, size_t len);

/* bpf_reach.c */
/* Before load: the kernel side's rows of what each call reaches, or none of that work at all (!on). */
void bpf_reach_setup(struct bpf_session *s, bool on);
/*
 * Reads what calls reached into the footprint: only the entries of ended processes, deleting them from the map
 * (which keeps it small on long runs), when ended_only. Returns 0 or -1 after reporting.
 */
int bpf_read_reach(struct bpf_session *s, bool ended_only);
/* What the calls of a task alive at the end reached, from the cache in its storage that bpf_take_live() took. */
void bpf_reach_taken(struct bpf_session *s, const struct kf_reach_pend *e, size_t n);
/* -v: entries made and moved out; the exit program's time per run when the kernel keeps BPF statistics. */
void bpf_reach_debug(struct bpf_session *s);
/*
 * What a call reached from its keys (fsnames: the backend's map of filesystem type names), as trace.h's reached says
 * it and ptrace writes it: "kind value[, kind value]", "" for nothing; for record -b bpf --call-sites.
 */
void bpf_reach_format(int fsnames, const struct kf_reach_key *keys, size_t n, char *out, size_t len);

/* bpf_task.c */
/*
 * Forks the command, held before its execve until bpf_release_command(), before the programs load: the
 * child's set-up runs meanwhile, and the fork copies less. Returns 0 or -1 after reporting.
 */
int bpf_start_command(struct bpf_session *s, int *go_fd);
/* Once the programs are attached: gives the held command its record and task state. 0 or -1 after reporting. */
int bpf_follow_command(struct bpf_session *s);
int bpf_release_command(struct bpf_session *s, int go_fd);
/* Creates the kernel's record of a process kfootprint starts following (the command, or -p). */
int bpf_new_record(struct bpf_session *s, uint32_t proc, pid_t pid, pid_t ppid, uint32_t threads);
/* Seeds the task storage with every thread of the -p processes. Returns 0 or -1 after reporting. */
int bpf_attach_pids(struct bpf_session *s);
/* Whether tasks can count in their own storage here (the hand-over at the end needs what it says). */
bool bpf_per_task_usable(void);
/*
 * At the end of a recording, with the programs still attached: detaches the counting ones (sys_enter, sys_exit)
 * and, per_task, takes the counts of every followed task still alive, each task's either here or by its exit's
 * fold in the kernel, never both (kfrec.bpf.c, fold()). Returns 0 or -1 after reporting.
 */
int bpf_take_live(struct bpf_session *s);
/*
 * After every program is detached: removes the claims user space made on live tasks, which outlive the run (with
 * cached maps, the next run's would find them). 0, or -1 when one may be left.
 */
int bpf_release_claims(struct bpf_session *s);
/* The counts bpf_take_live() took, into the footprint (after the process records: their processes exist). */
void bpf_apply_live(struct bpf_session *s);

#endif
