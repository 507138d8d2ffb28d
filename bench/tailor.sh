#!/bin/sh
# `make bench-tailor`: tailor's figures, cold (issue 19's benchmark), side by side in one run.
#   sh bench/tailor.sh [BUILD-DIR]        (default build)
# Runs tests/long/tailor.sh's cases (KF_BENCH_TAILOR_CASES, default "ls netdev http"; ls's rerun from the cache
# comes with it) with an empty cache: KF_TAILOR_CACHE is a scratch directory under /var/tmp, removed afterwards,
# so every kernel is built cold (the tree extracted first, the tinyconfig kernel the figures compare with too) and
# every boot runs. Then one table from the cases' reports: the build per workload, and each kernel's sizes, boot to
# /init under TCG (QEMU's instruction clock) and SLOC beside Debian's 6.1 kernel and a 64-bit tinyconfig, and the
# anchors' published figures. Not a test: it prints figures and exits 0 (the cases' own checks are counted).
# About 15 minutes on 2 CPUs; each tailor takes KF_KBUILD_LOCK, so it waits for another build to end.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$top/$build/kfootprint" ] || { echo "bench: $build/kfootprint not built (make)" >&2; exit 1; }
scratch=$(mktemp -d /var/tmp/kf-bench-tailor.XXXXXX) || exit 1
trap 'rm -rf "$scratch"' EXIT INT TERM
chmod 0711 "$scratch" # the build user passes through to its build directories
mkdir "$scratch/keep"
cases=${KF_BENCH_TAILOR_CASES:-ls netdev http}
echo "bench: tailor, cold: $cases (KF_TAILOR_CACHE=$scratch/cache; load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
t0=$(date +%s)
KF_BUILD=$build KF_TAILOR_CASES=$cases KF_TAILOR_CACHE=$scratch/cache KF_TAILOR_KEEP=$scratch/keep \
	sh "$top/tests/long/tailor.sh" >"$scratch/tap" 2>&1
echo "bench: the cases ran in $(($(date +%s) - t0)) s: $(grep -c '^ok' "$scratch/tap") checks passed, $(grep -c '^not ok' "$scratch/tap") failed" >&2
grep '^not ok' "$scratch/tap" >&2
python3 - "$scratch/keep" "$cases" <<'PY'
import json, os, sys

keep, cases = sys.argv[1], sys.argv[2].split()
names = {"ls": "ls /", "netdev": "stress-ng --netdev 1 -t 2", "http": "busybox httpd + wget", "unix": "wl_kpaths unix (--without UNIX)",
         "pax": "paxtest kiddie", "both": "ls / and wl_kpaths unix"}

def load(name):
    try:
        with open(os.path.join(keep, name, "report.json")) as f:
            d = json.load(f)
        with open(os.path.join(keep, name + ".secs")) as f:
            d["secs"] = int(f.read())
        return d
    except (OSError, ValueError):
        return None

def mb(b):
    return "%.2f MB" % (b / 1e6) if b else "-"

def ratio(a, b):
    return "%.2fx" % (a / b) if a and b else "-"

rows, deb, tiny = [], None, None
for c in cases:
    d = load(c)
    if not d:
        print("%s: no report (see the cases' checks above)" % names.get(c, c))
        continue
    k = d["kernels"][0]
    deb = deb or next((x for x in d["kernels"] if x["name"].startswith("Debian") and "bzimage_bytes" in x), None)
    tiny = tiny or next((x for x in d["kernels"] if x["name"].startswith("tinyconfig") and "bzimage_bytes" in x), None)
    first = d["rounds"][0]
    rows.append((names.get(c, c), d, k, first))

print("tailor, cold cache (%s)" % (rows[0][1]["tree"] if rows else "no report"))
print("| workload | passed | rounds | round 1 kernel step | tailor wall | bzImage | x Debian | text x Debian | boot to /init | x Debian | options y | compiled files | SLOC | x Debian |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for name, d, k, first in rows:
    print("| %s | %s | %d | %.0f s%s | %d s | %s | %s | %s | %.2f s | %s | %d | %d | %d | %s |" % (
        name, d["passed"], len(d["rounds"]), first["kernel_s"], " (cached)" if first["cached"] else "", d["secs"],
        mb(k.get("bzimage_bytes")), ratio(k.get("bzimage_bytes"), deb and deb["bzimage_bytes"]),
        ratio(k.get("vmlinux_text_bytes"), deb and deb.get("vmlinux_text_bytes")), k.get("boot_to_init_icount_s", 0),
        ratio(k.get("boot_to_init_icount_s"), deb and deb.get("boot_to_init_icount_s")), k.get("options_y", 0),
        k.get("compiled_files", 0), k.get("sloc", 0), ratio(k.get("sloc"), deb and deb.get("sloc"))))
for x in (deb, tiny):
    if x:
        print("| %s (beside) | | | | | %s | %s | | %.2f s | %s | %d | %d | %d | %s |" % (
            x["name"], mb(x["bzimage_bytes"]), ratio(x["bzimage_bytes"], deb["bzimage_bytes"]),
            x.get("boot_to_init_icount_s", 0), ratio(x.get("boot_to_init_icount_s"), deb.get("boot_to_init_icount_s")),
            x.get("options_y", 0), x.get("compiled_files", 0), x.get("sloc", 0), ratio(x.get("sloc"), deb.get("sloc"))))
again = load("ls-again")
if again:
    print("rerun of ls / from the cache: %d s wall, kernel step %s s (the target: 5 s)" % (
        again["secs"], ", ".join("%.2f" % r["kernel_s"] for r in again["rounds"])))
print("anchors (published): a hand-made 16-option fragment on allnoconfig, 2.0 MB, /init in 1.3 s where Debian's takes"
      " 8.7 s (0.15x); Cozart: under 20% of an Ubuntu kernel for an HTTP server; Lupine: about 4 MB; Kurmus et al.:"
      " 50-85% less attack surface")
if deb:
    for name, d, k, first in rows:
        if k.get("sloc") and k.get("compiled_files"):
            print("%s: %.0f%% less compiled code than Debian's (SLOC), %.0f%% fewer compiled files" % (
                name, 100 * (1 - k["sloc"] / deb["sloc"]), 100 * (1 - k["compiled_files"] / deb["compiled_files"])))
PY
