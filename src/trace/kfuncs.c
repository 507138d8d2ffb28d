// SPDX-License-Identifier: GPL-2.0
/*
 * The recorder of the kind "kernel functions" (footprint/kfunc.h), record --kernel-functions: its options, the
 * method the kernel allows (a tracer of ktrace.h), what ftrace.c and kstack.c share (the kernel's symbols and the
 * counts by address), and the footprint's kernel functions filled from what the tracer counted.
 *
 * Where the asked method cannot run here it says why in one line on stderr and, for auto, falls back
 * (function_graph -> function -> sampled); when nothing can, the footprint's kernel_functions.why_not says why and
 * the recording of syscalls goes on. It follows the started command (held before its execve) or the attached
 * processes: their tasks and all their children; at the end it reads what is left, fills the footprint's kernel
 * functions and removes every piece of tracing state.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "abi/syscalls.h"
#include "footprint/kfunc.h"
#include "trace/ktrace.h"
#include "trace/trace.h"
#include "util/error.h"
#include "util/options.h"
#include "util/parse.h"
#include "util/xalloc.h"

struct kfr_opts {
	enum kfr_mode mode;
	unsigned buffer_kb; /* --kernel-buffer-kb: ftrace's per-CPU buffer (0: the kernel's default) */
	unsigned freq;	    /* sampled: samples per second per CPU */
};

/* --- /proc/kallsyms ------------------------------------------------------------------------------ */

struct ksym {
	uint64_t addr;
	uint32_t name; /* offset in names */
	uint32_t order : 31;
	uint32_t local : 1; /* 't' rather than 'T' */
};

struct ksyms {
	struct ksym *v;
	size_t n, cap;
	char *names;
	size_t names_len, names_cap;
};

/*
 * Aliases (same address): a global name first, and of those the last the file lists, the one trace-cmd report
 * shows too (__x64_sys_getpid, not its aliases __ia32_sys_getpid and __do_sys_getpid).
 */
static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->local != y->local)
		return x->local ? 1 : -1;
	return x->order > y->order ? -1 : x->order < y->order;
}

struct ksyms *ksyms_load(char *why, size_t len)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	struct ksyms *k;
	char line[512];
	bool nonzero = false;

	if (!f) {
		snprintf(why, len, "'/proc/kallsyms': %s", strerror(errno));
		return NULL;
	}
	k = xcalloc(1, sizeof(*k));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];
		size_t l;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		nonzero |= addr != 0;
		l = strlen(name) + 1;
		XGROW(k->v, k->cap, k->n + 1);
		XGROW(k->names, k->names_cap, k->names_len + l);
		memcpy(k->names + k->names_len, name, l);
		k->v[k->n] = (struct ksym){addr, (uint32_t)k->names_len, (uint32_t)k->n & 0x7fffffff,
					   type == 't' || type == 'w'};
		k->n++;
		k->names_len += l;
	}
	fclose(f);
	if (!k->n || !nonzero) {
		snprintf(why, len, "'/proc/kallsyms' shows no addresses (kernel.kptr_restrict, or not root)");
		ksyms_free(k);
		return NULL;
	}
	qsort(k->v, k->n, sizeof(*k->v), cmp_ksym);
	return k;
}

const char *ksyms_name(const struct ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->n;

	/* the last symbol at or below addr, then the first of its aliases */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	lo--;
	while (lo && k->v[lo - 1].addr == k->v[lo].addr)
		lo--;
	return k->names + k->v[lo].name;
}

void ksyms_free(struct ksyms *k)
{
	if (!k)
		return;
	free(k->v);
	free(k->names);
	free(k);
}

/* --- counts by (address, syscall) ---------------------------------------------------------------- */

static uint32_t count_hash(uint64_t addr, int32_t nr)
{
	uint64_t h = (addr ^ ((uint64_t)(uint32_t)nr << 48)) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32);
}

static void count_grow(struct kfr_counts *c)
{
	uint32_t cap = c->cap ? c->cap * 2 : 4096;
	struct kfr_count *slots = xcalloc(cap, sizeof(*slots));

	for (uint32_t i = 0; i < c->cap; i++) {
		uint32_t j;

		if (!c->slots[i].used)
			continue;
		for (j = count_hash(c->slots[i].addr, c->slots[i].nr) & (cap - 1); slots[j].used;
		     j = (j + 1) & (cap - 1))
			;
		slots[j] = c->slots[i];
	}
	free(c->slots);
	c->slots = slots;
	c->cap = cap;
}

void kfr_count(struct kfr_counts *c, uint64_t addr, int32_t nr, uint64_t hits)
{
	uint32_t j;

	if (2 * (c->n + 1) > c->cap)
		count_grow(c);
	for (j = count_hash(addr, nr) & (c->cap - 1); c->slots[j].used; j = (j + 1) & (c->cap - 1)) {
		if (c->slots[j].addr == addr && c->slots[j].nr == nr) {
			c->slots[j].hits += hits;
			return;
		}
	}
	c->slots[j] = (struct kfr_count){addr, nr, 1, hits};
	c->n++;
}

/*
 * Symbolises the counts into the footprint's kernel functions (created with method and exhaustive when none) and
 * frees them; k: the symbols, or NULL to load them now.
 */
static int kfr_counts_flush(struct kfr_counts *c, const struct ksyms *k, struct footprint *fp, const char *method,
			    bool exhaustive, char *why, size_t len)
{
	struct ksyms *own = NULL;
	char buf[64];

	fp__kfuncs(fp, method, exhaustive);
	if (!c->n)
		return 0;
	if (!k)
		k = own = ksyms_load(why, len);
	if (!k)
		return -1;
	for (uint32_t i = 0; i < c->cap; i++) {
		const struct kfr_count *e = &c->slots[i];
		const char *name;
		char unknown[32];

		if (!e->used)
			continue;
		name = ksyms_name(k, e->addr);
		if (!name) {
			snprintf(unknown, sizeof(unknown), "0x%llx", (unsigned long long)e->addr);
			name = unknown;
		}
		fp__kfunc_hit(fp, name, e->nr >= 0 ? kf_syscall_name(kf_abi_host(), e->nr, buf, sizeof(buf)) : NULL,
			      e->hits);
	}
	ksyms_free(own);
	kfr_counts_release(c);
	return 0;
}

void kfr_counts_release(struct kfr_counts *c)
{
	free(c->slots);
	memset(c, 0, sizeof(*c));
}

#ifdef KF_NO_BPF
/* A build without BPF (NO_BPF=1) has no sampler: kstack.c is not built. */
struct kstk *kstk_new(unsigned freq, char *why, size_t len)
{
	(void)freq;
	snprintf(why, len, "this kfootprint is built without BPF (NO_BPF=1): no sampled kernel stacks");
	return NULL;
}

int kstk_add_pid(struct kstk *s, pid_t pid)
{
	(void)s;
	(void)pid;
	return 0;
}

int kstk_start(struct kstk *s)
{
	(void)s;
	return 0;
}

int kstk_finish(struct kstk *s, struct ktr_sink *sink, struct kstk_stats *st, char *why, size_t len)
{
	(void)s;
	(void)sink;
	(void)st;
	(void)why;
	(void)len;
	return 0;
}
#endif

/* --- the method ---------------------------------------------------------------------------------- */

struct kfr {
	struct ftr *ftr;
	struct kstk *kstk;
	char *why_not;	    /* nothing can record: the footprint says why */
	const char *method; /* the one asked for, for why_not */
};

static const char *const mode_names[] = {"auto", "function_graph", "function", "sampled"};

static struct kfr *kfr_new(const struct kfr_opts *o, struct footprint *fp)
{
	struct kfr *r = xcalloc(1, sizeof(*r));
	char why[512] = "", why2[512] = "";

	r->method = o->mode == KFR_SAMPLED ? "sampled" : o->mode == KFR_GRAPH ? "function_graph" : "function";
	if (o->mode != KFR_SAMPLED) {
		r->ftr = ftr_new(o->mode, o->buffer_kb, why, sizeof(why));
		if (r->ftr)
			return r;
		if (o->mode != KFR_AUTO) {
			fprintf(stderr,
				"kfootprint: kernel functions: %s: %s; recording syscalls only "
				"(--kernel-functions=sampled samples kernel stacks instead)\n",
				mode_names[o->mode], why);
			r->why_not = xstrdup(why);
			return r;
		}
	}
	r->kstk = kstk_new(o->freq, why2, sizeof(why2));
	if (r->kstk) {
		if (o->mode == KFR_AUTO)
			fprintf(stderr,
				"kfootprint: kernel functions: %s: sampling kernel stacks instead (sampled, not "
				"exhaustive)\n",
				why);
		return r;
	}
	if (o->mode == KFR_AUTO)
		fprintf(stderr,
			"kfootprint: kernel functions: %s; sampled stacks neither: %s; recording syscalls only\n", why,
			why2);
	else
		fprintf(stderr, "kfootprint: kernel functions: sampled: %s; recording syscalls only\n", why2);
	r->why_not = xstrdup(o->mode == KFR_AUTO ? why : why2);
	return r;
}

static int kfr_add_pid(struct kfr *r, pid_t pid)
{
	if (r->ftr)
		return ftr_add_pid(r->ftr, pid);
	if (r->kstk)
		return kstk_add_pid(r->kstk, pid);
	return 0;
}

static int kfr_start(struct kfr *r)
{
	if (r->ftr)
		return ftr_start(r->ftr);
	if (r->kstk)
		return kstk_start(r->kstk);
	return 0;
}

/* What the tracer counted, into fp: its names, and what it lost (any loss also marks fp incomplete). */
static void ftr_done(struct ftr *t, struct footprint *fp)
{
	struct ftr_result res;
	struct fp_kfuncs *k;
	uint64_t t0;
	char why[256];

	if (!fp) {
		ftr_finish(t, NULL);
		return;
	}
	ftr_finish(t, &res);
	t0 = fp__now_ns();
	if (kfr_counts_flush(&res.counts, res.ksyms, fp, res.graph ? "function_graph" : "function", true, why,
			     sizeof(why)) < 0) {
		error("kernel functions: %s", why);
		fp__kfuncs(fp, NULL, false)->why_not = xstrdup(why);
		fp__set_incomplete(fp, "kernel functions not symbolised");
	}
	debug("kernel functions: named through /proc/kallsyms in %.1f ms", (double)(fp__now_ns() - t0) / 1e6);
	k = fp_kfuncs_of(fp);
	k->lost = res.lost;
	if (res.lost) {
		char msg[96];

		snprintf(msg, sizeof(msg), "lost events: %llu kernel function events (tracing buffer full)",
			 (unsigned long long)res.lost);
		fp__set_incomplete(fp, msg);
	}
	debug("kernel functions: %llu events in %llu pages read and counted in %.1f ms of CPU, %llu lost, %u "
	      "functions",
	      (unsigned long long)res.events, (unsigned long long)res.pages, (double)res.reader_cpu_ns / 1e6,
	      (unsigned long long)res.lost, k->nfuncs);
	ksyms_free(res.ksyms);
	kfr_counts_release(&res.counts);
}

struct fp_sink {
	struct ktr_sink s;
	struct footprint *fp;
};

static void sink_hit(struct ktr_sink *s, const char *name, const char *under_syscall, uint64_t n)
{
	fp__kfunc_hit(((struct fp_sink *)s)->fp, name, under_syscall, n);
}

/* The sampled stacks, into fp. */
static void kstk_done(struct kstk *s, struct footprint *fp)
{
	struct fp_sink sink = {{sink_hit}, fp};
	struct kstk_stats st = {0};
	char why[256];

	if (!fp) {
		kstk_finish(s, NULL, &st, why, sizeof(why));
		return;
	}
	fp__kfuncs(fp, "sampled", false);
	if (kstk_finish(s, &sink.s, &st, why, sizeof(why)) < 0) {
		error("kernel functions: %s", why);
		fp_kfuncs_of(fp)->why_not = xstrdup(why);
		fp__set_incomplete(fp, "kernel functions not symbolised");
		return;
	}
	fp_kfuncs_of(fp)->lost = st.lost;
	if (st.lost) {
		char msg[96];

		snprintf(msg, sizeof(msg), "lost events: %llu kernel stack samples (maps full)",
			 (unsigned long long)st.lost);
		fp__set_incomplete(fp, msg);
	}
	debug("kernel functions: %llu samples of the workload (%llu in user space, %llu without a stack, %llu lost), "
	      "%u functions",
	      (unsigned long long)st.samples, (unsigned long long)st.user, (unsigned long long)st.nostack,
	      (unsigned long long)st.lost, fp_kfuncs_of(fp)->nfuncs);
}

static void kfr_finish(struct kfr *r, struct footprint *fp)
{
	if (!r)
		return;
	if (r->ftr) {
		ftr_done(r->ftr, fp);
	} else if (r->kstk) {
		kstk_done(r->kstk, fp);
	} else if (fp) {
		fp__kfuncs(fp, r->method, false)->why_not = r->why_not;
		r->why_not = NULL;
	}
	free(r->why_not);
	free(r);
}

/* record's options of the recorder: parsed options, the process's one set */
static struct {
	const char *mode;   /* --kernel-functions[=auto|graph|function|sampled] */
	unsigned buffer_kb; /* --kernel-buffer-kb */
} opts;

static const char *mode_choices(void)
{
	return "auto, graph, function, sampled";
}

static int opt_kbuffer(const char *value, void *values)
{
	unsigned long kb;

	if (parse_ulong("--kernel-buffer-kb", value, 1, 1ul << 22, &kb) < 0)
		return -1;
	((__typeof__(opts) *)values)->buffer_kb = (unsigned)kb;
	return 0;
}

#define O __typeof__(opts)
static const struct kf_option options[] = {
    OPT_OPTIONAL(0, "kernel-functions", O, mode, "MODE", "auto", mode_choices,
		 "also record the kernel functions the workload executes, with hits and the syscall each ran under: "
		 "%s (default auto: function_graph, else the function tracer, in a private tracefs instance; where "
		 "the kernel refuses function tracing, sampled kernel stacks, which are not exhaustive)"),
    OPT_CALLBACK(0, "kernel-buffer-kb", "KB", opt_kbuffer,
		 "--kernel-functions: the tracing buffer per CPU in KB (default 8192); raise it when events are lost"),
    OPT_END(),
};
#undef O

/* The mode's index in enum kfr_mode, -1 for none. */
static int mode_of(const char *mode)
{
	static const char *const modes[] = {"auto", "graph", "function", "sampled"};

	for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++)
		if (!strcmp(modes[m], mode))
			return (int)m;
	return -1;
}

static int rec_check(void)
{
	if (opts.buffer_kb && !opts.mode)
		return error("--kernel-buffer-kb sizes the buffer of --kernel-functions: give --kernel-functions too");
	if (!opts.mode)
		return 0;
	if (mode_of(opts.mode) < 0)
		return error("unknown --kernel-functions mode '%s': expected one of %s", opts.mode, mode_choices());
	if (geteuid() != 0)
		return error("--kernel-functions needs root (tracefs, or BPF and perf events)");
	return 1;
}

static void *rec_new(const void *values, struct footprint *fp)
{
	const __typeof__(opts) *v = values;
	struct kfr_opts o = {(enum kfr_mode)mode_of(v->mode), v->buffer_kb, 0};

	return kfr_new(&o, fp);
}

static int rec_add_pid(void *r, pid_t pid, bool attached)
{
	(void)attached;
	return kfr_add_pid(r, pid);
}

static int rec_start(void *r)
{
	return kfr_start(r);
}

static void rec_finish(void *r, struct footprint *fp)
{
	kfr_finish(r, fp);
}

const struct trace_recorder trace_recorder_kfuncs = {
    .name = "kernel functions",
    .options = options,
    .values = &opts,
    .check = rec_check,
    .new = rec_new,
    .add_pid = rec_add_pid,
    .start = rec_start,
    .finish = rec_finish,
};
