// SPDX-License-Identifier: GPL-2.0
/*
 * Sampled kernel stacks (ktrace.h), where the kernel refuses function tracing: the seed's `perf record -g`,
 * reduced to what a footprint needs. A cpu-clock perf event per CPU runs src/bpf/kfstack.bpf.c, which keeps
 * the kernel stacks of the workload's tasks in a stack map with a count each; at the end every function of
 * every stack is counted once per sample it was on (inclusive), under the syscall whose entry point
 * (__x64_sys_read...) the stack holds. What it finds is what ran long enough to be sampled: sampled, not
 * exhaustive, and every report says so.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "abi/syscalls.h"
#include "bpf/kfstack.h"
#include "kfstack.skel.h"
#include "trace/ktrace.h"
#include "util/error.h"
#include "util/xalloc.h"

struct kstk {
	struct kfstack_bpf *skel;
	int *fds;
	struct bpf_link **links;
	int ncpu;
	unsigned freq;
};

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!kf_verbose || (level == LIBBPF_DEBUG && kf_verbose < 2))
		return 0;
	fputs("kfootprint: libbpf: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

static void kstk_free(struct kstk *s)
{
	for (int i = 0; i < s->ncpu; i++) {
		bpf_link__destroy(s->links[i]);
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	}
	free(s->links);
	free(s->fds);
	kfstack_bpf__destroy(s->skel);
	free(s);
}

struct kstk *kstk_new(unsigned freq, char *why, size_t len)
{
	struct kstk *s = xcalloc(1, sizeof(*s));
	int ncpu = libbpf_num_possible_cpus(), err;

	libbpf_set_print(print_libbpf);
	s->freq = freq ? freq : 999;
	if (ncpu <= 0) {
		snprintf(why, len, "cannot count the CPUs: %s", strerror(-ncpu));
		goto fail;
	}
	s->skel = kfstack_bpf__open_and_load();
	if (!s->skel) {
		snprintf(why, len, "cannot load the BPF stack sampler: %s", strerror(errno));
		goto fail;
	}
	err = kfstack_bpf__attach(s->skel);
	if (err) {
		snprintf(why, len, "cannot attach to sched_process_fork/exit: %s", strerror(-err));
		goto fail;
	}
	s->fds = xcalloc((size_t)ncpu, sizeof(*s->fds));
	s->links = xcalloc((size_t)ncpu, sizeof(*s->links));
	for (int cpu = 0; cpu < ncpu; cpu++) {
		struct perf_event_attr attr = {
		    .type = PERF_TYPE_SOFTWARE,
		    .size = sizeof(attr),
		    .config = PERF_COUNT_SW_CPU_CLOCK,
		    .freq = 1,
		    .sample_freq = s->freq,
		};
		int fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

		s->fds[s->ncpu] = fd;
		s->links[s->ncpu++] = NULL;
		if (fd < 0) {
			if (errno == ENODEV) /* a possible CPU that is not online */
				continue;
			snprintf(why, len, "perf_event_open cpu-clock on CPU %d: %s", cpu, strerror(errno));
			goto fail;
		}
		s->links[s->ncpu - 1] = bpf_program__attach_perf_event(s->skel->progs.kfs_sample, fd);
		if (!s->links[s->ncpu - 1]) {
			snprintf(why, len, "attaching the sampler to CPU %d: %s", cpu, strerror(errno));
			goto fail;
		}
	}
	debug("kernel functions: sampling kernel stacks at %u Hz on %d CPUs", s->freq, ncpu);
	return s;
fail:
	kstk_free(s);
	return NULL;
}

/* Every thread of pid; later ones follow from the kernel side's fork hook. */
int kstk_add_pid(struct kstk *s, pid_t pid)
{
	char path[64];
	DIR *d;
	struct dirent *e;
	__u8 one = 1;
	__u32 tid = (__u32)pid;
	int fd = bpf_map__fd(s->skel->maps.tasks), rc = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return bpf_map_update_elem(fd, &tid, &one, BPF_ANY)
			   ? perror_msg("kernel functions: cannot follow pid %d", pid)
			   : 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		tid = (__u32)atoi(e->d_name);
		if (bpf_map_update_elem(fd, &tid, &one, BPF_ANY))
			rc = perror_msg("kernel functions: cannot follow task %u", tid);
	}
	closedir(d);
	return rc;
}

int kstk_start(struct kstk *s)
{
	(void)s;
	return 0;
}

static uint64_t stat_sum(struct kstk *s, __u32 key)
{
	int n = libbpf_num_possible_cpus();
	__u64 *v = xcalloc((size_t)n, sizeof(*v)), sum = 0;

	if (!bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.stats), &key, v))
		for (int i = 0; i < n; i++)
			sum += v[i];
	free(v);
	return sum;
}

/*
 * One stack seen n times in syscall nr: each distinct function once. The JIT'd BPF programs (our own and the
 * bpf backend's) are no kernel source.
 */
static void count_stack(struct ktr_sink *sink, const struct ksyms *k, const __u64 *ips, int32_t nr, uint64_t n)
{
	const char *names[KFS_STACK_DEPTH], *sc = NULL;
	char sys[64];
	int depth = 0;

	if (nr >= 0)
		sc = kf_syscall_name(kf_abi_host(), nr, sys, sizeof(sys));
	for (int i = 0; i < KFS_STACK_DEPTH && ips[i]; i++) {
		const char *name = ksyms_name(k, ips[i]);
		bool seen = false;

		if (!name || !strncmp(name, "bpf_prog_", 9))
			continue;
		for (int j = 0; j < depth && !seen; j++)
			seen = names[j] == name;
		if (!seen)
			names[depth++] = name;
	}
	for (int j = 0; j < depth; j++)
		sink->hit(sink, names[j], sc, n);
}

int kstk_finish(struct kstk *s, struct ktr_sink *sink, struct kstk_stats *st, char *why, size_t len)
{
	int counts_fd = bpf_map__fd(s->skel->maps.counts), stacks_fd = bpf_map__fd(s->skel->maps.stacks);
	__u64 ips[KFS_STACK_DEPTH], n;
	struct kfs_key key, next, *prev = NULL;
	struct ksyms *k = NULL;
	int ret = 0;

	/* the samplers first: nothing changes the maps while they are read */
	for (int i = 0; i < s->ncpu; i++) {
		bpf_link__destroy(s->links[i]);
		s->links[i] = NULL;
	}
	kfstack_bpf__detach(s->skel);
	if (!sink)
		goto out;
	k = ksyms_load(why, len);
	if (!k) {
		ret = -1;
		goto out;
	}
	while (bpf_map_get_next_key(counts_fd, prev, &next) == 0) {
		key = next;
		prev = &key;
		memset(ips, 0, sizeof(ips));
		if (bpf_map_lookup_elem(counts_fd, &key, &n) || bpf_map_lookup_elem(stacks_fd, &key.stack, ips))
			continue;
		count_stack(sink, k, ips, key.nr, n);
	}
	st->samples = stat_sum(s, KFS_SAMPLES);
	st->lost = stat_sum(s, KFS_COLLIDED) + stat_sum(s, KFS_FULL) + stat_sum(s, KFS_TASKS_FULL);
	st->user = stat_sum(s, KFS_USER);
	st->nostack = stat_sum(s, KFS_NOSTACK);
out:
	ksyms_free(k);
	kstk_free(s);
	return ret;
}
