/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_UNPACK_H
#define KF_UTIL_UNPACK_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

/*
 * A file read whole within limit (util/input.h) and, when its first bytes say gzip or xz, decompressed within
 * the same limit: the one reader of kernel configurations (a .config, /proc/config.gz, Debian's
 * config.amd64_none_amd64.xz). The format is told by magic bytes, never by the name. Another compression
 * (bzip2, zstd, lz4, lzma) is refused by name rather than read as text. 0, or -1 with *why set (malloc'd).
 */
int kf_input_read_unpacked(const char *path, uint64_t limit, struct strbuf *out, char **why);
/* The same on bytes in memory (a table built into the binary). */
int kf_unpack(const void *data, size_t len, uint64_t limit, struct strbuf *out, char **why);

#endif
