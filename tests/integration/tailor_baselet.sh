#!/bin/sh
# The baselet from a recorded boot (issue 19): tests/fixtures/tailor-boot.json is the re-test's /init, recorded
# with its kernel functions in Debian's 6.1 guest (tests/long/tailor_boot.sh records it afresh and runs the same
# check). Each baselet row that says the boot shows it must name a call or kernel function that the fixture's map
# ties to the option; each table-driven row's option must be one the boot shows nothing of. A second of CPU.
. "$(dirname "$0")/../lib.sh"
"$KF" tailor --baselet >"$T/baselet" 2>"$T/err"
eq "tailor --baselet: exit 0, nothing on stderr" "0 " "$? $(cat "$T/err")"
"$KF" map -F json -o "$T/boot.map.json" "$KF_TOP/tests/fixtures/tailor-boot.json" 2>"$T/map.err"
eq "map of the recorded boot: exit 0" 0 $?
$PY "$KF_TOP/tests/integration/tailor_baselet.py" "baselet vs the recorded boot" "$T/boot.map.json" "$T/baselet"
"$KF" tailor --baselet "$KF_TOP/tests/fixtures/tailor-boot.json" >"$T/out" 2>"$T/err"
eq "tailor --baselet with a footprint: exit 1, one line" "1 1" "$? $(wc -l <"$T/err")"
