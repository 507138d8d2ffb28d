#!/bin/sh
# Nothing of a started workload escapes, with both backends, whatever ends observation: -d, SIGINT, SIGTERM or
# SIGHUP to kfootprint, kfootprint killed by SIGKILL. Every process gets SIGTERM, then SIGKILL 2 s later, even
# one that ignores SIGTERM, double-forks into its own session, runs as another user, or whose fork the backend
# has not read yet; --keep-running leaves it running and says so; the cgroup of the workload is gone afterwards.
# Then the same where no cgroup2 can be had (a mount namespace without it): kfootprint is a child subreaper.
# A surviving process is found by a marker in its command line (a long, unique sleep), or by a file it would
# create later; whatever a failed check leaves running is killed by pid at the end.
# kf-test: first 62: the longest of those that wait
# kf-test: waits: 62 s wall, 8 CPU s in a measured make check: -d, the 2 s between SIGTERM and SIGKILL, markers that must not appear
. "$(dirname "$0")/../lib.sh"

backends=ptrace
if out=$("$KF" record -b bpf --report /dev/null -- true 2>&1); then
	backends="bpf ptrace"
else
	skip "bpf" "bpf backend cannot run here: $out"
fi

# The cgroup2 mount and our own cgroup, as kfootprint finds them (a child of ours inherits our cgroup).
cg_mount=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | head -n 1)
cg_own=$(sed -n 's/^0:://p' /proc/self/cgroup)
# cgdir PID: the cgroup kfootprint PID makes for its workload.
cgdir() { echo "$cg_mount${cg_own%/}/kfootprint.$1"; }
have_cgroup() { [ -n "$cg_mount" ] && [ -n "$cg_own" ] && [ -w "$cg_mount$cg_own" ]; }

marks=""
# marker: sets m to a unique sleep argument (seconds) that names the processes of one workload.
marker() {
	m="1000.$$$(date +%N)"
	marks="$marks $m"
	echo "$m" >>"$T/marks" # a backend's cases run in a subshell: the cleanup reads them here
}
# survivors MARKER: pids of the processes whose command line holds MARKER (our shell's never does).
survivors() {
	for p in /proc/[0-9]*; do
		c=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline") || continue
		case $c in *"$1"*) printf '%s ' "${p#/proc/}" ;; esac
	done
}
# gone MARKER [TENTHS]: waits (5 s by default) until no process holds MARKER; prints those still there.
gone() {
	i=0
	while left=$(survivors "$1") && [ -n "$left" ] && [ $i -lt "${2:-50}" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	printf '%s' "$left"
}
cleanup() {
	for m in $marks $(cat "$T/marks" 2>/dev/null); do
		for p in $(survivors "$m"); do kill -KILL "$p" 2>/dev/null; done
	done
	rm -rf "$T"
}
trap cleanup EXIT

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
# kf NAME ARGS...: kfootprint in the background (stdout in $T/NAME.out, stderr in $T/NAME.err); its pid is $kp.
kf() {
	n=$1
	shift
	"$KF" "$@" >"$T/$n.out" 2>"$T/$n.err" &
	kp=$!
	guard "$kp"
}
# kf_wait: waits for it; its exit status is $rc.
kf_wait() {
	wait "$kp"
	rc=$?
	kill "$guard_pid" 2>/dev/null
}
# started NAME: until the workload printed its first line (at most 10 s).
started() {
	i=0
	while [ ! -s "$T/$1.out" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# running MARKER N: until N processes hold MARKER (at most 10 s).
running() {
	i=0
	while [ "$(survivors "$1" | wc -w)" -lt "$2" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
# cg_gone PID: the workload's cgroup has been removed (polled for 3 s: the guardian may still be at it).
cg_gone() {
	i=0
	while [ -d "$(cgdir "$1")" ] && [ $i -lt 30 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ ! -d "$(cgdir "$1")" ]
}
procs_exit() { jget "$1" "' '.join('%s:%s' % (p['comm'], (p.get('exit') or {}).get('signal', (p.get('exit') or {}).get('code'))) for p in d['processes'])"; }

# contain BACKEND: the cases of one backend (TAP lines on stdout)
contain() {
	b=$1
	# --- the workload runs in a cgroup of its own, removed afterwards ---
	if have_cgroup; then
		kf "cg$b" record -b "$b" --report /dev/null -- sh -c 'grep "^0::" /proc/self/cgroup'
		kf_wait
		eq "$b: the workload runs in its own cgroup" "0 0::${cg_own%/}/kfootprint.$kp" "$rc $(cat "$T/cg$b.out")"
		if cg_gone "$kp"; then ok "$b: its cgroup is removed"; else not_ok "$b: its cgroup is removed: $(cgdir "$kp")"; fi
	else
		skip "$b: own cgroup" "no writable cgroup2 hierarchy holds this test (mount '$cg_mount', cgroup '$cg_own')"
	fi

	# --- -d: a workload that ignores SIGTERM is killed 2 s later, every process of it ---
	marker
	kf "d$b" record -b "$b" -d 1 -o "$T/d$b.json" --report /dev/null -- sh -c "trap '' TERM; sleep $m; true"
	kf_wait
	eq "$b: -d, SIGTERM ignored: SIGKILL, exit status 137" 137 "$rc"
	eq "$b: -d, SIGTERM ignored: no process of the workload left" "" "$(gone "$m" 0)"
	eq "$b: -d, SIGTERM ignored: recorded killed by SIGKILL" "sh:SIGKILL sleep:SIGKILL" "$(procs_exit "$T/d$b.json")"
	if have_cgroup; then
		if cg_gone "$kp"; then ok "$b: -d: cgroup removed"; else not_ok "$b: -d: cgroup removed: $(cgdir "$kp")"; fi
	fi

	# --- -d on a workload that ends on SIGTERM: each of its processes recorded ended by SIGTERM ---
	kf "t$b" record -b "$b" -d 1 -o "$T/t$b.json" --report /dev/null -- sh -c 'sleep 10; true'
	kf_wait
	eq "$b: -d: exit status 128+SIGTERM" 143 "$rc"
	eq "$b: -d: sh and sleep ended by SIGTERM, not SIGKILL" "sh:SIGTERM sleep:SIGTERM" "$(procs_exit "$T/t$b.json")"

	# --- kfootprint killed by SIGKILL: the guardian stops the workload (the reproducer of issue 13) ---
	marker
	# the background process says it started; a twin of it outside the workload, started after that, ends once the
	# marker file would be there
	kf "k$b" record -b "$b" --report /dev/null -- sh -c ": $m; (echo started; sleep 2; touch '$T/k$b.mark') & wait"
	started "k$b"
	sleep 2.2 &
	twin=$!
	kill -KILL "$kp"
	kf_wait
	eq "$b: kill -9 kfootprint: no process of the workload left" "" "$(gone "$m")"
	wait "$twin"
	if [ -e "$T/k$b.mark" ]; then not_ok "$b: kill -9 kfootprint: the marker file appeared"; else ok "$b: kill -9 kfootprint: the marker file never appears"; fi
	if have_cgroup; then
		if cg_gone "$kp"; then ok "$b: kill -9: cgroup removed"; else not_ok "$b: kill -9: cgroup removed: $(cgdir "$kp")"; fi
		eq "$b: kill -9: the guardian says what it did" \
			"kfootprint: guardian: kfootprint (pid $kp) died: stopping its workload (SIGTERM, then SIGKILL after 2 s)" \
			"$(cat "$T/k$b.err")"
	fi

	# --- SIGINT, SIGTERM, SIGHUP to kfootprint: a background process that ignores SIGTERM still goes ---
	for sig in INT TERM HUP; do
		marker
		kf "s$b$sig" record -b "$b" -o "$T/s$b$sig.json" --report /dev/null -- \
			sh -c ": $m; (trap '' TERM; echo started; sleep 5; touch '$T/s$b$sig.mark') & wait"
		started "s$b$sig" # the background process ignores SIGTERM from here on
		kill -"$sig" "$kp"
		kf_wait
		eq "$b: SIG$sig to kfootprint: exit status 128+SIGTERM" 143 "$rc"
		eq "$b: SIG$sig: no process of the workload left" "" "$(gone "$m" 0)"
		if [ -e "$T/s$b$sig.mark" ]; then not_ok "$b: SIG$sig: the marker file appeared"; else ok "$b: SIG$sig: no marker file"; fi
		eq "$b: SIG$sig: marked interrupted" "False interrupted" \
			"$(jget "$T/s$b$sig.json" "'%s %s' % (d['complete'], d.get('incomplete_why'))")"
	done

	# --- --keep-running: left running, untraced, out of the cgroup, and said so ---
	marker
	kf "r$b" record -b "$b" -d 0.5 --keep-running -o "$T/r$b.json" --report /dev/null -- sh -c "sleep $m; true"
	kf_wait
	left=$(survivors "$m")
	eq "$b: --keep-running: exit status 0, two processes still running" "0 2" "$rc $(echo $left | wc -w)"
	said=$(sed -n 's/^kfootprint: the workload keeps running, untraced (--keep-running): pids //p' "$T/r$b.err")
	eq "$b: --keep-running: stderr lists them" "$(echo $left | tr ' ' '\n' | sort | tr '\n' ' ')" \
		"$(echo $said | tr ' ' '\n' | sort | tr '\n' ' ')"
	for p in $left; do
		eq "$b: --keep-running: pid $p not traced, back in our cgroup" "0 0::$cg_own" \
			"$(sed -n 's/^TracerPid:[[:space:]]*//p' "/proc/$p/status") $(grep '^0::' "/proc/$p/cgroup")"
		kill "$p"
	done
	if have_cgroup; then
		if cg_gone "$kp"; then ok "$b: --keep-running: cgroup removed"; else not_ok "$b: --keep-running: cgroup removed"; fi
	fi

	# --- --keep-running and kfootprint killed: the guardian leaves it running, untraced, and says so ---
	if have_cgroup; then
		marker
		kf "rk$b" record -b "$b" -d 30 --keep-running --report /dev/null -- sh -c "echo started; sleep $m; true"
		running "$m" 2 # sh and its sleep
		kill -KILL "$kp"
		kf_wait
		cg_gone "$kp"
		left=$(survivors "$m")
		said=$(sed -n "s/^kfootprint: guardian: kfootprint (pid $kp) died: the workload keeps running, untraced (--keep-running): pids //p" "$T/rk$b.err")
		eq "$b: --keep-running, kill -9: still running, and the guardian lists it" \
			"2 $(echo $left | tr ' ' '\n' | sort | tr '\n' ' ')" "$(echo $left | wc -w) $(echo $said | tr ' ' '\n' | sort | tr '\n' ' ')"
		for p in $left; do
			eq "$b: --keep-running, kill -9: pid $p not traced, out of the removed cgroup" "0 0::$cg_own" \
				"$(sed -n 's/^TracerPid:[[:space:]]*//p' "/proc/$p/status") $(grep '^0::' "/proc/$p/cgroup")"
			kill "$p"
		done
	fi

	# --- the exit status passes through; a background process is waited for, not killed ---
	kf "x$b" record -b "$b" -o "$T/x$b.json" --report /dev/null -- sh -c '(sleep 0.3; exit 0) & exit 7'
	kf_wait
	eq "$b: exit status 7 passes through" 7 "$rc"
	eq "$b: the background processes ended by themselves" "sh:7 sh:0 sleep:0" "$(procs_exit "$T/x$b.json")"

	# --- -u nobody: contained all the same, also a double fork into its own session ---
	if id nobody >/dev/null 2>&1; then
		marker
		kf "u$b" record -b "$b" -u nobody -d 1 --report /dev/null -- \
			sh -c "trap '' TERM; (setsid sh -c 'sleep $m' &); sleep $m; true"
		kf_wait
		eq "$b: -u nobody: SIGKILL after the grace period" 137 "$rc"
		eq "$b: -u nobody: no process of the workload left" "" "$(gone "$m" 0)"
		marker
		kf "uk$b" record -b "$b" -u nobody --report /dev/null -- sh -c "(setsid sh -c 'echo started; exec sleep $m' &); sleep $m"
		started "uk$b" # its own session's process runs
		kill -KILL "$kp"
		kf_wait
		eq "$b: -u nobody, kill -9 kfootprint: no process of the workload left" "" "$(gone "$m")"
	else
		skip "$b: -u nobody" "no user nobody"
	fi
}
# the two backends side by side: their cases mostly wait (-d, the 2 s between SIGTERM and SIGKILL), so both at
# once take the time of one; each one's lines in a file, shown in order
for b in $backends; do contain "$b" >"$T/tap.$b" 2>&1 & done
wait
for b in $backends; do cat "$T/tap.$b"; done

# --- the guardian: not in the workload's cgroup, holds nothing of kfootprint's, ends with it ---
if have_cgroup; then
	kf g record -b ptrace --report /dev/null -- sh -c \
		'g=$(pgrep -x -P $PPID kf-guardian) || exit 1; echo $g; ls /proc/$g/fd | wc -l; grep "^0::" /proc/$g/cgroup
		tr "\0" " " </proc/$g/cmdline'
	kf_wait
	g=$(sed -n 1p "$T/g.out")
	eq "guardian: a child of kfootprint, 6 descriptors (stdio, its pipe, 2 cgroup directories), in our cgroup" \
		"6 0::$cg_own" "$(sed -n 2,3p "$T/g.out" | tr '\n' ' ' | sed 's/ $//')"
	eq "guardian: shown as what it is" "kfootprint guardian" "$(sed -n 4p "$T/g.out" | sed 's/ *$//')"
	if [ -n "$g" ] && [ ! -e "/proc/$g" ]; then ok "guardian: gone (and reaped) when kfootprint ends"; else not_ok "guardian: gone when kfootprint ends ($g)"; fi
fi

# --- the sanitizer build on the containment paths: stop, kill, keep running ---
if [ -n "$KF_ASAN_BIN" ] && [ -x "$KF_ASAN_BIN" ]; then
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	for b in $backends; do
		marker
		"$KF_ASAN_BIN" record -b "$b" -d 0.5 --report /dev/null -- sh -c "trap '' TERM; (setsid sh -c 'sleep $m' &); sleep $m" \
			2>"$T/as$b.err"
		eq "asan $b: -d, SIGTERM ignored: 137, nothing left, no sanitizer report" "137  0" \
			"$? $(gone "$m" 0) $(grep -c Sanitizer "$T/as$b.err")"
		marker
		"$KF_ASAN_BIN" record -b "$b" -d 0.3 --keep-running --report /dev/null -- sh -c "sleep $m" 2>"$T/ak$b.err"
		eq "asan $b: --keep-running: 0, one line, no sanitizer report" "0 1 0" \
			"$? $(grep -c 'keeps running' "$T/ak$b.err") $(grep -c Sanitizer "$T/ak$b.err")"
		for p in $(survivors "$m"); do kill "$p"; done
	done
else
	skip asan "no sanitizer build (KF_ASAN)"
fi

# --- no cgroup2 here (a mount namespace without it): kfootprint is a child subreaper ---
if ! command -v unshare >/dev/null || ! unshare -m --propagation private true 2>/dev/null; then
	skip "subreaper" "cannot make a mount namespace (unshare -m)"
	exit 0
fi
# nocg CMD...: runs CMD in a mount namespace where every cgroup2 mount is gone (status 99: cannot unmount).
cat >"$T/nocg.sh" <<'EOF2'
for m in $(awk '{ for (i = 7; i < NF; i++) if ($i == "-") { if ($(i + 1) == "cgroup2") print $5; break } }' \
	/proc/self/mountinfo | sort -r); do
	umount "$m" || exit 99
done
exec "$@"
EOF2
nocg() { unshare -m --propagation private sh "$T/nocg.sh" "$@"; }
for b in $backends; do
	marker
	nocg "$KF" record -v -b "$b" -d 1 --report /dev/null -- \
		sh -c "trap '' TERM; (setsid sh -c 'sleep $m' &); sleep $m; true" >/dev/null 2>"$T/n$b.err"
	rc=$?
	if [ $rc = 99 ]; then
		skip "$b: subreaper" "cannot unmount cgroup2 in a mount namespace"
		continue
	fi
	eq "$b: no cgroup2: kfootprint is a child subreaper" 1 "$(grep -c 'containment: no cgroup: kfootprint is a child subreaper' "$T/n$b.err")"
	eq "$b: no cgroup2: -d, SIGTERM ignored, double fork: SIGKILL" 137 "$rc"
	eq "$b: no cgroup2: no process of the workload left" "" "$(gone "$m" 0)"
done
# ptrace: kfootprint's death takes every tracee with it (PTRACE_O_EXITKILL). With bpf only the command's first
# process has a parent-death signal: the documented limit of a machine without cgroup2.
marker
nocg sh -c '"$@" & echo $! >"'"$T"'/nk.pid"; wait' sh "$KF" record -b ptrace --report /dev/null -- \
	sh -c "echo started; : $m; (sleep 2; touch '$T/nk.mark') & wait" >"$T/nk.out" 2>/dev/null &
started nk
kill -KILL "$(cat "$T/nk.pid")"
wait
eq "ptrace: no cgroup2, kill -9 kfootprint: no process of the workload left" "" "$(gone "$m")"
