#!/bin/sh
# In the guest (make check-long: tests/long/kfuncs_guest.sh boots one for it; by hand: tests/guest/run -- sh
# tests/guest/long/kfuncs_oracle.sh): record --kernel-functions against the seed's oracle, `trace-cmd record -p
# function_graph -F -c -O nofuncgraph-irqs` + `trace-cmd report`, on the same workloads in the same guest. Too
# long for the guest suite (tests/guest/t): under TCG each trace-cmd run takes a minute.
#
# Runs are not replays: a path that depends on timing (a lock's slow path, a page already cached, an RCU callback,
# a timer) can differ between two runs of one workload, so the check is that each side holds nearly all of the
# other (KF_ORACLE_MIN percent, default 95) and the functions that differ are listed as TAP comments, with how
# many of them ran only once. Each side's own instrumentation runs in the workload's tasks: kfootprint's bpf
# backend calls BPF helpers (bpf_*, htab, ring buffer, task storage) and the raw_syscalls events it enables run
# their tracepoint; trace-cmd enables sched events. Those names are left out of each side. What remains are
# differences of the runs themselves: kfootprint's workload is held on a pipe before its execve and runs in a
# cgroup of its own (pipe_read, cgroup_* at exit), trace-cmd's child has its own set-up, and timing.
KF_TOP=${KF_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
. "$KF_TOP/tests/lib.sh"
min=${KF_ORACLE_MIN:-95}
# KF_ORACLE_KEEP=DIR (a directory the guest can write: under the current directory): each workload's function
# lists with their hits (NAME.tc, NAME.kf) and the names only one side has (NAME.only.tc, NAME.only.kf) are copied
# there, whole, for explaining every difference (the TAP comments show the first 600 characters)
keep=${KF_ORACLE_KEEP:-}
# kfootprint's: the bpf backend's BPF helpers, maps and sched tracepoints, the raw_syscalls events' tracepoint and
# ring buffer
instrumentation='^(bpf_get_|bpf_ktime_|bpf_ringbuf_|__bpf_ringbuf_|bpf_task_storage_|bpf_local_storage_|bpf_selem_|__bpf_selem_|bpf_map_|bpf_probe_read|bpf_trace_run|__bpf_trace_|htab_|__htab_|alloc_htab_elem|pcpu_freelist|__traceiter_sys_|__traceiter_sched_|trace_event_raw_event_sys_|perf_trace_sys_|trace_event_buffer_|ring_buffer_|rb_|trace_buffer_|tracing_gen_ctx)'
# trace-cmd's: the sched events it enables to follow the workload. Both lists are left out of both sides: a name
# of one runs without it too (bpf_task_storage_free at every task's end), and would show as the other's alone.
tc_instrumentation='^(__traceiter_sched_|trace_event_raw_event_sched_|probe_sched_|tracing_record_)' 

if ! command -v trace-cmd >/dev/null; then
	skip oracle "trace-cmd is not installed (make deps)"
	exit 0
fi
if ! grep -qw function_graph /sys/kernel/tracing/available_tracers 2>/dev/null; then
	skip oracle "this kernel has no function_graph tracer ($(uname -r)): run it in the guest, tests/guest/run"
	exit 0
fi

# NAME HITS lines with aliases (names of one address in /proc/kallsyms: __x64_sys_rt_sigreturn and
# __do_sys_rt_sigreturn) under one name, the smallest, hits summed. Which alias each side prints is a choice of
# its own (trace-cmd report's is libtraceevent's sort of equal addresses): a name is one function only when its
# address is. A name at several addresses (a static defined in several files) stays as it is.
canon() {
	awk 'NR == FNR {
		if ($2 !~ /^[tTwW]$/) next
		if (($3 in at) && at[$3] != $1) many[$3] = 1
		at[$3] = $1
		if (!($1 in low) || $3 < low[$1]) low[$1] = $3
		next
	}
	{ n = ($1 in at && !($1 in many)) ? low[at[$1]] : $1; h[n] += $2 }
	END { for (n in h) print n, h[n] }' /proc/kallsyms - | sort
}

# names of trace-cmd report's funcgraph_entry lines, one per line, sorted, with their counts
tc_funcs() {
	sed -n 's/.*funcgraph_entry:.*|[ ]*\([A-Za-z_][A-Za-z0-9_.]*\)().*/\1/p' "$1" | grep -Ev "$instrumentation|$tc_instrumentation" |
		sort | uniq -c | awk '{ print $2, $1 }' | canon
}
kf_funcs() {
	python3 -c '
import json, sys
k = json.load(open(sys.argv[1]))["kernel_functions"]
for f in k["functions"]:
    print(f["name"], f["hits"])' "$1" | grep -Ev "$instrumentation|$tc_instrumentation" | canon
}

compare() { # NAME WORKLOAD...
	name=$1; shift
	"$@" >/dev/null 2>&1 # warm the caches: both runs then take the same paths
	trace-cmd record -q -p function_graph -F -c -O nofuncgraph-irqs -o "$T/$name.dat" "$@" >/dev/null 2>"$T/$name.tc.err" ||
		{ not_ok "$name: trace-cmd record failed: $(tail -1 "$T/$name.tc.err")"; return; }
	trace-cmd report -i "$T/$name.dat" >"$T/$name.txt" 2>/dev/null
	tc_funcs "$T/$name.txt" >"$T/$name.tc"
	"$KF" -q --kernel-functions -o "$T/$name.json" --report /dev/null -- "$@" >/dev/null 2>"$T/$name.kf.err" ||
		{ not_ok "$name: kfootprint failed: $(tail -1 "$T/$name.kf.err")"; return; }
	eq "$name: kernel functions complete, none lost" "0 True" "$(jget "$T/$name.json" 'd["kernel_functions"]["lost"], d["complete"]' | tr -d '(),')"
	kf_funcs "$T/$name.json" >"$T/$name.kf"
	cut -d' ' -f1 "$T/$name.tc" >"$T/$name.tc.set"
	cut -d' ' -f1 "$T/$name.kf" >"$T/$name.kf.set"
	both=$(comm -12 "$T/$name.tc.set" "$T/$name.kf.set" | wc -l)
	ntc=$(wc -l <"$T/$name.tc.set") nkf=$(wc -l <"$T/$name.kf.set")
	echo "# $name: trace-cmd $ntc functions, kfootprint $nkf, common $both"
	for side in tc kf; do
		other=kf; [ $side = kf ] && other=tc
		comm -23 "$T/$name.$side.set" "$T/$name.$other.set" >"$T/$name.only.$side"
		once=$(join "$T/$name.only.$side" "$T/$name.$side" | awk '$2 == 1' | wc -l)
		echo "# $name: only in $([ $side = tc ] && echo trace-cmd || echo kfootprint): $(wc -l <"$T/$name.only.$side") ($once of them called once): $(head -c 600 "$T/$name.only.$side" | tr '\n' ' ')"
	done
	[ -z "$keep" ] || { mkdir -p "$keep" && cp "$T/$name.tc" "$T/$name.kf" "$T/$name.only.tc" "$T/$name.only.kf" "$keep/"; }
	if [ "$ntc" -gt 0 ] && [ $((both * 100 / ntc)) -ge "$min" ] && [ $((both * 100 / nkf)) -ge "$min" ]; then
		ok "$name: the function sets agree (common $both of trace-cmd's $ntc and kfootprint's $nkf)"
	else
		not_ok "$name: the function sets differ beyond ${min}%: common $both of trace-cmd's $ntc and kfootprint's $nkf"
	fi
}

compare ls ls /
compare cat_wc sh -c 'cat /proc/version | wc -c'
compare unix "$WL/wl_kpaths" unix 10
