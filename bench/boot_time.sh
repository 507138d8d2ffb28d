#!/bin/sh
# `make bench-boot` (part): the time busybox's init takes to reach its rcS, with and without kfootprint boot in
# front of it, in the QEMU guest (Debian's 6.1 under TCG: the bpf backend loads there as it would at a real boot),
# measured two ways, KF_BENCH_REPS boots each (default 5), alternately plain and under kfootprint boot; the cell
# is the median. Not a test: it prints figures.
#  1. the whole guest boot: kfootprint boot is the kernel's real PID 1 (tests/guest/run --as-init), from the
#     kernel's start to rcS (and from PID 1's start to rcS), one guest per boot;
#  2. the same with the root on a local ext4 disk instead of the host's / over 9p, and with the root in the
#     initramfs under QEMU's -icount (bench/boot_disk.sh);
#  3. in one guest, busybox init as PID 1 of a new pid namespace (as tests/integration/boot.sh runs it).
# KF_BENCH_MIN=BUILD-DIR (make bench-boot: make btf-build BTF_KERNELS=the guest's vmlinux): 1 and 2 also boot
# that build's kfootprint, which relocates against 6.1's minimal BTF instead of its full one.
#   sh bench/boot_time.sh [BUILD-DIR]
set -u
build=${1:-build}
reps=${KF_BENCH_REPS:-5}
now() { date +%s.%N; }
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# The whole guest boot, kfootprint boot being the kernel's real PID 1 (tests/guest/run --as-init, as
# tests/integration/boot_guest.sh): the guest kernel's clock when PID 1's CMD starts and when busybox init's rcS
# starts, plain (CMD execs busybox init) and recorded (CMD execs kfootprint boot, which execs busybox init; rcS
# ends the recording and waits for the footprint before the power off), alternately, KF_BENCH_REPS times each.
real_init() {
	t=$(mktemp -d "$(pwd -P)/$build/.bench-boot.XXXXXX") || return 1
	modes="plain kf"
	[ -z "${KF_BENCH_MIN:-}" ] || [ ! -x "$KF_BENCH_MIN/kfootprint" ] || modes="plain kf kfmin"
	for m in $modes; do : >"$t/$m" && : >"$t/$m.cmd"; done
	for i in $(seq "$reps"); do
		for m in $modes; do
			d=$t/$m.$i
			mkdir -p "$d"
			echo "::sysinit:/bin/busybox sh $d/rcS" >"$d/inittab"
			{
				echo 'read up _ </proc/uptime; echo $up >'"$d/at"
				[ $m = plain ] || printf ': >/tmp/kf-done
n=0; until [ -e %s/boot.json ] || [ $n -ge 600 ]; do /bin/sleep 0.1; n=$((n + 1)); done
' "$d"
				echo '/bin/busybox poweroff -f'
			} >"$d/rcS"
			if [ $m = plain ]; then
				set -- /bin/busybox init
			else
				bin=$(pwd -P)/$build/kfootprint
				[ $m = kf ] || bin=$(pwd -P)/$KF_BENCH_MIN/kfootprint
				set -- "$bin" boot -o "$d/boot.json" --until-file /tmp/kf-done --init /bin/busybox -- init
			fi
			tests/guest/run --as-init --timeout 300 -- /bin/sh -c '
				d=$1; shift
				read up _ </proc/uptime; echo $up >$d/cmd
				grep -qw overlay /proc/filesystems || modprobe -d "$KF_GUEST_KERNEL_DIR" overlay
				mkdir -p /tmp/etc/up /tmp/etc/wk && cp "$d/inittab" /tmp/etc/up/inittab &&
					mount -t overlay overlay -o lowerdir=/etc,upperdir=/tmp/etc/up,workdir=/tmp/etc/wk /etc &&
					exec "$@"
				/bin/busybox poweroff -f' sh "$d" "$@" >/dev/null 2>&1
			if [ -s "$d/at" ] && [ -s "$d/cmd" ]; then
				cat "$d/at" >>"$t/$m"
				awk -v a="$(cat "$d/cmd")" -v b="$(cat "$d/at")" 'BEGIN { printf "%.3f\n", b - a }' >>"$t/$m.cmd"
			else
				echo "bench: a $m boot did not reach rcS" >&2
			fi
		done
	done
	p=$(median "$t/plain") pc=$(median "$t/plain.cmd")
	echo "kernel start to rcS, kfootprint boot as the guest's real PID 1 (6.1, TCG), median of $reps boots each"
	printf '%-44s %8s %16s\n' "" "seconds" "PID 1 to rcS"
	printf '%-44s %8.3f %16.3f\n' "busybox init" "$p" "$pc"
	for m in $modes; do
		[ $m != plain ] || continue
		k=$(median "$t/$m") kc=$(median "$t/$m.cmd")
		what="kfootprint boot (full BTF), then busybox init"
		[ $m = kf ] || what="the same, minimal BTF (BTF_KERNELS)"
		printf '%-44s %8.3f %16.3f   (%.2fx, %.2fx)\n' "$what" "$k" "$kc" \
			"$(awk -v a="$p" -v b="$k" 'BEGIN { print b / a }')" "$(awk -v a="$pc" -v b="$kc" 'BEGIN { print b / a }')"
	done
	rm -rf "$t"
}

if [ "${KF_GUEST:-}" != 1 ]; then
	real_init
	echo
	# the same boot with the root on a local disk, not the host's / over 9p, then in the initramfs under
	# -icount, whose clock counts instructions: the host's load no longer moves it (bench/boot_disk.sh)
	sh bench/boot_disk.sh "$build"
	echo
	KF_BENCH_ROOT=initramfs KF_BENCH_ICOUNT=2 sh bench/boot_disk.sh "$build"
	echo
	exec tests/guest/run --timeout 900 -- sh bench/boot_time.sh "$build"
fi
kf=$(pwd)/$build/kfootprint
# the guest kernel's overlayfs is a module (tests/guest/README.md)
grep -qw overlay /proc/filesystems || modprobe -d "$KF_GUEST_KERNEL_DIR" overlay ||
	{ echo "bench: no overlayfs in the guest" >&2; exit 0; }
t=$(mktemp -d /tmp/kf-bench.XXXXXX)
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
p=$(median "$t/plain") k=$(median "$t/kf")
echo "boot to rcS, busybox init as PID 1 of a pid namespace in the guest (6.1, TCG), median of $reps"
printf '%-34s %8s\n' "" seconds
printf '%-34s %8.3f\n' "busybox init" "$p"
printf '%-34s %8.3f   (%.2fx)\n' "kfootprint boot, then busybox init" "$k" "$(awk -v a="$p" -v b="$k" 'BEGIN { print b / a }')"
rm -rf "$t"
