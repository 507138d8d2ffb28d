// SPDX-License-Identifier: GPL-2.0
/*
 * The ftrace recorder's reader (ftrace_int.h): the per-CPU trace_pipe_raw files give the ring buffer's pages
 * as they are, parsed here (include/linux/ring_buffer.h: a page header, then events of a 32-bit header
 * type_len:5 time_delta:27), which costs less than libtraceevent's generic parser and needs no library. Only
 * three event types matter: a function call (function, or funcgraph_entry), raw_syscalls sys_enter and
 * sys_exit, whose ids and field offsets come from their format files.
 *
 * A task that sleeps in a syscall may wake on another CPU: the CPUs' events are merged by time (the instance's
 * default clock, which trace-cmd report merges by too) before the syscall a function ran under is looked up,
 * up to 100 ms before the newest event read while the workload runs: an event still being written when its CPU
 * was read is never that old. (A clock of our choosing would cost: "mono" reads the clocksource through
 * traceable functions, read_hpet under QEMU, which then show up as the workload's.)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/ftrace_int.h"
#include "util/error.h"
#include "util/xalloc.h"

#define FTR_ROOT "/sys/kernel/tracing"

#define RB_TYPE_PADDING	    29
#define RB_TYPE_TIME_EXTEND 30
#define RB_TYPE_TIME_STAMP  31
#define RB_TS_SHIFT	    27
#define RB_MISSED_MASK	    (3ull << 30)

/* include/linux/trace_events.h: enum trace_flag_type */
#define TRACE_FLAG_HARDIRQ 0x08
#define TRACE_FLAG_NMI	   0x40

#define CUTOFF_NS 100000000ull
#define POLL_MS	  50

/* "field:TYPE NAME;\toffset:N;\tsize:N;": the field whose name is `name` (or ends in ".name"). */
static int parse_field(const char *fmt, const char *name, int *off, int *size)
{
	size_t l = strlen(name);

	for (const char *p = strstr(fmt, "field:"); p; p = strstr(p + 1, "field:")) {
		const char *semi = strchr(p, ';');

		if (!semi || (size_t)(semi - p) < l + 1)
			continue;
		if (!memcmp(semi - l, name, l) && (semi[-(long)l - 1] == ' ' || semi[-(long)l - 1] == '.') &&
		    sscanf(semi, "; offset:%d; size:%d;", off, size) == 2)
			return 0;
	}
	return -1;
}

static int read_format(const char *event, const char *field, struct ftr_fmt *f, char *why, size_t len)
{
	char buf[4096], file[128];
	const char *id;

	snprintf(file, sizeof(file), "events/%s/format", event);
	if (ftr_read(FTR_ROOT, file, buf, sizeof(buf)) <= 0) {
		snprintf(why, len, "'%s/%s': %s", FTR_ROOT, file, strerror(errno));
		return -1;
	}
	id = strstr(buf, "\nID: ");
	if (!id || sscanf(id, "\nID: %d", &f->id) != 1 || parse_field(buf, field, &f->off, &f->size) < 0 ||
	    f->off < 8 || f->size < 1 || f->size > 8) {
		snprintf(why, len, "'%s/%s': no ID or no field '%s' where expected", FTR_ROOT, file, field);
		return -1;
	}
	return 0;
}

int ftr_reader_open(struct ftr *t, char *why, size_t len)
{
	char buf[4096];
	int doff, dsize;
	DIR *d;
	struct dirent *e;
	char path[320];

	if (read_format(t->graph ? "ftrace/funcgraph_entry" : "ftrace/function", t->graph ? "func" : "ip", &t->func,
			why, len) < 0)
		return -1;
	t->enter.id = t->exit_.id = -1;
	if (t->syscalls && (read_format("raw_syscalls/sys_enter", "id", &t->enter, why, len) < 0 ||
			    read_format("raw_syscalls/sys_exit", "id", &t->exit_, why, len) < 0))
		return -1;
	if (ftr_read(FTR_ROOT, "events/header_page", buf, sizeof(buf)) <= 0 ||
	    parse_field(buf, "data", &doff, &dsize) < 0 || doff < 12 || dsize <= 0) {
		snprintf(why, len, "'%s/events/header_page': unreadable or not as expected", FTR_ROOT);
		return -1;
	}
	t->data_off = doff;
	t->subbuf = (size_t)doff + (size_t)dsize;
	if (ftr_read(t->dir, "buffer_subbuf_size_kb", buf, sizeof(buf)) > 0 && atoi(buf) > 0)
		t->subbuf = (size_t)atoi(buf) * 1024;
	snprintf(path, sizeof(path), "%s/per_cpu", t->dir);
	d = opendir(path);
	if (!d) {
		snprintf(why, len, "'%s': %s", path, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		int cpu;
		char file[400];
		int fd;

		if (sscanf(e->d_name, "cpu%d", &cpu) != 1)
			continue;
		snprintf(file, sizeof(file), "%s/cpu%d/trace_pipe_raw", path, cpu);
		fd = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			snprintf(why, len, "'%s': %s", file, strerror(errno));
			closedir(d);
			return -1;
		}
		t->cpus = xrealloc(t->cpus, (size_t)(t->ncpu + 1) * sizeof(*t->cpus));
		t->cpus[t->ncpu++] = (struct ftr_cpu){.cpu = cpu, .fd = fd};
	}
	closedir(d);
	if (!t->ncpu) {
		snprintf(why, len, "'%s': no CPUs", path);
		return -1;
	}
	return 0;
}

static void push(struct ftr *t, struct ftr_cpu *c, uint64_t ts, uint64_t addr, int32_t pid, int32_t kind)
{
	if (ts > t->newest)
		t->newest = ts;
	XGROW(c->evs, c->cap, c->nevs + 1);
	c->evs[c->nevs++] = (struct ftr_ev){ts, addr, pid, kind};
}

static uint64_t field(const unsigned char *data, const struct ftr_fmt *f)
{
	uint64_t v = 0;

	memcpy(&v, data + f->off, (size_t)f->size); /* little-endian: the low bytes */
	return v;
}

static void decode_event(struct ftr *t, struct ftr_cpu *c, uint64_t ts, const unsigned char *data, size_t len)
{
	uint16_t type;
	int32_t pid;

	if (len < 8)
		return;
	memcpy(&type, data, 2);
	memcpy(&pid, data + 4, 4);
	t->events++;
	if (type == t->func.id && len >= (size_t)(t->func.off + t->func.size)) {
		/*
		 * Hard interrupts are not the workload's doing: the seed's nofuncgraph-irqs, for the function tracer
		 * too. Softirqs run at an interrupt's exit stay, as they do in the seed's function_graph.
		 */
		if (data[2] & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_NMI))
			return;
		push(t, c, ts, field(data, &t->func), pid, FTR_FUNC);
	} else if (type == t->enter.id && len >= (size_t)(t->enter.off + t->enter.size)) {
		push(t, c, ts, field(data, &t->enter), pid, FTR_SYS_ENTER);
	} else if (type == t->exit_.id) {
		push(t, c, ts, 0, pid, FTR_SYS_EXIT);
	}
}

/* One page as trace_pipe_raw gives it. */
static void decode_page(struct ftr *t, struct ftr_cpu *c, const unsigned char *page, size_t n)
{
	uint64_t ts, commit = 0;
	const unsigned char *p, *end;

	if (n < (size_t)t->data_off)
		return;
	memcpy(&ts, page, 8);
	memcpy(&commit, page + 8, (size_t)t->data_off - 8 > 8 ? 8 : (size_t)t->data_off - 8);
	commit &= ~RB_MISSED_MASK;
	t->pages++;
	p = page + t->data_off;
	end = p + (commit < n - (size_t)t->data_off ? commit : n - (size_t)t->data_off);
	while (p + 4 <= end) {
		uint32_t h, a0 = 0;
		unsigned type_len;
		uint64_t delta;

		memcpy(&h, p, 4);
		type_len = h & 31;
		delta = h >> 5;
		if (p + 8 <= end)
			memcpy(&a0, p + 4, 4);
		switch (type_len) {
		case RB_TYPE_PADDING:
			if (!delta)
				return; /* the rest of the page is empty */
			ts += delta;
			if (a0 > (size_t)(end - p))
				return; /* a corrupt length: leave the page */
			p += 4 + a0;
			break;
		case RB_TYPE_TIME_EXTEND:
			ts += ((uint64_t)a0 << RB_TS_SHIFT) + delta;
			p += 8;
			break;
		case RB_TYPE_TIME_STAMP:
			ts = ((uint64_t)a0 << RB_TS_SHIFT) + delta;
			p += 8;
			break;
		case 0:
			ts += delta;
			if (a0 < 4 || p + 4 + a0 > end)
				return;
			decode_event(t, c, ts, p + 8, a0 - 4);
			p += 4 + a0;
			break;
		default:
			ts += delta;
			if (p + 4 + type_len * 4 > end)
				return;
			decode_event(t, c, ts, p + 4, type_len * 4);
			p += 4 + type_len * 4;
		}
	}
}

static struct ftr_task *task_of(struct ftr *t, int32_t pid)
{
	uint32_t j;

	if (2 * (t->ntasks + 1) > t->tasks_cap) {
		uint32_t cap = t->tasks_cap ? t->tasks_cap * 2 : 1024;
		struct ftr_task *v = xcalloc(cap, sizeof(*v));

		for (uint32_t i = 0; i < t->tasks_cap; i++) {
			if (!t->tasks[i].pid)
				continue;
			for (j = ((uint32_t)t->tasks[i].pid * 2654435761u) & (cap - 1); v[j].pid;
			     j = (j + 1) & (cap - 1))
				;
			v[j] = t->tasks[i];
		}
		free(t->tasks);
		t->tasks = v;
		t->tasks_cap = cap;
	}
	for (j = ((uint32_t)pid * 2654435761u) & (t->tasks_cap - 1); t->tasks[j].pid; j = (j + 1) & (t->tasks_cap - 1))
		if (t->tasks[j].pid == pid)
			return &t->tasks[j];
	t->tasks[j] = (struct ftr_task){pid, -1};
	t->ntasks++;
	return &t->tasks[j];
}

/* Counts the events older than cutoff, every CPU's merged by time; keeps the others for the next round. */
static void count_until(struct ftr *t, uint64_t cutoff)
{
	for (;;) {
		struct ftr_cpu *best = NULL;
		const struct ftr_ev *e;

		for (int i = 0; i < t->ncpu; i++) {
			struct ftr_cpu *c = &t->cpus[i];

			if (c->head < c->nevs && c->evs[c->head].ts <= cutoff &&
			    (!best || c->evs[c->head].ts < best->evs[best->head].ts))
				best = c;
		}
		if (!best)
			break;
		e = &best->evs[best->head++];
		if (e->pid <= 0) /* the idle task: never the workload's */
			continue;
		switch (e->kind) {
		case FTR_FUNC: kfr_count(&t->counts, e->addr, t->syscalls ? task_of(t, e->pid)->nr : -1, 1); break;
		case FTR_SYS_ENTER: task_of(t, e->pid)->nr = (int32_t)e->addr; break;
		default: task_of(t, e->pid)->nr = -1;
		}
	}
	for (int i = 0; i < t->ncpu; i++) {
		struct ftr_cpu *c = &t->cpus[i];

		memmove(c->evs, c->evs + c->head, (c->nevs - c->head) * sizeof(*c->evs));
		c->nevs -= c->head;
		c->head = 0;
	}
}

/* Reads every page there is now, then counts up to cutoff. */
static void round_(struct ftr *t, unsigned char *page, uint64_t cutoff)
{
	for (int i = 0; i < t->ncpu; i++) {
		ssize_t n;

		while ((n = read(t->cpus[i].fd, page, t->subbuf)) > 0)
			decode_page(t, &t->cpus[i], page, (size_t)n);
	}
	count_until(t, cutoff);
}

static void *reader(void *arg)
{
	struct ftr *t = arg;
	unsigned char *page = xmalloc(t->subbuf);
	struct pollfd *pfd = xcalloc((size_t)t->ncpu + 1, sizeof(*pfd));

	for (int i = 0; i < t->ncpu; i++)
		pfd[i] = (struct pollfd){.fd = t->cpus[i].fd, .events = POLLIN};
	pfd[t->ncpu] = (struct pollfd){.fd = t->wake[0], .events = POLLIN};
	while (!__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE)) {
		round_(t, page, t->newest > CUTOFF_NS ? t->newest - CUTOFF_NS : 0);
		poll(pfd, (nfds_t)t->ncpu + 1, POLL_MS);
	}
	free(pfd);
	free(page);
	return NULL;
}

int ftr_reader_start(struct ftr *t)
{
	sigset_t all, old;
	int err;

	if (pipe2(t->wake, O_CLOEXEC) < 0)
		return perror_msg("kernel functions: pipe");
	/* signals stay with the main thread, whose blocking waits they must interrupt */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&t->thread, NULL, reader, t);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		errno = err;
		return perror_msg("kernel functions: a reader thread");
	}
	t->thread_running = true;
	return 0;
}

void ftr_reader_stop(struct ftr *t)
{
	unsigned char *page;

	if (t->thread_running) {
		__atomic_store_n(&t->stop, 1, __ATOMIC_RELEASE);
		if (write(t->wake[1], "x", 1) < 0)
			debug("kernel functions: waking the reader: %s", strerror(errno));
		pthread_join(t->thread, NULL);
		t->thread_running = false;
	}
	if (!t->ncpu)
		return;
	page = xmalloc(t->subbuf);
	round_(t, page, UINT64_MAX);
	free(page);
}

void ftr_reader_close(struct ftr *t)
{
	if (t->thread_running) {
		__atomic_store_n(&t->stop, 1, __ATOMIC_RELEASE);
		if (write(t->wake[1], "x", 1) < 0)
			debug("kernel functions: waking the reader: %s", strerror(errno));
		pthread_join(t->thread, NULL);
		t->thread_running = false;
	}
	for (int i = 0; i < t->ncpu; i++) {
		close(t->cpus[i].fd);
		free(t->cpus[i].evs);
	}
	free(t->cpus);
	t->cpus = NULL;
	t->ncpu = 0;
	if (t->wake[0] > 0) {
		close(t->wake[0]);
		close(t->wake[1]);
		t->wake[0] = t->wake[1] = 0;
	}
	free(t->tasks);
	t->tasks = NULL;
	t->tasks_cap = t->ntasks = 0;
}
