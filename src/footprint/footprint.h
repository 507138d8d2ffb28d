/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_FOOTPRINT_H
#define KF_FOOTPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "abi/abi.h"
#include "util/json_writer.h"

/*
 * The one data model of kfootprint: what a workload did, as aggregates. Backends feed it through the
 * fp__* calls below; the annotate stage (src/kmap/annotate.h) attaches kernel knowledge to its items;
 * renderers only read it; JSON (schema "kfootprint/1") round-trips it. The model itself knows nothing of the
 * kernel beyond the syscall ABIs (src/abi/).
 *
 * Memory is O(processes + distinct syscalls per process + distinct files per process): nothing grows with
 * the number of calls. Strings a footprint holds are owned by it.
 */

#define FP_SCHEMA "kfootprint/1"

/* A process's exec chain keeps its last programs only: a shell loop of execs must not grow the footprint. */
#define FP_EXEC_CHAIN_MAX 4

/* How a task or the workload ended. */
struct fp_exit {
	enum { FP_EXIT_NONE, FP_EXIT_CODE, FP_EXIT_SIGNAL } kind; /* NONE: still running when we left */
	int value;						  /* exit code, or signal number */
	bool core;						  /* FP_EXIT_SIGNAL: dumped core */
};

struct fp_errno_count {
	int err; /* positive errno */
	uint64_t count;
};

/*
 * Where an item lives in a kernel tree, as the annotate stage found it; opaque here. The annotator that made it
 * owns it (see struct fp_attachment) and writes it as the item's "kernel" object.
 */
struct fp_kref {
	void (*write_json)(const struct fp_kref *k, json_writer_t *w);
};

/*
 * Where the "kernel" object of a loaded footprint placed an item: what the annotate stage of the run that wrote it
 * said, as the reader found it (the file, the file that #includes it, the options on its path). The reader keeps
 * it for what reads the model (the inventory); it is not written again: a footprint written from a loaded one is
 * mapped anew (map, record --map) to have "kernel" objects.
 */
struct fp_kplace {
	const char *file;	 /* "fs/eventfd.c", interned; NULL when the object names none */
	const char *included_by; /* the .c file that #includes it; interned or NULL */
	const char **configs;	 /* interned */
	size_t nconfigs;
};

/*
 * What the annotate stage says about one item of a footprint, the same for every kind of item: syscalls, what
 * their calls reached (fd kinds, socket families, filesystems, ioctl commands, namespaces) and kernel functions,
 * each embedding one. The model stores and writes these; it never computes them.
 */
struct fp_annot {
	const char *klass;		/* coarse subsystem class, "Filesystem"; interned; NULL until annotated */
	const char *api;		/* the kernel entry point shown as the API, "sys_newstat"; interned or static */
	const struct fp_kref *kernel;	/* its place in a kernel tree (map, record --map); NULL when not mapped */
	const struct fp_kplace *loaded; /* refinements and kernel functions: the place a loaded footprint gave */
};

/*
 * A result of the annotate stage kept with the footprint, which frees it: it owns what the fp_annot of the items
 * point at, and may add members at the top level of the JSON ("configs").
 */
struct fp_attachment {
	void *data;
	void (*write_json)(const void *data, json_writer_t *w); /* NULL: nothing at the top level */
	void (*free)(void *data);
};

/* One source's share of a workload-wide syscall row of a merged footprint (struct fp_source). */
struct fp_srcstat {
	uint32_t source; /* index in footprint.sources */
	uint64_t calls, errors, time_ns;
	struct fp_errno_count *errnos; /* sorted by err */
	uint32_t nerrnos;
};

/*
 * Where the failures of one (syscall, errno) came from: which processes (by comm at the time of the call) and,
 * for calls that take a path (KF_SC_PATH), which paths. Bounded: FP_ERRSRC_PROCS names and FP_ERRSRC_PATHS
 * distinct paths are kept with their exact counts, the first in byte order (so that what is kept does not depend
 * on the order of calls or of merged footprints); the others are only counted (*_other).
 */
#define FP_ERRSRC_PROCS 16
#define FP_ERRSRC_PATHS 64

struct fp_errsrc_item {
	char *name; /* a comm, or a path as the workload gave it */
	uint64_t count;
};

struct fp_errsrc {
	int err;	/* positive errno */
	uint64_t count; /* failures whose sources were recorded (every one, unless merged from footprints without) */
	struct fp_errsrc_item *procs, *paths;
	uint32_t nprocs, npaths;
	uint64_t procs_other, paths_other;
};

/*
 * What calls of one syscall reached beyond its name (docs/reports.md "Reached"): a refinement (kind, value[, fd])
 * such as ("fd", "pipe"), ("socket", "AF_INET:SOCK_DGRAM:IPPROTO_UDP") or ("ioctl", "TCGETS", fd "chr:136:0"),
 * counted per syscall row, workload-wide and per process. Values come from the one formatter (abi/reach.h), so
 * that every backend writes the same bytes. Bounded: a row keeps the FP_REACH_MAX refinements first in byte order
 * of (kind, value, fd), with exact counts, and counts the calls of any other in reach_other (as error sources do,
 * so that what is kept does not depend on the order of calls or of merged footprints).
 */
#define FP_REACH_MAX 64

struct fp_reach {
	const char *kind;      /* interned: "fd", "socket", "ioctl", ... */
	const char *value;     /* interned */
	const char *fd;	       /* interned or NULL: the fd kind an "ioctl" was made on */
	uint64_t calls;	       /* calls of the row's syscall that reached it */
	uint64_t errors;       /* of those, the ones that failed */
	struct fp_annot annot; /* workload-wide table only; filled by the annotate stage */
};

/* Aggregate for one (ABI, syscall number). */
struct fp_sysstat {
	const char *name; /* interned; from the table, or from a loaded JSON for unknown rows */
	int nr;
	enum kf_abi abi;
	uint64_t calls;
	uint64_t errors;
	uint64_t time_ns;	       /* time in the call, entry to exit, summed */
	uint64_t at_attach;	       /* global table only: calls (of `calls`) in progress when -p attached */
	struct fp_errno_count *errnos; /* sorted by err; global table only */
	uint32_t nerrnos, errnos_cap;
	struct fp_annot annot;	       /* global table only */
	struct fp_srcstat *per_source; /* merged footprints, global table only: sorted by source, none empty */
	uint32_t nper_source, per_source_cap;
	struct fp_errsrc *errsrc; /* global table only: sorted by err */
	uint32_t nerrsrc;
	struct fp_reach *reach; /* what its calls reached, in the order first seen (fp_sysstat_reach_sorted) */
	uint32_t nreach, reach_cap;
	uint64_t reach_other; /* calls that reached a refinement beyond the FP_REACH_MAX kept */
};

/* A small hash of (abi, nr) -> fp_sysstat, shared by the workload-wide and per-process views. */
struct fp_sctab {
	struct fp_sysstat **slots;
	uint32_t cap, count;
};

struct fp_file {
	char *path;
	uint64_t opens;	      /* successful opens (an O_RDWR one counts once here, in both below) */
	uint64_t opens_read;  /* successful opens for reading (O_RDONLY or O_RDWR) */
	uint64_t opens_write; /* successful opens for writing (O_WRONLY or O_RDWR) */
	uint64_t errors;      /* failed opens */
};

struct fp_proc {
	uint32_t source; /* merged footprints: index in footprint.sources (pids are per source); else 0 */
	pid_t pid;	 /* thread-group id, as kfootprint's pid namespace sees it */
	pid_t ppid;	 /* likewise */
	pid_t host_pid;	 /* the initial pid namespace's, where it differs and is known (bpf); 0 otherwise */
	char comm[16];
	char *exe;
	char *cwd;   /* its working directory when it exec'd (or was found), as /proc/PID/cwd said; NULL when unknown */
	char **argv; /* NULL-terminated; NULL when unknown */
	double start_s, end_s; /* seconds since the footprint's start; end_s < 0 while running */
	struct fp_exit exit;
	uint32_t threads;  /* tasks ever seen in this thread group, the leader included */
	uint32_t execs;	   /* successful execs */
	char **exec_chain; /* the programs exec'd, oldest first: the last FP_EXEC_CHAIN_MAX; NULL-terminated or NULL */
	bool attached;	   /* existed before kfootprint attached */
	uint64_t opens_read, opens_write, open_errors;
	struct fp_sctab syscalls;
	struct fp_sctab seccomp_kills; /* calls a seccomp filter killed one of its tasks in (calls: how often) */
	struct fp_file **files;	       /* hash by path */
	uint32_t files_cap, nfiles;
	struct fp_proc *hash_next; /* private to footprint.c */
	bool live;		   /* private: in the pid hash */
};

/*
 * One footprint that went into a merged one (`kfootprint merge`): its header, named by the SHA-256 of the
 * footprint it was (digest), so that merging it again keeps it once. A footprint that is not merged has none.
 */
struct fp_source {
	char *digest; /* 64 hex digits */
	char *tool, *host_kernel, *host_arch, *label, *user, *backend, *started_at, *incomplete_why;
	char **argv;
	pid_t *attached_pids;
	uint32_t nattached;
	double elapsed_s;
	struct fp_exit exit;
	bool complete;
	uint64_t lost_events;
};

/* At most this many kinds of observation (fp_kinds[], kinds.c). */
#define FP_KINDS_MAX 8

struct footprint {
	char *tool;	   /* "kfootprint 0.1.0" */
	char *host_kernel; /* uname -r */
	char *host_arch;   /* uname -m */
	char **argv;	   /* workload command; NULL when attached */
	pid_t *attached_pids;
	uint32_t nattached;
	char *label;
	char *user;
	char *backend;	  /* "ptrace", "bpf" */
	char *started_at; /* ISO 8601 UTC */
	double elapsed_s;
	struct fp_exit exit; /* the workload's (the started command's, or the first attached pid's) */
	bool complete;
	char *incomplete_why; /* set when !complete: "duration", "interrupted", "lost events", ... */
	uint64_t lost_events;
	/* Loaded: every count of the file added up, and every time in ns; each at most 2^63-1 (the reader's rule). */
	uint64_t counts_total, times_total;
	bool error_sources; /* the backend recorded syscalls[].errsrc (not every backend does) */
	bool reach;	    /* the backend recorded what calls reached (syscalls[].reached; fp__reach) */

	struct fp_sctab syscalls; /* workload-wide */
	struct fp_proc **procs;	  /* in order of appearance */
	size_t nprocs, procs_cap;

	struct fp_attachment *attachments; /* results of the annotate stage, in the order they were attached */
	size_t nattachments;

	struct fp_source *sources; /* merged footprints only: what went in, in their order (merge.h) */
	uint32_t nsources;

	/* each kind's part (fp_kind_part()), by its row's index in fp_kinds[]; NULL: that kind was not recorded */
	void *kind_parts[FP_KINDS_MAX];

	/* private to footprint.c */
	struct fp_proc **pid_hash;
	uint32_t pid_hash_cap;
	uint64_t t0_ns;
	char **interned;
	size_t ninterned, interned_cap;
	uint32_t *intern_hash; /* 1 + index in interned, open addressing */
	uint32_t intern_hash_cap;
};

/*
 * A kind of observation beside the syscall rows (kernel functions today; covered lines and call sites next) is one
 * row of fp_kinds[] (kinds.c), its one table of operations: its top-level JSON member and what the model does with
 * its part of a footprint (fp_kind_part(), NULL: not recorded): free it, merge it, write and read it; and its parts
 * in the stages above the model, each declared there and NULL when the kind has none. Generic code iterates the
 * rows and names no kind. Adding a kind: its files (its model and JSON member, a row naming its other parts) and a
 * row here.
 */
struct loader; /* the kfootprint/1 reader's state, footprint_json_read.h */
struct trace_recorder;
struct kind_annotator;
struct kind_report;

/* What a kind tells of its items (its annotator's observe, kmap/annotate.h), for inventory. */
struct fp_observer {
	/* One item: what it is, the kernel function it is (for a placement by DWARF; or NULL), its count, and where
	 * the kind's annotator placed it (NULL: not placed). */
	void (*item)(struct fp_observer *o, const char *what, const char *function, uint64_t n,
		     const struct fp_kplace *at);
	bool incomplete; /* set by the kind: its part does not hold every item (sampled) */
};

/* How an input's sources stand to a merged footprint's (merge.c): what a kind does with its part. */
enum fp_merge_how {
	FP_MERGE_NONE,	  /* nothing new: leave m's part */
	FP_MERGE_ADD,	  /* every source of the input is new: add its part */
	FP_MERGE_REPLACE, /* the input holds every source m had and more: its part replaces m's */
	FP_MERGE_PARTIAL, /* it shares only some: parts cannot be split, so m's is kept and says it lacks some */
};

struct fp_kind {
	const char *member; /* "kernel_functions" */
	void (*release)(struct footprint *fp);
	/* Folds in's part into m's (had: the sources m had before in). */
	void (*merge)(struct footprint *m, const struct footprint *in, uint32_t had, enum fp_merge_how how);
	/* Writes the member, name and value; nothing when fp has no part of this kind. */
	void (*write_json)(json_writer_t *w, const struct footprint *fp);
	/* Reads the member's value (the reader has just read its name). 0, or -1 after ld_fail(). */
	int (*read_json)(struct loader *ld);
	const struct trace_recorder *recorder;	/* how `record` records it (trace.h) */
	const struct kind_annotator *annotator; /* how the annotate stage maps it (kmap/annotate.h) */
	const struct kind_report *report;	/* its sections of the reports and maps (report/kind_report.h) */
};

/* The kinds, in the order their members are written; NULL-terminated. */
extern const struct fp_kind *const fp_kinds[];
/* A kind's part of fp (NULL: none), and where it is kept, for the kind's own code. */
void *fp_kind_part(const struct footprint *fp, const struct fp_kind *k);
void **fp_kind_slot(struct footprint *fp, const struct fp_kind *k);

struct footprint *fp__new(void);
void fp__free(struct footprint *fp);

/* Monotonic clock in ns; the footprint's times are measured from fp->t0_ns, set by fp__start(). */
uint64_t fp__now_ns(void);
/* Records start time (wall and monotonic), host, tool. */
void fp__start(struct footprint *fp);
/* Seconds since fp__start() for a monotonic timestamp. */
double fp__rel_s(const struct footprint *fp, uint64_t mono_ns);
void fp__finish(struct footprint *fp);
/* Marks the footprint incomplete; the first reason given is kept. */
void fp__set_incomplete(struct footprint *fp, const char *why);
const char *fp__intern(struct footprint *fp, const char *s);
/* Keeps a result of the annotate stage with the footprint (freed by fp__free, written by fp__write_json). */
void fp__attach(struct footprint *fp, struct fp_attachment a);

/*
 * -p: n calls of (abi, nr), counted with fp__account() too, were in progress when kfootprint attached: entered
 * before it watched (their time is not known). Marks the workload-wide row.
 */
void fp__at_attach(struct footprint *fp, enum kf_abi abi, int nr, uint64_t n);

/* --- processes --- */
/* The live process with this tgid, or NULL. */
struct fp_proc *fp__proc_find(struct footprint *fp, pid_t pid);
/* A new live process (a fork, or one found at attach); replaces a dead one with a reused pid. */
struct fp_proc *fp__proc_new(struct footprint *fp, pid_t pid, pid_t ppid, uint64_t mono_ns);
/* Frees what p owns but not p: also for a process the reader builds on the stack before its pid is known. */
void fp__proc_release(struct fp_proc *p);
/*
 * A successful exec: counts it, updates what is given (NULL: unchanged, as a backend that read /proc first
 * passes) and appends the program (exe, else comm) to the bounded exec chain.
 */
void fp__proc_exec(struct footprint *fp, struct fp_proc *p, const char *exe, char **argv, const char *comm);
/* Appends a program to p's exec chain, dropping the oldest beyond FP_EXEC_CHAIN_MAX. */
void fp__proc_chain_add(struct fp_proc *p, const char *prog);
/* The thread group ended: records how and when, and removes it from the pid hash. */
void fp__proc_exit(struct footprint *fp, struct fp_proc *p, struct fp_exit how, uint64_t mono_ns);
void fp__proc_set_argv(struct fp_proc *p, char **argv); /* takes ownership of a NULL-terminated vector */
/* Frees a NULL-terminated vector of strings (NULL is fine). */
void fp_argv_free(char **argv);
/* A copy of a NULL-terminated vector (NULL gives NULL). */
char **fp_argv_dup(char *const *argv);
/* Frees what a source holds (not the struct). */
void fp_source_release(struct fp_source *s);

/* --- syscalls --- */
/*
 * Accounts `calls` calls of (abi, nr) made by process p: err == 0 for calls that succeeded (or never
 * returned), err > 0 for calls that failed with that errno; time_ns is their summed time in the call.
 * p may be NULL (counted only workload-wide).
 */
void fp__account(struct footprint *fp, struct fp_proc *p, enum kf_abi abi, int nr, int err, uint64_t calls,
		 uint64_t time_ns);
/*
 * n tasks of p were killed by a seccomp filter (SECCOMP_RET_KILL_*) in a call (abi, nr); the call itself is
 * accounted with fp__account as one that never returned.
 */
void fp__seccomp_kill(struct footprint *fp, struct fp_proc *p, enum kf_abi abi, int nr, uint64_t n);
/* The file record of p for path, created when new. */
struct fp_file *fp__file(struct fp_proc *p, const char *path);
/* A file open by p: path as the workload gave it, its O_* flags, err as for fp__account. */
void fp__open(struct footprint *fp, struct fp_proc *p, const char *path, int oflags, int err, uint64_t n);
void fp__lost(struct footprint *fp, uint64_t n);
/*
 * n failures of (abi, nr) with errno err by process p (NULL: unknown), on path (NULL: the call takes none or it
 * could not be read), after their fp__account(). Sets fp->error_sources.
 */
void fp__error_source(struct footprint *fp, const struct fp_proc *p, enum kf_abi abi, int nr, int err, const char *path,
		      uint64_t n);
/* The same, by the process's name: the bpf backend knows the name a failure was made under, maybe before p. */
void fp__error_source_comm(struct footprint *fp, const char *comm, enum kf_abi abi, int nr, int err, const char *path,
			   uint64_t n);
/*
 * n calls of (abi, nr) by p (NULL: workload-wide only) reached (kind, value, fd) (fd NULL but for "ioctl"); err as
 * for fp__account. Call after fp__account() for the same calls; one call that reaches several refinements (clone
 * with two CLONE_NEW* flags, sendfile between two kinds of fd) gives each once. Sets fp->reach.
 */
void fp__reach(struct footprint *fp, struct fp_proc *p, enum kf_abi abi, int nr, const char *kind, const char *value,
	       const char *fd, int err, uint64_t n);
/*
 * Adds calls and errors to the refinement (kind, value, fd) of s, within FP_REACH_MAX (else to reach_other); the
 * strings must outlive s (interned in its footprint). Returns the entry, or NULL when it went to reach_other.
 */
struct fp_reach *fp_sysstat_add_reach(struct fp_sysstat *s, const char *kind, const char *value, const char *fd,
				      uint64_t calls, uint64_t errors);
/* The refinement (kind, value, fd) of s, or NULL. */
struct fp_reach *fp_sysstat_find_reach(const struct fp_sysstat *s, const char *kind, const char *value, const char *fd);
/* The refinements of s most calls first (then kind, value, fd); caller frees the array only (NULL-terminated). */
struct fp_reach **fp_sysstat_reach_sorted(const struct fp_sysstat *s);
/* (kind, value, fd) in byte order, fd NULL first: the order that decides which refinements a row keeps. */
int fp_reach_cmp_key(const struct fp_reach *a, const struct fp_reach *b);
/* Frees the refinements of s. */
void fp_sysstat_reach_release(struct fp_sysstat *s);
/* The sources of errno err of s, created empty when new. */
struct fp_errsrc *fp_sysstat_errsrc(struct fp_sysstat *s, int err);
/* Adds n to the item `name` of a list (procs or paths of e), within its bound; else to the list's other count. */
void fp_errsrc_add_proc(struct fp_errsrc *e, const char *comm, uint64_t n);
void fp_errsrc_add_path(struct fp_errsrc *e, const char *path, uint64_t n);
/* Frees the sources of s. */
void fp_sysstat_errsrc_release(struct fp_sysstat *s);
/* Adds n failures with errno err to an entry's breakdown (kept sorted by errno). */
void fp_sysstat_add_errno(struct fp_sysstat *s, int err, uint64_t n);

/* --- reading --- */
/* Lookup in a table; NULL when absent. */
struct fp_sysstat *fp_sctab_find(const struct fp_sctab *t, enum kf_abi abi, int nr);
struct fp_sysstat *fp_sctab_get(struct fp_sctab *t, enum kf_abi abi, int nr, const char *name);
/* The entries as an array sorted by `cmp` (NULL: by ABI then name); caller frees the array only. */
struct fp_sysstat **fp_sctab_sorted(const struct fp_sctab *t, int (*cmp)(const void *, const void *));
void fp_sctab_release(struct fp_sctab *t);
/* Keeps the entries keep() says yes to (it may change them) and frees the others. */
void fp_sctab_filter(struct fp_sctab *t, bool (*keep)(struct fp_sysstat *s, void *ctx), void *ctx);
/* The same for the files of a process; keep NULL drops them all. */
void fp_proc_files_filter(struct fp_proc *p, bool (*keep)(struct fp_file *f, void *ctx), void *ctx);
/* A deep copy of a table (its rows where from has them), and of a process's files into to (a copy of from). */
void fp_sctab_copy(struct fp_sctab *to, const struct fp_sctab *from);
void fp_proc_files_copy(struct fp_proc *to, const struct fp_proc *from);
/* Files of a process sorted by path; caller frees the array only. */
struct fp_file **fp_proc_files_sorted(const struct fp_proc *p);
/* The class of an entry as annotated (or loaded); "unknown" before the annotate stage ran. Never NULL. */
const char *fp_sysstat_class(const struct fp_sysstat *s);
/* The kernel entry point for the "System Call (API)" column, e.g. "sys_newstat"; "sys_<name>" when not annotated. */
const char *fp_sysstat_api(const struct fp_sysstat *s, char *buf, size_t len);
/* Totals over the workload. */
uint64_t fp__total_calls(const struct footprint *fp);
uint64_t fp__total_errors(const struct footprint *fp);
/* Depth of a process in the tree (roots 0) and its parent in this footprint, if any. */
struct fp_proc *fp__parent(const struct footprint *fp, const struct fp_proc *p);
/*
 * fp__parent() of every process at once, in time and memory linear in the processes (the renderers' walks: a
 * chain 80,000 deep took fp__parent() 80,000 scans): [i] is the index + 1 of procs[i]'s parent, 0 for none, and
 * always at most i (a parent comes first, so no walk up can loop). The caller frees it.
 */
size_t *fp__parents(const struct footprint *fp);

/* Signal names: "SIGKILL" <-> 9. */
const char *fp_signal_name(int sig);
int fp_signal_parse(const char *name);
/* errno names: "ENOENT" <-> 2; "E123" for unknown numbers (static buffer for those). */
const char *fp_errno_name(int err);
int fp_errno_parse(const char *name);

/* --- JSON (footprint_json.c) --- */
/* Writes schema kfootprint/1. Returns 0, or -1 on a write error (errno set). */
int fp__write_json(const struct footprint *fp, FILE *out);
/* Writes to path atomically (temporary file + rename). Returns 0 or -1 after reporting the error. */
int fp__save(const struct footprint *fp, const char *path);
/* Loads a footprint; on failure reports "kfootprint: 'path': why" and returns NULL. */
struct footprint *fp__load(const char *path);

#endif
