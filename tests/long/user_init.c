// SPDX-License-Identifier: GPL-2.0
// A user's own /init for tests/long/tailor.sh: static, it says one line on the console and ends QEMU by
// rebooting (-no-reboot), as issue 19 says a tailored kernel must be able to boot.
#include <fcntl.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(void)
{
	static const char msg[] = "user-init: hello from a user's own initramfs\n";
	int fd = open("/dev/console", O_WRONLY | O_NOCTTY);
	if (fd >= 0 && write(fd, msg, strlen(msg)) < 0)
		return 1;
	reboot(RB_AUTOBOOT);
	return 0;
}
