#!/bin/sh
# `make bench`: -b bpf -- true against strace -f -c -- true on a machine with nothing mounted at /sys/fs/bpf (a
# minimal system, a container, a CI runner), where kfootprint mounts bpffs itself for its program cache
# (src/trace/bpffs.c). Run in a mount namespace of its own (unshare -m): any bpffs there is unmounted in it alone,
# and the one kfootprint mounts dies with it; nothing of the machine's mounts is touched.
#   sh bench/bpffs_fresh.sh [BUILD-DIR [BEFORE-DIR]]     KF_BENCH_STARTUP_REPS paired runs (default 21)
# BEFORE-DIR: another build (an earlier commit's) run in the same repetitions, for a before/after side by side.
# Paired: each repetition runs strace, then kfootprint with its cache, then kfootprint without (KF_BPF_CACHE=0);
# the first repetition's kfootprint is the first run from the unmounted state (it mounts, loads, pins). A cell is
# the median wall/CPU time, and the median of the per-repetition ratios to strace. Not a test: figures, exit 0.
set -u
build=${1:-build}
kf=$build/kfootprint
before=${2:+$2/kfootprint}
[ -x "$kf" ] || { echo "bench: $kf not built (make)" >&2; exit 1; }
[ -z "$before" ] || [ -x "$before" ] || { echo "bench: $before not built" >&2; exit 1; }
for t in unshare strace python3; do
	command -v $t >/dev/null || { echo "bench: bpffs_fresh needs $t" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "bench: bpffs_fresh needs root (bpf, and a mount namespace)" >&2; exit 1; }
exec unshare -m --propagation private python3 - "$kf" "${KF_BENCH_STARTUP_REPS:-21}" "$before" <<'PY'
import os, resource, statistics, subprocess, sys, time

kf, reps, before_kf = sys.argv[1], int(sys.argv[2]), sys.argv[3]

def fstype(path):
    return subprocess.run(["stat", "-f", "-c", "%T", path], capture_output=True, text=True).stdout.strip()

# this namespace's copy of the mounts only (propagation private): the machine's stay as they are
while fstype("/sys/fs/bpf") == "bpf_fs":
    if subprocess.run(["umount", "/sys/fs/bpf"]).returncode:
        print("bench: bpffs_fresh: cannot unmount /sys/fs/bpf in a namespace of its own"); sys.exit(0)
before = fstype("/sys/fs/bpf")

def timed_cpu(argv, env=None):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    r = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    t = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode:
        return None
    return t, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)

nocache = dict(os.environ, KF_BPF_CACHE="0")
tools = [
    ("strace -f -c", lambda: timed_cpu(["strace", "-f", "-c", "-o", "/dev/null", "--", "true"])),
    ("kf bpf", lambda: timed_cpu([kf, "record", "-b", "bpf", "--report", "/dev/null", "--", "true"])),
    ("bpf no cache", lambda: timed_cpu([kf, "record", "-b", "bpf", "--report", "/dev/null", "--", "true"], nocache)),
]
if before_kf:
    tools.append(("before", lambda: timed_cpu([before_kf, "record", "-b", "bpf", "--report", "/dev/null", "--", "true"])))
res = {n: [] for n, f in tools}
for r in range(reps):
    for n, f in tools:
        res[n].append(f())
after = fstype("/sys/fs/bpf")

def cell(xs, base):
    ok = [(x, b) for x, b in zip(xs, base) if x and b]
    if not ok:
        return "n/a"
    w = statistics.median(x[0] for x, b in ok)
    c = statistics.median(x[1] for x, b in ok)
    rw = statistics.median(x[0] / b[0] for x, b in ok)
    rc = statistics.median(x[1] / b[1] for x, b in ok if b[1] > 0) if any(b[1] > 0 for x, b in ok) else 0
    return "%.1f/%.1f ms %.2f/%.2fx" % (w * 1e3, c * 1e3, rw, rc)

base = res["strace -f -c"]
print("start-up from nothing mounted at /sys/fs/bpf (%s before the first run, %s after): -- true, wall/CPU, median"
      " of %d paired runs; ratios to strace -f -c of the same repetition" % (before, after, reps))
print("  %-34s %s" % ("strace -f -c", cell(base, base)))
print("  %-34s %s" % ("kf bpf, first run (mounts, loads)", cell(res["kf bpf"][:1], base[:1])))
print("  %-34s %s" % ("kf bpf, every run", cell(res["kf bpf"], base)))
print("  %-34s %s" % ("kf bpf, the runs after the first", cell(res["kf bpf"][1:], base[1:])))
print("  %-34s %s" % ("bpf no cache (KF_BPF_CACHE=0)", cell(res["bpf no cache"], base)))
if before_kf:
    print("  %-34s %s" % ("before (%s), runs after the first" % before_kf, cell(res["before"][1:], base[1:])))
PY
