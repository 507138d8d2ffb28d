// SPDX-License-Identifier: GPL-2.0
/*
 * kfootprint: which parts of the Linux kernel does this workload really use?
 * Subcommand dispatch through kf_commands[] (cmd/cmd.c); each command lives in src/cmd/<name>.c.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "util/error.h"

static void usage(FILE *out)
{
	const char *lead = "usage: ";

	for (size_t i = 0; kf_commands[i]; i++) {
		for (const char *s = kf_commands[i]->synopsis; *s; lead = "       ") {
			size_t n = strcspn(s, "\n");

			fprintf(out, "%s%.*s\n", lead, (int)n, s);
			s += n + (s[n] == '\n');
		}
	}
	fprintf(out, "\n"
		     "Which parts of the Linux kernel does this workload really use? kfootprint runs or attaches\n"
		     "to a workload, records every system call of every process and thread, and reports the\n"
		     "footprint: syscalls with counts, errors and time, the process tree with the files each\n"
		     "process opened, and the kernel subsystems behind each call.\n"
		     "\n"
		     "commands:\n");
	for (size_t i = 0; kf_commands[i]; i++)
		fprintf(out, "  %-8s %s\n", kf_commands[i]->name, kf_commands[i]->summary);
	fprintf(out, "\n"
		     "'kfootprint COMMAND --help' shows the options of a command; with no command, record is meant.\n"
		     "  -h, --help      this help\n"
		     "  -V, --version   print the version\n"
		     "\n"
		     "exit status: the workload's for record (128 + N when a signal N killed it); 1 when kfootprint\n"
		     "itself fails, a usage error included (strace's convention); 0 otherwise.\n");
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
	const struct kf_command *c;

	if (argc < 2) {
		error("nothing to do: see 'kfootprint --help'");
		return 1;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return finish_stdout(0);
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("kfootprint %s\n", KF_VERSION);
		return finish_stdout(0);
	}
	c = kf_command_find(argv[1]);
	if (c)
		return finish_stdout(c->fn(argc - 1, argv + 1));
	/* No subcommand: "kfootprint [OPTIONS] -- COMMAND" records, as strace would. */
	argv[0] = "record";
	return finish_stdout(kf_cmd_record.fn(argc, argv));
}
