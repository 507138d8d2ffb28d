// SPDX-License-Identifier: GPL-2.0
// tailor's initramfs (initramfs.h): the workload's own files, found from its footprint, and what the dynamic
// loader will open for them, so that the re-test runs the same programs on the tailored kernel. The archive is
// deterministic (owner root, time 0, path order): the same footprint makes the same bytes.
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "footprint/footprint.h"
#include "tailor/initramfs.h"
#include "util/error.h"
#include "util/fnv.h"
#include "util/xalloc.h"

enum kind { K_DIR, K_FILE, K_LINK, K_DATA };

struct entry {
	char *path; /* absolute, normalised */
	enum kind kind;
	mode_t mode;  /* permission bits */
	char *target; /* K_LINK */
	off_t size;   /* K_FILE: as stat saw it; K_DATA: len */
	void *data;   /* K_DATA */
};

struct tl_cpio {
	struct entry *e;
	size_t n, cap;
	uint32_t *hash; /* 1 + index into e, open addressing by path */
	size_t hcap;
};

struct tl_cpio *tl_cpio_new(void)
{
	return xcalloc(1, sizeof(struct tl_cpio));
}

void tl_cpio_free(struct tl_cpio *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i].path);
		free(c->e[i].target);
		free(c->e[i].data);
	}
	free(c->e);
	free(c->hash);
	free(c);
}

size_t tl_cpio_count(const struct tl_cpio *c)
{
	return c->n;
}

static uint32_t *slot(const struct tl_cpio *c, const char *path)
{
	size_t h = (size_t)fnv1a64(path, FNV1A64_INIT) & (c->hcap - 1);
	while (c->hash[h] && strcmp(c->e[c->hash[h] - 1].path, path))
		h = (h + 1) & (c->hcap - 1);
	return &c->hash[h];
}

static struct entry *find(const struct tl_cpio *c, const char *path)
{
	if (!c->hcap)
		return NULL;
	uint32_t *s = slot(c, path);
	return *s ? &c->e[*s - 1] : NULL;
}

static struct entry *add(struct tl_cpio *c, const char *path, enum kind k, mode_t mode)
{
	if ((c->n + 1) * 2 > c->hcap) {
		size_t cap = c->hcap ? c->hcap * 2 : 256;
		free(c->hash);
		c->hash = xcalloc(cap, sizeof(*c->hash));
		c->hcap = cap;
		for (size_t i = 0; i < c->n; i++)
			*slot(c, c->e[i].path) = (uint32_t)(i + 1);
	}
	XGROW(c->e, c->cap, c->n + 1);
	struct entry *e = &c->e[c->n];
	*e = (struct entry){.path = xstrdup(path), .kind = k, .mode = mode & 07777};
	*slot(c, path) = (uint32_t)(++c->n);
	return e;
}

/* "/a/./b//c/../d" -> "/a/b/d" (lexically: links are resolved by the walk, component by component) */
static char *normalise(const char *path)
{
	char *out = xmalloc(strlen(path) + 2);
	size_t n = 0;
	for (const char *p = path; *p;) {
		while (*p == '/')
			p++;
		size_t len = strcspn(p, "/");
		if (!len)
			break;
		if (len == 1 && p[0] == '.') {
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (n && out[n - 1] != '/')
				n--;
			if (n)
				n--;
		} else {
			out[n++] = '/';
			memcpy(out + n, p, len);
			n += len;
		}
		p += len;
	}
	if (!n)
		out[n++] = '/';
	out[n] = '\0';
	return out;
}

void tl_cpio_add_dir(struct tl_cpio *c, const char *path)
{
	char *p = normalise(path);
	for (char *s = p + 1;; s++) {
		if (*s && *s != '/')
			continue;
		char ch = *s;
		*s = '\0';
		if (!find(c, p))
			add(c, p, K_DIR, 0755);
		*s = ch;
		if (!ch)
			break;
	}
	free(p);
}

void tl_cpio_add_data(struct tl_cpio *c, const char *path, mode_t mode, const void *data, size_t len)
{
	char *p = normalise(path), *slash = strrchr(p, '/');
	if (slash > p) {
		*slash = '\0';
		tl_cpio_add_dir(c, p);
		*slash = '/';
	}
	struct entry *e = find(c, p);
	if (!e)
		e = add(c, p, K_DATA, mode);
	free(e->data);
	e->kind = K_DATA;
	e->mode = mode & 07777;
	e->data = xmalloc(len ? len : 1);
	memcpy(e->data, data, len);
	e->size = (off_t)len;
	free(p);
}

static int add_walk(struct tl_cpio *c, const char *path, int depth);

/* ---- ELF: what the dynamic loader will open ---- */

static bool pread_all(int fd, void *buf, size_t n, off_t off)
{
	return pread(fd, buf, n, off) == (ssize_t)n;
}

/* File offset of a virtual address through the PT_LOAD segments; -1 when none holds it. */
static off_t vaddr_off(const Elf64_Phdr *ph, size_t n, uint64_t va)
{
	for (size_t i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && va >= ph[i].p_vaddr && va - ph[i].p_vaddr < ph[i].p_filesz)
			return (off_t)(ph[i].p_offset + (va - ph[i].p_vaddr));
	return -1;
}

static void read_cstr(int fd, off_t off, char *buf, size_t n)
{
	ssize_t r = off >= 0 ? pread(fd, buf, n - 1, off) : -1;
	buf[r > 0 ? (size_t)r : 0] = '\0';
	buf[strnlen(buf, n - 1)] = '\0';
}

static const char *const libdirs[] = {
    "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib"};

/* Tries dir/name (dir len bytes of d); true when it exists and was added. */
static bool try_lib(struct tl_cpio *c, const char *d, size_t len, const char *name, int depth)
{
	char *path = xasprintf("%.*s/%s", (int)len, d, name);
	bool hit = access(path, F_OK) == 0;
	if (hit)
		add_walk(c, path, depth + 1);
	free(path);
	return hit;
}

static void add_needed(struct tl_cpio *c, const char *elf, const char *name, const char *runpath, int depth)
{
	if (strchr(name, '/')) {
		add_walk(c, name, depth + 1);
		return;
	}
	/* RUNPATH's directories ($ORIGIN: the object's own), then the system's */
	for (const char *p = runpath; p && *p; p += strcspn(p, ":"), p += *p == ':') {
		size_t len = strcspn(p, ":");
		bool hit;
		if (len >= 7 && !strncmp(p, "$ORIGIN", 7)) {
			const char *slash = strrchr(elf, '/');
			char *dir = xasprintf("%.*s%.*s", (int)(slash - elf), elf, (int)(len - 7), p + 7);
			hit = try_lib(c, dir, strlen(dir), name, depth);
			free(dir);
		} else {
			hit = try_lib(c, p, len, name, depth);
		}
		if (hit)
			return;
	}
	for (size_t i = 0; i < sizeof(libdirs) / sizeof(libdirs[0]); i++)
		if (try_lib(c, libdirs[i], strlen(libdirs[i]), name, depth))
			return;
	debug("initramfs: %s needs %s, found in none of the library directories", elf, name);
}

static void add_elf_deps(struct tl_cpio *c, const char *path, int depth)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	Elf64_Ehdr eh;
	Elf64_Phdr ph[64];
	if (!pread_all(fd, &eh, sizeof(eh), 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) || eh.e_phnum > 64 ||
	    !pread_all(fd, ph, (size_t)eh.e_phnum * sizeof(*ph), (off_t)eh.e_phoff)) {
		close(fd); /* not a 64-bit ELF: a script's interpreter comes through its own exec */
		return;
	}
	char buf[PATH_MAX];
	Elf64_Dyn dyn[512];
	size_t ndyn = 0;
	for (size_t i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type == PT_INTERP) {
			read_cstr(fd, (off_t)ph[i].p_offset, buf,
				  sizeof(buf) < ph[i].p_filesz + 1 ? sizeof(buf) : ph[i].p_filesz + 1);
			if (buf[0] == '/')
				add_walk(c, buf, depth + 1);
		} else if (ph[i].p_type == PT_DYNAMIC) {
			ndyn = ph[i].p_filesz / sizeof(Elf64_Dyn);
			if (ndyn > 512)
				ndyn = 512;
			if (!pread_all(fd, dyn, ndyn * sizeof(*dyn), (off_t)ph[i].p_offset))
				ndyn = 0;
		}
	}
	uint64_t strtab = 0;
	for (size_t i = 0; i < ndyn && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_STRTAB)
			strtab = dyn[i].d_un.d_ptr;
	off_t stroff = strtab ? vaddr_off(ph, eh.e_phnum, strtab) : -1;
	char runpath[PATH_MAX] = "";
	for (size_t i = 0; stroff >= 0 && i < ndyn && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_RUNPATH || (dyn[i].d_tag == DT_RPATH && !runpath[0]))
			read_cstr(fd, stroff + (off_t)dyn[i].d_un.d_val, runpath, sizeof(runpath));
	for (size_t i = 0; stroff >= 0 && i < ndyn && dyn[i].d_tag != DT_NULL; i++)
		if (dyn[i].d_tag == DT_NEEDED) {
			read_cstr(fd, stroff + (off_t)dyn[i].d_un.d_val, buf, sizeof(buf));
			if (buf[0])
				add_needed(c, path, buf, runpath, depth);
		}
	close(fd);
}

/* ---- host files ---- */

/* Adds path component by component: directories, each link (and the rest of the path through its target). */
static int add_walk(struct tl_cpio *c, const char *given, int depth)
{
	if (depth > 40)
		return error("initramfs: '%s': too many levels of links", given);
	char *path = normalise(given);
	int rc = 0;
	const struct entry *known = find(c, path);
	if (known && known->kind != K_LINK) {
		free(path);
		return 0; /* a link known already is followed again: its target may not be */
	}
	for (char *s = path + 1;; s++) {
		if (*s && *s != '/')
			continue;
		char ch = *s;
		*s = '\0';
		struct stat st;
		if (find(c, path)) {
			const struct entry *e = find(c, path);
			if (e->kind == K_LINK) {
				/* already known to be a link: follow it for the rest */
				char *dir = xstrdup(path), *slash = strrchr(dir, '/');
				slash[slash == dir] = '\0';
				*s = ch;
				char *next = e->target[0] == '/' ? xasprintf("%s%s", e->target, s)
								 : xasprintf("%s/%s%s", dir, e->target, s);
				rc = add_walk(c, next, depth + 1);
				free(next);
				free(dir);
				break;
			}
		} else if (lstat(path, &st) < 0) {
			rc = errno == ENOENT ? 1 : perror_msg("initramfs: '%s'", path);
			*s = ch;
			break;
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n = readlink(path, target, sizeof(target) - 1);
			if (n <= 0) {
				rc = perror_msg("initramfs: '%s'", path);
				*s = ch;
				break;
			}
			target[n] = '\0';
			struct entry *e = add(c, path, K_LINK, 0777);
			e->target = xstrdup(target);
			*s = ch;
			/* the walk goes on from the link's entry, now known */
			char *again = xstrdup(given);
			rc = add_walk(c, again, depth + 1);
			free(again);
			break;
		} else if (S_ISDIR(st.st_mode)) {
			add(c, path, K_DIR, st.st_mode);
		} else if (S_ISREG(st.st_mode) && !ch) {
			struct entry *e = add(c, path, K_FILE, st.st_mode);
			e->size = st.st_size;
			add_elf_deps(c, path, depth);
		} else {
			rc = 1; /* a device, a FIFO, a socket: not the workload's to carry */
			*s = ch;
			break;
		}
		*s = ch;
		if (!ch)
			break;
	}
	free(path);
	return rc;
}

int tl_cpio_add_host(struct tl_cpio *c, const char *path)
{
	if (path[0] != '/')
		return error("initramfs: '%s': not an absolute path", path);
	static const char *const skip[] = {"/proc/", "/sys/", "/dev/", "/run/"};
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strncmp(path, skip[i], strlen(skip[i])))
			return 1; /* the kernel's own, made afresh in the guest */
	return add_walk(c, path, 0);
}

/* Base, and each relative file of p that exists under it, when base is a directory (the footprint's word). */
static int add_under(struct tl_cpio *c, const struct fp_proc *p, const char *base)
{
	struct stat st;
	if (base[0] != '/' || stat(base, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	int rc = tl_cpio_add_host(c, base) < 0 ? -1 : 0;
	for (uint32_t j = 0; j < p->files_cap; j++) {
		const struct fp_file *f = p->files[j];
		if (!f || !f->opens || f->path[0] == '/' || !f->path[0])
			continue;
		char *at = xasprintf("%s/%s", base, f->path);
		if (lstat(at, &st) == 0 && tl_cpio_add_host(c, at) < 0)
			rc = -1;
		free(at);
	}
	return rc;
}

/*
 * A relative path a process opened, resolved against its working directory when it exec'd (the ptrace
 * recorder's cwd) and against the directories its argv names (a relative one under that cwd): the footprint
 * keeps a path as the program gave it, and a server given its root (busybox httpd -h DIR) chdirs there and opens
 * index.html. Each directory is carried (for the chdir), and a relative file where it exists under one of them.
 * A file under none stays out: the re-test then names what failed.
 */
static int add_relative(struct tl_cpio *c, const struct fp_proc *p)
{
	int rc = p->cwd ? add_under(c, p, p->cwd) : 0;
	for (char **a = p->argv ? p->argv + 1 : NULL; a && *a; a++) {
		if ((*a)[0] == '/') {
			rc |= add_under(c, p, *a);
		} else if (p->cwd && (*a)[0] && (*a)[0] != '-') {
			char *at = xasprintf("%s/%s", p->cwd, *a);
			rc |= add_under(c, p, at);
			free(at);
		}
	}
	return rc;
}

int tl_cpio_add_footprint(struct tl_cpio *c, const struct footprint *fp)
{
	int rc = 0;
	for (size_t i = 0; i < fp->nprocs; i++) {
		const struct fp_proc *p = fp->procs[i];
		if (p->exe && tl_cpio_add_host(c, p->exe) < 0)
			rc = -1;
		/*
		 * The path it was started by: the exe is the resolved one (/usr/bin/busybox), and a command run as
		 * /bin/busybox needs the /bin link too. argv[0] is whatever the parent chose: only a path that exists.
		 */
		struct stat st;
		if (p->argv && p->argv[0] && p->argv[0][0] == '/' && stat(p->argv[0], &st) == 0 &&
		    tl_cpio_add_host(c, p->argv[0]) < 0)
			rc = -1;
		for (char **e = p->exec_chain; e && *e; e++)
			if (tl_cpio_add_host(c, *e) < 0)
				rc = -1;
		for (uint32_t j = 0; j < p->files_cap; j++) {
			const struct fp_file *f = p->files[j];
			if (f && f->opens && f->path[0] == '/' && tl_cpio_add_host(c, f->path) < 0)
				rc = -1;
		}
		if (add_relative(c, p) < 0)
			rc = -1;
	}
	return rc;
}

/* ---- writing ---- */

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->path, ((const struct entry *)b)->path);
}

static int header(FILE *out, unsigned ino, mode_t mode, size_t size, const char *name)
{
	size_t nlen = strlen(name) + 1;
	if (fprintf(out, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", ino, (unsigned)mode, 0u, 0u,
		    (mode & S_IFMT) == S_IFDIR ? 2u : 1u, 0u, size, 0u, 0u, 0u, 0u, nlen, 0u) < 0 ||
	    fwrite(name, 1, nlen, out) != nlen)
		return -1;
	size_t pad = (4 - (110 + nlen) % 4) % 4;
	return fwrite("\0\0\0", 1, pad, out) == pad ? 0 : -1;
}

static int pad4(FILE *out, size_t n)
{
	size_t pad = (4 - n % 4) % 4;
	return fwrite("\0\0\0", 1, pad, out) == pad ? 0 : -1;
}

static int copy_file(FILE *out, const struct entry *e)
{
	int fd = open(e->path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	char buf[65536];
	off_t left = e->size;
	while (left > 0) {
		ssize_t n = read(fd, buf, left < (off_t)sizeof(buf) ? (size_t)left : sizeof(buf));
		if (n <= 0) {
			close(fd);
			errno = n < 0 ? errno : EIO; /* shorter than when it was added */
			return -1;
		}
		if (fwrite(buf, 1, (size_t)n, out) != (size_t)n) {
			close(fd);
			return -1;
		}
		left -= n;
	}
	close(fd);
	return pad4(out, (size_t)e->size);
}

int tl_cpio_write(const struct tl_cpio *c, FILE *out)
{
	struct entry *v = xmalloc((c->n ? c->n : 1) * sizeof(*v));
	memcpy(v, c->e, c->n * sizeof(*v));
	qsort(v, c->n, sizeof(*v), cmp_entry);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < c->n; i++) {
		const struct entry *e = &v[i];
		const char *name = e->path + 1;
		if (!*name)
			continue; /* the root itself */
		unsigned ino = (unsigned)(i + 1);
		switch (e->kind) {
		case K_DIR: rc = header(out, ino, S_IFDIR | e->mode, 0, name); break;
		case K_LINK:
			rc = header(out, ino, S_IFLNK | 0777, strlen(e->target), name);
			if (rc == 0 && (fwrite(e->target, 1, strlen(e->target), out) != strlen(e->target) ||
					pad4(out, strlen(e->target)) < 0))
				rc = -1;
			break;
		case K_FILE:
			rc = header(out, ino, S_IFREG | e->mode, (size_t)e->size, name);
			if (rc == 0)
				rc = copy_file(out, e);
			break;
		case K_DATA:
			rc = header(out, ino, S_IFREG | e->mode, (size_t)e->size, name);
			if (rc == 0 && (fwrite(e->data, 1, (size_t)e->size, out) != (size_t)e->size ||
					pad4(out, (size_t)e->size) < 0))
				rc = -1;
			break;
		}
	}
	free(v);
	if (rc == 0)
		rc = header(out, 0, 0, 0, "TRAILER!!!");
	return rc;
}
