#!/bin/sh
# kfootprint qemu on a guest that never powers off (tests/guest/seq_init.c -DHANG: its calls, then pause for ever):
# -d 12 ends it within 5 s more, the footprint is kept and marked incomplete. Debian's 6.1 kernel from the guest
# harness's cache, as tests/integration/qemu.sh has it.
# kf-test: alone: the guest must boot within -d 12 under TCG, which a test beside it on the other CPU can stretch
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1

if ! command -v qemu-system-x86_64 >/dev/null; then
	skip "never powers off" "qemu-system-x86_64 is not installed (make deps installs qemu-system-x86)"
	exit 0
fi
cache=${KF_GUEST_CACHE:-/var/cache/kfootprint/guest}
kernel=$(ls "$cache"/kernel-6.1.*/vmlinux 2>/dev/null | sort -V | tail -n1)
if [ -z "$kernel" ]; then
	tests/guest/run --timeout 1 -- true >/dev/null 2>&1
	kernel=$(ls "$cache"/kernel-6.1.*/vmlinux 2>/dev/null | sort -V | tail -n1)
fi
if [ -z "$kernel" ]; then
	skip "never powers off" "no Debian 6.1 kernel in $cache (tests/guest/run could not fetch one: not root, or no apt)"
	exit 0
fi
mkdir "$T/r" && gcc -static -nostdlib -O1 -fno-stack-protector -fno-pie -no-pie -DHANG -o "$T/r/init" tests/guest/seq_init.c &&
	(cd "$T/r" && echo init | busybox cpio -o -H newc >"$T/hang.cpio" 2>/dev/null) || { not_ok "a static /init builds"; exit 0; }
. tests/guest/seq_expect.sh
calls_of_pid1() { seq_calls_of_pid1 "$1"; }

# A guest that never powers off: -d ends it, the footprint is kept, marked incomplete.
started=$(date +%s)
if "$KF" qemu --kernel "$kernel" --initrd "$T/hang.cpio" -d 12 -o "$T/hang.json" --report /dev/null 2>"$T/hang.err"; then
	took=$(($(date +%s) - started))
	eq "never powers off: -d 12 ends it, PID 1's calls kept" "getpid 3 0 -" \
		"$(calls_of_pid1 "$T/hang.json" | grep '^getpid')"
	eq "never powers off: incomplete (duration), pause left open" "pause 1 0 - complete False duration" \
		"$(calls_of_pid1 "$T/hang.json" | sed -n 's/^\(pause.*\)/\1/p;s/^procs 1 comm init \(complete.*\)/\1/p' | tr '\n' ' ' | sed 's/ $//')"
	check "never powers off: ended within -d plus 5 s" test "$took" -le 17
else
	not_ok "never powers off: kfootprint qemu failed: $(cat "$T/hang.err")"
fi
