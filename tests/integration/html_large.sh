#!/bin/sh
# -F html of a 5,000-process footprint (bpf) renders fast and small: the html report's time beyond the csv one's
# (the same footprint loaded) under 1 s, the page under 4 MB.
# kf-test: alone: it bounds the wall time of rendering, which another test beside it would stretch
. "$(dirname "$0")/../lib.sh"

# Size and speed on a fork-heavy workload (bpf: 5,000 processes).
if bpf_or_skip "html: 5,000 processes"; then
	"$KF" record -b bpf -q -o "$T/big.json" --report /dev/null -- sh -c 'for i in $(seq 5000); do /bin/true; done'
	n=$(jget "$T/big.json" 'len(d["processes"])')
	check "html: 5,000-process footprint recorded ($n processes)" test "$n" -ge 5000
	t0=$(date +%s%N)
	"$KF" report -F csv -o /dev/null "$T/big.json"
	t1=$(date +%s%N)
	"$KF" report -F html -o "$T/big.html" "$T/big.json"
	t2=$(date +%s%N)
	size=$(stat -c %s "$T/big.html")
	echo "# html: 5,000 processes: load+csv $(((t1 - t0) / 1000000)) ms, load+html $(((t2 - t1) / 1000000)) ms, $size bytes"
	check "html: rendering (html minus csv) takes under 1 s" test $(((t2 - t1) - (t1 - t0))) -lt 1000000000
	check "html: the page stays under 4 MB ($size bytes)" test "$size" -lt 4000000
fi
