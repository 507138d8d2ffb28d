// SPDX-License-Identifier: GPL-2.0
/* kfootprint record: run or attach to a workload, build its footprint, save and print it. */
#include <errno.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "footprint/filter.h"
#include "footprint/footprint.h"
#include "kmap/annotate.h"
#include "report/map_report.h"
#include "report/report.h"
#include "trace/contain.h"
#include "trace/trace.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct record_opts {
	struct trace_opts trace;
	const char *output;  /* -o: footprint JSON */
	const char *format;  /* -F */
	const char *report;  /* --report FILE, default stderr */
	const char *log;     /* --log FILE */
	const char *backend; /* -b: auto, ptrace, bpf */
	const char *label;
	const char *map;	/* --map[=FORMAT]: the kernel map after the report */
	const char *map_output; /* --map-output FILE: the map there instead */
	bool quiet;		/* -q: no live status line, no note of a script */
	bool no_reach;		/* --no-reach: do not record what each call reached */
	bool follow;		/* -f, -c: strace's habits, what kfootprint always does */
	bool summary;
	struct fp_filter filter;	    /* -e trace=, -e status=: what the report and the log show */
	bool kinds_asked[FP_KINDS_MAX];	    /* each kind's recorder asked for (by its options) */
	const struct trace_recorder *stops; /* one asked for that looks at each call's stop (syscall_exit), or NULL */

	/* -S, -P, --by-class */
	struct text_opts text;
};

static int opt_pid(const char *value, void *opts)
{
	struct record_opts *o = opts;

	return parse_pid_list("-p", value, &o->trace.pids, &o->trace.npids);
}

static int opt_duration(const char *value, void *opts)
{
	return parse_seconds("--duration", value, &((struct record_opts *)opts)->trace.duration);
}

static int opt_expr(const char *value, void *opts)
{
	return fp_filter_parse(&((struct record_opts *)opts)->filter, value);
}

static int opt_time(const char *value, void *opts)
{
	(void)value;
	((struct record_opts *)opts)->trace.log_time++;
	return 0;
}

/* The kinds' recorders' options of record (trace.h struct trace_recorder), each in its own struct. */
static const struct kf_option *kind_options(size_t i, void **values)
{
	for (const struct fp_kind *const *k = fp_kinds; *k; k++)
		if ((*k)->recorder && (*k)->recorder->options && !i--) {
			*values = (*k)->recorder->values;
			return (*k)->recorder->options;
		}
	return NULL;
}

static void record_help(FILE *out)
{
	renderer_help(out);
	fputs(
	    "\nWhat happens to the workload:\n"
	    "  A started command runs in a cgroup v2 of its own, so none of its processes can slip away (where no\n"
	    "  cgroup can be made, kfootprint is its child subreaper: see the README). When observation ends before\n"
	    "  it does (-d, SIGINT, SIGTERM or SIGHUP to kfootprint, a kfootprint failure, even kfootprint killed by\n"
	    "  SIGKILL, which a guardian process outlives), every process of it gets SIGTERM, then SIGKILL 2 s later;\n"
	    "  after a SIGINT the SIGTERM comes 1 s later, so a Ctrl-C it got too can end it first. With\n"
	    "  --keep-running it is left running, untraced, and its pids are listed on stderr. Attached processes\n"
	    "  (-p) are never signalled: they are detached and keep running. The workload's exit status is\n"
	    "  kfootprint's.\n",
	    out);
}

#define R struct record_opts
static const struct kf_option options[] = {
    OPT_STRING('o', "output", R, output, "FILE",
	       "save the footprint as JSON (schema kfootprint/1), written atomically"),
    OPT_CHOICE('F', "format", R, format, "FORMAT", renderer_names, "report format: %s (default text)"),
    OPT_STRING(0, "report", R, report, "FILE", "write the report to FILE instead of standard error ('-': stdout)"),
    OPT_CHOICE('S', "sort", R, text.sort, "KEY", text_sort_names,
	       "sort the text report's syscall tables by %s (default time, as strace -c; calls without times)"),
    OPT_BOOL('P', "per-process", R, text.per_process,
	     "text: a syscall table per process (shown without -P when there are 2 to 4 processes)"),
    OPT_BOOL(0, "by-class", R, text.by_class, "text: one table per subsystem class instead of the one syscall table"),
    OPT_STRING(0, "log", R, log, "FILE",
	       "chronological log, one line per call as strace -f -o writes it; ptrace only (auto picks it)"),
    OPT_CALLBACK('t', "absolute-timestamps", NULL, opt_time,
		 "--log lines start with the time of day (-tt: with microseconds, -ttt: seconds since the epoch)"),
    OPT_BOOL('r', "relative-timestamps", R, trace.log_relative,
	     "--log lines start with the time since the previous line's call"),
    OPT_CALLBACK('e', "expr", "EXPR", opt_expr,
		 "trace=SET (names, %file, %network, %process, %signal, %memory, %ipc, %desc, %creds, %clock; "
		 "!SET: all but) or status=failed|successful: what the report and the log show (-o saves all)"),
    OPT_BOOL('f', "follow-forks", R, follow, "accepted as strace's: kfootprint always follows every child"),
    OPT_BOOL('c', "summary-only", R, summary, "accepted as strace's: the report is always a summary"),
    OPT_CALLBACK('p', "pid", "PID[,PID]", opt_pid,
		 "attach to every thread of running processes (and their later children); a thread's id attaches its "
		 "process; a pid given twice is attached once"),
    OPT_CALLBACK('d', "duration", "SECS", opt_duration,
		 "stop observing after SECS (suffix s, m, h); a started command is stopped (see below), unless "
		 "--keep-running"),
    OPT_BOOL(0, "keep-running", R, trace.keep_running,
	     "with --duration: when observation ends, leave a started command running"),
    OPT_STRING('u', "user", R, trace.user, "USER", "run COMMAND as USER (uid, gid, groups) while tracing as root"),
    OPT_CHOICE('b', "backend", R, backend, "NAME", backend_names,
	       "%s: auto (the default) takes the first that can run here, saying why when it is not the first"),
    OPT_BOOL(0, "no-pin", R, trace.no_pin, "ptrace: do not run the command on the tracer's CPU (see the README)"),
    OPT_BOOL(0, "no-time", R, trace.no_time, "bpf: count calls and errors only, not the time in each call (cheaper)"),
    OPT_BOOL(0, "no-reach", R, no_reach,
	     "do not record what each call reached (fd kinds, socket families, ioctl commands, namespaces, ...)"),
    OPT_GROUP(kind_options),
    OPT_STRING(0, "label", R, label, "NAME", "a label for this scenario, kept in the footprint"),
    OPT_OPTIONAL(0, "map", R, map, "FORMAT", "text", map_renderer_names,
		 "then map the syscalls to kernel source and options as 'kfootprint map' does: %s (default text)"),
    OPT_STRING(0, "map-output", R, map_output, "FILE",
	       "write the map (--map's FORMAT; implies --map) to FILE instead of after the report"),
    OPT_BOOL('q', "quiet", R, quiet,
	     "no live status line (elapsed, calls/s, processes alive, lost events), drawn on a terminal otherwise, "
	     "and no note that COMMAND is a script"),
    OPT_VERBOSE("diagnostics (-vv: libbpf's debug log)"),
    OPT_HELP(),
    OPT_END(),
};
#undef R

/*
 * Where record --map puts the map without --map-output. Machine formats never get text appended: a JSON report
 * is the annotated footprint, which holds the map itself (syscalls[].kernel, configs); a CSV has no room for it
 * (-o saves it in the footprint). An HTML page shows it inside the page. The other formats are read by people:
 * the map follows them in the same stream.
 */
enum map_place { MAP_AFTER, MAP_INSIDE, MAP_NOWHERE };

static enum map_place map_in_report(const char *format)
{
	if (!strcmp(format, "html"))
		return MAP_INSIDE;
	if (!strcmp(format, "json") || !strcmp(format, "csv"))
		return MAP_NOWHERE;
	return MAP_AFTER;
}

/* Returns 0, 1 for --help (exit 0), or -1 after an error message. */
static int parse_record_opts(int argc, char **argv, struct record_opts *o)
{
	/* options stop at the first operand, so the workload's own options are never ours */
	int i = kf_command_parse(&kf_cmd_record, KF_PARSE_STOP_AT_OPERAND, argc, argv, o);

	if (i < 0)
		return i == KF_PARSE_HELP ? 1 : -1;
	if (i < argc)
		o->trace.argv = argv + i;
	if (!o->trace.argv && !o->trace.npids)
		return error("no command to run and no -p: see 'kfootprint record --help'");
	if (o->trace.argv && o->trace.npids)
		return error("give either a command or -p, not both");
	if (o->trace.npids && o->trace.user)
		return error("-u applies to a started command, not to -p");
	if (o->trace.keep_running && !o->trace.duration)
		return error("--keep-running needs --duration");
	if ((o->trace.log_time || o->trace.log_relative) && !o->log)
		return error("-t, -tt and -r time the --log lines: give --log FILE");
	if (renderer_check(o->format) < 0)
		return -1;
	if (text_opts_check(&o->text, o->format) < 0)
		return -1;
	if (o->map_output && !o->map)
		o->map = "text";
	if (o->map && map_renderer_check("map format", o->map) < 0)
		return -1;
	if (o->map && !o->map_output && map_in_report(o->format) == MAP_NOWHERE) {
		if (!strcmp(o->format, "csv") && !o->output)
			return error("--map with -F csv: a CSV report has no room for the map: give --map-output FILE, "
				     "or -o FILE to save it in the footprint");
		if (strcmp(o->map, "text"))
			return error("--map=%s with -F %s: the map goes into the JSON footprint only: give "
				     "--map-output FILE for a %s map",
				     o->map, o->format, o->map);
	}
	for (size_t k = 0; fp_kinds[k]; k++) {
		const struct trace_recorder *r = fp_kinds[k]->recorder;
		int asked = r && r->check ? r->check() : 0;

		if (asked < 0)
			return -1;
		o->kinds_asked[k] = asked > 0;
		if (asked > 0 && (r->syscall_exit || r->task_new))
			o->stops = r;
	}
	if (strcmp(o->backend, "auto") && !backend_find(o->backend))
		return error("unknown backend '%s': expected one of %s", o->backend, backend_names());
	if (o->trace.argv) {
		/* Fail before tracing anything: a missing command is the user's typo, not a footprint. */
		char *path = trace_find_command(o->trace.argv[0]);

		if (!path)
			return error("'%s': command not found", o->trace.argv[0]);
		if (access(path, X_OK) < 0) {
			perror_msg("'%s'", o->trace.argv[0]);
			free(path);
			return -1;
		}
		free(path);
	}
	return 0;
}

/* The first backend of the registry that sees each call's arguments (what --log needs). */
static const struct backend_entry *log_backend(void)
{
	for (size_t i = 0; backend_at(i); i++)
		if (backend_at(i)->sees_args)
			return backend_at(i);
	return NULL;
}

static const struct backend *pick_backend(const struct record_opts *o)
{
	const struct backend_entry *b = backend_find(o->backend), *first = backend_at(0);
	char why[256] = "", why_not[256] = "";

	if (b) {
		if (o->stops && o->stops->needs_stops &&
		    !b->sees_args) { /* said first: it is so wherever the backend can run */
			error(o->stops->needs_stops, b->be->name, log_backend() ? log_backend()->be->name : "ptrace");
			return NULL;
		}
		if (b->be->usable(why, sizeof(why))) {
			error("backend %s: %s", b->be->name, why);
			return NULL;
		}
		if (o->log && !b->sees_args) {
			error("--log needs the %s backend: %s does not see each call's arguments",
			      log_backend() ? log_backend()->be->name : "ptrace", b->be->name);
			return NULL;
		}
		return b->be;
	}
	if ((o->log || o->stops) && log_backend()) {
		/* said, not silent: the choice changes what the run costs */
		if (log_backend() != first)
			fprintf(stderr, "kfootprint: backend auto: using %s, %s needs each call's %s\n",
				log_backend()->be->name, o->log ? "--log" : o->stops->name,
				o->log ? "arguments" : "stop");
		return log_backend()->be;
	}
	/* auto: the first that can run here; a fallback says, on one line, why the first could not */
	for (size_t i = 0; (b = backend_at(i)); i++) {
		if (b->be->usable(i ? why : why_not, sizeof(why)))
			continue;
		if (i)
			fprintf(stderr, "kfootprint: backend auto: using %s, %s cannot load: %s\n", b->be->name,
				first->be->name, why_not);
		return b->be;
	}
	error("backend auto: no backend can run here: %s: %s", first->be->name, why_not);
	return NULL;
}

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

/*
 * No SA_RESTART: a blocked wait in a backend must return EINTR and look at the flag. A SIGHUP ignored when
 * kfootprint started (nohup) stays ignored for kfootprint too: the hangup was meant to leave the whole job
 * running. SIGINT and SIGTERM are always how a recording is stopped, even where a shell ignores SIGINT for a
 * background job; the workload gets back whatever it would have had (trace_inherit).
 */
static void install_stop_handlers(const struct trace_inherit *in)
{
	struct sigaction sa = {.sa_handler = on_stop_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!trace_inherit_ignored(in, SIGHUP))
		sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

struct report_job {
	const struct record_opts *o;
	const struct footprint *fp;
};

/* The report, then the kernel map when --map asked for it there (map_in_report()), in one stream. */
static int render_report(FILE *out, const void *ctx)
{
	const struct report_job *job = ctx;
	struct text_opts text = job->o->text;
	struct kmap_view view;

	const struct renderer *r = renderer_find(job->o->format);
	annotate_view(job->fp, &view, r->closure); /* before rendering: the renderers resolve nothing */
	text.view = &view;
	int rc = renderer_render(r, job->fp, &text, out);
	kmap_view_release(&view);
	if (rc < 0)
		return -1;
	if (!job->o->map || job->o->map_output || map_in_report(job->o->format) != MAP_AFTER)
		return 0;
	return map_render_attached(job->fp, job->o->map, true, out);
}

static int render_map(FILE *out, const void *ctx)
{
	const struct report_job *job = ctx;

	return map_render_attached(job->fp, job->o->map, false, out);
}

/* -o, --report, --log and --map-output, opened before the workload starts so that a bad path costs no run. */
struct record_outputs {
	struct atomic_file json, report, log, map;
};

/*
 * The footprint, the report and the log show the workload's command lines and the files it opened: when the
 * workload is another user's (-u, or -p of another user's process) they are that user's, not for all to read.
 */
static int output_flags(const struct record_opts *o, unsigned *flags)
{
	uid_t uid;
	gid_t gid;
	struct stat st;

	*flags = 0;
	if (o->trace.user) {
		if (trace_lookup_user(o->trace.user, &uid, &gid, NULL) < 0)
			return -1;
		if (uid != geteuid())
			*flags = AF_PRIVATE;
	}
	for (size_t i = 0; i < o->trace.npids; i++) {
		char proc[32];

		snprintf(proc, sizeof(proc), "/proc/%d", (int)o->trace.pids[i]);
		if (stat(proc, &st) == 0 && st.st_uid != geteuid())
			*flags = AF_PRIVATE;
	}
	return 0;
}

static void abort_outputs(struct record_outputs *out)
{
	atomic_file_abort(&out->json);
	atomic_file_abort(&out->report);
	atomic_file_abort(&out->log);
	atomic_file_abort(&out->map);
}

static int open_outputs(const struct record_opts *o, struct record_outputs *out)
{
	unsigned flags;

	memset(out, 0, sizeof(*out));
	if (!o->output && !o->report && !o->log && !o->map_output)
		return 0;
	if (output_flags(o, &flags) < 0)
		return -1;
	if ((o->output && atomic_file_open(&out->json, o->output, flags) < 0) ||
	    (o->report && atomic_file_open(&out->report, o->report, flags) < 0) ||
	    (o->log && atomic_file_open(&out->log, o->log, flags) < 0) ||
	    (o->map_output && atomic_file_open(&out->map, o->map_output, flags) < 0)) {
		abort_outputs(out);
		return -1;
	}
	return 0;
}

static int write_json(FILE *out, const void *fp)
{
	return fp__write_json(fp, out);
}

static int write_report(const struct record_opts *o, struct atomic_file *af, const struct footprint *fp)
{
	struct report_job job = {o, fp};

	if (!o->report)
		return atomic_file_write(NULL, 0, stderr, render_report, &job);
	return atomic_file_finish(af, render_report, &job);
}

/* What record --map calls the footprint in a map's header: "this run (ls /)". */
static char *run_subject(const struct footprint *fp)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "this run");
	if (fp->argv && fp->argv[0]) {
		strbuf_addstr(&sb, " (");
		for (size_t i = 0; fp->argv[i] && sb.len < 200; i++)
			strbuf_addf(&sb, "%s%s", i ? " " : "", fp->argv[i]);
		strbuf_addch(&sb, ')');
	}
	return strbuf_detach(&sb);
}

/* The annotate stage: classes always; with --map, the kernel map, which -o then saves with the footprint. */
static int annotate(const struct record_opts *o, struct footprint *fp)
{
	char *subject;
	int rc;

	annotate_classes(fp);
	if (!o->map)
		return 0;
	subject = run_subject(fp);
	rc = annotate_builtin(fp, subject);
	free(subject);
	return rc;
}

/* The shell's convention: 128 + signal for a workload killed by a signal. */
static int exit_status_of(const struct footprint *fp)
{
	switch (fp->exit.kind) {
	case FP_EXIT_CODE: return fp->exit.value;
	case FP_EXIT_SIGNAL: return 128 + fp->exit.value;
	default: return 0;
	}
}

/*
 * What a failed output says first once the workload has ended: its status, and which one kfootprint returns
 * (the workload's, or 1 when it exited 0), so that neither is lost.
 */
static void say_status(char *buf, size_t len, const struct footprint *fp, const char *what)
{
	int ret = exit_status_of(fp) ? exit_status_of(fp) : 1;

	switch (fp->exit.kind) {
	case FP_EXIT_CODE:
		snprintf(buf, len, "the workload exited %d; %s could not be written (exit status %d)", fp->exit.value,
			 what, ret);
		break;
	case FP_EXIT_SIGNAL:
		snprintf(buf, len,
			 "the workload was killed by signal %d (%s); %s could not be written (exit status %d)",
			 fp->exit.value, strsignal(fp->exit.value), what, ret);
		break;
	default: snprintf(buf, len, "the workload has not exited; %s could not be written (exit status %d)", what, ret);
	}
}

static void fill_workload(const struct record_opts *o, struct footprint *fp, const char *backend)
{
	fp->backend = xstrdup(backend);
	if (o->label)
		fp->label = xstrdup(o->label);
	if (o->trace.argv) {
		size_t n = 0;

		while (o->trace.argv[n])
			n++;
		fp->argv = xcalloc(n + 1, sizeof(*fp->argv));
		for (size_t i = 0; i < n; i++)
			fp->argv[i] = xstrdup(o->trace.argv[i]);
	}
	if (o->trace.npids) {
		fp->attached_pids = xcalloc(o->trace.npids, sizeof(pid_t));
		memcpy(fp->attached_pids, o->trace.pids, o->trace.npids * sizeof(pid_t));
		fp->nattached = (uint32_t)o->trace.npids;
	}
	if (o->trace.user) {
		fp->user = xstrdup(o->trace.user);
	} else {
		/*
		 * By uid, not through trace_lookup_user() with the number as a name: a name lookup that fails in
		 * /etc/passwd goes on to every NSS module (libnss_systemd is loaded for it), ~0.5 ms of start-up.
		 */
		struct passwd *pw = getpwuid(getuid());
		char buf[16];

		snprintf(buf, sizeof(buf), "%u", (unsigned)getuid());
		fp->user = xstrdup(pw ? pw->pw_name : buf);
	}
}

/* CPU time of this process (every thread) or of its reaped children, in ms: -v's account of a run's cost. */
static double cpu_ms(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru) < 0)
		return 0;
	return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

static int cmd_record(int argc, char **argv)
{
	/* since exec: the kernel's exec, the dynamic loader and the libraries, before any work of record */
	double cpu_start = cpu_ms(RUSAGE_SELF), cpu_run = 0, cpu_ran = 0;
	uint64_t t_start = fp__now_ns(), t_run = 0, t_ran = 0;
	struct record_opts o = {.format = "text", .backend = "auto"};
	const struct backend *be;
	struct footprint *fp = NULL;
	const struct footprint *shown; /* what the report and the map show: fp through -e (fp_filter_view()) */
	struct record_outputs outs = {0};
	struct trace_recording rec = {0};
	struct trace_inherit inherit;
	char why_log[160], why_json[160], why_report[160], why_map[160];
	int rc, ret = 1;

	trace_inherit_capture(&inherit);
	rc = parse_record_opts(argc, argv, &o);
	if (rc > 0) {
		kf_command_help(&kf_cmd_record, stdout);
		free(o.trace.pids);
		fp_filter_release(&o.filter);
		return 0;
	}
	if (rc < 0)
		goto out;
	if (o.trace.npids && trace_check_pids(o.trace.pids, &o.trace.npids) < 0)
		goto out;
	if (o.trace.user && getuid() != 0) {
		error("-u needs root: kfootprint must keep its privileges while the workload drops them");
		goto out;
	}
	if (atomic_file_distinct(NULL, 0, (const char *[]){o.output, o.report, o.log, o.map_output}, 4) < 0)
		goto out;
	be = pick_backend(&o);
	if (!be)
		goto out;
	if (open_outputs(&o, &outs) < 0)
		goto out;
	o.trace.log = outs.log.f;
	o.trace.reach = !o.no_reach;
	o.trace.filter = fp_filter_active(&o.filter) ? &o.filter : NULL;
	fp = fp__new();
	fill_workload(&o, fp, be->name);
	/* Before the command starts: its cgroup, and the guardian that outlives kfootprint's own death. */
	if (o.trace.argv) {
		if (!o.quiet)
			trace_note_script(o.trace.argv[0]);
		o.trace.contain = contain_new(o.trace.keep_running);
		if (!o.trace.contain)
			goto out;
	}
	o.trace.stop = &stop_signal;
	o.trace.inherit = &inherit;
	/* A status line only where a person watches: never into a file or a pipe that a report may share. */
	o.trace.progress = !o.quiet && isatty(STDERR_FILENO);
	install_stop_handlers(&inherit);
	/* the other kinds of observation: a started command is followed from its pid, attached processes from now */
	for (size_t i = 0; fp_kinds[i]; i++)
		if (o.kinds_asked[i])
			trace_recording_add(&rec, fp_kinds[i]->recorder, fp_kinds[i]->recorder->values, &o.trace, fp);
	fp__start(fp);
	cpu_run = cpu_ms(RUSAGE_SELF);
	t_run = fp__now_ns();
	rc = be->run(&o.trace, fp);
	cpu_ran = cpu_ms(RUSAGE_SELF);
	t_ran = fp__now_ns();
	/* the end of observation: tracing state goes at once, whatever happened */
	trace_recording_finish(&rec, rc < 0 ? NULL : fp);
	trace_progress_clear();
	/* Whatever is left of the workload is stopped, or left running with --keep-running (and said so). */
	contain_end(o.trace.contain);
	if (rc < 0)
		goto out;
	/* a stop signal made it incomplete only if a process was still running then (trace_end_step) */
	fp__finish(fp);

	ret = exit_status_of(fp);
	say_status(why_log, sizeof(why_log), fp, "the log");
	say_status(why_json, sizeof(why_json), fp, "the footprint");
	say_status(why_report, sizeof(why_report), fp, "the report");
	say_status(why_map, sizeof(why_map), fp, "the map");
	outs.log.context = why_log;
	outs.json.context = why_json;
	outs.report.context = why_report;
	outs.map.context = why_map;
	if (o.log && atomic_file_commit(&outs.log) < 0)
		ret = ret ? ret : 1;
	if (annotate(&o, fp) < 0)
		ret = ret ? ret : 1;
	if (o.output && atomic_file_finish(&outs.json, write_json, fp) < 0)
		ret = ret ? ret : 1;
	/* -e filters what is shown, a view: the saved footprint above keeps every call, and fp is not changed */
	shown = fp_filter_view(&o.filter, fp);
	if (write_report(&o, &outs.report, shown) < 0)
		ret = ret ? ret : 1;
	if (o.map_output && atomic_file_finish(&outs.map, render_map, &(struct report_job){&o, shown}) < 0)
		ret = ret ? ret : 1;
	fp_filter_view_free(shown, fp);
out:
	trace_recording_finish(&rec, NULL);
	contain_free(o.trace.contain);
	abort_outputs(&outs);
	if (t_ran)
		debug(
		    "record: CPU of kfootprint: %.1f ms before record (exec, libraries), %.1f ms setting up (options, "
		    "outputs, cgroup) in %.1f ms, %.1f ms in the backend in %.1f ms, %.1f ms after it (reports, "
		    "cgroup removal) in %.1f ms; of the workload and the guardian: %.1f ms",
		    cpu_start, cpu_run - cpu_start, (double)(t_run - t_start) / 1e6, cpu_ran - cpu_run,
		    (double)(t_ran - t_run) / 1e6, cpu_ms(RUSAGE_SELF) - cpu_ran, (double)(fp__now_ns() - t_ran) / 1e6,
		    cpu_ms(RUSAGE_CHILDREN));
	fp__free(fp);
	free(o.trace.pids);
	fp_filter_release(&o.filter);
	return ret;
}

const struct kf_command kf_cmd_record = {
    .name = "record",
    .fn = cmd_record,
    .summary = "trace a command or attach to processes, print the footprint",
    .synopsis = "kfootprint [record] [OPTIONS] -- COMMAND [ARG...]\n"
		"kfootprint record -p PID[,PID...] [-d SECONDS] [OPTIONS]",
    .description = "Runs COMMAND (or attaches to running processes) and records every system call of every process\n"
		   "and thread it starts. The report goes to standard error; the workload's exit status is returned.",
    .options = options,
    .opts_size = sizeof(struct record_opts),
    .more_help = record_help,
    .examples = "  kfootprint -- ls /                      trace ls, print the footprint tables\n"
		"  kfootprint -F strace -- python3 -c pass the layout of strace -c\n"
		"  kfootprint -o ls.json -F tree -- sh -c 'ls | wc -l'\n"
		"  kfootprint record -p 1234 -d 10 -o app.json\n"
		"  kfootprint --kernel-functions -- cat /proc/version   and the kernel functions it ran\n",
};
