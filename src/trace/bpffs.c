// SPDX-License-Identifier: GPL-2.0
/*
 * bpf backend: bpffs at /sys/fs/bpf for the program cache, mounted where nothing is (a minimal system, a container,
 * a CI runner: no systemd mounted it). The standard place, as bpftool's pinning mounts it, and not a private mount:
 * the cache is for the next run, which a mount dying with this one would not serve. It is system setup, not a
 * leftover of the run: the mount is empty but for what the cache pins (docs/bpf.md#the-cache), root's alone
 * (mode 0700, where systemd's is 1777 with the sticky bit), and `umount /sys/fs/bpf` undoes it. KF_BPF_CACHE=0
 * mounts nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <linux/magic.h>

#include "trace/bpf_int.h"
#include "util/error.h"

static bool is_bpffs(const char *path)
{
	struct statfs fs;

	return !statfs(path, &fs) && fs.f_type == BPF_FS_MAGIC;
}

int bpffs_ready(int lock_dir, const char *path, char *why, size_t len)
{
	int fd, rc = 0;

	if (is_bpffs(path))
		return 0;
	/* Two runs that both found nothing would stack two mounts, and the one below would hide what it pinned. */
	fd = openat(lock_dir, "bpffs.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		snprintf(why, len, "no bpffs at %s, and its lock: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!is_bpffs(path)) {
		if (mount("bpf", path, "bpf", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0700") < 0) {
			snprintf(why, len, "no bpffs at %s, and mounting one: %s", path, strerror(errno));
			rc = -1;
		} else {
			debug("backend bpf: mounted bpffs at %s (root's, mode 0700) for the program cache", path);
		}
	}
	close(fd);
	return rc;
}
