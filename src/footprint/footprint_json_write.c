// SPDX-License-Identifier: GPL-2.0
/* Writes a footprint as schema kfootprint/1 (see DESIGN.md and docs/reports.md). */
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint.h"
#include "footprint/footprint_json.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/json_writer.h"
#include "util/xalloc.h"

/* Times are written with 9 decimals: nanoseconds, the resolution of every clock we read. */
#define SECONDS_DECIMALS 9

int fp_sysstat_cmp_calls(const void *a, const void *b)
{
	const struct fp_sysstat *x = *(const struct fp_sysstat *const *)a;
	const struct fp_sysstat *y = *(const struct fp_sysstat *const *)b;
	int c;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->abi < y->abi ? -1 : x->abi > y->abi;
}

const char *fp_sysstat_key(const struct fp_sysstat *s, char *buf, size_t len)
{
	if (s->abi == kf_abi_host())
		return s->name;
	snprintf(buf, len, "%s:%s", kf_abi_name(s->abi), s->name);
	return buf;
}

static void write_argv(json_writer_t *w, const char *name, char *const *argv)
{
	jsonw_name(w, name);
	if (!argv) {
		jsonw_null(w);
		return;
	}
	jsonw_start_array_inline(w);
	for (char *const *a = argv; *a; a++)
		jsonw_string(w, *a);
	jsonw_end_array(w);
}

static void write_exit(json_writer_t *w, const struct fp_exit *e)
{
	jsonw_name(w, "exit");
	if (e->kind == FP_EXIT_NONE) {
		jsonw_null(w);
		return;
	}
	jsonw_start_object_inline(w);
	if (e->kind == FP_EXIT_CODE) {
		jsonw_int_field(w, "code", e->value);
	} else {
		jsonw_string_field(w, "signal", fp_signal_name(e->value));
		if (e->core)
			jsonw_bool_field(w, "core", true);
	}
	jsonw_end_object(w);
}

static void write_workload(json_writer_t *w, const struct footprint *fp)
{
	jsonw_name(w, "workload");
	jsonw_start_object_inline(w);
	write_argv(w, "argv", fp->argv);
	jsonw_name(w, "attached_pids");
	jsonw_start_array_inline(w);
	for (uint32_t i = 0; i < fp->nattached; i++)
		jsonw_int(w, fp->attached_pids[i]);
	jsonw_end_array(w);
	jsonw_string_field(w, "label", fp->label);
	jsonw_string_field(w, "user", fp->user);
	jsonw_end_object(w);
}

static void write_errnos(json_writer_t *w, const struct fp_errno_count *errnos, uint32_t n)
{
	jsonw_name(w, "errnos");
	jsonw_start_object(w);
	for (uint32_t i = 0; i < n; i++)
		jsonw_u64_field(w, fp_errno_name(errnos[i].err), errnos[i].count);
	jsonw_end_object(w);
}

/* A merged footprint's sources (footprint/merge.h), each on a line. */
static void write_sources(json_writer_t *w, const struct footprint *fp)
{
	jsonw_name(w, "sources");
	jsonw_start_array(w);
	for (uint32_t i = 0; i < fp->nsources; i++) {
		const struct fp_source *s = &fp->sources[i];

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "digest", s->digest);
		jsonw_string_field(w, "tool", s->tool);
		jsonw_name(w, "host");
		jsonw_start_object_inline(w);
		jsonw_string_field(w, "kernel", s->host_kernel);
		jsonw_string_field(w, "arch", s->host_arch);
		jsonw_end_object(w);
		jsonw_name(w, "workload");
		jsonw_start_object_inline(w);
		write_argv(w, "argv", s->argv);
		jsonw_name(w, "attached_pids");
		jsonw_start_array_inline(w);
		for (uint32_t k = 0; k < s->nattached; k++)
			jsonw_int(w, s->attached_pids[k]);
		jsonw_end_array(w);
		jsonw_string_field(w, "label", s->label);
		jsonw_string_field(w, "user", s->user);
		jsonw_end_object(w);
		jsonw_string_field(w, "backend", s->backend);
		jsonw_string_field(w, "started_at", s->started_at);
		jsonw_fixed_field(w, "elapsed_s", s->elapsed_s, SECONDS_DECIMALS);
		write_exit(w, &s->exit);
		jsonw_bool_field(w, "complete", s->complete);
		if (!s->complete)
			jsonw_string_field(w, "incomplete_why", s->incomplete_why ? s->incomplete_why : "unknown");
		jsonw_u64_field(w, "lost_events", s->lost_events);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

/* A merged footprint's row: each source's share. */
static void write_per_source(json_writer_t *w, const struct fp_sysstat *s)
{
	jsonw_name(w, "per_source");
	jsonw_start_array_inline(w);
	for (uint32_t i = 0; i < s->nper_source; i++) {
		const struct fp_srcstat *ps = &s->per_source[i];

		jsonw_start_object_inline(w);
		jsonw_u64_field(w, "source", ps->source);
		jsonw_u64_field(w, "calls", ps->calls);
		jsonw_u64_field(w, "errors", ps->errors);
		write_errnos(w, ps->errnos, ps->nerrnos);
		jsonw_ns_as_s_field(w, "time_s", ps->time_ns);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

static int cmp_item(const void *a, const void *b)
{
	const struct fp_errsrc_item *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Items most frequent first (then by name), so that a document does not depend on the order calls came in. */
static void write_items(json_writer_t *w, const char *name, const char *key, const struct fp_errsrc_item *v, uint32_t n)
{
	struct fp_errsrc_item *sorted = xcalloc(n + 1, sizeof(*v));

	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), cmp_item);
	jsonw_name(w, name);
	jsonw_start_array(w);
	for (uint32_t i = 0; i < n; i++) {
		jsonw_start_object_inline(w);
		jsonw_string_field(w, key, sorted[i].name);
		jsonw_u64_field(w, "count", sorted[i].count);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	free(sorted);
}

static void write_errsrc(json_writer_t *w, const struct fp_sysstat *s)
{
	jsonw_name(w, "error_sources");
	jsonw_start_array(w);
	for (uint32_t i = 0; i < s->nerrsrc; i++) {
		const struct fp_errsrc *e = &s->errsrc[i];

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "errno", fp_errno_name(e->err));
		jsonw_u64_field(w, "count", e->count);
		write_items(w, "processes", "comm", e->procs, e->nprocs);
		if (e->procs_other)
			jsonw_u64_field(w, "other_processes", e->procs_other);
		if (e->npaths || e->paths_other) {
			write_items(w, "paths", "path", e->paths, e->npaths);
			jsonw_u64_field(w, "other_paths", e->paths_other);
		}
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
}

/* What the row's calls reached, most calls first: [{"kind", "value", "fd"?, "calls", "errors", "kernel"?}]. */
static void write_reached(json_writer_t *w, const struct fp_sysstat *s)
{
	struct fp_reach **v;

	if (!s->nreach && !s->reach_other)
		return;
	v = fp_sysstat_reach_sorted(s);
	jsonw_name(w, "reached");
	jsonw_start_array(w);
	for (struct fp_reach **rp = v; *rp; rp++) {
		const struct fp_reach *r = *rp;

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "kind", r->kind);
		jsonw_string_field(w, "value", r->value);
		if (r->fd)
			jsonw_string_field(w, "fd", r->fd);
		jsonw_u64_field(w, "calls", r->calls);
		jsonw_u64_field(w, "errors", r->errors);
		fp_write_kernel(w, &r->annot);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	free(v);
	if (s->reach_other)
		jsonw_u64_field(w, "reached_other", s->reach_other);
}

static void write_syscalls(json_writer_t *w, const struct footprint *fp)
{
	struct fp_sysstat **v = fp_sctab_sorted(&fp->syscalls, fp_sysstat_cmp_calls);

	jsonw_name(w, "syscalls");
	jsonw_start_array(w);
	for (struct fp_sysstat **sp = v; *sp; sp++) {
		const struct fp_sysstat *s = *sp;

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "name", s->name);
		jsonw_string_field(w, "abi", kf_abi_name(s->abi));
		jsonw_int_field(w, "nr", s->nr);
		jsonw_u64_field(w, "calls", s->calls);
		jsonw_u64_field(w, "errors", s->errors);
		write_errnos(w, s->errnos, s->nerrnos);
		jsonw_ns_as_s_field(w, "time_s", s->time_ns);
		if (s->at_attach)
			jsonw_u64_field(w, "at_attach", s->at_attach);
		jsonw_string_field(w, "class", s->annot.klass);
		if (fp->nsources)
			write_per_source(w, s);
		if (s->nerrsrc)
			write_errsrc(w, s);
		write_reached(w, s);
		fp_write_kernel(w, &s->annot);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	free(v);
}

static const char *file_mode(const struct fp_file *f)
{
	if (f->opens_read && f->opens_write)
		return "rw";
	if (f->opens_write)
		return "w";
	if (f->opens_read)
		return "r";
	return ""; /* every open failed */
}

static void write_files(json_writer_t *w, const struct fp_proc *p)
{
	struct fp_file **v = fp_proc_files_sorted(p);

	jsonw_name(w, "files");
	jsonw_start_array(w);
	for (struct fp_file **fpp = v; *fpp; fpp++) {
		const struct fp_file *f = *fpp;

		jsonw_start_object_inline(w);
		jsonw_string_field(w, "path", f->path);
		jsonw_string_field(w, "mode", file_mode(f));
		jsonw_u64_field(w, "opens", f->opens);
		jsonw_u64_field(w, "errors", f->errors);
		jsonw_u64_field(w, "opens_read", f->opens_read);
		jsonw_u64_field(w, "opens_write", f->opens_write);
		jsonw_end_object(w);
	}
	jsonw_end_array(w);
	free(v);
}

static void write_proc_syscalls(json_writer_t *w, const struct fp_proc *p)
{
	struct fp_sysstat **v = fp_sctab_sorted(&p->syscalls, NULL);
	char key[96];

	jsonw_name(w, "syscalls");
	jsonw_start_object(w);
	for (struct fp_sysstat **sp = v; *sp; sp++) {
		jsonw_name(w, fp_sysstat_key(*sp, key, sizeof(key)));
		jsonw_start_object_inline(w);
		jsonw_u64_field(w, "calls", (*sp)->calls);
		jsonw_u64_field(w, "errors", (*sp)->errors);
		jsonw_ns_as_s_field(w, "time_s", (*sp)->time_ns);
		write_reached(w, *sp);
		jsonw_end_object(w);
	}
	jsonw_end_object(w);
	free(v);
}

/* The calls a seccomp filter killed tasks of p in: {"getppid": 1}; written only when there are some. */
static void write_seccomp_kills(json_writer_t *w, const struct fp_proc *p)
{
	struct fp_sysstat **v;
	char key[96];

	if (!p->seccomp_kills.count)
		return;
	v = fp_sctab_sorted(&p->seccomp_kills, NULL);
	jsonw_name(w, "seccomp_killed");
	jsonw_start_object_inline(w);
	for (struct fp_sysstat **sp = v; *sp; sp++)
		jsonw_u64_field(w, fp_sysstat_key(*sp, key, sizeof(key)), (*sp)->calls);
	jsonw_end_object(w);
	free(v);
}

static void write_proc(json_writer_t *w, const struct footprint *fp, const struct fp_proc *p)
{
	jsonw_start_object(w);
	if (fp->nsources)
		jsonw_u64_field(w, "source", p->source);
	jsonw_int_field(w, "pid", p->pid);
	jsonw_int_field(w, "ppid", p->ppid);
	if (p->host_pid)
		jsonw_int_field(w, "host_pid", p->host_pid);
	jsonw_u64_field(w, "threads", p->threads);
	jsonw_u64_field(w, "execs", p->execs);
	jsonw_bool_field(w, "attached", p->attached);
	jsonw_string_field(w, "comm", p->comm);
	jsonw_string_field(w, "exe", p->exe);
	if (p->cwd)
		jsonw_string_field(w, "cwd", p->cwd);
	write_argv(w, "argv", p->argv);
	/* a single exec is in exe already: the chain is written when there is one */
	if (p->exec_chain && p->exec_chain[0] && p->exec_chain[1])
		write_argv(w, "exec_chain", p->exec_chain);
	jsonw_fixed_field(w, "start_s", p->start_s, SECONDS_DECIMALS);
	if (p->end_s < 0)
		jsonw_null_field(w, "end_s");
	else
		jsonw_fixed_field(w, "end_s", p->end_s, SECONDS_DECIMALS);
	write_exit(w, &p->exit);
	jsonw_u64_field(w, "opens_read", p->opens_read);
	jsonw_u64_field(w, "opens_write", p->opens_write);
	jsonw_u64_field(w, "open_errors", p->open_errors);
	write_files(w, p);
	write_proc_syscalls(w, p);
	write_seccomp_kills(w, p);
	jsonw_end_object(w);
}

void fp_write_kernel(json_writer_t *w, const struct fp_annot *a)
{
	if (!a->kernel)
		return;
	jsonw_name(w, "kernel");
	a->kernel->write_json(a->kernel, w);
}

int fp__write_json(const struct footprint *fp, FILE *out)
{
	json_writer_t *w = jsonw_new(out);

	jsonw_start_object(w);
	jsonw_string_field(w, "schema", FP_SCHEMA);
	jsonw_string_field(w, "tool", fp->tool);
	jsonw_name(w, "host");
	jsonw_start_object_inline(w);
	jsonw_string_field(w, "kernel", fp->host_kernel);
	jsonw_string_field(w, "arch", fp->host_arch);
	jsonw_end_object(w);
	write_workload(w, fp);
	jsonw_string_field(w, "backend", fp->backend);
	jsonw_string_field(w, "started_at", fp->started_at);
	jsonw_fixed_field(w, "elapsed_s", fp->elapsed_s, SECONDS_DECIMALS);
	write_exit(w, &fp->exit);
	jsonw_bool_field(w, "complete", fp->complete);
	if (!fp->complete)
		jsonw_string_field(w, "incomplete_why", fp->incomplete_why ? fp->incomplete_why : "unknown");
	jsonw_u64_field(w, "lost_events", fp->lost_events);
	if (fp->error_sources)
		jsonw_bool_field(w, "error_sources", true);
	if (fp->reach)
		jsonw_bool_field(w, "reached", true);
	if (fp->nsources)
		write_sources(w, fp);
	write_syscalls(w, fp);
	jsonw_name(w, "processes");
	jsonw_start_array(w);
	for (size_t i = 0; i < fp->nprocs; i++)
		write_proc(w, fp, fp->procs[i]);
	jsonw_end_array(w);
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		(*k)->write_json(w, fp);
	for (size_t i = 0; i < fp->nattachments; i++)
		if (fp->attachments[i].write_json)
			fp->attachments[i].write_json(fp->attachments[i].data, w);
	jsonw_end_object(w);
	return jsonw_finish(&w);
}

static int write_json(FILE *out, const void *fp)
{
	return fp__write_json(fp, out);
}

int fp__save(const struct footprint *fp, const char *path)
{
	return atomic_file_write(path, 0, stdout, write_json, fp);
}
