#!/bin/sh
# Observation intervals: -p attach then detach (the workload keeps running, not stopped), -d on a started
# command (SIGTERM), --keep-running (detach), Ctrl-C (SIGINT to kfootprint), and kill -STOP/-CONT of a
# traced workload. Uses wl_sleeper (getppid + 20 ms nanosleep, forever; a second thread with an argument).
# kf-test: exclusive wl_sleeper: bpf_isolation.sh counts the wl_sleeper processes left to PID 1, which the others start
# kf-test: waits: 7 s wall, 1.9 CPU s in a measured make check: -p and -d on wl_sleeper
. "$(dirname "$0")/../lib.sh"

SL=$WL/wl_sleeper
workload_or_skip attach "$SL" || exit 0
# state PID: the State letter of /proc/PID/status ("" when gone).
state() { sed -n 's/^State:[[:space:]]*\([A-Za-z]\).*/\1/p' "/proc/$1/status" 2>/dev/null; }
# waitfile FILE: until FILE is non-empty (the workload printed its pid), at most 5 s.
waitfile() {
	i=0
	while [ ! -s "$1" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# guard PID: a test must never hang; whatever of kfootprint is left after 20 s is killed (and then fails).
guard() {
	(
		trap 'kill "$s" 2>/dev/null; exit 0' TERM
		sleep 20 &
		s=$!
		wait "$s" && kill -KILL "$1" 2>/dev/null
	) >/dev/null 2>&1 &
	guard_pid=$!
}
unguard() { kill "$guard_pid" 2>/dev/null; }
calls() { jget "$1" "sum(s['calls'] for s in d['syscalls'] if s['name'] == '$2')"; }
switches() { sed -n 's/^voluntary_ctxt_switches:[[:space:]]*//p' "/proc/$1/status"; }

# --- -p PID -d 1: attach to both threads, detach, leave it running ---
"$SL" 1 >"$T/p1" &
spid=$!
waitfile "$T/p1"
"$KF" record -b ptrace -p "$spid" -d 1 -F json --report /dev/null -o "$T/att.json" 2>"$T/att.err"
eq "attach: kfootprint exit status" 0 "$?"
sleep 0.2
st=$(state "$spid")
case $st in
S | R | D) ok "attach: workload still running after detach (State $st)" ;;
*) not_ok "attach: workload still running after detach: State '$st'" ;;
esac
for task in /proc/"$spid"/task/*; do
	t=$(sed -n 's/^State:[[:space:]]*\([A-Za-z]\).*/\1/p' "$task/status")
	tp=$(sed -n 's/^TracerPid:[[:space:]]*//p' "$task/status")
	if [ "$t" != t ] && [ "$t" != T ] && [ "$tp" = 0 ]; then
		ok "attach: task $(basename "$task") not stopped, not traced"
	else
		not_ok "attach: task $(basename "$task") left stopped or traced ($t, tracer $tp)"
	fi
done
n=$(calls "$T/att.json" getppid)
# 2 tasks x (1 s / ~20 ms) ~ 100 getppid; a loaded machine gets a wide margin, but never 0.
if [ "$n" -ge 20 ]; then ok "attach: getppid calls recorded ($n)"; else not_ok "attach: getppid calls recorded: $n"; fi
eq "attach: the process marked attached, 2 threads" "True 2" \
	"$(jget "$T/att.json" "'%s %d' % (d['processes'][0]['attached'], d['processes'][0]['threads'])")"
eq "attach: comm read from /proc" "wl_sleeper" "$(jget "$T/att.json" "d['processes'][0]['comm']")"
eq "attach: incomplete because of the duration" "False duration" \
	"$(jget "$T/att.json" "'%s %s' % (d['complete'], d['incomplete_why'])")"
eq "attach: no restart error from our own interrupt" 0 \
	"$(jget "$T/att.json" "sum(n for s in d['syscalls'] for e, n in s['errnos'].items() if e.startswith('ERESTART'))")"
eq "attach: still running, no exit recorded" None "$(jget "$T/att.json" "d['exit']")"
kill "$spid"
wait "$spid" 2>/dev/null

# --- -d on a started command: SIGTERM, exit status 128+15 ---
"$KF" record -b ptrace -d 0.5 -F json --report /dev/null -o "$T/dur.json" -- "$SL" >"$T/p2"
eq "duration: exit status 128+SIGTERM" 143 "$?"
eq "duration: workload exit recorded" SIGTERM "$(jget "$T/dur.json" "d['exit'].get('signal')")"
eq "duration: marked incomplete" "False duration" "$(jget "$T/dur.json" "'%s %s' % (d['complete'], d['incomplete_why'])")"
eq "duration: the workload is gone" "" "$(state "$(cat "$T/p2")")"
# One nanosleep per getppid (SIGTERM may land between the two); one cut by SIGTERM still counts.
g=$(calls "$T/dur.json" getppid)
n=$(calls "$T/dur.json" nanosleep)
if [ "$g" -gt 5 ] && [ "$n" -ge $((g - 1)) ] && [ "$n" -le "$g" ]; then
	ok "duration: one nanosleep per getppid ($n, $g)"
else
	not_ok "duration: one nanosleep per getppid: $n nanosleep, $g getppid"
fi

# --- --keep-running: detach, the command goes on ---
"$KF" record -b ptrace -d 0.5 --keep-running -F json --report /dev/null -o "$T/keep.json" -- "$SL" >"$T/p3"
eq "keep-running: exit status" 0 "$?"
pid3=$(cat "$T/p3")
st=$(state "$pid3")
case $st in
S | R) ok "keep-running: workload still running (State $st)" ;;
*) not_ok "keep-running: workload still running: State '$st'" ;;
esac
eq "keep-running: not traced any more" 0 "$(sed -n 's/^TracerPid:[[:space:]]*//p' "/proc/$pid3/status")"
kill "$pid3" 2>/dev/null

# --- SIGINT to kfootprint alone: after a grace second the command gets SIGTERM; the footprint is saved ---
"$KF" record -b ptrace -F json --report /dev/null -o "$T/int.json" -- "$SL" >"$T/p4" &
kpid=$!
guard "$kpid"
waitfile "$T/p4"
sleep 0.3
kill -INT "$kpid"
wait "$kpid"
eq "ctrl-c: exit status 128+SIGTERM" 143 "$?"
unguard
eq "ctrl-c: marked interrupted" "False interrupted" "$(jget "$T/int.json" "'%s %s' % (d['complete'], d['incomplete_why'])")"
eq "ctrl-c: the workload is gone" "" "$(state "$(cat "$T/p4")")"

# --- Ctrl-C at a terminal: SIGINT to the whole process group; the workload dies of its own SIGINT ---
if command -v setsid >/dev/null; then
	# a background job of this shell ignores SIGINT, and the workload now inherits that as it would without
	# kfootprint (record_inherit.sh): a terminal's foreground job has SIGINT at its default, so give it that
	"$PY" -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
		setsid "$KF" record -b ptrace -F json --report /dev/null -o "$T/int2.json" -- "$SL" >"$T/p6" &
	kpid=$!
	guard "$kpid"
	waitfile "$T/p6"
	sleep 0.3
	env kill -INT -- "-$kpid"
	wait "$kpid"
	eq "ctrl-c at a terminal: exit status 128+SIGINT" 130 "$?"
	unguard
	eq "ctrl-c at a terminal: the workload's own SIGINT recorded, complete (it ended by itself)" "SIGINT True None" \
		"$(jget "$T/int2.json" "'%s %s %s' % (d['exit'].get('signal'), d['complete'], d.get('incomplete_why'))")"
else
	skip "ctrl-c at a terminal" "no setsid"
fi

# --- kill -STOP / -CONT of the traced workload: it stops and resumes as untraced ---
"$KF" record -b ptrace -F json --report /dev/null -o "$T/stop.json" -- "$SL" >"$T/p5" &
kpid=$!
guard "$kpid"
waitfile "$T/p5"
pid5=$(cat "$T/p5")
kill -STOP "$pid5"
sleep 0.3
c1=$(switches "$pid5")
sleep 0.3
c2=$(switches "$pid5")
st=$(state "$pid5")
case $st in
t | T) ok "stop: workload stopped (State $st)" ;;
*) not_ok "stop: workload stopped: State '$st'" ;;
esac
eq "stop: no progress while stopped" "$c1" "$c2"
kill -CONT "$pid5"
sleep 0.3
c3=$(switches "$pid5")
if [ "$c3" -gt "$c2" ]; then ok "stop: runs again after SIGCONT"; else not_ok "stop: runs again after SIGCONT ($c2 -> $c3)"; fi
kill -TERM "$pid5"
wait "$kpid"
eq "stop: SIGTERM to the workload is its exit" 143 "$?"
unguard
eq "stop: recorded SIGTERM" SIGTERM "$(jget "$T/stop.json" "d['exit'].get('signal')")"
eq "stop: complete (the workload ended by itself)" True "$(jget "$T/stop.json" "d['complete']")"
