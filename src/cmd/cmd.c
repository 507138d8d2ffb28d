// SPDX-License-Identifier: GPL-2.0
/* The table of subcommands and what they share: --help from a command's row. */
#include "cmd/cmd.h"

#include <string.h>

/* one row a line, so that adding a command is a one-line change */
// clang-format off
const struct kf_command *const kf_commands[] = {
    &kf_cmd_record,
    &kf_cmd_report,
    &kf_cmd_map,
    &kf_cmd_diff,
    &kf_cmd_merge,
    &kf_cmd_seccomp,
    &kf_cmd_inventory,
    &kf_cmd_boot,
    &kf_cmd_qemu,
    &kf_cmd_tailor,
    NULL,
};
// clang-format on

const struct kf_command *kf_command_find(const char *name)
{
	for (size_t i = 0; kf_commands[i]; i++)
		if (!strcmp(kf_commands[i]->name, name))
			return kf_commands[i];
	return NULL;
}

void kf_command_help(const struct kf_command *c, FILE *out)
{
	const char *s = c->synopsis;

	for (int first = 1; *s; first = 0) {
		size_t n = strcspn(s, "\n");

		fprintf(out, "%s%.*s\n", first ? "usage: " : "       ", (int)n, s);
		s += n + (s[n] == '\n');
	}
	fprintf(out, "\n%s\n\noptions:\n", c->description);
	kf_options_help(out, c->options);
	if (c->more_help)
		c->more_help(out);
	if (c->examples)
		fprintf(out, "\nexamples:\n%s", c->examples);
}

int kf_command_parse(const struct kf_command *c, unsigned flags, int argc, char **argv, void *opts)
{
	return kf_parse_options(c->name, c->options, flags, argc, argv, opts);
}
