# `kfootprint report`: every format from a saved footprint, the JSON round trip, rst through docutils, the
# strace layout against the real strace -c of this machine, and bad input (missing, unreadable, malformed,
# wrong schema): one line on stderr, exit 1, never a crash (the ASan build runs the bad cases too).
. "$(dirname "$0")/../lib.sh"
SAMPLE="$KF_TOP/tests/fuzz/corpus/sample.json" # written by fp__write_json from tests/unit/fp_sample.h

# --- every format (the registry's list) -----------------------------------------------------------------
formats=$(kf_names formats)
eq "the error message and --help list the same formats" "$formats" \
	"$("$KF" report --help | sed -n '/^formats:/,/^$/s/^  \([a-z0-9]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')"
for f in $formats; do
	if "$KF" report -F "$f" "$SAMPLE" >"$T/out.$f" 2>"$T/err.$f" && [ -s "$T/out.$f" ] && [ ! -s "$T/err.$f" ]; then
		ok "report -F $f"
	else
		not_ok "report -F $f: $(head -c 300 "$T/err.$f")"
	fi
done
eq "report defaults to text" "$(cat "$T/out.text")" "$("$KF" report "$SAMPLE")"
eq "text: completeness on the first line" "footprint:    complete" "$(head -n1 "$T/out.text")"
eq "text: i386 calls named with their ABI" "open (i386)      2       1    0.59  0.002000    1000.0  Filesystem" \
	"$(grep '^open (i386)' "$T/out.text")"
eq "text --by-class: the seed's row" "open (i386)        2       1  Filesystem       sys_open()" \
	"$("$KF" report --by-class "$SAMPLE" | grep '^open (i386)')"
eq "tree: the SystemTap layout, then exit and argv" "   101  ls  read   3 write   1 run 0.25s   exit 0          ls /tmp" \
	"$(grep ' 101 ' "$T/out.tree")"
eq "tree: a legend line first" "# read N write M: files opened for reading / for writing" "$(head -n1 "$T/out.tree" | cut -c1-56)"
eq "'-' reads standard input" "$(cat "$T/out.tree")" "$("$KF" report -F tree - <"$SAMPLE")"
printf '{"schema": ' | "$KF" report - >/dev/null 2>"$T/err"
eq "'-': errors name standard input" "1 kfootprint: 'standard input': not JSON: unexpected end of data at line 1, column 12" \
	"$? $(cat "$T/err")"

# --- JSON: byte-identical round trip, valid for another parser ----------------------------------------------
check "json: report -F json gives the file back byte for byte" cmp "$SAMPLE" "$T/out.json"
"$KF" report -F json "$T/out.json" >"$T/out2.json"
check "json: and again" cmp "$T/out.json" "$T/out2.json"
eq "json: python reads it" "kfootprint/1 3 6" \
	"$(jget "$T/out.json" "d['schema'], len(d['processes']), len(d['syscalls'])" 2>&1)"
eq "csv: python's csv module reads header and one row per syscall" "7 abi time_s" \
	"$(python3 -c "import csv,sys; r=list(csv.reader(open(sys.argv[1]))); print(len(r), r[0][0], r[0][5])" "$T/out.csv" 2>&1)"

# --- -o writes atomically ----------------------------------------------------------------------------------
mkdir "$T/o"
"$KF" report -F csv -o "$T/o/fp.csv" "$SAMPLE" >"$T/o.stdout" 2>&1
eq "-o: the file holds the report" "$(cat "$T/out.csv")" "$(cat "$T/o/fp.csv")"
eq "-o: nothing on stdout, no temporary left" "fp.csv" "$(cat "$T/o.stdout"; ls "$T/o")"
"$KF" report -o "$T/no/such/dir.txt" "$SAMPLE" 2>"$T/err" >/dev/null
eq "-o into a missing directory: exit 1, one line" "1 kfootprint: '$T/no/such/dir.txt': No such file or directory" \
	"$? $(cat "$T/err")"

# --- rst is valid for docutils, with awkward input too -----------------------------------------------------
rst_ok() { # FILE: docutils must not report even a warning (halt_level=2)
	python3 -c 'import sys, docutils.core
docutils.core.publish_string(open(sys.argv[1]).read(), writer_name="null",
    settings_overrides={"halt_level": 2, "report_level": 2})' "$1"
}
check "rst: docutils accepts it (halt_level=2)" rst_ok "$T/out.rst"
cat >"$T/odd.json" <<'JSON'
{"schema": "kfootprint/1",
 "workload": {"argv": ["sh", "-c", "echo `*x*` |a| _b_ ::\\\\xff\u0001"]},
 "syscalls": [
  {"name": "read", "abi": "x86_64", "nr": 0, "calls": 3, "class": "***"},
  {"name": "foo_", "abi": "x86_64", "nr": 4001, "calls": 3, "class": "[1]_ ref_"},
  {"name": "open", "abi": "i386", "nr": 5, "calls": 2, "class": "a | b"},
  {"name": "futuristic_call", "abi": "x86_64", "nr": 4000, "calls": 1, "class": "Caf\u00e9 \u2014 new"},
  {"name": "write", "abi": "x86_64", "nr": 1, "calls": 1, "class": "-"}]}
JSON
"$KF" report -F rst "$T/odd.json" >"$T/odd.rst" 2>"$T/err"
check "rst: odd classes, names and command line still valid rst" rst_ok "$T/odd.rst"
"$KF" report "$T/odd.json" >"$T/odd.txt" 2>&1
eq "text: control bytes and invalid UTF-8 are shown escaped" "command:      sh -c 'echo \`*x*\` |a| _b_ ::\\xff\\x01'" \
	"$(grep '^command:' "$T/odd.txt")"

# --- strace layout against strace -c on this machine -------------------------------------------------------
cmd="ls / >/dev/null; cat /nonexistent-kf 2>/dev/null; true"
if ! strace -f -c -o "$T/strace.txt" sh -c "$cmd" >/dev/null 2>&1; then
	skip "strace layout" "strace -f -c does not run here"
elif ! "$KF" record -b ptrace -o "$T/rec.json" --report /dev/null -- sh -c "$cmd" >/dev/null 2>"$T/rec.err"; then
	skip "strace layout" "kfootprint record -b ptrace failed: $(head -n1 "$T/rec.err")"
else
	"$KF" report -F strace "$T/rec.json" >"$T/kf.txt"
	eq "strace layout: header line" "$(sed -n 1p "$T/strace.txt")" "$(sed -n 1p "$T/kf.txt")"
	eq "strace layout: dashes line" "$(sed -n 2p "$T/strace.txt")" "$(sed -n 2p "$T/kf.txt")"
	eq "strace layout: dashes before the total" "$(tail -n2 "$T/strace.txt" | head -n1)" "$(tail -n2 "$T/kf.txt" | head -n1)"
	row='^ *[0-9]+\.[0-9]{2} +[0-9]+\.[0-9]{6} +[0-9]+ +[0-9]+ +[0-9]* [a-z0-9_]+$'
	eq "strace layout: every row has strace's columns" "" \
		"$(sed '1,2d;$d' "$T/kf.txt" | sed '$d' | grep -Ev "$row")"
	for f in strace kf; do # the column where each field ends: identical layouts end fields at the same places
		sed '1,2d;$d' "$T/$f.txt" | sed '$d' | awk '{ s = $0; e = ""; p = 0
			for (i = 1; i <= NF; i++) { k = index(s, $i); p += k + length($i) - 1; s = substr(s, k + length($i)); e = e " " p }
			print NF == 6 ? e : "5:" e }' | sort -u >"$T/$f.ends"
	done
	check "strace layout: fields end in the same columns as strace's" sh -c "comm -13 '$T/strace.ends' '$T/kf.ends' | grep -v '^5:' | \
		awk '{ if (\$1 != 6 || \$2 != 18 || \$3 != 30) exit 1 }'"
	eq "strace layout: the same syscalls as strace -f -c" \
		"$(sed '1,2d;$d' "$T/strace.txt" | sed '$d' | awk '{print $NF}' | sort | tr '\n' ' ')" \
		"$(sed '1,2d;$d' "$T/kf.txt" | sed '$d' | awk '{print $NF}' | sort | tr '\n' ' ')"
	eq "strace layout: exit_group left out, as strace -c does" "0" "$(grep -c ' exit_group$' "$T/kf.txt")"
	eq "strace layout: the total line" "100.00" "$(tail -n1 "$T/kf.txt" | awk '$NF == "total" {print $1}')"
fi

# --- bad input: one line, exit 1, nothing on stdout, under ASan too ------------------------------------------
printf '' >"$T/empty.json"
printf '<html>\n' >"$T/text.json"
printf 'hello\n' >"$T/plain.json"
printf '\001\002\377\376{"\n' >"$T/noise.json"
printf '{"schema": "kfootprint/1",\n "syscalls": [\n' >"$T/truncated.json"
printf '{"schema": "kfootprint/9", "syscalls": []}\n' >"$T/schema9.json"
printf '{"schema": "other/1"}\n' >"$T/other.json"
printf '{"schema": "kfootprint/1", "processes": [{"pid": "12"}]}\n' >"$T/badtype.json"
printf '{"schema": "kfootprint/1", "syscalls": [{"name": "read", "abi": "x86_64", "nr": 0, "calls": -4}]}\n' >"$T/negative.json"
printf '\177ELF\002\001\001\000\000\000\377\376{"\n' >"$T/binary.json"
head -c 3000 "$SAMPLE" >"$T/cut.json"
bad() { # NAME FILE EXPECTED-MESSAGE
	for bin in "$KF" ${KF_ASAN_BIN:+"$KF_ASAN_BIN"}; do
		tag=$([ "$bin" = "$KF" ] && echo "" || echo " (asan)")
		"$bin" report "$2" >"$T/bad.out" 2>"$T/bad.err"
		rc=$?
		if [ "$rc" -eq 1 ] && [ ! -s "$T/bad.out" ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] &&
			grep -qF -- "$3" "$T/bad.err"; then
			ok "bad input: $1$tag"
		else
			not_ok "bad input: $1$tag: exit $rc, stderr: $(head -c 400 "$T/bad.err")"
		fi
	done
}
bad "missing file" "$T/missing.json" "kfootprint: '$T/missing.json': No such file or directory"
bad "a directory" "$T" "kfootprint: '$T': Is a directory"
bad "empty file" "$T/empty.json" "kfootprint: '$T/empty.json': not JSON: empty file"
bad "not JSON" "$T/plain.json" "kfootprint: '$T/plain.json': not JSON: unexpected character at line 1, column 1"
# what a wrong kind of file looks like is said instead, when it looks like something known (input_kinds.sh)
bad "an HTML page" "$T/text.json" "kfootprint: '$T/text.json': an HTML page (kfootprint report -F html?), not a footprint"
bad "truncated" "$T/truncated.json" "kfootprint: '$T/truncated.json': not JSON: unexpected end of data at line 3, column 1"
bad "cut in the middle" "$T/cut.json" "kfootprint: '$T/cut.json': not JSON: "
bad "binary" "$T/binary.json" "kfootprint: '$T/binary.json': an ELF file (a program: record it with kfootprint -- PROGRAM), not a footprint"
bad "binary, no known kind" "$T/noise.json" "kfootprint: '$T/noise.json': not JSON: "
bad "another schema version" "$T/schema9.json" \
	"kfootprint: '$T/schema9.json': schema 'kfootprint/9' is not supported (this kfootprint reads kfootprint/1)"
bad "not a footprint" "$T/other.json" "kfootprint: '$T/other.json': not a kfootprint footprint (schema 'other/1')"
bad "a field of the wrong type" "$T/badtype.json" "kfootprint: '$T/badtype.json': processes[0].pid: expected int, got string"
bad "a negative count" "$T/negative.json" "kfootprint: '$T/negative.json': syscalls[0].calls: expected an unsigned integer"
cp "$SAMPLE" "$T/locked.json"
chmod 000 "$T/locked.json"
chmod 755 "$T"
if [ "$(id -u)" -ne 0 ]; then
	bad "unreadable" "$T/locked.json" "kfootprint: '$T/locked.json': Permission denied"
elif kfn=$(for_others "$KF") && setpriv --reuid=nobody --regid=nogroup --clear-groups "$kfn" --version >/dev/null 2>&1; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$kfn" report "$T/locked.json" >"$T/bad.out" 2>"$T/bad.err"
	eq "bad input: unreadable (as nobody)" "1 kfootprint: '$T/locked.json': Permission denied" "$? $(cat "$T/bad.err")"
else
	skip "bad input: unreadable" "root reads any file and setpriv cannot run a copy of $KF as nobody"
fi

# --- usage errors ------------------------------------------------------------------------------------------
"$KF" report -F pdf "$SAMPLE" >/dev/null 2>"$T/err"
eq "unknown format: exit 1, one line" "1 kfootprint: unknown format 'pdf': expected one of text, strace, rst, tree, json, csv, html" "$? $(cat "$T/err")"
"$KF" report >/dev/null 2>"$T/err"
eq "no file: exit 1" "1 kfootprint: no footprint to report: see 'kfootprint report --help'" "$? $(cat "$T/err")"
"$KF" report "$SAMPLE" "$SAMPLE" >/dev/null 2>"$T/err"
eq "two files: exit 1" "1 kfootprint: one footprint at a time, got 2 files" "$? $(cat "$T/err")"
"$KF" report --help >"$T/help" 2>&1
eq "--help: exit 0 with formats and examples" "0 1 1" "$? $(grep -c '^  strace ' "$T/help") $(grep -c '^examples:' "$T/help")"
if [ -w /dev/full ]; then
	"$KF" report "$SAMPLE" >/dev/full 2>"$T/err"
	eq "a full disk on stdout is an error" "1 1" "$? $(grep -c 'kfootprint: writing standard output: No space left on device' "$T/err")"
fi
