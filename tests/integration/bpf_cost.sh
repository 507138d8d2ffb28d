#!/bin/sh
# What the bpf backend costs: each mode attaches only the tracepoints it needs (--no-time: sys_exit, not
# sys_enter), as the kernel's own fdinfo of kfootprint's BPF links says; --no-time still counts a syscall storm
# exactly; and no program makes the verifier walk a path explosion (the start-up cost: one such program once
# took 17 733 instructions, 20-60 ms, where ~800 do).
. "$(dirname "$0")/../lib.sh"

bpf_or_skip bpf_cost || exit 0

# tracepoints PID: the raw tracepoints the BPF links of process PID are attached to, sorted, on one line;
# empty until its programs are attached (read from /proc/PID/fdinfo, so other tracers on the machine do not
# count).
tracepoints() {
	for f in /proc/"$1"/fdinfo/*; do
		sed -n 's/^tp_name:[[:space:]]*//p' "$f" 2>/dev/null
	done | sort | tr '\n' ' ' | sed 's/ $//'
}

# attached MODE...: the tracepoints kfootprint attaches in that mode, read while the workload waits for us (a
# fixed sleep would end before a slow start-up on a busy machine had attached anything).
attached() {
	: >"$T/hold"
	"$KF" record -b bpf "$@" --report /dev/null -- \
		sh -c 'while [ -e "$1" ]; do sleep 0.05; done' sh "$T/hold" >/dev/null 2>"$T/att.err" &
	kp=$!
	tps=
	i=0
	while [ -z "$tps" ] && [ $i -lt 1500 ] && kill -0 "$kp" 2>/dev/null; do
		tps=$(tracepoints "$kp")
		[ -n "$tps" ] || sleep 0.02
		i=$((i + 1))
	done
	# Every link is made before the command is released: read again once they are all there.
	sleep 0.2
	tps=$(tracepoints "$kp")
	rm -f "$T/hold"
	wait "$kp"
	echo "$tps"
}

# The programs load in one object, or with KF_BPF_SPLIT=1 on two CPUs (sys_exit in a thread, with the maps shared:
# src/trace/bpf_load.c): both ways attach the same.
for split in 0 1; do
	export KF_BPF_SPLIT=$split
	eq "split=$split: time mode: sys_enter, sys_exit and the three process tracepoints" \
		"sched_process_exec sched_process_exit sched_process_fork sys_enter sys_exit" "$(attached)"
	eq "split=$split: --no-time: sys_exit alone of the syscall tracepoints" \
		"sched_process_exec sched_process_exit sched_process_fork sys_exit" "$(attached --no-time)"
done
unset KF_BPF_SPLIT

# The sys_exit that reads files with plain loads (kf_sys_exit_cast) is the one loaded on the build kernel (these
# tests run where kfootprint was built) when that kernel has bpf_rdonly_cast; the helper-read one otherwise and
# with --no-reach.
exit_prog=kf_sys_exit
grep -q '^#define KF_ID_RDONLY_CAST [1-9]' "$KF_TOP/$KF_BUILD/gen/kfids.h" 2>/dev/null && exit_prog=kf_sys_exit_cast

# -vv prints the verifier's statistics per program: the programs each mode loads, and the paths walked.
for mode in time no-time no-reach split-time split-no-time; do
	flag=
	case $mode in *no-time) flag=--no-time ;; no-reach) flag=--no-reach ;; esac
	case $mode in split-*) split=1 ;; *) split=0 ;; esac
	KF_BPF_SPLIT=$split "$KF" record -b bpf $flag -vv --report /dev/null -- true >/dev/null 2>"$T/vv.$mode" || true
	progs=$(sed -n "s/.*prog '\([a-z_]*\)': -- BEGIN PROG LOAD LOG --.*/\1/p" "$T/vv.$mode" | sort | tr '\n' ' ')
	want="kf_exec kf_exit kf_fork kf_sys_enter $exit_prog "
	case $mode in *no-time) want="kf_exec kf_exit kf_fork $exit_prog " ;; esac
	[ "$mode" = no-reach ] && want="kf_exec kf_exit kf_fork kf_sys_enter kf_sys_exit "
	eq "$mode: the programs loaded" "$want" "$progs"
	if [ $split = 1 ]; then
		n=4
		[ -n "$flag" ] && n=3
		eq "$mode: $n programs loaded beside sys_exit, which the other CPU loads" "$n 1" \
			"$(sed -n 's/.*; \([0-9]*\) programs opened and loaded in .* ms, \([0-9]*\) more on the other CPU$/\1 \2/p' "$T/vv.$mode")"
	fi

	# The most instructions any program made the verifier walk: a bound above today's (~1 600, ~2 500 with
	# the refinements of what each call reached, 3 767 with the call in progress at attach counted on sys_exit's
	# no-time path), far below the path explosions that cost tens of milliseconds.
	most=$(sed -n 's/^processed \([0-9]*\) insns.*/\1/p' "$T/vv.$mode" | sort -n | tail -1)
	if [ -n "$most" ] && [ "$most" -le 4500 ]; then
		ok "$mode: every program verified within 4500 instructions walked (most: $most)"
	else
		not_ok "$mode: a program made the verifier walk ${most:-?} instructions (bound 4500)"
		grep -E "BEGIN PROG|^processed" "$T/vv.$mode" | sed 's/^/#   /'
	fi
done

# Two CPUs need two more copies of every map's descriptor: where descriptors run out (in the maps' sharing, a load
# in the thread, or after), the failure is one line and exit status 1, the thread joined (no hang, no crash).
for n in 40 50 60; do
	out=$( (ulimit -n $n && KF_BPF_SPLIT=1 timeout 60 "$KF" record -b bpf --report /dev/null -- true) 2>&1)
	rc=$?
	eq "split=1, ulimit -n $n: exit 1 and one line saying why" "1 1 1" \
		"$rc $(printf '%s\n' "$out" | grep -c .) $(printf '%s\n' "$out" | grep -c '^kfootprint: bpf: .*Too many open files')"
done

# --- --no-time counts from sys_exit alone, exactly: every getppid of a storm, the exit_group, one execve ---
loops=50000
# Loaded on two CPUs (the maps shared by three objects): counted the same.
KF_BPF_SPLIT=1 "$KF" record -b bpf --no-time -F json --report /dev/null -o "$T/storm.json" -- \
	perf bench syscall basic --loop $loops >/dev/null 2>"$T/storm.err"
"$KF" record -b ptrace -F json --report /dev/null -o "$T/storm.pt.json" -- \
	perf bench syscall basic --loop $loops >/dev/null 2>>"$T/storm.err"
q="'%d %d %d' % tuple(sum(s['calls'] for s in d['syscalls'] if s['name'] == n) for n in ('getppid', 'execve', 'exit_group'))"
pt=$(jget "$T/storm.pt.json" "$q" 2>/dev/null)
nt=$(jget "$T/storm.json" "$q" 2>/dev/null)
case $pt in
"$loops "*) eq "--no-time storm: getppid, execve and exit_group counted as ptrace counts them" "$pt" "$nt" ;;
*) not_ok "--no-time storm: ptrace counted '$pt' (getppid execve exit_group), not $loops getppid"
	sed 's/^/#   /' "$T/storm.err" ;;
esac
eq "--no-time storm: nothing lost" "0 True" "$(jget "$T/storm.json" "'%d %s' % (d['lost_events'], d['complete'])")"
