/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TAILOR_SPAWN_H
#define KF_TAILOR_SPAWN_H

#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

typedef void (*tl_line_fn)(const char *line, void *ctx);

/*
 * Runs argv (PATH searched) with stdin /dev/null, stdout and stderr to log_fd (-1: nowhere) and each line to
 * on_line (may be NULL). Its exit status, 128 + the signal that ended it, or -1 after a message when it could
 * not be started.
 */
int tl_spawn(char *const argv[], int log_fd, tl_line_fn on_line, void *ctx);

/*
 * The user that runs the tree's code (its Makefiles, scripts, host programs: conf and make). kfootprint runs as
 * root; the tree need not be trusted with that. As root: $KF_TAILOR_USER, else nobody (docs/tailor.md says why),
 * never uid 0. Not as root: kfootprint's own user, nothing to drop.
 */
struct tl_builder {
	uid_t uid;
	gid_t gid;
	bool drop; /* kfootprint is root: the child becomes uid/gid */
	char name[64];
};
/* 0, or -1 after a message (no such user, or one that is root). */
int tl_builder_get(struct tl_builder *b);

/*
 * tl_spawn as the builder: no supplementary groups, its uid and gid (real, effective, saved), no capabilities
 * (none effective, permitted, ambient, nor in the bounding set), PR_SET_NO_NEW_PRIVS (a setuid program gains
 * nothing), umask 022, HOME=/nonexistent. b NULL: as tl_spawn.
 */
int tl_spawn_as(const struct tl_builder *b, char *const argv[], int log_fd, tl_line_fn on_line, void *ctx);

/* Whether the builder can open path for reading (checked in a child that has become it): 0, or its errno. */
int tl_builder_access(const struct tl_builder *b, const char *path);

/*
 * A regular file at rel under dir, opened for reading without following a link at any component (openat with
 * O_NOFOLLOW, step by step): what the builder left in its build directory, taken by root. fd, or -1 with errno
 * (ELOOP or ENOTDIR for a link, EINVAL for what is not a regular file).
 */
int tl_open_inside(const char *dir, const char *rel);

#endif
