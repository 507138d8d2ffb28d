/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_CMD_H
#define KF_CMD_H

/*
 * Subcommands. Adding one: src/cmd/<name>.c with `int cmd_<name>(int argc, char **argv)` (argv[0] is the
 * subcommand's name), a declaration here, a row in commands[] (main.c), tests, README.md and the man page.
 * A command returns the process exit status.
 */
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_map(int argc, char **argv);

#endif
