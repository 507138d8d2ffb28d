/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_CMD_H
#define KF_CMD_H

#include <stdio.h>

#include "util/options.h"

/*
 * Subcommands (git's builtin.h, perf's cmd_struct): one row each in kf_commands[] (cmd.c), each in its own
 * src/cmd/<name>.c with its options table; main.c dispatches, prints `kfootprint --help` from the rows and each
 * command's --help from its row.
 *
 * Adding one: src/cmd/<name>.c defining `const struct kf_command kf_cmd_<name>`, its declaration below, a row
 * in kf_commands[] (cmd.c), tests, its section with an option table in docs/commands.md, and the man page
 * (`make man` writes its option list; the unit test test_options checks both). A command's fn returns the
 * process exit status; its usage errors exit 1.
 */
struct kf_command {
	const char *name;
	int (*fn)(int argc, char **argv); /* argv[0] is the command's name */
	const char *summary;		  /* one line for `kfootprint --help` */
	const char *synopsis;		  /* usage lines, newline-separated, without "usage: " */
	const char *description;	  /* a paragraph, lines wrapped */
	const struct kf_option *options;
	size_t opts_size;	      /* of the struct the table's offsets are into */
	void (*more_help)(FILE *out); /* sections after the options (formats ...), or NULL */
	const char *examples;	      /* lines, "  command    what it does" */
};

extern const struct kf_command kf_cmd_record;
extern const struct kf_command kf_cmd_report;
extern const struct kf_command kf_cmd_map;
extern const struct kf_command kf_cmd_diff;
extern const struct kf_command kf_cmd_merge;
extern const struct kf_command kf_cmd_seccomp;
extern const struct kf_command kf_cmd_inventory;
extern const struct kf_command kf_cmd_qemu;
extern const struct kf_command kf_cmd_boot;
extern const struct kf_command kf_cmd_tailor;

/* Every command, in the order `kfootprint --help` lists them; NULL-terminated. */
extern const struct kf_command *const kf_commands[];

const struct kf_command *kf_command_find(const char *name);
/* A command's --help: usage, description, options (from its table), more sections, examples. */
void kf_command_help(const struct kf_command *c, FILE *out);
/* Parses a command's options into opts (kf_parse_options() with its table and name). */
int kf_command_parse(const struct kf_command *c, unsigned flags, int argc, char **argv, void *opts);

#endif
