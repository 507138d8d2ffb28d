// SPDX-License-Identifier: GPL-2.0
/*
 * kfootprint: which parts of the Linux kernel does this workload really use?
 * Subcommand dispatch; each command lives in src/cmd/<name>.c.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/error.h"

struct cmd_struct {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct cmd_struct commands[] = {
    {"record", cmd_record, "trace a command or attach to processes, print the footprint"},
    {"report", cmd_report, "render a saved footprint (FILE.json) again"},
    {"map", cmd_map, "map syscalls to kernel source, Makefile objects, Kconfig options, maintainers"},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: kfootprint [record] [OPTIONS] -- COMMAND [ARG...]\n"
		     "       kfootprint record -p PID[,PID...] [-d SECONDS] [OPTIONS]\n"
		     "       kfootprint report [-F FORMAT] FILE.json\n"
		     "       kfootprint map [OPTIONS] FILE.json | --syscalls LIST | --all-syscalls\n"
		     "\n"
		     "Which parts of the Linux kernel does this workload really use? kfootprint runs or attaches\n"
		     "to a workload, records every system call of every process and thread, and reports the\n"
		     "footprint: syscalls with counts, errors and time, the process tree with the files each\n"
		     "process opened, and the kernel subsystems behind each call.\n"
		     "\n"
		     "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n"
		     "'kfootprint COMMAND --help' shows the options of a command; with no command, record is meant.\n"
		     "  -h, --help      this help\n"
		     "  -V, --version   print the version\n");
}

/* perf's run_builtin habit: a full disk or a closed pipe on stdout is an error, not a silent success. */
static int finish_stdout(int rc)
{
	if (fflush(stdout) || ferror(stdout)) {
		perror_msg("writing standard output");
		return rc ? rc : 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("kfootprint %s\n", KF_VERSION);
		return finish_stdout(0);
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return finish_stdout(commands[i].fn(argc - 1, argv + 1));
	/* No subcommand: "kfootprint [OPTIONS] -- COMMAND" records, as strace would. */
	argv[0] = "record";
	return finish_stdout(cmd_record(argc, argv));
}
