# A short, bounded libFuzzer run over the map database loader (tests/fuzz/fuzz_mapdb.c, what --db reads): every seed
# of tests/fuzz/mapdb-seeds loads, then 20000 inputs from them, each loaded or refused with a one-line message,
# and what loads saved and loaded back to the same bytes, without a crash, a leak or a hang under ASan and UBSan.
# Skips, saying why, when clang cannot build it.
. "$(dirname "$0")/../lib.sh"
FUZZ="$KF_TOP/$KF_BUILD/fuzz/fuzz_mapdb"
if ! command -v clang >/dev/null 2>&1; then
	skip "fuzz: map database loader" "clang is not installed (make deps installs it)"
	exit 0
fi
# under the lock of the harnesses' shared objects (ktree_fuzz.sh)
if ! flock "$KF_TOP/$KF_BUILD/.fuzz-build.lock" make -s --no-print-directory -C "$KF_TOP" BUILD="$KF_BUILD" "$KF_BUILD/fuzz/fuzz_mapdb" >"$T/build.log" 2>&1; then
	skip "fuzz: map database loader" "the harness does not build (libclang-rt-14-dev?): $(grep -m1 -i error "$T/build.log")"
	exit 0
fi
mkdir "$T/corpus"
cp "$KF_TOP"/tests/fuzz/mapdb-seeds/* "$T/corpus/"
# the seeds are databases: each must load (the harness takes a refusal for an answer, so kfootprint says)
for f in "$KF_TOP"/tests/fuzz/mapdb-seeds/*; do
	abi=$(sed -n '1s/.*"abi":"\([a-z0-9_]*\)".*/\1/p' "$f")
	"$KF" map --db "$f" --abi "$abi" --all-syscalls --no-running >/dev/null 2>"$T/seed.err"
	eq "fuzz: seed $(basename "$f") loads with --db" "0" "$?$(cat "$T/seed.err")"
done
if "$FUZZ" -runs=20000 -seed=1 -max_len=16384 -timeout=10 -close_fd_mask=2 -artifact_prefix="$T/" "$T/corpus" \
	>"$T/fuzz.log" 2>&1; then
	ok "fuzz: map database loader, 20000 inputs, no crash, leak or round-trip difference ($(grep -o 'Done [0-9]* runs in [0-9]* second(s)' "$T/fuzz.log"))"
else
	not_ok "fuzz: the map database loader failed on an input (kept in $KF_BUILD/fuzz/)"
	cp "$T"/crash-* "$T"/leak-* "$T"/timeout-* "$KF_TOP/$KF_BUILD/fuzz/" 2>/dev/null
	grep -v '^#[0-9]' "$T/fuzz.log" | tail -n 30 | sed 's/^/#   /'
fi
