#!/bin/sh
# kfootprint tailor in make check: the builder's configuration stage on the real tree (build/tests/test_tailor_kbuild
# with KF_KSRC), and bad input, each one line and exit 1 with nothing written: no -o, no footprint, a footprint
# of another ABI, a --kernel-src that is not a tree. The whole loop (a kernel build of minutes, boots under TCG)
# is in make check-long (tests/long/tailor.sh).
. "$(dirname "$0")/../lib.sh"

bin="$KF_TOP/$KF_BUILD/tests/test_tailor_kbuild"

# one line, exit 1, the output directory not made: NAME EXPECTED-WORDS ARGS...
refused() {
	name=$1 words=$2
	shift 2
	rm -rf "$T/out"
	"$KF" tailor "$@" >"$T/so" 2>"$T/se"
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$T/se")" -eq 1 ] && grep -q "^kfootprint: .*$words" "$T/se" && [ ! -e "$T/out" ]; then
		ok "tailor: $name"
	else
		not_ok "tailor: $name: exit $rc, stderr: $(head -c 300 "$T/se")"
	fi
}
"$KF" -q -b ptrace -o "$T/true.json" --report /dev/null -- true || not_ok "tailor: recording true"
refused "no -o" "give -o DIR" "$T/true.json"
refused "no footprint" "no footprint" -o "$T/out"
refused "a missing footprint" "missing.json" -o "$T/out" "$T/missing.json"
refused "a footprint of i386 calls" "i386 calls" -o "$T/out" "$KF_TOP/tests/fuzz/corpus/odd.json"
refused "a --kernel-src that is no tree" "not a kernel tree" -o "$T/out" --kernel-src /usr/share "$T/true.json"
refused "--rounds 0" "rounds" -o "$T/out" --rounds 0 "$T/true.json"
refused "--stdout-mask that is no expression" "stdout-mask 'a(b': " -o "$T/out" --stdout-mask 'a(b' "$T/true.json"
refused "--stdout-mask matching nothing at all" "matches the empty string" -o "$T/out" --stdout-mask 'x*' \
	"$T/true.json"
refused "--stdout-mask with --measure" "is for a re-test" -o "$T/out" --stdout-mask x --measure kcov
# several footprints: each is checked before anything is built, and each re-runs its own command
refused "a second footprint missing" "missing.json" -o "$T/out" "$T/true.json" "$T/missing.json"
refused "a second footprint of i386 calls" "odd.json.*i386 calls" -o "$T/out" "$T/true.json" \
	"$KF_TOP/tests/fuzz/corpus/odd.json"
refused "-- COMMAND with two footprints" "each of 2 footprints re-runs its own" -o "$T/out" "$T/true.json" \
	"$T/true.json" -- ls /
refused "options after the footprint, then -- COMMAND" "missing.json" "$T/missing.json" -o "$T/out" -- ls /
# a tree whose top Makefile says a version but that has no Kconfig
mkdir -p "$T/nokconfig"
printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$T/nokconfig/Makefile"
refused "a tree without Kconfig" "not a kernel tree" -o "$T/out" --kernel-src "$T/nokconfig" "$T/true.json"

[ -x "$bin" ] || { not_ok "tailor: $bin is not built (make unit)"; exit 0; }
if ! src=$(ksrc_tree); then
	skip tailor_kbuild "$KSRC_TARBALL is missing (apt-get install linux-source-6.1)"
	exit 0
fi
# a full disk under the cache: one line, nothing left half-made in the cache nor in -o
if [ "$(id -u)" -ne 0 ]; then
	skip "tailor: a full cache" "needs root to mount a tmpfs"
elif mkdir -p "$T/full" && trap 'umount "$T/full" 2>/dev/null || umount -l "$T/full" 2>/dev/null; rm -rf "$T"' EXIT &&
	mount -t tmpfs -o size=64k kf-tailor-full "$T/full" 2>"$T/mount.err"; then
	KF_TAILOR_CACHE=$T/full/cache refused "a full disk under the cache" "No space left on device" -o "$T/out" \
		--kernel-src "$src" "$T/true.json"
	eq "a full disk: the cache holds no half-made kconfig or build" "" \
		"$(find "$T/full/cache" -mindepth 1 ! -name '*.lock' ! -empty 2>/dev/null)"
	umount "$T/full" 2>/dev/null || umount -l "$T/full"
else
	skip "tailor: a full cache" "cannot mount a tmpfs: $(cat "$T/mount.err")"
fi
KF_KSRC=$src CMOCKA_MESSAGE_OUTPUT=TAP "$bin" >"$T/kbuild.out" 2>&1
rc=$?
sed -e '/^1\.\./d' -e 's/^\(not \)\{0,1\}ok [0-9]* - /&tailor_/' "$T/kbuild.out" | grep -E '^(not )?ok'
[ "$rc" -eq 0 ] || { not_ok "tailor: test_tailor_kbuild exited $rc"; tail -n 20 "$T/kbuild.out" | sed 's/^/#   /'; }
