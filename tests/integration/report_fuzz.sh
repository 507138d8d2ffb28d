# A short, bounded libFuzzer run over the footprint JSON reader (tests/fuzz/fuzz_load.c): every seed in
# tests/fuzz/corpus, then KF_FUZZ_RUNS inputs (default 20000) mutated from them; each one must load or be refused
# cleanly, round-trip byte for byte and render in every format, under ASan and UBSan. `make fuzz` runs longer, and
# tests/long/fuzz_long.sh (make check-long) with 200000 and 3000. Then the shapes of tests/fuzz/gen_extreme.py (a
# process chain deep past the tree's indentation, wide syscall tables, counts at 2^63-1 and 2^64) at N and 4N:
# each runs clean (N: KF_FUZZ_SHAPE_N, default 1000; 2500 in fuzz_long), its CPU time and peak RSS at most 8 times
# more for 4 times the input (tests/fuzz/shape_cost.py),
# and a bounded run mutates them (KF_FUZZ_SHAPE_RUNS inputs, default 300, of up to 64 KiB, 60 s and 2 GiB at
# most). Skips, saying why, when clang cannot build it.
. "$(dirname "$0")/../lib.sh"
FUZZ="$KF_TOP/$KF_BUILD/fuzz/fuzz_load"
runs=${KF_FUZZ_RUNS:-20000} shape_runs=${KF_FUZZ_SHAPE_RUNS:-300} shape_n=${KF_FUZZ_SHAPE_N:-1000}
if ! command -v clang >/dev/null 2>&1; then
	skip "fuzz: json reader" "clang is not installed (make deps installs it)"
	exit 0
fi
# under a lock: ktree_fuzz.sh and qemu_bzimage.sh build harnesses of the same objects beside it
if ! flock "$KF_TOP/$KF_BUILD/.fuzz-build.lock" make -s --no-print-directory -C "$KF_TOP" BUILD="$KF_BUILD" "$KF_BUILD/fuzz/fuzz_load" >"$T/build.log" 2>&1; then
	skip "fuzz: json reader" "the libFuzzer harness does not build (libclang-rt-14-dev?): $(grep -m1 -i error "$T/build.log")"
	exit 0
fi
mkdir "$T/corpus"
cp "$KF_TOP"/tests/fuzz/corpus/* "$T/corpus/"
# every seed alone first: they must all load (they are footprints we wrote) and round-trip
if "$FUZZ" -runs=1 "$KF_TOP"/tests/fuzz/corpus/* >"$T/seeds.log" 2>&1; then
	ok "fuzz: every seed runs clean"
else
	not_ok "fuzz: a seed fails"
	tail -n 30 "$T/seeds.log" | sed 's/^/#   /'
fi
if "$FUZZ" -runs="$runs" -seed=1 -max_len=8192 -timeout=10 -close_fd_mask=2 -artifact_prefix="$T/" "$T/corpus" \
	>"$T/fuzz.log" 2>&1; then
	ok "fuzz: $runs inputs, no crash, leak or round-trip difference ($(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$T/fuzz.log"))"
else
	not_ok "fuzz: the reader failed on an input (kept in $KF_BUILD/fuzz/)"
	cp "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$KF_TOP/$KF_BUILD/fuzz/" 2>/dev/null
	grep -v '^#[0-9]' "$T/fuzz.log" | tail -n 30 | sed 's/^/#   /'
fi
GEN="$KF_TOP/tests/fuzz/gen_extreme.py"
mkdir "$T/small" "$T/large" "$T/shapes"
for shape in chain rows; do
	python3 "$GEN" $shape $shape_n >"$T/small/$shape.json"
	python3 "$GEN" $shape $((4 * shape_n)) >"$T/large/$shape.json"
	python3 "$GEN" $shape 120 >"$T/shapes/$shape.json"
done
for v in 9223372036854775807 18446744073709551616 4611686018427387904; do
	python3 "$GEN" count $v >"$T/small/count-$v.json"
	cp "$T/small/count-$v.json" "$T/large/" && cp "$T/small/count-$v.json" "$T/shapes/"
done
python3 "$KF_TOP/tests/fuzz/shape_cost.py" "fuzz: footprint shapes" "$FUZZ" "$T/small" "$T/large"
if "$FUZZ" -runs="$shape_runs" -seed=1 -max_len=65536 -timeout=20 -rss_limit_mb=2048 -max_total_time=60 -close_fd_mask=2 \
	-artifact_prefix="$T/" "$T/shapes" >"$T/shapes.log" 2>&1; then
	ok "fuzz: footprint shapes mutated, no crash, leak or round-trip difference ($(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$T/shapes.log"))"
else
	not_ok "fuzz: the reader failed on a mutated shape (kept in $KF_BUILD/fuzz/)"
	cp "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$T"/oom-* "$KF_TOP/$KF_BUILD/fuzz/" 2>/dev/null
	grep -v '^#[0-9]' "$T/shapes.log" | tail -n 30 | sed 's/^/#   /'
fi
