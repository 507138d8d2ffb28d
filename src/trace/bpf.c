// SPDX-License-Identifier: GPL-2.0
// PLACEHOLDER (coordinator): replaced by the BPF backend work.
#include <stdio.h>

#include "trace/trace.h"
#include "util/error.h"

static int usable(char *why, size_t len)
{
	snprintf(why, len, "not built yet");
	return -1;
}

static int run(const struct trace_opts *opts, struct footprint *fp)
{
	(void)opts;
	(void)fp;
	return error("backend bpf: not built yet");
}

const struct backend backend_bpf = { "bpf", usable, run };
