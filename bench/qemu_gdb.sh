#!/bin/sh
# `make bench-boot` (part): calls per second of kfootprint qemu --method gdb against plain gdb driving the same
# breakpoints on the same guest (gdb -batch with a command file: kernel_init, then do_syscall_64 printing the
# number, the first argument and the current task's pid, as the seed's logging breakpoint does).
#   sh bench/qemu_gdb.sh [BUILD-DIR]
# The guest's /init (tests/guest/seq_init.c) makes 9 calls, or 9 + N with -DLOOP=N: per-call cost =
# (wall(N) - wall(0)) / N, which takes the boot out. Debian's 6.1 kernel from the guest harness's cache, with the
# kallsyms dump tests/integration/qemu.sh keeps next to it. Not a test: it prints figures and exits 0.
set -u
build=${1:-build}
kf=$(pwd)/$build/kfootprint
n=${KF_BENCH_CALLS:-1000}
cache=${KF_GUEST_CACHE:-/var/cache/kfootprint/guest}
kernel=$(ls "$cache"/kernel-6.1.*/vmlinux 2>/dev/null | sort -V | tail -n1)
ks=$(dirname "${kernel:-/x}")/kallsyms.nokaslr
[ -n "$kernel" ] && [ -s "$ks" ] || { echo "bench: no guest kernel or kallsyms dump: run KF_ONLY=qemu sh tests/run.sh first" >&2; exit 0; }
command -v gdb >/dev/null || { echo "bench: no gdb (make deps: it is in the test list)" >&2; exit 0; }
t=$(mktemp -d /tmp/kf-bench.XXXXXX)
trap 'rm -rf "$t"' EXIT
for loop in 0 "$n"; do
	mkdir -p "$t/r$loop"
	gcc -static -nostdlib -O1 -fno-stack-protector -fno-pie -no-pie -DLOOP="$loop" -o "$t/r$loop/init" tests/guest/seq_init.c
	(cd "$t/r$loop" && echo init | busybox cpio -o -H newc >"$t/i$loop.cpio" 2>/dev/null)
done
addr() { awk -v s="$1" '$3 == s { print "0x" $1; exit }' "$ks"; }
ki=$(addr kernel_init) entry=$(addr do_syscall_64) cur=$(addr current_task)
pidoff=$(python3 - "$kernel" <<'PY'
import sys
# the pid offset from kfootprint's own reading would need a run: ask the kernel's BTF through bpftool instead
import subprocess, re
out = subprocess.run(["bpftool", "btf", "dump", "file", sys.argv[1], "format", "raw"], capture_output=True, text=True).stdout
m = re.search(r"STRUCT 'task_struct'.*?\n((?:\t.*\n)+)", out)
for line in m.group(1).splitlines():
    if "'pid'" in line:
        print(int(re.search(r"bits_offset=(\d+)", line).group(1)) // 8)
        break
PY
)
now() { date +%s.%N; }
run_kf() { # LOOP: wall seconds
	s=$(now)
	"$kf" qemu --kernel "$kernel" --initrd "$t/i$1.cpio" --method gdb --kallsyms "$ks" -d 900 --report /dev/null 2>/dev/null
	awk -v a="$s" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'
}
run_gdb() { # LOOP: wall seconds
	rm -f "$t/sock"
	cat >"$t/cmds" <<EOC
set pagination off
set confirm off
target remote $t/sock
break *$ki
continue
delete
break *$entry
commands
silent
printf "syscall=%lu arg0=%#lx pid=%d\\n", \$rsi, *(unsigned long *)(\$rdi + 112), *(int *)(*(unsigned long *)(\$gs_base + $cur) + $pidoff)
continue
end
continue
EOC
	s=$(now)
	qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot -smp 1 -m 512 -cpu max \
		-serial null -kernel "$kernel" -initrd "$t/i$1.cpio" \
		-append "console=ttyS0 8250.nr_uarts=1 panic=-1 nokaslr loglevel=3" -S -gdb "unix:$t/sock,server=on,wait=off" &
	q=$!
	while [ ! -S "$t/sock" ]; do sleep 0.05; done
	gdb -batch -nx -x "$t/cmds" >"$t/gdb.out" 2>&1
	wait $q
	awk -v a="$s" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'
}
k0=$(run_kf 0) kn=$(run_kf "$n") g0=$(run_gdb 0) gn=$(run_gdb "$n")
seen=$(grep -c '^syscall=' "$t/gdb.out")
echo "gdb-stub method, $n extra getpid calls on Debian's 6.1 under TCG (wall s: boot with 9 calls / with 9+$n)"
printf '%-28s %8s %8s %14s\n' tool "wall(0)" "wall($n)" "calls/s"
awk -v n="$n" -v a="$k0" -v b="$kn" 'BEGIN { printf "%-28s %8.2f %8.2f %14.0f\n", "kfootprint qemu --method gdb", a, b, n / (b - a) }'
awk -v n="$n" -v a="$g0" -v b="$gn" 'BEGIN { printf "%-28s %8.2f %8.2f %14.0f\n", "gdb -batch (same bps)", a, b, n / (b - a) }'
echo "(gdb printed $seen calls of the $((n + 9)) expected; kfootprint also stops at each call's return)"
