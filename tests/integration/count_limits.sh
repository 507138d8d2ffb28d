#!/bin/sh
# Counts near the limits (issue 24), one rule everywhere: a footprint's 63-bit counts may add up to 2^63-1, and
# its times to 2^63-1 ns; past that the reader refuses it in one line (every command), and merge refuses inputs
# that would add up past it. So no sum a report, diff or merge makes can wrap, and a percentage is never past
# 100. Tested at 2^63-1 (one count holding it all: shown exactly, in every format) and 2^64, and just past the sum.
. "$(dirname "$0")/../lib.sh"

GEN="$KF_TOP/tests/fuzz/gen_extreme.py"
MAX=9223372036854775807
python3 "$GEN" count 0 >"$T/zero.json"
jedit "$T/zero.json" "$T/max.json" "d['syscalls'][0]['calls'] = 2**63 - 1"
python3 "$GEN" count $MAX >"$T/sum.json"                       # 2^63-1 in five places: the sum is past it
python3 "$GEN" count 18446744073709551616 >"$T/2p64.json"      # 2^64: past a count's own range
jedit "$T/zero.json" "$T/time.json" "d['syscalls'][0]['time_s'] = 9223372036.854775808"
jedit "$T/zero.json" "$T/errs.json" "d['syscalls'][0]['calls'] = 2**62; d['syscalls'][0]['errors'] = 2**62; d['syscalls'][0]['errnos'] = {'ENOENT': 2**62}"

# --- 2^63-1, alone: accepted and shown as it is, by every renderer ---
for f in $(kf_names formats); do
	if "$KF" report -F "$f" "$T/max.json" >"$T/out" 2>"$T/err"; then
		if grep -q "1844674407\|-922337203" "$T/out"; then
			not_ok "2^63-1: report -F $f wrapped a sum: $(grep -m1 "1844674407\|-922337203" "$T/out")"
		elif [ "$f" != tree ] && ! grep -q "$MAX" "$T/out"; then
			not_ok "2^63-1: report -F $f does not show the count"
		else
			ok "2^63-1: report -F $f shows it, no sum wrapped"
		fi
	else
		not_ok "2^63-1: report -F $f: $(cat "$T/err")"
	fi
done # (tree shows no call counts)
eq "2^63-1: the summary's sum" "summary:      $MAX calls, 0 errors (0.0%)" \
	"$("$KF" report "$T/max.json" | sed -n 's/\(summary: .*(0.0%)\).*/\1/p')"
eq "2^63-1: top classes at 100%, not past" "top classes:  Filesystem $MAX (100%) of $MAX calls" \
	"$("$KF" report "$T/max.json" | grep '^top classes')"
check "2^63-1: map" "$KF" map --no-running "$T/max.json"
check "2^63-1: seccomp" "$KF" seccomp "$T/max.json"
"$KF" diff "$T/max.json" "$T/zero.json" >"$T/diff" 2>&1
eq "2^63-1: diff against 0 calls: its ratio" "  < read (x86_64)                        $MAX ->          0  x0.00" \
	"$(grep 'read (x86_64)' "$T/diff")"
"$KF" diff "$T/zero.json" "$T/max.json" >"$T/diff" 2>&1
if grep -q 'read (x86_64)' "$T/diff" && ! grep -q "nan\|inf\|1844674407\|-922337203" "$T/diff"; then
	ok "2^63-1: diff from 0 calls: no wrap, no nan"
else
	not_ok "2^63-1: diff from 0 calls: $(cat "$T/diff")"
fi

# --- past the sum, and 2^64: refused by every command, one line ---
# refused NAME WANT COMMAND...
refused() {
	name=$1 want=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "$want" "$T/err"; then
		ok "$name"
	else
		not_ok "$name: exit $rc: $(head -c 300 "$T/err")"
	fi
}
SUM="the footprint's counts add up past 2^63-1"
for input in sum 2p64; do
	want=$([ $input = sum ] && echo "$SUM" || echo "18446744073709551616 is out of range")
	refused "$input: report" "$want" "$KF" report "$T/$input.json"
	refused "$input: map" "$want" "$KF" map --no-running "$T/$input.json"
	refused "$input: seccomp" "$want" "$KF" seccomp "$T/$input.json"
	refused "$input: diff" "$want" "$KF" diff "$T/zero.json" "$T/$input.json"
	refused "$input: merge" "$want" "$KF" merge -o "$T/m.json" "$T/zero.json" "$T/$input.json"
done
refused "2^62 calls, errors and in errnos (3 x 2^62 in all): refused" "$SUM" "$KF" report "$T/errs.json"
refused "times past 2^63-1 ns: refused" "times add up past 2^63-1 ns" "$KF" report "$T/time.json"

# --- merge: inputs that add up past the bound are refused, the output is never one report refuses ---
for e in 62 61 60; do
	jedit "$T/zero.json" "$T/a$e.json" "d['syscalls'][0]['calls'] = 2**$e; d['workload']['argv'] = ['a']"
	jedit "$T/zero.json" "$T/b$e.json" "d['syscalls'][0]['calls'] = 2**$e; d['workload']['argv'] = ['b']"
done
refused "merge: two inputs of 2^62 calls: refused" "'$T/b62.json': the inputs' counts add up past 2^63-1" \
	"$KF" merge -o "$T/m.json" "$T/a62.json" "$T/b62.json"
# 2^61 twice: the sum is 2^62, but the merged file repeats it per source (2^63): read back and refused
refused "merge: 2^61 twice, its per-source shares past the bound: refused before writing" "$SUM" \
	"$KF" merge -o "$T/m.json" "$T/a61.json" "$T/b61.json"
[ -e "$T/m.json" ] && not_ok "merge: a refused merge left m.json" || ok "merge: no output left by a refused merge"
check "merge: 2^60 twice: written" "$KF" merge -o "$T/m.json" "$T/a60.json" "$T/b60.json"
eq "merge: 2^60 twice: report reads it, the sum exact" "summary:      2305843009213693952 calls" \
	"$("$KF" report "$T/m.json" | sed -n 's/^\(summary: *[0-9]* calls\).*/\1/p')"
