// SPDX-License-Identifier: GPL-2.0
/*
 * Error sources: which processes and paths the failures of each (syscall, errno) came from. Failed calls are
 * few next to calls, so the lists are small arrays searched linearly, bounded by FP_ERRSRC_PROCS and
 * FP_ERRSRC_PATHS so that a workload failing on a million distinct paths keeps a fixed size.
 */
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "util/xalloc.h"

struct fp_errsrc *fp_sysstat_errsrc(struct fp_sysstat *s, int err)
{
	uint32_t i = 0;

	while (i < s->nerrsrc && s->errsrc[i].err < err)
		i++;
	if (i < s->nerrsrc && s->errsrc[i].err == err)
		return &s->errsrc[i];
	s->errsrc = xrealloc(s->errsrc, (s->nerrsrc + 1) * sizeof(*s->errsrc));
	memmove(&s->errsrc[i + 1], &s->errsrc[i], (s->nerrsrc - i) * sizeof(*s->errsrc));
	memset(&s->errsrc[i], 0, sizeof(*s->errsrc));
	s->errsrc[i].err = err;
	s->nerrsrc++;
	return &s->errsrc[i];
}

/*
 * The list keeps the `max` names first in byte order, with their exact counts, and counts the others in *other:
 * a name is kept iff fewer than max smaller ones were seen, so what is kept does not depend on the order calls
 * or merged footprints came in (merging stays commutative and associative, byte for byte).
 */
static void add_item(struct fp_errsrc_item **v, uint32_t *n, uint32_t max, uint64_t *other, const char *name,
		     uint64_t count)
{
	uint32_t last = 0;

	for (uint32_t i = 0; i < *n; i++) {
		if (!strcmp((*v)[i].name, name)) {
			(*v)[i].count += count;
			return;
		}
		if (strcmp((*v)[i].name, (*v)[last].name) > 0)
			last = i;
	}
	if (*n < max) {
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[(*n)++] = (struct fp_errsrc_item){xstrdup(name), count};
	} else if (max && strcmp(name, (*v)[last].name) < 0) {
		*other += (*v)[last].count;
		free((*v)[last].name);
		(*v)[last] = (struct fp_errsrc_item){xstrdup(name), count};
	} else {
		*other += count;
	}
}

void fp_errsrc_add_proc(struct fp_errsrc *e, const char *comm, uint64_t n)
{
	add_item(&e->procs, &e->nprocs, FP_ERRSRC_PROCS, &e->procs_other, comm, n);
}

void fp_errsrc_add_path(struct fp_errsrc *e, const char *path, uint64_t n)
{
	add_item(&e->paths, &e->npaths, FP_ERRSRC_PATHS, &e->paths_other, path, n);
}

void fp__error_source(struct footprint *fp, const struct fp_proc *p, enum kf_abi abi, int nr, int err, const char *path,
		      uint64_t n)
{
	fp__error_source_comm(fp, p && p->comm[0] ? p->comm : "?", abi, nr, err, path, n);
}

void fp__error_source_comm(struct footprint *fp, const char *comm, enum kf_abi abi, int nr, int err, const char *path,
			   uint64_t n)
{
	struct fp_sysstat *s = fp_sctab_find(&fp->syscalls, abi, nr);
	struct fp_errsrc *e;

	fp->error_sources = true;
	if (!s && err > 0 && n) {
		/* The bpf backend tells a failure's source before the process's counts: the row, with none yet. */
		fp__account(fp, NULL, abi, nr, 0, 0, 0);
		s = fp_sctab_find(&fp->syscalls, abi, nr);
	}
	if (!s || err <= 0 || !n)
		return;
	e = fp_sysstat_errsrc(s, err);
	e->count += n;
	fp_errsrc_add_proc(e, comm, n);
	if (path)
		fp_errsrc_add_path(e, path, n);
}

void fp_sysstat_errsrc_release(struct fp_sysstat *s)
{
	for (uint32_t i = 0; i < s->nerrsrc; i++) {
		struct fp_errsrc *e = &s->errsrc[i];

		for (uint32_t j = 0; j < e->nprocs; j++)
			free(e->procs[j].name);
		for (uint32_t j = 0; j < e->npaths; j++)
			free(e->paths[j].name);
		free(e->procs);
		free(e->paths);
	}
	free(s->errsrc);
	s->errsrc = NULL;
	s->nerrsrc = 0;
}
