// SPDX-License-Identifier: GPL-2.0
/* kfootprint record: run or attach to a workload, build its footprint, save and print it. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "footprint/footprint.h"
#include "report/map_report.h"
#include "report/report.h"
#include "trace/trace.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/xalloc.h"

struct record_opts {
	struct trace_opts trace;
	const char *output;  /* -o: footprint JSON */
	const char *format;  /* -F */
	const char *report;  /* --report FILE, default stderr */
	const char *log;     /* --log FILE */
	const char *backend; /* -b: auto, ptrace, bpf */
	const char *label;
	const char *map; /* --map[=FORMAT]: the kernel map after the report */
};

static const char usage_text[] =
    "usage: kfootprint [record] [OPTIONS] -- COMMAND [ARG...]\n"
    "       kfootprint record -p PID[,PID...] [-d SECONDS] [OPTIONS]\n"
    "\n"
    "Runs COMMAND (or attaches to running processes) and records every system call of every process\n"
    "and thread it starts. The report goes to standard error; the workload's exit status is returned.\n"
    "\n"
    "  -o, --output FILE      save the footprint as JSON (schema kfootprint/1), written atomically\n"
    "  -F, --format FORMAT    report format: %s (default text)\n"
    "      --report FILE      write the report to FILE instead of standard error ('-': stdout)\n"
    "      --log FILE         chronological log, one line per call (like strace -f -o); ptrace only\n"
    "  -p, --pid PID[,PID]    attach to every thread of running processes (and their later children)\n"
    "  -d, --duration SECS    stop observing after SECS (suffix s, m, h); a started command is stopped\n"
    "                         with SIGTERM, then SIGKILL, unless --keep-running\n"
    "      --keep-running     on --duration expiry, detach from a started command instead of stopping it\n"
    "  -u, --user USER        run COMMAND as USER (uid, gid, groups) while tracing as root\n"
    "  -b, --backend NAME     auto (default: bpf when it can load, else ptrace), ptrace or bpf\n"
    "      --no-pin           ptrace: do not run the command on the tracer's CPU (see the README)\n"
    "      --no-time          bpf: count calls and errors only, not the time in each call (cheaper)\n"
    "      --label NAME       a label for this scenario, kept in the footprint\n"
    "      --map[=FORMAT]     then map the syscalls to kernel source and options (see 'kfootprint map')\n"
    "  -v, --verbose          diagnostics\n"
    "  -h, --help             this help\n"
    "\n"
    "examples:\n"
    "  kfootprint -- ls /                      trace ls, print the footprint tables\n"
    "  kfootprint -F strace -- python3 -c pass the layout of strace -c\n"
    "  kfootprint -o ls.json -F tree -- sh -c 'ls | wc -l'\n"
    "  kfootprint record -p 1234 -d 10 -o app.json\n";

static void record_usage(FILE *out)
{
	fprintf(out, usage_text, renderer_names());
}

enum { OPT_REPORT = 256, OPT_LOG, OPT_KEEP, OPT_NOPIN, OPT_LABEL, OPT_MAP, OPT_NOTIME };

static const struct option long_opts[] = {
    {"output", required_argument, NULL, 'o'},
    {"format", required_argument, NULL, 'F'},
    {"report", required_argument, NULL, OPT_REPORT},
    {"log", required_argument, NULL, OPT_LOG},
    {"pid", required_argument, NULL, 'p'},
    {"duration", required_argument, NULL, 'd'},
    {"keep-running", no_argument, NULL, OPT_KEEP},
    {"user", required_argument, NULL, 'u'},
    {"backend", required_argument, NULL, 'b'},
    {"no-pin", no_argument, NULL, OPT_NOPIN},
    {"no-time", no_argument, NULL, OPT_NOTIME},
    {"label", required_argument, NULL, OPT_LABEL},
    {"map", optional_argument, NULL, OPT_MAP},
    {"verbose", no_argument, NULL, 'v'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Returns 0, 1 for --help (exit 0), or -1 after an error message. */
static int parse_record_opts(int argc, char **argv, struct record_opts *o)
{
	int c;

	optind = 1;
	/* "+": options stop at the first non-option, so the workload's own options are never ours. */
	while ((c = getopt_long(argc, argv, "+o:F:p:d:u:b:vh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'o': o->output = optarg; break;
		case 'F': o->format = optarg; break;
		case OPT_REPORT: o->report = optarg; break;
		case OPT_LOG: o->log = optarg; break;
		case 'p':
			if (parse_pid_list("-p", optarg, &o->trace.pids, &o->trace.npids))
				return -1;
			break;
		case 'd':
			if (parse_seconds("--duration", optarg, &o->trace.duration))
				return -1;
			break;
		case OPT_KEEP: o->trace.keep_running = true; break;
		case 'u': o->trace.user = optarg; break;
		case 'b': o->backend = optarg; break;
		case OPT_NOPIN: o->trace.no_pin = true; break;
		case OPT_NOTIME: o->trace.no_time = true; break;
		case OPT_LABEL: o->label = optarg; break;
		case OPT_MAP: o->map = optarg ? optarg : "text"; break;
		case 'v': kf_verbose++; break;
		case 'h': return 1;
		default: return error("see 'kfootprint record --help'");
		}
	}
	if (optind < argc)
		o->trace.argv = argv + optind;
	if (!o->trace.argv && !o->trace.npids)
		return error("no command to run and no -p: see 'kfootprint record --help'");
	if (o->trace.argv && o->trace.npids)
		return error("give either a command or -p, not both");
	if (o->trace.npids && o->trace.user)
		return error("-u applies to a started command, not to -p");
	if (o->trace.keep_running && !o->trace.duration)
		return error("--keep-running needs --duration");
	if (!renderer_find(o->format))
		return error("unknown format '%s': expected one of %s", o->format, renderer_names());
	if (o->map && !map_renderer_find(o->map))
		return error("unknown map format '%s': expected one of %s", o->map, map_renderer_names());
	if (strcmp(o->backend, "auto") && strcmp(o->backend, "ptrace") && strcmp(o->backend, "bpf"))
		return error("unknown backend '%s': expected auto, ptrace or bpf", o->backend);
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

static const struct backend *pick_backend(const struct record_opts *o)
{
	char why[256] = "";

	if (!strcmp(o->backend, "ptrace"))
		return &backend_ptrace;
	if (!strcmp(o->backend, "bpf")) {
		if (backend_bpf.usable(why, sizeof(why))) {
			error("backend bpf: %s", why);
			return NULL;
		}
		if (o->log) {
			error("--log needs the ptrace backend: bpf does not see each call's arguments");
			return NULL;
		}
		return &backend_bpf;
	}
	if (o->log) {
		debug("backend auto: ptrace, because --log needs each call's arguments");
		return &backend_ptrace;
	}
	if (!backend_bpf.usable(why, sizeof(why)))
		return &backend_bpf;
	fprintf(stderr, "kfootprint: backend auto: using ptrace, bpf cannot load: %s\n", why);
	return &backend_ptrace;
}

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

/* No SA_RESTART: a blocked wait in a backend must return EINTR and look at the flag. */
static void install_stop_handlers(void)
{
	struct sigaction sa = {.sa_handler = on_stop_signal};

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

struct report_job {
	const struct record_opts *o;
	const struct footprint *fp;
};

/* The report, then the kernel map when --map asked for it, in one stream. */
static int render_report(FILE *out, const void *ctx)
{
	const struct report_job *job = ctx;

	if (renderer_find(job->o->format)->render(job->fp, out) < 0)
		return -1;
	return job->o->map ? map_footprint_report(job->fp, job->o->map, out) : 0;
}

/* -o, --report and --log, opened before the workload starts so that a bad path costs no run. */
struct record_outputs {
	struct atomic_file json, report, log;
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
}

static int open_outputs(const struct record_opts *o, struct record_outputs *out)
{
	unsigned flags;

	memset(out, 0, sizeof(*out));
	if (!o->output && !o->report && !o->log)
		return 0;
	if (output_flags(o, &flags) < 0)
		return -1;
	if ((o->output && atomic_file_open(&out->json, o->output, flags) < 0) ||
	    (o->report && atomic_file_open(&out->report, o->report, flags) < 0) ||
	    (o->log && atomic_file_open(&out->log, o->log, flags) < 0)) {
		abort_outputs(out);
		return -1;
	}
	return 0;
}

static int write_json(FILE *out, const void *fp)
{
	return fp__write_json(fp, out);
}

static int write_text(FILE *out, const void *text)
{
	return fputs(text, out) < 0 ? -1 : 0;
}

/* With --map, the saved footprint carries the kernel map too. */
static int save_json(const struct record_opts *o, struct atomic_file *af, const struct footprint *fp)
{
	char *text;
	int rc;

	if (!o->map)
		return atomic_file_finish(af, write_json, fp);
	text = map_annotate_footprint_json(fp);
	if (!text)
		return -1;
	rc = atomic_file_finish(af, write_text, text);
	free(text);
	return rc;
}

static int write_report(const struct record_opts *o, struct atomic_file *af, const struct footprint *fp)
{
	struct report_job job = {o, fp};

	if (!o->report)
		return atomic_file_write(NULL, 0, stderr, render_report, &job);
	return atomic_file_finish(af, render_report, &job);
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
		char *name = NULL;
		uid_t uid;
		gid_t gid;
		char buf[16];

		snprintf(buf, sizeof(buf), "%u", (unsigned)getuid());
		if (!trace_lookup_user(buf, &uid, &gid, &name)) {
			fp->user = name;
		} else {
			fp->user = xstrdup(buf);
		}
	}
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = {.format = "text", .backend = "auto"};
	const struct backend *be;
	struct footprint *fp = NULL;
	struct record_outputs outs = {0};
	int rc, ret = 1;

	rc = parse_record_opts(argc, argv, &o);
	if (rc > 0) {
		record_usage(stdout);
		free(o.trace.pids);
		return 0;
	}
	if (rc < 0)
		goto out;
	if (o.trace.user && getuid() != 0) {
		error("-u needs root: kfootprint must keep its privileges while the workload drops them");
		goto out;
	}
	be = pick_backend(&o);
	if (!be)
		goto out;
	if (open_outputs(&o, &outs) < 0)
		goto out;
	o.trace.log = outs.log.f;
	fp = fp__new();
	fill_workload(&o, fp, be->name);
	o.trace.stop = &stop_signal;
	install_stop_handlers();
	fp__start(fp);
	if (be->run(&o.trace, fp) < 0)
		goto out;
	fp__finish(fp);
	if (stop_signal && fp->complete)
		fp__set_incomplete(fp, "interrupted");

	ret = exit_status_of(fp);
	if (o.log && atomic_file_commit(&outs.log) < 0)
		ret = ret ? ret : 1;
	if (o.output && save_json(&o, &outs.json, fp) < 0)
		ret = ret ? ret : 1;
	if (write_report(&o, &outs.report, fp) < 0)
		ret = ret ? ret : 1;
out:
	abort_outputs(&outs);
	fp__free(fp);
	free(o.trace.pids);
	return ret;
}
