#!/bin/sh
# The ptrace-only build (make NO_BPF=1, into build/nobpf; `make check` builds it): no libbpf linked, no bpf
# backend in its registry (so -b bpf is an unknown name, and auto is ptrace without a word), and it records and
# reports as the full build does.
. "$(dirname "$0")/../lib.sh"

NB="$KF_TOP/$KF_BUILD/nobpf/kfootprint"
if [ ! -x "$NB" ]; then
	skip nobpf "$NB is not built (make check builds it; or make NO_BPF=1 BUILD=$KF_BUILD/nobpf)"
	exit 0
fi
eq "no libbpf linked" 0 "$(ldd "$NB" | grep -c 'libbpf\|libelf')"
"$NB" record -b bpf -- true >/dev/null 2>"$T/err"
eq "-b bpf: the registry has no bpf" "1 kfootprint: unknown backend 'bpf': expected one of auto, ptrace" "$? $(cat "$T/err")"
"$NB" record --help >"$T/help"
eq "--help lists the backends it has" 1 "$(grep -c -- '--backend NAME *auto, ptrace:' "$T/help")"
"$NB" record -o "$T/fp.json" --report "$T/rep" -- sh -c 'exit 4' 2>"$T/err"
eq "auto records with ptrace, silently, and keeps the workload's status" "4 " "$? $(cat "$T/err")"
eq "the footprint says ptrace" "ptrace" "$(jget "$T/fp.json" "d['backend']")"
"$KF" report -F csv "$T/fp.json" >"$T/full.csv"
"$NB" report -F csv "$T/fp.json" >"$T/nb.csv"
check "report: the same as the full build's" cmp "$T/full.csv" "$T/nb.csv"
"$NB" map --syscalls execve -F json >"$T/map.json"
eq "map works" "fs/exec.c" "$(jget "$T/map.json" "d['syscalls'][0]['kernel']['file']")"
