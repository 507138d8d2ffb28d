#!/bin/sh
# BTF_KERNELS (Makefile, docs/bpf.md): the build cuts a minimal BTF from each FILE and embeds it with that kernel's
# notes. Bad input fails the build with one line naming the file: a missing file, an ELF without .BTF, a raw BTF
# without its notes beside it, a file with no BTF at all. A raw BTF with its notes builds, and the build kernel
# still takes its own minimal BTF first. (The guest suite, tests/guest/t/bpf61.sh, loads one in the 6.1 guest.)
# Each case is `make btf-build` into a directory of its own: the loader and the link only, a second or two.
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1

if [ ! -x "$KF" ] || ! "$KF" record -b '?' -- true 2>&1 | grep -q bpf; then
	skip "BTF_KERNELS" "$KF_BUILD/kfootprint is not built with the bpf backend"
	exit 0
fi

# fails NAME FILE WHY: make btf-build BTF_KERNELS=FILE fails, with one kfootprint line naming FILE and saying WHY
fails() {
	make --no-print-directory -s BUILD="$KF_BUILD" BTF_BUILD="$T/b" BTF_KERNELS="$2" btf-build >"$T/out" 2>&1
	rc=$?
	lines=$(grep -c '^kfootprint: ' "$T/out")
	if [ "$rc" -ne 0 ] && [ "$lines" = 1 ] && grep -q "^kfootprint: BTF_KERNELS: '$2': .*$3" "$T/out" &&
		[ ! -e "$T/b/kfootprint" ]; then
		ok "$1: the build fails with one line naming it"
	else
		not_ok "$1: exit $rc, $lines kfootprint lines"
		sed 's/^/#   /' "$T/out" | tail -n 5
	fi
}
fails "a missing file" "$T/missing/vmlinux" "no such file"
fails "an ELF without .BTF (/bin/true)" /bin/true "without a .BTF section"
cp /sys/kernel/btf/vmlinux "$T/raw.btf"
fails "a raw BTF without FILE.notes" "$T/raw.btf" "no '$T/raw.btf.notes' beside it"
echo "not BTF" >"$T/text"
echo "notes" >"$T/text.notes"
fails "a file with no BTF" "$T/text" "no BTF to cut"

# A raw BTF with its notes: this kernel's, so the build kernel's own entry still matches first (it alone
# carries the kfunc ids of kf_sys_exit_cast), and the other entry is in the binary.
cp /sys/kernel/notes "$T/raw.btf.notes"
check "a raw BTF with FILE.notes builds" \
	make --no-print-directory -s BUILD="$KF_BUILD" BTF_BUILD="$T/b" BTF_KERNELS="$T/raw.btf" btf-build
check "its entry is in the binary" grep -q "$T/raw.btf" "$T/b/kfootprint"
if bpf_or_skip "bpf with BTF_KERNELS"; then
	"$T/b/kfootprint" record -b bpf -v --report /dev/null -- true 2>"$T/v.err"
	check "-v: the build kernel's minimal BTF first" grep -q 'the build kernel: CO-RE against its minimal BTF' "$T/v.err"
fi
# BTF_KERNELS left $KF_BUILD's own binary as it was (btf-build keeps it without)
eq "$KF_BUILD/kfootprint has no BTF_KERNELS entry" 0 "$(grep -c "$T/raw.btf" "$KF")"
