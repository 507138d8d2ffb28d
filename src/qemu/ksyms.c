// SPDX-License-Identifier: GPL-2.0
/*
 * What the gdb method needs to know of the guest kernel: a few symbols' addresses (from an ELF vmlinux's
 * .symtab or a /proc/kallsyms dump of a nokaslr boot) and a few struct members' offsets (from the .BTF section
 * of an ELF vmlinux: the kernel's own types, as /sys/kernel/btf/vmlinux has them). Read with plain ELF and BTF
 * parsing, so that the ptrace-only build (no libbpf, no libelf) has the method too.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "qemu/qemu_int.h"
#include "util/error.h"
#include "util/xalloc.h"

/* A whole file in memory, at most max bytes; NULL after a message. */
static unsigned char *slurp(const char *path, size_t max, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	unsigned char *buf;
	size_t got = 0;

	if (fd < 0)
		return perror_msg("qemu: '%s'", path), NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
		close(fd);
		return error("qemu: '%s': not a regular file of at most %zu MB", path, max >> 20), NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r <= 0) {
			close(fd);
			free(buf);
			return perror_msg("qemu: reading '%s'", path), NULL;
		}
		got += (size_t)r;
	}
	close(fd);
	buf[got] = 0;
	*len = got;
	return buf;
}

/*
 * A kernel file in memory: the ELF vmlinux inside it when it is a bzImage (bzimage.c), gunzipped when it is
 * gzip'd (an arm64 Image.gz); NULL after a message.
 */
static unsigned char *slurp_kernel(const char *path, size_t *len)
{
	unsigned char *img = slurp(path, 1u << 30, len), *out;
	size_t cap, got = 0;
	gzFile gz;

	if (img && kfq_is_bzimage(img, *len)) {
		out = kfq_bzimage_vmlinux(path, img, *len, len);
		free(img);
		return out;
	}
	if (!img || *len < 2 || img[0] != 0x1f || img[1] != 0x8b)
		return img;
	free(img);
	gz = gzopen(path, "rb");
	if (!gz)
		return perror_msg("qemu: '%s'", path), NULL;
	cap = 64u << 20;
	out = xmalloc(cap + 1);
	for (;;) {
		int r = gzread(gz, out + got, (unsigned)(cap - got));

		if (r < 0 || (r == 0 && !gzeof(gz))) {
			gzclose(gz);
			free(out);
			return error("qemu: '%s': a gzip stream cut short or corrupt", path), NULL;
		}
		got += (size_t)r;
		if (r == 0)
			break;
		if (got == cap) {
			if (cap >= 1u << 30) {
				gzclose(gz);
				free(out);
				return error("qemu: '%s': more than 1 GB once gunzipped", path), NULL;
			}
			cap *= 2;
			out = xrealloc(out, cap + 1);
		}
	}
	gzclose(gz);
	out[got] = 0;
	*len = got;
	return out;
}

/* A section of a 64-bit little-endian ELF image by name; NULL when absent or out of bounds. */
static const unsigned char *elf_section(const unsigned char *img, size_t len, const char *name, size_t *size,
					const Elf64_Shdr **shdr_out)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh, *strs;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > len ||
	    (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > len - eh->e_shoff || eh->e_shstrndx >= eh->e_shnum)
		return NULL;
	sh = (const void *)(img + eh->e_shoff);
	strs = &sh[eh->e_shstrndx];
	if (strs->sh_offset > len || strs->sh_size > len - strs->sh_offset)
		return NULL;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_name >= strs->sh_size || sh[i].sh_offset > len || sh[i].sh_size > len - sh[i].sh_offset)
			continue;
		if (strncmp((const char *)img + strs->sh_offset + sh[i].sh_name, name, strs->sh_size - sh[i].sh_name))
			continue;
		*size = sh[i].sh_size;
		if (shdr_out)
			*shdr_out = &sh[i];
		return img + sh[i].sh_offset;
	}
	return NULL;
}

bool kfq_is_elf(const char *path)
{
	unsigned char magic[SELFMAG];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool elf = fd >= 0 && read(fd, magic, SELFMAG) == SELFMAG && !memcmp(magic, ELFMAG, SELFMAG);

	if (fd >= 0)
		close(fd);
	return elf;
}

/* Fills the wanted symbols from an ELF .symtab; how many were found. */
static int elf_symbols(const unsigned char *img, size_t len, struct kfq_sym *want, size_t n)
{
	const Elf64_Shdr *symsh;
	size_t symsize, strsize;
	const unsigned char *syms = elf_section(img, len, ".symtab", &symsize, &symsh);
	const char *strtab = (const char *)elf_section(img, len, ".strtab", &strsize, NULL);
	int found = 0;

	if (!syms || !strtab)
		return 0;
	for (size_t off = 0; off + sizeof(Elf64_Sym) <= symsize; off += sizeof(Elf64_Sym)) {
		const Elf64_Sym *s = (const void *)(syms + off);

		if (s->st_name >= strsize)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!want[i].addr && !strncmp(strtab + s->st_name, want[i].name, strsize - s->st_name)) {
				want[i].addr = s->st_value;
				found++;
			}
	}
	return found;
}

/* Fills the wanted symbols from a kallsyms dump ("ffffffff81a43dc0 T do_syscall_64"); how many were found. */
static int kallsyms_symbols(const char *text, struct kfq_sym *want, size_t n)
{
	int found = 0;

	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		unsigned long long addr;
		char type, name[128], line[256];

		/* sscanf on the rest of the text would measure it all at each line: 3 s for x86_64's 96,000 lines */
		size_t len = nl ? (size_t)(nl - l) : strlen(l);

		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) ? len : sizeof(line) - 1), l);
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) == 3)
			for (size_t i = 0; i < n; i++)
				if (!want[i].addr && !strcmp(name, want[i].name)) {
					want[i].addr = addr;
					found++;
				}
		if (!nl)
			break;
		l = nl + 1;
	}
	return found;
}

int kfq_symbols(const struct kfq_opts *o, struct kfq_sym *want, size_t n)
{
	const char *src = o->kallsyms ? o->kallsyms : o->vmlinux ? o->vmlinux : o->kernel;
	size_t len;
	unsigned char *img = o->kallsyms ? slurp(src, 1u << 30, &len) : slurp_kernel(src, &len);
	int found;

	if (!img)
		return -1;
	found = o->kallsyms ? kallsyms_symbols((const char *)img, want, n) : elf_symbols(img, len, want, n);
	free(img);
	for (size_t i = 0; i < n; i++)
		if (!want[i].addr) {
			if (!found && !o->kallsyms)
				return error(
				    "qemu: '%s': no symbol table (Debian's vmlinux has none): give --kallsyms "
				    "with a /proc/kallsyms dump of the kernel booted nokaslr, or a vmlinux with "
				    "symbols (the -dbg package's)",
				    src);
			return error("qemu: '%s': no symbol %s", src, want[i].name);
		}
	return 0;
}

int kfq_symbols_text(const char *what, const char *text, struct kfq_sym *want, size_t n)
{
	kallsyms_symbols(text, want, n);
	for (size_t i = 0; i < n; i++)
		if (!want[i].addr)
			return error("qemu: %s: no symbol %s", what, want[i].name);
	return 0;
}

/* --- BTF ------------------------------------------------------------------------------------------------ */
struct btf_header_ {
	uint16_t magic;
	uint8_t version, flags;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
};

/* Bytes after a type's common 12-byte header, by kind (include/uapi/linux/btf.h) */
static size_t btf_extra(uint32_t info)
{
	uint32_t kind = (info >> 24) & 0x1f, vlen = info & 0xffff;

	switch (kind) {
	case 1:	 /* INT */
	case 14: /* VAR */
	case 17: /* DECL_TAG */ return 4;
	case 3: /* ARRAY */ return 12;
	case 4:	 /* STRUCT */
	case 5:	 /* UNION */
	case 15: /* DATASEC */
	case 19: /* ENUM64 */ return 12 * (size_t)vlen;
	case 6: /* ENUM */
	case 13: /* FUNC_PROTO */ return 8 * (size_t)vlen;
	default: return 0;
	}
}

/* The wanted members from one BTF blob of size bytes; how many were found, -1 when it is not valid BTF. */
static int btf_members(const unsigned char *btf, size_t size, struct kfq_member *want, size_t n)
{
	const struct btf_header_ *h = (const void *)btf;
	int found = 0;

	if (!btf || size < sizeof(*h) || h->magic != 0xeB9F || h->hdr_len > size || h->type_off > size - h->hdr_len ||
	    h->type_len > size - h->hdr_len - h->type_off || h->str_off > size - h->hdr_len ||
	    h->str_len > size - h->hdr_len - h->str_off)
		return -1;
	const unsigned char *types = btf + h->hdr_len + h->type_off, *end = types + h->type_len;
	const char *strs = (const char *)btf + h->hdr_len + h->str_off;

	if (!h->str_len || strs[h->str_len - 1])
		return -1; /* the string section ends with a NUL: names are read as C strings */
	/* type ids are positions: only structs are looked at, so a walk in order suffices */
	for (const unsigned char *t = types; t + 12 <= end;) {
		uint32_t name_off, info;

		memcpy(&name_off, t, 4);
		memcpy(&info, t + 4, 4);
		size_t extra = btf_extra(info);

		if (t + 12 + extra > end)
			break;
		if (((info >> 24) & 0x1f) == 4 && name_off < h->str_len)
			for (size_t i = 0; i < n; i++) {
				if (want[i].found || strcmp(strs + name_off, want[i].type))
					continue;
				for (uint32_t m = 0; m < (info & 0xffff); m++) {
					uint32_t mname, moff;

					memcpy(&mname, t + 12 + 12 * m, 4);
					memcpy(&moff, t + 12 + 12 * m + 8, 4);
					if (mname < h->str_len && !strcmp(strs + mname, want[i].member)) {
						/* kind_flag: the low 24 bits are the bit offset */
						want[i].offset = ((info >> 31) ? moff & 0xffffff : moff) / 8;
						want[i].found = true;
						found++;
					}
				}
			}
		t += 12 + extra;
	}
	return found;
}

/*
 * An arm64 Image (Debian's vmlinuz, gzip'd or not) has no sections, but its .BTF is in it as the kernel loads
 * it: found by its header (magic, version 1, a 24-byte header, types first), checked by parsing, the first that
 * has the wanted types kept. The kernel's own types with nothing to download or boot, unlike the -dbg package's
 * vmlinux (about 800 MB) or a first boot's /sys/kernel/btf.
 */
static int image_btf(const unsigned char *img, size_t len, struct kfq_member *want, size_t n)
{
	static const unsigned char sig[] = {0x9f, 0xeb, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0};

	for (const unsigned char *p = img; len >= sizeof(sig) && p <= img + len - sizeof(sig); p++) {
		p = memmem(p, len - (size_t)(p - img), sig, sizeof(sig));
		if (!p)
			break;
		for (size_t i = 0; i < n; i++)
			want[i].found = false;
		if (btf_members(p, len - (size_t)(p - img), want, n) == (int)n)
			return 0;
	}
	return -1;
}

int kfq_btf_offsets(const struct kfq_opts *o, struct kfq_member *want, size_t n)
{
	const char *src = o->vmlinux ? o->vmlinux : o->kernel;
	size_t len, size;
	unsigned char *img;
	const unsigned char *btf;
	int rc = 0;

	img = slurp_kernel(src, &len);
	if (!img)
		return -1;
	if (len < SELFMAG || memcmp(img, ELFMAG, SELFMAG)) {
		rc = image_btf(img, len, want, n);
		free(img);
		if (rc < 0)
			return error("qemu: '%s': no BTF in it: give --vmlinux with the kernel's ELF vmlinux", src);
		return 0;
	}
	btf = elf_section(img, len, ".BTF", &size, NULL);
	if (btf_members(btf, btf ? size : 0, want, n) < 0) {
		free(img);
		return error("qemu: '%s': no .BTF section (a kernel built without CONFIG_DEBUG_INFO_BTF)", src);
	}
	for (size_t i = 0; i < n && !rc; i++)
		if (!want[i].found)
			rc = error("qemu: '%s': BTF has no member %s of struct %s", src, want[i].member, want[i].type);
	free(img);
	return rc;
}
