#!/bin/sh
# make check-long: record --kernel-lines (kcov) in the measurement kernel `kfootprint tailor --measure kcov` builds
# (cached by configuration in /var/cache/kfootprint/tailor: minutes the first time, seconds after), booted by
# tests/guest/run --bzimage with the host's root. tests/guest/long/kcov_record.sh records in the guest; the checks
# here read its files with the vmlinux as the oracle (binutils' addr2line and nm, kcov's PC less 1: the return
# address of the call to __sanitizer_cov_trace_pc): eventfd's lines, an EBADF branch never taken, task scoping
# (a busy process beside adds nothing; fork, vfork and exec: three tasks covered; threads), an overflowed area as
# loss, -p refused, and the functions of the covered PCs against --kernel-functions in the same run.
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1
if [ "$(id -u)" -ne 0 ] || ! command -v qemu-system-x86_64 >/dev/null || [ ! -r /usr/src/linux-source-6.1.tar.xz ] ||
	! command -v addr2line >/dev/null; then
	skip kcov_guest "root, qemu-system-x86, binutils and linux-source-6.1 are needed (make deps)"
	exit 0
fi
# the measurement kernel, built under the machine's kernel-build lock; one cached already (a complete build with
# kcov) builds nothing, and then does not wait for another's build to end
cache=${KF_TAILOR_CACHE:-/var/cache/kfootprint/tailor}
cached=
for c in "$cache"/kernels/*/.config; do
	# kcov alone: gcov_guest.sh's kernel (kcov,gcov) has it too, and is another configuration
	[ -f "${c%/.config}/.kf-complete" ] && grep -qx CONFIG_KCOV_INSTRUMENT_ALL=y "$c" &&
		! grep -qx CONFIG_GCOV_KERNEL=y "$c" && cached=1
done
if [ -n "$cached" ]; then
	nice -n 10 "$KF" tailor -o "$T/m" --measure kcov >"$T/measure.out" 2>"$T/measure.err"
else
	flock "$KF_KBUILD_LOCK" nice -n 10 "$KF" tailor -o "$T/m" --measure kcov >"$T/measure.out" 2>"$T/measure.err"
fi
eq "tailor --measure kcov: exit 0" 0 $?
m=$T/m/measure-kcov
for f in bzImage vmlinux .config fragment cmdline; do check "measure: -o DIR/measure-kcov holds $f" test -s "$m/$f"; done
[ -s "$m/bzImage" ] || { tail -n 20 "$T/measure.err" | sed 's/^/#   /'; exit 1; }
for o in KCOV KCOV_INSTRUMENT_ALL DEBUG_FS DEBUG_INFO FUNCTION_GRAPH_TRACER 9P_FS; do
	check "measure: the .config has CONFIG_$o=y" grep -qx "CONFIG_$o=y" "$m/.config"
done
check "measure: the boot line says nokaslr" grep -qx nokaslr "$m/cmdline"
check "measure: the bzImage's path on stdout" grep -qx "$m/bzImage" "$T/measure.out"

# the guest writes under the current directory (its /tmp is its own)
g=$KF_TOP/$KF_BUILD/kcov-guest.$$
rm -rf "$g" && mkdir -p "$g" || exit 1
tests/guest/run --bzimage "$m/bzImage" --append "$(cat "$m/cmdline")" --timeout 900 -- \
	sh tests/guest/long/kcov_record.sh "$g" "$KF" "$WL" >"$T/guest.out" 2>"$T/guest.err"
rc=$?
eq "guest: the recordings ran (tests/guest/run exit 0)" 0 $rc
[ -f "$g/done" ] || { tail -n 20 "$T/guest.err" | sed 's/^/#   /'; rm -rf "$g"; exit 1; }
for n in ev evfn bfd gfd busy up fe th ov plain att; do
	eq "$n: kfootprint exit 0" 0 "$(cat "$g/$n.rc")" || sed 's/^/#   /' "$g/$n.err"
done
check "runtime _text as nokaslr puts it" grep -q '^ffffffff81000000 T _text' "$g/kallsyms.text"

# lines: FILE.pcs -> FILE.lines "function file:line" per distinct PC (pc - 1), file relative to the tree
lines() {
	awk '$1 == "pc" { print $2 }' "$g/$1.pcs" | python3 -c '
import sys
for l in sys.stdin: print("%x" % (int(l, 16) - 1))' | addr2line -f -e "$m/vmlinux" | paste - - |
		sed -e 's|\t[^\t]*/linux-source-6.1/|\t|' -e 's/ (discriminator [0-9]*)$//' >"$T/$1.lines"
}
lines ev
for f in eventfd_write eventfd_read; do
	check "ev: a covered PC on a line of $f in fs/eventfd.c" grep -qE "^$f	fs/eventfd.c:[0-9]+" "$T/ev.lines"
done
# symbols: FILE.pcs -> FILE.syms, the ELF function (nm) holding each PC, with the PC: what function tracers see
nm -n "$m/vmlinux" | awk '$2 ~ /^[tTwW]$/ { print $1, $3 }' >"$T/nm"
syms() {
	awk '$1 == "pc" { print $2 }' "$g/$1.pcs" | python3 -c '
import bisect, sys
syms = [(int(a, 16), n) for a, n in (l.split() for l in open(sys.argv[1]))]
addrs = [a for a, _ in syms]
for l in sys.stdin:
    i = bisect.bisect_right(addrs, int(l, 16) - 1) - 1
    if i >= 0: print(syms[i][1], l.strip())' "$T/nm" >"$T/$1.syms"
}
for n in ev busy up bfd gfd; do syms $n; done
# EBADF branches: the same six calls (dup, fstat, lseek, fcntl, pread64, ioctl) on 999 (badfd) and on an open
# eventfd (goodfd). The PCs only the bad run covers are their EBADF branches as kcov can tell them: gcc folds most
# (close's `return -EBADF;`, fcntl's `goto out`) into the block they join, with no PC of their own, and the one
# dup keeps sits on an inlined line (rcu_read_unlock's) that the good run covers elsewhere: PCs, not lines, tell
# them apart. The eventfd workload, which makes no call on a bad fd, covers none of those in the calls' code.
python3 - "$T/bfd.syms" "$T/gfd.syms" "$T/ev.syms" >"$T/ebadf" <<'PY'
import sys
def pcs(p):
    return {l.split()[1]: l.split()[0] for l in open(p)}
bad, good, ev = (pcs(p) for p in sys.argv[1:4])
only = {pc: fn for pc, fn in bad.items() if pc not in good}
calls = ("dup", "fstat", "newfstat", "lseek", "fcntl", "pread64", "ioctl")
# the rest of what differs is the exit's mm teardown, which varies from run to run
mine = {pc for pc, fn in only.items() if fn.startswith("__x64_sys_") and fn[len("__x64_sys_"):] in calls}
named = sorted({only[pc] for pc in mine})
print(len(only), len(named), len(mine & set(ev)))
print(" ".join("%s %s" % (fn, pc) for pc, fn in sorted(only.items())))
print(" ".join(named))
PY
read -r nebadf nnamed nev <"$T/ebadf"
echo "# EBADF branches kcov tells apart: $nebadf PCs: $(sed -n 2p "$T/ebadf" | cut -c1-600)"
check "badfd: PCs only calls on a bad fd cover, in the calls' own code ($nebadf, in $(sed -n 3p "$T/ebadf"))" \
	test "$nnamed" -gt 0
eq "ev (no call on a bad fd): none of those EBADF PCs covered" 0 "$nev"
check "up (cat /proc/uptime): uptime_proc_show covered (the control)" grep -q '^uptime_proc_show ' "$T/up.syms"
check "busy: the /proc/uptime loop beside the workload adds nothing of it" sh -c "! grep -q '^uptime_proc_show ' '$T/busy.syms'"
eq "busy: one task, the workload's" 1 "$(grep -c '^task ' "$g/busy.pcs")"
eq "fe: three tasks (fork, vfork, exec), all covered" "3 3" \
	"$(grep -c '^task ' "$g/fe.pcs") $(grep -c '^task .* covered ' "$g/fe.pcs")"
eq "th: five tasks (four threads), all covered" "5 5" \
	"$(grep -c '^task ' "$g/th.pcs") $(grep -c '^task .* covered ' "$g/th.pcs")"
check "ov: the area of 512 overflowed: loss counted" grep -qE '^#.* lost [1-9]' "$g/ov.pcs"
check "ov: and said on stderr" grep -q 'kernel lines: .*overflowed' "$g/ov.err"
eq "plain: the syscalls as with kcov asked for (eventfd2 calls)" \
	"$(jget "$g/plain.json" "sum(s['calls'] for s in d['syscalls'] if s['name'] == 'eventfd2')")" \
	"$(jget "$g/ev.json" "sum(s['calls'] for s in d['syscalls'] if s['name'] == 'eventfd2')")"

# the oracle: the functions (ELF symbols) holding covered PCs against --kernel-functions of the same workload
python3 - "$T/ev.syms" "$g/evfn.json" "$g/traceable" >"$T/oracle" 2>"$T/untraceable" <<'PY'
import json, sys
traceable = {l.strip() for l in open(sys.argv[3])}
kc_all = {l.split()[0] for l in open(sys.argv[1])}
kc = kc_all & traceable  # the rest: lib/ (built without ftrace's hooks), noinstr entry code
print(len(kc_all - kc), file=sys.stderr)
graph = {f["name"] for f in json.load(open(sys.argv[2]))["kernel_functions"]["functions"]}
both = kc & graph
print(len(kc), len(graph), len(both), "%.4f" % (len(both) / max(1, len(kc))))
print(" ".join(sorted(kc - graph)))
PY
read -r nkc ngr nboth ratio <"$T/oracle"
echo "# oracle: kcov's functions that ftrace can trace $nkc ($(cat "$T/untraceable") more it cannot: lib/, noinstr), --kernel-functions' $ngr, common $nboth, ratio $ratio; kcov's alone: $(sed -n 2p "$T/oracle" | cut -c1-900)"
check "oracle: functions of covered PCs within --kernel-functions's >= 0.98 ($ratio)" \
	python3 -c "import sys; sys.exit(0 if float('$ratio') >= 0.98 else 1)"
# kfootprint's own symbolization of the same recording (map --vmlinux, src/kdwarf/klines.c) against addr2line's
"$KF" map --vmlinux "$m/vmlinux" --save-lines "$T/ev.sym.json" "$g/ev.json" >"$T/ev.map" 2>"$T/ev.map.err"
eq "map --vmlinux: exit 0" 0 $?
check "map: the kernel lines section, kcov's" grep -q '^Kernel lines (kcov' "$T/ev.map"
python3 - "$T/ev.sym.json" "$T/ev.lines" >"$T/sym.cmp" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))["kernel_lines"]
ours = {(l["file"], l["line"]) for l in k["lines"]}
a2l = set()
for l in open(sys.argv[2]):
    fn, _, where = l.rstrip("\n").partition("\t")
    f, _, n = where.rpartition(":")
    if n.isdigit() and int(n) > 0:
        a2l.add((f, int(n)))
fns = {l.get("function") for l in k["lines"] if l["file"] == "fs/eventfd.c"}
print(len(ours), len(a2l), len(ours & a2l), "%.4f" % (len(ours & a2l) / max(1, len(a2l))),
      int("eventfd_write" in fns and "eventfd_read" in fns))
PY
read -r nours na2l nboth sratio evfns <"$T/sym.cmp"
echo "# symbolization: kfootprint's lines $nours, addr2line's $na2l, common $nboth ($sratio of addr2line's)"
check "map: kfootprint's lines hold >= 0.99 of addr2line's for the same PCs ($sratio)" \
	python3 -c "import sys; sys.exit(0 if float('$sratio') >= 0.99 else 1)"
eq "map: fs/eventfd.c lines named eventfd_write and eventfd_read" 1 "$evfns"
# lcov's own tools read the tracefile
ksrc=$(ksrc_tree) || ksrc=
if [ -n "$ksrc" ] && [ -d "$ksrc/fs" ] && command -v lcov >/dev/null && command -v genhtml >/dev/null; then
	"$KF" map -F lcov --vmlinux "$m/vmlinux" --source-root "$ksrc" "$g/ev.json" >"$T/ev.info" 2>"$T/ev.lcov.err"
	eq "map -F lcov: exit 0" 0 $?
	lcov --summary "$T/ev.info" >"$T/lcov.sum" 2>&1
	eq "lcov --summary reads it" 0 $?
	check "lcov --summary: lines covered" grep -qE 'lines\.+: [0-9.]+% \([1-9][0-9]* of [0-9]+ lines\)' "$T/lcov.sum"
	genhtml -q -o "$T/html" "$T/ev.info" >"$T/genhtml.out" 2>&1
	eq "genhtml makes the coverage pages" 0 $?
	check "genhtml: fs/eventfd.c's page" test -s "$T/html/fs/eventfd.c.gcov.html"
else
	skip "kcov_guest: lcov" "lcov and the extracted linux-source-6.1 tree are needed"
fi
# a vmlinux with DWARF that is not the recorded kernel (Debian's -dbg one): one line, refused
for k in /usr/lib/debug/boot/vmlinux-6.1.*-amd64; do
	[ -f "$k" ] && other=$k
done
if [ -n "${other:-}" ]; then
	"$KF" map --vmlinux "$other" "$g/ev.json" >"$T/other.out" 2>"$T/other.err"
	check "map --vmlinux of another kernel: refused" test $? -ne 0
	eq "map --vmlinux of another kernel: one line" 1 "$(wc -l <"$T/other.err")"
	check "map --vmlinux of another kernel: says the build id" grep -q 'build id' "$T/other.err"
	check "map --vmlinux of another kernel: nothing on stdout" test ! -s "$T/other.out"
else
	skip "kcov_guest: another kernel's vmlinux" "no debug vmlinux of Debian's (apt-get install linux-image-6.1.0-*-amd64-dbg)"
fi
# kcov with -p: refused with one line (only a task can turn its own kcov off), the rest recorded
eq "att (-p): one line on stderr of kernel lines" 1 "$(grep -c 'kernel lines' "$g/att.err")"
check "att (-p): it says kcov needs a command" grep -q '^kfootprint: kernel lines: -p: kcov' "$g/att.err"
eq "att (-p): the footprint says why not, and has its process" "True 1" \
	"$(jget "$g/att.json" "'%s %d' % ('-p: kcov' in (d['kernel_lines'].get('why_not') or ''), len(d['processes']))")"
[ -n "${KF_KEEP:-}" ] || rm -rf "$g"
