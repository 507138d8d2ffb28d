#!/bin/sh
# A workload argv that is not UTF-8 (and holds a control byte and a backslash) through every JSON kfootprint
# writes: `record --map -o` (the annotated footprint) and `map -F json`. Each must be valid JSON for a strict
# parser (python's, UTF-8), and give the bytes back: decoded with the writer's rule (src/util/json_writer.h:
# \\xHH is the byte HH, \\\\ one backslash), the argv is the one the workload got; the footprint round-trips
# through `kfootprint report -F json` byte for byte.
. "$(dirname "$0")/../lib.sh"

arg=$(printf 'caf\351 \001 a\\x41 \342\202\254')
"$KF" record -b ptrace --map -o "$T/fp.json" --report /dev/null -- sh -c 'exit 0' "$arg" 2>"$T/rec.err"
eq "record --map -o: exit 0, nothing on stderr" "0" "$?$(cat "$T/rec.err")"

# decode FILE EXPR: EXPR over the document d, strictly UTF-8, with unbytes() undoing the writer's rule
decode() {
	python3 - "$1" "$2" <<'PY'
import json, re, sys
raw = open(sys.argv[1], "rb").read()
d = json.loads(raw.decode("utf-8"))   # strict: bytes that are not UTF-8 raise
def unbytes(s):
    return re.sub(rb"\\\\|\\x([0-9a-fA-F]{2})",
                  lambda m: b"\\" if m.group(0) == b"\\\\" else bytes([int(m.group(1), 16)]),
                  s.encode("utf-8"))
sys.stdout.buffer.write(eval(sys.argv[2]) + b"\n")
PY
}
printf '%s\n' "$arg" >"$T/want"
decode "$T/fp.json" "unbytes(d['workload']['argv'][3])" >"$T/got" 2>&1
check "record --map -o: valid JSON, workload argv gives back its bytes" cmp "$T/want" "$T/got"
decode "$T/fp.json" "unbytes(d['processes'][0]['argv'][3])" >"$T/got" 2>&1
check "record --map -o: the process's argv too" cmp "$T/want" "$T/got"
decode "$T/fp.json" "str(sum('kernel' in s for s in d['syscalls']) > 0 and len(d['configs']) > 0).encode()" >"$T/got" 2>&1
eq "record --map -o: annotated (syscalls[].kernel, configs)" "True" "$(cat "$T/got")"

"$KF" report -F json "$T/fp.json" >"$T/again.json" 2>"$T/err"
"$KF" report -F json "$T/again.json" >"$T/again2.json" 2>>"$T/err"
check "report -F json: the footprint round-trips byte for byte" cmp "$T/again.json" "$T/again2.json"
decode "$T/again.json" "unbytes(d['workload']['argv'][3])" >"$T/got" 2>&1
check "report -F json: the argv bytes again" cmp "$T/want" "$T/got"

"$KF" map -F json "$T/fp.json" >"$T/map.json" 2>"$T/err"
eq "map -F json: exit 0" "0" "$?"
# the subject is one line: control bytes become spaces, every other byte is kept
printf 'footprint %s (sh -c exit 0 %s)\n' "'$T/fp.json'" "$arg" | tr '\001' ' ' >"$T/want"
decode "$T/map.json" "unbytes(d['subject'])" >"$T/got" 2>&1
check "map -F json: valid JSON, the subject gives back the argv bytes" cmp "$T/want" "$T/got"
"$KF" record -b ptrace -F json --map=json --map-output "$T/map" --report "$T/both" -- sh -c 'exit 0' "$arg" 2>/dev/null
python3 -c '
import json, sys
fp = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
m = json.loads(open(sys.argv[2], "rb").read().decode("utf-8"))
print(fp["schema"], m["schema"], "kernel" in fp["syscalls"][0])' "$T/both" "$T/map" >"$T/got" 2>&1
eq "record -F json --map=json --map-output: the annotated footprint and the map, each valid JSON" \
	"kfootprint/1 kfootprint-map/1 True" "$(cat "$T/got")"
