#!/bin/sh
# Kernel lines by kcov, in the measurement kernel (kfootprint tailor --measure kcov) booted by the guest harness:
#   bench/kcov.sh [BUILD-DIR]       builds (or takes from the cache) the kernel, boots it, runs the rows below
# Wall time of each workload untraced, under `kfootprint --kernel-lines` (kcov, ptrace backend: the whole run,
# the footprint and the PC file saved), under plain `kfootprint -b ptrace` (the backend's own share) and under
# `kfootprint --kernel-functions=graph` (function_graph), side by side in the same kernel and the same boot;
# median of KF_BENCH_REPS (default 3) runs each. Not a test: it prints figures and exits 0.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
kf=$top/$build/kfootprint
[ -x "$kf" ] || { echo "bench: $kf not built (make)" >&2; exit 1; }
if [ -z "${KF_GUEST:-}" ]; then
	out=$(mktemp -d /tmp/kf-bench-kcov.XXXXXX) || exit 1
	flock "${KF_KBUILD_LOCK:-/var/tmp/kf-kbuild.lock}" nice -n 10 "$kf" tailor -o "$out" --measure kcov >"$out/measure.out" 2>"$out/measure.err" ||
		{ echo "bench: tailor --measure kcov failed: $(tail -n1 "$out/measure.err")" >&2; rm -rf "$out"; exit 1; }
	cd "$top" && tests/guest/run --bzimage "$out/measure-kcov/bzImage" --append nokaslr --timeout 3000 -- \
		sh bench/kcov.sh "$build"
	rc=$?
	rm -rf "$out"
	exit $rc
fi
[ -e /sys/kernel/debug/kcov ] || { echo "bench: no kcov in this kernel" >&2; exit 1; }
exec python3 - "$kf" "$top/$build/workloads" "${KF_BENCH_REPS:-3}" <<'PY'
import statistics, subprocess, sys, tempfile, time, os

kf, wl, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
workloads = [
    ("eventfd x1000", [wl + "/wl_kpaths", "eventfd", "1000"]),
    ("ls /usr/bin", ["ls", "/usr/bin"]),
    ("fork+vfork+exec", [wl + "/wl_forkexec"]),
    ("sh -c 'cat /proc/version | wc -c'", ["sh", "-c", "cat /proc/version | wc -c"]),
]
tmp = tempfile.mkdtemp(dir=os.getcwd(), prefix=".kf-bench-kcov.")
def run(argv):
    t = time.monotonic()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.monotonic() - t
modes = [
    ("untraced", lambda c: c),
    ("ptrace", lambda c: [kf, "-q", "-b", "ptrace", "--report", "/dev/null", "-o", tmp + "/p.json", "--"] + c),
    ("kcov", lambda c: [kf, "-q", "-b", "ptrace", "--kernel-lines", "--kernel-lines-pcs", tmp + "/k.pcs", "--report",
                        "/dev/null", "-o", tmp + "/k.json", "--"] + c),
    ("kfuncs", lambda c: [kf, "-q", "--kernel-functions", "--report", "/dev/null", "-o", tmp + "/g.json", "--"] + c),
]
print("%-36s %10s %10s %10s %10s %8s %8s %8s" % ("workload", "untraced", "ptrace", "kcov", "kfuncs", "kcov/u", "kcov/pt", "kcov/kf"))
for name, cmd in workloads:
    run(cmd)
    t = {}
    for m, f in modes:
        t[m] = statistics.median(run(f(cmd)) for _ in range(reps))
    pcs = sum(1 for l in open(tmp + "/k.pcs") if l.startswith("pc "))
    print("%-36s %9.3fs %9.3fs %9.3fs %9.3fs %7.1fx %7.2fx %7.2fx  (%d distinct PCs)" % (
        name, t["untraced"], t["ptrace"], t["kcov"], t["kfuncs"], t["kcov"] / max(t["untraced"], 1e-6),
        t["kcov"] / t["ptrace"], t["kcov"] / t["kfuncs"], pcs))
subprocess.run(["rm", "-rf", tmp])
PY
