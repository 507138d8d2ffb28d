/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TAILOR_BOOTCACHE_H
#define KF_TAILOR_BOOTCACHE_H

#include <stddef.h>

/*
 * What a boot under QEMU said, kept by the hash of what it was given, so that a rerun of tailor on the same inputs
 * boots only what it must: the reference run on Debian's kernel and the figures' boots under -icount (the same
 * kernel and initramfs bytes, the same command: the same answer). The re-test itself is never taken from here:
 * it is the proof. In <cache>/boots/KEY/, root's; see docs/tailor.md.
 */

/* The key of a boot: the bytes of each file (NULL-terminated list) and each word. 0, or -1 (a file unreadable). */
int tl_boot_key(const char *const *files, const char *const *words, char key[65]);

/* The bytes kept under key as name (malloc'd, *len set), or NULL when there are none. */
char *tl_boot_get(const char *key, const char *name, size_t *len);

/* Keeps data under key as name, whole or not at all; a failure only costs the next run a boot. */
void tl_boot_put(const char *key, const char *name, const void *data, size_t len);

#endif
