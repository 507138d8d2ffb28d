#!/bin/sh
# The bpf backend's program cache (src/trace/bpf_cache.c, docs/bpf.md#the-cache): a run takes the programs and maps
# an earlier run with the same key pinned, and its footprint is the one a fresh load gives (KF_BPF_CACHE=0), on
# coreutils, python3, threads, a shell starting programs, with what calls reached. Other options, other keys; a run that finds the
# cache held loads privately, and both are right; a run killed holding it leaves it to be rebuilt; a process left
# running by an earlier run (its task storage still there) is not in the next run's footprint; -p on the same
# process twice in a row counts what ptrace counts; nothing stays attached between runs.
# Its runs use a cache of their own (KF_BPF_CACHE=NAME, this checkout's): another test's bpf runs beside it
# neither attach that cache's programs (counted machine-wide below) nor hold its lock.
# kf-test: waits: 31 s wall, 11 CPU s in a measured make check (fresh clone, Debian 12, 2 CPUs)
. "$(dirname "$0")/../lib.sh"

bpf_or_skip bpf_cache || exit 0
"$KF" record -b bpf -q -v --report /dev/null -- true 2>"$T/default.err"
KF_BPF_CACHE="kf-test bpf_cache $KF_TOP"
export KF_BPF_CACHE
"$KF" record -b bpf -q -v --report /dev/null -- true 2>"$T/probe.err"
"$KF" record -b bpf -q -v --report /dev/null -- true 2>"$T/probe.err"
if ! grep -q 'programs from the cache' "$T/probe.err"; then
	skip bpf_cache "no program cache here: $(sed -n 's/.*\(no program cache[^\n]*\)/\1/p' "$T/probe.err" | head -1)"
	exit 0
fi

# rec NAME [OPTIONS] -- COMMAND...: a bpf footprint into $T/NAME.json, -v's lines in $T/NAME.err. A run that found
# the cache held (by a run of this test in the same checkout) is made again, up to 5 times, unless SHARED=1.
rec() {
	name=$1; shift
	tries=0
	while :; do
		"$KF" record -b bpf -q -v -F json --report /dev/null -o "$T/$name.json" "$@" >/dev/null 2>"$T/$name.err" ||
			echo "$name: exit $?: $(grep -v 'debug:' "$T/$name.err" | head -1)" >>"$T/failed"
		tries=$((tries + 1))
		[ "${SHARED:-0}" = 0 ] && [ $tries -lt 5 ] && grep -q 'another run holds it' "$T/$name.err" || break
		sleep 0.5
	done
}
# from NAME: where the run's programs came from: cache, load (a load pinned for the next run), private
from() {
	if grep -q 'programs from the cache' "$T/$1.err"; then echo cache
	elif grep -q 'pinned there at the end' "$T/$1.err"; then echo load
	else echo private; fi
}
# key NAME: the cache key the run used
key() { sed -n 's/.*cache [^ ]*\/\([0-9a-f]\{32\}\).*/\1/p; s/.*program cache \([0-9a-f]\{32\}\).*/\1/p' "$T/$1.err" | head -1; }
same() { # NAME FRESH CACHED: the footprints agree (calls, errors, process tree, what calls reached)
	d=$(python3 "$KF_TOP/tests/fp_compare.py" "$T/$2.json" "$T/$3.json")
	if [ "$(jget "$T/$2.json" "bool(d.get('reached'))")" = True ]; then
		d="$d$(python3 "$KF_TOP/tests/reach_compare.py" "$T/$2.json" "$T/$3.json")"
	else
		d="$d$(jget "$T/$3.json" "'reached' if d.get('reached') else ''")"
	fi
	if [ -z "$d" ]; then ok "$1"; else not_ok "$1"; printf '%s\n' "$d" | head -n 10 | sed 's/^/#   /'; fi
}
calls() { jget "$T/$1.json" "sum(s['calls'] for s in d['syscalls'] if s['name'] == '$2')"; }
# links_to_cache: links of any program of the default key's cache (none between runs)
links_to_cache() {
	dir=/sys/fs/bpf/kfootprint/$(key probe)
	ids=$(for p in "$dir"/p_*; do bpftool prog show pinned "$p" 2>/dev/null | sed -n 's/^\([0-9]*\):.*/\1/p'; done)
	bpftool link show 2>/dev/null | awk -v ids=" $(echo $ids) " '/prog [0-9]+/ { for (i = 1; i < NF; i++) if ($i == "prog" && index(ids, " " $(i + 1) " ")) n++ } END { print n + 0 }'
}

# --- fresh and cached, twice in a row: the same footprints ---
i=0
for w in "ls -la /usr/lib" "cat /etc/os-release" "$PY -c 'import json, os; os.listdir(\"/\")'" "$WL/wl_threads" \
	"sh -c 'ls /usr/bin >/dev/null; cat /etc/hostname; sh -c exit'" "$WL/wl_reach $T/scratch"; do
	i=$((i + 1))
	case $w in "$WL"/*) [ -x "${w%% *}" ] || { skip "bpf_cache ${w##*/}" "workloads not built: run make workloads"; continue; } ;; esac
	mkdir -p "$T/scratch"
	KF_BPF_CACHE=0 rec "fresh$i" -- sh -c "exec $w"
	rec "one$i" -- sh -c "exec $w"
	rec "two$i" -- sh -c "exec $w"
	eq "$w: KF_BPF_CACHE=0 loads, the next two take the cache" "private cache cache" \
		"$(from "fresh$i") $(from "one$i") $(from "two$i")"
	grep -q 'no program cache: KF_BPF_CACHE=0' "$T/fresh$i.err" || not_ok "$w: -v says KF_BPF_CACHE=0"
	same "$w: first cached run = fresh load" "fresh$i" "one$i"
	same "$w: second cached run = fresh load" "fresh$i" "two$i"
done
eq "nothing attached to the cached programs between runs" 0 "$(links_to_cache)"
k=$(key probe)
if [ -n "$k" ] && [ "$k" != "$(key default)" ]; then
	ok "KF_BPF_CACHE=NAME: a key of its own ($k), not the default one"
else
	not_ok "KF_BPF_CACHE=NAME: a key of its own: '$k' against the default '$(key default)'"
fi

# --- other options, other keys: never another run's programs ---
rec dflt -- ls /
for o in --no-reach --no-time "--no-time --no-reach"; do
	n=$(echo "$o" | tr -d ' -')
	rec "a$n" $o -- ls /
	rec "b$n" $o -- ls /
	KF_BPF_CACHE=0 rec "f$n" $o -- ls /
	k=$(key "a$n")
	if [ -n "$k" ] && [ "$k" != "$(key dflt)" ] && [ "$k" = "$(key "b$n")" ]; then
		ok "$o: a key of its own ($k), the same twice"
	else
		not_ok "$o: a key of its own: '$k' against default '$(key dflt)', second '$(key "b$n")'"
	fi
	eq "$o: the second run from its cache" cache "$(from "b$n")"
	same "$o: cached = fresh" "f$n" "b$n"
done
eq "--no-reach: nothing reached recorded from its cache" "False" "$(jget "$T/bnoreach.json" "bool(d.get('reached'))")"
eq "--no-time: no time from its cache" "0" "$(jget "$T/bnotime.json" "sum(1 for s in d['syscalls'] if s.get('time_s'))")"
eq "default: what calls reached, from its cache" "True" "$(jget "$T/dflt.json" "bool(d.get('reached')) and any(s.get('reached') for s in d['syscalls'])")"

# --- a run finding the cache held loads privately; both right (3 s: the second starts within them on a loaded machine) ---
KF_BPF_CACHE=0 rec fsleep -- sleep 3
KF_BPF_CACHE=0 rec fls -- ls /
# The cache again just before: beside other tests, their new keys may have pruned it (the least lately used) during
# the two fresh runs above, and then the first run below would load it rather than take it.
rec warm -- true
"$KF" record -b bpf -q -v -F json --report /dev/null -o "$T/held.json" -- sleep 3 2>"$T/held.err" &
kf=$!
waitfor "$T/held.err" 'loaded and attached'
SHARED=1 rec other -- ls /
wait "$kf"
eq "concurrent: the first took the cache, the second loaded privately" "cache private" "$(from held) $(from other)"
grep -q 'another run holds it' "$T/other.err" || not_ok "concurrent: -v says another run holds the cache"
same "concurrent: the run holding the cache (sleep 3) = fresh" fsleep held
same "concurrent: the private run (ls /) = fresh" fls other

# --- kill -9 of a run holding the cache: the next drops and rebuilds it ---
"$KF" record -b bpf -q -v -F json --report /dev/null -o "$T/killed.json" -- sleep 5 2>"$T/killed.err" &
kf=$!
waitfor "$T/killed.err" 'loaded and attached'
kill -KILL "$kf"
wait "$kf" 2>/dev/null
eq "kill -9: the killed run had the cache" cache "$(from killed)"
rec afterkill -- ls /
rec afterkill2 -- ls /
eq "kill -9: the next run rebuilds, the one after takes it" "load cache" "$(from afterkill) $(from afterkill2)"
grep -q 'not left clean' "$T/afterkill.err" || not_ok "kill -9: -v says the cache was not left clean"
same "kill -9: the rebuilding run = fresh" fls afterkill
same "kill -9: the run after = fresh" fls afterkill2
eq "kill -9: nothing attached to the cached programs" 0 "$(links_to_cache)"

# --- a process left running by a run keeps its task storage: not in the next run's footprint ---
# A shell that forks, execs and fails an open every 20 ms, left running by -d --keep-running: its storage says it
# was followed, with a process number the next run gives to its own.
rec daemon -d 0.5 --keep-running -- sh -c 'while :; do cat /nonexistent-kf-daemon 2>/dev/null; sleep 0.02; done'
dpid=$(sed -n 's/.*--keep-running): pid \([0-9]*\).*/\1/p' "$T/daemon.err" | head -1)
KF_BPF_CACHE=0 rec fsleep3 -- sleep 0.3
rec csleep3 -- sleep 0.3
rec csleep3b -- sleep 0.3
eq "daemon: left running (${dpid:-none}), then two runs from the cache" "yes cache cache" \
	"$(kill -0 "${dpid:-0}" 2>/dev/null && echo yes || echo no) $(from csleep3) $(from csleep3b)"
eq "daemon: its processes and calls not in the next runs" "1 0 1 0" \
	"$(jget "$T/csleep3.json" "len(d['processes'])") $(calls csleep3 wait4) $(jget "$T/csleep3b.json" "len(d['processes'])") $(calls csleep3b wait4)"
same "daemon: the next run = fresh" fsleep3 csleep3
same "daemon: the one after = fresh" fsleep3 csleep3b
[ -n "$dpid" ] && kill "$dpid" 2>/dev/null

# --- -p twice on the same process (its task storage and claims from the run before): counts as ptrace's ---
mkfifo "$T/go" "$T/ack"
"$PY" -c '
import os, sys, threading
go = os.open(sys.argv[1], os.O_RDWR)
ack = os.open(sys.argv[2], os.O_RDWR)
def burst(n):
    for _ in range(n):
        os.getppid()
print(os.getpid(), flush=True)
while os.read(go, 1):
    t = threading.Thread(target=burst, args=(300,))
    t.start()
    t.join()
    burst(500)
    os.write(ack, b"k")
' "$T/go" "$T/ack" >"$T/py.pid" &
py=$!
waitfor "$T/py.pid" '[0-9]'
exec 7<>"$T/ack"
# attach NAME BACKEND: -p for 2 s, one burst of 800 getppid (300 in a thread started and ended meanwhile)
attach() {
	"$KF" record -b "$2" -q -v -p "$py" -d 2 -F json --report /dev/null -o "$T/$1.json" 2>"$T/$1.err" &
	kf=$!
	waitfor "$T/$1.err" 'attached to'
	printf g >"$T/go"
	dd bs=1 count=1 <&7 >/dev/null 2>&1
	wait "$kf"
}
attach p1 bpf
attach p2 bpf
attach p3 bpf
attach pp ptrace
KF_BPF_CACHE=0 attach pf bpf
eq "-p twice: from the cache (the first may load)" "cache cache" "$(from p2) $(from p3)"
eq "-p twice: getppid as ptrace counts it (800), cached x3 and fresh" "800 800 800 800 800" \
	"$(calls pp getppid) $(calls p1 getppid) $(calls p2 getppid) $(calls p3 getppid) $(calls pf getppid)"
exec 7>&-
kill "$py" 2>/dev/null
wait "$py" 2>/dev/null
eq "nothing attached to the cached programs at the end" 0 "$(links_to_cache)"
eq "every recording exited 0" "" "$(cat "$T/failed" 2>/dev/null)"
