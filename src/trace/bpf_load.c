// SPDX-License-Identifier: GPL-2.0
/*
 * bpf backend: loading the programs on two CPUs. The kernel's verification is most of kfootprint's start-up, and
 * it verifies the programs of a privileged loader concurrently, while libbpf (1.1) loads the programs of one
 * object one after another. So, asked to (split_wanted()), the skeleton's object only creates the maps (it loads no
 * program), and two more objects opened from the same ELF, sharing those maps (bpf_map__reuse_fd), each load a
 * part of the programs, one of them in a thread. The links still belong to the skeleton, so its detach and
 * destroy end them as before. Otherwise the skeleton loads everything, as libbpf does.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/kfrec.h"
#include "kfrec.skel.h"
#include "footprint/footprint.h"
#include "trace/bpf_int.h"
#include "util/error.h"
#include "util/xalloc.h"

/* One of the two objects that load the programs: opened, given the skeleton's maps and loaded by load_part(). */
struct part_load {
	struct bpf_session *s;
	const char *btf_path;
	const char *names[16]; /* its programs */
	size_t n;
	struct bpf_object *obj;
	int err;     /* 0, or the negative errno of its open or load */
	uint64_t ns; /* how long it took */
};

/* The second part's load, in a thread until bpf_attach() (or bpf_unload()) joins it. */
struct bpf_loader {
	pthread_t thread;
	bool running;
	struct part_load part[2];
	uint64_t t_split; /* when the two parts started */
};

static int cpus_usable(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	return CPU_COUNT(&set);
}

/*
 * Whether to load on two CPUs: only when asked, KF_BPF_SPLIT=1. Measured on the 2-vCPU VM (docs/bpf.md), the two
 * loads do overlap (the kernel verifies a privileged loader's programs concurrently), but the two objects more
 * cost 2 to 3.5 ms of CPU (their ELF, their BTF loaded into the kernel, the maps shared, the verifications
 * slower side by side), and the wall time to attached was the same or longer: 15.3 against 16.2 ms with the
 * machine's other work kept off (SCHED_FIFO), 38.6 against 26.5 ms with it (medians of 30).
 */
static bool split_wanted(void)
{
	const char *env = getenv("KF_BPF_SPLIT");

	return env && !strcmp(env, "1") && cpus_usable() >= 2;
}

/*
 * The program the verifier spends most of start-up on: sys_exit, with the accounting and the refinements of what
 * each call reached (2 455 of the 4 800 instructions walked, 4.5 of the 7 ms, -vv). It is verified alone, the
 * others beside it. A name, not the size: before load, a program's size leaves out the global functions it calls.
 */
static bool heaviest(const struct bpf_program *p)
{
	return !strncmp(bpf_program__name(p), "kf_sys_exit", 11);
}

/*
 * A second copy of the object that loads only the programs of its part and creates no map: every map is the
 * skeleton's. Run in the thread for the second part, so its ELF is read while the first part loads.
 */
static void *load_part(void *arg)
{
	struct part_load *pl = arg;
	struct bpf_object_open_opts oo = {
	    .sz = sizeof(oo), .object_name = "kfrec_bpf", .btf_custom_path = pl->btf_path};
	uint64_t t = fp__now_ns();
	struct bpf_program *p;
	struct bpf_map *m;
	const void *elf;
	size_t sz;

	elf = kfrec_bpf__elf_bytes(&sz);
	pl->obj = bpf_object__open_mem(elf, sz, &oo);
	if (!pl->obj) {
		pl->err = -errno;
		return NULL;
	}
	for (p = bpf_object__next_program(pl->obj, NULL); p; p = bpf_object__next_program(pl->obj, p)) {
		bool on = false;

		for (size_t i = 0; i < pl->n && !on; i++)
			on = !strcmp(bpf_program__name(p), pl->names[i]);
		bpf_program__set_autoload(p, on);
		if (on && kf_verbose >= 2)
			bpf_program__set_log_level(p, 4);
	}
	for (m = bpf_object__next_map(pl->obj, NULL); m; m = bpf_object__next_map(pl->obj, m)) {
		struct bpf_map *own = bpf_object__find_map_by_name(pl->s->skel->obj, bpf_map__name(m));

		if (!own) {
			pl->err = -ENOENT;
			return NULL;
		}
		if (bpf_map__reuse_fd(m, bpf_map__fd(own)) < 0) {
			pl->err = -errno;
			return NULL;
		}
	}
	pl->err = bpf_object__load(pl->obj);
	pl->ns = fp__now_ns() - t;
	return NULL;
}

int bpf_load(struct bpf_session *s, const char *btf_path)
{
	struct bpf_loader *l = xcalloc(1, sizeof(*l));
	struct bpf_program *p;
	uint64_t t0 = fp__now_ns(), t1;
	int err;

	for (p = bpf_object__next_program(s->skel->obj, NULL); p; p = bpf_object__next_program(s->skel->obj, p)) {
		if (bpf_program__autoload(p) && kf_verbose >= 2)
			bpf_program__set_log_level(p, 4);
	}
	for (int k = 0; k < 2; k++) {
		l->part[k].s = s;
		l->part[k].btf_path = btf_path;
	}
	for (p = bpf_object__next_program(s->skel->obj, NULL); p; p = bpf_object__next_program(s->skel->obj, p)) {
		struct part_load *pl = &l->part[heaviest(p)];

		if (bpf_program__autoload(p) && pl->n < 16)
			pl->names[pl->n++] = bpf_program__name(p);
	}
	/*
	 * Not asked, nothing to split, or CO-RE against the full kernel BTF (which each object would parse again,
	 * ~120 ms each): the skeleton loads everything itself.
	 */
	if (!l->part[0].n || !l->part[1].n || !btf_path || !split_wanted()) {
		free(l);
		return kfrec_bpf__load(s->skel);
	}
	s->loader = l;
	for (p = bpf_object__next_program(s->skel->obj, NULL); p; p = bpf_object__next_program(s->skel->obj, p))
		bpf_program__set_autoload(p, false);
	err = kfrec_bpf__load(s->skel); /* the maps only */
	if (err)
		return err;
	t1 = l->t_split = fp__now_ns();
	l->running = !pthread_create(&l->thread, NULL, load_part, &l->part[1]);
	if (!l->running)
		load_part(&l->part[1]);
	load_part(&l->part[0]);
	s->part[0] = l->part[0].obj;
	if (!l->running)
		s->part[1] = l->part[1].obj; /* else once joined */
	debug("backend bpf: maps created in %.1f ms; %zu programs opened and loaded in %.1f ms, %zu more on the other "
	      "CPU",
	      (double)(t1 - t0) / 1e6, l->part[0].n, (double)l->part[0].ns / 1e6, l->part[1].n);
	return l->part[0].err;
}

/* Waits for the second part's load; 0 or its error. */
static int join_loader(struct bpf_session *s)
{
	struct bpf_loader *l = s->loader;

	if (!l)
		return 0;
	if (l->running) {
		pthread_join(l->thread, NULL);
		l->running = false;
		s->part[1] = l->part[1].obj;
		debug("backend bpf: the other CPU's programs loaded in %.1f ms, both parts in %.1f ms",
		      (double)l->part[1].ns / 1e6, (double)(fp__now_ns() - l->t_split) / 1e6);
	}
	return l->part[1].err;
}

struct bpf_program *bpf_prog(struct bpf_session *s, const char *name)
{
	struct bpf_object *objs[3] = {s->part[0], s->part[1], s->skel->obj};

	for (int i = 0; i < 3; i++) {
		struct bpf_program *p = objs[i] ? bpf_object__find_program_by_name(objs[i], name) : NULL;

		if (p && bpf_program__fd(p) >= 0)
			return p;
	}
	return NULL;
}

int bpf_prog_fd(struct bpf_session *s, const char *name)
{
	struct bpf_program *p;

	if (bpf_cache_loaded(s))
		return bpf_cache_prog_fd(s, name, NULL);
	p = bpf_prog(s, name);
	return p ? bpf_program__fd(p) : -1;
}

bool bpf_prog_stats(struct bpf_session *s, const char *name, struct bpf_prog_info *info)
{
	const struct bpf_prog_info *base = NULL;
	int fd = bpf_cache_loaded(s) ? bpf_cache_prog_fd(s, name, &base) : bpf_prog_fd(s, name);
	__u32 len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, info, &len) < 0)
		return false;
	/* A cached program's figures run on from the runs before: this run's are the difference. */
	if (base) {
		info->run_cnt -= base->run_cnt;
		info->run_time_ns -= base->run_time_ns;
		info->recursion_misses -= base->recursion_misses;
	}
	return true;
}

void bpf_detach(struct bpf_session *s, const char *prefix)
{
	const struct bpf_object_skeleton *sk = s->skel->skeleton;

	for (int i = 0; i < sk->prog_cnt; i++) {
		const struct bpf_prog_skeleton *ps = (const void *)((const char *)sk->progs + i * sk->prog_skel_sz);

		if ((!prefix || !strncmp(ps->name, prefix, strlen(prefix))) && *ps->link) {
			bpf_link__destroy(*ps->link);
			*ps->link = NULL;
		}
	}
	bpf_cache_detach(s, prefix);
}

/* Attaches the programs one part loaded, each link in the skeleton's slot of its name (its detach ends it). */
static int attach_part(struct bpf_session *s, struct bpf_object *obj)
{
	const struct bpf_object_skeleton *sk = s->skel->skeleton;

	for (int i = 0; i < sk->prog_cnt; i++) {
		const struct bpf_prog_skeleton *ps = (const void *)((const char *)sk->progs + i * sk->prog_skel_sz);
		struct bpf_program *p = bpf_object__find_program_by_name(obj, ps->name);
		struct bpf_link *link;

		if (!p || bpf_program__fd(p) < 0 || *ps->link)
			continue;
		link = bpf_program__attach(p);
		if (!link)
			return -errno;
		*ps->link = link;
	}
	return 0;
}

int bpf_attach(struct bpf_session *s, const char **what)
{
	int err;

	*what = "attaching";
	if (bpf_cache_loaded(s))
		return bpf_cache_attach(s);
	if (!s->loader)
		return kfrec_bpf__attach(s->skel);
	/*
	 * The first part's programs while the other CPU still verifies: nothing is followed before the command is
	 * seeded, after every link is made, so the order does not matter.
	 */
	err = attach_part(s, s->part[0]);
	if (err)
		return err;
	err = join_loader(s);
	if (err) {
		*what = "loading"; /* the other CPU's part */
		return err;
	}
	return attach_part(s, s->part[1]);
}

void bpf_unload(struct bpf_session *s)
{
	join_loader(s);
	for (int k = 0; k < 2; k++) {
		bpf_object__close(s->part[k]);
		s->part[k] = NULL;
	}
	free(s->loader);
	s->loader = NULL;
}
