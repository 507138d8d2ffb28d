#!/bin/sh
# record --call-sites against record without it, for both backends, strace -f -k and perf trace --call-graph dwarf
# on the overhead table's workloads (bench/run.sh): the median wall time of N runs (default 5) of each, and the
# ratio to the untraced run; for -b bpf --call-sites, the calls it unwound (the rest sampled away) and those left
# without a stack. Figures, never a pass/fail test. Usage: sh bench/csites.sh [BUILD] [N]
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
ratio() { # SECONDS UNTRACED: "3.1×", or what the run said instead
	case $1 in
	[0-9]* | .[0-9]*) printf '%.1f×' "$(echo "$1 / $2" | bc -l)" ;;
	*) printf '%s' "$1" ;;
	esac
}
row() { # NAME COMMAND...
	name=$1
	shift
	u=$(wall "$@")
	p=$(wall "$KF" record -b ptrace -q --report /dev/null -- "$@")
	c=$(wall "$KF" record -b ptrace -q --call-sites --report /dev/null -- "$@")
	if "$KF" record -b bpf -q --report /dev/null -- true >/dev/null 2>&1; then
		b=$(wall "$KF" record -b bpf -q --report /dev/null -- "$@")
		bc_=$(wall "$KF" record -b bpf -q --call-sites --report /dev/null -- "$@")
		bs=$("$KF" record -b bpf -q --call-sites -o "$T/b.json" --report /dev/null -- "$@" >/dev/null 2>&1
			python3 -c "import json,sys; k=json.load(open(sys.argv[1]))['call_sites']['keys']; a=sum(x['calls'] for x in k); u=sum(x.get('unsampled',0) for x in k); n=sum(x.get('unwound_none',0) for x in k); print('%d of %d unwound, %d without a stack' % (a-u-n, a, n))" "$T/b.json")
	else
		b=unavailable bc_=unavailable bs=unavailable
	fi
	k=$(wall strace -f -k -o /dev/null "$@")
	# perf trace prints each call's stack (unwound from the 8 KB of user stack it copies per call) to /dev/null
	g=$(wall perf trace --call-graph dwarf -o /dev/null -- "$@")
	calls=$("$KF" record -b ptrace -q --call-sites -o "$T/f.json" --report /dev/null -- "$@" >/dev/null 2>&1;
		python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=d['call_sites']; print(sum(s['calls'] for s in d['syscalls']), c['depth'], len(c['keys']), sum(len(k['stacks']) for k in c['keys']))" "$T/f.json")
	printf '| %s | %.3f s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$u" "$(ratio "$p" "$u")" "$(ratio "$c" "$u")" \
		"$(ratio "$b" "$u")" "$(ratio "$bc_" "$u")" "$(ratio "$k" "$u")" "$(ratio "$g" "$u")" "$calls" "$bs"
}
if ! perf trace -o /dev/null -- true >/dev/null 2>&1; then
	echo "bench/csites.sh: perf trace does not run here (perf_event_paranoid, or no perf): its column is empty" >&2
fi
echo "| workload | untraced | kf ptrace | kf ptrace --call-sites | kf bpf | kf bpf --call-sites | strace -f -k -o /dev/null | perf trace --call-graph dwarf | calls, depth, keys, stacks kept (ptrace) | bpf --call-sites |"
echo "|---|---|---|---|---|---|---|---|---|---|"
row "perf bench syscall basic --loop 20000" perf bench syscall basic --loop 20000
row "tar cf /dev/null /usr/include" tar cf /dev/null /usr/include
row "perf bench sched messaging -g 2 -l 50" perf bench sched messaging -g 2 -l 50
row "python3 -c pass" /usr/bin/python3 -c pass
