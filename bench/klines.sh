#!/bin/sh
# Symbolization speed of kernel lines (PCs per second): a kcov-like footprint of N PCs spread over the text
# functions of a debug vmlinux (every STEP bytes of each function, its build id, a made-up KASLR slide), symbolized
# by `kfootprint map --vmlinux`; prints kfootprint's own figure (its -v line) and the wall time.
#   sh bench/klines.sh [VMLINUX] [N] [STEP]
set -eu
V=${1:-/usr/lib/debug/boot/vmlinux-6.1.0-57-amd64}
N=${2:-50000}
STEP=${3:-24}
KF=${KF:-build/kfootprint}
T=$(mktemp -d /tmp/kf-bench-klines.XXXXXX)
trap 'rm -rf "$T"' EXIT
BID=$(readelf -n "$V" | awk '/Build ID/ { print $3 }')
nm -S --defined-only "$V" >"$T/nm"
python3 - "$T/nm" "$T/fp.json" "$BID" "$N" "$STEP" <<'PY'
import json, random, sys
nm, out, bid, n, step = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
slide = 0x2c00000
text, funcs = None, []
for l in open(nm):
    p = l.split()
    if len(p) == 3 and p[2] == "_text":
        text = int(p[0], 16)
    if len(p) == 4 and p[2] in "tT":
        funcs.append((int(p[0], 16), int(p[1], 16)))
random.seed(1)
random.shuffle(funcs)
pcs = set()
for a, s in funcs:
    for o in range(1, max(s, 2), step):
        pcs.add(a + o + slide)
    if len(pcs) >= n:
        break
pcs = sorted(pcs)[:n]
fp = {"schema": "kfootprint/1", "kernel_lines": {"method": "kcov", "whole_guest": False, "build_id": bid,
      "runtime_text": hex(text + slide), "text_offset": "0x0", "lost": 0, "tasks": [],
      "pcs": [{"pc": hex(p), "hits": 1} for p in pcs], "lines": []}}
json.dump(fp, open(out, "w"))
PY
start=$(date +%s.%N)
"$KF" map -v --vmlinux "$V" --save-lines "$T/lines.json" "$T/fp.json" 2>&1 >/dev/null | grep 'kernel lines:'
end=$(date +%s.%N)
python3 - "$T/lines.json" "$start" "$end" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["kernel_lines"]
files = len({l["file"] for l in k["lines"]})
print("%d PCs -> %d lines in %d files; map wall %.2f s" % (len(k["pcs"]), len(k["lines"]), files,
      float(sys.argv[3]) - float(sys.argv[2])))
PY
