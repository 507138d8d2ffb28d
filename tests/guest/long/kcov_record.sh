#!/bin/sh
# In the guest booted with tailor --measure kcov's kernel (tests/long/kcov_guest.sh runs it): the recordings the
# host then checks against the vmlinux (addr2line, nm), into DIR (under the writable current directory).
# NAME.pcs is --kernel-lines-pcs's file, NAME.err kfootprint's stderr, NAME.rc its exit status.
dir=$1 kf=$2 wl=$3
rec() { # NAME KFOOTPRINT-OPTIONS... -- COMMAND...
	n=$1
	shift
	"$kf" -q -b ptrace --report /dev/null -o "$dir/$n.json" "$@" >"$dir/$n.out" 2>"$dir/$n.err"
	echo $? >"$dir/$n.rc"
}
grep ' _text$' /proc/kallsyms >"$dir/kallsyms.text"
# what the function tracers can see at all (lib/ is built without their hooks, entry code is noinstr)
cut -d' ' -f1 /sys/kernel/tracing/available_filter_functions | sort -u >"$dir/traceable"
# eventfd; and the same workload under --kernel-functions alone, the oracle (not in the same run: the function
# tracer's callbacks run in the task and kcov would cover them)
rec ev --kernel-lines --kernel-lines-pcs "$dir/ev.pcs" -- "$wl/wl_kpaths" eventfd 3
rec evfn --kernel-functions -- "$wl/wl_kpaths" eventfd 3
# the same calls on a bad fd and on an open one: their EBADF branches
rec bfd --kernel-lines --kernel-lines-pcs "$dir/bfd.pcs" -- "$wl/wl_kpaths" badfd 3
rec gfd --kernel-lines --kernel-lines-pcs "$dir/gfd.pcs" -- "$wl/wl_kpaths" goodfd 3
# a busy process beside the workload, reading /proc/uptime in a loop; and what that read covers on its own
sh -c 'while :; do cat /proc/uptime; done >/dev/null 2>&1' &
busy=$!
sleep 1
rec busy --kernel-lines --kernel-lines-pcs "$dir/busy.pcs" -- "$wl/wl_kpaths" eventfd 3
kill $busy
wait $busy 2>/dev/null
rec up --kernel-lines --kernel-lines-pcs "$dir/up.pcs" -- cat /proc/uptime
# fork + vfork + exec: three processes
rec fe --kernel-lines --kernel-lines-pcs "$dir/fe.pcs" -- "$wl/wl_forkexec"
# threads: each is enabled at its first stop too
rec th --kernel-lines --kernel-lines-pcs "$dir/th.pcs" -- "$wl/wl_threads"
# an area of 512 PCs (the least: a page): it overflows, counted as loss
rec ov --kernel-lines --kernel-lines-area 512 --kernel-lines-pcs "$dir/ov.pcs" -- true
# the rest of the recording with kcov asked for: the syscalls as without it
rec plain -- "$wl/wl_kpaths" eventfd 3
# -p: kcov refused, the rest recorded; the sleeper attached to for a second
sleep 30 &
sl=$!
rec att --kernel-lines -d 1 -p $sl
kill $sl
wait $sl 2>/dev/null
: >"$dir/done"
