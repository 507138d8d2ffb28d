#!/bin/sh
# kfootprint diff on real footprints recorded here: identity, symmetry of added/removed, a workload that adds
# a syscall (and the kernel options it needs) exits 1 naming it, the exit status 0/1/2, thresholds and
# --fail-ratio, markdown that renders as valid GitHub tables, json that parses with its schema, annotated and
# unannotated files comparing equal, and bad inputs as one line with exit 2.
. "$(dirname "$0")/../lib.sh"

rec() {
	out=$1
	shift
	"$KF" record -b ptrace -o "$T/$out" --report /dev/null -- "$@" >/dev/null 2>"$T/rec.err" ||
		echo "# recording $*: $(cat "$T/rec.err")"
}
rec ls.json ls /
rec lsl.json ls -l /
rec pass.json "$PY" -I -S -c pass
rec sock.json "$PY" -I -S -c 'import socket; socket.socket().close()'
rec loop2.json sh -c 'i=0; while [ $i -lt 2 ]; do /bin/true; i=$((i+1)); done'
rec loop40.json sh -c 'i=0; while [ $i -lt 40 ]; do /bin/true; i=$((i+1)); done'
"$KF" record -b ptrace --map -o "$T/ls-map.json" --report /dev/null -- ls / >/dev/null 2>&1
for f in ls lsl pass sock loop2 loop40 ls-map; do
	check "recorded $f.json" test -s "$T/$f.json"
done

# diff A B [options]: status in $rc, stdout in $T/out, stderr in $T/err
diff_() {
	"$KF" diff "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

# identity
for f in ls pass loop40; do
	diff_ -F json "$T/$f.json" "$T/$f.json"
	eq "diff($f, $f) exits 0" 0 "$rc"
	eq "diff($f, $f) --all lists nothing" "0 0" "$(jget "$T/out" 'len(d["items"]), d["summary"]["needs"]')"
done
diff_ "$T/ls.json" "$T/ls.json"
eq "diff(A, A) text: nothing added, removed or changed" \
	"0 added, 0 removed, 0 changed; NEW needs nothing OLD did not" "$(sed -n 3p "$T/out")"

# an annotated file (record --map) and an unannotated one of the same run compare equal, options included
diff_ -F json -a "$T/ls.json" "$T/ls-map.json"
eq "an unannotated and an annotated footprint: no option differs" "0" \
	"$(jget "$T/out" 'len([i for i in d["items"] if i["kind"] == "option"])')"

# a syscall added: python3 with a socket, named, a need, with the options it needs; exit 1
diff_ "$T/pass.json" "$T/sock.json"
eq "python3 + socket: exit 1" 1 "$rc"
check "python3 + socket: text names socket as an added need" grep -q '^  + socket (x86_64) .* need$' "$T/out"
check "python3 + socket: the NET option is added, a need" grep -q '^  + NET .* need$' "$T/out"
diff_ -F json "$T/pass.json" "$T/sock.json"
eq "json: socket added, a need, 0 -> calls" "added True 0" \
	"$(jget "$T/out" '" ".join(str(x) for i in d["items"] if i["kind"] == "syscall" and i["key"] == "socket" for x in (i["change"], i["need"], i["old"]))')"
eq "json: needs_more and the exit status agree" "True" "$(jget "$T/out" 'd["needs_more"]')"
# the other way round NEW needs nothing new: exit 0, socket removed
diff_ "$T/sock.json" "$T/pass.json"
eq "python3 - socket: exit 0" 0 "$rc"
check "python3 - socket: socket removed" grep -q '^  - socket (x86_64) ' "$T/out"

# symmetry: added(A, B) == removed(B, A), count changes mirrored, on every kind, whatever the thresholds
items() { # FILE CHANGE: "kind key abi old new" lines of that change, sorted; count sides swapped for "removed"
	jget "$1" "'\n'.join(sorted(' '.join(str(x) for x in (i['kind'], i['key'], i.get('abi'), *((i['old'], i['new']) if '$2' != 'removed' else (i['new'], i['old'])))) for i in d['items'] if i['change'] == '$2'))"
}
for pair in "ls lsl" "pass sock" "ls sock" "loop2 loop40"; do
	set -- $pair
	"$KF" diff -a -F json "$T/$1.json" "$T/$2.json" >"$T/ab.json"
	"$KF" diff -a -F json "$T/$2.json" "$T/$1.json" >"$T/ba.json"
	items "$T/ab.json" added >"$T/ab.added"
	items "$T/ba.json" removed >"$T/ba.removed"
	check "added($1, $2) is not empty" test -s "$T/ab.added"
	check "added($1, $2) == removed($2, $1)" cmp "$T/ab.added" "$T/ba.removed"
	eq "more($1, $2) == fewer($2, $1)" \
		"$(jget "$T/ab.json" 'sorted((i["kind"], i["key"], i.get("abi")) for i in d["items"] if i["change"] == "more")')" \
		"$(jget "$T/ba.json" 'sorted((i["kind"], i["key"], i.get("abi")) for i in d["items"] if i["change"] == "fewer")')"
done

# counts: the same syscalls, 20 times the execs. Listed beyond the thresholds, a need only with --fail-ratio.
diff_ "$T/loop2.json" "$T/loop40.json"
eq "more calls of the same syscalls: exit 0" 0 "$rc"
check "more calls: execve listed as more" grep -q '^  > execve (x86_64) .* x' "$T/out"
check "more processes of /bin/true listed" grep -q '^  > /usr/bin/true \|^  > /bin/true ' "$T/out"
diff_ --fail-ratio 2 "$T/loop2.json" "$T/loop40.json"
eq "--fail-ratio 2: exit 1" 1 "$rc"
check "--fail-ratio 2: execve's increase is a need" grep -q '^  > execve (x86_64) .* need$' "$T/out"
diff_ --fail-ratio 1000 "$T/loop2.json" "$T/loop40.json"
eq "--fail-ratio 1000: exit 0" 0 "$rc"
diff_ -F json --calls-ratio 1000 "$T/loop2.json" "$T/loop40.json"
eq "--calls-ratio 1000: no count change listed" 0 "$(jget "$T/out" 'd["summary"]["changed"]')"
diff_ -F json --min-calls 1000000 "$T/loop2.json" "$T/loop40.json"
eq "--min-calls 1000000: no count change listed" 0 "$(jget "$T/out" 'd["summary"]["changed"]')"
diff_ -F json --calls-ratio 1000 -a "$T/loop2.json" "$T/loop40.json"
check "--all lists them anyway" test "$(jget "$T/out" 'd["summary"]["changed"]')" -gt 0
diff_ -F json --calls-ratio 1000 -v "$T/loop2.json" "$T/loop40.json"
check "-v lists them too" test "$(jget "$T/out" 'd["summary"]["changed"]')" -gt 0

# json: schema and shape
diff_ -F json "$T/ls.json" "$T/sock.json"
eq "json: schema kfootprint-diff/1" "kfootprint-diff/1" "$(jget "$T/out" 'd["schema"]')"
eq "json: every item has kind, key, change, old, new, unit, need" "True" \
	"$(jget "$T/out" 'all({"kind","key","change","old","new","unit","need"} <= set(i) for i in d["items"]) and len(d["items"]) > 0')"
eq "json: summary counts agree with the items" "True" \
	"$(jget "$T/out" 'd["summary"]["added"] == sum(i["change"] == "added" for i in d["items"]) and d["summary"]["needs"] == sum(i["need"] for i in d["items"])')"

# markdown: GitHub tables whose every row has the header's number of cells ("\|" is no separator)
cat >"$T/md.py" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
cells = lambda l: len(re.split(r"(?<!\\)\|", l.strip())) - 2
tables = i = 0
while i < len(lines):
    if lines[i].startswith("|"):
        n = cells(lines[i])
        assert re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", lines[i + 1]), "separator: " + lines[i + 1]
        assert cells(lines[i + 1]) == n, "separator cells: " + lines[i + 1]
        assert i == 0 or lines[i - 1] == "", "no blank line before the table at line %d" % (i + 1)
        i += 2
        while i < len(lines) and lines[i].startswith("|"):
            assert cells(lines[i]) == n, "row %d has %d cells, not %d: %s" % (i + 1, cells(lines[i]), n, lines[i])
            i += 1
        tables += 1
    i += 1
print(tables)
EOF
diff_ -F markdown "$T/ls.json" "$T/sock.json"
eq "markdown: exit 1 as with text" 1 "$rc"
check "markdown: a heading with the verdict" grep -q '^### kfootprint diff: NEW needs [0-9]* things OLD did not$' "$T/out"
check "markdown: tables are valid (header, separator, rows of as many cells)" python3 "$T/md.py" "$T/out"
eq "markdown: the sides, syscalls, errnos, options and processes tables" 5 "$(python3 "$T/md.py" "$T/out" 2>&1)"
# a path with markdown's and the table's special characters stays in its cell
mkdir -p "$T/a|b*c"
cp /bin/true "$T/a|b*c/t_r|ue"
rec odd.json "$T/a|b*c/t_r|ue"
diff_ -F markdown "$T/ls.json" "$T/odd.json"
check "markdown: a path with | * _ keeps the table valid" python3 "$T/md.py" "$T/out"
check "markdown: ... escaped in its cell" grep -Fq 'a\|b\*c/t\_r\|ue' "$T/out"

# -o: the file, atomically; a path that cannot be written fails before any work
diff_ -o "$T/d.md" -F markdown "$T/pass.json" "$T/sock.json"
eq "-o: exit 1, nothing on stdout" "1 0" "$rc $(wc -c <"$T/out")"
check "-o: the file holds the markdown" grep -q '^| added | socket | x86_64 |' "$T/d.md"
diff_ -o "$T/no/such/dir/d.md" "$T/pass.json" "$T/no-such.json"
eq "-o in a missing directory: exit 2" 2 "$rc"
check "-o in a missing directory: one line naming the output, not the input" \
	sh -c "[ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'no/such/dir' '$T/err'"
# standard input for one side
"$KF" diff - "$T/ls.json" <"$T/ls.json" >"$T/out" 2>&1
eq "'-' reads standard input" "0" "$?"

# bad inputs: one line, exit 2, nothing on stdout
bad() { # NAME PATTERN ARGS...
	name=$1 pat=$2
	shift 2
	diff_ "$@"
	if [ "$rc" -eq 2 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q "^kfootprint: .*$pat" "$T/err"; then
		ok "bad input: $name"
	else
		not_ok "bad input: $name: exit $rc, stdout $(head -c 100 "$T/out"), stderr: $(head -c 300 "$T/err")"
	fi
}
"$PY" - "$T/ls.json" "$T" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
o = dict(d, schema="kfootprint/2")
json.dump(o, open(sys.argv[2] + "/v2.json", "w"))
e = dict(d, syscalls=[], processes=[dict(p, syscalls={}) for p in d["processes"]])
json.dump(e, open(sys.argv[2] + "/empty.json", "w"))
EOF
echo '{"hello": 1}' >"$T/other.json"
: >"$T/zero.json"
bad "a missing file" "no-such.json" "$T/ls.json" "$T/no-such.json"
bad "a missing OLD file" "no-such.json" "$T/no-such.json" "$T/ls.json"
bad "not JSON" "passwd" "$T/ls.json" /etc/passwd
bad "JSON, not a footprint" "other.json" "$T/ls.json" "$T/other.json"
bad "another schema version" "kfootprint/2" "$T/ls.json" "$T/v2.json"
bad "an empty footprint" "empty footprint" "$T/empty.json" "$T/ls.json"
bad "an empty file" "zero.json" "$T/ls.json" "$T/zero.json"
bad "one operand" "two footprints to compare, got 1" "$T/ls.json"
bad "three operands" "two footprints to compare, got 3" "$T/ls.json" "$T/ls.json" "$T/ls.json"
bad "both from standard input" "only one footprint" - -
bad "an unknown format" "unknown format 'html': expected one of text, json, markdown" -F html "$T/ls.json" "$T/ls.json"
bad "a ratio below 1" "invalid --calls-ratio '0.5'" --calls-ratio 0.5 "$T/ls.json" "$T/ls.json"
bad "a ratio that is no number" "invalid --fail-ratio 'x'" --fail-ratio x "$T/ls.json" "$T/ls.json"
bad "a negative --min-calls" "invalid --min-calls" --min-calls -3 "$T/ls.json" "$T/ls.json"
bad "an unknown option" "unknown option '--bogus': see 'kfootprint diff --help'" --bogus "$T/ls.json" "$T/ls.json"
"$KF" diff --help >"$T/out" 2>"$T/err"
eq "--help: exit 0, the exit statuses documented" "0 1" "$? $(grep -c '^  2  an error, usage errors included' "$T/out")"
