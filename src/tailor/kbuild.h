/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_TAILOR_KBUILD_H
#define KF_TAILOR_KBUILD_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The kernel builder of tailor (and of measurement builds): a fragment on allnoconfig, judged by the tree's own
 * kconfig (`make allnoconfig KCONFIG_ALLCONFIG=`), then `make bzImage` in a build directory of the cache named by
 * the hash of the resulting .config, the tree and the compiler, so that an unchanged configuration is never built
 * twice. The source tree is only read: every make runs with O= a directory of the cache. See docs/tailor.md.
 */

struct tl_kernel {
	char *src;	/* the tree, absolute */
	char *version;	/* "6.1.192" from its Makefile */
	char *dir;	/* the build directory: <cache>/build/<hash>, the build user's */
	char *out;	/* its outputs as root took them: <cache>/kernels/<hash>, root's */
	char key[17];	/* the first 16 hex digits of the hash */
	char *config;	/* the .config text that conf made of the fragment */
	bool built;	/* dir holds a complete build (bzImage, vmlinux) */
	bool cached;	/* ... that an earlier run made */
	double seconds; /* wall: conf (or its kept answer), then make */
};

/*
 * The cache directory: $KF_TAILOR_CACHE, else /var/cache/kfootprint/tailor. Its own directories are root's and
 * 0711 (the build user passes through, cannot list nor write); only the build directories and conf's are the build
 * user's (spawn.h), who runs conf and make. malloc'd.
 */
char *tl_cache_dir(void);

/*
 * The tree to build: srcdir when given (checked to be a kernel tree), else Debian's linux-source-6.1, extracted
 * once from /usr/src/linux-source-6.1.tar.xz into <cache>/src under a lock. malloc'd absolute path, or NULL
 * after a message.
 */
char *tl_source(const char *srcdir, const char *cache);

/*
 * Runs the tree's kconfig on fragment (allnoconfig + fragment) and finds the build directory of the result:
 * k->config, k->key, k->dir, k->built. 0, or -1 after a message (nothing of the attempt is left in the cache).
 */
int tl_kernel_config(const char *src, const char *cache, const char *fragment, struct tl_kernel *k);

/*
 * make -jJOBS bzImage in k->dir unless k->built: a live progress line on stderr when it is a terminal, the
 * whole log in k->dir/build.log; on failure one line and the log's last lines. Then the cache is pruned to
 * max_bytes (the least lately used builds first, never k's). 0, or -1 after a message.
 */
int tl_kernel_build(struct tl_kernel *k, const char *cache, unsigned jobs, uint64_t max_bytes);

/*
 * A build's outputs, as root took them out of k->dir (regular files, no link on the way) into k->out:
 * "arch/x86/boot/bzImage", "vmlinux" and ".config" name k->out's bzImage, vmlinux and .config. Any other rel is
 * k->dir's own file, which the build user could have made anything: read it with tl_open_inside(). malloc'd.
 */
char *tl_kernel_file(const struct tl_kernel *k, const char *rel);
void tl_kernel_release(struct tl_kernel *k);

/* A whole file's text, malloc'd; NULL when it cannot be read (errno set). */
char *tl_read_text(const char *path);
/* from copied to `to` (or to DIR/NAME) through a temporary file renamed over it: 0, or -1 after a message. */
int tl_copy_file(const char *from, const char *to);
int tl_copy_into(const char *from, const char *dir, const char *name);

#endif
