#!/bin/sh
# In the guest (make check-long: tests/long/kfuncs_guest.sh), where the kernel traces functions: the tracing state
# is the same before and after a Ctrl-C and a -d expiry of kfootprint --kernel-functions, and the footprint of a
# -d run keeps the functions recorded until then. (A run and a SIGKILL: tests/guest/t/kfuncs_paths.sh.)
KF_TOP=${KF_TOP:-$(cd "$(dirname "$0")/../../.." && pwd)}
. "$KF_TOP/tests/lib.sh"
. "$KF_TOP/tests/guest/tracing.sh"

if ! grep -qw function $TR/available_tracers 2>/dev/null; then
	skip kfuncs_stop "this kernel cannot trace functions ($(uname -r)): run it in the guest, tests/guest/run"
	exit 0
fi
before=$(state)
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
