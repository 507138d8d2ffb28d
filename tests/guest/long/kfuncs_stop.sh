#!/bin/sh
# In the guest (make check-long: tests/long/kfuncs_guest.sh), where the kernel traces functions: the tracing state
# is the same before and after a Ctrl-C and a -d expiry of kfootprint --kernel-functions, and the footprint of a
# -d run keeps the functions recorded until then. (A run and a SIGKILL: tests/guest/t/kfuncs_paths.sh.)
KF_TOP=${KF_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
. "$KF_TOP/tests/lib.sh"
TR=/sys/kernel/tracing

if ! grep -qw function $TR/available_tracers 2>/dev/null; then
	skip kfuncs_stop "this kernel cannot trace functions ($(uname -r)): run it in the guest, tests/guest/run"
	exit 0
fi
# state: every file of the top instance a run could touch, and the instances. The top buffer is allocated small at
# boot and expanded by the kernel the first time any tracer or instance is used ("7 (expanded: 1408)" becomes
# "1410", rounded up to pages): once per boot, whoever comes first, trace-cmd as well; compared in 16 KB units.
state() {
	ls $TR/instances
	printf 'buffer_size_kb: %s\n' "$(sed 's/.*(expanded: \([0-9]*\))/\1/' $TR/buffer_size_kb | awk '{ print int(($1 + 8) / 16) * 16 }')"
	for f in current_tracer set_ftrace_pid set_event_pid tracing_on trace_clock set_ftrace_filter \
		set_ftrace_notrace set_event options/function-fork options/event-fork options/funcgraph-irqs \
		events/raw_syscalls/sys_enter/enable events/raw_syscalls/sys_exit/enable; do
		printf '%s: %s\n' "$f" "$(head -c 400 $TR/$f 2>&1 | tr '\n' ' ')"
	done
	grep -c . $TR/enabled_functions
}
before=$(state)
# wait_instance PIDFILE: until kfootprint's tracing instance exists (its set-up takes seconds under TCG)
wait_instance() {
	i=0
	while [ $i -lt 240 ] && ! [ -d "$TR/instances/kfootprint-$(cat "$1" 2>/dev/null)" ]; do
		sleep 0.5
		i=$((i + 1))
	done
}

sh -c 'echo $$ >"$0"; exec "$@"' "$T/int.pid" "$KF" -q --kernel-functions --report /dev/null -- sleep 60 2>/dev/null &
wait_instance "$T/int.pid"
sleep 1
kill -INT "$(cat "$T/int.pid")"
wait $!
eq "Ctrl-C: exit status of the interrupted workload" 143 "$?"
eq "Ctrl-C: tracing state as before" "$before" "$(state)"
"$KF" -q -d 5 --kernel-functions -o "$T/d.json" --report /dev/null -- sleep 60 2>/dev/null
eq "-d: kernel functions of an incomplete footprint (sleep's nanosleep)" "False True" \
	"$(jget "$T/d.json" "d['complete'], any(f['name'] == 'hrtimer_nanosleep' for f in d['kernel_functions']['functions'])" | tr -d '(),')"
eq "-d: tracing state as before" "$before" "$(state)"
