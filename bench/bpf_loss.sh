#!/bin/sh
# `make bench-loss`: does the bpf backend keep up with the seed's fork-heavy workloads, with the CPUs free
# and with them busy? For each workload, one run without and one with KF_BENCH_HOGS busy loops (default 4,
# on the 2-vCPU VM: the reader gets a sixth of the CPU at best); prints what was lost, processes, calls,
# wall time, kfootprint's peak RSS and the most bytes that waited in the ring. Figures, not a test.
#   sh bench/bpf_loss.sh [KFOOTPRINT]          (default build/kfootprint; any build, to compare versions)
set -u
kf=${1:-build/kfootprint}
hogs=${KF_BENCH_HOGS:-4}
[ -x "$kf" ] || { echo "bench: $kf not built (make)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/kf-bench.XXXXXX)
pids=
stop() { [ -n "$pids" ] && kill $pids 2>/dev/null; wait $pids 2>/dev/null; pids=; }
trap 'stop; rm -rf "$tmp"' EXIT INT TERM

printf '%-40s %5s %8s %10s %10s %8s %8s %s\n' workload hogs lost processes calls "wall s" "RSS MB" "ring max KB"
one() { # NHOGS COMMAND...
	n=$1
	shift
	i=0
	while [ "$i" -lt "$n" ]; do
		sh -c 'while :; do :; done' &
		pids="$pids $!"
		i=$((i + 1))
	done
	t0=$(date +%s.%N)
	"$kf" record -b bpf -v -o "$tmp/f.json" --report /dev/null -- "$@" >/dev/null 2>"$tmp/err"
	t1=$(date +%s.%N)
	stop
	python3 - "$tmp/f.json" "$tmp/err" "$n" "$t0" "$t1" "$*" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
err = open(sys.argv[2]).read()
rss = re.search(r"peak RSS (\d+) KB", err)
ring = re.search(r"at most (\d+) KB waiting", err)
print("%-40s %5s %8d %10d %10d %8.1f %8s %s" % (sys.argv[6][:40], sys.argv[3], d["lost_events"], len(d["processes"]),
      sum(s["calls"] for s in d["syscalls"]), float(sys.argv[5]) - float(sys.argv[4]),
      "%.0f" % (int(rss.group(1)) / 1024) if rss else "?", ring.group(1) if ring else "?"))
PY
}
for n in 0 "$hogs"; do
	command -v paxtest >/dev/null && one "$n" paxtest kiddie
	one "$n" perf bench sched messaging -g 20 -l 1000
done
