#!/bin/sh
# The test runner: unit tests (cmocka, TAP output) from $KF_BUILD/tests and again from the ASan/UBSan build
# in $KF_ASAN, then every tests/integration/*.sh. Every test speaks TAP lines:
#   ok NAME | not ok NAME | ok NAME # SKIP why
# Each test's line ends with the seconds it took (wall) and the CPU seconds its processes used (user+sys of the
# processes it waited for: on a loaded machine the CPU seconds are what compares); the lines come as the tests end.
# The last lines are "tests took Ns" (wall time; the tests' own wall and CPU seconds added up beside it) and
# "N passed, N failed, N skipped"; the exit status is non-zero when anything failed.
# KF_ONLY=pattern runs only the scripts/binaries whose name contains pattern. KF_SUITE=DIR runs the scripts
# of DIR instead of the unit tests and tests/integration (make check-long: tests/long).
# KF_JOBS=N runs N tests at a time (default: the CPUs, at most 2; KF_JOBS=1: one at a time, as make check did
# before), and KF_WAIT_JOBS=N (default 1) more of those that mostly wait, beside them. A script says in a line of
# its own how it shares the machine, and why:
#   # kf-test: alone: WHY              nothing else runs beside it (it measures time, or counts something
#                                      machine-wide that another test's run would change)
#   # kf-test: exclusive NAME: WHY     no other script naming NAME runs beside it (a resource they share)
#   # kf-test: first [SECONDS]: WHY    started before the others (a long one: the pool ends sooner), the longest
#                                      (SECONDS: its wall time in a measured make check) first
#   # kf-test: waits: WHY              it mostly waits (sleeps, grace periods, timers: its CPU seconds a fraction of
#                                      its wall), so it runs in a wait slot beside the KF_JOBS others, which it
#                                      barely slows; in an ordinary slot only once no other test is left for it
#                                      (KF_WAIT_JOBS=0: in the ordinary slots, as before)
set -u
: "${KF_BUILD:=build}"
: "${KF_ASAN:=}"
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export KF_BUILD KF_TOP="$top"
export CMOCKA_MESSAGE_OUTPUT=TAP
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
log=$(mktemp -d /tmp/kf-tests.XXXXXX)
cpus=$(nproc 2>/dev/null || echo 1)
[ "$cpus" -gt 2 ] && cpus=2
jobs=${KF_JOBS:-$cpus}
case $jobs in '' | *[!0-9]* | 0) echo "tests/run.sh: KF_JOBS '$jobs': expected a number of jobs" >&2; exit 2 ;; esac
wjobs=${KF_WAIT_JOBS:-1}
case $wjobs in '' | *[!0-9]*) echo "tests/run.sh: KF_WAIT_JOBS '$wjobs': expected a number of jobs" >&2; exit 2 ;; esac

# run_one ID NAME COMMAND...: runs a test, its output in $log/ID.out; writes its line (and what failed) to
# $log/ID.txt, "passed failed skipped seconds cpu-centiseconds" to $log/ID.cnt, then ID to the pool's pipe.
# run_one runs in a subshell of its own, so `times`' second line (its children's user and sys time) is the test's.
run_one() {
	id=$1 name=$2; shift 2
	out="$log/$id.out"
	t0=$(date +%s)
	"$@" >"$out" 2>&1 </dev/null
	rc=$?
	secs=$(($(date +%s) - t0))
	# "0m1.250000s 0m0.310000s" (dash) or "0m1.250s 0m0.310s" (bash): user and sys, in centiseconds
	times >"$log/$id.times" # not in $(...): that subshell's own children would be none
	cpu=$(sed -n 2p "$log/$id.times" | awk '{ c = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); c += a[1] * 60 + a[2] }
		printf "%d", c * 100 + 0.5 }')
	# TAP: a "# SKIP" directive makes a line a skip, "ok" or "not ok" (cmocka writes "not ok N - name # SKIP")
	p=$(grep -cE '^ok ' "$out" | head -1); s=$(grep -cE '^(not )?ok .*# *SKIP' "$out"); f=$(grep -cE '^not ok ' "$out")
	sn=$(grep -cE '^not ok .*# *SKIP' "$out")
	p=$((p - s + sn)); f=$((f - sn))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1; echo "not ok $name: exited with status $rc" >>"$out"
	fi
	if [ $((p + s + f)) -eq 0 ]; then
		f=1; echo "not ok $name: ran no test" >>"$out"
	fi
	{
		printf '%-44s %4d passed %3d failed %3d skipped %4ds %4d.%ds cpu\n' "$name" "$p" "$f" "$s" "$secs" \
			$((cpu / 100)) $((cpu % 100 / 10))
		grep -E '^not ok |# *SKIP' "$out" | sed 's/^/    /'
		if [ "$f" -ne 0 ]; then tail -n 30 "$out" | sed 's/^/    | /'; fi
	} >"$log/$id.txt"
	echo "$p $f $s $secs $cpu" >"$log/$id.cnt"
	echo "$id" >&8
}

match() { [ -z "${KF_ONLY:-}" ] || case "$1" in *"$KF_ONLY"*) return 0 ;; *) return 1 ;; esac; }

# The queue, one line a test: ID FIRST ALONE WAITS GROUPS NAME COMMAND (COMMAND: a binary, or "sh SCRIPT"; FIRST:
# 0, or the seconds its first line gives, 1 where it gives none).
n=0
add() { # NAME FILE COMMAND...: FILE's kf-test lines say how it shares the machine
	n=$((n + 1))
	first=0 alone=0 waits=0 groups=-
	if [ -f "$2" ]; then
		first=$(sed -n 's/^# kf-test: first\( \([0-9]*\)\)\{0,1\}:.*/x\2/p' "$2" | head -n 1)
		case $first in '') first=0 ;; x) first=1 ;; *) first=${first#x} ;; esac
		grep -q '^# kf-test: alone:' "$2" && alone=1
		grep -q '^# kf-test: waits:' "$2" && waits=1
		g=$(sed -n 's/^# kf-test: exclusive \([a-z0-9_-]*\):.*/\1/p' "$2" | tr '\n' ',')
		[ -n "$g" ] && groups=",$g"
	fi
	name=$1; shift 2
	echo "$n $first $alone $waits $groups $name $*" >>"$log/queue"
}
: >"$log/queue"
suite=${KF_SUITE:-tests/integration}
[ -n "${KF_SUITE:-}" ] && KF_ASAN=
for t in "$KF_BUILD"/tests/test_*; do
	[ -z "${KF_SUITE:-}" ] || break
	[ -x "$t" ] || continue
	match "$t" || continue
	add "unit/$(basename "$t")" - "$t"
done
if [ -n "$KF_ASAN" ]; then
	for t in "$KF_ASAN"/tests/test_*; do
		[ -x "$t" ] || continue
		match "$t" || continue
		add "asan/$(basename "$t")" - "$t"
	done
fi
for t in "$suite"/*.sh; do
	[ -f "$t" ] || continue
	match "$t" || continue
	add "$(basename "$t" .sh)" "$t" sh "$t"
done
# the long ones first (the longest first), then in order, those that run alone last (each empties the pool before
# it starts)
{ awk '$2 > 0 && $3 == 0' "$log/queue" | sort -s -k2,2nr; awk '$2 == 0 && $3 == 0' "$log/queue"
	awk '$3 == 1' "$log/queue"; } >"$log/order"

# The pool: at most $jobs tests running, and $wjobs more of those that wait; one marked alone runs with nothing
# beside it, one of a group with none of that group. Each test says on the pipe when it ends.
mkfifo "$log/done" && exec 8<>"$log/done" || { echo "tests/run.sh: cannot make the pool's pipe in $log" >&2; exit 2; }
running=0 wrunning=0 run_alone=0 run_groups= waiting=$(cat "$log/order")
cpu_left=$(awk '$4 == 0' "$log/order" | wc -l) # the tests waiting that do not wait
pass=0 fail=0 skip=0 total_secs=0 total_cpu=0
t_start=$(date +%s)
# fits ALONE WAITS GROUPS: whether a test may start beside those running; slot=w where it takes a wait slot
fits() {
	slot=c
	[ "$run_alone" -eq 0 ] || return 1
	[ "$1" -eq 1 ] && [ $((running + wrunning)) -gt 0 ] && return 1
	# one that waits takes a wait slot, or an ordinary one only when no other test is left for it: there it would
	# keep a CPU idle
	if [ "$2" -eq 1 ] && [ "$wrunning" -lt "$wjobs" ]; then
		slot=w
	elif [ "$2" -eq 1 ] && [ "$wjobs" -gt 0 ] && [ "$cpu_left" -gt 0 ]; then
		return 1
	elif [ "$running" -ge "$jobs" ]; then
		return 1
	fi
	[ "$3" = - ] && return 0
	for g in $(echo "$3" | tr , ' '); do
		case $run_groups in *",$g,"*) return 1 ;; esac
	done
}
reap() { # one test ended: its lines, its counts
	read -r done_id <&8
	cat "$log/$done_id.txt"
	read -r p f s secs cpu <"$log/$done_id.cnt"
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s)); total_secs=$((total_secs + secs))
	total_cpu=$((total_cpu + cpu))
	if [ "$(cat "$log/$done_id.slot")" = w ]; then wrunning=$((wrunning - 1)); else running=$((running - 1)); fi
	line=$(sed -n "s/^$done_id [0-9]* \([01]\) [01] \([^ ]*\) .*/\1 \2/p" "$log/order")
	[ "${line%% *}" = 1 ] && run_alone=0
	g=${line#* }
	[ "$g" = - ] || for x in $(echo "$g" | tr , ' '); do run_groups=$(echo "$run_groups" | sed "s/,$x,/,/"); done
}
while [ -n "$waiting" ] || [ $((running + wrunning)) -gt 0 ]; do
	started=0
	# the first waiting test that fits: in order, so that one marked alone is not passed over for ever
	while read -r id first alone waits groups name cmd; do
		[ -n "$id" ] || continue
		if fits "$alone" "$waits" "$groups"; then
			echo "$slot" >"$log/$id.slot"
			run_one "$id" "$name" $cmd &
			if [ "$slot" = w ]; then wrunning=$((wrunning + 1)); else running=$((running + 1)); fi
			[ "$waits" -eq 1 ] || cpu_left=$((cpu_left - 1))
			[ "$alone" -eq 1 ] && run_alone=1
			[ "$groups" = - ] || run_groups="${run_groups:-,}${groups#,}"
			waiting=$(printf '%s\n' "$waiting" | awk -v id="$id" '$1 != id')
			started=1
			break
		fi
		# a test marked alone waits for the running ones to end: none after it starts meanwhile
		[ "$alone" -eq 1 ] && break
	done <<EOQ
$waiting
EOQ
	[ "$started" -eq 1 ] && continue
	reap
done
wait
exec 8>&-
rm -rf "$log"
echo "tests took $(($(date +%s) - t_start))s (${total_secs}s of tests, $jobs at a time and $wjobs that waits; $((total_cpu / 100))s of CPU)"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
