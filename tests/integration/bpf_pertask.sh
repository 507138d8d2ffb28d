#!/bin/sh
# The bpf backend counts each task's calls (and with times, the time in them) in its own storage (src/bpf/kfrec.h, struct kf_task_rec): folded into its
# process's record when the task ends, taken by kfootprint at the end of the recording for the tasks still alive
# then. Every call counted once, whichever side took it: threads that end at different times, threads alive when
# -d ends the recording, -p on a multi-threaded process and its detach, and threads ending while the recording
# ends (each task's counts taken either by its exit or by kfootprint, never both, never neither). Counts from
# wl_threads_live's source, the same in both bpf modes and as ptrace's.
# kf-test: waits: 22 s wall, 3 CPU s in a measured make check (fresh clone, Debian 12, 2 CPUs)
. "$(dirname "$0")/../lib.sh"

bpf_or_skip bpf_pertask || exit 0
W=$WL/wl_threads_live
workload_or_skip bpf_pertask "$W" || exit 0
"$KF" record -b bpf -v --report /dev/null -- true 2>"$T/v.err"
if ! grep -q 'calls counted per task' "$T/v.err"; then
	skip bpf_pertask "calls counted in the process records on this kernel: $(grep -o 'no [a-zA-Z(_ ]*' "$T/v.err" | head -1)"
	exit 0
fi

calls() { jget "$1" "sum(s['calls'] for s in d['syscalls'] if s['name'] == '$2')"; }
cmp_fp() { python3 "$KF_TOP/tests/fp_compare.py" "$1" "$2" --ignore futex; }
alive() { kill -0 "$1" 2>/dev/null && echo yes || echo no; }

# --- threads ending 20 ms apart: the same footprint as ptrace's, in both modes ---
"$KF" record -b ptrace -F json --report /dev/null -o "$T/s.p.json" -- "$W" >/dev/null 2>"$T/s.err"
for mode in time no-time; do
	flag=; [ $mode = no-time ] && flag=--no-time
	"$KF" record -b bpf $flag -F json --report /dev/null -o "$T/s.$mode.json" -- "$W" >/dev/null 2>>"$T/s.err"
	diff=$(cmp_fp "$T/s.p.json" "$T/s.$mode.json")
	if [ -z "$diff" ] && [ -s "$T/s.$mode.json" ]; then
		ok "threads ending apart ($mode): same calls, errors and process tree as ptrace"
	else
		not_ok "threads ending apart ($mode)"; printf '%s\n' "$diff" | head -n 20 | sed 's/^/#   /'
	fi
	eq "threads ending apart ($mode): 105 getppid, 4 exit, one process of 5 threads" "105 4 1 5" \
		"$(jget "$T/s.$mode.json" "' '.join(str(x) for x in (sum(s['calls'] for s in d['syscalls'] if s['name'] == 'getppid'), sum(s['calls'] for s in d['syscalls'] if s['name'] == 'exit'), len(d['processes']), d['processes'][0]['threads']))")"
done

# --- -d ends the recording with 3 of the 5 threads alive (--keep-running): their counts taken by kfootprint ---
for mode in no-time time; do
	flag=; [ $mode = no-time ] && flag=--no-time
	"$KF" record -b bpf $flag -v -d 2 --keep-running -F json --report /dev/null -o "$T/h.$mode.json" -- "$W" hold \
		>"$T/h.$mode.out" 2>"$T/h.$mode.err"
	pid=$(left "$T/h.$mode.err")
	eq "-d with threads alive ($mode): the calls made before the end, nothing lost" "done 105 0 duration" \
		"$(cat "$T/h.$mode.out") $(calls "$T/h.$mode.json" getppid) $(jget "$T/h.$mode.json" "'%d %s' % (d['lost_events'], d['incomplete_why'])")"
	eq "-d with threads alive ($mode): the workload runs on after the recording" yes "$(alive "${pid:-0}")"
	eq "-d with threads alive ($mode): the live threads' counts taken by kfootprint (-v)" 1 \
		"$(grep -c 'the counts of 3 live tasks taken' "$T/h.$mode.err")"
	[ -n "$pid" ] && kill "$pid"
done
eq "-d with threads alive (time): time in the calls of the threads taken alive" True \
	"$(jget "$T/h.time.json" "[s for s in d['syscalls'] if s['name'] == 'getppid'][0]['time_s'] > 0")"
# (fp_compare.py wants complete runs: the calls and errors per syscall and errno compared here, futex left out)
counts='sorted((s["abi"], s["name"], s["calls"], s["errors"], sorted(s["errnos"].items())) for s in d["syscalls"] if s["name"] != "futex")'
eq "-d with threads alive: --no-time counts what the time mode counts" "$(jget "$T/h.time.json" "$counts")" \
	"$(jget "$T/h.no-time.json" "$counts")"

# --- -p on a process of 5 threads that make their calls once attached; 2 of them end, then the detach ---
for mode in no-time time ptrace; do
	b=bpf flag=
	[ $mode = no-time ] && flag=--no-time
	[ $mode = ptrace ] && b=ptrace
	attach_trigger "$T/p.$mode" "-b $b $flag -d 3" "$W" trigger
	eq "-p on 5 threads ($b $flag): exit 0, 105 getppid once attached, 5 threads, nothing lost" "0 done 105 5 0" \
		"$? $(sed -n 2p "$T/p.$mode.out") $(calls "$T/p.$mode.json" getppid) $(jget "$T/p.$mode.json" "'%d %d' % (d['processes'][0]['threads'], d['lost_events'])")"
	eq "-p on 5 threads ($b $flag): the process runs on after the detach" yes "$(alive "$wpid")"
	kill "$wpid"
	wait "$wpid" 2>/dev/null
done
for mode in no-time time; do
	eq "-p on 5 threads ($mode): the 3 live threads' counts taken by kfootprint at the detach (-v)" 1 \
		"$(grep -c 'the counts of 3 live tasks taken' "$T/p.$mode.err")"
done

# --- 600 threads end 2 ms apart while -d 1 ends the recording (twice in each mode): each thread's 100 calls counted once, whether its
# exit or kfootprint took them ---
for i in 1 2 3 4; do
	flag=--no-time
	[ $i -gt 2 ] && flag=
	"$KF" record -b bpf $flag -v -d 1 --keep-running -F json --report /dev/null -o "$T/c.json" -- "$W" churn 600 \
		>"$T/c.out" 2>"$T/c.err"
	pid=$(left "$T/c.err")
	[ -n "$pid" ] && kill "$pid"
	taken=$(sed -n 's/.*the counts of \([0-9]*\) live tasks taken, \([0-9]*\) folded.*/\1 taken, \2 folded meanwhile/p' "$T/c.err")
	eq "600 threads ending as the recording ends, run $i ${flag:-(time)} ($taken): 60005 getppid, nothing lost" "done 60005 0" \
		"$(cat "$T/c.out") $(calls "$T/c.json" getppid) $(jget "$T/c.json" "d['lost_events']")"
done
