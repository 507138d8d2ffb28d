# A short, bounded libFuzzer run over the kernel tree index readers (tests/fuzz/fuzz_kbuild.c, fuzz_kconfig.c,
# fuzz_maintainers.c) and the #if-block scanner of kernel lines (fuzz_ifblk.c): every seed of tests/fuzz/ktree-seeds/NAME, then KF_FUZZ_RUNS inputs each (default 20000)
# mutated from them; any input must parse without a crash, a leak or a hang, under ASan and UBSan. Then the shapes
# of tests/fuzz/gen_shapes.py (deep nesting, wide tables, numbers past 2^64) at N and 4N: each runs clean, its CPU
# time and peak RSS at most 8 times more for 4 times the input (tests/fuzz/shape_cost.py), and a bounded fuzzing
# run mutates them (KF_FUZZ_SHAPE_RUNS inputs, default 300, of up to 64 KiB, 60 s and 2 GiB at most).
# tests/long/fuzz_long.sh (make check-long) runs the same with 200000 and 3000. Skips, saying why, when clang
# cannot build them.
# kf-test: first 20: it builds the fuzz harnesses' shared objects, which report_fuzz.sh and qemu_bzimage.sh then link
. "$(dirname "$0")/../lib.sh"
runs=${KF_FUZZ_RUNS:-20000} shape_runs=${KF_FUZZ_SHAPE_RUNS:-300}
if ! command -v clang >/dev/null 2>&1; then
	skip "fuzz: kernel tree readers" "clang is not installed (make deps installs it)"
	exit 0
fi
# under a lock: report_fuzz.sh and qemu_bzimage.sh build harnesses of the same objects beside it
if ! flock "$KF_TOP/$KF_BUILD/.fuzz-build.lock" make -s --no-print-directory -C "$KF_TOP" BUILD="$KF_BUILD" "$KF_BUILD/fuzz/fuzz_kbuild" \
	"$KF_BUILD/fuzz/fuzz_kconfig" "$KF_BUILD/fuzz/fuzz_maintainers" "$KF_BUILD/fuzz/fuzz_ifblk" >"$T/build.log" 2>&1; then
	skip "fuzz: kernel tree readers" "the harnesses do not build (libclang-rt-14-dev?): $(grep -m1 -i error "$T/build.log")"
	exit 0
fi
for h in kbuild kconfig maintainers ifblk; do
	mkdir "$T/corpus-$h"
	cp "$KF_TOP/tests/fuzz/ktree-seeds/$h"/* "$T/corpus-$h/"
	if "$KF_TOP/$KF_BUILD/fuzz/fuzz_$h" -runs="$runs" -seed=1 -max_len=4096 -timeout=10 -close_fd_mask=2 \
		-artifact_prefix="$T/" "$T/corpus-$h" >"$T/$h.log" 2>&1; then
		ok "fuzz: $h reader, its seeds and $runs inputs, no crash or leak ($(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$T/$h.log"))"
	else
		not_ok "fuzz: the $h reader failed on an input (kept in $KF_BUILD/fuzz/)"
		cp "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$KF_TOP/$KF_BUILD/fuzz/" 2>/dev/null
		grep -v '^#[0-9]' "$T/$h.log" | tail -n 30 | sed 's/^/#   /'
	fi
done
python3 "$KF_TOP/tests/fuzz/gen_shapes.py" "$T/small" 2500
python3 "$KF_TOP/tests/fuzz/gen_shapes.py" "$T/large" 10000
python3 "$KF_TOP/tests/fuzz/gen_shapes.py" "$T/seeds" 300
for h in kbuild kconfig maintainers; do
	python3 "$KF_TOP/tests/fuzz/shape_cost.py" "fuzz: $h shapes" "$KF_TOP/$KF_BUILD/fuzz/fuzz_$h" "$T/small/$h" "$T/large/$h"
	if "$KF_TOP/$KF_BUILD/fuzz/fuzz_$h" -runs="$shape_runs" -seed=1 -max_len=65536 -timeout=20 -rss_limit_mb=2048 \
		-max_total_time=60 -close_fd_mask=2 -artifact_prefix="$T/" "$T/seeds/$h" >"$T/$h-shapes.log" 2>&1; then
		ok "fuzz: $h shapes mutated, no crash, leak or hang ($(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$T/$h-shapes.log"))"
	else
		not_ok "fuzz: the $h reader failed on a mutated shape (kept in $KF_BUILD/fuzz/)"
		cp "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$T"/oom-* "$KF_TOP/$KF_BUILD/fuzz/" 2>/dev/null
		grep -v '^#[0-9]' "$T/$h-shapes.log" | tail -n 30 | sed 's/^/#   /'
	fi
done
