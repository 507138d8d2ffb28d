#!/bin/sh
# The bpf backend against the ptrace backend (the reference, itself checked against strace -f -c): the same
# deterministic workloads and real programs recorded with both must give equal calls and errors per syscall
# (and errno) and the same process tree (names, exe, argv, threads, exit, opens), in both bpf modes (with
# time: sys_enter + sys_exit; --no-time: sys_exit only).
#
# Left out of the equality, and why (see tests/fp_compare.py): futex (whether a waiter sleeps depends on how
# fast the other thread runs, and bpf runs it ~100x faster), and ERESTART* errors (a call interrupted by a
# signal and restarted exists only when the signal lands during the call: timing again). The shell pipeline
# also leaves out rt_sigreturn: SIGCHLDs of children that end together are delivered once (ptrace itself
# gives 4 or 5).
. "$(dirname "$0")/../lib.sh"

bpf_or_skip bpf_compare || exit 0

# cmp_fp PTRACE.json BPF.json: prints nothing when equal, else the differences (tests/fp_compare.py).
cmp_fp() { python3 "$KF_TOP/tests/fp_compare.py" "$1" "$2" --ignore "${IGNORE:-futex}"; }

# both NAME COMMAND...: records COMMAND with ptrace, bpf and bpf --no-time; one TAP line per bpf mode.
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
		if [ -z "$diff" ]; then ok "$name ($mode): same calls, errors and process tree as ptrace"
		else not_ok "$name ($mode)"; printf '%s\n' "$diff" | head -n 20 | sed 's/^/#   /'; fi
	done
}

IGNORE=futex
if [ -x "$WL/wl_errors" ]; then
	both wl_errors "$WL/wl_errors" "$T/scratch"
	both wl_enosys "$WL/wl_enosys"
	both wl_signals "$WL/wl_signals"
	both wl_killed "$WL/wl_killed"
	both wl_threads "$WL/wl_threads"
	both wl_forkexec "$WL/wl_forkexec"
	both wl_fork200 "$WL/wl_fork200"
	both wl_i386_m32 "$WL/wl_i386_m32"
else
	skip workloads "workloads not built: run make workloads"
fi
both ls ls -la /usr
both python3 /usr/bin/python3 -c pass
IGNORE="futex rt_sigreturn"
both "sh pipeline" sh -c 'ls /usr | sort | wc -l; cat /etc/hostname | tr a-z A-Z'
IGNORE=futex
both find find /usr/include/linux -name '*.h'
both tar tar cf /dev/null /usr/include/linux
both "missing file" cat /nonexistent/kf-missing

# Counts that follow from the workloads' sources, on the bpf backend alone.
if [ -x "$WL/wl_threads" ]; then
	"$KF" record -b bpf -F json --report /dev/null -o "$T/t.json" -- "$WL/wl_threads" >/dev/null 2>&1
	eq "wl_threads: 42 getppid, one process of 5 threads" "42 1 5" \
		"$(jget "$T/t.json" "' '.join(str(x) for x in (sum(s['calls'] for s in d['syscalls'] if s['name'] == 'getppid'), len(d['processes']), d['processes'][0]['threads']))")"
	"$KF" record -b bpf -F json --report /dev/null -o "$T/e.json" -- "$WL/wl_exec_thread" >/dev/null 2>&1
	eq "wl_exec_thread: exec from a thread: 2 execve, 2 getppid, one process, exit 7" "2 2 1 7" \
		"$(jget "$T/e.json" "' '.join(str(x) for x in (sum(s['calls'] for s in d['syscalls'] if s['name'] == 'execve'), sum(s['calls'] for s in d['syscalls'] if s['name'] == 'getppid'), len(d['processes']), d['exit'].get('code')))")"
fi

# 400 processes, more (process x syscall x errno) counters than the kernel keeps at once for long: each
# process's record is taken out of the kernel when it ends, while the workload runs, and nothing is lost.
"$KF" record -b ptrace -F json --report /dev/null -o "$T/bp.json" -- sh -c 'for i in $(seq 400); do ls / >/dev/null; done' 2>/dev/null
"$KF" record -b bpf -v -F json --report /dev/null -o "$T/bb.json" -- sh -c 'for i in $(seq 400); do ls / >/dev/null; done' 2>"$T/bb.err"
diff=$(cmp_fp "$T/bp.json" "$T/bb.json")
taken=$(sed -n 's/.*: \([0-9]*\) process records taken out of the kernel while running.*/\1/p' "$T/bb.err")
if [ -z "$diff" ] && [ "${taken:-0}" -ge 400 ]; then
	ok "400 processes: $taken records taken out of the kernel while running, same footprint as ptrace"
else
	not_ok "400 processes: ${taken:-no} records taken out while running"; printf '%s\n' "$diff" | head -n 10 | sed 's/^/#   /'
fi

# More distinct (syscall, errno) pairs in one process than its record has slots (200 unassigned numbers):
# the rest spill to a shared hash, read when the process ends; nothing lost, the same counts as ptrace.
spill='import ctypes; s = ctypes.CDLL(None).syscall; [s(n) for n in range(1000, 1200) for k in range(2)]'
"$KF" record -b ptrace -F json --report /dev/null -o "$T/sp.json" -- /usr/bin/python3 -c "$spill" 2>/dev/null
for mode in time no-time; do
	flag=; [ "$mode" = no-time ] && flag=--no-time
	"$KF" record -b bpf $flag -v -F json --report /dev/null -o "$T/sb.json" -- /usr/bin/python3 -c "$spill" 2>"$T/sb.err"
	diff=$(cmp_fp "$T/sp.json" "$T/sb.json")
	n=$(jget "$T/sb.json" "sum(s['calls'] for s in d['syscalls'] if s['name'].startswith('syscall_1'))")
	spilled=$(sed -n 's/.* \([0-9]*\) spilled counters.*/\1/p' "$T/sb.err")
	if [ -z "$diff" ] && [ "$n" = 400 ] && [ "${spilled:-0}" -gt 0 ]; then
		ok "spill ($mode): 200 numbers x 2 calls in one process, $spilled spilled, same footprint as ptrace"
	else
		not_ok "spill ($mode): $n calls of the 400, ${spilled:-no} spilled"; printf '%s\n' "$diff" | head -n 10 | sed 's/^/#   /'
	fi
done

# 32-bit calls: named from the i386 table. This needs a kernel (and VM) that runs 32-bit code.
if [ -x "$WL/wl_abi_mix" ]; then
	"$WL/wl_abi_mix" >/dev/null 2>&1
	if [ $? -ne 0 ]; then
		skip "i386 calls" "this machine cannot run int 0x80 (wl_abi_mix fails untraced)"
	else
		"$KF" record -b bpf -F json --report /dev/null -o "$T/a.json" -- "$WL/wl_abi_mix" >/dev/null 2>&1
		eq "i386 calls: 2 getpid (i386), 3 getppid (x86_64)" "2 3" \
			"$(jget "$T/a.json" "' '.join(str(sum(s['calls'] for s in d['syscalls'] if (s['abi'], s['name']) == k)) for k in (('i386', 'getpid'), ('x86_64', 'getppid')))")"
	fi
fi
