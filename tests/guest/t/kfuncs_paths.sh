#!/bin/sh
# In the guest (the guest suite, tests/guest/suite.sh; alone: make guest GUEST_ONLY=kfuncs), where the kernel
# traces functions: known paths (an eventfd reaches eventfd_write/eventfd_read, an AF_UNIX socketpair
# unix_stream_sendmsg/recvmsg, each under its syscall), every call counted (the workload's N rounds give at least
# N calls), the start pipe's release not counted as the workload's, -u USER, and the tracing state identical before and after a run and after a SIGKILL of kfootprint,
# whose instance the next run removes. Two runs, ptrace backend (no BPF to load): within the suite's budget.
# The second run (both paths) also maps (record --map, the guest's running 6.1 kallsyms): its footprint carries
# eventfd_write -> fs/eventfd.c -> EVENTFD, and the same kallsyms orders names the host's kernel cannot
# (tests/integration/map_kfuncs.sh maps the rest on the host): carrier_show built once, m_show twice.
# Ctrl-C and -d: tests/guest/long/kfuncs_stop.sh (make check-long).
KF_TOP=${KF_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
. "$KF_TOP/tests/lib.sh"
. "$KF_TOP/tests/guest/tracing.sh"

if ! grep -qw function $TR/available_tracers 2>/dev/null; then
	skip kfuncs_paths "this kernel cannot trace functions ($(uname -r)): run it in the guest, tests/guest/run"
	exit 0
fi
before=$(state)
# facts FILE [OUT]: what the checks read from a footprint, as lines "KEY VALUE" in $T/v (a python3 start costs
# seconds under TCG: one a footprint); with OUT, the footprint with carrier_show and m_show added, written there
facts() {
	python3 - "$@" >"$T/v" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
kf = d["kernel_functions"]
print("run", d.get("complete"), kf.get("exhaustive"), kf.get("lost"), (d.get("workload") or {}).get("user"))
m = d.get("kernel_functions_map", {})
print("rollup", m.get("resolved", {}).get("unique", 0) > 100, m.get("kallsyms_note"))
for f in kf["functions"]:
    k = f.get("kernel") or {}
    print("fn." + f["name"], k.get("resolved_by"), k.get("file"), k.get("configs"), "more than once" in (k.get("note") or ""))
    print("hits." + f["name"], f["hits"])
    for sc, n in (f.get("under") or {}).items():
        print("under.%s.%s %s" % (f["name"], sc, n))
if len(sys.argv) > 2:
    kf["functions"] += [{"name": "carrier_show", "hits": 1}, {"name": "m_show", "hits": 1}]
    json.dump(d, open(sys.argv[2], "w"))
PY
}
v() { sed -n "s/^$1 //p" "$T/v"; }
# at_least NAME FUNCTION SYSCALL N: FUNCTION ran at least N times, all of them under SYSCALL (facts read first)
at_least() {
	h=$(v "hits.$2")
	[ -z "$h" ] || h=$h:$(v "under.$2.$3")
	case $h in *:) h=${h}0 ;; "") h=absent ;; esac
	case $h in
	absent) not_ok "$1: $2 not recorded" ;;
	*) if [ "${h%%:*}" -ge "$4" ] && [ "${h#*:}" -ge "$4" ]; then ok "$1: $2 under $3 ($h)"; else not_ok "$1: $2 under $3: $h, expected $4 at least"; fi ;;
	esac
}

# SIGKILL: the instance stays; the next run removes it and says so
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

# The next run: both paths in one recording (each recording enables a tracer: 10 to 20 s under TCG), as nobody
chmod 755 "$T"
"$KF" -q -b ptrace -u nobody --kernel-functions --map-output "$T/run.map" -o "$T/run.json" --report "$T/run.txt" -- \
	sh -c '"$0" eventfd 50 && "$0" unix 40' "$(for_others "$WL/wl_kpaths")" 2>"$T/run.err"
rc=$?
facts "$T/run.json" "$T/more.json"
eq "eventfd and unix -u nobody: exit status, complete, exhaustive, 0 lost, user" "0 True True 0 nobody" "$rc $(v run)"
at_least eventfd eventfd_write write 50
at_least eventfd eventfd_read read 50
at_least unix unix_stream_sendmsg sendto 40
at_least unix unix_stream_recvmsg recvfrom 40
at_least unix unix_socketpair socketpair 1
# the pipe that holds the command before its execve is kfootprint's: its release and the inode's eviction are not
# the workload's (they were, when the child dropped the pipe's last reference)
eq "the start pipe's end is not the workload's (pipe_release, free_pipe_info)" "absent absent" \
	"$(h=$(v hits.pipe_release); echo "${h:-absent}") $(h=$(v hits.free_pipe_info); echo "${h:-absent}")"
check "the report has a row for write, exhaustive" sh -c "grep -q '^  write: [0-9]* functions, [0-9]* calls: ' '$T/run.txt' && grep -q '^kernel functions: .* tracer: exhaustive), 0 lost' '$T/run.txt'"
check "SIGKILL: the next run says it removed the instance" grep -qx "kfootprint: kernel functions: removed the tracing instance 'kfootprint-$(cat "$T/k.pid")' of a kfootprint that is gone (pid $(cat "$T/k.pid"))" "$T/run.err"
eq "SIGKILL and a run: tracing state as before" "$before" "$(state)"

# record --map on 6.1: each function's chain in the saved footprint, the roll-up, the text map's part
eq "record --map: eventfd_write -> fs/eventfd.c -> EVENTFD in the saved footprint" "fs/eventfd.c ['EVENTFD']" \
	"$(v fn.eventfd_write | cut -d' ' -f2-3)"
eq "record --map: the roll-up at the top level, no caveat on 6.1" "True None" "$(v rollup)"
check "record --map: the text map has its Kernel functions part" grep -q '^Kernel functions (' "$T/run.map"
grep -E '^[0-9]+ functions:' "$T/run.map" | sed 's/^/# /'
# the guest's kallsyms goes with the tree (Debian's 6.1): carrier_show is built once, m_show twice (Debian
# builds modules: kernel/module/procfs.c too). Two names the workload does not reach, added to its footprint
# (more.json, by facts above).
"$KF" map -F json "$T/more.json" >"$T/more.map.json" 2>"$T/more.err"
rc=$?
facts "$T/more.map.json"
eq "map, guest $(uname -r) kallsyms: carrier_show -> net/core/net-sysfs.c" "0 kallsyms net/core/net-sysfs.c" \
	"$rc $(v fn.carrier_show | cut -d' ' -f1-2)"
eq "map: m_show is built twice there: ambiguous, said" "ambiguous True" "$(v fn.m_show | awk '{ print $1, $NF }')"
