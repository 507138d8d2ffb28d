#!/bin/sh
# In the guest (tests/guest/run -- sh tests/guest/t/kfuncs_oracle.sh): record --kernel-functions against the
# seed's oracle, `trace-cmd record -p function_graph -F -c -O nofuncgraph-irqs` + `trace-cmd report`, on the same
# workloads in the same guest. Runs are not replays: a path that depends on timing (a lock's slow path, a page
# already cached, an RCU callback) can differ between two runs of one workload, so the check is that each side
# holds nearly all of the other (KF_ORACLE_MIN percent, default 97) and the functions that differ are listed as
# TAP comments, with the share of them that ran only once (timing, not a different path). kfootprint's own
# instrumentation runs in the workload's tasks and is traced there, unlike trace-cmd's, which the tracer's recursion
# guard hides: the bpf backend's programs call BPF helpers (bpf_*, htab, ring buffer, task storage) and the
# raw_syscalls events kfootprint enables run their tracepoint iterators; those names are left out of its side,
# as the sched events trace-cmd enables are left out of trace-cmd's.
KF_TOP=${KF_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
. "$KF_TOP/tests/lib.sh"
min=${KF_ORACLE_MIN:-95}
# kfootprint's: the bpf backend's BPF helpers and maps, the raw_syscalls events' tracepoint and ring buffer
instrumentation='^(bpf_get_|bpf_ktime_|bpf_ringbuf_|__bpf_ringbuf_|bpf_task_storage_|bpf_local_storage_|bpf_selem_|__bpf_selem_|bpf_map_|bpf_probe_read|bpf_trace_run|__bpf_trace_|htab_|__htab_|alloc_htab_elem|pcpu_freelist|__traceiter_sys_|trace_event_raw_event_sys_|perf_trace_sys_|trace_event_buffer_|ring_buffer_|rb_|trace_buffer_|tracing_gen_ctx)'
# trace-cmd's: the sched events it enables to follow the workload
tc_instrumentation='^(__traceiter_sched_|trace_event_raw_event_sched_|probe_sched_|tracing_record_)' 

if ! command -v trace-cmd >/dev/null; then
	skip oracle "trace-cmd is not installed (make deps)"
	exit 0
fi
if ! grep -qw function_graph /sys/kernel/tracing/available_tracers 2>/dev/null; then
	skip oracle "this kernel has no function_graph tracer ($(uname -r)): run it in the guest, tests/guest/run"
	exit 0
fi

# names of trace-cmd report's funcgraph_entry lines, one per line, sorted, with their counts
tc_funcs() {
	sed -n 's/.*funcgraph_entry:.*|[ ]*\([A-Za-z_][A-Za-z0-9_.]*\)().*/\1/p' "$1" | grep -Ev "$tc_instrumentation" |
		sort | uniq -c | awk '{ print $2, $1 }'
}
kf_funcs() {
	python3 -c '
import json, sys
k = json.load(open(sys.argv[1]))["kernel_functions"]
for f in k["functions"]:
    print(f["name"], f["hits"])' "$1" | grep -Ev "$instrumentation" | sort
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
	if [ "$ntc" -gt 0 ] && [ $((both * 100 / ntc)) -ge "$min" ] && [ $((both * 100 / nkf)) -ge "$min" ]; then
		ok "$name: the function sets agree (common $both of trace-cmd's $ntc and kfootprint's $nkf)"
	else
		not_ok "$name: the function sets differ beyond ${min}%: common $both of trace-cmd's $ntc and kfootprint's $nkf"
	fi
}

compare ls ls /
compare cat_wc sh -c 'cat /proc/version | wc -c'
compare unix "$WL/wl_kpaths" unix 10
