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
# --no-time counts per task only where user space can read a live thread's storage (a thread's pidfd: 6.9): on 6.1,
# in the process records, as before.
"$KF" record -b bpf --no-time -v --report /dev/null -- true 2>"$T/nt.err"
check "--no-time on $(uname -r): no pidfd of a thread, the calls counted in the process records" \
	grep -q 'no pidfd of a thread .*: calls counted in the process records' "$T/nt.err"

# The binary built with this kernel's vmlinux in BTF_KERNELS (tests/integration/guest.sh: make btf-build): it
# relocates against the minimal BTF cut from it, with sys_exit's helper reads (kf_sys_exit_cast's kfunc ids are
# the build kernel's), and its footprints equal the full BTF's (the min_both cases below).
KF61=$KF_TOP/$KF_BUILD/btf61/kfootprint
if [ -x "$KF61" ]; then
	"$KF61" record -b bpf -v --report /dev/null -- true 2>"$T/m.err"
	check "BTF_KERNELS: -v says 6.1's minimal BTF was used" \
		grep -q 'a BTF_KERNELS kernel (.*vmlinux): CO-RE against its minimal BTF ([0-9]* bytes)' "$T/m.err"
	check "BTF_KERNELS: sys_exit with helper reads (not the build kernel)" \
		grep -q 'files read with helper reads' "$T/m.err"
else
	skip "BTF_KERNELS on $(uname -r)" "no $KF_BUILD/btf61/kfootprint (tests/integration/guest.sh builds it)"
fi

# both NAME COMMAND...: ptrace, then bpf and bpf --no-time, saved as case N (min_both: also bpf with the minimal BTF
# of this kernel); compared all at once below (a python3 start costs seconds under TCG: one for every case, not one
# a comparison)
n=0
MIN=
both() {
	name=$1; shift
	n=$((n + 1))
	echo "$n|$name|$IGNORE|$MIN" >>"$T/cases"
	rm -rf "$T/scratch"
	"$KF" record -b ptrace -F json --report /dev/null -o "$T/$n.p.json" -- "$@" >/dev/null 2>>"$T/$n.err"
	for mode in time no-time; do
		rm -rf "$T/scratch"
		flag=; [ "$mode" = no-time ] && flag=--no-time
		"$KF" record -b bpf $flag -F json --report /dev/null -o "$T/$n.$mode.json" -- "$@" >/dev/null 2>>"$T/$n.err"
	done
	if [ -n "$MIN" ]; then
		rm -rf "$T/scratch"
		"$KF61" record -b bpf -F json --report /dev/null -o "$T/$n.min.json" -- "$@" >/dev/null 2>>"$T/$n.err"
	fi
}
min_both() {
	[ -x "$KF61" ] && MIN=1
	both "$@"
	MIN=
}

IGNORE=futex
if [ -x "$WL/wl_errors" ]; then
	min_both wl_errors "$WL/wl_errors" "$T/scratch"
	both wl_enosys "$WL/wl_enosys"
	both wl_signals "$WL/wl_signals"
	both wl_threads "$WL/wl_threads"
	threads=$n
	[ -x "$WL/wl_threads_live" ] && both "wl_threads_live (threads ending 20 ms apart)" "$WL/wl_threads_live"
	both wl_forkexec "$WL/wl_forkexec"
else
	skip workloads "workloads not built: run make workloads"
fi
min_both ls ls -la /usr
IGNORE="futex rt_sigreturn"
min_both "sh pipeline" sh -c 'ls /usr | sort | wc -l; cat /etc/hostname | tr a-z A-Z'

# Counts that follow from the workloads' sources, bpf alone (wl_threads: its case above, with times).
[ -x "$WL/wl_exec_thread" ] &&
	"$KF" record -b bpf -F json --report /dev/null -o "$T/e.json" -- "$WL/wl_exec_thread" >/dev/null 2>&1

# -p: attach to a running process, observe for a while, detach; it keeps running.
sleep 30 &
pid=$!
"$KF" record -b bpf -p "$pid" -d 1 -F json --report /dev/null -o "$T/a.json" 2>"$T/a.err"
running=$(kill -0 "$pid" 2>/dev/null && echo yes)
kill "$pid" 2>/dev/null

python3 - "$T" "$KF_TOP/tests" "$(uname -r)" "${threads:-0}" <<'PY'
import contextlib, io, json, os, sys
sys.path.insert(0, sys.argv[2])
import fp_compare
T, rel = sys.argv[1], sys.argv[3]
for line in open(os.path.join(T, "cases")):
    n, name, ignore, mn = line.rstrip("\n").split("|")
    for mode in ("time", "no-time"):
        files = [os.path.join(T, "%s.%s.json" % (n, m)) for m in ("p", mode)]
        if not all(os.path.exists(f) and os.path.getsize(f) for f in files):
            print("not ok %s (%s): no footprint" % (name, mode))
            for e in open(os.path.join(T, n + ".err")).read().splitlines()[-5:]:
                print("#   " + e)
            continue
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            fp_compare.main(["fp_compare"] + files + ["--ignore", ignore])
        diff = out.getvalue().splitlines()
        if not diff:
            print("ok %s (%s): same calls, errors and process tree as ptrace on %s" % (name, mode, rel))
        else:
            print("not ok %s (%s) on %s" % (name, mode, rel))
            for d in diff[:20]:
                print("#   " + d)
    # the minimal BTF's footprint against the full BTF's (same bpf mode)
    mins = [os.path.join(T, "%s.%s.json" % (n, m)) for m in ("time", "min")]
    if mn and not all(os.path.exists(f) and os.path.getsize(f) for f in mins):
        print("not ok %s: no footprint with 6.1's minimal BTF (BTF_KERNELS)" % name)
    elif mn:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            fp_compare.main(["fp_compare"] + mins + ["--ignore", ignore])
        diff = out.getvalue().splitlines()
        print("%sok %s: the same footprint with 6.1's minimal BTF (BTF_KERNELS) as with the full one"
              % ("not " if diff else "", name))
        for d in diff[:20]:
            print("#   " + d)
def facts(f, expr):
    try:
        d = json.load(open(os.path.join(T, f)))
        return " ".join(str(x) for x in expr(d))
    except (OSError, ValueError, LookupError) as e:
        return "%s: %r" % (f, e)
calls = lambda d, name: sum(s["calls"] for s in d["syscalls"] if s["name"] == name)
with open(os.path.join(T, "v"), "w") as v:
    v.write("threads %s\n" % facts(sys.argv[4] + ".time.json", lambda d: (calls(d, "getppid"), len(d["processes"]), d["processes"][0]["threads"])))
    v.write("exec %s\n" % facts("e.json", lambda d: (calls(d, "execve"), calls(d, "getppid"), len(d["processes"]), d["exit"].get("code"))))
    v.write("attach %s\n" % facts("a.json", lambda d: (d["complete"],)))
PY
v() { sed -n "s/^$1 //p" "$T/v"; }
if [ -x "$WL/wl_exec_thread" ]; then
	eq "wl_threads: 42 getppid, one process of 5 threads" "42 1 5" "$(v threads)"
	eq "wl_exec_thread: exec from a thread: 2 execve, 2 getppid, one process, exit 7" "2 2 1 7" "$(v exec)"
fi
eq "attach -p for 1 s on $(uname -r): the footprint is marked incomplete, the process still runs" "False yes" \
	"$(v attach) $running"
