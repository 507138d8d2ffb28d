#!/bin/sh
# What each call reached, as the bpf backend keeps it in each task's cache before its `reach` hash
# (src/bpf/kfreach.bpf.h, struct kf_reach_pend): every refinement counted once, whoever moves it out of a cache — an
# eviction, the task's end (sched_process_exit, with its counts), or kfootprint for the tasks alive at the end of
# the recording (bpf_take_live, with their counts). wl_reach_threads: threads whose every round of calls makes 18
# refinements (more than the 8 entries of a cache), 105 rounds in all, threads that end at different times, that
# outlive -d, or that make their rounds once -p has attached. Counts from the workload's source, the same in both bpf
# modes and as ptrace's. Where calls are counted in the process records (no pidfd of a thread: Linux < 6.9), no cache
# is used, and the same counts are asserted.
# kf-test: waits: 15 s wall, 1.7 CPU s in a measured make check (fresh clone, Debian 12, 2 CPUs)
. "$(dirname "$0")/../lib.sh"

bpf_or_skip reach_cache || exit 0
W=$WL/wl_reach_threads
workload_or_skip reach_cache "$W" || exit 0
# the workload's file is made in a tmpfs: a directory in /dev/shm
shm=$(mktemp -d /dev/shm/kf-reachc.XXXXXX 2>/dev/null) || shm=
trap 'rm -rf "$T" ${shm:+"$shm"}' EXIT
if [ -z "$shm" ] || [ "$(stat -f -c %T "$shm")" != tmpfs ]; then
	skip reach_cache "no tmpfs at /dev/shm"
	exit 0
fi
"$KF" record -b bpf -v --report /dev/null -- true 2>"$T/v.err"
per_task=no
grep -q 'calls counted per task' "$T/v.err" && per_task=yes
# -p seeds each thread of the process by its pidfd, which Linux < 6.9 has only for a leader (no PIDFD_THREAD)
pmodes="no-time time ptrace"
if grep -q 'no pidfd of a thread' "$T/v.err"; then
	pmodes=ptrace
	skip "-p (bpf)" "no pidfd of a thread on $(uname -r): -p follows the leader of a process, not its other threads"
fi


# rounds NAME FILE: one TAP line: the 105 rounds' refinements exactly, each once (per syscall: kind, value, fd, calls,
# errors), and the footprint complete
rounds() {
	if out=$(python3 - "$2" <<'EOF' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
wide = {s["name"]: sorted((r["kind"], r["value"], r.get("fd"), r["calls"], r["errors"]) for r in s.get("reached", []))
        for s in d["syscalls"]}
bad = []
n = 105
kinds = {"null": "chr:1:3", "zero": "chr:1:5", "pipe": "pipe", "efd": "anon:[eventfd]",
         "sock": "socket:AF_UNIX:SOCK_STREAM:0", "file": "file:tmpfs"}
def has(name, want):
    for w in want:
        if w not in wide.get(name, []):
            bad.append(f"{name}: no {w} in {wide.get(name, [])}")
has("write", [("fd", kinds[k], None, n, 0) for k in ("null", "pipe", "efd", "sock")])
has("read", [("fd", kinds[k], None, n, 0) for k in ("zero", "pipe", "efd", "sock")])
has("pwrite64", [("fd", kinds["file"], None, n, 0)])
has("pread64", [("fd", kinds["file"], None, n, 0)])
if wide.get("fstat") != sorted(("fd", v, None, n, 0) for v in kinds.values()):
    bad.append(f"fstat: {wide.get('fstat')}")
has("ioctl", [("fd", "chr:1:3", None, n, n), ("ioctl", "TCGETS", "chr:1:3", n, n)])
if not d.get("reached"):
    bad.append('no "reached": true')
if d.get("lost_events"):
    bad.append(f'lost: {d.get("lost_events")}')
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
	); then ok "$1"; else not_ok "$1"; printf '%s\n' "$out" | head -n 20 | sed 's/^/#   /'; fi
}

# --- threads ending 20 ms apart: each task's cache into the hash at its end; the same as ptrace ---
"$KF" record -b ptrace -q -F json --report /dev/null -o "$T/s.ptrace.json" -- "$W" stagger "$shm" >"$T/s.out" 2>"$T/s.err"
rounds "threads ending apart (ptrace): 105 rounds of 18 refinements" "$T/s.ptrace.json"
for mode in time no-time; do
	flag=; [ $mode = no-time ] && flag=--no-time
	"$KF" record -b bpf $flag -q -F json --report /dev/null -o "$T/s.$mode.json" -- "$W" stagger "$shm" >"$T/s.out" 2>>"$T/s.err"
	rounds "threads ending apart (bpf $mode): 105 rounds of 18 refinements, each counted once" "$T/s.$mode.json"
	check "threads ending apart (bpf $mode): reached what ptrace says" \
		python3 "$KF_TOP/tests/reach_compare.py" --ignore futex "$T/s.ptrace.json" "$T/s.$mode.json"
done

# Where tasks keep no cache (Linux < 6.9), what follows is the same path as above (every refinement in the hash):
# the 6.1 guest (tests/guest/t/reach61.sh, KF_REACH_HASH_ONLY=1) stops here, as the cases below cost it ~30 s.
if [ "$per_task" = no ] && [ "${KF_REACH_HASH_ONLY:-0}" = 1 ]; then
	skip "-d and -p" "no per-task cache on $(uname -r): they test its hand-over; the hash path is checked above"
	exit 0
fi

# --- -d ends the recording with 3 of the 5 tasks alive (--keep-running): their caches taken by kfootprint ---
for mode in no-time time; do
	flag=; [ $mode = no-time ] && flag=--no-time
	"$KF" record -b bpf $flag -v -d 2 --keep-running -F json --report /dev/null -o "$T/h.$mode.json" -- "$W" hold "$shm" \
		>"$T/h.$mode.out" 2>"$T/h.$mode.err"
	pid=$(left "$T/h.$mode.err")
	eq "-d with threads alive (bpf $mode): the rounds were made before the end" done "$(cat "$T/h.$mode.out")"
	rounds "-d with threads alive (bpf $mode): the live tasks' refinements counted once" "$T/h.$mode.json"
	if [ $per_task = yes ]; then
		eq "-d with threads alive (bpf $mode): the 3 live tasks taken by kfootprint (-v)" 1 \
			"$(grep -c 'the counts of 3 live tasks taken' "$T/h.$mode.err")"
	fi
	[ -n "$pid" ] && kill "$pid"
done

# --- -p on a process of 5 tasks that make their rounds once attached; 2 of them end, then the detach ---
for mode in $pmodes; do
	b=bpf flag=
	[ $mode = no-time ] && flag=--no-time
	[ $mode = ptrace ] && b=ptrace
	attach_trigger "$T/p.$mode" "-b $b $flag -d 3" "$W" trigger "$shm"
	eq "-p ($mode): exit 0, the rounds made once attached" "0 done" "$? $(sed -n 2p "$T/p.$mode.out")"
	rounds "-p ($mode): the rounds' refinements, each counted once, 3 tasks alive at the detach" "$T/p.$mode.json"
	kill "$wpid"
	wait "$wpid" 2>/dev/null
done
if [ $per_task = yes ]; then
	for mode in no-time time; do
		eq "-p ($mode): the 3 live tasks taken by kfootprint at the detach (-v)" 1 \
			"$(grep -c 'the counts of 3 live tasks taken' "$T/p.$mode.err")"
	done
fi
