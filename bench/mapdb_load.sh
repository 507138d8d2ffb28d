#!/bin/sh
# Loading a map database (part of `make bench`): `kfootprint map --syscalls read --no-running`, which loads the
# built-in x86_64 database (0.45 MB) and maps one syscall, the same for i386 (0.51 MB) and with --db of the x86_64
# file, beside `kfootprint --version` (the process alone): CPU (task-clock) and wall time from `perf stat -r 20`,
# the median of KF_BENCH_REPS (default 3) such runs, and peak RSS (/usr/bin/time -v). A second binary
# (KF_BENCH_OLD=path, say a build of an older commit) is measured beside it, the two in turn in each round.
# Not a test: it prints figures and exits 0.
#   sh bench/mapdb_load.sh [BUILD-DIR]
set -u
build=${1:-build}
kf=$build/kfootprint
reps=${KF_BENCH_REPS:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$kf" ] || { echo "bench: $kf not built (make)" >&2; exit 1; }
command -v perf >/dev/null 2>&1 || { echo "bench: map database load: perf is not installed (make deps)"; exit 0; }
tmp=$(mktemp -d /tmp/kf-bench-mapdb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
bins="$kf${KF_BENCH_OLD:+ $KF_BENCH_OLD}"
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }

# run NAME BIN ARGS...: one perf stat -r 20, "cpu_ms wall_ms" appended to $tmp/NAME
run() {
	name=$1
	shift
	if perf stat -r 20 "$@" >/dev/null 2>"$tmp/perf"; then
		awk '/task-clock/ { cpu = $1 } /seconds time elapsed/ { wall = $1 * 1000 } END { printf "%.2f %.2f\n", cpu, wall }' \
			"$tmp/perf" >>"$tmp/$name"
	else
		echo "bench: $* failed: $(tail -n 1 "$tmp/perf")" >&2
	fi
}

i=0
for b in $bins; do
	i=$((i + 1))
	"$b" map --syscalls read --no-running >/dev/null 2>&1 # warm the page cache
done
for r in $(seq "$reps"); do
	i=0
	for b in $bins; do
		i=$((i + 1))
		run "$i.version" "$b" --version
		run "$i.x86_64" "$b" map --syscalls read --no-running
		run "$i.i386" "$b" map --syscalls read --no-running --abi i386
		run "$i.db" "$b" map --db "$top/data/mapdb-6.1-x86_64.json" --syscalls read --no-running
	done
done
rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }
echo "map database load: perf stat -r 20, median of $reps; CPU ms / wall ms / peak RSS KB"
printf '%-40s' ""
for b in $bins; do printf '  %-26s' "$b"; done
echo
for w in version x86_64 i386 db; do
	case $w in
	version) label="kfootprint --version (the process)" args="--version" ;;
	x86_64) label="map, built-in x86_64" args="map --syscalls read --no-running" ;;
	i386) label="map --abi i386, built-in i386" args="map --syscalls read --no-running --abi i386" ;;
	db) label="map --db data/mapdb-6.1-x86_64.json" args="map --db $top/data/mapdb-6.1-x86_64.json --syscalls read --no-running" ;;
	esac
	printf '%-40s' "$label"
	i=0
	for b in $bins; do
		i=$((i + 1))
		cpu=$(cut -d' ' -f1 "$tmp/$i.$w" 2>/dev/null | median)
		wall=$(cut -d' ' -f2 "$tmp/$i.$w" 2>/dev/null | median)
		# shellcheck disable=SC2086 # args are words
		printf '  %-26s' "$cpu / $wall / $(rss "$b" $args)"
	done
	echo
done
