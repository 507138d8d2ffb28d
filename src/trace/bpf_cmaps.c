// SPDX-License-Identifier: GPL-2.0
/*
 * The mappings of the started command's processes as perf record learns them (csite_int.h): a dummy software event
 * on the command, held before its exec, inherited by every task it makes, one per CPU (the kernel maps no ring of
 * an inherited event on every CPU), with mmap, mmap2, comm (exec) and task
 * records timed by CLOCK_MONOTONIC, the clock of kfcsite.bpf.c's events. A process's images are kept, each from its
 * exec (or fork) on, with its file mappings and their times, so that an event is symbolized with its image's
 * mappings as they were at its call, also once the process is gone: /proc/PID/maps is then empty.
 * munmap is not recorded (perf does not either): a later mapping over an address replaces the earlier one there.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/csite_int.h"
#include "util/xalloc.h"

#define CSM_PAGES 128 /* data pages of each CPU's ring: 512 KiB, about 4000 mappings between two drains */

struct csm_map {
	uint64_t time, start, end, pgoff, ino;
	uint32_t maj, min, prot, image;
	char *path;
};

struct csm_proc {
	pid_t tgid;
	uint32_t nimages;
	uint64_t *since; /* since[i]: when image i+1 began (its exec, or the fork that made the process) */
	struct csm_map *maps;
	size_t nmaps;
};

struct csm {
	int ncpus;
	int *fd;
	void **ring;
	size_t size;
	char *held; /* the records of a drain, to be taken in by time whatever their CPU */
	size_t nheld, capheld;
	struct csm_proc *procs;
	size_t nprocs;
	uint64_t records;
	bool lost;
};

static struct csm_proc *proc_find(struct csm *m, pid_t tgid)
{
	for (size_t i = m->nprocs; i-- > 0;)
		if (m->procs[i].tgid == tgid)
			return &m->procs[i];
	return NULL;
}

/* A new image of tgid from time t (a reused pid goes on counting): the process's. */
static struct csm_proc *image_begin(struct csm *m, pid_t tgid, uint64_t t)
{
	struct csm_proc *p = proc_find(m, tgid);

	if (!p) {
		m->procs = xrealloc(m->procs, (m->nprocs + 1) * sizeof(*m->procs));
		p = &m->procs[m->nprocs++];
		*p = (struct csm_proc){.tgid = tgid};
	}
	p->since = xrealloc(p->since, (p->nimages + 1) * sizeof(*p->since));
	p->since[p->nimages++] = t;
	return p;
}

static void map_add(struct csm_proc *p, const struct csm_map *src, uint64_t t)
{
	struct csm_map *d;

	p->maps = xrealloc(p->maps, (p->nmaps + 1) * sizeof(*p->maps));
	d = &p->maps[p->nmaps++];
	*d = *src;
	d->time = t;
	d->image = p->nimages;
	d->path = xstrdup(src->path);
}

static void on_mmap2(struct csm *m, const struct perf_event_header *h, const void *rec)
{
	const struct {
		__u32 pid, tid;
		__u64 addr, len, pgoff;
		__u32 maj, min;
		__u64 ino, ino_generation;
		__u32 prot, flags;
		char filename[];
	} *r = rec;
	const uint64_t *time = (const uint64_t *)((const char *)rec + h->size - sizeof(*h) - 8);
	struct csm_proc *p = proc_find(m, (pid_t)r->pid);
	struct csm_map map = {.start = r->addr,
			      .end = r->addr + r->len,
			      .pgoff = r->pgoff,
			      .ino = r->ino,
			      .maj = r->maj,
			      .min = r->min,
			      .prot = r->prot,
			      .path = (char *)r->filename};

	/* files and the vdso: the modules libdwfl makes of /proc/PID/maps (heap and anonymous maps are not) */
	if (!p || !p->nimages || (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) ||
	    (r->filename[0] != '/' && strcmp(r->filename, "[vdso]")))
		return;
	if (!memchr(r->filename, 0, h->size - sizeof(*h) - sizeof(*r)))
		return;
	map_add(p, &map, *time);
}

/* A new process starts as a copy of its parent's image at the fork. */
static void on_fork(struct csm *m, const void *rec)
{
	const struct {
		__u32 pid, ppid, tid, ptid;
		__u64 time;
	} *r = rec;
	struct csm_proc *parent, *child;
	size_t n;

	if (r->pid != r->tid || r->pid == r->ppid)
		return; /* a thread: its process's maps */
	child = image_begin(m, (pid_t)r->pid, r->time);
	parent = proc_find(m, (pid_t)r->ppid);
	if (!parent || !parent->nimages)
		return;
	n = parent->nmaps;
	for (size_t i = 0; i < n; i++)
		if (parent->maps[i].image == parent->nimages && parent->maps[i].time <= r->time)
			map_add(child, &parent->maps[i], parent->maps[i].time);
}

static void on_record(struct csm *m, const struct perf_event_header *h)
{
	const void *rec = h + 1;

	m->records++;
	switch (h->type) {
	case PERF_RECORD_MMAP2: on_mmap2(m, h, rec); break;
	case PERF_RECORD_FORK: on_fork(m, rec); break;
	case PERF_RECORD_COMM:
		if (h->misc & PERF_RECORD_MISC_COMM_EXEC) /* at begin_new_exec: before the new image's mappings */
			image_begin(m, (pid_t)((const __u32 *)rec)[0],
				    *(const uint64_t *)((const char *)rec + h->size - sizeof(*h) - 8));
		break;
	case PERF_RECORD_LOST: m->lost = true; break;
	default: break;
	}
}

static uint64_t record_time(const struct perf_event_header *h)
{
	uint64_t t;

	memcpy(&t, (const char *)h + h->size - sizeof(t), sizeof(t)); /* sample_id_all's: last */
	return t;
}

static int by_time(const void *a, const void *b)
{
	uint64_t x = record_time(*(const struct perf_event_header *const *)a),
		 y = record_time(*(const struct perf_event_header *const *)b);

	return x < y ? -1 : x > y;
}

/* Copies the ring's new records into m->held. */
static void take(struct csm *m, void *ring)
{
	struct perf_event_mmap_page *pg = ring;
	const char *data = (const char *)ring + pg->data_offset;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), tail = pg->data_tail;
	uint64_t size = pg->data_size;

	while (tail < head) {
		struct perf_event_header h;
		size_t at = (size_t)(tail % size);

		for (size_t i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(at + i) % size];
		if (h.size < sizeof(h) + sizeof(uint64_t) || h.size % 8)
			break;
		XGROW(m->held, m->capheld, m->nheld + h.size);
		for (size_t i = 0; i < h.size; i++)
			m->held[m->nheld + i] = data[(at + i) % size];
		m->nheld += h.size;
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
}

void csm_drain(struct csm *m)
{
	const struct perf_event_header **recs = NULL;
	size_t n = 0, cap = 0;

	m->nheld = 0;
	for (int i = 0; i < m->ncpus; i++)
		if (m->ring[i])
			take(m, m->ring[i]);
	if (!m->nheld)
		return;
	for (size_t at = 0; at < m->nheld; at += ((const struct perf_event_header *)(m->held + at))->size) {
		XGROW(recs, cap, n + 1);
		recs[n++] = (const struct perf_event_header *)(m->held + at);
	}
	/* a fork's copy needs its parent's maps first, an image the maps made after its exec */
	qsort(recs, n, sizeof(*recs), by_time);
	for (size_t i = 0; i < n; i++)
		on_record(m, recs[i]);
	free(recs);
}

struct csm *csm_new(pid_t pid, char *why, size_t len)
{
	struct perf_event_attr a = {
	    .type = PERF_TYPE_SOFTWARE,
	    .config = PERF_COUNT_SW_DUMMY,
	    .size = sizeof(a),
	    .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	    .sample_id_all = 1,
	    .mmap = 1,
	    .mmap2 = 1,
	    .mmap_data = 1, /* a module begins at its file's first, read-only, mapping */
	    .comm = 1,
	    .comm_exec = 1,
	    .task = 1,
	    .inherit = 1,
	    .exclude_kernel = 1,
	    .exclude_hv = 1,
	    .use_clockid = 1,
	    .clockid = CLOCK_MONOTONIC,
	};
	struct csm *m = xcalloc(1, sizeof(*m));

	m->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (m->ncpus <= 0)
		m->ncpus = 1;
	m->fd = xcalloc((size_t)m->ncpus, sizeof(*m->fd));
	m->ring = xcalloc((size_t)m->ncpus, sizeof(*m->ring));
	m->size = (size_t)(CSM_PAGES + 1) * (size_t)sysconf(_SC_PAGESIZE);
	for (int i = 0; i < m->ncpus; i++) {
		m->fd[i] = (int)syscall(SYS_perf_event_open, &a, pid, i, -1, PERF_FLAG_FD_CLOEXEC);
		if (m->fd[i] < 0 && errno == ENODEV) /* a CPU not online: none of its records */
			continue;
		if (m->fd[i] < 0) {
			snprintf(why, len, "perf_event_open (mmap records of pid %d, CPU %d): %s", (int)pid, i,
				 strerror(errno));
			csm_free(m);
			return NULL;
		}
		m->ring[i] = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_SHARED, m->fd[i], 0);
		if (m->ring[i] == MAP_FAILED) {
			m->ring[i] = NULL;
			snprintf(why, len, "mapping the perf ring of pid %d, CPU %d: %s", (int)pid, i, strerror(errno));
			csm_free(m);
			return NULL;
		}
	}
	/* the command is held before its exec: its images begin there, with the maps they then make */
	return m;
}

uint32_t csm_image(struct csm *m, pid_t tgid, uint64_t t)
{
	const struct csm_proc *p = proc_find(m, tgid);
	uint32_t i;

	if (!p || m->lost)
		return 0;
	for (i = p->nimages; i > 0 && p->since[i - 1] > t; i--)
		;
	return i;
}

static int map_cmp(const void *a, const void *b)
{
	const struct csm_map *x = *(struct csm_map *const *)a, *y = *(struct csm_map *const *)b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The maps of image `image` at time t, in /proc/PID/maps's form: a later mapping wins where two overlap. */
static void write_maps(const struct csm_proc *p, uint32_t image, uint64_t t, FILE *f)
{
	struct csm_map *cut = xcalloc(2 * p->nmaps + 1, sizeof(*cut)), **by = NULL;
	size_t n = 0;

	for (size_t i = 0; i < p->nmaps; i++) {
		const struct csm_map *m = &p->maps[i];
		size_t keep = n;

		if (m->image != image || m->time > t)
			continue;
		for (size_t j = 0; j < keep; j++) { /* trim what it covers */
			struct csm_map *o = &cut[j];

			if (o->end <= m->start || o->start >= m->end)
				continue;
			if (o->start < m->start && o->end > m->end) {
				cut[n] = *o;
				cut[n].pgoff += m->end - o->start;
				cut[n++].start = m->end;
				o->end = m->start;
			} else if (o->start < m->start) {
				o->end = m->start;
			} else if (o->end > m->end) {
				o->pgoff += m->end - o->start;
				o->start = m->end;
			} else {
				o->end = o->start; /* covered whole */
			}
		}
		cut[n++] = *m;
	}
	by = xcalloc(n + 1, sizeof(*by));
	for (size_t i = 0; i < n; i++)
		by[i] = &cut[i];
	qsort(by, n, sizeof(*by), map_cmp);
	for (size_t i = 0; i < n; i++) {
		const struct csm_map *m = by[i];

		if (m->end > m->start)
			fprintf(f, "%llx-%llx %c%c%cp %08llx %02x:%02x %llu %s\n", (unsigned long long)m->start,
				(unsigned long long)m->end, m->prot & PROT_READ ? 'r' : '-',
				m->prot & PROT_WRITE ? 'w' : '-', m->prot & PROT_EXEC ? 'x' : '-',
				(unsigned long long)m->pgoff, m->maj, m->min, (unsigned long long)m->ino, m->path);
	}
	free(by);
	free(cut);
}

int csm_report(struct csm *m, Dwfl *dwfl, pid_t tgid, uint32_t image, uint64_t t)
{
	const struct csm_proc *p = proc_find(m, tgid);
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	if (!p)
		return -1;
	f = open_memstream(&text, &len);
	if (!f)
		return -1;
	write_maps(p, image, t, f);
	if (fclose(f))
		return -1;
	f = fmemopen(text, len ? len : 1, "r");
	if (!f) {
		free(text);
		return -1;
	}
	dwfl_report_begin(dwfl);
	rc = len ? dwfl_linux_proc_maps_report(dwfl, f) : 0;
	fclose(f);
	free(text);
	if (dwfl_report_end(dwfl, NULL, NULL) != 0)
		rc = -1;
	return rc ? -1 : 0;
}

bool csm_newer(struct csm *m, pid_t tgid, uint32_t image, uint64_t after, uint64_t t)
{
	const struct csm_proc *p = proc_find(m, tgid);

	for (size_t i = p ? p->nmaps : 0; i-- > 0;)
		if (p->maps[i].image == image && p->maps[i].time > after && p->maps[i].time <= t)
			return true;
	return false;
}

void csm_stats(const struct csm *m, uint64_t *records, bool *lost)
{
	*records = m->records;
	*lost = m->lost;
}

void csm_free(struct csm *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->ncpus; i++) {
		if (m->ring && m->ring[i])
			munmap(m->ring[i], m->size);
		if (m->fd && m->fd[i] > 0)
			close(m->fd[i]);
	}
	free(m->ring);
	free(m->fd);
	free(m->held);
	for (size_t i = 0; i < m->nprocs; i++) {
		for (size_t j = 0; j < m->procs[i].nmaps; j++)
			free(m->procs[i].maps[j].path);
		free(m->procs[i].maps);
		free(m->procs[i].since);
	}
	free(m->procs);
	free(m);
}
