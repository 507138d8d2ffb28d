// SPDX-License-Identifier: GPL-2.0
/*
 * The gdb method's symbols without a --kallsyms file: a probe boot of the same kernel, nokaslr as the recording
 * boots it, with an initramfs of kfootprint's own /init (probe_init.c, embedded at build time) that prints the
 * /proc/kallsyms lines of the names the method needs and powers off. A bzImage's vmlinux is stripped (the
 * build's objcopy -S), so this is the only source of its addresses short of the -dbg package. The lines are
 * cached by the SHA-256 of the kernel file, in a directory of the user's that no one else can change
 * (/var/cache/kfootprint/kallsyms for root, ~/.cache/kfootprint/kallsyms otherwise; mode 0700), at most
 * CACHE_KEPT files: one boot per kernel (about 10 s under TCG), then none.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe_init.h"
#include "qemu/qemu_int.h"
#include "util/error.h"
#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define PROBE_PREFIX "kfootprint-probe: "
#define CACHE_KEPT   16
#define PROBE_SECS   300 /* a probe boot that has not powered off by then will not */

/* The SHA-256 of the kernel file, in hex; -1 after a message. */
static int kernel_key(const char *path, char *hex)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct sha256 c;
	char buf[1 << 16];
	ssize_t n;

	if (fd < 0)
		return perror_msg("qemu: --kernel '%s'", path);
	sha256_init(&c);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sha256_update(&c, buf, (size_t)n);
	close(fd);
	if (n < 0)
		return perror_msg("qemu: reading '%s'", path);
	sha256_final_hex(&c, hex);
	return 0;
}

/* The user's cache base: root's under /var/cache, another user's as XDG says (as the tree index's cache). */
static char *cache_base(void)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");

	if (geteuid() == 0)
		return xstrdup("/var/cache/kfootprint");
	return x && *x == '/'	? xasprintf("%s/kfootprint", x)
	       : h && *h == '/' ? xasprintf("%s/.cache/kfootprint", h)
				: NULL;
}

/* The cache directory, made when missing, open; -1 (and a debug line) when there is none to trust. */
static int cache_dir(char *path, size_t len)
{
	char *base = cache_base();
	struct stat st;
	int fd;

	if (!base)
		return debug("qemu: probe: no cache: neither XDG_CACHE_HOME nor HOME is set"), -1;
	snprintf(path, len, "%s/kallsyms", base);
	if (mkdir(base, 0755) < 0 && errno != EEXIST)
		debug("qemu: probe: '%s': %s", base, strerror(errno));
	free(base);
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return debug("qemu: probe: no cache: '%s': %s", path, strerror(errno)), -1;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return debug("qemu: probe: no cache: '%s': %s", path, strerror(errno)), -1;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077)) {
		close(fd);
		return debug("qemu: probe: no cache: '%s' is not a private directory of this user's", path), -1;
	}
	return fd;
}

/* Whether every name has its line in text ("ADDR TYPE NAME\n"). */
static bool has_all(const char *text, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char pat[160];

		snprintf(pat, sizeof(pat), " %s\n", names[i]);
		if (!strstr(text, pat))
			return false;
	}
	return true;
}

/* The cached lines of key, when they are there, this user's, and hold every name; NULL otherwise. */
static char *cache_read(int dir, const char *name, const char *const *names, size_t n)
{
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	char *text;
	ssize_t got;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1 ||
	    st.st_size > 1 << 20) {
		close(fd);
		return NULL;
	}
	text = xmalloc((size_t)st.st_size + 1);
	got = read(fd, text, (size_t)st.st_size);
	close(fd);
	text[got > 0 ? got : 0] = 0;
	if (got != st.st_size || !has_all(text, names, n)) {
		free(text);
		return NULL;
	}
	return text;
}

/* Written beside it and renamed: a reader sees all of it or none. Then the oldest beyond CACHE_KEPT go. */
static void cache_write(int dir, const char *name, const char *text)
{
	char tmp[128];
	size_t len = strlen(text);
	int fd;

	snprintf(tmp, sizeof(tmp), ".%s.%d", name, (int)getpid());
	fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd) < 0 || renameat(dir, tmp, dir, name) < 0) {
		debug("qemu: probe: caching '%s': %s", name, strerror(errno));
		unlinkat(dir, tmp, 0);
		return;
	}
	for (;;) {
		DIR *d = fdopendir(dup(dir));
		struct dirent *de;
		char oldest[NAME_MAX + 1] = "";
		struct timespec t = {0};
		int count = 0;
		struct stat st;

		if (!d)
			return;
		while ((de = readdir(d)))
			if (strstr(de->d_name, ".kallsyms") && de->d_name[0] != '.' &&
			    !fstatat(dir, de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
				count++;
				if (!oldest[0] || st.st_mtim.tv_sec < t.tv_sec ||
				    (st.st_mtim.tv_sec == t.tv_sec && st.st_mtim.tv_nsec < t.tv_nsec)) {
					snprintf(oldest, sizeof(oldest), "%s", de->d_name);
					t = st.st_mtim;
				}
			}
		closedir(d);
		if (count <= CACHE_KEPT || unlinkat(dir, oldest, 0) < 0)
			return;
	}
}

/* An initramfs of /init alone (the newc format of the kernel's initramfs_buffer_format.rst) at path. */
static int write_initramfs(const char *path)
{
	struct strbuf b = STRBUF_INIT;
	FILE *f;
	int rc = 0;

	const struct {
		const char *name;
		unsigned mode;
		const unsigned char *data;
		size_t size;
	} e[] = {{"init", 0100755, probe_init, sizeof(probe_init)}, {"TRAILER!!!", 0, NULL, 0}};

	for (size_t i = 0; i < 2; i++) {
		strbuf_addf(&b, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", (unsigned)i + 1,
			    e[i].mode, 0u, 0u, 1u, 0u, e[i].size, 0u, 0u, 0u, 0u, strlen(e[i].name) + 1, 0u);
		strbuf_add(&b, e[i].name, strlen(e[i].name) + 1);
		while (b.len % 4)
			strbuf_add(&b, "", 1);
		strbuf_add(&b, (const char *)e[i].data, e[i].size);
		while (b.len % 4)
			strbuf_add(&b, "", 1);
	}
	f = fopen(path, "wbx");
	if (!f || fwrite(b.buf, 1, b.len, f) != b.len)
		rc = perror_msg("qemu: probe: writing '%s'", path);
	if (f && fclose(f) && !rc)
		rc = perror_msg("qemu: probe: writing '%s'", path);
	strbuf_release(&b);
	return rc;
}

struct probe_out {
	struct strbuf lines;
	bool end;
};

static void probe_line(void *ctx, const char *line)
{
	struct probe_out *p = ctx;
	const char *s = strstr(line, PROBE_PREFIX);

	debug("console: %s", line);
	if (!s || p->end)
		return;
	s += strlen(PROBE_PREFIX);
	if (!strcmp(s, "end"))
		p->end = true;
	else
		strbuf_addf(&p->lines, "%s\n", s);
}

/* Boots the kernel with the probe's /init; its lines, or NULL after a message. */
static char *probe_boot(const struct kfq_opts *o, const char *const *names, size_t n)
{
	char dir[] = "/tmp/kfootprint-probe.XXXXXX", initrd[64];
	struct strbuf cmdline = STRBUF_INIT;
	struct kfq_opts po = *o;
	struct probe_out out = {STRBUF_INIT, false};
	struct kfq_qemu q;
	double t0 = kfq_now();
	int rc;

	if (!mkdtemp(dir))
		return perror_msg("qemu: probe: mkdtemp '%s'", dir), NULL;
	snprintf(initrd, sizeof(initrd), "%s/probe.cpio", dir);
	rc = write_initramfs(initrd);
	strbuf_addf(&cmdline, "nokaslr loglevel=0 --");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&cmdline, " %s", names[i]);
	po.initrd = initrd;
	po.append = NULL; /* the user's is for the recording: it could name another init */
	if (!rc && !(rc = kfq_qemu_start(&q, &po, cmdline.buf, NULL))) {
		rc = kfq_qemu_console(&q, PROBE_SECS, &kfq_stop, probe_line, &out);
		if (!rc && !out.end)
			rc = error("qemu: '%s': the probe boot for its symbols (nokaslr, kfootprint's /init) %s: give "
				   "--kallsyms",
				   o->kernel,
				   q.interrupted	? "was interrupted"
				   : q.timed_out	? "did not end within 300 s"
				   : *kfq_qemu_said(&q) ? kfq_qemu_said(&q)
							: "ended without printing them");
		kfq_qemu_release(&q);
	}
	unlink(initrd);
	rmdir(dir);
	strbuf_release(&cmdline);
	if (!rc && !has_all(out.lines.buf, names, n))
		rc = error("qemu: '%s': the probe boot found no %s in /proc/kallsyms", o->kernel,
			   n ? names[0] : "symbol");
	if (rc) {
		strbuf_release(&out.lines);
		return NULL;
	}
	debug("qemu: probe: the kernel's symbols from a probe boot in %.1f s", kfq_now() - t0);
	return strbuf_detach(&out.lines);
}

char *kfq_probe_kallsyms(const struct kfq_opts *o, const char *const *names, size_t n)
{
	char key[SHA256_HEX_LEN + 1], name[SHA256_HEX_LEN + 16], path[PATH_MAX];
	char *text;
	int dir;

	if (kernel_key(o->kernel, key) < 0)
		return NULL;
	snprintf(name, sizeof(name), "%s.kallsyms", key);
	dir = cache_dir(path, sizeof(path));
	text = dir >= 0 ? cache_read(dir, name, names, n) : NULL;
	if (text) {
		debug("qemu: probe: the kernel's symbols from the cache '%s/%s': no probe boot", path, name);
		close(dir);
		return text;
	}
	text = probe_boot(o, names, n);
	if (text && dir >= 0)
		cache_write(dir, name, text);
	if (dir >= 0)
		close(dir);
	return text;
}
