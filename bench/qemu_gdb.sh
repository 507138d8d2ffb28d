#!/bin/sh
# `make bench-boot` (part): calls per second of kfootprint qemu --method gdb against plain gdb driving the same
# breakpoints on the same guest (gdb -batch with a command file: kernel_init, then the syscall entry printing the
# number, the first argument and the current task's pid, as the seed's logging breakpoint does), on x86_64
# (do_syscall_64, gdb) and on aarch64 (do_el0_svc, gdb-multiarch; skipped without qemu-system-aarch64). gdb runs
# twice: with the entry and return breakpoints kfootprint uses (it records each call's result), and entry only.
#   sh bench/qemu_gdb.sh [BUILD-DIR]
# The guest's /init (tests/guest/seq_init.c) makes 9 calls, or 9 + N with -DLOOP=N: per-call cost =
# (wall(N) - wall(0)) / N, which takes the boot out. Debian's 6.1 kernels from the guest harness's cache, with the
# kallsyms dumps tests/integration/qemu.sh and tests/guest/arm64-kernel keep next to them. Not a test: it prints
# figures and exits 0.
set -u
build=${1:-build}
kf=$(pwd)/$build/kfootprint
n=${KF_BENCH_CALLS:-1000}
cache=${KF_GUEST_CACHE:-/var/cache/kfootprint/guest}
t=$(mktemp -d /tmp/kf-bench.XXXXXX)
trap 'rm -rf "$t"' EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
# pid_offset FILE: task_struct's pid offset from the kernel's BTF (bpftool reads an ELF's .BTF or a raw blob)
pid_offset() {
	bpftool btf dump file "$1" format raw 2>/dev/null |
		awk "/STRUCT 'task_struct'/ { in_ts = 1; next } in_ts && /^\[/ { exit } in_ts && /'pid'/ { sub(/.*bits_offset=/, \"\"); print \$0 / 8; exit }"
}

# bench ARCH: both tools on that guest, a table
bench() {
	arch=$1
	if [ "$arch" = aarch64 ]; then
		kdir=$(ls -d "$cache"/arm64-6.1.* 2>/dev/null | sort -V | tail -n1)
		kernel=${kdir:+$kdir/Image} gdb=gdb-multiarch qemu=qemu-system-aarch64 entry_sym=do_el0_svc
		cc="clang --target=aarch64-linux-gnu -ffreestanding -Wl,-no-pie"
		qargs="-M virt -cpu cortex-a57" console="console=ttyAMA0"
	else
		kernel=$(ls "$cache"/kernel-6.1.*/vmlinux 2>/dev/null | sort -V | tail -n1) kdir=$(dirname "${kernel:-/x}")
		gdb=gdb qemu=qemu-system-x86_64 entry_sym=do_syscall_64 cc="gcc -no-pie" qargs="-cpu max"
		console="console=ttyS0 8250.nr_uarts=1"
	fi
	ks=${kdir:-/x}/kallsyms.nokaslr
	if [ -z "$kernel" ] || [ ! -s "$ks" ]; then
		echo "bench: no $arch guest kernel or kallsyms dump: run KF_ONLY=qemu sh tests/run.sh (x86_64) or tests/guest/arm64-kernel (aarch64) first" >&2
		return
	fi
	for tool in "$gdb" "$qemu"; do
		command -v "$tool" >/dev/null || { echo "bench: no $tool (make deps-long)" >&2; return; }
	done
	for loop in 0 "$n"; do
		mkdir -p "$t/$arch$loop"
		$cc -static -nostdlib -O1 -fno-stack-protector -fno-pie -DLOOP="$loop" -o "$t/$arch$loop/init" tests/guest/seq_init.c
		(cd "$t/$arch$loop" && echo init | busybox cpio -o -H newc >"$t/$arch$loop.cpio" 2>/dev/null)
	done
	addr() { awk -v s="$1" '$3 == s { print "0x" $1; exit }' "$ks"; }
	ki=$(addr kernel_init) entry=$(addr $entry_sym) cur=$(addr current_task)
	if [ "$arch" = aarch64 ]; then
		# no ELF: the Image's .BTF blob, found by its header, for bpftool
		python3 - "$kernel" "$t/btf" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
i = d.find(bytes([0x9F, 0xEB, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0]))
_, _, _, hl, _, _, so, sl = struct.unpack("<HBBIIIII", d[i:i + 24])
open(sys.argv[2], "wb").write(d[i:i + hl + so + sl])
PY
		pidoff=$(pid_offset "$t/btf")
		# the seed's logging breakpoint: x8 and x0 of the saved user registers, current in SP_EL0
		show='*(unsigned long *)($x0 + 64), *(unsigned long *)$x0, *(int *)($SP_EL0 + '$pidoff')'
		regs='$x0' ret_site='$x30' ret_off=0
	else
		pidoff=$(pid_offset "$kernel")
		show='$rsi, *(unsigned long *)($rdi + 112), *(int *)(*(unsigned long *)($gs_base + '$cur') + '$pidoff')'
		regs='$rdi' ret_site='*(unsigned long *)$rsp' ret_off=80
	fi
	run_kf() { # LOOP: wall seconds
		s=$(now)
		"$kf" qemu --arch "$arch" --kernel "$kernel" --initrd "$t/$arch$1.cpio" --method gdb --kallsyms "$ks" -d 900 \
			--report /dev/null 2>"$t/kf.err" || echo "bench: kfootprint failed ($arch, LOOP=$1): $(tail -n1 "$t/kf.err")" >&2
		since "$s"
	}
	# run_gdb LOOP entry|both: wall seconds. both: also a breakpoint at the entry's return site (constant: the
	# instruction after the call in the arch's entry code), printing the result from the pt_regs the entry saw —
	# the stops kfootprint makes, since it records each call's return value too.
	run_gdb() {
		rm -f "$t/sock"
		{
			cat <<EOC
set pagination off
set confirm off
set architecture $([ "$arch" = aarch64 ] && echo aarch64 || echo i386:x86-64)
target remote $t/sock
break *$ki
continue
delete
break *$entry
EOC
			if [ "$2" = both ]; then
				cat <<EOC
continue
set \$regs = $regs
printf "syscall=%lu arg0=%#lx pid=%d\\n", $show
break *$ret_site
commands
silent
printf "ret=%ld\\n", *(long *)(\$regs + $ret_off)
continue
end
commands 2
silent
set \$regs = $regs
printf "syscall=%lu arg0=%#lx pid=%d\\n", $show
continue
end
continue
EOC
			else
				cat <<EOC
commands
silent
printf "syscall=%lu arg0=%#lx pid=%d\\n", $show
continue
end
continue
EOC
			fi
		} >"$t/cmds"
		s=$(now)
		# shellcheck disable=SC2086
		$qemu $qargs -nodefaults -no-user-config -display none -no-reboot -smp 1 -m 512 -serial null \
			-kernel "$kernel" -initrd "$t/$arch$1.cpio" -append "$console panic=-1 nokaslr loglevel=3" -S \
			-gdb "unix:$t/sock,server=on,wait=off" &
		q=$!
		while [ ! -S "$t/sock" ]; do sleep 0.05; done
		$gdb -batch -nx -x "$t/cmds" >"$t/gdb.out" 2>&1
		wait $q
		since "$s"
	}
	k0=$(run_kf 0) kn=$(run_kf "$n") g0=$(run_gdb 0 entry) gn=$(run_gdb "$n" entry)
	seen=$(grep -c '^syscall=' "$t/gdb.out")
	b0=$(run_gdb 0 both) bn=$(run_gdb "$n" both)
	rets=$(grep -c '^ret=' "$t/gdb.out")
	echo "gdb-stub method on $arch, $n extra getpid calls on Debian's 6.1 under TCG (wall s: boot with 9 calls / with 9+$n; load $(cut -d' ' -f1 /proc/loadavg))"
	printf '%-28s %8s %8s %14s\n' tool "wall(0)" "wall($n)" "calls/s"
	awk -v n="$n" -v a="$k0" -v b="$kn" 'BEGIN { printf "%-28s %8.2f %8.2f %14.0f\n", "kfootprint qemu --method gdb", a, b, n / (b - a) }'
	awk -v n="$n" -v a="$b0" -v b="$bn" -v g="$gdb" 'BEGIN { printf "%-28s %8.2f %8.2f %14.0f\n", g " entry+return", a, b, n / (b - a) }'
	awk -v n="$n" -v a="$g0" -v b="$gn" -v g="$gdb" 'BEGIN { printf "%-28s %8.2f %8.2f %14.0f\n", g " entry only", a, b, n / (b - a) }'
	echo "(kfootprint and '$gdb entry+return' stop at each call's entry and return, as kfootprint records results: the same"
	echo " breakpoints; '$gdb entry only' is the seed's logging breakpoint. $gdb printed $seen entries of the $((n + 9))"
	echo " calls with entry only, $rets results with entry+return)"
}
[ "${KF_BENCH_ARCH:-all}" = aarch64 ] || bench x86_64
[ "${KF_BENCH_ARCH:-all}" = x86_64 ] || bench aarch64
