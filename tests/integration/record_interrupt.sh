#!/bin/sh
# A stop signal makes a footprint incomplete only when a process of the workload was still running as
# observation ended (issue 23): a command that ends by itself after kfootprint got SIGINT, or a server that ends
# in its own SIGINT handler at a terminal's Ctrl-C, is complete, and `seccomp` does not warn of it; one still
# running when the SIGINT's grace second is over is "interrupted", and `seccomp` warns. Both backends.
# kf-test: waits: 7 s wall, 1.9 CPU s in a measured make check (fresh clone, Debian 12, 2 CPUs)
. "$(dirname "$0")/../lib.sh"

# json FILE: "complete incomplete_why exit" of a saved footprint.
json() { jget "$1" "'%s %s %s' % (d['complete'], d.get('incomplete_why'), d.get('exit'))"; }
# seccomp_warns FILE: the warning seccomp gives of an incomplete footprint, or "none".
seccomp_warns() {
	w=$("$KF" seccomp -o /dev/null "$1" 2>&1 | sed -n 's/.*the footprint is incomplete (\(.*\)): .*/\1/p')
	echo "${w:-none}"
}
# tty_group CMD...: CMD in a process group of its own (its pid's, whatever job control the runner has) with SIGINT
# at its default, as a terminal's foreground job has it (a background job of this shell ignores SIGINT, and the
# workload inherits that: record_inherit.sh).
tty_group() {
	exec "$PY" -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.setpgid(0, 0); os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
# waitfor FILE TEXT: until FILE has TEXT, at most 20 s (python under ptrace starts slowly on a loaded machine).
waitfor() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# guard PID: a test must never hang; whatever of kfootprint is left after 40 s is killed (and then fails).
guard() {
	(
		trap 'kill "$s" 2>/dev/null; exit 0' TERM
		sleep 40 &
		s=$!
		wait "$s" && kill -KILL "$1" 2>/dev/null
	) >/dev/null 2>&1 &
	guard_pid=$!
}
unguard() { kill "$guard_pid" 2>/dev/null; }

backends=ptrace
bpf_or_skip "bpf: interrupts" && backends="ptrace bpf"
for b in $backends; do
	# --- SIGINT to kfootprint from the command's last act: it exits by itself, observed whole ---
	"$KF" record -b "$b" -q -o "$T/own$b.json" --report /dev/null -- sh -c 'kill -INT $PPID; exit 3' 2>"$T/own$b.err"
	eq "$b: SIGINT, then the command exits by itself: its exit status" 3 "$?"
	eq "$b: SIGINT, then the command exits by itself: complete" "True None {'code': 3}" "$(json "$T/own$b.json")"
	eq "$b: a complete footprint: seccomp does not warn" none "$(seccomp_warns "$T/own$b.json")"

	# --- the same, still running when the second of grace is over: stopped, interrupted ---
	"$KF" record -b "$b" -q -o "$T/run$b.json" --report /dev/null -- sh -c 'kill -INT $PPID; sleep 20' 2>"$T/run$b.err"
	eq "$b: SIGINT, the command still running after 1 s: stopped (128+SIGTERM)" 143 "$?"
	eq "$b: SIGINT, the command still running: interrupted" "False interrupted {'signal': 'SIGTERM'}" \
		"$(json "$T/run$b.json")"
	eq "$b: an interrupted footprint: seccomp warns" interrupted "$(seccomp_warns "$T/run$b.json")"

	# --- a terminal's Ctrl-C to a server (python's http.server): its own handler ends it, exit 0 ---
	: >"$T/srv$b.out"
	tty_group "$KF" record -b "$b" -q -o "$T/srv$b.json" --report /dev/null -- \
		"$PY" -u -m http.server 0 --bind 127.0.0.1 >"$T/srv$b.out" 2>"$T/srv$b.err" &
	kpid=$!
	guard "$kpid"
	waitfor "$T/srv$b.out" "Serving HTTP"
	env kill -INT -- "-$kpid"
	wait "$kpid"
	eq "$b: Ctrl-C at a terminal, the server ends in its handler: exit 0" 0 "$?"
	unguard
	eq "$b: Ctrl-C, the server ended by itself: complete" "True None {'code': 0}" "$(json "$T/srv$b.json")"
	eq "$b: the server's footprint: seccomp does not warn" none "$(seccomp_warns "$T/srv$b.json")"

	# --- a terminal's Ctrl-C to a job that ignores SIGINT: still running 1 s later, so interrupted ---
	tty_group "$KF" record -b "$b" -q -o "$T/ign$b.json" --report /dev/null -- \
		sh -c 'trap "" INT; echo started; sleep 20' >"$T/ign$b.out" 2>"$T/ign$b.err" &
	kpid=$!
	guard "$kpid"
	waitfor "$T/ign$b.out" started
	sleep 0.2
	env kill -INT -- "-$kpid"
	wait "$kpid"
	eq "$b: Ctrl-C, the job ignores SIGINT: stopped (128+SIGTERM)" 143 "$?"
	unguard
	eq "$b: Ctrl-C, the job still running: interrupted" "False interrupted {'signal': 'SIGTERM'}" \
		"$(json "$T/ign$b.json")"

	# --- -p: the attached process runs on after the SIGINT: interrupted ---
	sleep 20 &
	spid=$!
	"$KF" record -b "$b" -q -p "$spid" -o "$T/att$b.json" --report /dev/null 2>"$T/att$b.err" &
	kpid=$!
	guard "$kpid"
	waitfor "$T/att$b.err" "attached to"
	kill -INT "$kpid"
	wait "$kpid"
	eq "$b: -p, SIGINT: exit status 0" 0 "$?"
	unguard
	eq "$b: -p, SIGINT: the process runs on, interrupted" "False interrupted None" "$(json "$T/att$b.json")"
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null || :
done
