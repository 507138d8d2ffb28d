// SPDX-License-Identifier: GPL-2.0
// Files that may be compressed: gzip (zlib) and xz (liblzma), told by their magic bytes (see unpack.h).
#include "util/unpack.h"

#include <lzma.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "util/input.h"
#include "util/xalloc.h"

static const char *past_limit(uint64_t limit, char *buf, size_t len)
{
	char l[32];

	snprintf(buf, len, "decompresses to more than %s, the limit of this input", kf_input_size(limit, l, sizeof(l)));
	return buf;
}

/* gzip data (one member or several) into out, at most limit bytes. NULL, or what went wrong. */
static const char *gunzip(const struct strbuf *in, uint64_t limit, struct strbuf *out, char *buf, size_t blen)
{
	z_stream z;
	char chunk[65536];
	const char *why = NULL;
	int rc;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 32) != Z_OK)
		return "out of memory";
	z.next_in = (unsigned char *)in->buf;
	z.avail_in = (unsigned)in->len;
	do {
		z.next_out = (unsigned char *)chunk;
		z.avail_out = sizeof(chunk);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && z.avail_in)) {
			why = rc == Z_BUF_ERROR ? "truncated gzip data" : z.msg ? z.msg : "not gzip data";
			break;
		}
		strbuf_add(out, chunk, sizeof(chunk) - z.avail_out);
		if (out->len > limit) {
			why = past_limit(limit, buf, blen);
			break;
		}
		if (rc == Z_STREAM_END && z.avail_in)
			inflateReset(&z); /* the next member */
		else if (rc == Z_STREAM_END)
			break;
	} while (z.avail_in || !z.avail_out);
	if (!why && rc != Z_STREAM_END)
		why = "truncated gzip data";
	inflateEnd(&z);
	return why;
}

/* xz data (concatenated streams too, as xz -d reads them) into out, at most limit bytes. */
static const char *unxz(const struct strbuf *in, uint64_t limit, struct strbuf *out, char *buf, size_t blen)
{
	lzma_stream s = LZMA_STREAM_INIT;
	unsigned char chunk[65536];
	const char *why = NULL;
	lzma_ret rc;

	/* 64 MiB of dictionary at most: xz -9 needs 64, a file asking more is not a configuration */
	if (lzma_stream_decoder(&s, 64ull << 20, LZMA_CONCATENATED) != LZMA_OK)
		return "out of memory";
	s.next_in = (const uint8_t *)in->buf;
	s.avail_in = in->len;
	do {
		s.next_out = chunk;
		s.avail_out = sizeof(chunk);
		rc = lzma_code(&s, LZMA_FINISH);
		strbuf_add(out, chunk, sizeof(chunk) - s.avail_out);
		if (out->len > limit) {
			why = past_limit(limit, buf, blen);
			break;
		}
	} while (rc == LZMA_OK);
	if (!why && rc != LZMA_STREAM_END)
		why = rc == LZMA_MEMLIMIT_ERROR ? "xz data needing more than 64 MiB of memory"
		      : rc == LZMA_BUF_ERROR	? "truncated xz data"
		      : rc == LZMA_FORMAT_ERROR ? "not xz data"
						: "corrupt xz data";
	lzma_end(&s);
	return why;
}

static bool starts(const struct strbuf *sb, const char *magic, size_t n)
{
	return sb->len >= n && !memcmp(sb->buf, magic, n);
}

int kf_unpack(const void *data, size_t len, uint64_t limit, struct strbuf *out, char **why)
{
	/* the decoders read a strbuf: this one borrows the bytes, and is never released */
	const struct strbuf raw = {.buf = (char *)data, .len = len, .alloc = 0};
	const char *w = NULL, *other = NULL;
	char buf[96];

	if (starts(&raw, "\x1f\x8b", 2))
		w = gunzip(&raw, limit, out, buf, sizeof(buf));
	else if (starts(&raw, "\xfd\x37\x7a\x58\x5a\x00", 6)) /* 0xfd "7zXZ" 0 */
		w = unxz(&raw, limit, out, buf, sizeof(buf));
	else if (starts(&raw, "BZh", 3))
		other = "bzip2";
	else if (starts(&raw, "\x28\xb5\x2f\xfd", 4))
		other = "zstd";
	else if (starts(&raw, "\x04\x22\x4d\x18", 4) || starts(&raw, "\x02\x21\x4c\x18", 4))
		other = "lz4";
	else if (starts(&raw, "\x5d\0\0", 3))
		other = "lzma";
	else
		strbuf_add(out, raw.buf, raw.len);
	if (other)
		w = (snprintf(buf, sizeof(buf),
			      "compressed with %s, which is not read (gzip and xz are): decompress it", other),
		     buf);
	if (w) {
		*why = xstrdup(w);
		return -1;
	}
	return 0;
}

int kf_input_read_unpacked(const char *path, uint64_t limit, struct strbuf *out, char **why)
{
	struct strbuf raw = STRBUF_INIT;
	int r;

	if (kf_input_read_all(path, limit, &raw, why) < 0) {
		strbuf_release(&raw);
		return -1;
	}
	r = kf_unpack(raw.buf, raw.len, limit, out, why);
	strbuf_release(&raw);
	return r;
}
