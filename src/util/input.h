/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_INPUT_H
#define KF_UTIL_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/sniff.h"
#include "util/strbuf.h"

/*
 * Bounded input: a file kfootprint reads (a footprint, a map database, a .config) ends within a stated size, or is
 * refused with one line, whatever it is. A regular file larger than the limit is refused before it is read; a
 * pipe, a FIFO or a character device (stdin, /dev/zero) is read up to the limit and refused past it. Opening
 * never blocks: a FIFO without a writer is refused rather than waited for, a directory is "Is a directory".
 * Errors come back as text (*why, malloc'd) for the caller's one-line message.
 */

/* The limits of docs/output.md, "Input limits". */
#define KF_FOOTPRINT_MAX (1ull << 30)  /* a footprint: 1 GiB, streamed (4 times the largest seen) */
#define KF_MAPDB_MAX	 (16ull << 20) /* a map database (the built-in ones are 0.2 MB) */
#define KF_CONFIG_MAX	 (16ull << 20) /* a kernel .config, plain, gzip'd or xz'd, and what it decompresses to */

struct kf_input {
	int fd;
	bool regular;		 /* a regular file (its size was checked at open) */
	bool own;		 /* fd is ours to close (not standard input) */
	uint64_t limit;		 /* bytes */
	uint64_t total;		 /* read so far */
	int held;		 /* a byte read ahead (a FIFO's first), or -1 */
	char head[KF_SNIFF_LEN]; /* the first bytes read, for kf_sniff() */
	size_t nhead;
};

/* path "-" is standard input. 0, or -1 with *why set. */
int kf_input_open(struct kf_input *in, const char *path, uint64_t limit, char **why);
/* Up to len bytes; 0 at the end; -1 with *why set (a read error, or the input goes past its limit). */
ssize_t kf_input_read(struct kf_input *in, void *buf, size_t len, char **why);
void kf_input_close(struct kf_input *in);
/* The whole input appended to sb. 0, or -1 with *why set. */
int kf_input_read_all(const char *path, uint64_t limit, struct strbuf *sb, char **why);
/* "1 GiB", "16 MiB": a limit as the messages and the docs state it. */
const char *kf_input_size(uint64_t bytes, char *buf, size_t len);

#endif
