#!/bin/sh
# Kernel tree index speed (part of `make bench`): `kfootprint map --kernel-src` on the whole Debian linux-source-6.1
# tree, cold (page cache dropped: sync; echo 3 > /proc/sys/vm/drop_caches) and warm, without and with the index
# cache, against `cscope -R -b` building its cross-reference of the same tree. Targets: <= 1 s warm, <= 6 s cold.
#   sh bench/map_index.sh [BUILD-DIR]
# The tree: $KF_KSRC, else the copy tests/integration/map_index_real.sh extracts into /var/tmp/kfootprint-ksrc.
# KF_BENCH_REPS (default 3) warm repetitions, the median is shown. Not a test: it prints figures and exits 0.
set -u
build=${1:-build}
kf=$build/kfootprint
reps=${KF_BENCH_REPS:-3}
[ -x "$kf" ] || { echo "bench: $kf not built (make)" >&2; exit 1; }
src=${KF_KSRC:-}
if [ -z "$src" ]; then
	src=$(find /var/tmp/kfootprint-ksrc -mindepth 1 -maxdepth 1 -type d -name 'linux-source-*' 2>/dev/null | head -n 1)
fi
if [ -z "$src" ] || [ ! -f "$src/Makefile" ]; then
	echo "bench: map index: no kernel tree (set KF_KSRC, or run tests/integration/map_index_real.sh once)"
	exit 0
fi
tmp=$(mktemp -d /tmp/kf-bench-map.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME="$tmp/cache"

now() { date +%s.%N; }
# seconds COMMAND...: wall time of one run, "fail" when it fails
seconds() {
	t0=$(now)
	if "$@" >/dev/null 2>"$tmp/err"; then
		echo "$t0 $(now)" | awk '{ printf "%.2f", $2 - $1 }'
	else
		echo fail
		sed 's/^/  bench: /' "$tmp/err" >&2
	fi
}
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }
can_drop=no
if [ -w /proc/sys/vm/drop_caches ]; then can_drop=yes; fi
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; }

index() { "$kf" map --kernel-src "$src" --all-syscalls --no-running -F json "$@"; }

# kfootprint, no cache
cold=n/a
if [ "$can_drop" = yes ]; then drop; cold=$(seconds index --no-cache); fi
index --no-cache >/dev/null 2>&1 # warm up
warm=$(for i in $(seq "$reps"); do seconds index --no-cache; echo; done | median)
# kfootprint with the index cache (the second map of a tree)
index >/dev/null 2>&1 # writes the cache
ccold=n/a
if [ "$can_drop" = yes ]; then drop; ccold=$(seconds index); fi
cwarm=$(for i in $(seq "$reps"); do seconds index; echo; done | median)
# cscope: the cross-reference the seed guide built by hand
scold=n/a swarm=n/a
if command -v cscope >/dev/null 2>&1; then
	if [ "$can_drop" = yes ]; then drop; scold=$(cd "$tmp" && seconds cscope -R -b -s "$src" -f "$tmp/cscope.out"); fi
	rm -f "$tmp/cscope.out" # else cscope only updates it
	swarm=$(cd "$tmp" && seconds cscope -R -b -s "$src" -f "$tmp/cscope.out")
else
	echo "bench: cscope is not installed (make deps installs it)"
fi
version=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$src/Makefile" | paste -sd.)
echo
echo "Kernel tree index: $src (Linux $version), x86_64, $(nproc) CPUs; warm = median of $reps"
printf '  %-40s %10s %10s\n' "" "cold" "warm"
printf '  %-40s %10s %10s\n' "kfootprint map --kernel-src (no cache)" "$cold s" "$warm s"
printf '  %-40s %10s %10s\n' "kfootprint map --kernel-src (cached)" "$ccold s" "$cwarm s"
printf '  %-40s %10s %10s\n' "cscope -R -b" "$scold s" "$swarm s"
echo "  targets: <= 6 s cold, <= 1 s warm (without the cache)"
[ "$can_drop" = yes ] || echo "  cold runs need root (/proc/sys/vm/drop_caches is not writable)"
exit 0
