#!/bin/sh
# make check-long: the fuzzing runs of make check, longer: tests/integration/ktree_fuzz.sh (the kernel tree
# readers) and report_fuzz.sh (the footprint JSON reader) with 200000 inputs each from their seeds and 3000
# mutated shapes (make check: 20000 and 300). Their TAP lines are this script's.
d=$(cd "$(dirname "$0")/../integration" && pwd) || exit 1
export KF_FUZZ_RUNS=${KF_FUZZ_RUNS:-200000} KF_FUZZ_SHAPE_RUNS=${KF_FUZZ_SHAPE_RUNS:-3000} KF_FUZZ_SHAPE_N=${KF_FUZZ_SHAPE_N:-2500}
rc=0
sh "$d/ktree_fuzz.sh" || rc=1
sh "$d/report_fuzz.sh" || rc=1
# the reader of gcov's JSON (record --kernel-lines=gcov), on its seeds
. "$d/../lib.sh"
if command -v clang >/dev/null 2>&1 && flock "$KF_TOP/$KF_BUILD/.fuzz-build.lock" make -s --no-print-directory -C "$KF_TOP" \
	BUILD="$KF_BUILD" "$KF_BUILD/fuzz/fuzz_gcov" >"$T/gcov-build.log" 2>&1; then
	mkdir "$T/corpus-gcov" && cp "$KF_TOP"/tests/fuzz/gcov-seeds/* "$T/corpus-gcov/"
	if "$KF_TOP/$KF_BUILD/fuzz/fuzz_gcov" -runs="$KF_FUZZ_RUNS" -seed=1 -max_len=8192 -timeout=10 -close_fd_mask=2 \
		-artifact_prefix="$T/" "$T/corpus-gcov" >"$T/gcov.log" 2>&1; then
		ok "fuzz: gcov's JSON reader, its seeds and $KF_FUZZ_RUNS inputs, no crash or leak"
	else
		not_ok "fuzz: gcov's JSON reader failed on an input (kept in $KF_BUILD/fuzz/)"
		cp "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$KF_TOP/$KF_BUILD/fuzz/" 2>/dev/null
		grep -v '^#[0-9]' "$T/gcov.log" | tail -n 30 | sed 's/^/#   /'
		rc=1
	fi
else
	skip "fuzz: gcov's JSON reader" "clang and libclang-rt-14-dev are needed to build it"
fi
exit $rc
