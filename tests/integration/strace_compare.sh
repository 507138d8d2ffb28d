#!/bin/sh
# strace as the oracle: `strace -f -c` and kfootprint (ptrace backend) on the same commands. For
# deterministic ones, calls and errors must be equal per syscall (exit/exit_group aside: strace -c omits
# them); for a non-deterministic one (perf bench sched messaging), the same sets of processes and syscalls.
. "$(dirname "$0")/../lib.sh"

if ! command -v strace >/dev/null; then
	skip strace "strace not installed (make deps)"
	exit 0
fi
mkdir -p "$T/tree/a/b" "$T/tree/c"
touch "$T/tree/a/x.h" "$T/tree/a/b/y.h" "$T/tree/c/z.c"

# compare MODE: compares $T/st (strace -c -U name,calls,errors) with $T/kf.json; prints the differences.
compare() {
	python3 - "$T/st" "$T/kf.json" "$1" <<'PY'
import json, sys
st = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 2 or f[0] in ("syscall", "total") or f[0].startswith("-"):
        continue
    st[f[0]] = (int(f[1]), int(f[2]) if len(f) > 2 else 0)
kf = {}
for s in json.load(open(sys.argv[2]))["syscalls"]:
    c, e = kf.get(s["name"], (0, 0))
    kf[s["name"]] = (c + s["calls"], e + s["errors"])
for n in ("exit", "exit_group"):
    st.pop(n, None)
    kf.pop(n, None)
if sys.argv[3] == "signals":
    # rt_sigreturn "fails" when the call its signal interrupted did: which call SIGCHLD lands in is timing; and
    # how many SIGCHLDs the shell handles is timing too (children ending close together are one pending signal):
    # both runs must have handled signals, not the same number of them.
    for d in (st, kf):
        if "rt_sigreturn" in d:
            d["rt_sigreturn"] = ("some", 0)
if sys.argv[3] in ("exact", "signals"):
    diff = ["%s: strace %s, kfootprint %s" % (n, st.get(n), kf.get(n)) for n in sorted(set(st) | set(kf)) if st.get(n) != kf.get(n)]
else:
    diff = ["%s: only in %s" % (n, "strace" if n in st else "kfootprint") for n in sorted(set(st) ^ set(kf))]
print("; ".join(diff[:8]))
PY
}

# run NAME MODE CMD...: a shell's SIGCHLD can land inside or outside a wait, changing rt_sigreturn and
# restart counts from one run to the next under any tracer; so up to 3 paired runs, and one must agree.
run() {
	name=$1 mode=$2
	shift 2
	for try in 1 2 3; do
		strace -f -c -U name,calls,errors -o "$T/st" -- "$@" >/dev/null 2>&1
		"$KF" record -b ptrace -F json --report /dev/null -o "$T/kf.json" -- "$@" >/dev/null 2>&1
		d=$(compare "$mode")
		[ -z "$d" ] && break
	done
	total=$(jget "$T/kf.json" "sum(s['calls'] for s in d['syscalls'])")
	if [ -z "$d" ] && [ "$total" -gt 10 ]; then
		ok "strace: $name ($mode, $total calls, run $try)"
	else
		not_ok "strace: $name: $d"
	fi
}

run "ls -la" exact ls -la /usr /etc/hostname /nonexistent-kf
run "python3 -c pass" exact python3 -c pass
run "find" exact find "$T/tree" -name '*.h'
run "sh -c pipeline" signals sh -c "ls $T/tree | wc -l; echo hi | cat | tr a-z A-Z; cat /nonexistent-kf 2>/dev/null; exit 0"
run "tar" exact tar cf /dev/null "$T/tree"

# Non-deterministic: 1 group of 10 sender and 10 receiver processes exchanging messages.
if perf bench sched messaging -p -g 1 -l 5 >/dev/null 2>&1; then
	strace -f -c -U name,calls,errors -o "$T/st" -- perf bench sched messaging -p -g 1 -l 5 >/dev/null 2>&1
	"$KF" record -b ptrace -F json --report /dev/null -o "$T/kf.json" -- perf bench sched messaging -p -g 1 -l 5 >/dev/null 2>&1
	# Restarts and signal returns depend on timing; the rest of the set must agree.
	d=$(compare sets | tr ';' '\n' | grep -vE 'restart_syscall|rt_sigreturn' | tr '\n' ';' | sed 's/;$//')
	if [ -z "$d" ]; then ok "strace: perf bench sched messaging (syscall set)"; else not_ok "strace: messaging: $d"; fi
	strace -f -o "$T/stlog" -- perf bench sched messaging -p -g 1 -l 5 >/dev/null 2>&1
	eq "strace: messaging, same number of processes" "$(grep -c '+++ exited' "$T/stlog")" \
		"$(jget "$T/kf.json" "len(d['processes'])")"
else
	skip "strace: perf bench sched messaging" "perf bench does not run here"
fi
