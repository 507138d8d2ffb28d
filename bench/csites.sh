#!/bin/sh
# record --call-sites against record without it and strace -f -k on the same workloads: the median wall time of
# N runs (default 5) of each, and the ratio to the untraced run. Figures, never a pass/fail test.
# Usage: sh bench/csites.sh [BUILD] [N]
set -u
B=${1:-build}
N=${2:-5}
KF="$B/kfootprint"
T=$(mktemp -d /tmp/kf-bench-cs.XXXXXX)
trap 'rm -rf "$T"' EXIT

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
wall() { # N runs of a command: its median wall seconds
	i=0
	while [ "$i" -lt "$N" ]; do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s.%N)
		echo "$e - $s" | bc
		i=$((i + 1))
	done | median
}
row() { # NAME COMMAND...
	name=$1
	shift
	u=$(wall "$@")
	p=$(wall "$KF" record -b ptrace -q --report /dev/null -- "$@")
	c=$(wall "$KF" record -b ptrace -q --call-sites --report /dev/null -- "$@")
	k=$(wall strace -f -k -o /dev/null "$@")
	calls=$("$KF" record -b ptrace -q --call-sites -o "$T/f.json" --report /dev/null -- "$@" >/dev/null 2>&1;
		python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=d['call_sites']; print(sum(s['calls'] for s in d['syscalls']), c['depth'], len(c['keys']), sum(len(k['stacks']) for k in c['keys']))" "$T/f.json")
	printf '| %s | %.3f s | %.1f× | %.1f× | %.1f× | %s |\n' "$name" "$u" "$(echo "$p / $u" | bc -l)" \
		"$(echo "$c / $u" | bc -l)" "$(echo "$k / $u" | bc -l)" "$calls"
}
echo "| workload | untraced | kf ptrace | kf ptrace --call-sites | strace -f -k -o /dev/null | calls, depth, keys, stacks kept |"
echo "|---|---|---|---|---|---|"
row "python3 -c pass" /usr/bin/python3 -c pass
row "tar cf /dev/null /usr/include" tar cf /dev/null /usr/include
