#!/bin/sh
# The ELF vmlinux inside a bzImage (src/qemu/bzimage.c), which kfootprint qemu --method gdb reads for its BTF:
# the unit test (build/tests/test_bzimage) on Debian's 6.1 vmlinuz against the vmlinux the kernel's own
# scripts/extract-vmlinux makes of it (from the linux-source-6.1 tree; else the guest harness's, made by xz);
# bad input to kfootprint qemu, one line each and no boot: no bzImage, one cut short, a corrupt payload, a
# payload in a format it does not decompress; and a short libFuzzer run of the extractor from bzImages made here.
. "$(dirname "$0")/../lib.sh"

cache=${KF_GUEST_CACHE:-/var/cache/kfootprint/guest}
bz=$(ls "$cache"/kernel-6.1.*/vmlinuz 2>/dev/null | sort -V | tail -n1)
if [ -z "$bz" ] && [ "$(id -u)" = 0 ] && command -v qemu-system-x86_64 >/dev/null; then
	(cd "$KF_TOP" && tests/guest/run --timeout 1 -- true >/dev/null 2>&1)
	bz=$(ls "$cache"/kernel-6.1.*/vmlinuz 2>/dev/null | sort -V | tail -n1)
fi

# --- Debian's bzImage: byte for byte what extract-vmlinux gives ---
if [ -z "$bz" ]; then
	skip "Debian's bzImage" "no Debian 6.1 kernel in $cache (tests/guest/run fetches it: root and apt)"
else
	if src=$(ksrc_tree) && [ -x "$src/scripts/extract-vmlinux" ] && command -v readelf >/dev/null; then
		sh "$src/scripts/extract-vmlinux" "$bz" >"$T/vmlinux" 2>"$T/extract.err"
		oracle="scripts/extract-vmlinux"
	else
		cp "$(dirname "$bz")/vmlinux" "$T/vmlinux" 2>/dev/null
		oracle="tests/guest/run's xz"
	fi
	if [ -s "$T/vmlinux" ]; then
		CMOCKA_MESSAGE_OUTPUT=TAP KF_BZIMAGE=$bz KF_VMLINUX=$T/vmlinux "$KF_TOP/$KF_BUILD/tests/test_bzimage" >"$T/unit" 2>&1
		rc=$?
		eq "Debian's bzImage ($(basename "$bz")): the ELF vmlinux $oracle makes of it" "0 1" \
			"$rc $(grep -c '^ok [0-9]* - test_real$' "$T/unit")"
	else
		not_ok "Debian's bzImage: $oracle made no vmlinux: $(head -1 "$T/extract.err")"
	fi
fi

# --- bad input: one line each, exit 1, no boot (the symbols from a kallsyms file: the BTF is the kernel's) ---
printf '%s\n' 'ffffffff81000000 T kernel_init' 'ffffffff81000010 T do_syscall_64' '0000000000001000 A current_task' >"$T/ks"
printf 'init\n' >"$T/dummy.cpio"
bad() { # NAME KERNEL PATTERN
	out=$("$KF" qemu --method gdb --kernel "$2" --initrd "$T/dummy.cpio" --kallsyms "$T/ks" -d 5 2>&1)
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && printf '%s\n' "$out" | grep -q "$3"; then
		ok "bad input: $1"
	else
		not_ok "bad input: $1: exit $rc: $out"
	fi
}
python3 - "$T" <<'PY'
import gzip, lzma, struct, sys
t = sys.argv[1]
elf = b"\x7fELF\x02\x01\x01" + bytes((i * 7 + i // 13) & 255 for i in range(4089))
def bzimage(payload, size, version=0x20f):
    img = bytearray(3 * 512 + 16)
    img[0x1f1] = 2
    img[0x1fe:0x200] = b"\x55\xaa"
    img[0x202:0x206] = b"HdrS"
    img[0x206:0x208] = struct.pack("<H", version)
    img[0x248:0x250] = struct.pack("<II", 16, len(payload) + 4)
    return bytes(img) + payload + struct.pack("<I", size) + bytes(64)
xz = lzma.compress(elf, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32)
for name, data in {
    "xz": bzimage(xz, len(elf)),
    "gzip": bzimage(gzip.compress(elf), len(elf)),
    "alone": bzimage(lzma.compress(elf, format=lzma.FORMAT_ALONE), len(elf)),
    "corrupt": bzimage(xz[:len(xz) // 2] + bytes([xz[len(xz) // 2] ^ 0x55]) + xz[len(xz) // 2 + 1:], len(elf)),
    "zstd": bzimage(b"\x28\xb5\x2f\xfd" + bytes(60), 4096),
    "unknown": bzimage(b"nope" + bytes(60), 4096),
}.items():
    open("%s/%s.bz" % (t, name), "wb").write(data)
open(t + "/short.bz", "wb").write(bzimage(xz, len(elf))[:3 * 512 + 100])
PY
if [ -n "$bz" ]; then
	head -c 4000000 "$bz" >"$T/cut.bz"
	bad "Debian's bzImage cut short" "$T/cut.bz" "^kfootprint: qemu: '$T/cut.bz': truncated: its header puts a [0-9]*-byte payload at [0-9]*, the file has 4000000 bytes$"
fi
bad "a bzImage cut in its payload" "$T/short.bz" "^kfootprint: qemu: '$T/short.bz': truncated: its header puts a [0-9]*-byte payload at 1552, the file has 1636 bytes$"
bad "a corrupt xz payload" "$T/corrupt.bz" "^kfootprint: qemu: '$T/corrupt.bz': its xz payload: cut short or corrupt$"
bad "a zstd payload" "$T/zstd.bz" "^kfootprint: qemu: '$T/zstd.bz': its zstd payload: a format this kfootprint cannot decompress: give --vmlinux"
bad "no known compression" "$T/unknown.bz" "^kfootprint: qemu: '$T/unknown.bz': the payload at 1552 is in no compression format known"
echo 'not a kernel' >"$T/text"
bad "not a bzImage" "$T/text" "^kfootprint: qemu: '$T/text': no BTF in it: give --vmlinux"

# --- a short libFuzzer run from the bzImages above ---
if ! command -v clang >/dev/null 2>&1; then
	skip "fuzz: bzImage extractor" "clang is not installed (make deps installs it)"
elif ! flock "$KF_TOP/$KF_BUILD/.fuzz-build.lock" make -s --no-print-directory -C "$KF_TOP" BUILD="$KF_BUILD" "$KF_BUILD/fuzz/fuzz_bzimage" >"$T/build.log" 2>&1; then
	skip "fuzz: bzImage extractor" "the harness does not build (libclang-rt-14-dev?): $(grep -m1 -i error "$T/build.log")"
else
	# and the inputs it once failed on (tests/fuzz/bzimage-regress: an lzma header asking a 4 GiB dictionary)
	mkdir "$T/corpus" && cp "$T"/*.bz "$KF_TOP"/tests/fuzz/bzimage-regress/* "$T/corpus/" && rm -f "$T/corpus/cut.bz"
	if "$KF_TOP/$KF_BUILD/fuzz/fuzz_bzimage" -runs=20000 -seed=1 -max_len=8192 -timeout=10 -rss_limit_mb=1024 \
		-close_fd_mask=2 -artifact_prefix="$T/" "$T/corpus" >"$T/fuzz.log" 2>&1; then
		ok "fuzz: bzImage extractor, 20000 inputs, no crash or leak ($(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$T/fuzz.log"))"
	else
		not_ok "fuzz: the bzImage extractor failed on an input (kept in $KF_BUILD/fuzz/)"
		cp "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$T"/oom-* "$KF_TOP/$KF_BUILD/fuzz/" 2>/dev/null
		grep -v '^#[0-9]' "$T/fuzz.log" | tail -n 30 | sed 's/^/#   /'
	fi
fi
