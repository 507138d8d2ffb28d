#!/bin/sh
# A wrong kind of file given as a footprint, a map database or a .config is named by what it looks like (issue 23),
# not by the JSON reader's first complaint: "kfootprint: 'x.html': an HTML page (kfootprint report -F html?), not
# a footprint". Every command that reads a footprint (report, map, diff, merge, seccomp, inventory), map --db and
# --kernel-config / inventory --config; each file made by the real tool (kfootprint's own formats, strace, gzip,
# xz, zstd, a program): one line on stderr, exit status 1, nothing on stdout; with the ASan/UBSan build too.
. "$(dirname "$0")/../lib.sh"

"$KF" record -b ptrace -q -o "$T/fp.json" --report /dev/null -- true || { not_ok "a footprint to start from"; exit 0; }
"$KF" report -F html "$T/fp.json" >"$T/page.html"
"$KF" report -F text "$T/fp.json" >"$T/report.txt"
"$KF" report -F csv "$T/fp.json" >"$T/report.csv"
"$KF" report -F strace "$T/fp.json" >"$T/report.strace"
"$KF" seccomp -o "$T/seccomp.json" "$T/fp.json"
"$KF" map -F json -o "$T/map.json" "$T/fp.json" 2>/dev/null || "$KF" map -F json "$T/fp.json" >"$T/map.json"
"$KF" map -F kconfig "$T/fp.json" >"$T/fragment.config"
"$KF" diff -F json "$T/fp.json" "$T/fp.json" >"$T/diff.json"
gzip -c "$T/fp.json" >"$T/fp.json.gz"
xz -c "$T/fp.json" >"$T/fp.json.xz"
command -v zstd >/dev/null && zstd -q -c "$T/fp.json" >"$T/fp.json.zst"
printf '# Automatically generated file; DO NOT EDIT.\n# Linux/x86 6.1.0 Kernel Configuration\nCONFIG_X86=y\n' >"$T/dot.config"
if command -v strace >/dev/null; then
	strace -f -o "$T/strace.log" true
	strace -c -o "$T/strace-c.txt" true
fi

# bad NAME WANT COMMAND ARGS...: exit 1, nothing on stdout, one "kfootprint: " line on stderr ending as WANT
bad() {
	name=$1 want=$2; shift 2
	for bin in "$KF" ${KF_ASAN_BIN:-}; do
		[ -x "$bin" ] || continue
		tag=$name
		[ "$bin" = "$KF" ] || tag="$name (asan)"
		"$bin" "$@" >"$T/out" 2>"$T/err"
		rc=$?
		lines=$(wc -l <"$T/err")
		if [ "$rc" -eq 1 ] && [ "$lines" -eq 1 ] && [ "$(cat "$T/err")" = "kfootprint: $want" ] && [ ! -s "$T/out" ]; then
			ok "$tag"
		else
			not_ok "$tag: exit $rc, $lines lines on stderr, stdout $(wc -c <"$T/out") bytes"
			sed 's/^/#   /' "$T/err" | head -5
		fi
	done
}

# as a footprint, to report: each kind
fp() { bad "report: $1" "'$T/$1': $2, not a footprint" report "$T/$1"; }
fp page.html "an HTML page (kfootprint report -F html?)"
fp seccomp.json "an OCI seccomp profile (kfootprint seccomp's output?)"
fp map.json "a kfootprint map (kfootprint map -F json)"
fp diff.json "a kfootprint diff (kfootprint diff -F json)"
fp report.txt "a kfootprint text report (-o FILE or -F json saves the footprint)"
fp report.csv "a kfootprint CSV report (-F csv)"
fp report.strace "a strace -c table (strace -c, or kfootprint -F strace)"
fp fragment.config "a Kconfig fragment (kfootprint map -F kconfig)"
fp dot.config "a kernel .config"
fp fp.json.gz "a gzip file (zcat it first?)"
fp fp.json.xz "an xz file (xzcat it first?)"
[ -s "$T/fp.json.zst" ] && fp fp.json.zst "a zstd file (zstdcat it first?)"
if [ -s "$T/strace.log" ]; then
	fp strace.log "a strace log"
	fp strace-c.txt "a strace -c table (strace -c, or kfootprint -F strace)"
else
	skip "report: strace's own files" "no strace"
fi
cp /bin/true "$T/true"
fp true "an ELF file (a program: record it with kfootprint -- PROGRAM)"
# a pipe is named as a file is: the first bytes are kept as they stream through
"$KF" report - <"$T/page.html" >"$T/out" 2>"$T/err"
eq "report - of a page: exit 1, one line" "1 kfootprint: 'standard input': an HTML page (kfootprint report -F html?), not a footprint" \
	"$? $(cat "$T/err")"

# every other command that reads a footprint says the same
H="'$T/page.html': an HTML page (kfootprint report -F html?), not a footprint"
S="'$T/seccomp.json': an OCI seccomp profile (kfootprint seccomp's output?), not a footprint"
bad "map: a page" "$H" map "$T/page.html"
"$KF" diff "$T/fp.json" "$T/page.html" >"$T/out" 2>"$T/err"
eq "diff: a page as NEW: exit 2 (trouble), one line" "2 kfootprint: $H" "$? $(cat "$T/err")"
bad "merge: a page" "$H" merge -o "$T/m.json" "$T/fp.json" "$T/page.html"
bad "seccomp: a profile for a footprint" "$S" seccomp "$T/seccomp.json"
FIX="$KF_TOP/tests/fixtures"
bad "inventory: a profile for a footprint" "$S" inventory --kernel-src "$FIX/kinv-tree" --config "$FIX/kinv.config" \
	"$T/seccomp.json"

# a real footprint, cut short or of another schema version, is still told as one: the reader's own words
head -c 2000 "$T/fp.json" >"$T/cut.json"
"$KF" report "$T/cut.json" 2>"$T/err" >/dev/null
case $(cat "$T/err") in
"kfootprint: '$T/cut.json': not JSON: unexpected end of data"*) ok "a footprint cut short: the reader's own message" ;;
*) not_ok "a footprint cut short: $(cat "$T/err")" ;;
esac

# the map database and the kernel configuration
bad "map --db: a footprint" "--db '$T/fp.json': a footprint, not a map database (kfootprint map --save-db)" \
	map --db "$T/fp.json" --syscalls read
bad "map --db: a page" "--db '$T/page.html': an HTML page (kfootprint report -F html?), not a map database (kfootprint map --save-db)" \
	map --db "$T/page.html" --syscalls read
mkdir -p "$T/tree"
bad "map --kernel-config: a footprint" "--kernel-config '$T/fp.json': a footprint, not a kernel .config" \
	map --kernel-src "$T/tree" --kernel-config "$T/fp.json" --syscalls read
gzip -c "$T/page.html" >"$T/page.html.gz"
bad "map --kernel-config: a page, gzip'd" \
	"--kernel-config '$T/page.html.gz': an HTML page (kfootprint report -F html?), not a kernel .config" \
	map --kernel-src "$T/tree" --kernel-config "$T/page.html.gz" --syscalls read
bad "inventory --config: a profile" \
	"--config '$T/seccomp.json': an OCI seccomp profile (kfootprint seccomp's output?), not a kernel .config" \
	inventory --kernel-src "$FIX/kinv-tree" --config "$T/seccomp.json"
