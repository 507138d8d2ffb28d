#!/bin/sh
# make check-long: the fuzzing runs of make check, longer: tests/integration/ktree_fuzz.sh (the kernel tree
# readers) and report_fuzz.sh (the footprint JSON reader) with 100000 inputs each from their seeds and 2000
# mutated shapes (make check: 4000 and 200). Their TAP lines are this script's.
d=$(cd "$(dirname "$0")/../integration" && pwd) || exit 1
export KF_FUZZ_RUNS=${KF_FUZZ_RUNS:-100000} KF_FUZZ_SHAPE_RUNS=${KF_FUZZ_SHAPE_RUNS:-2000}
rc=0
sh "$d/ktree_fuzz.sh" || rc=1
sh "$d/report_fuzz.sh" || rc=1
exit $rc
