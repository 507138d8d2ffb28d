/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_FNV_H
#define KF_UTIL_FNV_H

#include <stdint.h>

/*
 * 64-bit FNV-1a, the one string hash of the hash tables and of the cache file names (which must not change from
 * one version to the next: a new name orphans a cache of tens of MB). Chain calls to hash several strings.
 */
#define FNV1A64_INIT 1469598103934665603ULL

static inline uint64_t fnv1a64(const char *s, uint64_t h)
{
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

#endif
