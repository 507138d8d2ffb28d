# `kfootprint merge` on real footprints recorded here (ptrace and bpf, different workloads): identity, counts
# summed exactly and kept per source, associativity and order independence byte for byte, idempotence (a
# source named by its digest is kept once), processes per source, every format reads the result, incomplete
# inputs listed; bad inputs one line each, exit 1, no output left behind. The ASan build runs them too.
. "$(dirname "$0")/../lib.sh"
KFA=${KF_ASAN_BIN:-$KF}
[ -x "$KFA" ] || KFA=$KF
rec() { "$KF" record --report /dev/null "$@" >/dev/null 2>"$T/rec.err" || { cat "$T/rec.err" >&2; return 1; }; }

rec -b ptrace -o "$T/ls.json" -- ls / || not_ok "record ls"
rec -b ptrace --label startup -o "$T/py.json" -- python3 -c 'import json' || not_ok "record python3"
rec -b ptrace -o "$T/sh.json" -- sh -c 'echo a | wc -c; cat /etc/hostname' || not_ok "record sh"
B="$T/sh.json" # the bpf footprint, when bpf runs here
if bpf_or_skip "merge: a bpf footprint"; then
	rec -b bpf -o "$T/bpf.json" -- sh -c 'ls /usr | wc -l; head -c 10 /etc/passwd' && B="$T/bpf.json" &&
		ok "merge: a bpf footprint recorded"
fi
A="$T/ls.json" P="$T/py.json" S="$T/sh.json"

# Python's view of the needs: {(abi, name): (calls, errors, {errno: n})}, the total process count
needs() {
	python3 -c '
import json, sys
tot = {}
for f in sys.argv[1:]:
    for s in json.load(open(f))["syscalls"]:
        k = (s["abi"], s["name"])
        c, e, en = tot.get(k, (0, 0, {}))
        en = dict(en)
        for x, n in s["errnos"].items():
            en[x] = en.get(x, 0) + n
        tot[k] = (c + s["calls"], e + s["errors"], en)
print(sorted((k, v[0], v[1], sorted(v[2].items())) for k, v in tot.items()))' "$@"
}

# --- identity: merge of one has the same needs, and one source --------------------------------------------
"$KFA" merge -o "$T/m1.json" "$A" 2>"$T/err"
eq "identity: merge exits 0 and says nothing" "0 " "$? $(cat "$T/err")"
eq "identity: the same needs (syscalls, calls, errors, errnos)" "$(needs "$A")" "$(needs "$T/m1.json")"
eq "identity: one source, with the input's header" "1 ['ls', '/'] ptrace True" \
	"$(jget "$T/m1.json" "len(d['sources']), d['sources'][0]['workload']['argv'], d['sources'][0]['backend'], d['complete']")"
eq "identity: the same processes" "$(jget "$A" "[(p['pid'], p['comm'], p['files']) for p in d['processes']]")" \
	"$(jget "$T/m1.json" "[(p['pid'], p['comm'], p['files']) for p in d['processes']]")"
eq "digest: the SHA-256 of the footprint's JSON, as sha256sum computes it" \
	"$("$KF" report -F json "$A" | sha256sum | cut -d' ' -f1)" "$(jget "$T/m1.json" "d['sources'][0]['digest']")"
"$KF" merge -o "$T/m11.json" "$T/m1.json"
check "identity: merging a merged footprint alone gives it back byte for byte" cmp "$T/m1.json" "$T/m11.json"

# --- counts summed exactly, kept per source ---------------------------------------------------------------
"$KFA" merge -o "$T/all.json" "$A" "$P" "$S" "$B"
eq "sum: every syscall's calls, errors and errnos are the inputs' sums" "$(needs "$A" "$P" "$S" "$B")" \
	"$(needs "$T/all.json")"
nsrc=$(python3 -c "import sys; print(len(set(sys.argv[1:])))" "$A" "$P" "$S" "$B")
eq "per source: each row's shares add up to its counts, one share per source at most" "ok" \
	"$(jget "$T/all.json" "'ok' if all(sum(x['calls'] for x in s['per_source']) == s['calls'] and sum(x['errors'] for x in s['per_source']) == s['errors'] and len({x['source'] for x in s['per_source']}) == len(s['per_source']) for s in d['syscalls']) else 'bad'")"
eq "per source: a source's shares are its input's rows" \
	"$(jget "$P" "sorted((s['name'], s['calls'], s['errors']) for s in d['syscalls'])")" \
	"$(jget "$T/all.json" "sorted((s['name'], x['calls'], x['errors']) for s in d['syscalls'] for x in s['per_source'] if d['sources'][x['source']]['workload']['label'] == 'startup')")"
eq "processes: all of them, each with its source" \
	"$(python3 -c "import json,sys; print(sum(len(json.load(open(f))['processes']) for f in set(sys.argv[1:])))" "$A" "$P" "$S" "$B") $nsrc" \
	"$(jget "$T/all.json" "len(d['processes']), len({p['source'] for p in d['processes']})")"
eq "labels: the source keeps its label, the merge has none unless given" "startup None" \
	"$(jget "$T/all.json" "[s['workload']['label'] for s in d['sources'] if s['workload']['label']][0], d['workload']['label']")"
"$KF" merge --label fleet -o "$T/lab.json" "$A" "$P"
eq "--label names the merged footprint" "fleet" "$(jget "$T/lab.json" "d['workload']['label']")"

# --- associativity, order independence, idempotence: byte for byte ----------------------------------------
"$KF" merge -o "$T/ap.json" "$A" "$P"
"$KF" merge -o "$T/sb.json" "$S" "$B"
"$KF" merge -o "$T/ps.json" "$P" "$S"
"$KF" merge -o "$T/x1.json" "$T/ap.json" "$T/sb.json"
"$KF" merge -o "$T/x2.json" "$A" "$T/ps.json" "$B"
"$KF" merge -o "$T/x3.json" "$B" "$S" "$P" "$A"
check "associativity: merge(merge(A,P), merge(S,B)) == merge(A,P,S,B)" cmp "$T/all.json" "$T/x1.json"
check "associativity: merge(A, merge(P,S), B) == merge(A,P,S,B)" cmp "$T/all.json" "$T/x2.json"
check "order: merge(B,S,P,A) == merge(A,P,S,B)" cmp "$T/all.json" "$T/x3.json"
"$KF" merge -o "$T/aa.json" "$A" "$A" "$T/m1.json"
check "idempotence: merge(A, A, merge(A)) == merge(A)" cmp "$T/m1.json" "$T/aa.json"
"$KF" merge -o "$T/y.json" "$T/all.json" "$T/ap.json" "$P" "$T/all.json"
check "idempotence: merging what is already in gives the same bytes" cmp "$T/all.json" "$T/y.json"
python3 -c "import json,sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], 'w'), indent=8)" "$A" "$T/A-reformatted.json"
"$KF" merge -o "$T/z.json" "$T/m1.json" "$T/A-reformatted.json"
check "idempotence: the digest is of the footprint, not of its layout" cmp "$T/m1.json" "$T/z.json"

# --- readers: every format, map, the tree per source ------------------------------------------------------
for f in $(kf_names formats); do
	if "$KFA" report -F "$f" "$T/all.json" >"$T/out.$f" 2>"$T/err.$f" && [ -s "$T/out.$f" ] && [ ! -s "$T/err.$f" ]; then
		ok "report -F $f reads a merged footprint"
	else
		not_ok "report -F $f on a merged footprint: $(head -c 300 "$T/err.$f")"
	fi
done
check "report -F json gives the merged footprint back byte for byte" cmp "$T/all.json" "$T/out.json"
eq "tree: one tree per source, under its line" "$nsrc" "$(grep -c '^source [0-9]' "$T/out.tree")"
eq "tree: the python3 source's tree is under its line" "source 2 (startup): python3 -c 'import json'" \
	"$(grep '^source.*startup' "$T/out.tree" | sed 's/^source [0-9]/source 2/')"
eq "text: the sources are listed" "merged:       $nsrc sources" "$(grep '^merged:' "$T/out.text")"
if "$KFA" map "$T/all.json" >"$T/map.txt" 2>"$T/map.err" && grep -q 'syscalls:' "$T/map.txt"; then
	ok "map reads a merged footprint"
else
	not_ok "map on a merged footprint: $(head -c 300 "$T/map.err")"
fi

# --- incomplete inputs make the merge incomplete, with the reasons ----------------------------------------
rec -b ptrace -d 0.3 -o "$T/cut.json" -- sleep 5
"$KF" merge -o "$T/inc.json" "$A" "$T/cut.json"
eq "incomplete: the merge is, with the source and its reason" "False source 2: duration" \
	"$(jget "$T/inc.json" "d['complete'], d['incomplete_why']")"
eq "incomplete: the text report says so" "footprint:    INCOMPLETE: source 2: duration" \
	"$("$KF" report "$T/inc.json" | head -n1)"

# --- bad inputs: one line, exit 1, the output untouched ---------------------------------------------------
bad() { # NAME EXPECTED-MESSAGE ARGS...
	name=$1 want=$2
	shift 2
	rm -f "$T/bad.json"
	"$KFA" merge -o "$T/bad.json" "$@" >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	if [ $rc -eq 1 ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && grep -qF -- "$want" "$T/bad.err" && [ ! -e "$T/bad.json" ] &&
		[ ! -s "$T/bad.out" ]; then
		ok "bad input: $name"
	else
		not_ok "bad input: $name: exit $rc, $(head -c 300 "$T/bad.err")"
	fi
}
sed 's|"kfootprint/1"|"kfootprint/2"|' "$A" >"$T/v2.json"
: >"$T/empty.json"
printf '{"schema": "kfootprint/1"}\n' >"$T/hollow.json"
printf 'not json\n' >"$T/text.json"
mkdir "$T/dir.json"
bad "another schema version" "schema 'kfootprint/2' is not supported" "$A" "$T/v2.json"
bad "an empty file" "'$T/empty.json': not JSON: empty file" "$A" "$T/empty.json"
bad "an empty footprint" "'$T/hollow.json': an empty footprint" "$T/hollow.json" "$A"
bad "not JSON" "'$T/text.json': not JSON" "$A" "$T/text.json"
bad "a directory" "'$T/dir.json': Is a directory" "$A" "$T/dir.json"
bad "a missing file" "'$T/nope.json': No such file or directory" "$A" "$T/nope.json"
bad "no input" "no footprint to merge"
bad "standard input twice" "standard input given twice" - -
jedit "$T/all.json" "$T/sum.json" "d['syscalls'][0]['per_source'][0]['calls'] += 1"
bad "shares that do not add up" "the sources' counts do not add up" "$T/sum.json"
jedit "$T/all.json" "$T/src.json" "d['processes'][0]['source'] = 99"
bad "a process of no source" "99 is not an index in sources[]" "$T/src.json"
jedit "$T/all.json" "$T/dup.json" "d['sources'][1]['digest'] = d['sources'][0]['digest']"
bad "a digest listed twice" "digest: listed twice" "$T/dup.json"
jedit "$T/all.json" "$T/dig.json" "d['sources'][0]['digest'] = 'abc'"
bad "a malformed digest" "expected 64 lower-case hex digits" "$T/dig.json"
cp "$T/ap.json" "$T/out-in.json"
"$KFA" merge -o "$T/out-in.json" "$S" "$T/out-in.json" 2>"$T/err"
eq "the output is also an input: refused, one line" \
	"1 kfootprint: '$T/out-in.json': the same file as the input '$T/out-in.json': refused, an output never replaces an input" \
	"$? $(cat "$T/err")"
check "the output is also an input: the file is untouched" cmp "$T/ap.json" "$T/out-in.json"
ln "$T/out-in.json" "$T/hardlink.json"
"$KF" merge -o "$T/out-in.json" "$T/hardlink.json" 2>"$T/err"
eq "the output is an input under another name: refused" "1" "$?"

# --- the output rule: no more readable than the least readable input --------------------------------------
cp "$A" "$T/private.json" && chmod 600 "$T/private.json"
(umask 022 && "$KF" merge -o "$T/priv-out.json" "$P" "$T/private.json")
eq "output: 0600 when an input is readable by its owner only" "600" "$(stat -c %a "$T/priv-out.json")"
(umask 022 && "$KF" merge -o "$T/pub-out.json" "$P" "$A")
eq "output: 0644 otherwise" "644" "$(stat -c %a "$T/pub-out.json")"

# --- an older reader (the model before sources) sees a valid footprint: additive fields only ---------------
eq "older readers: python sees the usual top-level members" "True True True" \
	"$(jget "$T/all.json" "set(['schema','tool','host','workload','backend','started_at','elapsed_s','exit','complete','lost_events','syscalls','processes']) <= set(d), all(set(['name','abi','nr','calls','errors','errnos','time_s']) <= set(s) for s in d['syscalls']), d['schema'] == 'kfootprint/1'")"
