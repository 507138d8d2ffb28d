#!/bin/sh
# Error sources (syscalls[].error_sources): per syscall x errno, which processes failed and on which paths.
# wl_errors makes known failures on known paths; a shell pipeline's are held against strace's failed calls
# (strace -f -Z -e trace=%file): same (syscall, errno, path) counts. Then the JSON round trip, merge, and the
# text report's errors section.
. "$(dirname "$0")/../lib.sh"

workload_or_skip error_sources "$WL/wl_errors" || exit 0

# srcs FILE: "syscall errno count: comm n, ... | path n, ... [+other]" per error source, sorted.
srcs() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["syscalls"]:
    for e in s.get("error_sources", []):
        if e["errno"].startswith("ERESTART"):
            continue
        procs = ", ".join("%s %d" % (p["comm"], p["count"]) for p in e["processes"])
        line = "%s %s %d: %s" % (s["name"], e["errno"], e["count"], procs)
        if "paths" in e:
            line += " | " + ", ".join("%s %d" % (p["path"], p["count"]) for p in e["paths"])
            line += " +%d" % e["other_paths"]
        print(line)
PY
}

"$KF" record -b ptrace -o "$T/wl.json" --report /dev/null -- "$WL/wl_errors" "$T/scratch" >/dev/null 2>"$T/wl.err"
eq "ptrace: wl_errors recorded" 0 $?
eq "ptrace: the footprint says it has error sources" True "$(jget "$T/wl.json" 'd.get("error_sources")')"
srcs "$T/wl.json" | sort >"$T/wl.srcs"
cat >"$T/wl.want" <<'EOW'
access ENOENT 1: wl_errors 1 | /etc/ld.so.preload 1 +0
close EBADF 5: wl_errors 5
mkdirat EEXIST 3: wl_errors 3 | / 3 +0
openat ENOENT 7: wl_errors 7 | /nonexistent/kf-missing 7 +0
openat2 ENOENT 2: wl_errors 2 | /nonexistent/kf-missing2 2 +0
EOW
eq "ptrace: wl_errors sources, exactly" "$(cat "$T/wl.want")" "$(cat "$T/wl.srcs")"

# --- a shell pipeline against strace: every failed path call, by (syscall, errno, path) ---
# mkdir -p of an existing directory fails on a path too (mkdir EEXIST), and stat of a missing file.
cmd='ls / | wc -l >/dev/null; mkdir -p /tmp; stat /nonexistent/kf-x 2>/dev/null; exit 0'
"$KF" record -b ptrace -o "$T/sh.json" --report /dev/null -- sh -c "$cmd" >/dev/null 2>"$T/sh.err"
eq "ptrace: pipeline recorded" 0 $?
# ours: syscall errno path count, from the paths lists (none may overflow here)
python3 - "$T/sh.json" >"$T/sh.ours" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["syscalls"]:
    for e in s.get("error_sources", []):
        if "paths" not in e or e["errno"].startswith("ERESTART"):
            continue
        assert e["other_paths"] == 0, (s["name"], e["errno"])
        for p in e["paths"]:
            print("%s %s %s %d" % (s["name"], e["errno"], p["path"], p["count"]))
PY
sort -o "$T/sh.ours" "$T/sh.ours"
strace -f -qq -Z -e trace=%file -o "$T/sh.strace" sh -c "$cmd" >/dev/null 2>&1
# strace: NAME(... "PATH" ...) = -1 ERRNO (...); the path is the call's first string argument (symlink excepted:
# not used here). Lines cut by another process's ("<unfinished ...>" / "resumed>") are joined first.
python3 - "$T/sh.strace" >"$T/sh.theirs" <<'PY'
import collections, re, sys
pending, count = {}, collections.Counter()
for line in open(sys.argv[1]):
    pid, rest = line.rstrip("\n").split(None, 1)
    if rest.endswith("<unfinished ...>"):
        pending[pid] = rest[: -len("<unfinished ...>")]
        continue
    m = re.match(r"<\.\.\. \w+ resumed>(.*)", rest)
    if m:
        rest = pending.pop(pid, "") + m.group(1)
    m = re.match(r'(\w+)\(.*?"((?:[^"\\]|\\.)*)".* = -1 (E[A-Z0-9]+) ', rest)
    if m:
        count[(m.group(1), m.group(3), m.group(2))] += 1
for (name, err, path), n in count.items():
    print("%s %s %s %d" % (name, err, path, n))
PY
sort -o "$T/sh.theirs" "$T/sh.theirs"
if diff "$T/sh.theirs" "$T/sh.ours" >"$T/sh.diff"; then
	ok "ptrace: pipeline's failed paths equal strace's (syscall, errno, path, count)"
else
	# two runs of the same pipeline: what differed, for the reader (- strace's, + ours)
	not_ok "ptrace: pipeline's failed paths equal strace's (syscall, errno, path, count)"
	sed 's/^/#   /' "$T/sh.diff"
fi
check "the pipeline failed on paths at all" grep -q 'newfstatat ENOENT .*/wc 1' "$T/sh.ours"
eq "ptrace: PATH search by sh, each path once" "$(jget "$T/sh.json" '[e["processes"] for s in d["syscalls"] if s["name"] == "newfstatat" for e in s["error_sources"]][0][0]["comm"]')" sh

# --- JSON round trip and merge ---
"$KF" report -F json "$T/wl.json" >"$T/wl2.json"
check "report -F json gives the footprint back byte for byte" cmp "$T/wl.json" "$T/wl2.json"
"$KF" merge -o "$T/m.json" "$T/wl.json" "$T/sh.json" "$T/wl.json" 2>"$T/m.err"
m=$(python3 - "$T/m.json" "$T/wl.json" "$T/sh.json" <<'PY'
import json, sys
m, a, b = (json.load(open(f)) for f in sys.argv[1:4])
def src(d):
    return {(s["name"], e["errno"]): e for s in d["syscalls"] for e in s.get("error_sources", [])}
sm, sa, sb = src(m), src(a), src(b)
bad = []
for k in set(sa) | set(sb):
    want = sa.get(k, {"count": 0})["count"] + sb.get(k, {"count": 0})["count"]
    if sm.get(k, {"count": -1})["count"] != want:
        bad.append("%s %s: %s != %d" % (k[0], k[1], sm.get(k, {}).get("count"), want))
print("; ".join(bad) or "sums")
PY
)
eq "merge: each source counted once, sums per syscall x errno" sums "$m"
"$KF" merge -o "$T/m2.json" "$T/sh.json" "$T/m.json" 2>/dev/null
check "merge: a merged footprint with one of its sources again is the same" cmp "$T/m.json" "$T/m2.json"

# --- the text report's errors section ---
"$KF" report "$T/wl.json" >"$T/wl.txt"
check "text: errors section, one line per syscall x errno" grep -qx \
	'  openat ENOENT 7: wl_errors 7 — /nonexistent/kf-missing (7)' "$T/wl.txt"
# A PATH of our own, with a first directory that holds neither: sh's search fails there once per command.
mkdir "$T/empty"
env PATH="$T/empty:/usr/bin:/bin" "$KF" record -b ptrace --report "$T/sh.txt" -- sh -c 'ls | wc -l' >/dev/null 2>&1
check "text: sh's PATH search grouped by directory" grep -qx "  newfstatat ENOENT 2: sh 2 — $T/empty/\* (2)" "$T/sh.txt"

# --- bpf: the same sources as ptrace (processes and paths per syscall x errno), in both of its modes ---
# A path call's failure comes as an event with its path; other failures by the name the process had then.
# The storm: 20000 failed stats on 100 paths, more than the 64 paths kept, so other_paths counts too.
cat >"$T/storm.py" <<'EOP'
import os
for i in range(20000):
    try:
        os.stat("/nonexistent/%d" % (i % 100))
    except OSError:
        pass
EOP
# srcs_all FILE: as srcs, with the processes' other count (the bound) too.
srcs_all() {
	srcs "$1"
	jget "$1" '[(s["name"], e["errno"], e.get("other_processes", 0)) for s in d["syscalls"] for e in s.get("error_sources", []) if e.get("other_processes")]'
}
if bpf_or_skip "bpf: error sources equal ptrace's"; then
	for w in wl sh storm; do
		case $w in
		wl) set -- "$WL/wl_errors" "$T/scratch-$w" ;;
		sh) set -- sh -c 'ls | wc -l' ;;
		storm) set -- python3 "$T/storm.py" ;;
		esac
		"$KF" record -b ptrace -o "$T/$w.p.json" --report /dev/null -- "$@" >/dev/null 2>&1
		srcs_all "$T/$w.p.json" | sort >"$T/$w.p.srcs"
		for mode in "" --no-time; do
			rm -rf "$T/scratch-$w"
			"$KF" record -b bpf $mode -o "$T/$w.b.json" --report "$T/$w.b.txt" -- "$@" >/dev/null 2>&1
			eq "bpf$mode: $w: the footprint says it has error sources" True \
				"$(jget "$T/$w.b.json" 'd.get("error_sources")')"
			eq "bpf$mode: $w: complete" True "$(jget "$T/$w.b.json" 'd["complete"]')"
			srcs_all "$T/$w.b.json" | sort >"$T/$w.b.srcs"
			check "bpf$mode: $w: processes and paths per syscall x errno equal ptrace's" \
				diff "$T/$w.p.srcs" "$T/$w.b.srcs"
		done
		rm -rf "$T/scratch-$w"
	done
	# python3 may stat a few other paths of its own (and be a shell wrapper): the storm's part is exact.
	eq "the storm's sources: 64 paths kept, /nonexistent/0 first, the 36 others (7200) counted" "64 200 True" \
		"$(jget "$T/storm.b.json" '[(len(e["paths"]), e["paths"][0]["count"], e["other_paths"] >= 7200) for s in d["syscalls"] if s["name"] == "newfstatat" for e in s["error_sources"] if e["paths"][0]["path"] == "/nonexistent/0"][0]' | tr -d '(),')"
	check "bpf: the text report's errors section names the processes and paths" grep -qx \
		'  openat ENOENT 7: wl_errors 7 — /nonexistent/kf-missing (7)' "$T/wl.b.txt"
	eq "bpf: no 'not recorded' line any more" 0 "$(grep -c 'not recorded by the bpf backend' "$T/wl.b.txt")"
	# A failure before an exec is told under the name the process had then (python3), after it under the new.
	cat >"$T/preexec.py" <<'EOP'
import os
pid = os.fork()
if pid == 0:
    for fd in (900, 901, 902):
        try:
            os.close(fd)
        except OSError:
            pass
    os.execv("/bin/sh", ["sh", "-c", "exec 7</nonexistent/kf-post 2>/dev/null; :"])
os.waitpid(pid, 0)
EOP
	"$KF" record -b bpf -o "$T/pre.json" --report /dev/null -- python3 "$T/preexec.py" >/dev/null 2>&1
	srcs "$T/pre.json" >"$T/pre.srcs"
	check "bpf: a failure before an exec is the former name's" grep -qx 'close EBADF 3: python3 3' "$T/pre.srcs"
	check "bpf: a failure after an exec is the new name's" grep -q '^openat ENOENT [0-9]*: .*sh 1.*/nonexistent/kf-post 1' \
		"$T/pre.srcs"
fi
