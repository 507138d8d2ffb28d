// SPDX-License-Identifier: GPL-2.0
/* The names of the index's enums, as map databases and map JSON spell them. */
#include <string.h>

#include "ktree/ktree.h"

static const char *const cond_kinds[] = {
    [KT_COND_MAKEFILE_OBJ] = "makefile-obj", [KT_COND_MAKEFILE_VAR] = "makefile-var",
    [KT_COND_MAKEFILE_DIR] = "makefile-dir", [KT_COND_MAKEFILE_IF] = "makefile-if",
    [KT_COND_SOURCE_IF] = "source-if",	     [KT_COND_INCLUDE] = "include",
    [KT_COND_ARCH_WANT] = "arch-want",
};

static const char *const statuses[] = {
    [KT_RESOLVED] = "resolved",		  [KT_NO_ENTRY] = "no-entry",	[KT_NI_SYSCALL] = "ni-syscall",
    [KT_NO_DEFINITION] = "no-definition", [KT_NOT_BUILT] = "not-built", [KT_NOT_IN_TREE] = "not-in-tree",
};

static int lookup(const char *const *names, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

const char *kt_cond_kind_name(enum kt_cond_kind k)
{
	return (unsigned)k < sizeof(cond_kinds) / sizeof(cond_kinds[0]) ? cond_kinds[k] : "unknown";
}

int kt_cond_kind_parse(const char *name)
{
	return lookup(cond_kinds, sizeof(cond_kinds) / sizeof(cond_kinds[0]), name);
}

const char *kt_status_name(enum kt_status s)
{
	return (unsigned)s < sizeof(statuses) / sizeof(statuses[0]) ? statuses[s] : "not-in-tree";
}

int kt_status_parse(const char *name)
{
	return lookup(statuses, sizeof(statuses) / sizeof(statuses[0]), name);
}
