#!/bin/sh
# `make bench-boot` (part): the time busybox's init takes to reach its rcS, with and without kfootprint boot in
# front of it, in the QEMU guest (Debian's 6.1 under TCG: the bpf backend loads there as it would at a real boot).
# Each boot is PID 1 of a new pid namespace (as tests/integration/boot.sh runs it), alternately plain and under
# kfootprint boot, KF_BENCH_REPS times (default 5); the cell is the median. Not a test: it prints figures.
#   sh bench/boot_time.sh [BUILD-DIR]
set -u
build=${1:-build}
if [ "${KF_GUEST:-}" != 1 ]; then
	exec tests/guest/run --timeout 900 -- sh bench/boot_time.sh "$build"
fi
kf=$(pwd)/$build/kfootprint
# the guest kernel's overlayfs is a module (tests/guest/README.md)
grep -qw overlay /proc/filesystems || modprobe -d "$KF_GUEST_KERNEL_DIR" overlay ||
	{ echo "bench: no overlayfs in the guest" >&2; exit 0; }
reps=${KF_BENCH_REPS:-5}
t=$(mktemp -d /tmp/kf-bench.XXXXXX)
now() { date +%s.%N; }
# one boot: init reaches rcS, which notes the time, ends the recording (if any) and powers off
one() { # DIR KF-WRAP...
	d=$1
	shift
	rm -rf "$d" && mkdir -p "$d/up" "$d/wk"
	printf 'date +%%s.%%N >%s/at\n: >%s/done\nwhile [ -e %s/rec ] && [ ! -e %s/boot.json ]; do :; done\nkill -USR2 1\n' \
		"$d" "$d" "$d" "$d" >"$d/rcS"
	[ $# -gt 0 ] && : >"$d/rec"
	echo "::sysinit:/bin/sh $d/rcS" >"$d/up/inittab"
	s=$(now)
	unshare -pfm --mount-proc sh -c \
		"mount -t overlay overlay -o lowerdir=/etc,upperdir=$d/up,workdir=$d/wk /etc && exec \"\$@\"" sh \
		"$@" /bin/busybox init </dev/null >/dev/null 2>&1
	awk -v a="$s" -v b="$(cat "$d/at")" 'BEGIN { printf "%.3f\n", b - a }'
}
: >"$t/plain" && : >"$t/kf"
for i in $(seq "$reps"); do
	one "$t/p" >>"$t/plain"
	one "$t/k" "$kf" boot -o "$t/k/boot.json" --until-file "$t/k/done" --init >>"$t/kf"
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
p=$(median "$t/plain") k=$(median "$t/kf")
echo "boot to rcS, busybox init as PID 1 of a pid namespace in the guest (6.1, TCG), median of $reps"
printf '%-34s %8s\n' "" seconds
printf '%-34s %8.3f\n' "busybox init" "$p"
printf '%-34s %8.3f   (%.2fx)\n' "kfootprint boot, then busybox init" "$k" "$(awk -v a="$p" -v b="$k" 'BEGIN { print b / a }')"
rm -rf "$t"
