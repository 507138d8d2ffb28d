#!/bin/sh
# kfootprint record --map: the footprint report, then the map of the same run, in the same stream.
. "$(dirname "$0")/../lib.sh"

"$KF" record -b ptrace --map -- true >"$T/out" 2>"$T/err"
eq "--map: exit status of the workload" 0 $?
eq "--map: workload stdout untouched" "" "$(cat "$T/out")"
eq "--map: the map follows the report" 1 "$(grep -c '^kfootprint map of this run (true), x86_64$' "$T/err")"
eq "--map: execve mapped to fs/exec.c" 1 "$(grep -c '^    defined at  fs/exec.c:' "$T/err")"

# JSON map after a strace-style report, into --report FILE; the map covers the footprint saved with -o
"$KF" record -b ptrace -F strace --map=json --report "$T/rep" -o "$T/fp.json" -- sh -c 'ls / >/dev/null' 2>"$T/err2"
eq "--map=json --report: exit 0" 0 $?
eq "--map=json: the report first" 1 "$(grep -c '^% time' "$T/rep")"
sed -n '/^{/,$p' "$T/rep" >"$T/map.json"
eq "--map=json: map of the same syscalls as the saved footprint" \
	"$(jget "$T/fp.json" "sorted((s['name'], s['calls']) for s in d['syscalls'] if s['abi'] == 'x86_64')")" \
	"$(jget "$T/map.json" "sorted((s['name'], s['calls']) for s in d['syscalls'])")"
eq "-o footprint unchanged by --map" "kfootprint/1" "$(jget "$T/fp.json" "d['schema']")"

# -F json never gets text appended: the map is inside the printed footprint, or in --map-output FILE
"$KF" record -b ptrace -F json --map --report "$T/j" -- true 2>/dev/null
eq "-F json --map: the report is one JSON document, the annotated footprint" "kfootprint/1 True True" \
	"$(jget "$T/j" "d['schema'], len(d['configs']) > 0, all('kernel' in s for s in d['syscalls'] if s['abi'] == 'x86_64')")"
"$KF" record -b ptrace -F json --map=kconfig --report "$T/k" -- touch "$T/ran" 2>"$T/kerr"
eq "-F json --map=kconfig without --map-output: exit 1, one line, no run" \
	"1 1 kfootprint: --map=kconfig with -F json: the map goes into the JSON footprint only: give --map-output FILE for a kconfig map" \
	"$? $(wc -l <"$T/kerr") $(cat "$T/kerr")"
eq "... and the workload did not run" "no" "$([ -e "$T/ran" ] && echo yes || echo no)"
"$KF" record -b ptrace -F json --map=kconfig --map-output "$T/k.config" --report "$T/k" -- true 2>/dev/null
eq "--map-output: exit 0" 0 $?
eq "--map-output: the JSON report parses" "kfootprint/1" "$(jget "$T/k" "d['schema']")"
eq "--map-output: the kconfig map in its file, nothing else" "yes" \
	"$(grep -q '^CONFIG_[A-Z0-9_]*=y$' "$T/k.config" && ! grep -q schema "$T/k.config" && echo yes)"
"$KF" record -b ptrace --map-output "$T/m.txt" --report "$T/t" -- true 2>/dev/null
eq "--map-output implies --map (text); the text report has no map" "kfootprint map of this run (true), x86_64|0" \
	"$(head -n1 "$T/m.txt")|$(grep -c '^kfootprint map' "$T/t")"
"$KF" record -b ptrace -F csv --map --report "$T/c" -- touch "$T/ran" 2>"$T/cerr"
eq "-F csv --map without a place for it: exit 1, no run" \
	"1 kfootprint: --map with -F csv: a CSV report has no room for the map: give --map-output FILE, or -o FILE to save it in the footprint no" \
	"$? $(cat "$T/cerr") $([ -e "$T/ran" ] && echo yes || echo no)"
"$KF" record -b ptrace -F csv --map -o "$T/c.json" --report "$T/c" -- true 2>/dev/null
eq "-F csv --map -o: the CSV stays CSV, the map is in the footprint" "abi,name,nr,calls,errors,time_s,class,reached True" \
	"$(head -n1 "$T/c") $(jget "$T/c.json" "len(d['configs']) > 0")"
"$KF" record -b ptrace --map-output "$T/nodir/m.txt" -- touch "$T/ran" 2>"$T/oerr"
eq "--map-output is opened before the workload runs" "1 no" "$? $([ -e "$T/ran" ] && echo yes || echo no)"

# --map with -o: the saved footprint carries the mapping (DESIGN.md: syscalls[].kernel and a "configs" roll-up)
"$KF" record -b ptrace --map -o "$T/ann.json" --report /dev/null -- sh -c 'ls / >/dev/null'
eq "--map -o: exit 0" 0 $?
eq "--map -o: still kfootprint/1" "kfootprint/1" "$(jget "$T/ann.json" "d['schema']")"
eq "--map -o: every x86_64 syscall has its kernel part" "True" \
	"$(jget "$T/ann.json" "all('kernel' in s and 'required' in s['kernel'] and 'running' in s['kernel'] for s in d['syscalls'] if s['abi'] == 'x86_64')")"
eq "--map -o: execve in fs/exec.c" "fs/exec.c" "$(jget "$T/ann.json" "[s['kernel']['file'] for s in d['syscalls'] if s['name'] == 'execve'][0]")"
eq "--map -o: configs roll-up = map's" \
	"$("$KF" map -F json "$T/ann.json" | python3 -c "import json, sys; print(sorted(c['name'] for c in json.load(sys.stdin)['configs']))")" \
	"$(jget "$T/ann.json" "sorted(c['name'] for c in d['configs'])")"
"$KF" report -F json "$T/ann.json" >"$T/ann.report" 2>"$T/ann.err"
eq "--map -o: the annotated footprint loads again (unknown fields ignored)" "0" "$?$(cat "$T/ann.err")"
