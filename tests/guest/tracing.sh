# Sourced by the guest scripts that record kernel functions (tests/guest/t/kfuncs_paths.sh,
# tests/guest/long/kfuncs_stop.sh): where tracefs is, what "the tracing state" is, and waiting for kfootprint's
# private instance.
TR=/sys/kernel/tracing

# state: every file of the top instance a run could touch, and the instances. The top buffer is allocated small at
# boot and expanded by the kernel the first time any tracer or instance is used ("7 (expanded: 1408)" becomes
# "1410", rounded up to pages): once per boot, whoever comes first, trace-cmd as well; compared in 16 KB units.
# One awk reads them all: a process start costs about 0.5 s under TCG, and a head per file made this 17 s.
state() {
	for i in $TR/instances/*; do [ -e "$i" ] && echo "${i##*/}"; done
	awk -v tr="$TR" '
	function first(f,   s, l, r) {
		s = ""
		while ((r = (getline l < f)) > 0) { s = s l " "; if (length(s) >= 400) break }
		close(f)
		return r < 0 && s == "" ? "(unreadable)" : substr(s, 1, 400)
	}
	BEGIN {
		b = first(tr "/buffer_size_kb")
		if (match(b, /expanded: [0-9]+/)) b = substr(b, RSTART + 10, RLENGTH - 10)
		printf "buffer_size_kb: %d\n", int((b + 8) / 16) * 16
		n = split("current_tracer set_ftrace_pid set_event_pid tracing_on trace_clock set_ftrace_filter " \
			"set_ftrace_notrace set_event options/function-fork options/event-fork options/funcgraph-irqs " \
			"events/raw_syscalls/sys_enter/enable events/raw_syscalls/sys_exit/enable", f, " ")
		for (i = 1; i <= n; i++) printf "%s: %s\n", f[i], first(tr "/" f[i])
		c = 0
		while ((getline l < (tr "/enabled_functions")) > 0) if (l != "") c++
		print c
	}'
}
# wait_instance PIDFILE: until kfootprint's tracing instance exists (its set-up takes seconds under TCG)
wait_instance() {
	i=0
	while [ $i -lt 240 ] && ! [ -d "$TR/instances/kfootprint-$(cat "$1" 2>/dev/null)" ]; do
		sleep 0.5
		i=$((i + 1))
	done
}
