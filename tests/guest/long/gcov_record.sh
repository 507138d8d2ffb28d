#!/bin/sh
# In the guest booted with tailor --measure kcov,gcov's kernel (tests/long/gcov_guest.sh runs it): the same
# single-process workload recorded with gcov's counts and with kcov's PCs in the one kernel, the host then
# compares; and each run's wall time (NAME.ns), untraced beside, for the cost. NAME.json the footprint, NAME.err
# kfootprint's stderr, NAME.rc its exit status; into DIR (under the writable current directory).
dir=$1 kf=$2 wl=$3
now() { date +%s%N; }
rec() { # NAME KFOOTPRINT-OPTIONS... -- COMMAND...
	n=$1
	shift
	t0=$(now)
	"$kf" -q -b ptrace --report /dev/null -o "$dir/$n.json" "$@" >"$dir/$n.out" 2>"$dir/$n.err"
	echo $? >"$dir/$n.rc"
	echo $(($(now) - t0)) >"$dir/$n.ns"
}
grep ' _text$' /proc/kallsyms >"$dir/kallsyms.text"
ls /sys/kernel/debug/gcov >"$dir/gcov.ls" 2>&1
t0=$(now)
"$wl/wl_kpaths" eventfd 3 >/dev/null 2>&1
echo $(($(now) - t0)) >"$dir/untraced.ns"
rec plain -- "$wl/wl_kpaths" eventfd 3
rec kev --kernel-lines --kernel-lines-pcs "$dir/kev.pcs" -- "$wl/wl_kpaths" eventfd 3
rec gev --kernel-lines=gcov -- "$wl/wl_kpaths" eventfd 3
# a second gcov run: the counters were reset, so its counts are of this run, not the sum of both
rec gev2 --kernel-lines=gcov -- "$wl/wl_kpaths" eventfd 3
# kcov and gcov over one run: gcov's counters reset, then kcov's recording of the workload, then gcov's read. The
# gcov recording attaches (-p) to a waiter, whose end (exit 0) ends it; it has reset the counters once the
# waiter is traced (TracerPid).
sh -c "while [ ! -e '$dir/one.stop' ]; do sleep 0.1; done" &
sl=$!
"$kf" -q -b ptrace --report /dev/null -o "$dir/one.gcov.json" --kernel-lines=gcov -p $sl \
	>"$dir/one.gcov.out" 2>"$dir/one.gcov.err" &
gc=$!
i=0
while [ $i -lt 300 ] && [ "$(awk '/^TracerPid:/ { print $2 }' /proc/$sl/status 2>/dev/null)" = 0 ]; do
	sleep 0.1
	i=$((i + 1))
done
rec one --kernel-lines --kernel-lines-pcs "$dir/one.pcs" -- "$wl/wl_kpaths" eventfd 3
: >"$dir/one.stop"
wait $gc
echo $? >"$dir/one.gcov.rc"
: >"$dir/done"
