#!/bin/sh
# strace's habits on record and report: -f and -c accepted without a word; -e trace=SET (names, strace's classes,
# !SET) and -e status= filter the report and the log, with the same calls as strace's -e on the same workload;
# -p says what it attached to.
. "$(dirname "$0")/../lib.sh"

# -f and -c: what kfootprint always does, accepted silently.
"$KF" record -f -c -F json --report "$T/fc.json" -- true 2>"$T/fc.err"
eq "-f -c: exit status" 0 "$?"
eq "-f -c: nothing said" "" "$(cat "$T/fc.err")"
eq "-f -c: a report" 1 "$(jget "$T/fc.json" "sum(s['calls'] for s in d['syscalls'] if s['name'] == 'execve')")"

# Usage errors, one line each.
for bad in trace=no_such_call trace=%nothing status=unfinished frobnicate=1; do
	if "$KF" record -e "$bad" -- true 2>"$T/bad.err"; then
		not_ok "-e $bad refused"
	else
		eq "-e $bad refused in one line" 1 "$(grep -c '^kfootprint: -e' "$T/bad.err")"
	fi
done

# The classes against strace's own -e trace=%CLASS: the same syscall names on the same workload.
wl='import os, signal, socket, mmap
s = socket.socket(); s.close()
os.kill(os.getpid(), 0)
m = mmap.mmap(-1, 4096); m.close()
os.system("ls -d / /nonexistent-kf >/dev/null 2>&1")'
if ! command -v strace >/dev/null 2>&1; then
	skip "classes: strace comparison" "strace is not installed (make deps installs it)"
else
	# the syscall names of a log, strace's or ours; "+++ exited" and "--- SIGCHLD" lines are no calls
	names() {
		grep -v -e '^[0-9]* *+++' -e '^[0-9]* *---' "$1" |
			sed -n 's/^[0-9]* *\(<\.\.\. \)\{0,1\}\([a-z_0-9][a-z_0-9]*\)[( ].*/\2/p' | sort -u | tr '\n' ' '
	}
	for cls in file network process signal memory desc; do
		strace -f -qq -e trace=%$cls -o "$T/s.$cls" -- python3 -c "$wl" >/dev/null 2>&1
		"$KF" record -b ptrace -e trace=%$cls --log "$T/k.$cls" -F json --report "$T/r.$cls.json" \
			-- python3 -c "$wl" >/dev/null 2>&1
		eq "classes: %$cls, the log's calls are strace's" "$(names "$T/s.$cls")" "$(names "$T/k.$cls")"
		eq "classes: %$cls, the report's calls are the log's" "$(names "$T/k.$cls")" \
			"$(jget "$T/r.$cls.json" "' '.join(sorted(set(s['name'] for s in d['syscalls']))) + ' '")"
	done
	strace -f -qq -e status=failed -o "$T/s.failed" -- python3 -c "$wl" >/dev/null 2>&1
	"$KF" record -b ptrace -e status=failed --log "$T/k.failed" -- python3 -c "$wl" >/dev/null 2>"$T/k.failed.err"
	eq "status=failed: the failing calls are strace's" "$(names "$T/s.failed")" "$(names "$T/k.failed")"
fi

# -e on report: a saved footprint rendered through the filter; !SET and status=successful.
"$KF" record -b ptrace -F json --report /dev/null -o "$T/all.json" -- sh -c 'ls /nonexistent-kf 2>/dev/null; true'
"$KF" report -F json -e 'trace=!close,read' -e status=successful "$T/all.json" >"$T/neg.json"
eq "report -e: close and read left out" 0 \
	"$(jget "$T/neg.json" "sum(1 for s in d['syscalls'] if s['name'] in ('close', 'read'))")"
eq "report -e: no errors left" 0 "$(jget "$T/neg.json" "sum(s['errors'] for s in d['syscalls'])")"
eq "report -e: the successful calls of the rest" \
	"$(jget "$T/all.json" "sum(s['calls'] - s['errors'] for s in d['syscalls'] if s['name'] not in ('close', 'read'))")" \
	"$(jget "$T/neg.json" "sum(s['calls'] for s in d['syscalls'])")"
"$KF" report -F json -e status=failed "$T/all.json" >"$T/failed.json"
eq "report -e status=failed: every call shown failed" "$(jget "$T/all.json" "sum(s['errors'] for s in d['syscalls'])")" \
	"$(jget "$T/failed.json" "sum(s['calls'] for s in d['syscalls'])")"
eq "report -e status=failed: only files that failed" 0 \
	"$(jget "$T/failed.json" "sum(f.get('opens', 0) for p in d['processes'] for f in p.get('files', []))")"

# -p: which process and threads were attached, both backends.
python3 -c 'import threading, time
t = threading.Thread(target=time.sleep, args=(30,)); t.daemon = True; t.start(); time.sleep(30)' &
pid=$!
# Wait until python3 runs its second thread (a fixed sleep lost that race on a busy machine).
i=0
while [ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 600 ]; do
	sleep 0.05
	i=$((i + 1))
done
tids=$(ls /proc/$pid/task | sort -n | tr '\n' ' ' | sed 's/ $//')
for b in ptrace bpf; do
	if [ $b = bpf ] && ! bpf_or_skip "-p message (bpf)"; then
		continue
	fi
	"$KF" record -b $b -p $pid -d 0.2 --report /dev/null 2>"$T/p.err"
	eq "-p ($b): says what it attached to" "kfootprint: attached to $pid (python3), threads $tids" "$(cat "$T/p.err")"
done
kill $pid
