#!/bin/sh
# In the guest (the guest suite, tests/guest/suite.sh; alone: make guest GUEST_ONLY=kfuncs), where the kernel
# traces functions: known paths (an eventfd reaches eventfd_write/eventfd_read, an AF_UNIX socketpair
# unix_stream_sendmsg/recvmsg, each under its syscall), every call counted (the workload's N rounds give at least
# N calls), the start pipe's release not counted as the workload's, -u USER, and the tracing state identical before
# and after a run and after a SIGKILL of kfootprint, whose instance the next run removes. Three runs, ptrace
# backend (no BPF to load): within the suite's budget.
# Ctrl-C and -d: tests/guest/long/kfuncs_stop.sh (make check-long).
KF_TOP=${KF_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
. "$KF_TOP/tests/lib.sh"
TR=/sys/kernel/tracing

if ! grep -qw function $TR/available_tracers 2>/dev/null; then
	skip kfuncs_paths "this kernel cannot trace functions ($(uname -r)): run it in the guest, tests/guest/run"
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
hits() { jget "$1" "' '.join(str(f['hits']) + ':' + str(f.get('under', {}).get('$3', 0)) for f in d['kernel_functions']['functions'] if f['name'] == '$2') or 'absent'"; }
# at_least NAME FILE FUNCTION SYSCALL N: FUNCTION ran at least N times, all of them under SYSCALL
at_least() {
	h=$(hits "$2" "$3" "$4")
	case $h in
	absent) not_ok "$1: $3 not recorded" ;;
	*) if [ "${h%%:*}" -ge "$5" ] && [ "${h#*:}" -ge "$5" ]; then ok "$1: $3 under $4 ($h)"; else not_ok "$1: $3 under $4: $h, expected $5 at least"; fi ;;
	esac
}

# wait_instance PIDFILE: until kfootprint's tracing instance exists (its set-up takes seconds under TCG)
wait_instance() {
	i=0
	while [ $i -lt 240 ] && ! [ -d "$TR/instances/kfootprint-$(cat "$1" 2>/dev/null)" ]; do
		sleep 0.5
		i=$((i + 1))
	done
}

"$KF" -q -b ptrace --kernel-functions -o "$T/efd.json" --report "$T/efd.txt" -- "$WL/wl_kpaths" eventfd 50 2>"$T/efd.err"
eq "eventfd: exit status, complete, exhaustive, 0 lost" "0 True True 0" "$? $(jget "$T/efd.json" "d['complete'], d['kernel_functions']['exhaustive'], d['kernel_functions']['lost']" | tr -d '(),')"
at_least eventfd "$T/efd.json" eventfd_write write 50
at_least eventfd "$T/efd.json" eventfd_read read 50
# the pipe that holds the command before its execve is kfootprint's: its release and the inode's eviction are not
# the workload's (they were, when the child dropped the pipe's last reference)
eq "eventfd: the start pipe's end is not the workload's (pipe_release, free_pipe_info)" "absent absent" "$(hits "$T/efd.json" pipe_release -) $(hits "$T/efd.json" free_pipe_info -)"
check "eventfd: the report has a row for write, exhaustive" sh -c "grep -q '^  write: [0-9]* functions, [0-9]* calls: ' '$T/efd.txt' && grep -q '^kernel functions: .* tracer: exhaustive), 0 lost' '$T/efd.txt'"
eq "run: tracing state as before" "$before" "$(state)"

# SIGKILL: the instance stays; the next run (the AF_UNIX one) removes it and says so
sh -c 'echo $$ >"$0"; exec "$@"' "$T/k.pid" "$KF" -q -b ptrace --kernel-functions --report /dev/null -- sleep 60 2>/dev/null &
wait_instance "$T/k.pid"
sleep 1
kill -KILL "$(cat "$T/k.pid")"
wait $! 2>/dev/null
if [ -d "$TR/instances/kfootprint-$(cat "$T/k.pid")" ]; then
	ok "SIGKILL: the instance stays until the next run"
else
	not_ok "SIGKILL: the instance of the killed kfootprint is gone already"
fi

chmod 755 "$T"
"$KF" -q -b ptrace -u nobody --kernel-functions -o "$T/unix.json" --report /dev/null -- "$WL/wl_kpaths" unix 40 2>"$T/unix.err"
eq "unix -u nobody: exit status, user" "0 nobody" "$? $(jget "$T/unix.json" "d['workload']['user']")"
at_least "unix" "$T/unix.json" unix_stream_sendmsg sendto 40
at_least "unix" "$T/unix.json" unix_stream_recvmsg recvfrom 40
at_least "unix" "$T/unix.json" unix_socketpair socketpair 1
check "SIGKILL: the next run says it removed the instance" grep -qx "kfootprint: kernel functions: removed the tracing instance 'kfootprint-$(cat "$T/k.pid")' of a kfootprint that is gone (pid $(cat "$T/k.pid"))" "$T/unix.err"
eq "SIGKILL: tracing state as before after the next run" "$before" "$(state)"
