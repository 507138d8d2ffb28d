# A short, bounded libFuzzer run over the footprint JSON reader (tests/fuzz/fuzz_load.c): 20000 inputs from the
# seeds in tests/fuzz/corpus, each one must load or be refused cleanly, round-trip byte for byte and render in
# every format, under ASan and UBSan. `make fuzz` runs longer. Skips, saying why, when clang cannot build it.
. "$(dirname "$0")/../lib.sh"
FUZZ="$KF_TOP/$KF_BUILD/fuzz/fuzz_load"
if ! command -v clang >/dev/null 2>&1; then
	skip "fuzz: json reader" "clang is not installed (make deps installs it)"
	exit 0
fi
if ! make -s --no-print-directory -C "$KF_TOP" BUILD="$KF_BUILD" fuzz-build >"$T/build.log" 2>&1; then
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
if "$FUZZ" -runs=20000 -seed=1 -max_len=8192 -timeout=10 -close_fd_mask=2 -artifact_prefix="$T/" "$T/corpus" \
	>"$T/fuzz.log" 2>&1; then
	ok "fuzz: 20000 inputs, no crash, leak or round-trip difference ($(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$T/fuzz.log"))"
else
	not_ok "fuzz: the reader failed on an input (kept in $KF_BUILD/fuzz/)"
	cp "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$KF_TOP/$KF_BUILD/fuzz/" 2>/dev/null
	grep -v '^#[0-9]' "$T/fuzz.log" | tail -n 30 | sed 's/^/#   /'
fi
