#!/bin/sh
# Bad input to kfootprint map: one line "kfootprint: what: why" on stderr, nothing on stdout, exit status 1, no
# crash; with the ASan/UBSan build too when there is one.
. "$(dirname "$0")/../lib.sh"

mkdir -p "$T/notatree/kernel" "$T/half/kernel" "$T/half/arch/x86"
echo 'not a footprint {' >"$T/garbage.json"
echo '{"schema": "kfootprint/1", "syscalls": 7}' >"$T/wrongtype.json"
printf 'VERSION = 6\nPATCHLEVEL = 1\n' >"$T/half/Makefile"

# bad NAME WANT ARGS...: the run fails with exit 1 and a single "kfootprint: " line containing WANT
bad() {
	name=$1 want=$2; shift 2
	for bin in "$KF" ${KF_ASAN_BIN:-}; do
		[ -x "$bin" ] || continue
		tag=$name
		[ "$bin" = "$KF" ] || tag="$name (asan)"
		"$bin" map "$@" >"$T/out" 2>"$T/err"
		rc=$?
		lines=$(wc -l <"$T/err")
		if [ "$rc" -eq 1 ] && [ "$lines" -eq 1 ] && grep -q "^kfootprint: .*$want" "$T/err" && [ ! -s "$T/out" ]; then
			ok "$tag"
		else
			not_ok "$tag: exit $rc, $lines lines on stderr, stdout $(wc -c <"$T/out") bytes"
			sed 's/^/#   /' "$T/err" | head -5
		fi
	done
}

bad "missing footprint" "'$T/missing.json'" "$T/missing.json"
bad "garbage footprint" "'$T/garbage.json'" "$T/garbage.json"
bad "footprint of the wrong shape" "'$T/wrongtype.json'" "$T/wrongtype.json"
bad "--kernel-src not a kernel tree" "--kernel-src '$T/notatree'" --kernel-src "$T/notatree" --syscalls read
bad "--kernel-src missing" "--kernel-src '$T/nope'" --kernel-src "$T/nope" --syscalls read
bad "--kernel-src with a Makefile only" "--kernel-src '$T/half'" --kernel-src "$T/half" --no-cache --syscalls read
bad "--kernel-config missing" "--kernel-config '$T/nope.config'" --kernel-src "$T/half" --kernel-config "$T/nope.config" --syscalls read
bad "unknown syscall in --syscalls" "unknown syscall 'nosuchcall' for x86_64" --syscalls eventfd2,nosuchcall
bad "invalid syscall name" "invalid syscall name 'rm -rf'" --syscalls 'rm -rf'
bad "empty --syscalls" "no name given" --syscalls ,
bad "i386 name not in x86_64" "unknown syscall 'waitpid' for x86_64" --syscalls waitpid
bad "unknown --abi" "unknown ABI 'mips'" --abi mips --all-syscalls
bad "no built-in database for x32" "no built-in database for ABI 'x32'" --abi x32 --all-syscalls
bad "nothing to map" "nothing to map"
bad "two inputs" "give one of" --all-syscalls --syscalls read
bad "two footprints" "one footprint at a time" "$T/a.json" "$T/b.json"
bad "unknown format" "unknown format 'html'" -F html --all-syscalls
bad "--save-db without --kernel-src" "--save-db needs --kernel-src" --save-db "$T/db.json" --all-syscalls
bad "--db not a database" "--db '$T/garbage.json': not JSON" --db "$T/garbage.json" --all-syscalls
bad "--db with --kernel-src" "give --db or --kernel-src, not both" --db "$T/garbage.json" --kernel-src "$T/half" --all-syscalls
bad "unknown option" "unknown option '--frobnicate'" --frobnicate
bad "option without its value" "option '-F' needs a value" --all-syscalls -F
bad "-o into a missing directory" "'$T/no/dir/out.txt'" -o "$T/no/dir/out.txt" --syscalls read
eq "-o: nothing left behind" "" "$(ls "$T/no" 2>/dev/null)"

"$KF" record --map=html -- true >"$T/out" 2>"$T/err"
eq "record --map=html: exit 1" 1 $?
eq "record --map=html: one line" "kfootprint: unknown map format 'html': expected one of text, rst, json, kconfig, lcov" "$(cat "$T/err")"

"$KF" map --help >"$T/out" 2>"$T/err"
eq "--help: exit 0" 0 $?
eq "--help: usage on stdout" 1 "$(grep -c '^usage: kfootprint map' "$T/out")"
