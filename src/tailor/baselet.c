// SPDX-License-Identifier: GPL-2.0
// The baselet: what a tailored kernel needs to boot under QEMU x86_64 and run the re-test, which no workload's
// footprint shows (the guide: "boot and recovery dependencies are absent from an application's trace").
// Derived from a recorded boot where one can say it: tests/fixtures/tailor-boot.json is the re-test's own /init
// (its initramfs tree, a #! script run as nobody) recorded with its kernel functions in Debian's 6.1 guest
// (tests/long/tailor_boot.sh re-records it). A row's `boot` names what that recording shows of the option: a
// call of its mapping, or a kernel function of the option's files; tests/integration/tailor_baselet.sh holds
// every name to the fixture's map, and every row without one to be absent from it. The rest stays a reviewed
// table, each row's `unseen` saying why a boot cannot show it. The options these bring in come from the closure, not
// from here.
#include <stddef.h>

#include "tailor/tailor.h"

static const struct tl_base base_x86_64[] = {
    {"64BIT", "x86's allnoconfig answers 32-bit; the workload is x86_64", NULL,
     "a choice made before any code runs: the boot's calls need X86_64, which depends on it"},
    {"PRINTK", "the console's messages: the boot's last words when it fails", "prb_read_valid", NULL},
    {"TTY", "the serial console and ports", "fd chr:5:1", NULL},
    {"SERIAL_8250", "QEMU's serial ports (ttyS0 console, ttyS1 the re-test's footprint, ttyS2 its stdout)",
     "serial8250_start_tx", NULL},
    {"SERIAL_8250_CONSOLE", "console=ttyS0", NULL,
     "the kernel's own console writes run in printk's context, outside every task a recording follows"},
    {"BLK_DEV_INITRD", "the initramfs of the workload's files", NULL,
     "unpacked (populate_rootfs) before PID 1 exists: a recording from PID 1 starts after it"},
    {"RD_GZIP", "a user's own initramfs, gzip'd as mkinitramfs and the kernel's usr/gen_initramfs.sh make it", NULL,
     "the re-test's initramfs is uncompressed: no boot of ours decompresses one"},
    {"BINFMT_ELF", "every program", "binfmt elf", NULL},
    {"BINFMT_SCRIPT", "#! scripts (shims, shell wrappers)", "binfmt script", NULL},
    {"DEVTMPFS", "/dev of the guest (the serial ports, /dev/null)", "fstype devtmpfs", NULL},
    {"PROC_FS", "the re-test's recorder reads /proc (ptrace backend)", "fstype proc", NULL},
    {"SYSFS", "what a workload reads under /sys, like the host", "fstype sysfs", NULL},
    {"MULTIUSER", "the workload runs as its own user", "setuid", NULL},
};

const struct tl_base *tl_baselet(size_t *n)
{
	*n = sizeof(base_x86_64) / sizeof(base_x86_64[0]);
	return base_x86_64;
}
