/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TAILOR_INITRAMFS_H
#define KF_TAILOR_INITRAMFS_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct footprint;

/*
 * An initramfs (cpio "newc", uncompressed: the kernel reads it with no decompressor configured) made of host
 * files: what a footprint says the workload executed and opened, each ELF's interpreter and libraries, the
 * directories and symbolic links on the way to each (Debian's /lib is a link to usr/lib), and files of tailor's
 * own (/init). Entries are kept in path order, each once.
 */
struct tl_cpio;

struct tl_cpio *tl_cpio_new(void);
void tl_cpio_free(struct tl_cpio *c);
/*
 * A host file by absolute path, its links and parents, and for an ELF its PT_INTERP and DT_NEEDED libraries
 * (RUNPATH, then the system's library directories). Not a regular file, a link or a directory (a device, a FIFO,
 * /proc and /sys): left out, 1. 0 when added, -1 after a message (unreadable).
 */
int tl_cpio_add_host(struct tl_cpio *c, const char *path);
/* Every program the footprint's processes executed and every file they opened successfully, as above. */
int tl_cpio_add_footprint(struct tl_cpio *c, const struct footprint *fp);
/* A file of tailor's own (mode: permission bits) or a directory; parents are added as directories. */
void tl_cpio_add_data(struct tl_cpio *c, const char *path, mode_t mode, const void *data, size_t len);
void tl_cpio_add_dir(struct tl_cpio *c, const char *path);
size_t tl_cpio_count(const struct tl_cpio *c);
/* The archive. 0, or -1 with errno set (a write error, a file that changed size while being read). */
int tl_cpio_write(const struct tl_cpio *c, FILE *out);

#endif
