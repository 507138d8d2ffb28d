// SPDX-License-Identifier: GPL-2.0
// The baselet: what a tailored kernel needs to boot under QEMU x86_64 and run the re-test, which no workload's
// footprint shows (the guide: "boot and recovery dependencies are absent from an application's trace"). A
// reviewed table, each row with its reason; the options it brings in come from the closure, not from here.
#include <stddef.h>

#include "tailor/tailor.h"

static const struct tl_base base_x86_64[] = {
    {"64BIT", "x86's allnoconfig answers 32-bit; the workload is x86_64"},
    {"PRINTK", "the console's messages: the boot's last words when it fails"},
    {"TTY", "the serial console and ports"},
    {"SERIAL_8250", "QEMU's serial ports (ttyS0 console, ttyS1 the re-test's footprint, ttyS2 its stdout)"},
    {"SERIAL_8250_CONSOLE", "console=ttyS0"},
    {"BLK_DEV_INITRD", "the initramfs of the workload's files"},
    {"RD_GZIP", "a user's own initramfs, gzip'd as mkinitramfs and the kernel's usr/gen_initramfs.sh make it"},
    {"BINFMT_ELF", "every program"},
    {"BINFMT_SCRIPT", "#! scripts (shims, shell wrappers)"},
    {"DEVTMPFS", "/dev of the guest (the serial ports, /dev/null)"},
    {"PROC_FS", "the re-test's recorder reads /proc (ptrace backend)"},
    {"SYSFS", "what a workload reads under /sys, like the host"},
    {"MULTIUSER", "the workload runs as its own user"},
};

const struct tl_base *tl_baselet(size_t *n)
{
	*n = sizeof(base_x86_64) / sizeof(base_x86_64[0]);
	return base_x86_64;
}
