#!/bin/sh
# make check-long: record --kernel-lines=gcov in the measurement kernel `kfootprint tailor --measure kcov,gcov`
# builds (kcov and gcov in one kernel, cached by configuration in /var/cache/kfootprint/tailor: 15-30 minutes the
# first time, seconds after), booted by tests/guest/run --bzimage with the host's root (the build's .gcno files
# are read there). tests/guest/long/gcov_record.sh records in the guest; the checks here: eventfd's lines covered
# with counts, the counters reset before each run, gcov's lines containing kcov's for the same single-process
# workload in the same kernel, over one run and over two (kcov's symbolized by map --vmlinux), lcov --summary on the gcov tracefile, and the
# cost of each against untraced.
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1
if [ "$(id -u)" -ne 0 ] || ! command -v qemu-system-x86_64 >/dev/null || [ ! -r /usr/src/linux-source-6.1.tar.xz ] ||
	! command -v gcov >/dev/null; then
	skip gcov_guest "root, qemu-system-x86, gcc (gcov) and linux-source-6.1 are needed (make deps)"
	exit 0
fi
# the measurement kernel, built under the machine's kernel-build lock unless one is cached complete already
cache=${KF_TAILOR_CACHE:-/var/cache/kfootprint/tailor}
cached=
for c in "$cache"/kernels/*/.config; do
	[ -f "${c%/.config}/.kf-complete" ] && grep -qx CONFIG_KCOV_INSTRUMENT_ALL=y "$c" &&
		grep -qx CONFIG_GCOV_PROFILE_ALL=y "$c" && cached=1
done
if [ -n "$cached" ]; then
	nice -n 10 "$KF" tailor -o "$T/m" --measure kcov,gcov >"$T/measure.out" 2>"$T/measure.err"
else
	flock "$KF_KBUILD_LOCK" nice -n 10 "$KF" tailor -o "$T/m" --measure kcov,gcov >"$T/measure.out" 2>"$T/measure.err"
fi
eq "tailor --measure kcov,gcov: exit 0" 0 $?
m=$T/m/measure-kcov+gcov
for f in bzImage vmlinux .config fragment cmdline; do check "measure: -o DIR/measure-kcov+gcov holds $f" test -s "$m/$f"; done
[ -s "$m/bzImage" ] || { tail -n 20 "$T/measure.err" | sed 's/^/#   /'; exit 1; }
for o in KCOV KCOV_INSTRUMENT_ALL GCOV_KERNEL GCOV_PROFILE_ALL DEBUG_FS DEBUG_INFO 9P_FS; do
	check "measure: the .config has CONFIG_$o=y" grep -qx "CONFIG_$o=y" "$m/.config"
done
check "measure: the bzImage's path on stdout" grep -qx "$m/bzImage" "$T/measure.out"

g=$KF_TOP/$KF_BUILD/gcov-guest.$$
rm -rf "$g" && mkdir -p "$g" || exit 1
uptime | sed 's/^/# load before the guest: /'
tests/guest/run --bzimage "$m/bzImage" --append "$(cat "$m/cmdline")" --timeout 900 -- \
	sh tests/guest/long/gcov_record.sh "$g" "$KF" "$WL" >"$T/guest.out" 2>"$T/guest.err"
eq "guest: the recordings ran (tests/guest/run exit 0)" 0 $?
[ -f "$g/done" ] || { tail -n 20 "$T/guest.err" | sed 's/^/#   /'; rm -rf "$g"; exit 1; }
for n in plain kev gev gev2; do
	eq "$n: kfootprint exit 0" 0 "$(cat "$g/$n.rc")" || sed 's/^/#   /' "$g/$n.err"
done
check "gev: nothing said of kernel lines on stderr (gcov read)" sh -c "! grep -q 'kernel lines' '$g/gev.err'"
eq "gev: the footprint's kernel lines are gcov's, of the whole guest" "gcov True" \
	"$(jget "$g/gev.json" "'%s %s' % (d['kernel_lines']['method'], d['kernel_lines']['whole_guest'])")"

# eventfd's lines, with counts; and the counters reset: the second run's counts of fs/eventfd.c are its own
python3 - "$g/gev.json" "$g/gev2.json" >"$T/ev" <<'PY'
import json, sys
def ev(p):
    k = json.load(open(p))["kernel_lines"]
    return {(l["file"], l["line"]): (l["count"], l.get("function")) for l in k["lines"]}, len(k["lines"])
a, na = ev(sys.argv[1])
b, _ = ev(sys.argv[2])
fns = {f for (fl, _), (c, f) in a.items() if fl == "fs/eventfd.c" and c > 0}
top = max((c for (fl, _), (c, f) in a.items() if fl == "fs/eventfd.c"), default=0)
same = all(b.get(key, (None,))[0] == c for key, (c, f) in a.items() if key[0] == "fs/eventfd.c")
print(na, sum(1 for c, _ in a.values() if c > 0), int("eventfd_write" in fns), int("eventfd_read" in fns), top,
      int(same))
PY
read -r nlines nrun evw evr top same <"$T/ev"
echo "# gcov: $nlines lines of instrumented objects, $nrun run (whole guest); fs/eventfd.c's largest count $top"
eq "gev: a line of eventfd_write in fs/eventfd.c run" 1 "$evw"
eq "gev: a line of eventfd_read in fs/eventfd.c run" 1 "$evr"
check "gev: the counts are counts (fs/eventfd.c's largest > 1: $top)" test "$top" -gt 1
eq "gev2: reset before the run: fs/eventfd.c's counts as the first run's, not their sum" 1 "$same"

# gcov's lines contain kcov's for one single-process workload in the same kernel (kcov's by map --vmlinux; the
# split and the reading of a lone `{` in tests/long/gcov_contain.py): over ONE run (one: kcov's recording inside
# gcov's, the checks), and over two runs of the same command (kev, gev: information). Of kcov's lines on lines
# gcov counts, 6% have count 0 in the same run, as over two: DWARF's line of a kcov hook in optimized code, where
# gcc merged blocks after gcov counted them (a shared `return;`; lines of an inlined v9fs_get_inode_from_fid
# that gcov never saw entered), not runs gcov missed: nearly half are a return, a goto or a brace, and by
# function the two agree to 1%.
ksrc=$(ksrc_tree) || ksrc=
contain() { # NAME KCOV-JSON GCOV-JSON: $T/NAME.contain
	"$KF" map --vmlinux "$m/vmlinux" --save-lines "$T/$1.sym.json" "$2" >/dev/null 2>"$T/$1.map.err"
	eq "$1: map --vmlinux of kcov's recording: exit 0" 0 $?
	python3 tests/long/gcov_contain.py "$T/$1.sym.json" "$3" "${ksrc:-/nonexistent}" >"$T/$1.contain"
	read -r nkc nuninst nlisted nrun nzero nunlisted ratio nfn nflisted nfrun fratio <"$T/$1.contain"
	echo "# $1: kcov's lines $nkc: in objects without gcov's counters $nuninst, on lines gcov counts $nlisted (run $nrun, count 0 $nzero: $ratio), on lines gcov has no counter for $nunlisted; functions $nfn, gcov lists $nflisted, runs $nfrun ($fratio)"
	echo "# $1: kcov's functions gcov ran no line of: $(sed -n 4p "$T/$1.contain")"
	echo "# $1: kcov's lines gcov counted 0: $(sed -n 2p "$T/$1.contain" | cut -c1-600)"
	echo "# $1: kcov's lines without a gcov counter, by file: $(sed -n 3p "$T/$1.contain")"
}
eq "one: kcov's recording inside gcov's: both exit 0" "0 0" "$(cat "$g/one.rc") $(cat "$g/one.gcov.rc")" ||
	sed 's/^/#   /' "$g/one.err" "$g/one.gcov.err"
eq "one: gcov's recording by -p, the whole guest's" "gcov True" \
	"$(jget "$g/one.gcov.json" "'%s %s' % (d['kernel_lines']['method'], d['kernel_lines']['whole_guest'])")"
contain one "$g/one.json" "$g/one.gcov.json"
read -r _ _ _ _ _ _ ratio _ _ _ fratio <"$T/one.contain"
check "one run: gcov's run lines contain kcov's on the lines gcov counts, >= 0.92 ($ratio)" \
	python3 -c "import sys; sys.exit(0 if float('$ratio') >= 0.92 else 1)"
check "one run: gcov ran a line of kcov's functions that it lists, >= 0.98 ($fratio)" \
	python3 -c "import sys; sys.exit(0 if float('$fratio') >= 0.98 else 1)"
contain two "$g/kev.json" "$g/gev.json"

# lcov's own tool reads the gcov tracefile, which carries the counts and says whose they are
if command -v lcov >/dev/null; then
	"$KF" map -F lcov --vmlinux "$m/vmlinux" ${ksrc:+--source-root "$ksrc"} "$g/gev.json" >"$T/gev.info" 2>"$T/gev.lcov.err"
	eq "map -F lcov of gcov's recording: exit 0" 0 $?
	check "the tracefile's test name says the whole guest" grep -qx 'TN:kfootprint_gcov_counts_of_the_whole_guest_not_the_workload_alone' "$T/gev.info"
	check "the tracefile carries counts (a DA count > 1)" grep -qE '^DA:[0-9]+,([2-9]|[1-9][0-9]+)$' "$T/gev.info"
	lcov --summary "$T/gev.info" >"$T/lcov.sum" 2>&1
	eq "lcov --summary reads it" 0 $?
	check "lcov --summary: lines covered" grep -qE 'lines\.+: [0-9.]+% \([1-9][0-9]* of [0-9]+ lines\)' "$T/lcov.sum"
	sed 's/^/# /' "$T/lcov.sum"
else
	skip "gcov_guest: lcov" "lcov is needed"
fi
# the cost, in the guest, one run each
python3 - "$g" <<'PY'
import sys
ms = {n: int(open("%s/%s.ns" % (sys.argv[1], n)).read()) / 1e6 for n in ("untraced", "plain", "kev", "gev", "gev2")}
print("# wall ms in the guest: untraced %.1f, ptrace %.1f, kcov %.1f, gcov %.1f and %.1f (gcov/kcov %.1f)" % (
    ms["untraced"], ms["plain"], ms["kev"], ms["gev"], ms["gev2"], ms["gev"] / ms["kev"]))
PY
[ -n "${KF_KEEP:-}" ] || rm -rf "$g"
