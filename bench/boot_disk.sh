#!/bin/sh
# `make bench-boot` (part, from bench/boot_time.sh): the same boot as boot_time.sh's first table, busybox's init
# reaching its rcS with and without `kfootprint boot` in front of it, but with the root on a local block device
# instead of the host's / over 9p: an ext4 image (mke2fs -d) holding busybox-static, kfootprint and the shared
# libraries it links, on virtio-blk, read-only, mounted by a small initramfs that loads the guest kernel's
# virtio and ext4 modules and switch_roots to it, as Debian's initramfs does (/proc, /sys and /dev moved into the
# new root). Every boot starts with a cold page cache (a new guest); the host keeps the image in its own cache,
# as a fast disk would. Alternately plain and recorded, KF_BENCH_REPS boots each (default 5); the cells are
# medians of the guest kernel's clock (/proc/uptime) when rcS starts, and of rcS's start less PID 1's on the real
# root (the switch_root); then the same pair by pair (recorded against the plain boot just before it).
# KF_BENCH_ROOT=initramfs: the same files as the initramfs itself, no disk (no I/O at all after the kernel
# unpacked it). KF_BENCH_ICOUNT=N: QEMU's -icount shift=N,sleep=off, the guest's clock then counts instructions
# (2^N ns each) and skips idle time: on a loaded host the times of a boot no longer move (with the initramfs root
# they repeat to the 10 ms /proc/uptime shows), where TCG's wall clock varied by seconds at load 7 to 12.
# Each boot's times go to stderr; KF_BENCH_VERBOSE=1 adds kfootprint boot -v's log there (each step of the
# hand-off on the same clock). KF_BENCH_MIN=BUILD-DIR: a third boot each round, with that build's kfootprint (make
# btf-build BTF_KERNELS=the guest's vmlinux: CO-RE against 6.1's minimal BTF, not its full one). Not a test: it
# prints figures.
#   sh bench/boot_disk.sh [BUILD-DIR]
set -u
build=${1:-build}
reps=${KF_BENCH_REPS:-5}
kf=$(pwd -P)/$build/kfootprint
kfmin=${KF_BENCH_MIN:+$(pwd -P)/$KF_BENCH_MIN/kfootprint}
modes="plain kf"
[ -z "$kfmin" ] || [ ! -x "$kfmin" ] || modes="plain kf kfmin"
# KF_BENCH_ROOT=initramfs: the same files in the initramfs, the root itself (no disk, no I/O at all)
root=${KF_BENCH_ROOT:-disk}
say() { echo "bench: $*" >&2; }
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for t in mke2fs qemu-system-x86_64 busybox; do
	command -v $t >/dev/null || { say "no $t: the disk-root boot is left out (make deps)"; exit 0; }
done
[ -x "$kf" ] || { say "no $kf: make first"; exit 0; }

# The guest kernel, as tests/guest/run caches it (one guest boot makes sure it is there and says where).
kdir=$(tests/guest/run --timeout 300 -- sh -c 'printf %s "$KF_GUEST_KERNEL_DIR"') && [ -d "$kdir" ] ||
	{ say "no guest kernel (tests/guest/run failed): the disk-root boot is left out"; exit 0; }
abi=$(ls "$kdir/lib/modules")
mods=$kdir/lib/modules/$abi
boot=$kdir/vmlinuz
[ ! -s "$kdir/vmlinux" ] || boot=$kdir/vmlinux
t=$(mktemp -d /tmp/kf-bootdisk.XXXXXX) || exit 1
drive=
[ "$root" = initramfs ] || drive="-drive file=$t/root.img,if=virtio,format=raw,readonly=on"
trap 'rm -rf "$t"' EXIT

# --- the root: busybox, kfootprint and what it links, an inittab whose rcS notes the time ----------------
d=$t/root
mkdir -p "$d/bin" "$d/usr/bin" "$d/etc" "$d/proc" "$d/sys" "$d/dev" "$d/tmp" "$d/var/log" || exit 1
cp /bin/busybox "$d/bin/busybox" && ln -s busybox "$d/bin/sh" && cp "$kf" "$d/usr/bin/kfootprint" || exit 1
[ "$modes" = "plain kf" ] || cp "$kfmin" "$d/usr/bin/kfootprint-min" || exit 1
for l in $(ldd "$kf" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
	mkdir -p "$d$(dirname "$l")" && cp -L "$l" "$d$l" || exit 1
done
echo '::sysinit:/bin/sh /etc/rcS' >"$d/etc/inittab"
# rcS: the time, then (recorded) end the recording and wait for the footprint on the tmpfs, say its size
cat >"$d/etc/rcS" <<'EOS'
read up _ </proc/uptime
/bin/busybox mount -t tmpfs tmpfs /tmp
echo "<2>KF-BENCH-RCS: $up" >/dev/kmsg
if [ -e /proc/self/fd ] && grep -q kf.rec /proc/cmdline; then
	: >/tmp/kf-done
	n=0; until [ -s /tmp/boot.json ] || [ $n -ge 300 ]; do /bin/busybox usleep 100000; n=$((n + 1)); done
	echo "<2>KF-BENCH-JSON: $(/bin/busybox wc -c </tmp/boot.json 2>/dev/null)" >/dev/kmsg
fi
/bin/busybox poweroff -f
EOS
# --- initramfs root: the same files as the disk's, and an /init that mounts what Debian's would, then execs ---
if [ "$root" = initramfs ]; then
	r=$d
	cat >"$r/init" <<'EOS'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
read up _ </proc/uptime
echo "<2>KF-BENCH-PID1: $up" >/dev/kmsg
exec $(/bin/busybox sed -n 's/.*kf\.init=\([^ ]*\).*/\1/p' /proc/cmdline | /bin/busybox tr , ' ')
EOS
	chmod 755 "$r/init"
else
	# --- the initramfs: busybox, the modules that reach the disk, an /init that switch_roots -----------------
	r=$t/initrd
	mkdir -p "$r/bin" "$r/lib/modules" "$r/proc" "$r/sys" "$r/dev" "$r/root" && cp /bin/busybox "$r/bin/busybox" ||
		exit 1
	order=
	for m in kernel/drivers/virtio/virtio_pci.ko kernel/drivers/block/virtio_blk.ko kernel/fs/ext4/ext4.ko \
		kernel/crypto/crc32c_generic.ko; do
		line=$(grep "^$m:" "$mods/modules.dep") || { say "kernel $abi: no $m"; exit 0; }
		for dep in $(echo "${line#*:}" | awk '{ for (i = NF; i > 0; i--) print $i }') $m; do
			case " $order " in *" $dep "*) ;; *) order="$order $dep" ;; esac
		done
	done
	for m in $order; do cp "$mods/$m" "$r/lib/modules/" && echo "${m##*/}" >>"$r/modules"; done
	cat >"$r/init" <<'EOS'
#!/bin/busybox sh
# mount the ext4 root from /dev/vda and hand over to the init named by kf.init= on the kernel command line
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
for m in $(/bin/busybox cat /modules); do /bin/busybox insmod /lib/modules/$m; done
n=0
while [ ! -b /dev/vda ] && [ $n -lt 500 ]; do /bin/busybox usleep 10000; n=$((n + 1)); done
/bin/busybox mount -t ext4 -o ro /dev/vda /root || { echo "<2>KF-BENCH-ERROR: no root" >/dev/kmsg; /bin/busybox poweroff -f; }
/bin/busybox mount --move /proc /root/proc && /bin/busybox mount --move /sys /root/sys &&
	/bin/busybox mount --move /dev /root/dev
read up _ </root/proc/uptime
echo "<2>KF-BENCH-PID1: $up" >/root/dev/kmsg
init=$(/bin/busybox sed -n 's/.*kf\.init=\([^ ]*\).*/\1/p' /root/proc/cmdline | /bin/busybox tr , ' ')
exec /bin/busybox switch_root /root $init
EOS
	chmod 755 "$r/init"

	mke2fs -q -F -t ext4 -O ^has_journal,^metadata_csum -L kfroot -d "$d" "$t/root.img" 48M >/dev/null || exit 1
fi
(cd "$r" && find . | LC_ALL=C sort | busybox cpio -o -H newc >"$t/initrd.cpio" 2>/dev/null) || exit 1

# one MODE: a guest boot (plain: busybox init; kf: kfootprint boot, then busybox init), prints "pid1 rcs"
one() {
	case $1 in
	plain) init=/bin/busybox,init rec= ;;
	kf | kfmin)
		bin=/usr/bin/kfootprint
		[ "$1" = kf ] || bin=/usr/bin/kfootprint-min
		init=$bin,boot${KF_BENCH_VERBOSE:+,-v},-o,/tmp/boot.json,--until-file,/tmp/kf-done,--init,/bin/busybox,--,init
		rec=kf.rec ;;
	esac
	: >"$t/serial"
	timeout -k 5 300 qemu-system-x86_64 -nodefaults -no-user-config -display none -no-reboot -accel tcg -cpu max \
		${KF_BENCH_ICOUNT:+-icount shift=$KF_BENCH_ICOUNT,sleep=off} \
		-smp 1 -m 1024 -kernel "$boot" -initrd "$t/initrd.cpio" \
		-append "console=ttyS0 quiet loglevel=3 panic=-1 mitigations=off 8250.nr_uarts=1 kf.init=$init $rec" \
		-serial "file:$t/serial" $drive \
		</dev/null >"$t/qemu.log" 2>&1
	p=$(sed -n 's/.*KF-BENCH-PID1: \([0-9.]*\).*/\1/p' "$t/serial")
	c=$(sed -n 's/.*KF-BENCH-RCS: \([0-9.]*\).*/\1/p' "$t/serial")
	j=$(sed -n 's/.*KF-BENCH-JSON: \([0-9]*\).*/\1/p' "$t/serial")
	if [ -z "$p" ] || [ -z "$c" ] || { [ "$1" != plain ] && [ "${j:-0}" -lt 100 ]; }; then
		say "a $1 boot did not reach rcS${rec:+ with a footprint}: $(grep -v '^\s*$' "$t/serial" | tail -n2 | tr '\n' ' ')"
		return 1
	fi
	echo "# $1: PID 1 at $p s, rcS at $c s" >&2
	[ -z "${KF_BENCH_VERBOSE:-}" ] || grep -a '^kfootprint: ' "$t/serial" | grep -v libbpf >&2
	echo "$p $c"
}
: >"$t/plain" && : >"$t/kf" && : >"$t/kfmin"
# a round counts when all of its boots reached rcS (the host's load drifts: rounds are compared side by side)
for i in $(seq "$reps"); do
	row=
	for m in $modes; do
		b=$(one $m) || { row=; break; }
		row="$row $b"
	done
	[ -z "$row" ] || { echo "$row" >>"$t/pairs"; set -- $row; echo "$1 $2" >>"$t/plain"; echo "$3 $4" >>"$t/kf"
		[ $# -lt 6 ] || echo "$5 $6" >>"$t/kfmin"; }
	[ -s "$t/plain" ] || exit 0
done
for m in $modes; do
	awk '{ print $2 }' "$t/$m" >"$t/$m.rcs"
	awk '{ printf "%.3f\n", $2 - $1 }' "$t/$m" >"$t/$m.init"
done
p=$(median "$t/plain.rcs") pc=$(median "$t/plain.init")
where="a local ext4 disk (virtio-blk), cold page cache"
[ "$root" = disk ] || where="the initramfs (no disk)"
echo "kernel start to rcS, root on $where (6.1, TCG${KF_BENCH_ICOUNT:+, -icount shift=$KF_BENCH_ICOUNT}), median of $reps boots each"
printf '%-44s %8s %16s\n' "" "seconds" "PID 1 to rcS"
printf '%-44s %8.3f %16.3f\n' "busybox init" "$p" "$pc"
col=3
for m in $modes; do
	[ $m != plain ] || continue
	k=$(median "$t/$m.rcs") kc=$(median "$t/$m.init")
	what="kfootprint boot (full BTF), then busybox init"
	[ $m = kf ] || what="the same, minimal BTF (BTF_KERNELS)"
	printf '%-44s %8.3f %16.3f   (%.2fx, +%.3f s)\n' "$what" "$k" "$kc" \
		"$(awk -v a="$p" -v b="$k" 'BEGIN { print b / a }')" "$(awk -v a="$pc" -v b="$kc" 'BEGIN { print b - a }')"
	awk -v c=$col '{ print $(c + 1) / $2 }' "$t/pairs" >"$t/ratio"
	awk -v c=$col '{ printf "%.3f\n", ($(c + 1) - $c) - ($2 - $1) }' "$t/pairs" >"$t/added"
	printf '  round by round, median of %d: kernel start to rcS %.2fx, PID 1 to rcS +%.3f s\n' "$(wc -l <"$t/pairs")" \
		"$(median "$t/ratio")" "$(median "$t/added")"
	col=$((col + 2))
done
