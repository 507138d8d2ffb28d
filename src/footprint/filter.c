// SPDX-License-Identifier: GPL-2.0
/* -e trace=SET and -e status=SET: which calls the report and the log show (filter.h). */
#include <stdlib.h>
#include <string.h>

#include "abi/syscalls.h"
#include "footprint/filter.h"
#include "util/error.h"
#include "util/xalloc.h"

static bool known_name(const char *name)
{
	for (int a = 0; a < KF_ABI_NR; a++)
		if (kf_syscall_by_name((enum kf_abi)a, name))
			return true;
	return false;
}

static void add_op(struct fp_filter *f, struct fp_filter_op op)
{
	f->ops = xrealloc(f->ops, (f->nops + 1) * sizeof(*f->ops));
	f->ops[f->nops++] = op;
}

static int parse_trace(struct fp_filter *f, const char *set)
{
	bool neg = *set == '!';
	char *copy = xstrdup(set + neg), *save = NULL;
	int rc = 0;

	f->trace = true;
	/* strace: a leading '!' negates the whole set, "trace=!open,close" is every call but those two */
	if (neg)
		add_op(f, (struct fp_filter_op){0});
	for (char *el = strtok_r(copy, ",", &save); el; el = strtok_r(NULL, ",", &save)) {
		struct fp_filter_op op = {.out = neg};
		bool quiet = *el == '?'; /* strace: no error for a name this architecture lacks */

		el += quiet;
		if (!strcmp(el, "all")) {
		} else if (!strcmp(el, "none")) {
			op.out = !op.out;
		} else if (*el == '%' || kf_strace_class_parse(el)) { /* strace still takes "file" for "%file" */
			op.classes = kf_strace_class_parse(el + (*el == '%'));
			if (!op.classes) {
				rc =
				    error("-e trace: unknown class '%s': expected one of %%file, %%network, %%process, "
					  "%%signal, %%memory, %%ipc, %%desc, %%creds, %%clock",
					  el);
				break;
			}
		} else if (*el && (quiet || known_name(el))) {
			op.name = xstrdup(el);
		} else {
			rc = error(*el ? "-e trace: unknown syscall '%s'" : "-e trace: an empty name in '%s'",
				   *el ? el : set);
			break;
		}
		add_op(f, op);
	}
	free(copy);
	return rc;
}

static int parse_status(struct fp_filter *f, const char *set)
{
	char *copy = xstrdup(set), *save = NULL;
	int rc = 0;

	for (char *el = strtok_r(copy, ",", &save); el; el = strtok_r(NULL, ",", &save)) {
		bool neg = *el == '!';

		if (neg)
			el++;
		if (!strcmp(el, "failed")) {
			f->failed |= !neg;
			f->successful |= neg;
		} else if (!strcmp(el, "successful")) {
			f->successful |= !neg;
			f->failed |= neg;
		} else if (!strcmp(el, "all")) {
			f->failed = f->successful = true;
		} else {
			rc = error("-e status: '%s': expected successful, failed or all (kfootprint records no other "
				   "outcome)",
				   el);
			break;
		}
	}
	free(copy);
	return rc;
}

int fp_filter_parse(struct fp_filter *f, const char *expr)
{
	const char *eq = strchr(expr, '=');

	for (int a = 0; a < KF_ABI_NR; a++) { /* a new op changes what every cached call gives */
		free(f->cache[a]);
		f->cache[a] = NULL;
	}
	if (!eq)
		return parse_trace(f, expr);
	if (!strncmp(expr, "trace=", 6) || !strncmp(expr, "t=", 2))
		return parse_trace(f, eq + 1);
	if (!strncmp(expr, "status=", 7))
		return parse_status(f, eq + 1);
	return error("-e '%s': kfootprint knows trace=SET and status=SET", expr);
}

bool fp_filter_active(const struct fp_filter *f)
{
	return f->trace || f->failed || f->successful;
}

static bool traced(const struct fp_filter *f, const char *name, unsigned classes)
{
	bool in = !f->trace;

	for (size_t i = 0; i < f->nops; i++) {
		const struct fp_filter_op *op = &f->ops[i];
		bool match = op->name ? !strcmp(op->name, name) : op->classes ? (op->classes & classes) != 0 : true;

		if (match)
			in = !op->out;
	}
	return in;
}

static bool traced_call(struct fp_filter *f, enum kf_abi abi, int nr, const char *name)
{
	const struct kf_syscall *row = (unsigned)abi < KF_ABI_NR ? kf_syscall_by_nr(abi, nr) : NULL;

	if (!f->trace)
		return true;
	if (!row)
		return name && traced(f, name, 0);
	if (!f->cache[abi]) {
		f->cache_len[abi] = kf_syscall_max_nr(abi) + 1;
		f->cache[abi] = xmalloc((size_t)f->cache_len[abi]);
		memset(f->cache[abi], -1, (size_t)f->cache_len[abi]);
	}
	if (f->cache[abi][nr] < 0)
		f->cache[abi][nr] = traced(f, row->name, row->strace);
	return f->cache[abi][nr];
}

bool fp_filter_call(struct fp_filter *f, enum kf_abi abi, int nr, const char *name, bool failed)
{
	if (f->failed != f->successful && failed != f->failed)
		return false;
	return traced_call(f, abi, nr, name);
}

/*
 * What the kept calls reached: the failed ones' (errors), or the successful ones'; a refinement left with none goes.
 * reach_other cannot be split by status, so it goes too.
 */
static void filter_reach(struct fp_sysstat *s, bool failed)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < s->nreach; i++) {
		struct fp_reach r = s->reach[i];

		if (failed) {
			r.calls = r.errors;
		} else {
			r.calls -= r.errors;
			r.errors = 0;
		}
		if (r.calls)
			s->reach[n++] = r;
	}
	s->nreach = n;
	s->reach_other = 0;
}

static bool keep_row(struct fp_sysstat *s, void *ctx)
{
	struct fp_filter *f = ctx;

	if (!traced_call(f, s->abi, s->nr, s->name))
		return false;
	if (f->failed == f->successful)
		return true;
	filter_reach(s, f->failed);
	if (f->failed) {
		if (s->errors != s->calls)
			s->time_ns = 0;
		s->calls = s->errors;
		for (uint32_t i = 0; i < s->nper_source; i++) {
			if (s->per_source[i].errors != s->per_source[i].calls)
				s->per_source[i].time_ns = 0;
			s->per_source[i].calls = s->per_source[i].errors;
		}
	} else {
		if (s->errors)
			s->time_ns = 0;
		s->calls -= s->errors;
		s->errors = 0;
		s->nerrnos = 0;
		for (uint32_t i = 0; i < s->nper_source; i++) {
			if (s->per_source[i].errors)
				s->per_source[i].time_ns = 0;
			s->per_source[i].calls -= s->per_source[i].errors;
			s->per_source[i].errors = 0;
			s->per_source[i].nerrnos = 0;
		}
	}
	return s->calls > 0;
}

static bool keep_file(struct fp_file *file, void *ctx)
{
	const struct fp_filter *f = ctx;

	if (f->failed == f->successful)
		return true;
	if (f->failed) {
		file->opens = file->opens_read = file->opens_write = 0;
		return file->errors > 0;
	}
	file->errors = 0;
	return file->opens > 0;
}

/* Files come from the open calls: kept when one of them is in the set. */
static bool opens_traced(struct fp_filter *f)
{
	for (int a = 0; a < KF_ABI_NR; a++)
		for (size_t i = 0; i < kf_syscall_count((enum kf_abi)a); i++) {
			const struct kf_syscall *row = kf_syscall_at((enum kf_abi)a, i);

			if ((row->flags & KF_SC_OPEN) && traced_call(f, (enum kf_abi)a, row->nr, row->name))
				return true;
		}
	return false;
}

void fp_filter_apply(struct fp_filter *f, struct footprint *fp)
{
	bool files;

	if (!fp_filter_active(f))
		return;
	files = opens_traced(f);
	fp_sctab_filter(&fp->syscalls, keep_row, f);
	for (size_t i = 0; i < fp->nprocs; i++) {
		struct fp_proc *p = fp->procs[i];

		fp_sctab_filter(&p->syscalls, keep_row, f);
		if (!files) {
			fp_proc_files_filter(p, NULL, NULL);
			p->opens_read = p->opens_write = p->open_errors = 0;
			continue;
		}
		fp_proc_files_filter(p, keep_file, f);
		if (f->failed != f->successful) {
			if (f->failed)
				p->opens_read = p->opens_write = 0;
			else
				p->open_errors = 0;
		}
	}
}

const struct footprint *fp_filter_view(struct fp_filter *f, const struct footprint *fp)
{
	struct footprint *v;

	if (!fp_filter_active(f))
		return fp;
	v = xmalloc(sizeof(*v));
	*v = *fp;
	fp_sctab_copy(&v->syscalls, &fp->syscalls);
	v->procs = fp->procs ? xcalloc(fp->nprocs + 1, sizeof(*v->procs)) : NULL;
	v->procs_cap = fp->nprocs;
	for (size_t i = 0; i < fp->nprocs; i++) {
		struct fp_proc *p = xmalloc(sizeof(*p));

		*p = *fp->procs[i];
		fp_sctab_copy(&p->syscalls, &fp->procs[i]->syscalls);
		fp_proc_files_copy(p, fp->procs[i]);
		v->procs[i] = p;
	}
	fp_filter_apply(f, v);
	return v;
}

void fp_filter_view_free(const struct footprint *view, const struct footprint *fp)
{
	struct footprint *v = (struct footprint *)view;

	if (view == fp)
		return;
	fp_sctab_release(&v->syscalls);
	for (size_t i = 0; i < v->nprocs; i++) {
		struct fp_proc *p = v->procs[i];

		fp_sctab_release(&p->syscalls);
		for (uint32_t j = 0; j < p->files_cap; j++) {
			if (p->files[j]) {
				free(p->files[j]->path);
				free(p->files[j]);
			}
		}
		free(p->files);
		free(p);
	}
	free(v->procs);
	free(v);
}

void fp_filter_release(struct fp_filter *f)
{
	for (size_t i = 0; i < f->nops; i++)
		free((char *)f->ops[i].name);
	free(f->ops);
	for (int a = 0; a < KF_ABI_NR; a++)
		free(f->cache[a]);
	memset(f, 0, sizeof(*f));
}
