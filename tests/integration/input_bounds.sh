#!/bin/sh
# Bounded input (issue 13, part 5): whatever a footprint, a map database or a .config turns out to be (/dev/zero,
# a FIFO, a pipe that never ends, a huge file, numbers no footprint has), kfootprint ends with one line and
# exit 1, under a timeout that turns a hang into a failure; a large footprint is parsed in memory proportional
# to what it holds; a kernel tree with FIFOs where its files should be is indexed without hanging.
. "$(dirname "$0")/../lib.sh"
SAMPLE="$KF_TOP/tests/fuzz/corpus/sample.json"

# one NAME WANT CMD...: CMD ends within 60 s with exit 1, nothing on stdout and one line on stderr holding WANT
one() {
	name=$1 want=$2
	shift 2
	timeout 60 "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -eq 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF -- "$want" "$T/err"; then
		ok "$name"
	else
		not_ok "$name: exit $rc$([ "$rc" -eq 124 ] && echo ' (timed out)'), stderr: $(head -c 300 "$T/err")"
	fi
}

# --- things that are not a footprint file ------------------------------------------------------------------------
one "report /dev/zero" "'/dev/zero': not JSON: unexpected character at line 1, column 1" "$KF" report /dev/zero
one "report - from /dev/zero" "'standard input': not JSON: unexpected character" sh -c "'$KF' report - </dev/zero"
one "map --db /dev/zero" "--db '/dev/zero': larger than 16 MiB, the limit of this input" \
	"$KF" map --db /dev/zero --all-syscalls
one "map --kernel-config /dev/zero" "--kernel-config '/dev/zero': cannot read '/dev/zero': larger than 16 MiB" \
	"$KF" map --kernel-src "$KF_TOP/tests/fixtures/ktree-basic" --kernel-config /dev/zero --syscalls read
one "report /dev/urandom" "'/dev/urandom': not JSON" "$KF" report /dev/urandom
truncate -s 3G "$T/huge.json"
one "report of a 3 GiB file: refused before reading" "'$T/huge.json': larger than 1 GiB, the limit of this input" \
	"$KF" report "$T/huge.json"
truncate -s 20M "$T/huge.db"
one "map --db of a 20 MiB file" "--db '$T/huge.db': larger than 16 MiB" "$KF" map --db "$T/huge.db" --all-syscalls
# a pipe that never ends: white space is valid JSON, so only the limit ends it (1 GiB: a few seconds)
one "report - of an endless pipe ends at the limit" "'standard input': larger than 1 GiB, the limit of this input" \
	sh -c "yes '$(printf '%4000s' '')' | '$KF' report -"
one "report - of endless nesting" "not JSON: nesting too deep" sh -c "yes '[' | '$KF' report -"
one "report - of an endless string" "a string longer than 1 MiB" \
	sh -c "{ printf '{\"schema\": \"'; tr '\\0' a </dev/zero; } | '$KF' report -"

# --- FIFOs --------------------------------------------------------------------------------------------------
mkfifo "$T/fifo"
one "report of a FIFO with no writer" "'$T/fifo': a FIFO with no writer" "$KF" report "$T/fifo"
one "map --db of a FIFO with no writer" "--db '$T/fifo': a FIFO with no writer" "$KF" map --db "$T/fifo" --all-syscalls
one "map of a FIFO as the footprint" "'$T/fifo': a FIFO with no writer" "$KF" map "$T/fifo"
# writer_first CMD...: CMD reads the FIFO once a background writer has it open. The writer's open waits for a
# reader and kfootprint's never waits for a writer, so a run that came first (refused, nothing read) is retried.
writer_first() {
	for _ in $(seq 50); do
		timeout 60 "$@" >"$T/out" 2>"$T/err"
		rc=$?
		grep -qF 'a FIFO with no writer' "$T/err" || return "$rc"
		sleep 0.1
	done
	return "$rc"
}
# with a writer there first, a FIFO is read like a pipe
{ cat "$SAMPLE" >"$T/fifo"; } &
writer_first "$KF" report -F tree "$T/fifo"
eq "report of a FIFO with a writer" "0 $("$KF" report -F tree "$SAMPLE" | md5sum)" "$? $(md5sum <"$T/out")"
wait
{ yes "$(printf '%4000s' '')" >"$T/fifo"; } 2>/dev/null &
writer_first "$KF" report "$T/fifo"
rc=$?
if [ "$rc" -eq 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -qF -- "'$T/fifo': larger than 1 GiB" "$T/err"; then
	ok "report of a FIFO fed forever ends at the limit"
else
	not_ok "report of a FIFO fed forever ends at the limit: exit $rc, stderr: $(head -c 300 "$T/err")"
fi
kill $! 2>/dev/null
wait 2>/dev/null

# --- numbers no footprint has: refused, not saturated ------------------------------------------------------------
sc() { # a footprint with one syscall entry whose extra fields are $1
	printf '{"schema": "kfootprint/1", "syscalls": [{"name": "read", "abi": "x86_64", "nr": 0, %s}]}\n' "$1"
}
pr() { # ... with one process whose extra fields are $1
	printf '{"schema": "kfootprint/1", "processes": [{"pid": 7, %s}]}\n' "$1"
}
n=0
num() { # NAME WANT JSON
	n=$((n + 1))
	printf '%s' "$3" >"$T/num$n.json"
	one "numbers: $1" "'$T/num$n.json': $2" "$KF" report "$T/num$n.json"
}
num "a count past int64" "syscalls[0].calls: 9223372036854775808 is out of range" \
	"$(sc '"calls": 9223372036854775808')"
num "a count past uint64" "syscalls[0].calls: 99999999999999999999999 is out of range" \
	"$(sc '"calls": 99999999999999999999999')"
num "an errno count past int64" "syscalls[0].errnos.EBADF: 18446744073709551615 is out of range" \
	"$(sc '"calls": 3, "errnos": {"EBADF": 18446744073709551615}')"
num "a negative time" "syscalls[0].time_s: a negative time" "$(sc '"calls": 3, "time_s": -0.5')"
num "a time past 2^64 ns" "syscalls[0].time_s: 18446744074 seconds is out of range" \
	"$(sc '"calls": 3, "time_s": 18446744074')"
num "a time as a huge double" "syscalls[0].time_s: 1e300 seconds is out of range" "$(sc '"calls": 3, "time_s": 1e300')"
num "an infinite elapsed time" "elapsed_s: not a finite number" '{"schema": "kfootprint/1", "elapsed_s": 1e999}'
num "a negative elapsed time" "elapsed_s: a negative time" '{"schema": "kfootprint/1", "elapsed_s": -3}'
num "a negative start" "processes[0].start_s: a negative time" "$(pr '"start_s": -1')"
num "a negative end" "processes[0].end_s: a negative time" "$(pr '"end_s": -0.25')"
num "per-process calls past int64" "processes[0].syscalls.read.calls: 9223372036854775808 is out of range" \
	"$(pr '"syscalls": {"read": {"calls": 9223372036854775808}}')"
num "per-process aliases adding up past int64" \
	"processes[0].syscalls.x86_64:read.calls: the footprint's counts add up past 2^63-1" \
	"$(pr '"syscalls": {"read": {"calls": 9223372036854775807}, "x86_64:read": {"calls": 1}}')"
num "lost events past int64" "lost_events: 9223372036854775808 is out of range" \
	'{"schema": "kfootprint/1", "lost_events": 9223372036854775808}'
num "a pid past int" "processes[0].pid: 4294967297 is out of range" \
	'{"schema": "kfootprint/1", "processes": [{"pid": 4294967297}]}'
num "a member given twice" "syscalls[0].calls: given twice" "$(sc '"calls": 3, "calls": 4')"
# the largest of each still loads and comes back unchanged (all counts, all times, add up to at most 2^63-1)
num "counts adding up past int64" "syscalls[0].errors: the footprint's counts add up past 2^63-1" \
	"$(sc '"calls": 9223372036854775807, "errors": 1')"
num "times adding up past 2^63-1 ns" "processes[0].syscalls.write.time_s: the footprint's times add up past 2^63-1 ns" \
	"$(pr '"syscalls": {"read": {"calls": 1, "time_s": 9223372036.854775807}, "write": {"calls": 1, "time_s": 0.000000001}}')"
printf '%s' "$(sc '"calls": 9223372036854775807, "errors": 0, "time_s": 9223372036.854775807')" >"$T/max.json"
"$KF" report -F json "$T/max.json" >"$T/max.out" 2>&1
eq "numbers: the largest count and time load back exactly" "9223372036854775807 9223372036.854775807" \
	"$(grep -o '"calls": [0-9]*, "errors": [0-9]*' "$T/max.out" | sed 's/"calls": //; s/, "errors".*//') $(grep -o '"time_s": [0-9.]*' "$T/max.out" | sed 's/"time_s": //')"

# --- a large footprint: memory proportional to what it holds, the same result -------------------------------------
# 6000 processes x (20 files, 25 syscalls): 30 MB. json-c took 15 times the file (450 MB); the streaming reader
# needs the footprint it builds, about the file's size.
python3 "$KF_TOP/bench/gen_footprint.py" 6000 20 25 >"$T/big.json"
size=$(stat -c %s "$T/big.json")
rss=$(python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$KF" report -F csv "$T/big.json")
eq "large footprint: loads" 0 "${rss% *}"
if [ "${rss#* }" -lt $((size * 2 / 1024 + 20480)) ]; then
	ok "large footprint: peak RSS ${rss#* } KB for a $((size / 1024)) KB file (under twice the file + 20 MB)"
else
	not_ok "large footprint: peak RSS ${rss#* } KB for a $((size / 1024)) KB file"
fi
"$KF" report -F json "$T/big.json" >"$T/big1.json" && "$KF" report -F json "$T/big1.json" >"$T/big2.json"
check "large footprint: read, written, read again: the same bytes" cmp "$T/big1.json" "$T/big2.json"
eq "large footprint: the same processes and calls as python reads" \
	"$(jget "$T/big.json" "len(d['processes']), sum(s['calls'] for s in d['syscalls']), sum(len(p['files']) for p in d['processes'])")" \
	"$(jget "$T/big2.json" "len(d['processes']), sum(s['calls'] for s in d['syscalls']), sum(len(p['files']) for p in d['processes'])")"

# --- a kernel tree with FIFOs, a device and a directory where its files should be --------------------------------
cp -r "$KF_TOP/tests/fixtures/ktree-basic" "$T/tree"
for f in MAINTAINERS fs/Makefile init/Kconfig arch/x86/entry/syscalls/syscall_64.tbl; do
	rm -f "$T/tree/$f" && mkfifo "$T/tree/$f"
done
mkfifo "$T/tree/fs/fifo.c"
ln -s /dev/zero "$T/tree/mm/zero.c"
timeout 60 "$KF" map --kernel-src "$T/tree" --no-cache --no-running --syscalls read,eventfd2,mmap >"$T/out" 2>"$T/err"
rc=$?
eq "kernel tree with FIFOs: indexed, no hang" "0 kfootprint map of 3 named syscalls, x86_64" "$rc $(head -n1 "$T/out")"
eq "kernel tree with FIFOs: one warning per FIFO met, nothing else" \
	"$(for f in init/Kconfig MAINTAINERS arch/x86/entry/syscalls/syscall_64.tbl fs/Makefile; do
		echo "kfootprint: warning: kernel tree: '$T/tree/$f': not a regular file: skipped"
	done | sort)" "$(sort "$T/err")"
eq "kernel tree with FIFOs: what is still there is mapped" "mm/mmap.c:6" \
	"$(timeout 60 "$KF" map --kernel-src "$T/tree" --no-cache --no-running -F json --syscalls mmap 2>/dev/null |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["syscalls"][0]["kernel"]["implementation_at"])' 2>&1)"
rm -f "$T/tree/Makefile" && mkfifo "$T/tree/Makefile"
one "kernel tree whose top Makefile is a FIFO: not a tree" "cannot read '$T/tree/Makefile': not a regular file" \
	"$KF" map --kernel-src "$T/tree" --no-cache --syscalls read
