#!/bin/sh
# kfootprint qemu: a kernel (Debian's 6.1, from the guest harness's cache) and an initramfs holding only a static
# /init of known syscalls (tests/guest/seq_init.c) booted under QEMU on this machine; PID 1's calls must be
# exactly those, by each method. Bad input costs no boot. The guest that never powers off (-d ends it): qemu_hang.sh.
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1

# Bad input: one line each, exit 1, no boot.
echo 'not a kernel' >"$T/notakernel"
: >"$T/empty"
printf 'init\n' >"$T/dummy.cpio"
one_line() { # NAME PATTERN COMMAND...: exit $want_rc (default 1) and one line matching PATTERN
	name=$1 pat=$2
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "${want_rc:-1}" ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q "$pat"; then
		ok "$name"
	else
		not_ok "$name: exit $rc: $out"
	fi
}
one_line "missing kernel" "^kfootprint: qemu: --kernel '$T/nokernel': No such file" \
	"$KF" qemu --kernel "$T/nokernel" --initrd "$T/dummy.cpio"
one_line "empty kernel" "^kfootprint: qemu: --kernel '$T/empty': not a regular file with content" \
	"$KF" qemu --kernel "$T/empty" --initrd "$T/dummy.cpio"
one_line "no initrd" "^kfootprint: no initramfs: give --initrd" "$KF" qemu --kernel "$T/notakernel"
one_line "unknown method" "^kfootprint: unknown --method 'x': expected one of tracepoint, gdb" \
	"$KF" qemu --kernel "$T/notakernel" --initrd "$T/dummy.cpio" --method x
# The wrong architecture: a usage error (exit 2), known from the kernel's header before anything runs. The headers
# are the real formats' (the x86 boot protocol's "HdrS" at 0x202, arm64's "ARM\x64" at 0x38, ELF's e_machine).
python3 - "$T" <<'PY'
import sys
t = sys.argv[1]
bz = bytearray(4096); bz[0x1fe:0x200] = b"\x55\xaa"; bz[0x202:0x206] = b"HdrS"
open(t + "/bzImage", "wb").write(bz)
img = bytearray(4096); img[0x38:0x3c] = b"ARM\x64"
open(t + "/Image", "wb").write(img)
elf = bytearray(4096); elf[0:5] = b"\x7fELF\x02"; elf[18:20] = (62).to_bytes(2, "little")
open(t + "/vmlinux", "wb").write(elf)
PY
gzip -c "$T/Image" >"$T/Image.gz"
want_rc=2 one_line "unknown --arch: exit 2" "^kfootprint: unknown --arch 'mips': expected one of x86_64, aarch64\$" \
	"$KF" qemu --kernel "$T/bzImage" --initrd "$T/dummy.cpio" --arch mips
want_rc=2 one_line "a bzImage with --arch aarch64: exit 2" \
	"^kfootprint: qemu: --kernel '$T/bzImage': an x86_64 kernel (a bzImage), not an aarch64 one: give --arch x86_64\$" \
	"$KF" qemu --kernel "$T/bzImage" --initrd "$T/dummy.cpio" --arch aarch64
want_rc=2 one_line "an x86_64 vmlinux with --arch aarch64: exit 2" \
	"^kfootprint: qemu: --kernel '$T/vmlinux': an x86_64 kernel (an ELF vmlinux), not an aarch64 one: give --arch x86_64\$" \
	"$KF" qemu --kernel "$T/vmlinux" --initrd "$T/dummy.cpio" --arch aarch64 --method gdb
want_rc=2 one_line "an arm64 Image.gz without --arch: exit 2" \
	"^kfootprint: qemu: --kernel '$T/Image.gz': an aarch64 kernel (an arm64 Image), not an x86_64 one: give --arch aarch64\$" \
	"$KF" qemu --kernel "$T/Image.gz" --initrd "$T/dummy.cpio"
one_line "aarch64, QEMU absent" "^kfootprint: qemu: qemu-system-aarch64 not found in PATH: install it (Debian: qemu-system-arm)" \
	env PATH=/nonexistent "$KF" qemu --kernel "$T/Image" --initrd "$T/dummy.cpio" --arch aarch64
one_line "QEMU absent" "^kfootprint: qemu: qemu-system-x86_64 not found in PATH: install it (Debian: qemu-system-x86)" \
	env PATH=/nonexistent "$KF" qemu --kernel "$T/notakernel" --initrd "$T/dummy.cpio"

if ! command -v qemu-system-x86_64 >/dev/null; then
	skip "qemu boots" "qemu-system-x86_64 is not installed (make deps installs qemu-system-x86)"
	exit 0
fi
one_line "non-bootable kernel: QEMU's reason" "^kfootprint: qemu: '$T/notakernel': QEMU cannot boot it: .*kernel" \
	"$KF" qemu --kernel "$T/notakernel" --initrd "$T/dummy.cpio" -d 30

# The kernel: the guest harness's (tests/guest/README.md), fetched by a boot cut short when not cached yet.
cache=${KF_GUEST_CACHE:-/var/cache/kfootprint/guest}
kernel=$(ls "$cache"/kernel-6.1.*/vmlinux 2>/dev/null | sort -V | tail -n1)
if [ -z "$kernel" ]; then
	tests/guest/run --timeout 1 -- true >/dev/null 2>&1
	kernel=$(ls "$cache"/kernel-6.1.*/vmlinux 2>/dev/null | sort -V | tail -n1)
fi
if [ -z "$kernel" ]; then
	skip "qemu boots" "no Debian 6.1 kernel in $cache (tests/guest/run could not fetch one: not root, or no apt)"
	exit 0
fi

# The initramfs: /init alone (the kernel opens no console without /dev/console: the calls stay the same).
mkinitrd() { # OUT [CFLAGS]: an initramfs of seq_init.c built with CFLAGS
	mkdir -p "$T/r$$" && gcc -static -nostdlib -O1 -fno-stack-protector -fno-pie -no-pie ${2:-} -o "$T/r$$/init" \
		tests/guest/seq_init.c && (cd "$T/r$$" && echo init | busybox cpio -o -H newc >"$1" 2>/dev/null) &&
		rm -rf "$T/r$$"
}
mkinitrd "$T/seq.cpio" || { not_ok "a static /init builds"; exit 0; }

. tests/guest/seq_expect.sh
calls_of_pid1() { seq_calls_of_pid1 "$1"; }
want=$SEQ_WANT

# The gdb method's symbols: a /proc/kallsyms dump of the same kernel booted nokaslr (Debian's vmlinux has no
# symbol table), made once by a guest boot and kept next to the kernel.
ks=$(dirname "$kernel")/kallsyms.nokaslr
if [ ! -s "$ks" ]; then
	tests/guest/run --append nokaslr -- cat /proc/kallsyms >"$T/kallsyms" 2>"$T/kallsyms.err" &&
		grep -q ' T do_syscall_64$' "$T/kallsyms" && cp "$T/kallsyms" "$ks.$$" && mv "$ks.$$" "$ks"
fi
want_rc=2 one_line "Debian's amd64 kernel with --arch aarch64: exit 2" "an x86_64 kernel (an ELF vmlinux), not an aarch64 one" \
	"$KF" qemu --kernel "$kernel" --initrd "$T/dummy.cpio" --arch aarch64
[ -s "$ks" ] || not_ok "a kallsyms dump of the guest kernel: $(tail -n1 "$T/kallsyms.err" 2>/dev/null)"

for method in tracepoint gdb; do
	if "$KF" qemu --kernel "$kernel" --initrd "$T/seq.cpio" --method $method --kallsyms "$ks" -d 300 \
		-o "$T/$method.json" --report "$T/$method.txt" 2>"$T/$method.err"; then
		eq "$method: PID 1 made exactly the calls of /init" "$want" "$(calls_of_pid1 "$T/$method.json" 2>&1)"
	else
		not_ok "$method: kfootprint qemu failed: $(cat "$T/$method.err")"
	fi
done
# the gdb method says what its observations are, in the seed's words
check "gdb: entry observations, said" grep -q "these are entry observations, not decoded arguments or syscall results: 9 calls seen at do_syscall_64, 8 results read at its return; GDB threads in QEMU represent vCPUs, not Linux tasks" "$T/gdb.err"
one_line "gdb: no symbols in Debian's ELF vmlinux: one line" "no symbol table (Debian's vmlinux has none): give --kallsyms" \
	"$KF" qemu --kernel "$kernel" --initrd "$T/seq.cpio" --method gdb

# The gdb method with the kernel and the initramfs alone: Debian's bzImage, whose vmlinux (stripped) has BTF but no
# symbols; kfootprint reads the BTF from the bzImage and the symbols from a probe boot of its own, cached by the
# kernel's hash (src/qemu/probe.c): the first run of the suite boots twice, later ones once.
bz=$(dirname "$kernel")/vmlinuz
if [ -s "$bz" ]; then
	for n in 1 2; do
		"$KF" qemu -v --kernel "$bz" --initrd "$T/seq.cpio" --method gdb -d 300 -o "$T/bz$n.json" --report /dev/null \
			2>"$T/bz$n.err"
		rc=$?
		eq "gdb, bzImage alone, run $n: exit 0, PID 1 made exactly the calls of /init" "0 $want" "$rc $(calls_of_pid1 "$T/bz$n.json" 2>&1)"
	done
	check "gdb, bzImage alone: the symbols from a probe boot, or from its cache" \
		grep -Eq "the kernel's symbols from (a probe boot|the cache '/var/cache/kfootprint/kallsyms/[0-9a-f]{64}.kallsyms')" "$T/bz1.err"
	check "gdb, bzImage alone: the second run boots once (from the cache)" \
		grep -q "the kernel's symbols from the cache .*: no probe boot" "$T/bz2.err"
	c=/var/cache/kfootprint/kallsyms/$(sha256sum "$bz" | cut -d' ' -f1).kallsyms
	eq "gdb, bzImage alone: the cache is root's, private" "root 700 root 600" "$(stat -c '%U %a' "$(dirname "$c")") $(stat -c '%U %a' "$c")"
	# the probe's lines against the kallsyms of the same kernel booted nokaslr, dumped through the guest harness
	eq "gdb, bzImage alone: the probe's symbols are the nokaslr boot's" \
		"$(grep -E ' (kernel_init|do_syscall_64|current_task)$' "$ks" | sort)" "$(sort "$c")"
else
	skip "gdb, bzImage alone" "no vmlinuz beside $kernel"
fi
