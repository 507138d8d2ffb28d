#!/bin/sh
# Fork-heavy workloads with bpf, at default settings: nothing lost and the same footprint as ptrace, also
# with the CPUs busy; and when the reader cannot keep up at all (stopped), what the ring could not carry
# is counted and said by every format, while processes and call counts, which the kernel keeps in a
# record per process, stay exact. The long version (paxtest kiddie, the seed's workload; perf bench sched
# messaging -g 20 -l 1000) is tests/long/bpf_seed.sh, run by make check-long.
. "$(dirname "$0")/../lib.sh"

if ! out=$("$KF" record -b bpf --report /dev/null -- true 2>&1); then
	skip bpf_fork_heavy "bpf backend cannot run here: $out"
	exit 0
fi
# same NAME PTRACE.json BPF.json: one TAP line, the differences shown on failure.
same() {
	diff=$(python3 "$KF_TOP/tests/fp_compare.py" "$2" "$3")
	if [ -z "$diff" ]; then ok "$1"; else not_ok "$1"; printf '%s\n' "$diff" | head -n 20 | sed 's/^/#   /'; fi
}
hogs=
stop_hogs() { [ -n "$hogs" ] && kill $hogs 2>/dev/null; wait $hogs 2>/dev/null; hogs=; }
trap 'stop_hogs; rm -rf "$T"' EXIT

# --- a fork storm (2000 short processes), with two CPU hogs beside it ---
storm='i=0; while [ $i -lt 2000 ]; do /bin/true; i=$((i + 1)); done'
"$KF" record -b ptrace -F json --report /dev/null -o "$T/sp.json" -- sh -c "$storm" 2>"$T/sp.err"
for i in 1 2; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
done
"$KF" record -b bpf -v -F json --report /dev/null -o "$T/sb.json" -- sh -c "$storm" 2>"$T/sb.err"
stop_hogs
eq "fork storm, CPUs busy: complete, 0 lost, 2001 processes" "True 0 2001" \
	"$(jget "$T/sb.json" "'%s %d %d' % (d['complete'], d['lost_events'], len(d['processes']))")"
same "fork storm, CPUs busy: same calls, errors and process tree as ptrace" "$T/sp.json" "$T/sb.json"

# --- perf bench sched messaging: 160 tasks, 160 000 reads and writes ---
if command -v perf >/dev/null && perf bench sched messaging -g 1 -l 1 >/dev/null 2>&1; then
	msg="perf bench sched messaging -g 4 -l 50"
	"$KF" record -b ptrace -F json --report /dev/null -o "$T/mp.json" -- $msg >/dev/null 2>&1
	"$KF" record -b bpf -F json --report /dev/null -o "$T/mb.json" -- $msg >/dev/null 2>&1
	eq "messaging: complete, 0 lost, 161 processes" "True 0 161" \
		"$(jget "$T/mb.json" "'%s %d %d' % (d['complete'], d['lost_events'], len(d['processes']))")"
	same "messaging: same calls, errors and process tree as ptrace" "$T/mp.json" "$T/mb.json"
else
	skip messaging "perf bench sched messaging does not run here"
fi

# --- the reader stopped while the workload opens a file 40 000 times: more than the ring holds ---
# stall KFOOTPRINT OUT.json: kfootprint is stopped (SIGSTOP) from before the opens until the workload has
# ended, then resumed; sets $rc.
opens='import os
for i in range(40000): os.close(os.open("/etc/hostname", os.O_RDONLY))'
stall() {
	rm -f "$T/done"
	wl="sleep 1; /usr/bin/python3 -c '$opens'; for i in 1 2 3 4 5; do /bin/true; done; touch $T/done"
	"$1" record -b bpf -F json --report /dev/null -o "$2" -- sh -c "$wl" 2>"$2.err" &
	k=$!
	sleep 0.5
	kill -STOP "$k"
	i=0
	while [ ! -e "$T/done" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	sleep 0.2
	kill -CONT "$k"
	wait "$k"
	rc=$?
}
stall "$KF" "$T/st.json"
eq "stalled reader: kfootprint exits 0" 0 "$rc"
eq "stalled reader: open events lost, counted, said why" "False True lost events: exec/open events (ring full)" \
	"$(jget "$T/st.json" "'%s %s %s' % (d['complete'], d['lost_events'] > 1000, __import__('re').sub(r' [0-9]+ ', ' ', d.get('incomplete_why', '')))")"
eq "stalled reader: the 40 000 opens still counted, 9 processes with their ends" "True 9 9" \
	"$(jget "$T/st.json" "'%s %d %d' % (sum(s['calls'] for s in d['syscalls'] if s['name'] == 'openat') >= 40000, len(d['processes']), sum(1 for p in d['processes'] if p.get('exit') == {'code': 0}))")"
eq "stalled reader: names from the records where exec events were lost" "sh sleep python3 true true true true true" \
	"$(jget "$T/st.json" "' '.join(p['comm'] for p in d['processes'][:8])")"
for f in text tree strace rst csv; do
	eq "stalled reader: the $f report says INCOMPLETE and why" 1 \
		"$("$KF" report -F "$f" "$T/st.json" | grep -c 'INCOMPLETE: lost events: [0-9]* exec/open events (ring full)')"
done

# --- the same under the sanitizers: records taken late, exec events lost ---
if [ -n "$KF_ASAN_BIN" ] && [ -x "$KF_ASAN_BIN" ]; then
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	stall "$KF_ASAN_BIN" "$T/as.json"
	eq "asan: stalled reader, exit 0, no sanitizer report, events lost" "0 0 True" \
		"$rc $(grep -c Sanitizer "$T/as.json.err") $(jget "$T/as.json" "d['lost_events'] > 0")"
else
	skip asan "no sanitizer build (KF_ASAN)"
fi
