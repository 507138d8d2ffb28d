// SPDX-License-Identifier: GPL-2.0
// The re-test against the original: a call that succeeded on the full kernel and now fails with an errno that
// says "no such code here" (the guide's list: ENOSYS, EAFNOSUPPORT, ENODEV, EINVAL, ENOENT under /proc or /sys,
// ...) is a difference, named with the options its mapping (the call's and what it reached) gives.
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "abi/abi.h"
#include "footprint/footprint.h"
#include "kmap/annotate.h"
#include "kmap/kmap.h"
#include "tailor/tailor.h"
#include "util/xalloc.h"

static bool missing_code(int err)
{
	static const int errs[] = {ENOSYS,     EAFNOSUPPORT, EPROTONOSUPPORT, ESOCKTNOSUPPORT, ENODEV, ENXIO,
				   EOPNOTSUPP, ENOTTY,	     EINVAL,	      ENOENT,	       ENOPKG};
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (err == errs[i])
			return true;
	return false;
}

static uint64_t errno_count(const struct fp_sysstat *s, int err)
{
	for (uint32_t i = 0; s && i < s->nerrnos; i++)
		if (s->errnos[i].err == err)
			return s->errnos[i].count;
	return 0;
}

static void push_opt(char ***v, size_t *n, const char *o)
{
	if (o[0] == '!' || strchr(o, ' '))
		return; /* needed off, or a compound condition: nothing to add */
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], o))
			return;
	*v = xrealloc(*v, (*n + 2) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(o);
	(*v)[*n] = NULL;
}

static char **options_of(const struct fp_kernel_map *m, const struct fp_sysstat *s)
{
	char **v = xcalloc(1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; m && i < m->nrows; i++)
		if (m->rows[i].abi == s->abi && !strcmp(m->rows[i].name, s->name))
			for (size_t j = 0; j < m->rows[i].nopts; j++)
				push_opt(&v, &n, m->rows[i].opts[j]);
	for (size_t i = 0; m && i < m->nreach; i++)
		for (size_t j = 0; j < m->reach[i].nsyscalls; j++)
			if (!strcmp(m->reach[i].syscalls[j], s->name))
				for (size_t k = 0; k < m->reach[i].nopts; k++)
					push_opt(&v, &n, m->reach[i].opts[k]);
	return v;
}

int tl_compare(const struct footprint *orig, struct footprint *retest, const struct mapdb *db, struct tl_diffs *d)
{
	const struct fp_kernel_map *m = annotate_kernel(retest, db, NULL, "tailor re-test");
	for (uint32_t i = 0; i < retest->syscalls.cap; i++) {
		const struct fp_sysstat *s = retest->syscalls.slots[i];
		if (!s || !s->errors)
			continue;
		/*
		 * What rt_sigreturn returns is the interrupted code's rax, put back: an -ENODEV there is the ioctl a
		 * signal cut (stress-ng's alarm at its end), not a call that failed.
		 */
		if (!strcmp(s->name, "rt_sigreturn") || !strcmp(s->name, "sigreturn"))
			continue;
		const struct fp_sysstat *o = fp_sctab_find(&orig->syscalls, s->abi, s->nr);
		if (!o || o->calls == o->errors)
			continue; /* the original never had it succeed: a probe, not a loss */
		for (uint32_t j = 0; j < s->nerrnos; j++) {
			int err = s->errnos[j].err;
			if (!missing_code(err) || s->errnos[j].count <= errno_count(o, err))
				continue;
			XGROW(d->v, d->cap, d->n + 1);
			d->v[d->n++] =
			    (struct tl_diff){.syscall = xstrdup(s->name),
					     .abi = xstrdup(kf_abi_name(s->abi)),
					     .err = err,
					     .calls = (unsigned long long)(s->errnos[j].count - errno_count(o, err)),
					     .options = options_of(m, s)};
		}
	}
	return 0;
}

void tl_diffs_release(struct tl_diffs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].syscall);
		free(d->v[i].abi);
		for (char **o = d->v[i].options; o && *o; o++)
			free(*o);
		free(d->v[i].options);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}
