// SPDX-License-Identifier: GPL-2.0
// PLACEHOLDER (coordinator): replaced by the ptrace backend work.
#include <stdio.h>

#include "trace/trace.h"
#include "util/error.h"

static int usable(char *why, size_t len)
{
	(void)why;
	(void)len;
	return 0;
}

static int run(const struct trace_opts *opts, struct footprint *fp)
{
	(void)opts;
	(void)fp;
	return error("backend ptrace: not built yet");
}

const struct backend backend_ptrace = { "ptrace", usable, run };

int trace_lookup_user(const char *user, uid_t *uid, gid_t *gid, char **name)
{
	(void)user; (void)uid; (void)gid; (void)name;
	return -1;
}
