#!/bin/sh
# kfootprint inventory: compiled code against observations, on the fixture tree tests/fixtures/kinv-tree and, when
# it is there (ksrc_tree in tests/lib.sh extracts it once), on Debian's linux-source-6.1 with Debian's
# configuration: review candidates of a real workload (python3 using eventfd, no socket), of a footprint whose
# only evidence is a refinement or a kernel function (issue 8's and 9's JSON shapes, annotated anew: the places a
# footprint carries are not trusted, issue 23), SLOC against cloc, a built tree, a stripped vmlinux, the formats,
# and bad input (one line each). inventory_workloads.sh has the TCP, HTTP and ext4 workloads of issue 23.
. "$(dirname "$0")/../lib.sh"

FIX="$KF_TOP/tests/fixtures"
TREE="$FIX/kinv-tree"
CFG="$FIX/kinv.config"
export XDG_CACHE_HOME="$T/cache"

# candidate FILE OPTION: the text output lists CONFIG_OPTION as a review candidate
candidate() { grep -q "^  candidate CONFIG_$2 " "$1"; }

# --- a real workload: python3 writes to an eventfd and opens no socket --------------------------------------
# $PY, not a wrapper in PATH; -I -S: without HOME, site.py asks the password database, and glibc tries nscd.
if "$KF" -b ptrace -o "$T/efd.json" -- "$PY" -I -S -c 'import os; fd = os.eventfd(0); os.eventfd_write(fd, 1)' \
	>/dev/null 2>"$T/rec.err"; then
	ok "record python3 using eventfd"
else
	not_ok "record python3 using eventfd: $(cat "$T/rec.err")"
fi
check "no socket call in the eventfd workload" sh -c "! grep -q '\"name\": \"socket\"' '$T/efd.json'"
check "inventory on the fixture tree" sh -c "'$KF' inventory --kernel-src '$TREE' --config '$CFG' --top 0 '$T/efd.json' >'$T/fx.txt'"
if candidate "$T/fx.txt" EVENTFD; then not_ok "fixture: EVENTFD, which eventfd2 reached, is not a candidate"; else ok "fixture: EVENTFD, which eventfd2 reached, is not a candidate"; fi
check "fixture: PACKET is a candidate of a workload without sockets" candidate "$T/fx.txt" PACKET
check "fixture: fs/eventfd.c reached by the syscall eventfd2" grep -q '^  fs/eventfd.c .*syscall 1, refinement 1  e.g. eventfd2' "$T/fx.txt"
check "fixture: the candidates carry the caution" grep -q 'not proof that it can be removed' "$T/fx.txt"
# candidates come largest first
first=$(grep -m1 '^  candidate CONFIG_' "$T/fx.txt" | awk '{ print $2 }')
eq "fixture: the largest candidate option comes first" "CONFIG_NET" "$first"

# --- only a refinement, or only a kernel function, reached the code ---------------------------------------
# The "kernel" places below are wrong on purpose (mm/wrong.c, XEN): inventory annotates with the tree it is given,
# as map does, and must place the refinement in fs/eventfd.c (the fixture's anon_inode_getfd("[eventfd]")).
python3 - "$T/efd.json" "$T/reach.json" "$T/func.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["syscalls"] = [s for s in d["syscalls"] if s["name"] != "eventfd2"]
for s in d["syscalls"]:
    s["reached"] = []
    if s["name"] == "write":
        s["reached"] = [{"kind": "fd", "value": "anon:[eventfd]", "calls": 1, "errors": 0,
                         "kernel": {"file": "mm/wrong.c", "line": 1, "configs": ["XEN"]}}]
json.dump(d, open(sys.argv[2], "w"))
d["kernel_functions"] = {"method": "function_graph", "exhaustive": True, "lost": 0, "functions": [
    {"name": "packet_rcv", "hits": 3, "under": {"read": 3},
     "kernel": {"file": "kernel/wrong.c", "line": 2, "configs": ["XEN"]}},
    {"name": "no_such_function.isra.0", "hits": 1}]}
json.dump(d, open(sys.argv[3], "w"))
EOF
"$KF" inventory --kernel-src "$TREE" --config "$CFG" --top 0 "$T/reach.json" >"$T/reach.txt" 2>&1
if candidate "$T/reach.txt" EVENTFD; then not_ok "refinement: EVENTFD reached through an fd is not a candidate"; else ok "refinement: EVENTFD reached through an fd is not a candidate"; fi
check "refinement: fs/eventfd.c reached by it" grep -q '^  fs/eventfd.c .*refinement 1  e.g. fd anon:\[eventfd\]' "$T/reach.txt"
check "refinement: the footprint's own (wrong) place is not taken: XEN stays a candidate" candidate "$T/reach.txt" XEN
"$KF" inventory --kernel-src "$TREE" --config "$CFG" --top 0 "$T/func.json" >"$T/func.txt" 2>&1
if candidate "$T/func.txt" PACKET; then not_ok "function: PACKET, whose packet_rcv ran, is not a candidate"; else ok "function: PACKET, whose packet_rcv ran, is not a candidate"; fi
check "function: net/packet/af_packet.c reached by a function" grep -q '^  net/packet/af_packet.c .*function 3' "$T/func.txt"
check "function: the one without a mapping is counted as placed in no file" grep -q 'function *2 observed, 1 placed in no file' "$T/func.txt"
# two footprints: merged
"$KF" inventory --kernel-src "$TREE" --config "$CFG" -F json -o "$T/both.json" "$T/efd.json" "$T/func.json"
eq "two footprints: both read" "2" "$(jget "$T/both.json" 'len(d["footprints"])')"
eq "two footprints: neither EVENTFD nor PACKET is a candidate" "[]" \
	"$(jget "$T/both.json" '[o for o in d["review_candidates"]["options"] if o in ("EVENTFD", "PACKET")]')"

# --- formats ----------------------------------------------------------------------------------------------
"$KF" inventory --kernel-src "$TREE" --config "$CFG" -F json "$T/efd.json" >"$T/inv.json"
eq "json: schema" "kfootprint-inventory/1" "$(jget "$T/inv.json" 'd["schema"]')"
eq "json: fs/eventfd.c has 8 SLOC" "8" "$(jget "$T/inv.json" '[f["sloc"] for f in d["files"] if f["path"] == "fs/eventfd.c"][0]')"
eq "json: a generated file has no SLOC" "None" \
	"$(jget "$T/inv.json" '[f["sloc"] for f in d["files"] if f["path"].endswith("vdso-image-64.c")][0]')"
eq "json: the PACKET candidate" "True" "$(jget "$T/inv.json" '"PACKET" in d["review_candidates"]["options"]')"
"$KF" inventory --kernel-src "$TREE" --config "$CFG" -F csv "$T/efd.json" >"$T/inv.csv"
check "csv: header, option, directory and file rows" python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='')))
kinds = {r['kind'] for r in rows}
assert kinds == {'option', 'directory', 'file'}, kinds
p = [r for r in rows if r['kind'] == 'option' and r['name'] == 'PACKET'][0]
assert p['review'] == 'candidate' and p['built_or_value'] == 'y', p
e = [r for r in rows if r['kind'] == 'file' and r['name'] == 'fs/eventfd.c'][0]
assert e['by_syscall'] == '1' and e['review'] == '', e
" "$T/inv.csv"
"$KF" inventory --kernel-src "$TREE" --config "$CFG" -F rst "$T/efd.json" >"$T/inv.rst"
check "rst: parses with docutils, the candidate table names PACKET" sh -c \
	"python3 -c 'import docutils.core, sys; docutils.core.publish_doctree(open(sys.argv[1]).read(), settings_overrides={\"report_level\": 2, \"halt_level\": 2})' '$T/inv.rst' && grep -q 'CONFIG_PACKET' '$T/inv.rst'"

# --- the ASan/UBSan build (make check builds it): every format, and leak-free ---------------------------------
if [ -n "$KF_ASAN_BIN" ] && [ -x "$KF_ASAN_BIN" ]; then
	for f in text json csv rst; do
		check "asan: -F $f on the fixture tree, two footprints" "$KF_ASAN_BIN" inventory --kernel-src "$TREE" \
			--config "$CFG" -F "$f" -o "$T/asan.$f" "$T/efd.json" "$T/func.json"
		check "asan: --running --kallsyms fixture, -F $f" "$KF_ASAN_BIN" inventory --running \
			--kallsyms "$FIX/kinv-kallsyms" -F "$f" -o "$T/asan-run.$f" "$T/efd.json"
	done
else
	skip "inventory under ASan" "no ASan build (KF_ASAN; make check builds it)"
fi

# --- a built tree: the .o.cmd files and a module's .mod -----------------------------------------------------
B="$T/built"
mkdir -p "$B/fs/fat" "$B/kernel"
echo 'VERSION = 6' >"$B/Makefile"
printf 'int f;\n' >"$B/kernel/fork.c"
printf 'int c;\n/* x */\nint d;\n' >"$B/fs/fat/cache.c"
printf 'cmd_kernel/fork.o := gcc ...\nsource_kernel/fork.o := kernel/fork.c\n' >"$B/kernel/.fork.o.cmd"
printf 'cmd_fs/fat/cache.o := gcc ...\nsource_fs/fat/cache.o := %s/fs/fat/cache.c\n' "$B" >"$B/fs/fat/.cache.o.cmd"
printf 'fs/fat/cache.o\n' >"$B/fs/fat/fat.mod"
"$KF" inventory --build-dir "$B" -F json >"$T/b.json" 2>"$T/b.err"
eq "build dir: the files of its .o.cmd" "['fs/fat/cache.c', 'kernel/fork.c']" "$(jget "$T/b.json" 'sorted(f["path"] for f in d["files"])')"
eq "build dir: a .mod's object is a module, SLOC counted" "module 2" \
	"$(jget "$T/b.json" '" ".join(str(x) for f in d["files"] if f["path"] == "fs/fat/cache.c" for x in (f["built"], f["sloc"]))')"

# --- bad input: one line each, exit 1 ---------------------------------------------------------------------
# bad NAME EXPECTED-SUBSTRING ARGS...
bad() {
	name=$1 want=$2
	shift 2
	"$KF" inventory "$@" >"$T/bad.out" 2>"$T/bad.err"
	rc=$?
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] && grep -q "^kfootprint: .*$want" "$T/bad.err" &&
		[ ! -s "$T/bad.out" ]; then
		ok "bad input: $name"
	else
		not_ok "bad input: $name: exit $rc, stderr: $(cat "$T/bad.err")"
	fi
}
bad "not a tree" "not a kernel source tree" --kernel-src "$FIX" --config "$CFG"
bad "a .config of another architecture" "not an x86 configuration (CONFIG_ARM64=y)" --kernel-src "$TREE" --config "$FIX/kinv-arm64.config"
bad "no configuration" "no configuration for" --kernel-src "$TREE"
bad "nothing to inventory" "nothing to inventory" "$T/efd.json"
bad "a footprint that is not JSON" "$CFG" --kernel-src "$TREE" --config "$CFG" "$CFG"
bad "a build dir never built" "no .o.cmd files" --build-dir "$TREE"
bad "unknown format" "unknown format 'xml'" -F xml --kernel-src "$TREE" --config "$CFG"
printf 'int main(void) { return 0; }\n' >"$T/p.c"
if gcc -g -o "$T/p" "$T/p.c" && strip -g -o "$T/p.stripped" "$T/p"; then
	bad "a stripped vmlinux" "no DWARF debug information" --vmlinux "$T/p.stripped"
	bad "not an ELF file" "not an ELF file" --vmlinux "$CFG"
	"$KF" inventory --vmlinux "$T/p" -F json >"$T/p.json" 2>"$T/p.err"
	eq "an ELF with DWARF: its unit p.c" "True" "$(jget "$T/p.json" 'any(f["path"].endswith("p.c") for f in d["files"])')"
else
	not_ok "gcc -g could not build a small ELF"
fi

# --- the running kernel alone: its functions (kallsyms) mapped to files -----------------------------------------
# A fixture kallsyms against the built-in database (6.1): show_cpuinfo, eventfd_write, unix_stream_connect and
# unix_release have one file each; c_start is defined in three, and its neighbour show_cpuinfo (symbol order) says
# arch/x86/kernel/cpu/proc.c; c_stop, also in three, has no neighbour among its candidates' files: ambiguous; one
# name is in no file; the __pfx_ padding, a data symbol and a module's symbol are left out (cpuinfo_open's
# fs/proc/cpuinfo.c is not listed).
KS="$FIX/kinv-kallsyms"
if "$KF" inventory --running --kallsyms "$KS" -F json -o "$T/ks.json" 2>"$T/ks.err"; then
	eq "kallsyms fixture: the exact files" "arch/x86/kernel/cpu/proc.c fs/eventfd.c net/unix/af_unix.c" \
		"$(jget "$T/ks.json" '" ".join(f["path"] for f in d["files"])')"
	eq "kallsyms fixture: names, resolved (by order), ambiguous, unknown, module symbols" "7 5 1 1 1 1" \
		"$(jget "$T/ks.json" '" ".join(str(d["running"][k]) for k in ("names", "resolved", "resolved_by_order", "ambiguous", "unknown", "module_symbols"))')"
	check "kallsyms fixture: the database is named" grep -q '"database": "built-in database 6.1' "$T/ks.json"
else
	not_ok "inventory --running --kallsyms fixture: $(cat "$T/ks.err")"
fi
"$KF" inventory --running --kallsyms "$KS" --top 0 >"$T/ks.txt" 2>&1
# kallsyms read without the right to see addresses (kptr_restrict): no symbol order, so c_start stays ambiguous
sed 's/^ffffffff[0-9a-f]*/0000000000000000/' "$KS" >"$T/ks0"
"$KF" inventory --running --kallsyms "$T/ks0" -F json -o "$T/ks0.json" 2>"$T/ks0.err"
eq "zeroed addresses: resolved, ambiguous" "4 2" "$(jget "$T/ks0.json" '"%d %d" % (d["running"]["resolved"], d["running"]["ambiguous"])')"
check "zeroed addresses: says there is no symbol order" grep -q 'no symbol order' "$T/ks0.json"
check "kallsyms fixture: text prints the counts" grep -q '^  functions: 7 names, 5 resolved to a file (1 by symbol order), 1 ambiguous, 1 unknown' "$T/ks.txt"
# bad input: one line each, and no output file
printf 'not a kallsyms\n' >"$T/bad.ks"
for bad in "$T/bad.ks" "$T/nonexistent.ks"; do
	if "$KF" inventory --running --kallsyms "$bad" -o "$T/ks-bad.out" 2>"$T/bad.err"; then
		not_ok "--kallsyms $(basename "$bad"): accepted"
	else
		eq "--kallsyms $(basename "$bad"): one line" 1 "$(wc -l <"$T/bad.err")"
		check "--kallsyms $(basename "$bad"): kfootprint: --running: ..." grep -q '^kfootprint: --running: ' "$T/bad.err"
		check "--kallsyms $(basename "$bad"): no output file" test ! -e "$T/ks-bad.out"
	fi
done
if "$KF" inventory --kallsyms "$KS" --kernel-src "$TREE" --config "$CFG" >/dev/null 2>"$T/bad.err"; then
	not_ok "--kallsyms without --running: accepted"
else
	check "--kallsyms without --running: refused" grep -q '^kfootprint: --kallsyms goes with --running' "$T/bad.err"
fi

# This host: its vmlinux's functions through the built-in database, observed by the eventfd workload.
if grep -q ' [tT] eventfd_write$' /proc/kallsyms 2>/dev/null && [ "$(awk '$1 != "0000000000000000" { print; exit }' /proc/kallsyms)" ]; then
	"$KF" inventory --running -F json -o "$T/run.json" "$T/efd.json" 2>"$T/run.err"
	eq "running: fs/eventfd.c is compiled in and reached" "True" \
		"$(jget "$T/run.json" '[f["observed_by"].get("syscall", 0) > 0 for f in d["files"] if f["path"] == "fs/eventfd.c"][0]')"
	if grep -q ' [tT] unix_stream_connect$' /proc/kallsyms; then
		eq "running: net/unix/af_unix.c is listed (built in here)" "True" \
			"$(jget "$T/run.json" '"net/unix/af_unix.c" in [f["path"] for f in d["files"]]')"
	else
		skip "running: net/unix/af_unix.c" "this kernel has UNIX as a module (or not at all)"
	fi
	n=$(jget "$T/run.json" 'd["compiled"]["built_in"]["files"]')
	if [ "$n" -gt 1000 ]; then ok "running: $n files (the syscall files alone were ~300)"; else not_ok "running: only $n files"; fi
	eq "running: names = resolved + ambiguous + unknown" "True" \
		"$(jget "$T/run.json" 'd["running"]["names"] == d["running"]["resolved"] + d["running"]["ambiguous"] + d["running"]["unknown"] and d["running"]["resolved"] > 10000')"
	case "$(uname -r)" in
	6.1.*) eq "running: no version note on 6.1" "None" "$(jget "$T/run.json" 'd["running"]["note"]')" ;;
	*) check "running: says the running kernel is not the database's 6.1" grep -q "is not the database's 6.1" "$T/run.json" ;;
	esac
	"$KF" inventory --running --top 1 >"$T/run.txt" 2>&1
	check "running: text prints the counts" grep -Eq '^  functions: [0-9]+ names, [0-9]+ resolved to a file' "$T/run.txt"
else
	skip "inventory --running on this host" "/proc/kallsyms has no eventfd_write, or hides its addresses (kptr_restrict, not root)"
fi

# --- the real tree, with Debian's configuration --------------------------------------------------------------
dcfg=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
if ! src=$(ksrc_tree) || [ ! -r "$dcfg" ]; then
	skip "inventory on linux-source-6.1" "no tree ($KSRC_TARBALL missing: apt-get install linux-source-6.1) or no $dcfg (linux-config-6.1)"
	exit 0
fi
# the .xz itself, as Debian ships it (issue 23: it was read undecompressed, "not an x86 configuration")
"$KF" inventory --kernel-src "$src" --config "$dcfg" -F json -o "$T/real.json" "$T/efd.json" 2>"$T/real.err"
check "real tree: Debian's config.amd64_none_amd64.xz is read (no error)" test ! -s "$T/real.err"
eq "real tree: PACKET is a candidate" "True" "$(jget "$T/real.json" '"PACKET" in d["review_candidates"]["options"]')"
eq "real tree: EVENTFD is not" "False" "$(jget "$T/real.json" '"EVENTFD" in d["review_candidates"]["options"]')"
eq "real tree: EVENTFD observed by the syscall" "True" \
	"$(jget "$T/real.json" '[o["observed"] and o["observed_by"].get("syscall", 0) > 0 for o in d["options"] if o["name"] == "EVENTFD"][0]')"
n=$(jget "$T/real.json" 'd["compiled"]["built_in"]["files"]')
if [ "$n" -gt 2000 ] && [ "$n" -lt 3000 ]; then ok "real tree: $n built-in files (Debian's vmlinux has 2,352 units)"; else not_ok "real tree: $n built-in files"; fi
# SLOC against cloc, on C files (cloc's Assembly rule counts a .S file's #include and #define as comments)
if command -v cloc >/dev/null; then
	for f in fs/eventfd.c kernel/fork.c mm/mmap.c net/socket.c fs/open.c; do
		c=$(cloc --quiet --csv "$src/$f" 2>/dev/null | tail -n 1 | cut -d, -f5)
		k=$(jget "$T/real.json" "[x['sloc'] for x in d['files'] if x['path'] == '$f'][0]")
		eq "SLOC of $f equals cloc's code count" "$c" "$k"
	done
else
	skip "SLOC against cloc" "cloc is not installed (make deps)"
fi
