#!/bin/sh
# -F html of a 5,000-process footprint (bpf) renders, and small: exit 0, the page under 4 MB. Its
# speed (the html report's time beyond the csv one's) is bench/html_large.sh's (make bench), not a timed check here.
. "$(dirname "$0")/../lib.sh"

# Size on a fork-heavy workload (bpf: 5,000 processes).
if bpf_or_skip "html: 5,000 processes"; then
	"$KF" record -b bpf -q -o "$T/big.json" --report /dev/null -- sh -c 'for i in $(seq 5000); do /bin/true; done'
	n=$(jget "$T/big.json" 'len(d["processes"])')
	check "html: 5,000-process footprint recorded ($n processes)" test "$n" -ge 5000
	"$KF" report -F html -o "$T/big.html" "$T/big.json"
	eq "html: exit 0" 0 $?
	size=$(stat -c %s "$T/big.html")
	check "html: the page stays under 4 MB ($size bytes)" test "$size" -lt 4000000
fi
