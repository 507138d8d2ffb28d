#!/bin/sh
# The ptrace recorder on a kernel without CROSS_MEMORY_ATTACH (a tailored one: tailor's re-test records in it):
# the tracees' paths read with PTRACE_PEEKDATA, sched_getaffinity's result rewritten with POKEDATA.
# tests/workloads/wl_no_cma.c answers process_vm_readv and process_vm_writev with ENOSYS, as such a kernel does.
. "$(dirname "$0")/../lib.sh"
workload_or_skip ptrace_no_cma "$WL/wl_no_cma" || exit 0

files='sorted((f["path"], f["opens"], f["errors"]) for p in d["processes"] for f in p["files"])'
paths='sorted(x["path"] for s in d["syscalls"] for e in s.get("error_sources", []) for x in e.get("paths", []))'
"$KF" -q -b ptrace -o "$T/a.json" --report /dev/null -- cat /etc/hostname /nonexistent/x >/dev/null 2>&1
"$WL/wl_no_cma" "$KF" -q -b ptrace -o "$T/b.json" --report /dev/null -- cat /etc/hostname /nonexistent/x \
	>/dev/null 2>&1
eq "without process_vm_readv: the files, their opens and errors, as with it" "$(jget "$T/a.json" "$files")" \
	"$(jget "$T/b.json" "$files")"
eq "without process_vm_readv: the failed calls' paths as with it" "$(jget "$T/a.json" "$paths")" \
	"$(jget "$T/b.json" "$paths")"
check "the files are there at all (/etc/hostname)" grep -q '/etc/hostname' "$T/b.json"
# the recorder pins the command to one CPU and rewrites what sched_getaffinity says (ptrace_cpu.c)
eq "without process_vm_writev: nproc under the recorder says what it says without it" "$(nproc)" \
	"$("$WL/wl_no_cma" "$KF" -q -b ptrace --report /dev/null -- nproc)"
