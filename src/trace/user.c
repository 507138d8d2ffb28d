// SPDX-License-Identifier: GPL-2.0
/* -u USER: who the workload runs as, while the tracer keeps root's privileges to trace it. */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/trace.h"
#include "util/error.h"
#include "util/xalloc.h"

int trace_lookup_user(const char *user, uid_t *uid, gid_t *gid, char **name)
{
	struct passwd *pw;
	char *end;
	unsigned long v;

	if (!user || !*user)
		return error("invalid user '': empty name");
	errno = 0;
	pw = getpwnam(user);
	if (!pw) {
		/* Not a name: a numeric uid, which may have no passwd entry at all. */
		errno = 0;
		v = strtoul(user, &end, 10);
		if (*end || end == user || errno || v > UINT_MAX - 1)
			return error("unknown user '%s'", user);
		errno = 0;
		pw = getpwuid((uid_t)v);
		if (!pw) {
			*uid = (uid_t)v;
			*gid = (gid_t)v;
			if (name)
				*name = xstrdup(user);
			return 0;
		}
	}
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	if (name)
		*name = xstrdup(pw->pw_name);
	return 0;
}

int trace_drop_privileges(const char *user)
{
	uid_t uid;
	gid_t gid;
	char *name = NULL;
	int rc = -1;

	if (trace_lookup_user(user, &uid, &gid, &name) < 0)
		return -1;
	/* Groups first, then the gid, then the uid: once the uid is dropped the others cannot change. */
	if (getpwnam(name) ? initgroups(name, gid) < 0 : setgroups(0, NULL) < 0)
		perror_msg("-u '%s': setting the supplementary groups", user);
	else if (setgid(gid) < 0)
		perror_msg("-u '%s': setgid %u", user, (unsigned)gid);
	else if (setuid(uid) < 0)
		perror_msg("-u '%s': setuid %u", user, (unsigned)uid);
	else
		rc = 0;
	free(name);
	return rc;
}
