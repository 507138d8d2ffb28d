// SPDX-License-Identifier: GPL-2.0
/*
 * bpf backend: loading the programs on two CPUs. The kernel's verification is most of kfootprint's start-up, and
 * it verifies the programs of a privileged loader concurrently, while libbpf (1.1) loads the programs of one
 * object one after another. So, where there are two CPUs, the skeleton's object only creates the maps (it loads
 * no program), and two more objects opened from the same ELF, sharing those maps (bpf_map__reuse_fd), each load
 * a part of the programs, one of them in a thread. The links still belong to the skeleton, so its detach and
 * destroy end them as before.
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

struct part_load {
	struct bpf_object *obj;
	int err;
	uint64_t ns; /* how long its load took */
};

/* The second part's load, in a thread until bpf_attach() (or bpf_unload()) joins it. */
struct bpf_loader {
	pthread_t thread;
	bool running;
	struct part_load part[2];
	uint64_t t_split; /* when the two loads started */
};

static int cpus_usable(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	return CPU_COUNT(&set);
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
 * A second copy of the object that loads only the programs named in want[] (by the skeleton's program of that
 * name) and creates no map: every map is the skeleton's.
 */
static struct bpf_object *open_part(struct bpf_session *s, const char *btf_path, const char *const *want, size_t nwant)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .object_name = "kfrec_bpf", .btf_custom_path = btf_path);
	struct bpf_program *p;
	struct bpf_map *m;
	struct bpf_object *obj;
	const void *elf;
	size_t sz;

	elf = kfrec_bpf__elf_bytes(&sz);
	obj = bpf_object__open_mem(elf, sz, &oo);
	if (!obj)
		return NULL;
	bpf_object__for_each_program(p, obj)
	{
		bool on = false;

		for (size_t i = 0; i < nwant && !on; i++)
			on = !strcmp(bpf_program__name(p), want[i]);
		bpf_program__set_autoload(p, on);
		if (on && kf_verbose >= 2)
			bpf_program__set_log_level(p, 4);
	}
	bpf_object__for_each_map(m, obj)
	{
		struct bpf_map *own = bpf_object__find_map_by_name(s->skel->obj, bpf_map__name(m));

		if (!own || bpf_map__reuse_fd(m, bpf_map__fd(own)) < 0) {
			int e = own ? errno : ENOENT;

			bpf_object__close(obj);
			errno = e;
			return NULL;
		}
	}
	return obj;
}

static void *load_part(void *arg)
{
	struct part_load *pl = arg;
	uint64_t t = fp__now_ns();

	pl->err = bpf_object__load(pl->obj);
	pl->ns = fp__now_ns() - t;
	return NULL;
}

int bpf_load(struct bpf_session *s, const char *btf_path)
{
	const char *names[2][16];
	struct bpf_loader *l;
	struct bpf_program *p;
	size_t nn[2] = {0, 0};
	uint64_t t0 = fp__now_ns(), t1;
	int err;

	bpf_object__for_each_program(p, s->skel->obj) if (bpf_program__autoload(p) && kf_verbose >= 2)
	    bpf_program__set_log_level(p, 4);
	bpf_object__for_each_program(p, s->skel->obj)
	{
		int k = heaviest(p);

		if (bpf_program__autoload(p) && nn[k] < 16)
			names[k][nn[k]++] = bpf_program__name(p);
	}
	/*
	 * One CPU, nothing to split, or CO-RE against the full kernel BTF (which each object would parse again, ~120
	 * ms each): the skeleton loads everything itself.
	 */
	if (!nn[0] || !nn[1] || !btf_path || cpus_usable() < 2)
		return kfrec_bpf__load(s->skel);
	bpf_object__for_each_program(p, s->skel->obj) bpf_program__set_autoload(p, false);
	err = kfrec_bpf__load(s->skel); /* the maps only */
	if (err)
		return err;
	t1 = fp__now_ns();
	s->loader = l = xcalloc(1, sizeof(*l));
	for (int k = 0; k < 2; k++) {
		l->part[k].obj = s->part[k] = open_part(s, btf_path, names[k], nn[k]);
		if (!l->part[k].obj)
			return -errno;
	}
	l->t_split = fp__now_ns();
	l->running = !pthread_create(&l->thread, NULL, load_part, &l->part[1]);
	if (!l->running)
		load_part(&l->part[1]);
	load_part(&l->part[0]);
	debug("backend bpf: maps created in %.1f ms, two more objects opened in %.1f ms, %zu programs loaded in %.1f "
	      "ms, %zu more on the other CPU",
	      (double)(t1 - t0) / 1e6, (double)(l->t_split - t1) / 1e6, nn[0], (double)l->part[0].ns / 1e6, nn[1]);
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

int bpf_attach(struct bpf_session *s)
{
	int err;

	if (!s->loader)
		return kfrec_bpf__attach(s->skel);
	/*
	 * The first part's programs while the other CPU still verifies: nothing is followed before the command is
	 * seeded, after every link is made, so the order does not matter.
	 */
	err = attach_part(s, s->part[0]);
	if (!err)
		err = join_loader(s);
	if (!err)
		err = attach_part(s, s->part[1]);
	return err;
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
