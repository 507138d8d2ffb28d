#!/bin/sh
# Calls a seccomp filter answers, with both backends. seccomp runs before the sys_enter tracepoint: a call
# it refuses (RET_ERRNO, RET_TRACE without a tracer, RET_TRAP, RET_USER_NOTIF) reaches only sys_exit, and
# one it kills (RET_KILL_*) may reach neither. Every one of them was made, so each backend counts it, and
# the one a filter killed a task in is named (seccomp_killed, and a line of the text report).
# tests/workloads/wl_seccomp.c: 3 getpid, then 5 getppid answered by the filter.
. "$(dirname "$0")/../lib.sh"

workload_or_skip record_seccomp "$WL/wl_seccomp" || exit 0
backends="ptrace"
if out=$("$KF" record -b bpf --report /dev/null -- true 2>&1); then
	backends="ptrace bpf bpf-no-time"
else
	skip "seccomp (bpf)" "bpf backend cannot run here: $out"
fi

# rec MODE BACKEND: records wl_seccomp MODE into $T/MODE.BACKEND.json (report in .txt); sets $rc.
rec() {
	case $2 in
	bpf-no-time) set -- "$1" bpf --no-time ;;
	*) set -- "$1" "$2" ;;
	esac
	mode=$1
	shift
	"$KF" record -b "$@" -F text --report "$T/$mode.$b.txt" -o "$T/$mode.$b.json" -- "$WL/wl_seccomp" "$mode" \
		>/dev/null 2>"$T/$mode.$b.err"
	rc=$?
}
# facts FILE: getpid and getppid "calls/errors errnos", the exit, and what seccomp killed.
facts() {
	jget "$1" "' '.join(['%d/%d%s' % (s['calls'], s['errors'], ''.join(',%s=%d' % kv for kv in sorted(s['errnos'].items()))) for n in ('getpid', 'getppid') for s in d['syscalls'] if s['name'] == n and s['abi'] == 'x86_64'] + [json.dumps(d['exit']), json.dumps([p.get('seccomp_killed') for p in d['processes'] if p.get('seccomp_killed')])])"
}

# mode, then what every backend must record: getpid, getppid, exit, kills
while read -r mode want; do
	for b in $backends; do
		rec "$mode" "$b"
		eq "$mode ($b): getpid, getppid, exit, kills" "$want" "$(facts "$T/$mode.$b.json")"
		[ "$mode" = kill ] && eq "kill ($b): kfootprint exits 128 + SIGSYS" 159 "$rc"
	done
done <<'EOF'
errno 3/0 5/5,EPERM=5 {"code": 0} []
trace 3/0 5/5,ENOSYS=5 {"code": 0} []
trap 3/0 5/0 {"code": 0} []
notify 3/0 5/5,EACCES=5 {"code": 0} []
kill 3/0 1/0 {"signal": "SIGSYS"} [{"getppid": 1}]
kill-thread 3/0 1/0 {"code": 0} [{"getppid": 1}]
EOF
for b in $backends; do
	eq "trap ($b): 5 SIGSYS handlers returned" 5 \
		"$(jget "$T/trap.$b.json" "sum(s['calls'] for s in d['syscalls'] if s['name'] == 'rt_sigreturn')")"
	eq "kill ($b): the text report names the call" "1" \
		"$(grep -c '^seccomp kill: getppid, 1 task (first: pid [0-9]* wl_seccomp)$' "$T/kill.$b.txt")"
done
eq "kill: strace -f -c counts the killed call too" "1" \
	"$(strace -f -c -o "$T/kill.strace" "$WL/wl_seccomp" kill 2>/dev/null; awk '$NF == "getppid" {print $4}' "$T/kill.strace")"

# A real seccomp user: stress-ng's seccomp stressor; every backend and strace -f -c count the same writes.
if ! command -v stress-ng >/dev/null; then
	skip "stress-ng --seccomp" "stress-ng is not installed"
	exit 0
fi
sng() { "$KF" record "$@" -F csv --report "$T/sng.csv" -- stress-ng --seccomp 1 --seccomp-ops 200 >/dev/null 2>&1; awk -F, '$1 == "x86_64" && $2 == "write" {print $4 "/" $5}' "$T/sng.csv"; }
strace -f -c -o "$T/sng.strace" stress-ng --seccomp 1 --seccomp-ops 200 >/dev/null 2>&1
want=$(awk '$NF == "write" {print $4 "/" ($5 ~ /^[0-9]+$/ ? $5 : 0)}' "$T/sng.strace")
eq "stress-ng --seccomp: ptrace counts the writes strace -f -c counts" "$want" "$(sng -b ptrace)"
case $backends in
*bpf*)
	eq "stress-ng --seccomp: bpf counts them too" "$want" "$(sng -b bpf)"
	eq "stress-ng --seccomp: bpf --no-time counts them too" "$want" "$(sng -b bpf --no-time)"
	;;
esac
