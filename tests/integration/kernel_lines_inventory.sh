#!/bin/sh
# inventory --lines on the stand-in of kernel_lines.sh (a -g program for the vmlinux, a footprint of kcov PCs in
# its functions): the compiled lines against binutils' own reading of the line table (objdump's decoded lines,
# distinct file:line), the covered ones against addr2line on the footprint's PCs, per file, directory and in
# total; the #ifdef block and error path as candidates with the caution; bad input in one line.
. "$(dirname "$0")/../lib.sh"

for t in gcc nm objdump addr2line readelf; do
	if ! command -v $t >/dev/null 2>&1; then
		skip kernel_lines_inventory "no $t to build or read the fixture"
		exit 0
	fi
done
(cd "$KF_TOP" && gcc -O0 -g -DCONFIG_KL_FIXTURE -o "$T/wl" tests/workloads/wl_klines.c) || {
	not_ok "inventory --lines: the fixture builds"
	exit 0
}
BID=$(readelf -n "$T/wl" | awk '/Build ID/ { print $3 }')
SLIDE=0x3a00000
$PY "$KF_TOP/tests/integration/kernel_lines_fp.py" "$T/wl" "$T/fp.json" $SLIDE "$BID" ||
	not_ok "inventory --lines: the footprint is made"
F=tests/workloads/wl_klines.c

# independent counts: objdump's decoded line table (name as the unit gives it, line > 0), addr2line of pc - 1
COMPILED=$(objdump --dwarf=decodedline "$T/wl" |
	awk '$1 == "wl_klines.c" && $2 ~ /^[0-9]+$/ && $2 > 0 { print $2 }' | sort -un | wc -l)
COVERED=$($PY -c "
import json
for p in json.load(open('$T/fp.json'))['kernel_lines']['pcs']:
    print(hex(int(p['pc'], 16) - $SLIDE - 1))" | addr2line -e "$T/wl" | grep -v '?' | sort -u | wc -l)
[ "$COMPILED" -gt "$COVERED" ] && [ "$COVERED" -gt 0 ] && ok "inventory --lines: binutils count $COMPILED compiled, $COVERED covered" ||
	not_ok "inventory --lines: binutils count: $COMPILED compiled, $COVERED covered"

"$KF" inventory --lines --vmlinux "$T/wl" --source-root "$KF_TOP" -F json -o "$T/inv.json" "$T/fp.json"
eq "inventory --lines -F json: exit status" 0 "$?"
numbers() { # the totals, the file's and its directory's: "compiled covered" each
	$PY - "$T/inv.json" "$F" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["files"] if x["path"] == sys.argv[2]][0]
g = [x for x in d["directories"] if x["name"] == "tests/workloads"][0]
print(d["compiled_lines"], d["covered_lines"], f["compiled"], f["covered"], g["compiled"], g["covered"])
PY
}
eq "inventory --lines: compiled and covered lines in total, of the file, of its directory" \
	"$COMPILED $COVERED $COMPILED $COVERED $COMPILED $COVERED" "$(numbers)"
L_IFDEF=$(grep -n '#ifdef CONFIG_KL_FIXTURE' "$KF_TOP/$F" | head -n 1 | cut -d: -f1)
L_EBADF=$(grep -n 'return -EBADF' "$KF_TOP/$F" | head -n 1 | cut -d: -f1)
check "inventory --lines: json candidates: the #ifdef block, the EBADF path, the caution" $PY -c "
import json, sys
c = json.load(open('$T/inv.json'))['review_candidates']
b = [x for x in c['blocks'] if x['candidate']]
e = c['error_paths_not_taken']
sys.exit(0 if [(x['configs'], x['first']) for x in b] == [('KL_FIXTURE', $L_IFDEF + 1)]
         and [x['line'] for x in e] == [$L_EBADF] and c['caution'].startswith('a review candidate, not proof') else 1)"

"$KF" inventory --lines --vmlinux "$T/wl" --source-root "$KF_TOP" "$T/fp.json" "$T/fp.json" >"$T/inv.txt"
eq "inventory --lines text, two footprints merged: exit status" 0 "$?"
check "inventory --lines: the totals (the same lines, merged)" \
	grep -q "^compiled lines: $COMPILED in 1 files (distinct file:line of the DWARF line table: kernel-sloc dwarf); covered $COVERED " "$T/inv.txt"
check "inventory --lines: the file's row" grep -Eq "^  $F +$COMPILED +$COVERED " "$T/inv.txt"
check "inventory --lines: the #ifdef block is a candidate" \
	grep -q "candidate KL_FIXTURE  *#ifdef block $F:$((L_IFDEF + 1))-$((L_IFDEF + 2)): 2 compiled lines, never entered" "$T/inv.txt"
check "inventory --lines: the EBADF path is a candidate" grep -q "candidate error path $F:$L_EBADF in kl_error_path" "$T/inv.txt"
check "inventory --lines: with the caution" grep -q "review candidates at line level (a review candidate, not proof" "$T/inv.txt"

# bad input: one line, non-zero, nothing written
one_line() { # NAME EXPECTED-TEXT ARGS...: exit 1, one line on stderr holding the text, no output file
	name=$1 want=$2
	shift 2
	rm -f "$T/bad.out"
	"$KF" inventory --lines -o "$T/bad.out" "$@" 2>"$T/err"
	eq "inventory --lines: $name: exit status" 1 "$?"
	check "inventory --lines: $name: one line, nothing written" sh -c \
		"[ \$(wc -l <'$T/err') -eq 1 ] && grep -q '$want' '$T/err' && [ ! -e '$T/bad.out' ]"
}
one_line "no --vmlinux" "needs --vmlinux" "$T/fp.json"
$PY -c "
import json
d = json.load(open('$T/fp.json')); del d['kernel_lines']
json.dump(d, open('$T/nolines.json', 'w'))"
one_line "a footprint without kernel lines" "nolines.json.: no kernel lines" --vmlinux "$T/wl" "$T/fp.json" "$T/nolines.json"
one_line "no footprint" "needs footprints" --vmlinux "$T/wl"
one_line "csv" "not one of text, json" -F csv --vmlinux "$T/wl" "$T/fp.json"
