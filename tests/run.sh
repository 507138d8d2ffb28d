#!/bin/sh
# The test runner: unit tests (cmocka, TAP output) from $KF_BUILD/tests and again from the ASan/UBSan build
# in $KF_ASAN, then every tests/integration/*.sh. Every test speaks TAP lines:
#   ok NAME | not ok NAME | ok NAME # SKIP why
# Each test's line ends with the seconds it took. The last line is "N passed, N failed, N skipped"; the exit status is non-zero when anything failed.
# KF_ONLY=pattern runs only the scripts/binaries whose name contains pattern. KF_SUITE=DIR runs the scripts
# of DIR instead of the unit tests and tests/integration (make check-long: tests/long).
set -u
: "${KF_BUILD:=build}"
: "${KF_ASAN:=}"
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
export KF_BUILD KF_TOP="$top"
export CMOCKA_MESSAGE_OUTPUT=TAP
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
log=$(mktemp -d /tmp/kf-tests.XXXXXX)
pass=0 fail=0 skip=0 total_secs=0

run_one() { # name, command...
	name=$1; shift
	out="$log/$(echo "$name" | tr '/ ' '__').out"
	t0=$(date +%s)
	"$@" >"$out" 2>&1
	rc=$?
	secs=$(($(date +%s) - t0)); total_secs=$((total_secs + secs))
	# TAP: a "# SKIP" directive makes a line a skip, "ok" or "not ok" (cmocka writes "not ok N - name # SKIP")
	p=$(grep -cE '^ok ' "$out" | head -1); s=$(grep -cE '^(not )?ok .*# *SKIP' "$out"); f=$(grep -cE '^not ok ' "$out")
	sn=$(grep -cE '^not ok .*# *SKIP' "$out")
	p=$((p - s + sn)); f=$((f - sn))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1; echo "not ok $name: exited with status $rc" >>"$out"
	fi
	if [ $((p + s + f)) -eq 0 ]; then
		f=1; echo "not ok $name: ran no test" >>"$out"
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	printf '%-44s %4d passed %3d failed %3d skipped %4ds\n' "$name" "$p" "$f" "$s" "$secs"
	grep -E '^not ok |# *SKIP' "$out" | sed 's/^/    /'
	if [ "$f" -ne 0 ]; then tail -n 30 "$out" | sed 's/^/    | /'; fi
}

match() { [ -z "${KF_ONLY:-}" ] || case "$1" in *"$KF_ONLY"*) return 0 ;; *) return 1 ;; esac; }

suite=${KF_SUITE:-tests/integration}
[ -n "${KF_SUITE:-}" ] && KF_ASAN=
for t in "$KF_BUILD"/tests/test_*; do
	[ -z "${KF_SUITE:-}" ] || break
	[ -x "$t" ] || continue
	match "$t" || continue
	run_one "unit/$(basename "$t")" "$t"
done
if [ -n "$KF_ASAN" ]; then
	for t in "$KF_ASAN"/tests/test_*; do
		[ -x "$t" ] || continue
		match "$t" || continue
		run_one "asan/$(basename "$t")" "$t"
	done
fi
for t in "$suite"/*.sh; do
	[ -f "$t" ] || continue
	match "$t" || continue
	run_one "$(basename "$t" .sh)" sh "$t"
done
rm -rf "$log"
echo "tests took ${total_secs}s"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
