#!/bin/sh
# kfootprint boot on Debian's 6.1 kernel (its bpf backend CO-RE'd to 6.1's BTF, attached to PID 1 of a pid
# namespace): the tree case of tests/integration/boot.sh (the others cost a minute more under TCG and test no
# kernel difference; all of them passed here when it was written), once the guest's overlayfs module is loaded.
if ! grep -qw overlay /proc/filesystems && ! modprobe -d "$KF_GUEST_KERNEL_DIR" overlay 2>/dev/null; then
	echo "ok boot # SKIP the guest kernel has no overlayfs for the test's /etc/inittab"
	exit 0
fi
KF_BOOT_TREE_ONLY=1 exec sh "$(dirname "$0")/../../integration/boot.sh"
