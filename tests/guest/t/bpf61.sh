#!/bin/sh
# The bpf backend on Debian's 6.1 kernel: CO-RE relocates the programs built against the host's 6.18 BTF to
# 6.1's, and the footprints equal the ptrace backend's (the reference, itself checked against strace -f -c on
# the host) for workloads with known counts and real programs, in both bpf modes. The same comparison as
# tests/integration/bpf_compare.sh, on a subset that stays within a TCG guest's time: workloads that end in
# well under a second each, no 400-process or spill runs.
. "$(dirname "$0")/../../lib.sh"

bpf_or_skip "bpf on $(uname -r)" || exit 0
"$KF" record -b bpf -v --report /dev/null -- true 2>"$T/v.err"
check "CO-RE against this kernel's own BTF (not the build kernel's)" grep -q 'not the build kernel: CO-RE against the full kernel BTF' "$T/v.err"

cmp_fp() { python3 "$KF_TOP/tests/fp_compare.py" "$1" "$2" --ignore "${IGNORE:-futex}"; }
# both NAME COMMAND...: ptrace, then bpf and bpf --no-time; one TAP line per bpf mode
both() {
	name=$1; shift
	rm -rf "$T/scratch"
	"$KF" record -b ptrace -F json --report /dev/null -o "$T/p.json" -- "$@" >/dev/null 2>"$T/p.err"
	for mode in time no-time; do
		rm -rf "$T/scratch" "$T/b.json"
		flag=; [ "$mode" = no-time ] && flag=--no-time
		"$KF" record -b bpf $flag -F json --report /dev/null -o "$T/b.json" -- "$@" >/dev/null 2>"$T/b.err"
		if [ ! -s "$T/p.json" ] || [ ! -s "$T/b.json" ]; then
			not_ok "$name ($mode): no footprint"; sed 's/^/#   /' "$T/p.err" "$T/b.err"; continue
		fi
		diff=$(cmp_fp "$T/p.json" "$T/b.json")
		if [ -z "$diff" ]; then ok "$name ($mode): same calls, errors and process tree as ptrace on $(uname -r)"
		else not_ok "$name ($mode) on $(uname -r)"; printf '%s\n' "$diff" | head -n 20 | sed 's/^/#   /'; fi
	done
}

IGNORE=futex
if [ -x "$WL/wl_errors" ]; then
	both wl_errors "$WL/wl_errors" "$T/scratch"
	both wl_enosys "$WL/wl_enosys"
	both wl_signals "$WL/wl_signals"
	both wl_threads "$WL/wl_threads"
	both wl_forkexec "$WL/wl_forkexec"
else
	skip workloads "workloads not built: run make workloads"
fi
both ls ls -la /usr
IGNORE="futex rt_sigreturn"
both "sh pipeline" sh -c 'ls /usr | sort | wc -l; cat /etc/hostname | tr a-z A-Z'
IGNORE=futex
both "missing file" cat /nonexistent/kf-missing

# Counts that follow from the workloads' sources, bpf alone.
if [ -x "$WL/wl_exec_thread" ]; then
	"$KF" record -b bpf -F json --report /dev/null -o "$T/t.json" -- "$WL/wl_threads" >/dev/null 2>&1
	eq "wl_threads: 42 getppid, one process of 5 threads" "42 1 5" \
		"$(jget "$T/t.json" "' '.join(str(x) for x in (sum(s['calls'] for s in d['syscalls'] if s['name'] == 'getppid'), len(d['processes']), d['processes'][0]['threads']))")"
	"$KF" record -b bpf -F json --report /dev/null -o "$T/e.json" -- "$WL/wl_exec_thread" >/dev/null 2>&1
	eq "wl_exec_thread: exec from a thread: 2 execve, 2 getppid, one process, exit 7" "2 2 1 7" \
		"$(jget "$T/e.json" "' '.join(str(x) for x in (sum(s['calls'] for s in d['syscalls'] if s['name'] == 'execve'), sum(s['calls'] for s in d['syscalls'] if s['name'] == 'getppid'), len(d['processes']), d['exit'].get('code')))")"
fi

# -p: attach to a running process, observe for a while, detach; it keeps running.
sleep 30 &
pid=$!
"$KF" record -b bpf -p "$pid" -d 1 -F json --report /dev/null -o "$T/a.json" 2>"$T/a.err"
eq "attach -p for 1 s on $(uname -r): the footprint is marked incomplete, the process still runs" "False yes" \
	"$(jget "$T/a.json" "d['complete']") $(kill -0 "$pid" 2>/dev/null && echo yes)"
kill "$pid" 2>/dev/null
