#!/bin/sh
# Before/after check for refactors: every output kfootprint renders from the same input must be byte-identical
# between a base commit and this tree.
#
#   sh scripts/compare-base.sh [BASE_REV] [BUILD]      (default: c9ccda7, build)
#
# BASE_REV is exported with `git archive` into a temporary directory (no worktree, nothing written to the
# repository) and built there. The base binary then records the workloads of tests/workloads/ and a few real
# programs once (ptrace backend: those footprints are the shared input), and both binaries render every saved
# footprint (these and the committed tests/fuzz/corpus/*.json) in every report format and every map format,
# map named syscalls and whole tables (built-in database, both ABIs), index the fixture tree, save and reuse a
# map database; and the new binary regenerates data/mapdb-*.json from linux-source-6.1 (`make mapdb`) byte for
# byte when that package is installed. Each pair of outputs (stdout, stderr, exit status) must be equal; the names of the formats come
# from the binaries themselves ("expected one of ..."). Prints one line per difference and a summary; exits 1
# when anything differs.
#
# Not byte for byte, and why: `record` itself (two runs of a workload never take the same time), so its report
# is compared through the saved footprint; `record --map -o`, whose annotated footprint is now written once by
# kfootprint's JSON writer instead of being read back and rewritten by json-c: its annotations are compared as
# JSON values with what the base derives from the same file; and `map -F json` of an argv that is not UTF-8,
# which the base wrote as invalid JSON (checked: the new output parses, and differs only in those bytes).
set -u
base_rev=${1:-c9ccda7}
build=${2:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
new="$top/$build/kfootprint"
[ -x "$new" ] || { echo "compare-base: $new is not built (make)" >&2; exit 2; }
T=$(mktemp -d /tmp/kf-compare.XXXXXX)
trap 'rm -rf "$T"' EXIT

echo "compare-base: building $base_rev in $T/base"
mkdir "$T/base"
(cd "$top" && git archive "$base_rev") | tar -x -C "$T/base" || exit 2
if ! make -C "$T/base" -j2 all workloads >"$T/base.log" 2>&1; then
	tail -n 20 "$T/base.log" >&2
	exit 2
fi
old="$T/base/build/kfootprint"
wl="$T/base/build/workloads"

# --- inputs: footprints recorded once, by the base binary -------------------------------------------------
mkdir "$T/fp"
cp "$top"/tests/fuzz/corpus/*.json "$T/fp/"
rec() { # NAME COMMAND...
	n=$1
	shift
	"$old" record -b ptrace -o "$T/fp/$n.json" --report /dev/null -- "$@" >/dev/null 2>&1 || :
	[ -s "$T/fp/$n.json" ] || rm -f "$T/fp/$n.json"
}
for w in "$wl"/wl_*; do
	case $w in *wl_sleeper) continue ;; esac
	rec "$(basename "$w")" "$w"
done
rec ls ls /
rec pipeline sh -c 'ls / | wc -l; cat /nonexistent-kf 2>/dev/null; true'
rec python python3 -c pass
rec nonutf8 sh -c 'exit 0' "$(printf 'caf\351 \001')"
echo "compare-base: $(ls "$T/fp" | wc -l) footprints"

# --- both binaries, same arguments ------------------------------------------------------------------------
n=0 bad=0
same() { # LABEL ARGS...
	label=$1
	shift
	(cd "$T" && "$old" "$@" >"$T/o.out" 2>"$T/o.err")
	echo "$?" >"$T/o.rc"
	(cd "$T" && "$new" "$@" >"$T/n.out" 2>"$T/n.err")
	echo "$?" >"$T/n.rc"
	n=$((n + 1))
	for f in out err rc; do
		if ! cmp -s "$T/o.$f" "$T/n.$f"; then
			bad=$((bad + 1))
			echo "DIFF $label ($f): kfootprint $*"
			diff "$T/o.$f" "$T/n.$f" | head -n 6 | sed 's/^/    /'
			return
		fi
	done
}
# The one intended difference: the base wrote bytes that are not UTF-8 raw into map -F json (invalid JSON); the
# new binary writes them as the footprint's byte rule has it (\\xHH, json_writer.h); against a base that already does
# (main), the outputs must be equal. Everything else equal.
fixed_utf8() { # LABEL ARGS...
	label=$1
	shift
	(cd "$T" && "$old" "$@" >"$T/o.out" 2>/dev/null)
	(cd "$T" && "$new" "$@" >"$T/n.out" 2>/dev/null)
	n=$((n + 1))
	if ! out=$(python3 - "$T/o.out" "$T/n.out" <<'PY' 2>&1
import json, re, sys
old, new = (open(f, "rb").read() for f in sys.argv[1:3])
try:
    old.decode("utf-8")
    # a base that has the fix already (main after c9ccda7): the outputs are simply equal
    sys.exit(0 if old == new else "the base output is valid UTF-8, and the new one differs")
except UnicodeDecodeError:
    pass
json.loads(new.decode("utf-8"))
want = re.sub(rb"[\x80-\xff]", lambda m: b"\\\\x%02x" % m.group(0)[0], old)
if want != new:
    sys.exit("other differences than the bytes that are not UTF-8")
PY
	); then
		bad=$((bad + 1))
		echo "DIFF $label: $out"
	fi
}
names() { # the names a binary lists in "expected one of a, b, c" after ARGS...
	"$@" 2>&1 | sed -n 's/.*expected one of //p' | tr -d ',' | head -n 1
}
formats=$(names "$old" report -F '?' "$T/fp/sample.json")
[ "$formats" = "$(names "$new" report -F '?' "$T/fp/sample.json")" ] || echo "NOTE report formats: base '$formats', new '$(names "$new" report -F '?' "$T/fp/sample.json")'"
mformats=$(names "$old" map -F '?' --syscalls read)
[ "$mformats" = "$(names "$new" map -F '?' --syscalls read)" ] || echo "NOTE map formats: base '$mformats', new '$(names "$new" map -F '?' --syscalls read)'"
echo "compare-base: report formats: $formats; map formats: $mformats"

for fp in "$T"/fp/*.json; do
	b=$(basename "$fp" .json)
	for f in $formats; do
		same "report $b -F $f" report -F "$f" "$fp"
	done
	for f in $mformats; do
		if [ "$b" = nonutf8 ] && [ "$f" = json ]; then
			fixed_utf8 "map $b -F $f (invalid UTF-8 fixed)" map -F "$f" "$fp"
			fixed_utf8 "map $b -F $f --no-running (invalid UTF-8 fixed)" map --no-running -F "$f" "$fp"
			continue
		fi
		same "map $b -F $f" map -F "$f" "$fp"
		same "map $b -F $f --no-running" map --no-running -F "$f" "$fp"
	done
	same "map $b --abi i386" map --abi i386 "$fp"
done
for f in $mformats; do
	same "map --syscalls -F $f" map -F "$f" --syscalls eventfd2,futex,socket,membarrier,uselib,cachestat
	same "map --all-syscalls -F $f" map -F "$f" --all-syscalls
	same "map --all-syscalls --abi i386 -F $f" map -F "$f" --abi i386 --all-syscalls
	same "map --kernel-src fixture -F $f" map -F "$f" --no-cache --kernel-src "$top/tests/fixtures/ktree-basic" \
		--all-syscalls
	same "map --kernel-src fixture --abi i386 -F $f" map -F "$f" --no-cache --abi i386 \
		--kernel-src "$top/tests/fixtures/ktree-basic" --all-syscalls
done
same "map --kernel-src fixture --save-db" map --no-cache --kernel-src "$top/tests/fixtures/ktree-basic" --save-db -
same "map --kernel-src map-tree --save-db" map --no-cache --kernel-src "$top/tests/fixtures/map-tree" --save-db -
"$old" map --no-cache --kernel-src "$top/tests/fixtures/map-tree" --save-db "$T/db.json" >/dev/null 2>&1
same "map --db" map -F json --db "$T/db.json" --all-syscalls
same "map --db with a footprint" map --db "$T/db.json" "$T/fp/sample.json"
# the built-in databases come out of `make mapdb` byte for byte only if --save-db writes what it wrote
for abi in x86_64 i386; do
	same "built-in database $abi loads" map --no-running -F json --abi "$abi" --all-syscalls
done
# and `make mapdb` with this tree's binary gives back the committed databases (which the base made)
if [ -f /usr/src/linux-source-6.1.tar.xz ]; then
	mkdir "$T/regen"
	cp "$top/data/gen-mapdb.sh" "$T/regen/"
	sh "$T/regen/gen-mapdb.sh" "$new" >/dev/null 2>&1
	for abi in x86_64 i386; do
		n=$((n + 1))
		cmp -s "$T/regen/mapdb-6.1-$abi.json" "$top/data/mapdb-6.1-$abi.json" ||
			{ bad=$((bad + 1)); echo "DIFF make mapdb: data/mapdb-6.1-$abi.json"; }
	done
else
	echo "NOTE linux-source-6.1 not installed: data/mapdb-*.json not regenerated"
fi
# record --map -o: the annotated footprint the new binary writes once must hold what the base put there by
# reading its file back (syscalls[].kernel: the map row's "kernel" object plus entry ... note; "configs": the
# options of each ABI's map, "abi" added for i386's), derived here from the base's own map -F json of that file
for w in wl_abi_mix wl_errors; do
	[ -x "$wl/$w" ] || continue
	"$new" record -b ptrace --map -o "$T/ann-$w.json" --report /dev/null -- "$wl/$w" >/dev/null 2>&1
	"$old" map -F json "$T/ann-$w.json" >"$T/ann-x86_64.json" 2>/dev/null
	"$old" map -F json --abi i386 "$T/ann-$w.json" >"$T/ann-i386.json" 2>/dev/null
	n=$((n + 1))
	if ! out=$(python3 - "$T/ann-$w.json" "$T/ann-x86_64.json" "$T/ann-i386.json" <<'PY' 2>&1
import json, sys
fp = json.load(open(sys.argv[1]))
maps = [json.load(open(f)) for f in sys.argv[2:]]
keep = ["entry", "compat_entry", "newer", "probe", "required", "running", "note"]
want_configs = []
rows = {}
for m in maps:
    if not m["syscalls"]:
        continue
    for r in m["syscalls"]:
        k = dict(r["kernel"] or {})
        k.update((x, r[x]) for x in keep)
        rows[(r["name"], r["abi"])] = k
    for c in m["configs"]:
        if m["abi"] != "x86_64":
            c = dict(c, abi=m["abi"])
        want_configs.append(c)
for s in fp["syscalls"]:
    want = rows.get((s["name"], s["abi"]))
    got = s.get("kernel")
    if want is None and got is None:
        continue
    if want is None or got is None or list(want.items()) != list(got.items()):
        sys.exit("syscall %s/%s: %s != %s" % (s["abi"], s["name"], got, want))
if [list(c.items()) for c in fp["configs"]] != [list(c.items()) for c in want_configs]:
    sys.exit("configs differ")
print(len(rows), "rows")
PY
	); then
		bad=$((bad + 1))
		echo "DIFF record --map -o ($w): $out"
	else
		echo "compare-base: record --map -o ($w): annotations equal to the base's map ($out)"
	fi
done
# errors and usage: same message, same status (the usage exit status and --help texts changed on purpose)
same "report: missing file" report "$T/missing.json"
same "report: not JSON" report "$top/README.md"
same "map: unknown syscall" map --syscalls no_such_call
same "map: unknown format" map -F html --syscalls read

echo "compare-base: $n comparisons, $bad different"
[ "$bad" -eq 0 ]
