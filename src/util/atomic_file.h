/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_ATOMIC_FILE_H
#define KF_UTIL_ATOMIC_FILE_H

#include <stdio.h>

/*
 * Every file kfootprint writes goes through here, under one rule (docs/output.md, "Output files"), so that running
 * kfootprint as root never lets another user choose which file it replaces or writes into:
 * - "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are that descriptor of kfootprint;
 * - a symbolic link is followed only when root or kfootprint's user owns it, on the way to the target as well
 *   as at its end (the kernel is never left to follow one: each is read and checked, fs.protected_symlinks or
 *   not);
 * - in a directory others may change (sticky, group- or world-writable), an entry of another user is never
 *   replaced nor written into;
 * - a character device or a FIFO is written in place; a directory or a block device is refused;
 * - anything else is written to a new file in the target's directory (unnamed until the commit where the
 *   system has O_TMPFILE), then renamed over the target, so it appears whole or not at all and the rename
 *   cannot follow a link either;
 * - that new file belongs to kfootprint's user with mode 0644 & ~umask, 0600 & ~umask for AF_PRIVATE; it
 *   takes the permission bits of the file it replaces only from a file of ours with no other hard link,
 *   and never setuid, setgid or sticky bits.
 * atomic_file_open() applies all of it before anything is written, so a bad path costs no work.
 */
enum {
	AF_PRIVATE = 1 << 0, /* the content shows another user's command lines and paths: 0600 */
	AF_QUIET = 1 << 1,   /* failures are debug messages only (an optional file such as the index cache) */
};

struct atomic_file {
	FILE *f;
	char *path; /* as given, for messages */
	unsigned flags;
	int dirfd;  /* the target's directory (O_PATH); -1 when written in place */
	char *dir;  /* that directory's path, for messages */
	char *name; /* the target's name in dirfd */
	char *tmp;  /* the new file's temporary name in dirfd; NULL while it is unnamed (O_TMPFILE) */
};

/* 0, or -1 after reporting "kfootprint: 'path': why" (af is then empty). */
int atomic_file_open(struct atomic_file *af, const char *path, unsigned flags);
/* Flushes, checks for write errors, renames into place. 0, or -1 after reporting (the target untouched). */
int atomic_file_commit(struct atomic_file *af);
/* Throws the new file away (nothing of it stays); a no-op on an empty af. */
void atomic_file_abort(struct atomic_file *af);
/* write(af->f, ctx) then commit, or abort when write returns < 0 (errno set). 0, or -1 after reporting. */
int atomic_file_finish(struct atomic_file *af, int (*write)(FILE *out, const void *ctx), const void *ctx);

/*
 * The whole pattern: write(out, ctx) into path atomically, or straight into dflt when path is NULL. write
 * returns < 0 on a write error (errno set). 0, or -1 after reporting "kfootprint: writing 'path': why".
 */
int atomic_file_write(const char *path, unsigned flags, FILE *dflt, int (*write)(FILE *out, const void *ctx),
		      const void *ctx);

/*
 * AF_PRIVATE when input names a file that other users cannot read: what is rendered from it should not be
 * more readable than it. 0 otherwise ("-", absent, readable by all).
 */
unsigned atomic_file_flags_like(const char *input);

#endif
