#!/bin/sh
# make check-long: kfootprint qemu --arch aarch64 on Debian's 6.1 arm64 kernel under TCG (qemu-system-aarch64 -M
# virt -cpu cortex-a57), both methods, with the static /init of tests/guest/seq_init.c built for aarch64: PID 1's
# calls must be exactly those of x86_64's test (tests/integration/qemu.sh), under arm64's numbers. Not in make check:
# five arm64 boots (2.4 to 5.8 s of wall time each on the shared 2-vCPU machine at load 4 to 10: /init runs 1.7 to
# 4.3 s after the kernel starts) and, once, the kernel's download and a kallsyms boot (tests/guest/arm64-kernel,
# 36 s). Boot times go to $KF_BUILD/check-long.txt.
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1
figures="$KF_TOP/$KF_BUILD/check-long.txt"

command -v qemu-system-aarch64 >/dev/null || {
	skip qemu_arm64 "qemu-system-aarch64 is not installed (make deps-long installs qemu-system-arm)"
	exit 0
}
# The /init: clang cross-compiles it (gcc-aarch64-linux-gnu conflicts with gcc-multilib), binutils links it.
mkinitrd() { # OUT [CFLAGS]
	mkdir -p "$T/r$$" && clang --target=aarch64-linux-gnu -static -nostdlib -ffreestanding -O1 -fno-stack-protector \
		-fno-pie -Wl,-no-pie ${2:-} -o "$T/r$$/init" tests/guest/seq_init.c 2>"$T/cc.err" &&
		(cd "$T/r$$" && echo init | busybox cpio -o -H newc >"$1" 2>/dev/null) && rm -rf "$T/r$$"
}
if ! mkinitrd "$T/seq.cpio"; then
	skip qemu_arm64 "no aarch64 /init: $(tail -n1 "$T/cc.err") (make deps-long installs binutils-aarch64-linux-gnu)"
	exit 0
fi
mkinitrd "$T/hang.cpio" -DHANG || { not_ok "the -DHANG /init builds: $(tail -n1 "$T/cc.err")"; exit 0; }
kdir=$(tests/guest/arm64-kernel 2>"$T/kernel.err") || {
	skip qemu_arm64 "no arm64 kernel: $(cat "$T/kernel.err")"
	exit 0
}
kernel=$kdir/Image ks=$kdir/kallsyms.nokaslr
eq "the Image is an arm64 Image" "ARMd" "$(dd if="$kernel" bs=1 skip=56 count=4 2>/dev/null)"

. tests/guest/seq_expect.sh
calls_of_pid1() { seq_calls_of_pid1 "$1" aarch64; }
want=$SEQ_WANT

now() { date +%s.%N; }
load() { cut -d' ' -f1 /proc/loadavg; }
gzip -c "$kernel" >"$T/Image.gz"
for run in tracepoint:Image gdb:Image gdb:Image.gz; do
	method=${run%%:*} k=$kernel
	[ "${run#*:}" = Image.gz ] && k=$T/Image.gz
	s=$(now) l=$(load)
	if "$KF" qemu --arch aarch64 --kernel "$k" --initrd "$T/seq.cpio" --method "$method" --kallsyms "$ks" -d 600 \
		-v -o "$T/$method.json" --report "$T/$method.txt" 2>"$T/$method.err"; then
		wall=$(awk -v a="$s" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
		eq "aarch64, $run: PID 1 made exactly the calls of /init" "$want" "$(calls_of_pid1 "$T/$method.json" 2>&1)"
		# the guest's clock when the kernel exec'd /init (the tracepoint method prints it)
		boot=$(sed -n 's/.*\[ *\([0-9.]*\)\] sched_process_exec: filename=\/init pid=1 .*/\1/p' "$T/$method.err" | head -n1)
		echo "qemu aarch64 (TCG, cortex-a57), $run: $wall s wall for the whole run${boot:+, /init exec'd at $boot s of guest time}; load $l" >>"$figures"
		echo "# qemu aarch64 $run: $wall s wall${boot:+, /init at $boot s}; load $l"
	else
		not_ok "aarch64, $run: kfootprint qemu failed: $(grep -v 'debug:' "$T/$method.err" | tail -n3)"
	fi
done
check "aarch64, gdb: entry observations, said" grep -q "these are entry observations, not decoded arguments or syscall results: 9 calls seen at do_el0_svc, 8 results read at its return; GDB threads in QEMU represent vCPUs, not Linux tasks" "$T/gdb.err"
check "aarch64, gdb: SP_EL0 found in the stub's system registers" grep -q "gdb: SP_EL0 is register [0-9]* (system-registers.xml)" "$T/gdb.err"

# A guest that never powers off: -d ends it, the footprint is kept, marked incomplete; ppoll is left open.
started=$(date +%s)
if "$KF" qemu --arch aarch64 --kernel "$kernel" --initrd "$T/hang.cpio" -d 40 -o "$T/hang.json" --report /dev/null \
	2>"$T/hang.err"; then
	took=$(($(date +%s) - started))
	eq "aarch64, never powers off: -d 40 ends it, PID 1's calls kept" "getpid 3 0 -" \
		"$(calls_of_pid1 "$T/hang.json" | grep '^getpid')"
	eq "aarch64, never powers off: incomplete (duration), ppoll left open" "ppoll 1 0 - complete False duration" \
		"$(calls_of_pid1 "$T/hang.json" | sed -n 's/^\(ppoll.*\)/\1/p;s/^procs 1 comm init \(complete.*\)/\1/p' | tr '\n' ' ' | sed 's/ $//')"
	check "aarch64, never powers off: ended within -d plus 5 s" test "$took" -le 45
else
	not_ok "aarch64, never powers off: kfootprint qemu failed: $(cat "$T/hang.err")"
fi
