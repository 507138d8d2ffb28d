# Sourced by the guest scripts that record kernel functions (tests/guest/t/kfuncs_paths.sh,
# tests/guest/long/kfuncs_stop.sh): where tracefs is, what "the tracing state" is, and waiting for kfootprint's
# private instance.
TR=/sys/kernel/tracing

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
# wait_instance PIDFILE: until kfootprint's tracing instance exists (its set-up takes seconds under TCG)
wait_instance() {
	i=0
	while [ $i -lt 240 ] && ! [ -d "$TR/instances/kfootprint-$(cat "$1" 2>/dev/null)" ]; do
		sleep 0.5
		i=$((i + 1))
	done
}
