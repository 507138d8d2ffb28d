#!/bin/sh
# Kernel lines without a kernel build: a program built here with -g (tests/workloads/wl_klines.c) stands for the
# measurement vmlinux (the same libdw code path) and a footprint whose kcov PCs are addresses of its functions
# plus a made-up KASLR slide (kernel_lines_fp.py). map --vmlinux symbolizes them: the covered function's lines, the
# inlined one's lines under its own name, the error path of the other function not covered, and with the source
# its #ifdef block and error path as line-level review candidates; -F lcov read by
# Debian's lcov --summary and genhtml; the build-id refusal; the saved footprint read back, reported and merged.
. "$(dirname "$0")/../lib.sh"

SRC="$KF_TOP/tests/workloads/wl_klines.c"
if ! command -v gcc >/dev/null 2>&1 || ! command -v nm >/dev/null 2>&1; then
	skip kernel_lines "no gcc or nm to build the fixture"
	exit 0
fi
# -O0: a line-table row for every statement, the inlined function's included
(cd "$KF_TOP" && gcc -O0 -g -DCONFIG_KL_FIXTURE -o "$T/wl" tests/workloads/wl_klines.c) || {
	not_ok "kernel lines: the fixture builds"
	exit 0
}
BID=$(readelf -n "$T/wl" | awk '/Build ID/ { print $3 }')
line() { grep -n "$1" "$SRC" | head -n 1 | cut -d: -f1; }
L_TWICE=$(line 'return 2 \* x')
L_EBADF=$(line 'return -EBADF')
$PY "$KF_TOP/tests/integration/kernel_lines_fp.py" "$T/wl" "$T/fp.json" 0x3a00000 "$BID" ||
	not_ok "kernel lines: the footprint is made"

"$KF" map --vmlinux "$T/wl" --save-lines "$T/lines.json" -F json -o "$T/map.json" "$T/fp.json"
eq "kernel lines: map --vmlinux exit status" 0 "$?"
has_line() { # FILE LINE FUNCTION: 0 when the saved footprint covers it with that function
	$PY - "$T/lines.json" "$1" "$2" "$3" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["kernel_lines"]
sys.exit(0 if any(l["file"] == sys.argv[2] and l["line"] == int(sys.argv[3]) and l.get("function") == sys.argv[4]
                  for l in k["lines"]) else 1)
PY
}
check "kernel lines: the inlined function's line, under its own name" has_line tests/workloads/wl_klines.c "$L_TWICE" kl_twice
if has_line tests/workloads/wl_klines.c "$L_EBADF" kl_error_path; then
	not_ok "kernel lines: the EBADF branch never taken is not covered"
else
	ok "kernel lines: the EBADF branch never taken is not covered"
fi
check "kernel lines: KASLR undone (text_offset)" grep -q '"text_offset": "0x3a00000"' "$T/lines.json"
check "kernel lines: the map's files with compiled lines" $PY -c "
import json, sys
k = json.load(open('$T/map.json'))['kernel_lines']
f = [x for x in k['files'] if x['file'] == 'tests/workloads/wl_klines.c'][0]
sys.exit(0 if 0 < f['covered'] < f['compiled'] and k['compiled_lines'] >= f['compiled'] else 1)"

# line-level review candidates: the #ifdef block compiled and never entered, the error path never taken
"$KF" map --vmlinux "$T/wl" --source-root "$KF_TOP" "$T/fp.json" >"$T/map.txt"
L_IFDEF=$(line '#ifdef CONFIG_KL_FIXTURE')
check "kernel lines: the #ifdef block never entered is a candidate" \
	grep -q "candidate KL_FIXTURE  *#ifdef block tests/workloads/wl_klines.c:$((L_IFDEF + 1))-$((L_IFDEF + 2)): 2 compiled lines, never entered" "$T/map.txt"
check "kernel lines: the EBADF path never taken is a candidate" \
	grep -q "candidate error path tests/workloads/wl_klines.c:$L_EBADF in kl_error_path: return -EBADF; never taken" "$T/map.txt"
check "kernel lines: candidates carry the guide's caution" grep -q "review candidates at line level (a review candidate, not proof" "$T/map.txt"

# lcov: Debian's lcov reads the tracefile and genhtml renders it, the sources found in the tree given
"$KF" map --vmlinux "$T/wl" --source-root "$KF_TOP" -F lcov -o "$T/wl.info" "$T/fp.json" 2>"$T/lcov.err"
eq "kernel lines: -F lcov exit status" 0 "$?"
check "kernel lines: DA 0 for the EBADF line" grep -qx "DA:$L_EBADF,0" "$T/wl.info"
check "kernel lines: SF absolute in the tree" grep -qx "SF:$KF_TOP/tests/workloads/wl_klines.c" "$T/wl.info"
if command -v lcov >/dev/null 2>&1 && command -v genhtml >/dev/null 2>&1; then
	check "kernel lines: lcov --summary reads it" sh -c "lcov --summary '$T/wl.info' 2>&1 | grep -q 'lines\.*: [0-9.]*% ([0-9]* of [0-9]* lines)'"
	genhtml -q -o "$T/html" "$T/wl.info" >/dev/null 2>&1
	check "kernel lines: genhtml renders it, the EBADF line not covered" grep -q "lineNoCov.*return -EBADF" "$T/html/workloads/wl_klines.c.gcov.html"
else
	skip "kernel lines: lcov and genhtml" "Debian's lcov is not installed (make install-deps: APT_TEST)"
fi
"$KF" map -F lcov -o "$T/no.info" "$T/fp.json" 2>"$T/err"
eq "kernel lines: -F lcov without --vmlinux fails" 1 "$?"
check "kernel lines: ... in one line" sh -c "[ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'needs --vmlinux' '$T/err'"
[ ! -e "$T/no.info" ] && ok "kernel lines: ... and writes nothing" || not_ok "kernel lines: ... and writes nothing"

# a vmlinux that is not the recorded kernel
$PY "$KF_TOP/tests/integration/kernel_lines_fp.py" "$T/wl" "$T/other.json" 0 00112233 || not_ok "kernel lines: other"
"$KF" map --vmlinux "$T/wl" "$T/other.json" >/dev/null 2>"$T/err"
eq "kernel lines: another kernel's vmlinux is refused" 1 "$?"
check "kernel lines: ... in one line naming both build ids" sh -c "[ \$(wc -l <'$T/err') -eq 1 ] && grep -q \"^kfootprint: '$T/wl' is not the recorded kernel: its build id is $BID, the kernel's 00112233\" '$T/err'"

# the saved footprint: reported (tasks, loss), merged with itself (idempotent), with gcov (said)
"$KF" report "$T/lines.json" >"$T/report.txt"
check "kernel lines: report: tasks covered" grep -q 'tasks: 1 of 2 covered' "$T/report.txt"
check "kernel lines: report: loss" grep -q 'lost: 3 PCs' "$T/report.txt"
"$KF" merge -o "$T/m.json" "$T/lines.json" "$T/lines.json"
eq "kernel lines: merge exit status" 0 "$?"
check "kernel lines: merged lines are the same" $PY -c "
import json, sys
a = json.load(open('$T/lines.json'))['kernel_lines']['lines']
b = json.load(open('$T/m.json'))['kernel_lines']['lines']
sys.exit(0 if [(l['file'], l['line']) for l in a] == [(l['file'], l['line']) for l in b] else 1)"
$PY -c "
import json
d = json.load(open('$T/lines.json')); k = d['kernel_lines']
k['method'] = 'gcov'; k['whole_guest'] = True; k['pcs'] = []; k['tasks'] = []; k['lost'] = 0; d['label'] = 'gcov'
json.dump(d, open('$T/gcov.json', 'w'))"
"$KF" merge -o "$T/mixed.json" "$T/lines.json" "$T/gcov.json" 2>/dev/null
check "kernel lines: kcov merged with gcov says so" grep -q '"mixed": "inputs of kcov and of gcov' "$T/mixed.json"
"$KF" report "$T/gcov.json" >"$T/gcov.txt"
check "kernel lines: gcov's report says the counts are the whole guest's" grep -q 'counts cover the whole guest' "$T/gcov.txt"

# the html page's section: covered lines per file of the saved footprint (as many as its lines run), or PCs to
# symbolize
"$KF" report -F html -o "$T/lines.html" "$T/lines.json"
eq "kernel lines: report -F html" 0 "$?"
N_RUN=$($PY -c "
import json
print(sum(1 for l in json.load(open('$T/lines.json'))['kernel_lines']['lines'] if l['file'] == 'tests/workloads/wl_klines.c' and l['count']))")
check "kernel lines: html: the section" grep -q '^<section id="kernel-lines"><h2>Kernel lines</h2>$' "$T/lines.html"
check "kernel lines: html: the file's covered lines ($N_RUN)" \
	grep -Eq "^<tr><td>tests/workloads/wl_klines.c<td>$N_RUN(</table>)?\$" "$T/lines.html"
"$KF" report -F html -o "$T/pcs.html" "$T/fp.json"
check "kernel lines: html: PCs not symbolized yet, said" grep -q "PCs, not symbolized yet: kfootprint map --vmlinux" "$T/pcs.html"
