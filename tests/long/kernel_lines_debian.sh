#!/bin/sh
# make check-long: kernel lines symbolized with Debian's debug vmlinux (linux-image-6.1.0-57-amd64-dbg, 600 MB of
# DWARF, installed by hand): the PCs of eventfd_write's and eventfd_read's code (nm, each byte + 1 as kcov's return
# addresses, a made-up KASLR slide) give lines of fs/eventfd.c under those functions, with the tree's names (the
# build's prefix taken off, Debian's C units being prefix-mapped); the line table's distinct lines are a whole
# kernel's (hundreds of thousands); -F lcov read by lcov --summary with the tree's sources; another build id refused.
. "$(dirname "$0")/../lib.sh"
V=/usr/lib/debug/boot/vmlinux-6.1.0-57-amd64
KSRC=/var/tmp/kfootprint-ksrc/linux-source-6.1
if [ ! -r "$V" ]; then
	skip kernel_lines_debian "no $V (apt-get install linux-image-6.1.0-57-amd64-dbg, 850 MB, not in deps-long)"
	exit 0
fi
BID=$(readelf -n "$V" | awk '/Build ID/ { print $3 }')
nm -S --defined-only "$V" >"$T/nm"
$PY - "$T/nm" "$T/fp.json" "$BID" <<'PY'
import json, sys
syms, text = {}, None
for l in open(sys.argv[1]):
    p = l.split()
    if len(p) == 3 and p[2] == "_text":
        text = int(p[0], 16)
    if len(p) == 4 and p[3] in ("eventfd_write", "eventfd_read"):
        syms[p[3]] = (int(p[0], 16), int(p[1], 16))
slide = 0x1e00000
pcs = sorted({a + i + 1 + slide for a, n in syms.values() for i in range(n)})
json.dump({"schema": "kfootprint/1",
           "syscalls": [{"name": "write", "abi": "x86_64", "nr": 1, "calls": 1, "errors": 0, "errnos": {}, "time_s": 0.0}],
           "kernel_lines": {"method": "kcov", "whole_guest": False, "build_id": sys.argv[3], "runtime_text": hex(text + slide),
                            "text_offset": "0x0", "lost": 0, "tasks": [], "pcs": [{"pc": hex(p), "hits": 1} for p in pcs],
                            "lines": []}}, open(sys.argv[2], "w"))
PY
"$KF" map --vmlinux "$V" --save-lines "$T/lines.json" -F json -o "$T/map.json" "$T/fp.json"
eq "kernel lines (Debian): map --vmlinux" 0 "$?"
check "kernel lines (Debian): eventfd_write and eventfd_read cover fs/eventfd.c lines of their own" $PY -c "
import json, sys
k = json.load(open('$T/lines.json'))['kernel_lines']
fns = {l.get('function') for l in k['lines'] if l['file'] == 'fs/eventfd.c'}
sys.exit(0 if {'eventfd_write', 'eventfd_read'} <= fns and not any(l['file'].startswith('/build/') for l in k['lines']) else 1)"
check "kernel lines (Debian): KASLR undone" grep -q '"text_offset": "0x1e00000"' "$T/lines.json"
check "kernel lines (Debian): the line table is a whole kernel's" $PY -c "
import json, sys
sys.exit(0 if json.load(open('$T/map.json'))['kernel_lines']['compiled_lines'] > 500000 else 1)"
if [ -d "$KSRC/fs" ] && command -v lcov >/dev/null 2>&1; then
	"$KF" map --vmlinux "$V" --source-root "$KSRC" -F lcov -o "$T/k.info" "$T/fp.json"
	check "kernel lines (Debian): lcov --summary reads the tracefile" sh -c "lcov --summary '$T/k.info' 2>&1 | grep -q 'lines\.*: '"
	check "kernel lines (Debian): SF in the tree" grep -qx "SF:$KSRC/fs/eventfd.c" "$T/k.info"
else
	skip "kernel lines (Debian): lcov" "no $KSRC or no lcov"
fi
# the line-level inventory of the whole kernel: the same counts as map's, fs/eventfd.c under EVENTFD
"$KF" inventory --lines --vmlinux "$V" -F json -o "$T/inv.json" "$T/fp.json"
eq "kernel lines (Debian): inventory --lines" 0 "$?"
check "kernel lines (Debian): inventory --lines counts map's lines, fs/eventfd.c's under EVENTFD" $PY -c "
import json, sys
d, m = json.load(open('$T/inv.json')), json.load(open('$T/map.json'))['kernel_lines']
f = [x for x in d['files'] if x['path'] == 'fs/eventfd.c'][0]
mf = [x for x in m['files'] if x['file'] == 'fs/eventfd.c'][0]
o = [x for x in d['options'] if x['name'] == 'EVENTFD'][0]
sys.exit(0 if d['compiled_lines'] == m['compiled_lines'] and (f['compiled'], f['covered']) == (mf['compiled'], mf['covered'])
         and (o['compiled'], o['covered']) == (f['compiled'], f['covered']) and d['covered_outside_table'] == 0 else 1)"
sed 's/"build_id": "[0-9a-f]*"/"build_id": "0000"/' "$T/fp.json" >"$T/other.json"
"$KF" map --vmlinux "$V" "$T/other.json" >/dev/null 2>"$T/err"
eq "kernel lines (Debian): another build id refused" 1 "$?"
check "kernel lines (Debian): ... in one line" sh -c "[ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'is not the recorded kernel' '$T/err'"
