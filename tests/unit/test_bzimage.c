// SPDX-License-Identifier: GPL-2.0
/*
 * The ELF vmlinux inside a bzImage (src/qemu/bzimage.c): bzImages made here around a known ELF payload, one per
 * compression the build links (gzip with zlib, xz and lzma with liblzma, bzip2 with libbz2), give it back byte
 * for byte; every truncation of one, a corrupt payload, a lying size, an unknown or undecompressable format and a
 * file that is no bzImage give NULL (and one line), never a crash. With KF_BZIMAGE and KF_VMLINUX set
 * (tests/integration/qemu_bzimage.sh: Debian's 6.1 vmlinuz, and the vmlinux the kernel's own
 * scripts/extract-vmlinux made of it), the real one gives exactly that vmlinux.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>

#include "fp_load.h"
#include "qemu/qemu_int.h"

#define SETUP_SECTS 2
#define PM_START    ((SETUP_SECTS + 1) * 512)

static unsigned char elf[4096];

static void make_elf(void)
{
	memcpy(elf, "\177ELF\2\1\1", 7);
	for (size_t i = 7; i < sizeof(elf); i++)
		elf[i] = (unsigned char)(i * 7 + i / 13); /* compressible, not trivially */
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* A bzImage around payload (compressed bytes, then the decompressed size as le32): malloc'd, *len its size. */
static unsigned char *make_bzimage(const unsigned char *z, size_t zlen, uint32_t size, size_t *len)
{
	size_t pad = 16; /* the payload sits a little after the start of the protected-mode code */
	unsigned char *img = calloc(1, PM_START + pad + zlen + 4 + 64);

	img[0x1f1] = SETUP_SECTS;
	img[0x1fe] = 0x55, img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f, img[0x207] = 0x02; /* protocol 2.15 */
	put32(img + 0x248, (uint32_t)pad);
	put32(img + 0x24c, (uint32_t)(zlen + 4));
	memcpy(img + PM_START + pad, z, zlen);
	put32(img + PM_START + pad + zlen, size);
	*len = PM_START + pad + zlen + 4 + 64; /* the rest of the bzImage follows the payload */
	return img;
}

static unsigned char *compress_as(const char *fmt, size_t *zlen)
{
	size_t cap = sizeof(elf) * 2 + 1024;
	unsigned char *z = malloc(cap);

	if (!strcmp(fmt, "gzip")) {
		z_stream s = {0};

		assert_int_equal(deflateInit2(&s, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
		s.next_in = elf, s.avail_in = sizeof(elf), s.next_out = z, s.avail_out = (uInt)cap;
		assert_int_equal(deflate(&s, Z_FINISH), Z_STREAM_END);
		*zlen = s.total_out;
		deflateEnd(&s);
	} else if (!strcmp(fmt, "xz")) {
		*zlen = 0;
		assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, elf, sizeof(elf), z, zlen, cap),
				 LZMA_OK);
	} else if (!strcmp(fmt, "lzma")) {
		lzma_stream s = LZMA_STREAM_INIT;
		lzma_options_lzma opt;

		lzma_lzma_preset(&opt, 6);
		assert_int_equal(lzma_alone_encoder(&s, &opt), LZMA_OK);
		s.next_in = elf, s.avail_in = sizeof(elf), s.next_out = z, s.avail_out = cap;
		assert_int_equal(lzma_code(&s, LZMA_FINISH), LZMA_STREAM_END);
		*zlen = s.total_out;
		lzma_end(&s);
	} else {
		unsigned n = (unsigned)cap;

		assert_int_equal(BZ2_bzBuffToBuffCompress((char *)z, &n, (char *)elf, sizeof(elf), 9, 0, 0), BZ_OK);
		*zlen = n;
	}
	return z;
}

/* NULL, and one line "kfootprint: qemu: 'what': ..." on stderr */
static void refused(const char *what, const unsigned char *img, size_t len)
{
	struct stderr_capture c;
	char want[64], *msg;
	size_t out_len;
	unsigned char *out;

	stderr_capture(&c);
	out = kfq_bzimage_vmlinux(what, img, len, &out_len);
	msg = stderr_captured(&c);
	snprintf(want, sizeof(want), "kfootprint: qemu: '%s': ", what);
	if (out || strncmp(msg, want, strlen(want)) || !strchr(msg, '\n') || strchr(msg, '\n')[1])
		fail_msg("%s: %zu bytes: %s, said '%s'", what, len, out ? "extracted" : "refused", msg);
	free(out);
	free(msg);
}

static const char *const fmts[] = {"gzip", "xz", "lzma", "bzip2"};

static void test_round_trip(void **state)
{
	(void)state;
	make_elf();
	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		size_t zlen, len, out_len = 0;
		unsigned char *z = compress_as(fmts[f], &zlen), *img = make_bzimage(z, zlen, sizeof(elf), &len);
		unsigned char *out = kfq_bzimage_vmlinux(fmts[f], img, len, &out_len);

		assert_true(kfq_is_bzimage(img, len));
		assert_non_null(out);
		assert_int_equal(out_len, sizeof(elf));
		assert_memory_equal(out, elf, sizeof(elf));
		free(out);
		free(img);
		free(z);
	}
}

/* Every length of each, cut: each gives NULL and one line (read together: a capture each costs a file), none
 * crashes (the ASan build). */
static void test_truncated(void **state)
{
	(void)state;
	make_elf();
	for (size_t f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		size_t zlen, len, out_len, end, lines = 0, bad = 0;
		unsigned char *z = compress_as(fmts[f], &zlen), *img = make_bzimage(z, zlen, sizeof(elf), &len);
		char want[64];
		struct stderr_capture c;
		FILE *msgs;
		char line[512];

		end = PM_START + 16 + zlen + 4;
		stderr_capture(&c);
		for (size_t cut = 0; cut < end; cut++) {
			unsigned char *copy = malloc(cut ? cut : 1), *out;

			memcpy(copy, img, cut);
			out = kfq_bzimage_vmlinux(fmts[f], copy, cut, &out_len);
			bad += out != NULL;
			free(out);
			free(copy);
		}
		fflush(stderr);
		msgs = fopen(c.path, "r");
		assert_non_null(msgs);
		snprintf(want, sizeof(want), "kfootprint: qemu: '%s': ", fmts[f]);
		while (fgets(line, sizeof(line), msgs))
			lines++, bad += !!strncmp(line, want, strlen(want));
		fclose(msgs);
		free(stderr_captured(&c));
		assert_int_equal(bad, 0);
		assert_int_equal(lines, end);
		free(img);
		free(z);
	}
}

static void test_bad(void **state)
{
	size_t zlen, len;
	unsigned char *z, *img;

	(void)state;
	make_elf();
	z = compress_as("xz", &zlen);
	/* not a bzImage: an ELF, text */
	assert_false(kfq_is_bzimage(elf, sizeof(elf)));
	refused("elf", elf, sizeof(elf));
	/* a corrupt payload: a byte in the middle of the stream */
	img = make_bzimage(z, zlen, sizeof(elf), &len);
	img[PM_START + 16 + zlen / 2] ^= 0x55;
	refused("corrupt", img, len);
	free(img);
	/* a size that lies: larger, smaller, absurd */
	const uint32_t sizes[] = {sizeof(elf) + 1, sizeof(elf) - 1, 0xffffffffu};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		img = make_bzimage(z, zlen, sizes[i], &len);
		refused("size", img, len);
		free(img);
	}
	/* formats it does not decompress, one that is none, and an old boot protocol */
	const char *magic[] = {"\x28\xb5\x2f\xfd", "\x02\x21\x4c\x18", "\x89LZO", "nope"};

	for (size_t i = 0; i < sizeof(magic) / sizeof(magic[0]); i++) {
		img = make_bzimage(z, zlen, sizeof(elf), &len);
		memcpy(img + PM_START + 16, magic[i], 4);
		refused("magic", img, len);
		free(img);
	}
	img = make_bzimage(z, zlen, sizeof(elf), &len);
	img[0x206] = 0x07;
	refused("old", img, len);
	free(img);
	/* decompressed, but not an ELF */
	elf[0] = 'X';
	free(z);
	z = compress_as("gzip", &zlen);
	img = make_bzimage(z, zlen, sizeof(elf), &len);
	refused("notelf", img, len);
	free(img);
	free(z);
}

static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0;

	assert_non_null(f);
	*len = 0;
	for (;;) {
		if (*len == cap)
			buf = realloc(buf, cap = cap ? cap * 2 : 1 << 20);
		size_t n = fread(buf + *len, 1, cap - *len, f);

		if (!n)
			break;
		*len += n;
	}
	fclose(f);
	return buf;
}

static void test_real(void **state)
{
	const char *bz = getenv("KF_BZIMAGE"), *vm = getenv("KF_VMLINUX");
	size_t blen, vlen, out_len = 0;
	unsigned char *b, *v, *out;

	(void)state;
	b = read_all(bz, &blen);
	v = read_all(vm, &vlen);
	out = kfq_bzimage_vmlinux(bz, b, blen, &out_len);
	assert_non_null(out);
	/* extract-vmlinux keeps what follows the ELF in the payload (the relocations) as well: the same bytes */
	assert_int_equal(out_len, vlen);
	assert_memory_equal(out, v, vlen);
	free(out);
	free(b);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_truncated),
	    cmocka_unit_test(test_bad),
	    cmocka_unit_test(test_real),
	};
	const char *bz = getenv("KF_BZIMAGE"), *vm = getenv("KF_VMLINUX");
	/* cmocka's TAP output reports skip() without a reason: the real kernel's case is said skipped here */
	if (!bz || !vm || !*bz || !*vm) {
		const struct CMUnitTest without_real[] = {
		    cmocka_unit_test(test_round_trip),
		    cmocka_unit_test(test_truncated),
		    cmocka_unit_test(test_bad),
		};
		int rc = cmocka_run_group_tests(without_real, NULL, NULL);
		printf("ok - test_real # SKIP KF_BZIMAGE and KF_VMLINUX are not set (tests/integration/qemu_bzimage.sh "
		       "sets them)\n");
		return rc;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
