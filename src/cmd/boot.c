// SPDX-License-Identifier: GPL-2.0
/* kfootprint boot: record a whole boot from PID 1, kfootprint being the kernel's init (src/boot/). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot.h"
#include "cmd/cmd.h"
#include "trace/trace.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/parse.h"
#include "util/xalloc.h"

struct boot_cmd_opts {
	struct boot_opts b;
	bool stop;
};

static int opt_duration(const char *value, void *opts)
{
	return parse_seconds("--duration", value, &((struct boot_cmd_opts *)opts)->b.duration);
}

static int opt_ready_timeout(const char *value, void *opts)
{
	return parse_seconds("--ready-timeout", value, &((struct boot_cmd_opts *)opts)->b.ready_timeout);
}

static int opt_write_timeout(const char *value, void *opts)
{
	return parse_seconds("--write-timeout", value, &((struct boot_cmd_opts *)opts)->b.write_timeout);
}

#define B struct boot_cmd_opts
static const struct kf_option options[] = {
    OPT_STRING(0, "init", B, b.init, "PATH",
	       "the real init, exec'd as PID 1 (default /sbin/init); its arguments after --"),
    OPT_CALLBACK('d', "duration", "SECS", opt_duration, "end recording SECS after init started"),
    OPT_STRING(0, "until-file", B, b.until_file, "PATH", "end recording when PATH exists (checked 4 times a second)"),
    OPT_STRING(0, "until-target", B, b.until_target, "UNIT",
	       "end recording when systemd reached UNIT (its ActiveState is active, asked on /run/systemd/private)"),
    OPT_STRING('o', "output", B, b.output, "FILE",
	       "where the footprint goes (default /var/log/kfootprint/boot-DATE.json), once writable"),
    OPT_CALLBACK(0, "ready-timeout", "SECS", opt_ready_timeout,
		 "how long init waits at most for the recorder to attach (default 10); then it runs, and the "
		 "footprint says its first calls are missing"),
    OPT_CALLBACK(0, "write-timeout", "SECS", opt_write_timeout,
		 "how long the footprint waits in memory for a writable file system (default 10m)"),
    OPT_CHOICE('b', "backend", B, b.backend, "NAME", backend_names,
	       "%s: auto (default) takes bpf, and ptrace following PID 1's tree when bpf cannot load"),
    OPT_BOOL(0, "stop", B, stop, "end a running recorder's observation (it then writes the footprint)"),
    OPT_VERBOSE("diagnostics, and each step before init runs on the kernel's clock (as /proc/uptime)"),
    OPT_HELP(),
    OPT_END(),
};
#undef B

static int cmd_boot(int argc, char **argv)
{
	struct boot_cmd_opts o = {
	    .b = {.init = "/sbin/init", .backend = "auto", .write_timeout = 600, .ready_timeout = 10}};
	int i;

	boot_env_opts(&o.b);
	i = kf_command_parse(&kf_cmd_boot, 0, argc, argv, &o);
	if (i == KF_PARSE_HELP) {
		kf_command_help(&kf_cmd_boot, stdout);
		return 0;
	}
	if (i >= 0 && o.stop)
		return boot_stop() < 0 ? 1 : 0;
	if (i < 0 && getpid() != 1)
		return 1;
	if (getpid() != 1)
		return error("boot: not PID 1: the kernel runs it as init (init=/usr/bin/kfootprint boot ...; see "
			     "'kfootprint boot --help')"),
		       1;
	/* as init, a usage error must not stop the boot: it is said, and init runs unrecorded */
	if (i < 0) {
		o.b.init_argv = NULL;
		o.b.duration = 0;
		o.b.backend = "none";
	} else if (i < argc) {
		/* init's argv[0] is its path, as the kernel gives it; then the arguments after -- */
		o.b.init_argv = xcalloc((size_t)(argc - i) + 2, sizeof(char *));
		o.b.init_argv[0] = (char *)o.b.init;
		memcpy(o.b.init_argv + 1, argv + i, (size_t)(argc - i) * sizeof(char *));
	}
	if (i < 0 || (o.b.backend && strcmp(o.b.backend, "auto") && !backend_find(o.b.backend)) ||
	    atomic_file_distinct(&o.b.init, 1, &o.b.output, 1) < 0) {
		error("boot: bad options: init runs unrecorded");
		o.b.ready_timeout = 0;
	}
	boot_run(&o.b);
	return 1;
}

const struct kf_command kf_cmd_boot = {
    .name = "boot",
    .fn = cmd_boot,
    .summary = "record a whole boot from PID 1, as the kernel's init",
    .synopsis =
	"kfootprint boot [OPTIONS] [--init PATH] [-- INIT-ARG...]    run by the kernel: init=/usr/bin/kfootprint boot\n"
	"kfootprint boot --stop",
    .description =
	"Run by the kernel as init: forks a recorder, which follows PID 1's whole tree (bpf; ptrace when bpf\n"
	"cannot load), and once it holds PID 1 execs the real init, which keeps PID 1 and everything else (no\n"
	"descriptor, signal disposition, session, directory or environment of init is changed). Recording ends\n"
	"on -d, --until-file, --until-target or 'kfootprint boot --stop'; the footprint is kept in memory until\n"
	"its file can be written. Options may also come from the kernel command line as kfootprint_duration=,\n"
	"kfootprint_until_file=, kfootprint_until_target=, kfootprint_output=, kfootprint_init=,\n"
	"kfootprint_backend=, kfootprint_ready_timeout= (no dot: the kernel gives them to init's environment).\n"
	"Whatever fails, init is exec'd. Without /proc or /sys (no initramfs mounted them), the recorder mounts\n"
	"its own in a mount namespace of its own: init still finds none.",
    .options = options,
    .opts_size = sizeof(struct boot_cmd_opts),
    .examples = "  linux ... init=/usr/bin/kfootprint boot kfootprint_until_target=multi-user.target\n"
		"  linux ... init=/usr/bin/kfootprint boot -- -d 60 --init /lib/systemd/systemd\n"
		"  kfootprint report -F tree /var/log/kfootprint/boot-*.json\n",
};
