#!/bin/sh
# make check-long: the bpf backend at default settings on the seed guide's fork-heavy workloads loses
# nothing and gives the footprint ptrace gives. Long because ptrace is: paxtest kiddie (39 175 processes,
# 5.4 M calls) takes ~5 min under ptrace against ~1 min under bpf, perf bench sched messaging -g 20 -l 1000
# (801 processes, 16 M calls) ~6 min against 20 s, on the 2-vCPU reference VM.
#
# Left out of the equality, as timing decides them (tests/fp_compare.py): futex, ERESTART* errors,
# rt_sigreturn (the shell scripts paxtest and lsb_release get SIGCHLDs coalesced or not), and the read and
# write calls of the `tee` paxtest pipes its output through (how the pipe's data is cut into reads).
# The figures measured on the way (wall time; for bpf, what went through the ring and kfootprint's peak RSS)
# go to $KF_BUILD/check-long.txt, which make check-long prints.
. "$(dirname "$0")/../lib.sh"
figures="$KF_TOP/$KF_BUILD/check-long.txt"
: >"$figures"

if ! out=$("$KF" record -b bpf --report /dev/null -- true 2>&1); then
	skip bpf_seed "bpf backend cannot run here: $out"
	exit 0
fi
# run BACKEND NAME COMMAND...: records into $T/NAME.BACKEND.json and prints the figures as a TAP comment.
run() {
	b=$1 name=$2
	shift 2
	t0=$(date +%s.%N)
	"$KF" record -b "$b" -v --report /dev/null -o "$T/$name.$b.json" -- "$@" >/dev/null 2>"$T/$name.$b.err"
	t1=$(date +%s.%N)
	echo "$name, $b: $(echo "$t0 $t1" | awk '{printf "%.1f", $2 - $1}') s;" \
		"$(sed -n 's/.*backend [a-z]*: \(peak RSS [0-9]* KB\).*/\1/p; s/.*: \([0-9]* ring events.*\)/\1/p' "$T/$name.$b.err" | tr '\n' ' ')" >>"$figures"
}
# check NAME: the bpf footprint is complete and lost nothing, and equals ptrace's.
compare() {
	eq "$1: bpf complete, 0 lost events" "True 0" "$(jget "$T/$1.bpf.json" "'%s %d' % (d['complete'], d['lost_events'])")"
	eq "$1: as many processes as ptrace" "$(jget "$T/$1.ptrace.json" "len(d['processes'])")" \
		"$(jget "$T/$1.bpf.json" "len(d['processes'])")"
	diff=$(python3 "$KF_TOP/tests/fp_compare.py" "$T/$1.ptrace.json" "$T/$1.bpf.json" --ignore "futex rt_sigreturn" \
		--ignore-in "tee:read,write")
	if [ -z "$diff" ]; then ok "$1: same calls, errors and process tree as ptrace"
	else not_ok "$1: differs from ptrace"; printf '%s\n' "$diff" | head -n 20 | sed 's/^/#   /'; fi
}

if command -v paxtest >/dev/null; then
	run bpf paxtest paxtest kiddie
	run ptrace paxtest paxtest kiddie
	compare paxtest
else
	skip paxtest "paxtest is not installed (make deps)"
fi
if command -v perf >/dev/null && perf bench sched messaging -g 1 -l 1 >/dev/null 2>&1; then
	run bpf messaging perf bench sched messaging -g 20 -l 1000
	run ptrace messaging perf bench sched messaging -g 20 -l 1000
	compare messaging
else
	skip messaging "perf bench sched messaging does not run here"
fi
