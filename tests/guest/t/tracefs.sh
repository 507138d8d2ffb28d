#!/bin/sh
# The guest has what the kernel-function tests need: tracefs mounted where the host has it, the function and
# function_graph tracers (Debian's 6.1 builds both; the host's kernel does not), a function graph of a real
# command, and trace-cmd.
. "$(dirname "$0")/../../lib.sh"
tr=/sys/kernel/tracing
check "tracefs mounted at $tr" grep -q " $tr tracefs " /proc/mounts
tracers=" $(cat $tr/available_tracers 2>&1) "
for t in function function_graph; do
	case $tracers in
	*" $t "*) ok "available_tracers has $t" ;;
	*) not_ok "available_tracers lacks $t:$tracers" ;;
	esac
done
check "debugfs mounted" grep -q ' /sys/kernel/debug debugfs ' /proc/mounts
check "bpffs mounted" grep -q ' /sys/fs/bpf bpf ' /proc/mounts
check "cgroup2 mounted" grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts
check "kernel BTF" test -r /sys/kernel/btf/vmlinux

# A graph of one command: reading /proc/version runs version_proc_show (fs/proc/version.c). Filtered to that
# function: enabling a tracer on every function patches ~50000 call sites, 10 to 20 s under TCG.
echo version_proc_show >$tr/set_ftrace_filter &&
	echo function_graph >$tr/current_tracer && echo >$tr/trace && echo 1 >$tr/tracing_on
cat /proc/version >/dev/null
echo 0 >$tr/tracing_on
n=$(grep -c 'version_proc_show' $tr/trace)
echo nop >$tr/current_tracer
echo >$tr/set_ftrace_filter
echo 1 >$tr/tracing_on
if [ "$n" -ge 1 ]; then ok "function_graph: cat /proc/version runs version_proc_show"; else not_ok "function_graph: no version_proc_show in the trace"; fi
eq "tracing state restored: current_tracer nop" nop "$(cat $tr/current_tracer)"
check "trace-cmd runs (trace-cmd list -t)" sh -c 'trace-cmd list -t | grep -qw function_graph'
