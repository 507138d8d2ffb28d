// SPDX-License-Identifier: GPL-2.0
// PLACEHOLDER (coordinator): replaced by the reports work.
#include "cmd/cmd.h"
#include "util/error.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("report: placeholder");
}
