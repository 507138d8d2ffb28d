// SPDX-License-Identifier: GPL-2.0
/*
 * The figures of a kernel for tailor's report: bzImage bytes, vmlinux text bytes (size(1)'s "text": every
 * allocated section that is not writable and has bytes in the file), the options its .config sets y and m, and
 * the time from the kernel's start to /init on QEMU's instruction clock (-icount shift=2,sleep=off, as
 * bench/boot_disk.sh measures: on a loaded host wall time under TCG moves by seconds, instructions do not).
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inventory/inventory.h"
#include "tailor/bootcache.h"
#include "tailor/tailor.h"
#include "util/error.h"
#include "util/xalloc.h"

int tl_elf_text_bytes(const char *path, uint64_t *text)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf64_Ehdr eh;
	int rc = -1;
	*text = 0;
	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum > 65000)
		goto out;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		Elf64_Shdr sh;
		if (pread(fd, &sh, sizeof(sh), (off_t)(eh.e_shoff + (uint64_t)i * sizeof(sh))) != (ssize_t)sizeof(sh))
			goto out;
		if ((sh.sh_flags & SHF_ALLOC) && !(sh.sh_flags & SHF_WRITE) && sh.sh_type != SHT_NOBITS)
			*text += sh.sh_size;
	}
	rc = 0;
out:
	close(fd);
	return rc;
}

static void count_options(const char *config, unsigned *y, unsigned *m)
{
	FILE *f = fopen(config, "re");
	char line[4096];
	*y = *m = 0;
	while (f && fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\n");
		line[n] = '\0';
		if (strncmp(line, "CONFIG_", 7) || n < 2)
			continue;
		if (!strcmp(line + n - 2, "=y"))
			(*y)++;
		else if (!strcmp(line + n - 2, "=m"))
			(*m)++;
	}
	if (f)
		fclose(f);
}

/* A boot of the kernel with an initramfs holding only tailor's /init (no command: it says so and reboots). */
static int boot_seconds(const char *bzimage, const char *initrd, const char *dir, const char *name, double *secs)
{
	/* the same kernel and initramfs on the instruction clock: the same figure, taken from an earlier boot */
	const char *files[] = {bzimage, initrd, NULL}, *words[] = {"figure boot", "-icount shift=2,sleep=off", NULL};
	char key[65];
	bool keyed = tl_boot_key(files, words, key) == 0;
	size_t len;
	char *kept = keyed ? tl_boot_get(key, "boot_s", &len) : NULL;
	if (kept && sscanf(kept, "%lf", secs) == 1) {
		debug("tailor: %s: boot to /init %.3f s, from an earlier boot of the same files", name, *secs);
		free(kept);
		return 0;
	}
	free(kept);
	char *con = xasprintf("%s/boot-icount-%s.log", dir, name ? name : "kernel");
	for (char *p = con + strlen(dir) + 1; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9') && *p != '.')
			*p = '-';
	const char *extra[] = {"-icount", "shift=2,sleep=off", NULL}, *serials[] = {con, NULL};
	int rc = -1;
	/* QEMU's own words (icount's warnings) beside the console's, not on the user's terminal */
	char *qlog = xasprintf("%.*s.qemu", (int)(strlen(con) - 4), con);
	int qfd = open(qlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	free(qlog);
	int st = tl_qemu(bzimage, initrd, 300, 512, extra, serials, qfd);
	if (qfd >= 0)
		close(qfd);
	if (st == 0) {
		FILE *f = fopen(con, "re");
		char line[512];
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "kf-init: up %lf", secs) == 1) {
				rc = 0;
				break;
			}
		if (rc == 0 && keyed) {
			char *v = xasprintf("%.6f\n", *secs);
			tl_boot_put(key, "boot_s", v, strlen(v));
			free(v);
		}
		if (f)
			fclose(f);
	}
	free(con);
	return rc;
}

void tl_figures_of(struct tl_figures *f, const char *bzimage, const char *vmlinux, const char *config,
		   const char *initrd, const char *dir)
{
	struct stat st;
	if (stat(bzimage, &st) == 0)
		f->bzimage = (uint64_t)st.st_size;
	f->have_text = vmlinux && tl_elf_text_bytes(vmlinux, &f->text) == 0;
	if (config)
		count_options(config, &f->opt_y, &f->opt_m);
	f->have_boot = initrd && boot_seconds(bzimage, initrd, dir, f->name, &f->boot_s) == 0;
}

void tl_figures_sloc(struct tl_figures *f, const char *src, const char *config)
{
	/* the same .config on the same tree (its path and Makefile): the same inventory, kept from a run before */
	char key[65], *mk = src ? xasprintf("%s/Makefile", src) : NULL;
	const char *files[] = {config, mk, NULL}, *words[] = {"compiled files and SLOC", src, NULL};
	bool keyed = src && config && tl_boot_key(files, words, key) == 0;
	free(mk);
	size_t len;
	char *kept = keyed ? tl_boot_get(key, "sloc", &len) : NULL;
	int have = 0;
	if (kept && sscanf(kept, "%zu %ld %d", &f->files, &f->sloc, &have) == 3) {
		f->have_sloc = have;
		free(kept);
		return;
	}
	free(kept);
	struct inv_sources is = {.kernel_src = src, .config = config};
	struct inventory *inv = src && config ? inv_build(&is) : NULL;
	if (!inv)
		return; /* inv_build said why */
	f->files = inv->nfiles;
	for (size_t i = 0; i < inv->nfiles; i++)
		if (inv->files[i].sloc > 0)
			f->sloc += inv->files[i].sloc;
	f->have_sloc = !inv->no_sloc;
	inv_free(inv);
	if (keyed) {
		char *v = xasprintf("%zu %ld %d\n", f->files, f->sloc, f->have_sloc ? 1 : 0);
		tl_boot_put(key, "sloc", v, strlen(v));
		free(v);
	}
}

void tl_figures_release(struct tl_figures *f)
{
	free(f->name);
	free(f->why_not);
	memset(f, 0, sizeof(*f));
}
