#!/bin/sh
# kfootprint map --kernel-src on a fixture tree of another version (tests/fixtures/map-tree, Linux 5.15.7): exact
# chains, rows the tree's table lacks, --kernel-config, the index cache, and --save-db/--db giving the same map.
. "$(dirname "$0")/../lib.sh"

tree=$KF_TOP/tests/fixtures/map-tree
export XDG_CACHE_HOME="$T/cache" # the index cache of this test only
map() { "$KF" map --kernel-src "$tree" "$@"; }
row() { jget "$1" "[(lambda r, k: $3)(r, r['kernel']) for r in d['syscalls'] if r['name'] == '$2'][0]"; }

map -F json --syscalls read,eventfd2,kexec_load,socket,futex >"$T/m.json" 2>"$T/m.err"
eq "exit 0" 0 $?
eq "nothing on stderr" "" "$(cat "$T/m.err")"
eq "tree version" "5.15.7" "$(jget "$T/m.json" "d['tree']['version']")"
eq "read: fs/read_write.c:4, always built" "fs/read_write.c 4 []" "$(row "$T/m.json" read "'%s %s %s' % (k['file'], k['line'], k['configs'])")"
eq "eventfd2: fs/eventfd.c:5 by fs/Makefile:3" "fs/eventfd.c:5 fs/Makefile:3 ['EVENTFD']" \
	"$(row "$T/m.json" eventfd2 "'%s:%s %s %s' % (k['file'], k['line'], k['makefile'], k['configs'])")"
eq "eventfd2: optional (COND_SYSCALL)" "True" "$(row "$T/m.json" eventfd2 "k['optional']")"
eq "kexec_load: KEXEC section, then THE REST" "['KEXEC', 'THE REST']" "$(row "$T/m.json" kexec_load "k['maintainers']")"
eq "socket: NET from the top Kbuild" "NET makefile-dir" \
	"$(row "$T/m.json" socket "' '.join(c['option'] + ' ' + c['kind'] for c in k['conditions'] if c['option'] == 'NET')")"
eq "futex: not in the tree's table, no chain" "True None" "$(row "$T/m.json" futex "'%s %s' % (r['newer'], k)")"
eq "futex: said so, with the tree's version" "not in the x86_64 table of the source tree (5.15)" "$(row "$T/m.json" futex "r['note']")"
eq "KEXEC: arch/x86/Kconfig:8, prompt, depends" "arch/x86/Kconfig:8|kexec system call|MMU" \
	"$(jget "$T/m.json" "['|'.join([c['defined_at'], c['prompt'], c['depends_on']]) for c in d['configs'] if c['name'] == 'KEXEC'][0]")"
eq "EVENTFD: help's first paragraph" "True" \
	"$(jget "$T/m.json" "[c['help'].startswith('Enable the eventfd() system call that allows') for c in d['configs'] if c['name'] == 'EVENTFD'][0]")"

map --syscalls eventfd2 >"$T/m.txt" 2>&1
eq "text: mismatch 5.15 vs the running kernel, once" 1 "$(grep -c "^version mismatch: the source tree is Linux 5.15.7, the running kernel $(uname -r)" "$T/m.txt")"

# --all-syscalls: every row of kfootprint's table; those beyond the tree's four are not guessed
map -F json --all-syscalls >"$T/all.json"
rows=$(( $(grep -vc '^#' "$KF_TOP/data/syscalls/x86_64.tsv") + $(awk -F'\t' '!/^#/ && $4 ~ /(^|,)x86_64(,|$)/' "$KF_TOP/data/syscalls/newer.tsv" | wc -l) ))
eq "all: a row per row of kfootprint's table" "$rows" "$(jget "$T/all.json" "len(d['syscalls'])")"
eq "all: the tree's four rows mapped, the rest not in the tree" "4" "$(jget "$T/all.json" "sum(1 for r in d['syscalls'] if not r['newer'])")"
eq "all: above 290 newer, below a gap" "True" \
	"$(jget "$T/all.json" "all(r['note'].startswith('newer than' if r['nr'] > 290 else 'not in the x86_64 table') for r in d['syscalls'] if r['newer'])")"

# --kernel-config: EVENTFD off in that configuration -> eventfd2's condition does not hold
printf '# CONFIG_EVENTFD is not set\nCONFIG_NET=y\nCONFIG_KEXEC=y\n' >"$T/off.config"
map -F json --kernel-config "$T/off.config" --syscalls eventfd2,socket >"$T/off.json" 2>"$T/off.err"
eq "--kernel-config: exit 0" 0 $?
eq "--kernel-config: EVENTFD condition does not hold" "False" "$(row "$T/off.json" eventfd2 "[c['holds'] for c in k['conditions'] if c['option'] == 'EVENTFD'][0]")"
eq "--kernel-config: eventfd2 not required, NET still holds" "False True" \
	"$(jget "$T/off.json" "'%s %s' % tuple([r['required'] for r in d['syscalls'] if r['name'] == n][0] for n in ('eventfd2', 'socket'))")"
eq "--kernel-config: named in the header" "$T/off.config" "$(jget "$T/off.json" "d['tree']['config']")"

# the index cache: a first run in an empty cache builds it, the second reads it
export XDG_CACHE_HOME="$T/cache2"
map -v --syscalls read >/dev/null 2>"$T/v1.err"
map -v --syscalls read >/dev/null 2>"$T/v2.err"
if [ -n "$(ls -A "$T/cache2/kfootprint" 2>/dev/null)" ]; then
	eq "cache: second run from the cache" 1 "$(grep -c 'from the cache' "$T/v2.err")"
	eq "cache: first run built it" 1 "$(grep -c 'index of .* built' "$T/v1.err")"
else
	skip "cache" "the index wrote no cache under XDG_CACHE_HOME (the index work may not cache yet)"
fi

# --save-db then --db: the same mapping as from the tree itself
map --save-db "$T/db.json" >"$T/save.out" 2>"$T/save.err"
eq "--save-db alone: exit 0, silent" "0" "$?$(cat "$T/save.out" "$T/save.err")"
eq "--save-db: the tree's four rows only" "4" "$(grep -c '"complete":' "$T/db.json")"
"$KF" map --db "$T/db.json" -F json --syscalls read,eventfd2,kexec_load,socket,futex >"$T/db.map"
eq "--db: the same map as --kernel-src" "same" "$(python3 - "$T/m.json" "$T/db.map" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):
    d["tree"]["origin"] = None
print("same" if a == b else "differ")
PY
)"

# the broken fixture of the index work, when it is there: never a crash, an error or per-syscall reasons
if [ -d "$KF_TOP/tests/fixtures/ktree-broken" ]; then
	"$KF" map --kernel-src "$KF_TOP/tests/fixtures/ktree-broken" --no-cache --all-syscalls >"$T/b.out" 2>"$T/b.err"
	rc=$?
	if { [ "$rc" -eq 0 ] && [ -s "$T/b.out" ]; } || { [ "$rc" -eq 1 ] && [ "$(wc -l <"$T/b.err")" -eq 1 ]; }; then
		ok "broken tree: a map or one error line (exit $rc)"
	else
		not_ok "broken tree: exit $rc"
		head -5 "$T/b.err" | sed 's/^/#   /'
	fi
else
	skip "broken tree" "tests/fixtures/ktree-broken not there"
fi
