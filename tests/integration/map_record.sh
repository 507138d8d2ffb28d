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

"$KF" record -b ptrace -F json --map=kconfig --report "$T/k" -- true 2>/dev/null
eq "--map=kconfig: CONFIG lines after the JSON report" "yes" "$(grep -q '^CONFIG_[A-Z0-9_]*=y$' "$T/k" && grep -q '"schema": "kfootprint/1"' "$T/k" && echo yes)"

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
