#!/bin/sh
# -F tree on the workloads of tests/workloads/ with the ptrace backend, against golden outputs: the study's
# columns, exit code or signal, threads, the exec chain of a process that exec'd more than once, argv and the
# legend. Pids and run times are normalised (PID, run Xs) and runs of spaces squeezed, the indentation kept.
. "$(dirname "$0")/../lib.sh"

workload_or_skip tree_golden "$WL/wl_forkexec" || exit 0
legend="# read N write M: files opened for reading / for writing (successful opens, the SystemTap study's counts); run: fork to exit; then exit, threads, exec chain (a → b), argv"

# tree NAME COMMAND...: the normalised tree of COMMAND, run from the workloads' directory (short, fixed argv).
tree() {
	name=$1
	shift
	(cd "$WL" && "$KF" record -q -b ptrace -F tree --report "$T/$name.tree" -o "$T/$name.json" -- "$@" >/dev/null 2>&1)
	sed -E -e 's/^( *)[0-9]+ /\1PID /' -e 's/run [0-9]+\.[0-9]+s/run Xs/' -e 's/([^ ])  +/\1 /g' "$T/$name.tree"
}
golden() { eq "$1" "$(printf '%s\n' "$legend" "$2")" "$3"; }

golden "fork, vfork, one exec each: exit codes and argv" " PID wl_forkexec read 2 write 0 run Xs exit 0 ./wl_forkexec
   PID wl_forkexec read 2 write 0 run Xs exit 3 ./wl_forkexec forked
   PID wl_forkexec read 2 write 0 run Xs exit 4 ./wl_forkexec vforked" "$(tree forkexec ./wl_forkexec)"
golden "exec from a thread: threads, the exec chain, exit 7" \
	" PID wl_exec_thread read 4 write 0 run Xs exit 7 threads 2 wl_exec_thread → wl_exec_thread: ./wl_exec_thread after" \
	"$(tree exec_thread ./wl_exec_thread)"
golden "5 threads" " PID wl_threads read 2 write 0 run Xs exit 0 threads 5 ./wl_threads" "$(tree threads ./wl_threads)"
golden "a child killed by SIGKILL, its shell exits 137" " PID sh read 2 write 0 run Xs exit 137 sh -c ./wl_killed
   PID wl_killed read 2 write 0 run Xs SIGKILL ./wl_killed" "$(tree killed sh -c ./wl_killed)"
golden "sh execs the workload: the chain dash → wl_killed" \
	" PID wl_killed read 4 write 0 run Xs SIGKILL dash → wl_killed: ./wl_killed" \
	"$(tree exec_killed sh -c 'exec ./wl_killed')"

# The chain is in the footprint: it reads back into the same tree, and a merged footprint keeps one tree per source.
eq "the saved footprint gives the same tree" "$(cat "$T/exec_thread.tree")" "$("$KF" report -F tree "$T/exec_thread.json")"
eq "exec_chain in the JSON: the programs, oldest first" "['$WL/wl_exec_thread', '$WL/wl_exec_thread'] 2" \
	"$(jget "$T/exec_thread.json" "d['processes'][0]['exec_chain'], d['processes'][0]['execs']")"
"$KF" merge -o "$T/merged.json" "$T/threads.json" "$T/exec_killed.json"
"$KF" report -F tree "$T/merged.json" >"$T/merged.tree"
eq "merged: one tree per source, under its source line" "./wl_threads|sh -c 'exec ./wl_killed'" \
	"$(sed -n 's/^source [12]: //p' "$T/merged.tree" | sort | paste -sd'|')"
eq "merged: the chain survives merging" "1" "$(grep -c 'dash → wl_killed: ./wl_killed' "$T/merged.tree")"

# A long argv is cut to 60 columns with "…".
(cd "$WL" && "$KF" record -q -b ptrace -F tree --report "$T/long.tree" -- sh -c ": $(printf 'x%.0s' $(seq 100))" >/dev/null 2>&1)
eq "argv cut to 60 columns" "sh -c ': $(printf 'x%.0s' $(seq 50))…" \
	"$(tail -n1 "$T/long.tree" | sed 's/.*exit 0  //')"

# bpf records the chain too (from the exec event's file name).
if bpf_or_skip "tree: bpf exec chain"; then
	(cd "$WL" && "$KF" record -q -b bpf -F tree --report "$T/bpf.tree" -- ./wl_exec_thread >/dev/null 2>&1)
	eq "bpf: the exec chain of an exec from a thread" "1" "$(grep -c 'wl_exec_thread → wl_exec_thread: ./wl_exec_thread after' "$T/bpf.tree")"
fi
