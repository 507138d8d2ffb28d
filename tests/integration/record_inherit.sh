#!/bin/sh
# A workload runs as it would without kfootprint (issue 24), with both backends: the signals it finds ignored
# (`trap '' ...`, nohup), its signal mask, resource limits, umask, process group, session and controlling
# terminal are those of the same command run without kfootprint; and kfootprint itself honours an ignored
# SIGHUP (nohup), recording on to the end.
# kf-test: waits: 5 s wall, 0.9 CPU s in a measured make check: -d on sleeping workloads
. "$(dirname "$0")/../lib.sh"

# The probe prints what a process inherited, nothing that differs between two runs (pids, times).
cat >"$T/probe.sh" <<'PROBE'
grep -E '^Sig(Ign|Blk):' /proc/self/status
ulimit -a
umask
set -- $(ps -o pgid=,tpgid=,sid= -p $$) $(ps -o sid= -p $PPID)
[ "$1" = "$2" ] && echo "in the foreground process group" || echo "in the background: pgid $1, tpgid $2"
[ "$3" = "$4" ] && echo "in its parent's session" || echo "another session: $3, parent $4"
tty || true
PROBE
# blocked SIGS CMD...: CMD with SIGS (names) added to the signal mask, as a parent may leave it
cat >"$T/block.py" <<'PY'
import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {getattr(signal, "SIG" + s) for s in sys.argv[1].split(",")})
os.execvp(sys.argv[2], sys.argv[2:])
PY
# setup: a shell prelude that changes what is inherited, the way users do
SETUP="trap '' INT HUP TERM QUIT PIPE USR2; ulimit -n 321; ulimit -c 0; ulimit -s 4096; umask 027"

backends=ptrace
if bpf_or_skip "bpf: the workload's inheritance"; then backends="ptrace bpf"; fi
for b in $backends; do
	kf="'$KF' record -b $b --report /dev/null --"
	# --- ignored signals, rlimits, umask (no terminal) ---
	sh -c "$SETUP; exec sh '$T/probe.sh'" >"$T/plain" 2>&1 </dev/null
	sh -c "$SETUP; exec $kf sh '$T/probe.sh'" >"$T/traced" 2>&1 </dev/null
	grep -q 'SigIgn:.*[1-9a-f]' "$T/plain" || not_ok "$b: the untraced probe shows no ignored signal: $(cat "$T/plain")"
	check "$b: ignored signals, mask, rlimits and umask as without kfootprint" diff "$T/plain" "$T/traced"
	# --- the signal mask a parent left ---
	# (grep itself reads it: a shell would clear the mask at its start)
	"$PY" "$T/block.py" USR1,WINCH,ALRM grep -E '^Sig(Ign|Blk|Cgt):' /proc/self/status >"$T/plain" 2>&1 </dev/null
	"$PY" "$T/block.py" USR1,WINCH,ALRM "$KF" record -b "$b" --report /dev/null -- grep -E '^Sig(Ign|Blk|Cgt):' /proc/self/status \
		>"$T/traced" 2>&1 </dev/null
	grep -q 'SigBlk:.*[1-9a-f]' "$T/plain" || not_ok "$b: the untraced probe shows no blocked signal: $(cat "$T/plain")"
	check "$b: a blocked signal mask as without kfootprint" diff "$T/plain" "$T/traced"
	# --- a terminal, and an interactive shell's job control: the workload is in the foreground ---
	if script -qec true /dev/null </dev/null >/dev/null 2>&1; then
		script -qec "sh -ic 'sh $T/probe.sh'" /dev/null </dev/null | tr -d '\r' >"$T/plain"
		script -qec "sh -ic \"$kf sh $T/probe.sh\"" /dev/null </dev/null | tr -d '\r' >"$T/traced"
		if grep -q "in the foreground process group" "$T/plain" && grep -q '^/dev/pts/' "$T/plain"; then
			check "$b: at a terminal: process group, session, terminal as without kfootprint" \
				diff "$T/plain" "$T/traced"
		else
			not_ok "$b: the untraced probe at a terminal is not in the foreground: $(cat "$T/plain")"
		fi
	else
		skip "$b: at a terminal" "script(1) cannot open a pseudo-terminal here"
	fi
	# --- nohup: a hangup leaves kfootprint and its workload running; the footprint is whole ---
	rm -f "$T/n.json" "$T/n.pid"
	nohup "$KF" record -b "$b" -o "$T/n.json" --report /dev/null -- sh -c "echo \$\$ >'$T/n.pid'; sleep 1.5" \
		>/dev/null 2>"$T/n.err" &
	k=$!
	waitfor "$T/n.pid" '^[0-9]'
	sleep 0.3
	kill -HUP "$k" "$(cat "$T/n.pid")"
	wait "$k"
	eq "$b: nohup, SIGHUP to kfootprint and the workload: the workload's exit status" 0 "$?"
	eq "$b: nohup: the footprint is complete" "True 0" "$(jget "$T/n.json" "'%s %s' % (d['complete'], d['exit'].get('code'))")"
	# without nohup the same hangup stops the recording, as before
	rm -f "$T/n.pid"
	"$KF" record -b "$b" -o "$T/h.json" --report /dev/null -- sh -c "echo \$\$ >'$T/n.pid'; sleep 5" 2>/dev/null &
	k=$!
	waitfor "$T/n.pid" '^[0-9]'
	sleep 0.3
	kill -HUP "$k"
	wait "$k"
	eq "$b: without nohup, SIGHUP to kfootprint stops the recording (SIGTERM to the workload)" 143 "$?"
done
