/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_UTIL_SHA256_H
#define KF_UTIL_SHA256_H

#include <stddef.h>
#include <stdint.h>

/*
 * SHA-256 (FIPS 180-4), for content digests: `kfootprint merge` names each source by the digest of its
 * footprint, so that the same footprint merged twice is kept once. Not for anything secret.
 */
struct sha256 {
	uint32_t h[8];
	uint64_t len; /* bytes hashed */
	unsigned char block[64];
	size_t nblock;
};

#define SHA256_HEX_LEN 64

void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t n);
/* The digest as 64 lower-case hex digits and a NUL into hex[SHA256_HEX_LEN + 1]. */
void sha256_final_hex(struct sha256 *c, char *hex);

#endif
