#!/bin/sh
# The default text report on the workloads of tests/workloads/ (exact footprints, ptrace), against golden
# outputs in tests/golden/text/. What changes from run to run is normalised in the saved footprint before
# `kfootprint report` renders it: pids become 1000, 1001, ... in order of appearance, each call's time becomes
# calls x len(name) us (an order that differs from the calls' one, so -S time is seen to sort), start times,
# elapsed and run times are fixed, the command is its base name, and the ERESTARTSYS retry a SIGCHLD can add to
# wait4 is taken out. The goldens hold the dynamic loader's calls of Debian 12's glibc; KF_UPDATE_GOLDEN=1
# rewrites them from this machine (review the diff).
. "$(dirname "$0")/../lib.sh"

G="$KF_TOP/tests/golden/text"

workload_or_skip report_text "$WL/wl_errors" || exit 0

# norm IN OUT [notime]: the normalised footprint.
norm() {
	python3 - "$@" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
notime = len(sys.argv) > 3
pids = {p["pid"]: 1000 + i for i, p in enumerate(d["processes"])}
restarts = {}
for s in d["syscalls"]:
    n = sum(v for e, v in s["errnos"].items() if e.startswith("ERESTART"))
    if n:
        restarts[s["name"]] = n
        s["calls"] -= n
        s["errors"] -= n
        s["errnos"] = {e: v for e, v in s["errnos"].items() if not e.startswith("ERESTART")}
        s["error_sources"] = [e for e in s.get("error_sources", []) if not e["errno"].startswith("ERESTART")]
for s in d["syscalls"]:
    s["time_s"] = 0 if notime else s["calls"] * len(s["name"]) * 1e-6
for i, p in enumerate(d["processes"]):
    p["pid"] = pids[p["pid"]]
    p["ppid"] = pids.get(p["ppid"], 999)
    p["start_s"], p["end_s"] = 0.001 * i, 0.25 + 0.001 * i
    p["exe"] = os.path.basename(p["exe"])
    p["argv"] = [os.path.basename(a) if a.startswith("/") else a for a in p["argv"]]  # the tree shows argv
    for key, s in p["syscalls"].items():
        n = min(restarts.get(key, 0), s["errors"])
        s["calls"] -= n
        s["errors"] -= n
        restarts[key] = restarts.get(key, 0) - n
        name = key.split(":")[-1]
        s["time_s"] = 0 if notime else s["calls"] * len(name) * 1e-6
w = d["workload"]
w["argv"] = [os.path.basename(a) if a.startswith("/") else a for a in w["argv"]]
w["user"] = "root"
d["started_at"], d["elapsed_s"] = "2026-01-01T00:00:00Z", 0.5
json.dump(d, open(sys.argv[2], "w"))
PY
}

# golden NAME REPORT-OPTIONS...: the report of $T/NAME.norm.json against tests/golden/text/NAME.txt.
golden() {
	name=$1
	shift
	"$KF" report "$@" "$T/$name.norm.json" >"$T/$name.txt" 2>"$T/$name.err"
	if [ -n "${KF_UPDATE_GOLDEN:-}" ]; then
		cp "$T/$name.txt" "$G/$name.txt"
	fi
	if diff -u "$G/$name.txt" "$T/$name.txt" >"$T/$name.diff"; then
		ok "golden: $name"
	else
		not_ok "golden: $name"
		sed 's/^/#   /' "$T/$name.diff" | head -n 40
	fi
}

# rec NAME OPTIONS... -- ARGS...: records a workload with ptrace, saves and prints the report.
rec() {
	name=$1
	shift
	"$KF" record -b ptrace -o "$T/$name.json" --report "$T/$name.rec.txt" "$@" >/dev/null 2>"$T/$name.rec.err"
	echo $?
}

# --- a static i386 program: the whole footprint is its own ---
eq "i386: recorded" 5 "$(rec m32 -- "$WL/wl_i386_m32")"
norm "$T/m32.json" "$T/m32.norm.json"
golden m32

# --- errors, one process: no per-process table unless -P ---
eq "errors: recorded" 0 "$(rec errors -S name -- "$WL/wl_errors" "$T/scratch")"
eq "record -S name prints what report -S name renders from the saved footprint" "" \
	"$("$KF" report -S name "$T/errors.json" | diff "$T/errors.rec.txt" - 2>&1)"
norm "$T/errors.json" "$T/errors.norm.json"
golden errors
cp "$T/errors.norm.json" "$T/errors-by-errors-P.norm.json"
golden errors-by-errors-P -S errors -P
norm "$T/errors.json" "$T/errors-notime.norm.json" notime
golden errors-notime
cp "$T/errors.norm.json" "$T/errors-by-class.norm.json"
golden errors-by-class --by-class

# --- three processes: a table each, without -P ---
eq "forkexec: recorded" 0 "$(rec forkexec -- "$WL/wl_forkexec")"
norm "$T/forkexec.json" "$T/forkexec.norm.json"
golden forkexec

# --- the default order is strace -c's, time; the header says so ---
"$KF" report "$T/forkexec.json" >"$T/default.txt"
"$KF" report -S time "$T/forkexec.json" >"$T/time.txt"
check "default sort is by time" cmp "$T/default.txt" "$T/time.txt"
check "the table says its order" grep -qx 'system calls, by time' "$T/default.txt"
secs=$(sed -n '/^system calls, by time$/,/^$/p' "$T/default.txt" | awk 'NR > 3 && NF' | grep -oE ' [0-9]+\.[0-9]{6} ')
eq "rows by time, descending" "$(printf '%s\n' "$secs" | sort -rn)" "$secs"

# --- bpf --no-time: no time column, not zeros ---
if bpf_or_skip "bpf --no-time: no time columns"; then
	"$KF" record -b bpf --no-time --report "$T/bpf.txt" -- "$WL/wl_errors" "$T/scratch2" >/dev/null 2>&1
	check "bpf --no-time: sorted by calls" grep -qx 'system calls, by calls' "$T/bpf.txt"
	check "bpf --no-time: columns syscall, calls, errors, class" grep -qE '^syscall +calls +errors +class$' "$T/bpf.txt"
	# the paths named are left out: a clone's directory may hold the word (a worktree named checktime did)
	eq "bpf --no-time: no time anywhere" "" "$(sed -e "s|$KF_TOP||g" -e "s|$T||g" "$T/bpf.txt" | grep -E 'time|s/call')"
fi

# --- options that shape the text report only ---
out=$("$KF" report -F csv -S calls "$T/errors.json" 2>&1)
eq "-S with -F csv is refused" "kfootprint: -S, -P and --by-class shape the text report, not -F csv: 1" "$out: $?"
out=$("$KF" record -S size -- true 2>&1)
eq "an unknown -S key is refused" "kfootprint: unknown sort key 'size': expected one of calls, time, errors, name: 1" \
	"$out: $?"

# --- what calls reached (issue 25): the summary's classes follow it (the pipe's write and read are IPC, the
# socket's ioctl Network; --by-class keeps each syscall's class) and kconfig:/maintainers: say what the kernel
# needs for it, from the built-in database: DNOTIFY (fcntl F_NOTIFY), FILE_LOCKING (F_SETLEASE),
# SECCOMP_FILTER (seccomp's filter mode), FUSE_FS (/dev/fuse) ---
if [ -x "$WL/wl_reach_args" ]; then
	mkdir -p "$T/args"
	eq "reach-args: recorded" 0 "$(rec reach-args -- "$WL/wl_reach_args" "$T/args")"
	norm "$T/reach-args.json" "$T/reach-args.norm.json"
	golden reach-args
	"$KF" report "$T/reach-args.norm.json" >"$T/ra.txt"
	for opt in DNOTIFY FILE_LOCKING MEMFD_CREATE SECCOMP_FILTER FUSE_FS TMPFS; do
		if grep -A3 '^kconfig:' "$T/ra.txt" | grep -q "[ ,]$opt\(,\|$\)"; then ok "summary: kconfig: names $opt"; else
			not_ok "summary: kconfig: names $opt"; grep -A3 '^kconfig:' "$T/ra.txt" | sed 's/^/#   /'; fi
	done
	eq "summary: the map command for the chains" "              see \`kfootprint map FILE\` for the chains" \
		"$(grep 'for the chains' "$T/ra.txt")"
else
	skip "reach-args golden" "workloads not built: run make workloads"
fi
