#!/bin/sh
# Kernel functions, in the QEMU guest (its 6.1 kernel traces functions; this host's refuses):
#   make bench-kfuncs        or        tests/guest/run -- sh bench/kfuncs.sh [BUILD-DIR]
# Wall time of `kfootprint --kernel-functions` (the whole run: set-up, the workload, reading and naming the
# functions, the footprint saved) against `trace-cmd record -p function_graph -F -c -O nofuncgraph-irqs` followed
# by `trace-cmd report` (the seed's way, whose report is what a person then reads), and the untraced workload;
# median of KF_BENCH_REPS (default 3) paired runs, with kfootprint's lost events at the default buffer size and
# the functions each found. Not a test: it prints figures and exits 0.
# Under TCG on a loaded machine one row takes 10 to 30 minutes, nearly all of it trace-cmd's (its report of a
# 200 000-line trace): make bench-kfuncs gives the guest KF_BENCH_TIMEOUT seconds (default 7200), and each run
# here KF_BENCH_RUN_TIMEOUT (default 1800), past which its row says which command ran out and the next starts.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
kf=$top/$build/kfootprint
wl=$top/$build/workloads
[ -x "$kf" ] || { echo "bench: $kf not built (make)" >&2; exit 1; }
command -v trace-cmd >/dev/null || { echo "bench: needs trace-cmd (make deps)" >&2; exit 1; }
grep -qw function /sys/kernel/tracing/available_tracers 2>/dev/null ||
	{ echo "bench: this kernel cannot trace functions: run it in the guest (make bench-kfuncs)" >&2; exit 1; }
exec python3 - "$kf" "$wl" "${KF_BENCH_REPS:-3}" "${KF_BENCH_RUN_TIMEOUT:-1800}" <<'PY'
import json, statistics, subprocess, sys, tempfile, time, os

kf, wl, reps, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
workloads = [
    ("ls /", ["ls", "/"]),
    ("sh -c 'cat /proc/version | wc -c'", ["sh", "-c", "cat /proc/version | wc -c"]),
    ("AF_UNIX socketpair x10", [wl + "/wl_kpaths", "unix", "10"]),
]
tmp = tempfile.mkdtemp(prefix="kf-bench.")

def timed(argv):
    t = time.monotonic()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=limit)
    return time.monotonic() - t

print("| workload | untraced | kfootprint --kernel-functions | trace-cmd record + report | kf / trace-cmd | kf lost | kf functions | trace-cmd functions |")
print("|---|---|---|---|---|---|---|---|", flush=True)
def row(name, argv):
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=limit)  # warm the caches
    u, k, t, lost, nk, nt = [], [], [], [], 0, 0
    for _ in range(reps):
        u.append(timed(argv))
        out = os.path.join(tmp, "kf.json")
        k.append(timed([kf, "-q", "--kernel-functions", "-o", out, "--report", "/dev/null", "--"] + argv))
        d = json.load(open(out))["kernel_functions"]
        lost.append(d["lost"])
        nk = len(d["functions"])
        dat = os.path.join(tmp, "tc.dat")
        t0 = time.monotonic()
        subprocess.run(["trace-cmd", "record", "-q", "-p", "function_graph", "-F", "-c", "-O", "nofuncgraph-irqs",
                        "-o", dat] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                       timeout=limit)
        rep = subprocess.run(["trace-cmd", "report", "-i", dat], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             check=True, timeout=limit).stdout.decode(errors="replace")
        t.append(time.monotonic() - t0)
        names = set()
        for line in rep.splitlines():
            if "funcgraph_entry:" in line and "(" in line:
                names.add(line.rsplit("|", 1)[-1].strip().split("(")[0])
        nt = len(names)
    mu, mk, mt = statistics.median(u), statistics.median(k), statistics.median(t)
    print(f"| {name} | {mu:.3f} s | {mk:.2f} s | {mt:.2f} s | {mk / mt:.2f} | {max(lost)} | {nk} | {nt} |", flush=True)

for name, argv in workloads:
    try:
        row(name, argv)
    except subprocess.TimeoutExpired as e:
        print(f"| {name} | `{' '.join(e.cmd)[:80]}` ran past {limit:.0f} s (KF_BENCH_RUN_TIMEOUT) |", flush=True)
    except subprocess.CalledProcessError as e:
        print(f"| {name} | `{' '.join(e.cmd)[:80]}` failed with status {e.returncode} |", flush=True)
PY
