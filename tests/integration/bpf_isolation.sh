#!/bin/sh
# The bpf backend follows only the workload's tasks, leaves nothing attached, ends observation as asked
# (-d, Ctrl-C, --keep-running, -p), and falls back to ptrace where BPF cannot load.
# kf-test: exclusive wl_sleeper: bpf_isolation.sh counts the wl_sleeper processes left to PID 1, which the others start
# kf-test: waits: 14 s wall, 2.8 CPU s in a measured make check: -d, Ctrl-C and -p on sleeping workloads
. "$(dirname "$0")/../lib.sh"

bpf_or_skip bpf_isolation || exit 0
workload_or_skip bpf_isolation "$WL/wl_sleeper" || exit 0
# sum FILE NAME: calls of one syscall over the workload.
sum() { jget "$1" "sum(s['calls'] for s in d['syscalls'] if s['name'] == '$2')"; }
# start_sleeper FILE [ARG]: a background wl_sleeper (getppid + nanosleep forever); its pid is in $sp.
start_sleeper() {
	"$WL/wl_sleeper" ${2:-} >"$1" &
	sp=$!
	i=0
	while [ ! -s "$1" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
}

# --- a noisy process beside the workload: none of its calls counted ---
start_sleeper "$T/noise.pid" 1
"$KF" record -b bpf -F json --report /dev/null -o "$T/n.json" -- ls / >/dev/null 2>"$T/n.err"
"$KF" record -b bpf --no-time -F json --report /dev/null -o "$T/n2.json" -- ls / >/dev/null 2>>"$T/n.err"
kill "$sp"; wait "$sp" 2>/dev/null
eq "noise: no nanosleep or getppid of the noisy process counted" "0 0 0 0" \
	"$(sum "$T/n.json" nanosleep) $(sum "$T/n.json" getppid) $(sum "$T/n2.json" nanosleep) $(sum "$T/n2.json" getppid)"
eq "noise: one process, ls" "1 ls" "$(jget "$T/n.json" "'%d %s' % (len(d['processes']), d['processes'][0]['comm'])")"

# --- attach: only the named process, even with another copy running ---
start_sleeper "$T/a.pid" 1; a=$sp
start_sleeper "$T/b.pid"; b=$sp
"$KF" record -b bpf -p "$a" -d 1 -F json --report /dev/null -o "$T/p.json" >/dev/null 2>"$T/p.err"
rc=$?
kill "$a" "$b"; wait "$a" "$b" 2>/dev/null
eq "attach: exit status 0" 0 "$rc"
eq "attach: only pid $a, its 2 threads, still running" "[$a] [2] [None]" \
	"$(jget "$T/p.json" "'%s %s %s' % ([p['pid'] for p in d['processes']], [p['threads'] for p in d['processes']], [p['exit'] for p in d['processes']] if all('exit' in p for p in d['processes']) else [None])")"
# Two threads, each a getppid every 20 ms, for 1 s: about 100 calls; never the other copy's as well (~150).
n=$(sum "$T/p.json" getppid)
if [ "$n" -ge 60 ] && [ "$n" -le 130 ]; then ok "attach: $n getppid in 1 s from 2 threads"; else not_ok "attach: $n getppid in 1 s (expected 60..130)"; fi
eq "attach: complete false, why duration" "False duration" "$(jget "$T/p.json" "'%s %s' % (d['complete'], d.get('incomplete_why'))")"

# --- -d on a started command: SIGTERM, footprint incomplete ---
"$KF" record -b bpf -d 0.5 -F json --report /dev/null -o "$T/d.json" -- "$WL/wl_sleeper" >/dev/null 2>&1
eq "duration: stopped by SIGTERM, status 143" "143" "$?"
eq "duration: exit SIGTERM, complete false (duration)" "SIGTERM False duration" \
	"$(jget "$T/d.json" "'%s %s %s' % (d['exit'].get('signal'), d['complete'], d.get('incomplete_why'))")"

# --- --keep-running: observation ends, the command goes on ---
"$KF" record -b bpf -d 0.3 --keep-running -F json --report /dev/null -o "$T/k.json" -- "$WL/wl_sleeper" >"$T/k.pid" 2>"$T/k.err"
kp=$(cat "$T/k.pid")
if kill -0 "$kp" 2>/dev/null; then ok "keep-running: the command still runs"; kill "$kp"; else not_ok "keep-running: the command is gone"; fi
eq "keep-running: kfootprint says so, with its pid" \
	"kfootprint: the workload keeps running, untraced (--keep-running): pid $kp" "$(cat "$T/k.err")"

# --- Ctrl-C ---
"$KF" record -b bpf -F json --report /dev/null -o "$T/c.json" -- "$WL/wl_sleeper" >/dev/null 2>&1 &
k=$!
sleep 0.5
kill -INT "$k"
wait "$k"
eq "ctrl-c: footprint saved, incomplete (interrupted)" "False interrupted" \
	"$(jget "$T/c.json" "'%s %s' % (d['complete'], d.get('incomplete_why'))")"

# --- nothing left attached: the ids of our programs and links (from fdinfo) are gone afterwards ---
# ids_of PID: the prog_id and link_id values of the BPF objects that process holds.
ids_of() { cat /proc/"$1"/fdinfo/* 2>/dev/null | sed -n 's/^\(prog_id\|link_id\):[[:space:]]*\([0-9]*\)/\1 \2/p' | sort -u; }
# still_there IDS: those of the ids still listed by bpftool (polled for 2 s: freeing is deferred).
still_there() {
	i=0
	while :; do
		left=$(printf '%s\n' "$1" | while read -r kind id; do
			[ -n "$id" ] || continue
			case $kind in prog_id) bpftool prog show id "$id" >/dev/null 2>&1 && echo "prog $id" ;;
			link_id) bpftool link show id "$id" >/dev/null 2>&1 && echo "link $id" ;; esac
		done)
		[ -z "$left" ] || [ $i -ge 20 ] && break
		sleep 0.1; i=$((i + 1))
	done
	printf '%s' "$left"
}
if ! command -v bpftool >/dev/null; then
	skip teardown "bpftool not installed"
else
	# sys_exit is the program that reads files with plain loads on the build kernel, where these tests run
	# (bpf_cost.sh checks which one each mode loads)
	exit_prog=kf_sys_exit
	grep -q '^#define KF_ID_RDONLY_CAST [1-9]' "$KF_TOP/$KF_BUILD/gen/kfids.h" 2>/dev/null && exit_prog=kf_sys_exit_cast
	for how in end int kill; do
		"$KF" record -b bpf --report /dev/null -- "$WL/wl_sleeper" >/dev/null 2>&1 &
		k=$!
		i=0
		while [ -z "$(ids_of "$k")" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
		sleep 0.2
		ids=$(ids_of "$k")
		nprog=$(printf '%s\n' "$ids" | grep -c prog_id)
		nlink=$(printf '%s\n' "$ids" | grep -c link_id)
		names=$(printf '%s\n' "$ids" | sed -n 's/^prog_id //p' | while read -r id; do bpftool prog show id "$id" | sed -n 's/.* name \([^ ]*\) .*/\1/p'; done | sort | tr '\n' ' ')
		case $how in
		end) pkill -TERM -P "$k" wl_sleeper ;; # the workload ends: normal teardown
		int) kill -INT "$k" ;;
		kill) kill -KILL "$k" ;; # kfootprint dies: its links and programs go with its file descriptors
		esac
		wait "$k" 2>/dev/null
		eq "teardown ($how): programs and links held while running" "5 5 kf_exec kf_exit kf_fork kf_sys_enter $exit_prog " \
			"$nprog $nlink $names"
		# Programs pinned in the program cache (KF_BPF_CACHE, docs/bpf.md#the-cache) stay loaded for the next run,
		# attached to nothing: every link is gone all the same.
		pinned=$(for p in /sys/fs/bpf/kfootprint/*/p_*; do
			[ -e "$p" ] && bpftool prog show pinned "$p" 2>/dev/null | sed -n 's/^\([0-9]*\):.*/prog \1/p'
		done)
		eq "teardown ($how): none left afterwards (but programs pinned in the cache: no link)" "" \
			"$(still_there "$ids" | grep -vxF "${pinned:-none}")"
	done
	# after kill -KILL, the guardian stops the command (SIGTERM), as under ptrace
	sleep 0.3
	eq "teardown (kill): no sleeper left running" "" "$(pgrep -f "$WL/wl_sleeper" -P 1 2>/dev/null)"
fi

# --- where BPF cannot load: auto falls back to ptrace and says so, -b bpf is a clear error ---
if ! command -v setpriv >/dev/null; then
	skip fallback "setpriv not installed"
else
	nocaps="setpriv --inh-caps=-all --bounding-set=-all"
	$nocaps "$KF" record --report /dev/null -o "$T/f.json" -- true 2>"$T/f.err"
	eq "fallback: auto without capabilities runs ptrace" "0 ptrace" "$? $(jget "$T/f.json" "d['backend']")"
	eq "fallback: auto says why, on one line" "1" "$(grep -c 'backend auto: using ptrace, bpf cannot load: needs root or CAP_BPF and CAP_PERFMON' "$T/f.err")"
	$nocaps "$KF" record -b bpf --report /dev/null -- true 2>"$T/g.err"
	eq "fallback: -b bpf without capabilities fails with status 1" "1" "$?"
	eq "fallback: -b bpf error names the missing capabilities" \
		"kfootprint: backend bpf: needs root or CAP_BPF and CAP_PERFMON (missing CAP_BPF CAP_PERFMON)" "$(cat "$T/g.err")"
	mkdir "$T/nobody" && chmod 777 "$T" "$T/nobody"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$(for_others "$KF")" record --report "$T/nobody/r.txt" \
		-o "$T/nobody/f.json" -- true 2>"$T/h.err"
	eq "fallback: as nobody, auto runs ptrace" "0 ptrace" "$? $(jget "$T/nobody/f.json" "d['backend']" 2>&1)"
fi

# --- the sanitizer build on the bpf paths: fork, exec, threads, attach, duration ---
if [ -n "$KF_ASAN_BIN" ] && [ -x "$KF_ASAN_BIN" ]; then
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	check "asan: fork, exec, pipeline" "$KF_ASAN_BIN" record -b bpf -F tree --report "$T/as1.txt" -- sh -c 'ls / | wc -l'
	check "asan: threads, exec from a thread" "$KF_ASAN_BIN" record -b bpf --no-time --report "$T/as2.txt" -- "$WL/wl_threads"
	start_sleeper "$T/as.pid" 1
	check "asan: attach with -d" "$KF_ASAN_BIN" record -b bpf -p "$sp" -d 0.3 --report "$T/as3.txt"
	kill "$sp"; wait "$sp" 2>/dev/null
	"$KF_ASAN_BIN" record -b bpf -d 0.3 --report "$T/as4.txt" -- "$WL/wl_sleeper" >/dev/null 2>"$T/as4.err"
	eq "asan: -d stops the command, no sanitizer report" "143 0" "$? $(grep -c 'Sanitizer' "$T/as4.err")"
else
	skip asan "no sanitizer build (KF_ASAN)"
fi
