#!/bin/sh
# -p on a process sleeping in a call (issue 23): the call it is in when kfootprint attaches is counted once, under
# its own name, marked "at_attach" in the footprint and said in the report, by both backends alike: bpf reads it
# from /proc/TID/syscall when it never returns while observed (or counts it at its exit), ptrace from the task's
# registers at its first stop (the restart our interrupt causes is that same call, not a restart_syscall).
# kf-test: waits: 6 s wall, 1.5 CPU s in a measured make check: -p on processes asleep in a call
. "$(dirname "$0")/../lib.sh"

backends=ptrace
bpf_or_skip "bpf: calls in progress at attach" && backends="ptrace bpf"
# in NAME FILE: "calls at_attach" of a syscall row ("" when absent)
row() { jget "$2" "' '.join('%s %s' % (s['calls'], s.get('at_attach', 0)) for s in d['syscalls'] if s['name'] == '$1')"; }
names() { jget "$1" "' '.join(sorted(s['name'] for s in d['syscalls']))"; }

for b in $backends; do
	# --- sleep 30, never leaving its nanosleep while observed ---
	sleep 30 &
	spid=$!
	sleep 0.3
	"$KF" record -b "$b" -p "$spid" -d 0.5 -o "$T/sl$b.json" --report "$T/sl$b.txt" 2>/dev/null
	eq "$b: sleep 30: its clock_nanosleep counted once, at attach" "1 1" "$(row clock_nanosleep "$T/sl$b.json")"
	eq "$b: sleep 30: nothing else (no restart_syscall)" "clock_nanosleep" "$(names "$T/sl$b.json")"
	eq "$b: sleep 30: the report says so" \
		"at attach:    clock_nanosleep 1 (in progress when kfootprint attached: counted, without their time)" \
		"$(grep '^at attach:' "$T/sl$b.txt")"
	eq "$b: sleep 30: still sleeping after the detach" S "$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' /proc/$spid/status)"
	kill "$spid"
	wait "$spid" 2>/dev/null

	# --- cat blocked in read on a pipe, then given a line and its end while observed ---
	mkfifo "$T/fifo$b"
	cat <"$T/fifo$b" >"$T/cat$b.out" &
	cpid=$!
	exec 7>"$T/fifo$b" # cat opens its end, then reads
	sleep 0.3
	"$KF" record -b "$b" -p "$cpid" -o "$T/cat$b.json" --report /dev/null 2>/dev/null 7>&- &
	kpid=$!
	sleep 1
	echo hello >&7
	exec 7>&-
	wait "$kpid"
	wait "$cpid" 2>/dev/null
	eq "$b: cat: its read in progress counted, at attach, then the one of EOF" "2 1" "$(row read "$T/cat$b.json")"
	eq "$b: cat: the line went through" hello "$(cat "$T/cat$b.out")"
	eq "$b: cat: complete (it ended by itself)" True "$(jget "$T/cat$b.json" "d['complete']")"
done

if [ "$backends" = "ptrace bpf" ]; then
	for w in sl cat; do
		d=$(python3 "$KF_TOP/tests/fp_compare.py" "$T/${w}ptrace.json" "$T/${w}bpf.json" 2>&1 | grep -v '^processes\|^process \|exit\|complete')
		eq "$w: bpf and ptrace count the same calls, at attach too (fp_compare.py)" "" "$d"
	done
fi
