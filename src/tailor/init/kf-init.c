// SPDX-License-Identifier: GPL-2.0
/*
 * tailor's /init: PID 1 of the re-test guest, static, so that it needs nothing of the initramfs but itself. It
 * mounts what the kernel provides (devtmpfs, proc, sysfs: what mounts is said, what does not is said too, since a
 * tailored kernel may lack one), runs the command of /kf/cmd (NUL-separated words: kfootprint record ... --
 * COMMAND) with standard output on the third serial port and standard error on the console, says how it ended,
 * and reboots: with QEMU's -no-reboot that ends QEMU. It first says the kernel's uptime ("kf-init: up S", the
 * report's boot time), and brings lo up. /kf/uid, when present, holds "UID GID" for the command, and /kf/cwd
 * the directory it ran in on the host.
 *
 *   ttyS0  the console: the kernel, this init's lines ("kf-init: ..."), the command's standard error
 *   ttyS1  the footprint the command writes (-o /dev/ttyS1)
 *   ttyS2  the command's standard output, byte for byte (the port is made raw: no CR added before LF)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

static void say(const char *fmt, const char *a, long n)
{
	char buf[512];
	int len = snprintf(buf, sizeof(buf), fmt, a, n);
	if (len > 0 && write(2, buf, (size_t)len) < 0)
		return;
}

static void try_mount(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) < 0 && errno != EBUSY)
		say("kf-init: mount %s: errno %ld\n", type, errno);
}

/* lo up, as any init does: a server and its client over 127.0.0.1 (a kernel without INET: nothing to do) */
static void lo_up(void)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq r;
	if (s < 0)
		return;
	memset(&r, 0, sizeof(r));
	strcpy(r.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &r) == 0) {
		r.ifr_flags |= IFF_UP;
		if (ioctl(s, SIOCSIFFLAGS, &r) < 0)
			say("kf-init: lo up: errno %s%ld\n", "", errno);
	}
	close(s);
}

static int open_raw(const char *dev)
{
	int fd = open(dev, O_RDWR | O_NOCTTY);
	struct termios t;
	if (fd >= 0 && tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		tcsetattr(fd, TCSANOW, &t);
	}
	return fd;
}

static char **read_cmd(void)
{
	static char buf[65536];
	static char *argv[1024];
	int fd = open("/kf/cmd", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	size_t argc = 0;
	for (char *p = buf; p < buf + n && argc < 1023; p += strlen(p) + 1)
		argv[argc++] = p;
	argv[argc] = NULL;
	return argv;
}

int main(void)
{
	try_mount("devtmpfs", "/dev", "devtmpfs");
	int con = open("/dev/console", O_RDWR | O_NOCTTY);
	if (con >= 0) {
		dup2(con, 1);
		dup2(con, 2);
	}
	try_mount("proc", "/proc", "proc");
	/* the kernel's clock at /init: under QEMU's -icount, the report's boot time */
	int up = open("/proc/uptime", O_RDONLY);
	char ubuf[64] = "";
	ssize_t un = up < 0 ? -1 : read(up, ubuf, sizeof(ubuf) - 1);
	if (up >= 0)
		close(up);
	if (un > 0) {
		ubuf[strcspn(ubuf, " \n")] = '\0';
		say("kf-init: up %s%.0ld\n", ubuf, 0);
	}
	try_mount("sysfs", "/sys", "sysfs");
	mkdir("/tmp", 01777);
	lo_up();
	char **argv = read_cmd();
	int status = -1;
	if (!argv) {
		say("kf-init: no command in /kf/cmd%s%ld\n", "", 0);
	} else {
		int out = open_raw("/dev/ttyS2");
		int fp = open_raw("/dev/ttyS1");
		if (out < 0 || fp < 0)
			say("kf-init: the serial ports ttyS1 and ttyS2 are missing%s (errno %ld)\n", "", errno);
		else
			close(fp); /* made raw here; the command opens it by name */
		say("kf-init: running %s%.0ld\n", argv[0], 0);
		pid_t pid = fork();
		if (pid == 0) {
			if (out >= 0)
				dup2(out, 1);
			FILE *u = fopen("/kf/uid", "r");
			unsigned uid, gid;
			if (u && fscanf(u, "%u %u", &uid, &gid) == 2 && (setgid(gid) < 0 || setuid(uid) < 0))
				_exit(126);
			char cwd[4096];
			int cf = open("/kf/cwd", O_RDONLY);
			ssize_t cn = cf < 0 ? -1 : read(cf, cwd, sizeof(cwd) - 1);
			if (cn > 0) {
				cwd[cn] = '\0';
				if (chdir(cwd) < 0)
					say("kf-init: chdir %s: errno %ld\n", cwd, errno);
			}
			execv(argv[0], argv);
			say("kf-init: exec %s: errno %ld\n", argv[0], errno);
			_exit(127);
		}
		while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		if (out >= 0) {
			tcdrain(out);
			close(out);
		}
	}
	if (status >= 0 && WIFEXITED(status))
		say("kf-init: exit %s%ld\n", "", WEXITSTATUS(status));
	else if (status >= 0 && WIFSIGNALED(status))
		say("kf-init: signal %s%ld\n", "", WTERMSIG(status));
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
