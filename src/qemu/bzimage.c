// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF vmlinux inside an x86 bzImage, for the gdb method's BTF (and symbols, when it has them): what the
 * kernel's scripts/extract-vmlinux gives, found by the boot protocol's header rather than by scanning for
 * magic numbers (Documentation/arch/x86/boot.rst): setup_sects at 0x1f1, "HdrS" at 0x202, the protocol version at
 * 0x206, and from 2.08 on payload_offset and payload_length at 0x248, relative to the protected-mode code that
 * follows the (setup_sects + 1) sectors of real-mode setup. The payload's magic then says how it was compressed;
 * the build appends the decompressed size as a 32-bit little-endian number (scripts/Makefile.lib's size_append),
 * which bounds and checks the output. gzip (zlib), xz and lzma (liblzma) and bzip2 (libbz2) are decompressed,
 * the libraries the build links anyway; zstd, lz4 and lzo kernels get a line saying so (Debian's are xz).
 */
#include <bzlib.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "qemu/qemu_int.h"
#include "util/error.h"
#include "util/xalloc.h"

#define OUT_MAX	  (1u << 30) /* a decompressed kernel larger than 1 GB is not one */
#define RATIO_MAX 256	     /* nor one that claims to be more than 256 times its compressed size */

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool kfq_is_bzimage(const unsigned char *img, size_t len)
{
	return len >= 0x206 && img[0x1fe] == 0x55 && img[0x1ff] == 0xaa && !memcmp(img + 0x202, "HdrS", 4);
}

struct format {
	const char *name;
	const unsigned char *magic;
	size_t mlen;
};

static const struct format formats[] = {
    {"gzip", (const unsigned char *)"\x1f\x8b", 2},
    {"xz", (const unsigned char *)"\xfd\x37\x7a\x58\x5a\x00", 6},
    {"lzma", (const unsigned char *)"\x5d\0\0", 3},
    {"bzip2", (const unsigned char *)"BZh", 3},
    {"zstd", (const unsigned char *)"\x28\xb5\x2f\xfd", 4},
    {"lz4", (const unsigned char *)"\x02\x21\x4c\x18", 4},
    {"lzo", (const unsigned char *)"\x89LZO", 4},
};

/* Each decompresses in into out (exactly want bytes expected); 0, or -1 with *why set. */
static int inflate_gzip(const unsigned char *in, size_t inlen, unsigned char *out, size_t want, const char **why)
{
	z_stream z = {0};
	int rc;

	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return *why = "zlib cannot start", -1;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)(inlen > UINT32_MAX ? UINT32_MAX : inlen);
	z.next_out = out;
	z.avail_out = (uInt)want;
	rc = inflate(&z, Z_FINISH);
	inflateEnd(&z);
	if (rc != Z_STREAM_END || z.total_out != want)
		return *why = "cut short or corrupt", -1;
	return 0;
}

static int inflate_lzma(const unsigned char *in, size_t inlen, unsigned char *out, size_t want, bool xz,
			const char **why)
{
	/*
	 * The header names the dictionary, and liblzma allocates it: a lying one of 4 GiB would be taken (the fuzzer
	 * found it). The kernel's own xz and lzma use at most 64 MiB (lzma -9); 256 MiB leaves room and bounds it.
	 */
	const uint64_t memlimit = 256u << 20;
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret rc = xz ? lzma_stream_decoder(&s, memlimit, 0) : lzma_alone_decoder(&s, memlimit);

	if (rc != LZMA_OK)
		return *why = "liblzma cannot start", -1;
	s.next_in = in;
	s.avail_in = inlen;
	s.next_out = out;
	s.avail_out = want;
	rc = lzma_code(&s, LZMA_FINISH);
	/* lzma (alone) has no end marker when the size is in its header: all of want is its end */
	if (!xz && rc == LZMA_OK && s.total_out == want)
		rc = LZMA_STREAM_END;
	lzma_end(&s);
	if (rc == LZMA_MEMLIMIT_ERROR)
		return *why = "its dictionary is larger than 256 MiB", -1;
	if (rc != LZMA_STREAM_END || s.total_out != want)
		return *why = "cut short or corrupt", -1;
	return 0;
}

static int inflate_bzip2(const unsigned char *in, size_t inlen, unsigned char *out, size_t want, const char **why)
{
	bz_stream b = {0};
	int rc;

	if (BZ2_bzDecompressInit(&b, 0, 0) != BZ_OK)
		return *why = "libbz2 cannot start", -1;
	b.next_in = (char *)in;
	b.avail_in = (unsigned)(inlen > UINT32_MAX ? UINT32_MAX : inlen);
	b.next_out = (char *)out;
	b.avail_out = (unsigned)want;
	rc = BZ2_bzDecompress(&b);
	BZ2_bzDecompressEnd(&b);
	if (rc != BZ_STREAM_END || ((uint64_t)b.total_out_hi32 << 32 | b.total_out_lo32) != want)
		return *why = "cut short or corrupt", -1;
	return 0;
}

unsigned char *kfq_bzimage_vmlinux(const char *path, const unsigned char *img, size_t len, size_t *out_len)
{
	const struct format *f = NULL;
	const unsigned char *pl;
	const char *why = NULL;
	unsigned char *out;
	size_t setup, off, plen, want;
	unsigned version;
	int rc;

	if (!kfq_is_bzimage(img, len))
		return error("qemu: '%s': not a bzImage (no \"HdrS\" boot header at 0x202)", path), NULL;
	if (len < 0x250)
		return error("qemu: '%s': truncated: %zu bytes, shorter than its boot header", path, len), NULL;
	version = img[0x206] | img[0x207] << 8;
	if (version < 0x208)
		return error("qemu: '%s': boot protocol %u.%02u has no payload fields (2.08, Linux 2.6.26): give "
			     "--vmlinux",
			     path, version >> 8, version & 0xff),
		       NULL;
	setup = ((size_t)(img[0x1f1] ? img[0x1f1] : 4) + 1) * 512;
	off = setup + le32(img + 0x248);
	plen = le32(img + 0x24c);
	if (off > len || plen > len - off || plen < 8)
		return error("qemu: '%s': truncated: its header puts a %zu-byte payload at %zu, the file has %zu bytes",
			     path, plen, off, len),
		       NULL;
	pl = img + off;
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]) && !f; i++)
		if (!memcmp(pl, formats[i].magic, formats[i].mlen))
			f = &formats[i];
	if (!f)
		return error("qemu: '%s': the payload at %zu is in no compression format known (gzip, xz, lzma, bzip2, "
			     "zstd, lz4, lzo)",
			     path, off),
		       NULL;
	want = le32(pl + plen - 4);
	/* a kernel compresses 3 to 10 times: a size far beyond that is a header that lies, not memory to give it */
	if (want < 64 || want > OUT_MAX || want / RATIO_MAX > plen)
		return error("qemu: '%s': the %s payload says it decompresses to %zu bytes: not a kernel", path,
			     f->name, want),
		       NULL;
	out = xmalloc(want);
	if (!strcmp(f->name, "gzip"))
		rc = inflate_gzip(pl, plen - 4, out, want, &why);
	else if (!strcmp(f->name, "xz") || !strcmp(f->name, "lzma"))
		rc = inflate_lzma(pl, plen - 4, out, want, f->name[0] == 'x', &why);
	else if (!strcmp(f->name, "bzip2"))
		rc = inflate_bzip2(pl, plen - 4, out, want, &why);
	else
		rc = -1, why = "a format this kfootprint cannot decompress: give --vmlinux (scripts/extract-vmlinux)";
	if (rc == 0 && memcmp(out, "\177ELF", 4))
		rc = -1, why = "decompressed, not an ELF vmlinux";
	if (rc < 0) {
		free(out);
		return error("qemu: '%s': its %s payload: %s", path, f->name, why), NULL;
	}
	*out_len = want;
	return out;
}
