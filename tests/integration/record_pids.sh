#!/bin/sh
# -p with both backends: a pid given twice is attached once; a thread's id attaches its whole process (said on
# stderr) and records it as that process; kfootprint's own pid, a zombie and a kernel thread are refused with
# one line each; ptrace names the tracer that already holds a process.
# kf-test: exclusive wl_sleeper: bpf_isolation.sh counts the wl_sleeper processes left to PID 1, which the others start
# kf-test: waits: 3 s wall, 0.8 CPU s in a measured make check: -p on sleeping processes
. "$(dirname "$0")/../lib.sh"

SL=$WL/wl_sleeper
workload_or_skip pids "$SL" || exit 0
backends=ptrace
if out=$("$KF" record -b bpf --report /dev/null -- true 2>&1); then
	backends="bpf ptrace"
else
	skip "bpf" "bpf backend cannot run here: $out"
fi
pids=""
cleanup() {
	for p in $pids; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT

# A sleeper with a second thread (getppid + 20 ms nanosleep in each): $sp, its other thread $tid.
"$SL" 1 >"$T/sl.pid" &
sp=$!
pids="$pids $sp"
i=0
while [ "$(ls "/proc/$sp/task" 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
tid=$(ls "/proc/$sp/task" | grep -vx "$sp" | head -n 1)

# A zombie: a child its parent never reaps. $zp.
python3 -c 'import os, sys, time
p = os.fork()
if p == 0:
    os._exit(0)
print(p, flush=True)
time.sleep(60)' >"$T/z.pid" &
pids="$pids $!"
i=0
while [ ! -s "$T/z.pid" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
zp=$(cat "$T/z.pid")

# A kernel thread: kthreadd where this pid namespace shows it, else the first with PF_KTHREAD.
kt=""
for p in 2 $(ls /proc | grep -x '[0-9]*' | head -n 200); do
	f=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -d' ' -f7)
	if [ -n "$f" ] && [ $((f & 0x00200000)) -ne 0 ]; then
		kt=$p
		break
	fi
done

for b in $backends; do
	"$KF" record -b "$b" -p "$sp,$sp" -d 0.5 -o "$T/dup$b.json" --report /dev/null 2>"$T/dup$b.err"
	eq "$b: -p N,N: attached once" "0 [$sp] [$sp]" \
		"$? $(jget "$T/dup$b.json" "'%s %s' % (d['workload']['attached_pids'], [p['pid'] for p in d['processes']])")"

	"$KF" record -b "$b" -p "$tid" -d 0.5 -o "$T/tid$b.json" --report /dev/null 2>"$T/tid$b.err"
	eq "$b: -p TID: exit status 0" 0 "$?"
	eq "$b: -p TID: says it attaches the whole process, then what it attached" \
		"kfootprint: -p $tid: a thread of process $sp (wl_sleeper): attaching to the whole process
kfootprint: attached to $sp (wl_sleeper), threads $(ls /proc/$sp/task | sort -n | tr '\n' ' ' | sed 's/ $//')" \
		"$(cat "$T/tid$b.err")"
	eq "$b: -p TID: recorded as the process, with its 2 threads" "[$sp] [$sp] [2] [True]" \
		"$(jget "$T/tid$b.json" "'%s %s %s %s' % (d['workload']['attached_pids'], [p['pid'] for p in d['processes']], [p['threads'] for p in d['processes']], [p['attached'] for p in d['processes']])")"

	sh -c 'exec "$@" -p $$ -d 0.5' sh "$KF" record -b "$b" 2>"$T/self$b.err"
	rc=$?
	eq "$b: -p of kfootprint itself: refused" "1 1" "$rc $(grep -c '^kfootprint: -p [0-9]*: is kfootprint itself$' "$T/self$b.err")"

	"$KF" record -b "$b" -p "$zp" -d 0.5 2>"$T/z$b.err"
	eq "$b: -p of a zombie: refused, one line" \
		"1 kfootprint: -p $zp: is a zombie: it has exited, and its parent (pid $(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$zp/status")) has not reaped it" \
		"$? $(cat "$T/z$b.err")"

	if [ -n "$kt" ]; then
		"$KF" record -b "$b" -p "$kt" -d 0.5 2>"$T/kt$b.err"
		eq "$b: -p of a kernel thread: refused, one line" \
			"1 kfootprint: -p $kt: is a kernel thread ($(cat "/proc/$kt/comm"))" "$? $(cat "$T/kt$b.err")"
	else
		skip "$b: -p of a kernel thread" "no kernel thread visible in this pid namespace"
	fi
done

# ptrace: a process another tracer holds. strace -p holds the sleeper; the refusal names it.
if command -v strace >/dev/null; then
	strace -o /dev/null -p "$sp" 2>/dev/null &
	st=$!
	pids="$pids $st"
	i=0
	while [ "$(sed -n 's/^TracerPid:[[:space:]]*//p' "/proc/$sp/status")" != "$st" ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	"$KF" record -b ptrace -p "$sp" -d 0.5 2>"$T/tr.err"
	eq "ptrace: -p of a traced process: refused, naming the tracer" \
		"1 kfootprint: -p $sp: already traced by $st (strace)" "$? $(cat "$T/tr.err")"
	kill "$st"
	wait "$st" 2>/dev/null || :
else
	skip "ptrace: already traced" "strace is not installed"
fi
