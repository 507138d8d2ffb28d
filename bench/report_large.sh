#!/bin/sh
# Reading a large footprint (part of `make bench`): `kfootprint report -F csv` on a synthetic 252 MB footprint
# (bench/gen_footprint.py 50000 20 25: 50,000 processes with 20 files and 25 syscalls each), wall time (median of
# KF_BENCH_REPS, default 3) and peak RSS. A second binary (KF_BENCH_OLD=path, say an older build) is measured
# the same way beside it. Not a test: it prints figures and exits 0.
#   sh bench/report_large.sh [BUILD-DIR]
set -u
build=${1:-build}
kf=$build/kfootprint
[ -x "$kf" ] || { echo "bench: $kf not built (make)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/kf-bench-large.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
python3 "$(dirname "$0")/gen_footprint.py" "${KF_BENCH_PROCS:-50000}" 20 25 >"$tmp/big.json"
python3 - "$tmp/big.json" "${KF_BENCH_REPS:-3}" "$kf" ${KF_BENCH_OLD:+"$KF_BENCH_OLD"} <<'PY'
import os, resource, statistics, subprocess, sys, time

path, reps, bins = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
size = os.path.getsize(path)
print(f"report -F csv of a {size / 1e6:.0f} MB footprint, median of {reps}:")
for kf in bins:
    times, rss = [], 0
    for _ in range(reps):
        pid = os.fork()
        if pid == 0:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.execv(kf, [kf, "report", "-F", "csv", path])
        t0 = time.monotonic()
        _, status, ru = os.wait4(pid, 0)
        times.append(time.monotonic() - t0)
        rss = max(rss, ru.ru_maxrss)
        if status:
            print(f"  {kf}: failed (status {status})")
            break
    else:
        print(f"  {kf}: {statistics.median(times):.2f} s, peak RSS {rss / 1024:.0f} MB")
PY
