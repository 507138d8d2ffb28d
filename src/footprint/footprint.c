// SPDX-License-Identifier: GPL-2.0
#include "footprint/footprint.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "abi/syscalls.h"
#include "util/error.h"
#include "util/xalloc.h"

struct footprint *fp__new(void)
{
	struct footprint *fp = xcalloc(1, sizeof(*fp));

	fp->complete = true;
	fp->tool = xstrdup("kfootprint " KF_VERSION);
	return fp;
}

void fp_argv_free(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

char **fp_argv_dup(char *const *argv)
{
	size_t n = 0;
	char **v;

	if (!argv)
		return NULL;
	while (argv[n])
		n++;
	v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(argv[i]);
	return v;
}

void fp_source_release(struct fp_source *s)
{
	free(s->digest);
	free(s->tool);
	free(s->host_kernel);
	free(s->host_arch);
	free(s->label);
	free(s->user);
	free(s->backend);
	free(s->started_at);
	free(s->incomplete_why);
	fp_argv_free(s->argv);
	free(s->attached_pids);
	memset(s, 0, sizeof(*s));
}

void fp__proc_release(struct fp_proc *p)
{
	free(p->exe);
	free(p->cwd);
	fp_argv_free(p->argv);
	fp_argv_free(p->exec_chain);
	fp_sctab_release(&p->syscalls);
	fp_sctab_release(&p->seccomp_kills);
	for (uint32_t i = 0; i < p->files_cap; i++) {
		if (p->files[i]) {
			free(p->files[i]->path);
			free(p->files[i]);
		}
	}
	free(p->files);
}

static void proc_free(struct fp_proc *p)
{
	fp__proc_release(p);
	free(p);
}

void fp__free(struct footprint *fp)
{
	if (!fp)
		return;
	free(fp->tool);
	free(fp->host_kernel);
	free(fp->host_arch);
	fp_argv_free(fp->argv);
	free(fp->attached_pids);
	free(fp->label);
	free(fp->user);
	free(fp->backend);
	free(fp->started_at);
	free(fp->incomplete_why);
	fp_sctab_release(&fp->syscalls);
	for (size_t i = 0; i < fp->nprocs; i++)
		proc_free(fp->procs[i]);
	free(fp->procs);
	free(fp->pid_hash);
	for (size_t i = 0; i < fp->nattachments; i++)
		if (fp->attachments[i].free)
			fp->attachments[i].free(fp->attachments[i].data);
	free(fp->attachments);
	for (uint32_t i = 0; i < fp->nsources; i++)
		fp_source_release(&fp->sources[i]);
	free(fp->sources);
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		(*k)->release(fp);
	for (size_t i = 0; i < fp->ninterned; i++)
		free(fp->interned[i]);
	free(fp->interned);
	free(fp->intern_hash);
	free(fp);
}

uint64_t fp__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void fp__start(struct footprint *fp)
{
	struct utsname u;
	char buf[64];
	time_t now = time(NULL);
	struct tm tm;

	fp->t0_ns = fp__now_ns();
	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	free(fp->started_at);
	fp->started_at = xstrdup(buf);
	if (!uname(&u)) {
		free(fp->host_kernel);
		free(fp->host_arch);
		fp->host_kernel = xstrdup(u.release);
		fp->host_arch = xstrdup(u.machine);
	}
}

double fp__rel_s(const struct footprint *fp, uint64_t mono_ns)
{
	return mono_ns > fp->t0_ns ? (double)(mono_ns - fp->t0_ns) / 1e9 : 0.0;
}

void fp__finish(struct footprint *fp)
{
	fp->elapsed_s = fp__rel_s(fp, fp__now_ns());
}

void fp__set_incomplete(struct footprint *fp, const char *why)
{
	fp->complete = false;
	if (!fp->incomplete_why)
		fp->incomplete_why = xstrdup(why);
}

static uint32_t str_hash(const char *s);

/*
 * Interning keeps one copy of names loaded from JSON that the tables do not know, and of the refinements' strings
 * (a backend interns one per refinement of a call: hashed, not searched).
 */
const char *fp__intern(struct footprint *fp, const char *s)
{
	uint32_t mask = fp->intern_hash_cap - 1, i;

	if (fp->intern_hash_cap) {
		for (i = str_hash(s) & mask; fp->intern_hash[i]; i = (i + 1) & mask)
			if (!strcmp(fp->interned[fp->intern_hash[i] - 1], s))
				return fp->interned[fp->intern_hash[i] - 1];
	}
	if ((fp->ninterned + 1) * 2 > fp->intern_hash_cap) {
		fp->intern_hash_cap = fp->intern_hash_cap ? 2 * fp->intern_hash_cap : 64;
		mask = fp->intern_hash_cap - 1;
		free(fp->intern_hash);
		fp->intern_hash = xcalloc(fp->intern_hash_cap, sizeof(*fp->intern_hash));
		for (size_t k = 0; k < fp->ninterned; k++) {
			for (i = str_hash(fp->interned[k]) & mask; fp->intern_hash[i]; i = (i + 1) & mask)
				;
			fp->intern_hash[i] = (uint32_t)k + 1;
		}
	}
	XGROW(fp->interned, fp->interned_cap, fp->ninterned + 1);
	fp->interned[fp->ninterned] = xstrdup(s);
	for (i = str_hash(s) & mask; fp->intern_hash[i]; i = (i + 1) & mask)
		;
	fp->intern_hash[i] = (uint32_t)fp->ninterned + 1;
	return fp->interned[fp->ninterned++];
}

void fp__attach(struct footprint *fp, struct fp_attachment a)
{
	fp->attachments = xrealloc(fp->attachments, (fp->nattachments + 1) * sizeof(*fp->attachments));
	fp->attachments[fp->nattachments++] = a;
}

/* --- syscall tables ------------------------------------------------------------------------------ */

static uint32_t sc_hash(enum kf_abi abi, int nr)
{
	uint32_t k = ((uint32_t)abi << 16) ^ (uint32_t)nr;

	return k * 2654435761u;
}

struct fp_sysstat *fp_sctab_find(const struct fp_sctab *t, enum kf_abi abi, int nr)
{
	if (!t->cap)
		return NULL;
	for (uint32_t i = sc_hash(abi, nr) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		struct fp_sysstat *s = t->slots[i];

		if (!s)
			return NULL;
		if (s->nr == nr && s->abi == abi)
			return s;
	}
}

static void sctab_insert(struct fp_sctab *t, struct fp_sysstat *s)
{
	uint32_t i = sc_hash(s->abi, s->nr) & (t->cap - 1);

	while (t->slots[i])
		i = (i + 1) & (t->cap - 1);
	t->slots[i] = s;
}

struct fp_sysstat *fp_sctab_get(struct fp_sctab *t, enum kf_abi abi, int nr, const char *name)
{
	struct fp_sysstat *s = fp_sctab_find(t, abi, nr);

	if (s)
		return s;
	if ((t->count + 1) * 2 > t->cap) {
		struct fp_sysstat **old = t->slots;
		uint32_t oldcap = t->cap;

		t->cap = oldcap ? oldcap * 2 : 32;
		t->slots = xcalloc(t->cap, sizeof(*t->slots));
		for (uint32_t i = 0; i < oldcap; i++)
			if (old[i])
				sctab_insert(t, old[i]);
		free(old);
	}
	s = xcalloc(1, sizeof(*s));
	s->abi = abi;
	s->nr = nr;
	s->name = name;
	sctab_insert(t, s);
	t->count++;
	return s;
}

void fp_sctab_release(struct fp_sctab *t)
{
	for (uint32_t i = 0; i < t->cap; i++) {
		if (t->slots[i]) {
			for (uint32_t j = 0; j < t->slots[i]->nper_source; j++)
				free(t->slots[i]->per_source[j].errnos);
			free(t->slots[i]->per_source);
			free(t->slots[i]->errnos);
			fp_sysstat_errsrc_release(t->slots[i]);
			fp_sysstat_reach_release(t->slots[i]);
			free(t->slots[i]);
		}
	}
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static void sysstat_free(struct fp_sysstat *s)
{
	for (uint32_t j = 0; j < s->nper_source; j++)
		free(s->per_source[j].errnos);
	free(s->per_source);
	free(s->errnos);
	fp_sysstat_errsrc_release(s);
	fp_sysstat_reach_release(s);
	free(s);
}

/* A copy of v's n elements of size sz; NULL only for NULL, as the original's. */
static void *dup_array(const void *v, size_t n, size_t sz)
{
	void *c;

	if (!v)
		return NULL;
	c = xmalloc(n ? n * sz : 1);
	memcpy(c, v, n * sz);
	return c;
}

static struct fp_sysstat *sysstat_copy(const struct fp_sysstat *s)
{
	struct fp_sysstat *c = xmalloc(sizeof(*c));

	*c = *s;
	c->errnos = dup_array(s->errnos, s->nerrnos, sizeof(*s->errnos));
	c->errnos_cap = s->nerrnos;
	c->per_source = dup_array(s->per_source, s->nper_source, sizeof(*s->per_source));
	c->per_source_cap = s->nper_source;
	for (uint32_t j = 0; j < s->nper_source; j++)
		c->per_source[j].errnos =
		    dup_array(s->per_source[j].errnos, s->per_source[j].nerrnos, sizeof(*s->per_source[j].errnos));
	c->errsrc = dup_array(s->errsrc, s->nerrsrc, sizeof(*s->errsrc));
	for (uint32_t i = 0; i < s->nerrsrc; i++) {
		struct fp_errsrc *e = &c->errsrc[i];

		e->procs = dup_array(e->procs, e->nprocs, sizeof(*e->procs));
		for (uint32_t j = 0; j < e->nprocs; j++)
			e->procs[j].name = xstrdup(e->procs[j].name);
		e->paths = dup_array(e->paths, e->npaths, sizeof(*e->paths));
		for (uint32_t j = 0; j < e->npaths; j++)
			e->paths[j].name = xstrdup(e->paths[j].name);
	}
	c->reach = dup_array(s->reach, s->nreach, sizeof(*s->reach));
	c->reach_cap = s->nreach;
	return c;
}

void fp_sctab_copy(struct fp_sctab *to, const struct fp_sctab *from)
{
	*to = *from;
	to->slots = dup_array(from->slots, from->cap, sizeof(*from->slots));
	for (uint32_t i = 0; i < from->cap; i++)
		if (from->slots[i])
			to->slots[i] = sysstat_copy(from->slots[i]);
}

void fp_proc_files_copy(struct fp_proc *to, const struct fp_proc *from)
{
	to->files = dup_array(from->files, from->files_cap, sizeof(*from->files));
	for (uint32_t j = 0; j < from->files_cap; j++) {
		if (!from->files[j])
			continue;
		to->files[j] = xmalloc(sizeof(*to->files[j]));
		*to->files[j] = *from->files[j];
		to->files[j]->path = xstrdup(from->files[j]->path);
	}
}

void fp_sctab_filter(struct fp_sctab *t, bool (*keep)(struct fp_sysstat *s, void *ctx), void *ctx)
{
	struct fp_sysstat **old = t->slots;

	if (!t->cap)
		return;
	/* Open addressing: what stays is inserted again, so no probe chain is cut by a removed entry. */
	t->slots = xcalloc(t->cap, sizeof(*t->slots));
	t->count = 0;
	for (uint32_t i = 0; i < t->cap; i++) {
		if (!old[i])
			continue;
		if (keep(old[i], ctx)) {
			sctab_insert(t, old[i]);
			t->count++;
		} else {
			sysstat_free(old[i]);
		}
	}
	free(old);
}

static int cmp_abi_name(const void *a, const void *b)
{
	const struct fp_sysstat *x = *(const struct fp_sysstat *const *)a;
	const struct fp_sysstat *y = *(const struct fp_sysstat *const *)b;

	if (x->abi != y->abi)
		return x->abi < y->abi ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct fp_sysstat **fp_sctab_sorted(const struct fp_sctab *t, int (*cmp)(const void *, const void *))
{
	struct fp_sysstat **v = xcalloc(t->count + 1, sizeof(*v));
	uint32_t n = 0;

	for (uint32_t i = 0; i < t->cap; i++)
		if (t->slots[i])
			v[n++] = t->slots[i];
	qsort(v, n, sizeof(*v), cmp ? cmp : cmp_abi_name);
	return v;
}

static const char *sc_name(struct footprint *fp, enum kf_abi abi, int nr)
{
	char buf[32];
	const struct kf_syscall *row = kf_syscall_by_nr(abi, nr);

	return row ? row->name : fp__intern(fp, kf_syscall_name(abi, nr, buf, sizeof(buf)));
}

void fp_sysstat_add_errno(struct fp_sysstat *s, int err, uint64_t n)
{
	uint32_t i = 0;

	while (i < s->nerrnos && s->errnos[i].err < err)
		i++;
	if (i < s->nerrnos && s->errnos[i].err == err) {
		s->errnos[i].count += n;
		return;
	}
	if (s->nerrnos == s->errnos_cap) {
		s->errnos_cap = s->errnos_cap ? s->errnos_cap * 2 : 4;
		s->errnos = xrealloc(s->errnos, s->errnos_cap * sizeof(*s->errnos));
	}
	memmove(&s->errnos[i + 1], &s->errnos[i], (s->nerrnos - i) * sizeof(*s->errnos));
	s->errnos[i].err = err;
	s->errnos[i].count = n;
	s->nerrnos++;
}

void fp__account(struct footprint *fp, struct fp_proc *p, enum kf_abi abi, int nr, int err, uint64_t calls,
		 uint64_t time_ns)
{
	struct fp_sysstat *s = fp_sctab_find(&fp->syscalls, abi, nr);

	if (!s)
		s = fp_sctab_get(&fp->syscalls, abi, nr, sc_name(fp, abi, nr));
	s->calls += calls;
	s->time_ns += time_ns;
	if (err) {
		s->errors += calls;
		fp_sysstat_add_errno(s, err, calls);
	}
	if (!p)
		return;
	struct fp_sysstat *ps = fp_sctab_get(&p->syscalls, abi, nr, s->name);

	ps->calls += calls;
	ps->time_ns += time_ns;
	if (err)
		ps->errors += calls;
}

void fp__at_attach(struct footprint *fp, enum kf_abi abi, int nr, uint64_t n)
{
	struct fp_sysstat *s = fp_sctab_find(&fp->syscalls, abi, nr);

	if (!s)
		s = fp_sctab_get(&fp->syscalls, abi, nr, sc_name(fp, abi, nr));
	s->at_attach += n;
}

void fp__seccomp_kill(struct footprint *fp, struct fp_proc *p, enum kf_abi abi, int nr, uint64_t n)
{
	if (!p || !n)
		return;
	fp_sctab_get(&p->seccomp_kills, abi, nr, sc_name(fp, abi, nr))->calls += n;
}

/* --- processes ----------------------------------------------------------------------------------- */

static uint32_t pid_slot(const struct footprint *fp, pid_t pid)
{
	return ((uint32_t)pid * 2654435761u) & (fp->pid_hash_cap - 1);
}

struct fp_proc *fp__proc_find(struct footprint *fp, pid_t pid)
{
	if (!fp->pid_hash_cap)
		return NULL;
	for (struct fp_proc *p = fp->pid_hash[pid_slot(fp, pid)]; p; p = p->hash_next)
		if (p->pid == pid)
			return p;
	return NULL;
}

static void hash_remove(struct footprint *fp, struct fp_proc *p)
{
	struct fp_proc **pp;

	if (!p->live)
		return;
	for (pp = &fp->pid_hash[pid_slot(fp, p->pid)]; *pp; pp = &(*pp)->hash_next) {
		if (*pp == p) {
			*pp = p->hash_next;
			break;
		}
	}
	p->hash_next = NULL;
	p->live = false;
}

struct fp_proc *fp__proc_new(struct footprint *fp, pid_t pid, pid_t ppid, uint64_t mono_ns)
{
	struct fp_proc *p = fp__proc_find(fp, pid);

	if (p) /* the pid was reused before we saw the old process go: keep the old one as it was */
		hash_remove(fp, p);
	if (!fp->pid_hash_cap) {
		fp->pid_hash_cap = 256;
		fp->pid_hash = xcalloc(fp->pid_hash_cap, sizeof(*fp->pid_hash));
	}
	p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->ppid = ppid;
	p->start_s = fp__rel_s(fp, mono_ns);
	p->end_s = -1;
	p->threads = 1;
	uint32_t slot = pid_slot(fp, pid);
	p->hash_next = fp->pid_hash[slot];
	fp->pid_hash[slot] = p;
	p->live = true;
	XGROW(fp->procs, fp->procs_cap, fp->nprocs + 1);
	fp->procs[fp->nprocs++] = p;
	return p;
}

void fp__proc_set_argv(struct fp_proc *p, char **argv)
{
	fp_argv_free(p->argv);
	p->argv = argv;
}

void fp__proc_exec(struct footprint *fp, struct fp_proc *p, const char *exe, char **argv, const char *comm)
{
	(void)fp;
	p->execs++;
	if (exe) {
		free(p->exe);
		p->exe = xstrdup(exe);
	}
	if (argv)
		fp__proc_set_argv(p, argv);
	if (comm) {
		size_t n = strnlen(comm, sizeof(p->comm) - 1);

		memcpy(p->comm, comm, n);
		p->comm[n] = '\0';
	}
	if (p->exe || *p->comm)
		fp__proc_chain_add(p, p->exe ? p->exe : p->comm);
}

void fp__proc_chain_add(struct fp_proc *p, const char *prog)
{
	size_t n = 0;

	while (p->exec_chain && p->exec_chain[n])
		n++;
	if (n == FP_EXEC_CHAIN_MAX) {
		free(p->exec_chain[0]);
		memmove(p->exec_chain, p->exec_chain + 1, --n * sizeof(*p->exec_chain));
	} else {
		p->exec_chain = xrealloc(p->exec_chain, (n + 2) * sizeof(*p->exec_chain));
	}
	p->exec_chain[n++] = xstrdup(prog);
	p->exec_chain[n] = NULL;
}

void fp__proc_exit(struct footprint *fp, struct fp_proc *p, struct fp_exit how, uint64_t mono_ns)
{
	p->exit = how;
	p->end_s = fp__rel_s(fp, mono_ns);
	hash_remove(fp, p);
}

/* --- files --------------------------------------------------------------------------------------- */

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

struct fp_file *fp__file(struct fp_proc *p, const char *path)
{
	uint32_t i;

	if ((p->nfiles + 1) * 2 > p->files_cap) {
		struct fp_file **old = p->files;
		uint32_t oldcap = p->files_cap;

		p->files_cap = oldcap ? oldcap * 2 : 16;
		p->files = xcalloc(p->files_cap, sizeof(*p->files));
		for (uint32_t j = 0; j < oldcap; j++) {
			if (!old[j])
				continue;
			for (i = str_hash(old[j]->path) & (p->files_cap - 1); p->files[i];
			     i = (i + 1) & (p->files_cap - 1))
				;
			p->files[i] = old[j];
		}
		free(old);
	}
	for (i = str_hash(path) & (p->files_cap - 1); p->files[i]; i = (i + 1) & (p->files_cap - 1))
		if (!strcmp(p->files[i]->path, path))
			return p->files[i];
	p->files[i] = xcalloc(1, sizeof(**p->files));
	p->files[i]->path = xstrdup(path);
	p->nfiles++;
	return p->files[i];
}

void fp__open(struct footprint *fp, struct fp_proc *p, const char *path, int oflags, int err, uint64_t n)
{
	(void)fp;
	if (!p || !path)
		return;
	struct fp_file *f = fp__file(p, path);
	int acc = oflags & O_ACCMODE;

	if (err) {
		f->errors += n;
		p->open_errors += n;
		return;
	}
	f->opens += n;
	if (acc == O_RDONLY || acc == O_RDWR) {
		f->opens_read += n;
		p->opens_read += n;
	}
	if (acc == O_WRONLY || acc == O_RDWR) {
		f->opens_write += n;
		p->opens_write += n;
	}
}

void fp_proc_files_filter(struct fp_proc *p, bool (*keep)(struct fp_file *f, void *ctx), void *ctx)
{
	struct fp_file **old = p->files;

	if (!p->files_cap)
		return;
	p->files = xcalloc(p->files_cap, sizeof(*p->files));
	p->nfiles = 0;
	for (uint32_t j = 0; j < p->files_cap; j++) {
		uint32_t i;

		if (!old[j])
			continue;
		if (!keep || !keep(old[j], ctx)) {
			free(old[j]->path);
			free(old[j]);
			continue;
		}
		for (i = str_hash(old[j]->path) & (p->files_cap - 1); p->files[i]; i = (i + 1) & (p->files_cap - 1))
			;
		p->files[i] = old[j];
		p->nfiles++;
	}
	free(old);
}

static int cmp_file(const void *a, const void *b)
{
	return strcmp((*(const struct fp_file *const *)a)->path, (*(const struct fp_file *const *)b)->path);
}

struct fp_file **fp_proc_files_sorted(const struct fp_proc *p)
{
	struct fp_file **v = xcalloc(p->nfiles + 1, sizeof(*v));
	uint32_t n = 0;

	for (uint32_t i = 0; i < p->files_cap; i++)
		if (p->files[i])
			v[n++] = p->files[i];
	qsort(v, n, sizeof(*v), cmp_file);
	return v;
}

void fp__lost(struct footprint *fp, uint64_t n)
{
	if (!n)
		return;
	fp->lost_events += n;
	fp__set_incomplete(fp, "lost events");
}

/* --- derived views ------------------------------------------------------------------------------- */

const char *fp_sysstat_class(const struct fp_sysstat *s)
{
	return s->annot.klass ? s->annot.klass : "unknown";
}

const char *fp_sysstat_api(const struct fp_sysstat *s, char *buf, size_t len)
{
	if (s->annot.api)
		return s->annot.api;
	snprintf(buf, len, "sys_%s", s->name);
	return buf;
}

uint64_t fp__total_calls(const struct footprint *fp)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < fp->syscalls.cap; i++)
		if (fp->syscalls.slots[i])
			n += fp->syscalls.slots[i]->calls;
	return n;
}

uint64_t fp__total_errors(const struct footprint *fp)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < fp->syscalls.cap; i++)
		if (fp->syscalls.slots[i])
			n += fp->syscalls.slots[i]->errors;
	return n;
}

static size_t pid_key_slot(uint32_t source, pid_t pid, size_t mask)
{
	return (size_t)((((uint64_t)source << 32 | (uint32_t)pid) * 0x9e3779b97f4a7c15ULL) >> 20) & mask;
}

size_t *fp__parents(const struct footprint *fp)
{
	size_t n = fp->nprocs, cap = 64, *parent = xcalloc(n + 1, sizeof(*parent));
	size_t *prev = xcalloc(n + 1, sizeof(*prev)), *slots; /* indexes + 1: the latest with a (source, pid) */

	while (cap < 2 * n)
		cap *= 2;
	slots = xcalloc(cap, sizeof(*slots));
	for (size_t i = 0; i < n; i++) {
		const struct fp_proc *p = fp->procs[i];
		size_t s = pid_key_slot(p->source, p->ppid, cap - 1), j;

		for (; slots[s]; s = (s + 1) & (cap - 1)) {
			const struct fp_proc *q = fp->procs[slots[s] - 1];

			if (q->pid == p->ppid && q->source == p->source)
				break;
		}
		/* the latest one that started no later, as fp__parent() has it */
		for (j = slots[s]; j && fp->procs[j - 1]->start_s > p->start_s; j = prev[j - 1])
			;
		parent[i] = j;
		for (s = pid_key_slot(p->source, p->pid, cap - 1); slots[s]; s = (s + 1) & (cap - 1)) {
			const struct fp_proc *q = fp->procs[slots[s] - 1];

			if (q->pid == p->pid && q->source == p->source)
				break;
		}
		prev[i] = slots[s];
		slots[s] = i + 1;
	}
	free(slots);
	free(prev);
	return parent;
}

struct fp_proc *fp__parent(const struct footprint *fp, const struct fp_proc *p)
{
	/*
	 * The latest process with that pid that started no later than the child: pids are reused. In a merged
	 * footprint, pids are those of the child's source.
	 */
	struct fp_proc *best = NULL;

	for (size_t i = 0; i < fp->nprocs; i++) {
		struct fp_proc *q = fp->procs[i];

		if (q == p)
			break;
		if (q->pid == p->ppid && q->source == p->source && q->start_s <= p->start_s)
			best = q;
	}
	return best;
}
