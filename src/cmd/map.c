// SPDX-License-Identifier: GPL-2.0
// PLACEHOLDER (coordinator): replaced by the map work.
#include "cmd/cmd.h"
#include "util/error.h"

int cmd_map(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return error("map: placeholder");
}
