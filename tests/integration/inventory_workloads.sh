#!/bin/sh
# kfootprint inventory on real workloads (issue 23): a TCP server and its client over loopback (python3), Python's
# HTTP server fetched by curl, files written, renamed and read on a loop-mounted ext4 image. Each is saved with a
# plain -o (no --map): its refinements carry no place, and a merged footprint none either. Inventory annotates
# them as map does (the built-in database with --running, the tree with --kernel-src) and must place what their
# calls reached in the files map names; options only needed off are not reached; the closure over depends on and
# select keeps BLOCK, which EXT4_FS depends on, off the candidates; the always-built files (kernel/sched/core.c,
# fs/namei.c) and those gated only by reached options are listed apart; --running takes SLOC from the built-in
# table of 6.1's files, and says so.
. "$(dirname "$0")/../lib.sh"
# kf-test: exclusive loop: a loop device and a mount of its own

export XDG_CACHE_HOME="$T/cache"
MNT="$T/mnt" IMG="$T/ext4.img" LOOPDEV=
# whatever happens (a failed check, a signal), the mount and the loop device go; then lib.sh's trap removes $T
cleanup() {
	if [ -n "$LOOPDEV" ]; then
		umount "$MNT" 2>/dev/null || umount -l "$MNT" 2>/dev/null
		losetup -d "$LOOPDEV" 2>/dev/null
	fi
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

port=$((20000 + $$ % 20000))
mkdir -p "$T/www" && echo hello >"$T/www/index.txt"

# record NAME COMMAND: a footprint of a shell running COMMAND, saved with -o alone (no --map)
record() {
	"$KF" record -b ptrace -q -o "$T/$1.json" --report /dev/null -- sh -c "$2" >"$T/$1.out" 2>"$T/$1.err" ||
		{ not_ok "inventory_workloads: $1: record failed"; sed 's/^/#   /' "$T/$1.err" | tail -n 5; }
}
record tcp "$PY -I -S $KF_TOP/tests/workloads/tcp_pair.py server $T/port & $PY -I -S $KF_TOP/tests/workloads/tcp_pair.py client $T/port; wait"
eq "tcp: the client got its answer" PING "$(cat "$T/tcp.out")"
record http "$PY -I -S -m http.server --bind 127.0.0.1 -d $T/www $port >/dev/null 2>&1 & p=\$!;
	curl -s --retry 50 --retry-delay 1 --retry-connrefused http://127.0.0.1:$port/index.txt; kill \$p; wait"
eq "http: curl fetched the file" hello "$(cat "$T/http.out")"
workloads="tcp http"
if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.ext4 >/dev/null || ! command -v losetup >/dev/null; then
	skip "ext4: a loop-mounted image" "needs root, mkfs.ext4 and losetup"
elif ! truncate -s 32M "$IMG" || ! mkfs.ext4 -q -F "$IMG" || ! LOOPDEV=$(losetup -f --show "$IMG") ||
	! mkdir -p "$MNT" || ! mount -t ext4 "$LOOPDEV" "$MNT"; then
	skip "ext4: a loop-mounted image" "no loop device or ext4 here: $(losetup -f 2>&1 | head -n 1)"
else
	check "ext4: the image is mounted as ext4" grep -q " $MNT ext4 " /proc/mounts
	record ext4 "cd $MNT && mkdir d && for i in 1 2 3; do echo data\$i >d/f\$i; done && sync && mv d/f1 d/g &&
		cat d/g d/f2 d/f3 && rm d/f2"
	eq "ext4: the files were read back" "data1 data2 data3" "$(tr '\n' ' ' <"$T/ext4.out" | sed 's/ $//')"
	check "ext4: the footprint reached ext4 files" grep -q '"value": "file:ext4"' "$T/ext4.json"
	umount "$MNT" && losetup -d "$LOOPDEV" && LOOPDEV=
	check "ext4: unmounted and the loop device released" sh -c "! grep -q ' $MNT ' /proc/mounts"
	workloads="$workloads ext4"
fi
for w in $workloads; do
	check "$w: saved without places (no refinement has a \"kernel\" object)" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
r = [x for s in d['syscalls'] for x in s.get('reached', [])]
assert r and not [x for x in r if 'kernel' in x] and not [s for s in d['syscalls'] if 'kernel' in s]
" "$T/$w.json"
done
"$KF" merge -o "$T/all.json" $(for w in $workloads; do echo "$T/$w.json"; done) 2>"$T/merge.err" ||
	not_ok "merge: $(cat "$T/merge.err")"

# same_as_map NAME INV.json MAP.json: the files inventory placed refinements in are those map's "reached" names,
# and its options reached (without the closure) are those map's needs want on
same_as_map() {
	check "$1: refinements placed in map's files, options as map's needs" python3 - "$2" "$3" <<'EOF'
import json, sys
inv, m = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = {(r["kernel"]["included_by"] or r["kernel"]["file"]) for r in m["reached"]
        if r.get("kernel") and r["kernel"].get("file")}
got = {f["path"] for f in inv["files"] if f["observed_by"].get("refinement")}
assert want and got == want, ("inventory", sorted(got), "map", sorted(want))
assert inv["observations"]["refinement"]["unmapped"] == 0, inv["observations"]
mopts = {o["name"] for o in m["configs"] if o["needed_by"]}
iopts = {o["name"] for o in inv["options"] if o["observed"] and "closure_of" not in o}
assert mopts <= iopts, ("map wants", sorted(mopts - iopts), "that inventory did not reach")
EOF
}

# the checks of issue 23 on one inventory (json): NAME FILE WORKLOAD
issue23() {
	check "$1: af_inet.c, tcp_ipv4.c and binfmt_elf.c reached, not candidates" python3 - "$2" "$3" <<'EOF'
import json, sys
d, w = json.load(open(sys.argv[1])), sys.argv[2]
files = {f["path"]: f for f in d["files"]}
need = ["fs/binfmt_elf.c"] + (["net/ipv4/af_inet.c", "net/ipv4/tcp_ipv4.c"] if w in ("tcp", "http", "all") else [])
for p in need:
    assert files[p]["observed_by"].get("refinement"), (p, files[p])
    assert p not in d["review_candidates"]["files"], p
if w in ("tcp", "http", "all"):
    # tcp.c: no refinement lands there, but INET and NET are reached: no configuration removes it
    assert "net/ipv4/tcp.c" not in d["review_candidates"]["files"]
    assert "net/ipv4/tcp.c" in d["review_candidates"]["gated_by_reached_options"]
EOF
	check "$1: options only needed off are not reached (CLONE_BACKWARDS*, ODD_RT_SIGACTION)" python3 - "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
bad = [o["name"] for o in d["options"] if o["observed"] and (o["name"].startswith("CLONE_BACKWARDS") or o["name"] == "ODD_RT_SIGACTION")]
assert not bad, bad
assert d["options_not_reached_on_chains"] >= 1, d["options_not_reached_on_chains"]
EOF
	check "$1: always-built files apart, not candidates (kernel/sched/core.c, fs/namei.c)" python3 - "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
rc = d["review_candidates"]
files = {f["path"]: f for f in d["files"]}
# reached (namei.c defines renameat and unlinkat) or listed as always built, never a candidate
for p in ("kernel/sched/core.c", "fs/namei.c", "kernel/sched/fair.c", "mm/page_alloc.c"):
    assert files[p]["observed_by"] or p in rc["always_built"], (p, files[p])
    assert p not in rc["files"], p
assert all(files[p]["always_built"] and not files[p]["options"] for p in rc["always_built"])
# every unreached file is in exactly one list
seen = {p for p, f in files.items() if f["observed_by"]}
lists = [set(rc["files"]), set(rc["always_built"]), set(rc["gated_by_reached_options"]), set(rc["chain_unknown"])]
# a candidate is under an option no observation reached
cand_opts = set(rc["options"])
assert all(set(files[p]["options"]) & cand_opts for p in rc["files"]), [p for p in rc["files"] if not set(files[p]["options"]) & cand_opts][:5]
assert sum(map(len, lists)) == len(set.union(*lists)) == len(files) - len(seen)
EOF
	if [ "$3" = ext4 ] || [ "$3" = all ]; then
		check "$1: BLOCK, which EXT4_FS depends on, is reached by the closure, not a candidate" python3 - "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
o = {x["name"]: x for x in d["options"]}
assert o["EXT4_FS"]["observed"] and "closure_of" not in o["EXT4_FS"], o["EXT4_FS"]
assert o["BLOCK"]["observed"] and o["BLOCK"]["closure_of"], o["BLOCK"]
assert "BLOCK" not in d["review_candidates"]["options"]
EOF
	fi
}

# --- --running: the built-in database, no tree -------------------------------------------------------------
for w in $workloads all; do
	"$KF" map --no-running -F json -o "$T/$w.map.json" "$T/$w.json" 2>"$T/$w.map.err" ||
		not_ok "$w: map: $(cat "$T/$w.map.err")"
	if ! "$KF" inventory --running -F json -o "$T/$w.run.json" "$T/$w.json" 2>"$T/$w.run.err"; then
		not_ok "$w: inventory --running: $(cat "$T/$w.run.err")"
		continue
	fi
	[ "$w" = all ] || same_as_map "running $w" "$T/$w.run.json" "$T/$w.map.json"
	issue23 "running $w" "$T/$w.run.json" "$w"
done
"$KF" inventory --running --top 3 "$T/tcp.json" >"$T/tcp.run.txt" 2>&1
check "running: says its SLOC is the built-in table's" grep -q "^  SLOC from the built-in table of Linux 6.1.192's files" "$T/tcp.run.txt"
check "running: candidates lead, options first, files under each" sh -c \
	"sed -n '/^review candidates/{p;q}' '$T/tcp.run.txt' | grep -q 'compiled options' &&
	 grep -A1 '^  candidate CONFIG_' '$T/tcp.run.txt' | grep -q '^      [a-z]'"
check "running: options are ordered by the SLOC they gate, which the built-in table gives" python3 - "$T/tcp.run.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
o = {x["name"]: x for x in d["options"]}
n = [o[c]["sloc"] for c in d["review_candidates"]["options"]]
assert n and n[0] > 10000 and n == sorted(n, reverse=True), n[:20]
f = {x["path"]: x for x in d["files"]}
# the table's count is the tree's (inventory.sh checks these against cloc): fork.c 2331, eventfd.c 292
assert f["kernel/fork.c"]["sloc"] == 2331 and f["fs/eventfd.c"]["sloc"] == 292, (f["kernel/fork.c"], f["fs/eventfd.c"])
assert sum(1 for x in d["files"] if x["sloc"] is not None) > 0.9 * len(d["files"])
EOF
# figures for the record: files listed as candidates out of all compiled (issue 23 said 2,264 of 2,285)
jget "$T/tcp.run.json" '"# running tcp: %d candidate files, %d always built, %d gated, of %d; %d candidate options" % (len(d["review_candidates"]["files"]), len(d["review_candidates"]["always_built"]), len(d["review_candidates"]["gated_by_reached_options"]), len(d["files"]), len(d["review_candidates"]["options"]))'

# the ASan/UBSan build (make check builds it) on the real workloads: every format, leak-free
if [ -n "$KF_ASAN_BIN" ] && [ -x "$KF_ASAN_BIN" ]; then
	for f in text json csv rst; do
		check "asan: --running -F $f on the workloads" "$KF_ASAN_BIN" inventory --running -F "$f" -o "$T/asan.$f" \
			$(for w in $workloads; do echo "$T/$w.json"; done)
	done
else
	skip "inventory of the workloads under ASan" "no ASan build (KF_ASAN; make check builds it)"
fi

# a footprint from another host: its host_kernel says another release; the placement is the same
python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); d['host']['kernel'] = '5.10.0-other-host'; json.dump(d, open(sys.argv[2], 'w'))
" "$T/tcp.json" "$T/other.json"
"$KF" inventory --running -F json -o "$T/other.run.json" "$T/other.json" 2>/dev/null
eq "another host's footprint: the same files reached" \
	"$(jget "$T/tcp.run.json" 'sorted(f["path"] for f in d["files"] if f["observed_by"])')" \
	"$(jget "$T/other.run.json" 'sorted(f["path"] for f in d["files"] if f["observed_by"])')"

# --- the tree and Debian's own configuration, the .xz as shipped ------------------------------------------------
dcfg=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
if ! src=$(ksrc_tree) || [ ! -r "$dcfg" ]; then
	skip "inventory_workloads on linux-source-6.1" "no tree ($KSRC_TARBALL) or no $dcfg (linux-config-6.1)"
	exit 0
fi
for w in $workloads all; do
	"$KF" map --no-running --kernel-src "$src" --kernel-config "$dcfg" -F json -o "$T/$w.tmap.json" "$T/$w.json" \
		2>"$T/$w.tmap.err" || not_ok "$w: map --kernel-src: $(cat "$T/$w.tmap.err")"
	if ! "$KF" inventory --kernel-src "$src" --config "$dcfg" -F json -o "$T/$w.tree.json" "$T/$w.json" \
		2>"$T/$w.tree.err"; then
		not_ok "$w: inventory --kernel-src --config $dcfg: $(cat "$T/$w.tree.err")"
		continue
	fi
	[ "$w" = all ] || same_as_map "tree $w" "$T/$w.tree.json" "$T/$w.tmap.json"
	issue23 "tree $w" "$T/$w.tree.json" "$w"
done
check "tree: the closure was made by the tree's Kconfig" grep -q "closed over depends on and select by the source tree's Kconfig" "$T/tcp.tree.json"
check "tree: options ordered by the SLOC they gate" python3 - "$T/tcp.tree.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
o = {x["name"]: x for x in d["options"]}
s = [o[c]["sloc"] for c in d["review_candidates"]["options"]]
assert s[0] > 100000 and s == sorted(s, reverse=True), s[:10]
EOF
jget "$T/all.tree.json" '"# tree, all three merged: %d candidate files, %d always built, %d gated, of %d; %d candidate options" % (len(d["review_candidates"]["files"]), len(d["review_candidates"]["always_built"]), len(d["review_candidates"]["gated_by_reached_options"]), len(d["files"]), len(d["review_candidates"]["options"]))'
# several footprints given, as merge would: the same as the merged one
"$KF" inventory --kernel-src "$src" --config "$dcfg" -F json -o "$T/each.tree.json" \
	$(for w in $workloads; do echo "$T/$w.json"; done) 2>/dev/null
eq "tree: the footprints given one by one reach what their merge reaches" \
	"$(jget "$T/all.tree.json" 'sorted(f["path"] for f in d["files"] if f["observed_by"])')" \
	"$(jget "$T/each.tree.json" 'sorted(f["path"] for f in d["files"] if f["observed_by"])')"

# --- configurations that cannot be read: said so, one line ------------------------------------------------------
head -c 4000 "$dcfg" >"$T/cut.xz"
printf '\177ELF\0\0\0' >"$T/elf.config"
for c in "cut.xz:truncated xz data" "elf.config:an ELF file.*not a kernel .config"; do
	f=${c%%:*} want=${c#*:}
	if "$KF" inventory --kernel-src "$src" --config "$T/$f" "$T/tcp.json" >"$T/bad.out" 2>"$T/bad.err"; then
		not_ok "--config $f: accepted"
	else
		check "--config $f: one line saying '$want'" sh -c "[ \$(wc -l <'$T/bad.err') -eq 1 ] && grep -q '$want' '$T/bad.err' && [ ! -s '$T/bad.out' ]"
	fi
done
