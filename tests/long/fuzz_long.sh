#!/bin/sh
# make check-long: the fuzzing runs of make check, longer: tests/integration/ktree_fuzz.sh (the kernel tree
# readers) and report_fuzz.sh (the footprint JSON reader) with 200000 inputs each from their seeds and 3000
# mutated shapes (make check: 20000 and 300). Their TAP lines are this script's.
d=$(cd "$(dirname "$0")/../integration" && pwd) || exit 1
export KF_FUZZ_RUNS=${KF_FUZZ_RUNS:-200000} KF_FUZZ_SHAPE_RUNS=${KF_FUZZ_SHAPE_RUNS:-3000} KF_FUZZ_SHAPE_N=${KF_FUZZ_SHAPE_N:-2500}
rc=0
sh "$d/ktree_fuzz.sh" || rc=1
sh "$d/report_fuzz.sh" || rc=1
exit $rc
