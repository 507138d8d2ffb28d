#!/bin/sh
# Each process's working directory when it exec'd (ptrace: /proc/PID/cwd at the exec stop, and at attach), which
# tailor's initramfs resolves relative opens against. bpf reads its exec events after the fact, when the process
# may have moved on: it keeps none rather than a wrong one.
. "$(dirname "$0")/../lib.sh"

mkdir -p "$T/w/sub"
(cd "$T/w" && "$KF" -q -b ptrace -o "$T/c.json" --report /dev/null -- sh -c 'cd sub && ls >/dev/null; true')
eq "ptrace: the shell's cwd where it started, ls's where the shell had gone" "$T/w $T/w/sub" \
	"$(jget "$T/c.json" "' '.join(p.get('cwd') or '-' for p in d['processes'])")"
(cd "$T/w/sub" && exec sleep 3) &
spid=$!
sleep 0.3
"$KF" -q -b ptrace -p "$spid" -d 0.3 -o "$T/p.json" --report /dev/null 2>/dev/null
eq "-p: the attached process's cwd" "$T/w/sub" "$(jget "$T/p.json" "d['processes'][0].get('cwd')")"
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
if bpf_or_skip "bpf: no cwd"; then
	(cd "$T/w" && "$KF" -q -b bpf -o "$T/b.json" --report /dev/null -- sh -c 'cd sub && ls >/dev/null; true')
	eq "bpf: no cwd (read after the fact, it could be another's)" "False" \
		"$(jget "$T/b.json" "any('cwd' in p for p in d['processes'])")"
fi
