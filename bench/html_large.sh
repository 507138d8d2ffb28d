#!/bin/sh
# -F html of a 5,000-process footprint (part of `make bench`; bpf, as root): the html report's wall time beyond the
# csv one's (the same footprint loaded both times), the median of KF_BENCH_REPS (default 3). Target: under 1 s.
# Not a test: it prints figures and exits 0 (tests/integration/html_large.sh checks the page and its size).
#   sh bench/html_large.sh [BUILD-DIR]
set -u
build=${1:-build}
kf=$build/kfootprint
[ -x "$kf" ] || { echo "bench: $kf not built (make)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/kf-bench-html.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if ! "$kf" record -b bpf -q -o "$tmp/big.json" --report /dev/null -- sh -c 'for i in $(seq 5000); do /bin/true; done' 2>"$tmp/err"; then
	echo "html of 5,000 processes: no bpf recording here ($(head -n1 "$tmp/err"))"
	exit 0
fi
python3 - "$kf" "$tmp/big.json" "${KF_BENCH_REPS:-3}" <<'PY'
import os, statistics, subprocess, sys, time

kf, path, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
def wall(fmt):
    t0 = time.monotonic()
    subprocess.run([kf, "report", "-F", fmt, "-o", os.devnull, path], check=True)
    return time.monotonic() - t0
extra = []
for _ in range(reps):
    csv = wall("csv")
    extra.append(wall("html") - csv)
print(f"html of 5,000 processes: rendering (html minus csv) {statistics.median(extra) * 1000:.0f} ms wall, median of {reps} (target < 1000)")
PY
