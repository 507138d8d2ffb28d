#!/bin/sh
# The ptrace backend on the workloads of tests/workloads/, each with an exact, known footprint: every
# count asserted here follows from the workload's source (see the comment at the top of each).
. "$(dirname "$0")/../lib.sh"

# rec NAME ARGS...: records workload NAME with the ptrace backend into $T/NAME.json; sets $rc.
rec() {
	name=$1
	shift
	"$KF" record -b ptrace -F json --report /dev/null -o "$T/$name.json" -- "$WL/$name" "$@" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
}
# calls FILE NAME [ABI]: "calls errors" of one syscall over the workload ("0 0" when absent).
calls() {
	python3 - "$1" "$2" "${3:-x86_64}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = [s for s in d["syscalls"] if s["name"] == sys.argv[2] and s["abi"] == sys.argv[3]]
print("%d %d" % (s[0]["calls"], s[0]["errors"]) if s else "0 0")
PY
}
# errnos FILE NAME: the errno map of a syscall, as "ENOENT=7,..." sorted.
errnos() { jget "$1" "','.join('%s=%d' % kv for s in d['syscalls'] if s['name'] == '$2' for kv in sorted(s['errnos'].items()))"; }
# notrestart FILE NAME...: calls of those syscalls minus the ERESTART* ones (a signal arriving mid-call
# under any tracer makes the kernel restart it, as strace shows too).
notrestart() {
	f=$1
	shift
	jget "$f" "sum(s['calls'] - sum(n for e, n in s['errnos'].items() if e.startswith('ERESTART')) for s in d['syscalls'] if s['name'] in '$*'.split())"
}
# file FILE PATH: "opens_read opens_write errors" of one path over all processes.
file() { jget "$1" "' '.join(str(sum(fl.get(k, 0) for p in d['processes'] for fl in p['files'] if fl['path'] == '$2')) for k in ('opens_read', 'opens_write', 'errors'))"; }

workload_or_skip workloads "$WL/wl_errors" || exit 0

# --- errors with known errnos, and opens read/write/failed per file ---
rec wl_errors "$T/scratch"
f=$T/wl_errors.json
eq "errors: exit code" 0 "$rc"
eq "errors: openat ENOENT x7" "ENOENT=7" "$(errnos "$f" openat)"
eq "errors: close EBADF x5" "EBADF=5" "$(errnos "$f" close)"
eq "errors: mkdirat EEXIST x3" "3 3 EEXIST=3" "$(calls "$f" mkdirat) $(errnos "$f" mkdirat)"
eq "errors: openat2 ENOENT x2" "ENOENT=2" "$(errnos "$f" openat2)"
eq "errors: creat once" "1 0" "$(calls "$f" creat)"
eq "errors: missing file, 7 failed opens" "0 0 7" "$(file "$f" /nonexistent/kf-missing)"
eq "errors: openat2 path read, flags through open_how" "0 0 2" "$(file "$f" /nonexistent/kf-missing2)"
# scratch file: creat (w), O_WRONLY (w), O_RDWR (r+w), 2 x O_RDONLY (r)
eq "errors: scratch file opened 3 for reading, 3 for writing" "3 3 0" "$(file "$f" "$T/scratch")"

# --- ENOSYS probes: an unassigned number and a compiled-out call ---
rec wl_enosys
f=$T/wl_enosys.json
eq "enosys: unassigned number 400, 3 calls, all ENOSYS" "3 3 ENOSYS=3" "$(calls "$f" syscall_400) $(errnos "$f" syscall_400)"
if grep -q ' W __x64_sys_uselib$' /proc/kallsyms 2>/dev/null; then
	eq "enosys: uselib compiled out, 2 calls, ENOSYS" "2 2 ENOSYS=2" "$(calls "$f" uselib) $(errnos "$f" uselib)"
else
	skip "enosys: uselib compiled out" "this kernel has CONFIG_USELIB (no weak __x64_sys_uselib stub)"
fi

# --- threads ---
rec wl_threads
f=$T/wl_threads.json
eq "threads: getppid 4x10 + 2" "42 0" "$(calls "$f" getppid)"
eq "threads: one process with 5 threads" "1 5" "$(jget "$f" "'%d %d' % (len(d['processes']), d['processes'][0]['threads'])")"
eq "threads: 4 clone calls (clone3 or clone)" 4 "$(notrestart "$f" clone clone3)"

# --- fork / vfork / exec chain ---
rec wl_forkexec
f=$T/wl_forkexec.json
eq "forkexec: exit code" 0 "$rc"
eq "forkexec: 3 processes" 3 "$(jget "$f" "len(d['processes'])")"
eq "forkexec: execve 3" "3 0" "$(calls "$f" execve)"
eq "forkexec: fork as clone 1, vfork 1" "1 1" "$(notrestart "$f" clone) $(notrestart "$f" vfork)"
eq "forkexec: getppid 3 + 4" "7 0" "$(calls "$f" getppid)"
eq "forkexec: 2 wait4 that were not restarts" 2 "$(notrestart "$f" wait4)"
eq "forkexec: children are the root's, exit codes 3 and 4, argv after exec" "forked:3:1 vforked:4:1" \
	"$(jget "$f" "' '.join('%s:%d:%d' % (p['argv'][1], p['exit']['code'], p['ppid'] == d['processes'][0]['pid']) for p in d['processes'][1:])")"
eq "forkexec: per-process getppid" "0 3 4" \
	"$(jget "$f" "' '.join(str(p['syscalls'].get('getppid', {}).get('calls', 0)) for p in d['processes'])")"

# --- execve from a non-leader thread ---
rec wl_exec_thread
f=$T/wl_exec_thread.json
eq "exec-thread: exit code passed through" 7 "$rc"
eq "exec-thread: recorded exit" 7 "$(jget "$f" "d['exit'].get('code')")"
eq "exec-thread: one process, 2 execve, 2 getppid" "1 2 0 2 0" \
	"$(jget "$f" "len(d['processes'])") $(calls "$f" execve) $(calls "$f" getppid)"
eq "exec-thread: argv of the new image" "after" "$(jget "$f" "d['processes'][0]['argv'][1]")"
eq "exec-thread: 2 tasks seen" 2 "$(jget "$f" "d['processes'][0]['threads']")"

# --- signals with a handler ---
rec wl_signals
f=$T/wl_signals.json
eq "signals: the handler ran 8 times (exit code)" 8 "$rc"
eq "signals: kill 5, tgkill 3" "5 0 3 0" "$(calls "$f" kill) $(calls "$f" tgkill)"
eq "signals: rt_sigreturn 8, no error" "8 0" "$(calls "$f" rt_sigreturn)"

# --- killed by a signal ---
rec wl_killed
f=$T/wl_killed.json
eq "killed: exit status 128+9" 137 "$rc"
eq "killed: recorded as SIGKILL" SIGKILL "$(jget "$f" "d['exit'].get('signal')")"
eq "killed: the kill call counted once (never returned)" "1 0" "$(calls "$f" kill)"
eq "killed: getppid 2" "2 0" "$(calls "$f" getppid)"

# --- 200 children ---
rec wl_fork200
f=$T/wl_fork200.json
eq "fork200: exit code" 0 "$rc"
eq "fork200: 201 processes" 201 "$(jget "$f" "len(d['processes'])")"
eq "fork200: 200 fork-like calls that were not restarts" 200 "$(notrestart "$f" clone clone3 fork vfork)"
eq "fork200: 200 getppid" "200 0" "$(calls "$f" getppid)"
eq "fork200: 200 wait4 that were not restarts" 200 "$(notrestart "$f" wait4)"
# Children appear in fork order: child i exits i % 100, the last one is killed.
eq "fork200: exit codes of the children in fork order, the last SIGKILL" "199 SIGKILL" \
	"$(jget "$f" "'%d %s' % (sum(1 for i, p in enumerate(d['processes'][1:200]) if p['exit'].get('code') == i % 100 and p['ppid'] == d['processes'][0]['pid']), d['processes'][200]['exit'].get('signal'))")"

# --- two ABIs in one process, and a 32-bit binary: need IA-32 emulation in the running kernel ---
if "$WL/wl_abi_mix" 2>/dev/null; then
	rec wl_abi_mix
	f=$T/wl_abi_mix.json
	eq "abi-mix: getppid x86_64 3" "3 0" "$(calls "$f" getppid)"
	eq "abi-mix: getpid from the i386 table 2" "2 0" "$(calls "$f" getpid i386)"
else
	skip "abi-mix: int 0x80 from a 64-bit process" "int \$0x80 faults here: IA-32 emulation is off in this kernel"
fi
if [ ! -x "$WL/wl_i386_m32" ]; then
	skip "i386 binary" "wl_i386_m32 not built (gcc-multilib missing)"
elif "$WL/wl_i386_m32" 2>/dev/null; [ $? -eq 5 ]; then
	rec wl_i386_m32
	f=$T/wl_i386_m32.json
	eq "i386: exit code 5" 5 "$rc"
	eq "i386: getppid 5 from the i386 table" "5 0" "$(calls "$f" getppid i386)"
	eq "i386: open ENOENT x2 from the i386 table" "2 2" "$(calls "$f" open i386)"
	eq "i386: exit_group from the i386 table" "1 0" "$(calls "$f" exit_group i386)"
else
	skip "i386 binary" "the kernel refuses 32-bit executables (execve gives ENOEXEC: IA-32 emulation off)"
fi

# --- the same backend built with ASan+UBSan (make check builds it): memory errors or leaks fail the run ---
if [ -n "$KF_ASAN_BIN" ] && [ -x "$KF_ASAN_BIN" ]; then
	for w in wl_forkexec wl_exec_thread wl_threads wl_signals wl_fork200; do
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 "$KF_ASAN_BIN" record -b ptrace --log "$T/asan.log" -F json \
			--report /dev/null -o "$T/asan.json" -- "$WL/$w" >/dev/null 2>"$T/asan.err"
		rc=$?
		if [ "$rc" -lt 128 ] && ! grep -q 'Sanitizer' "$T/asan.err" && [ -s "$T/asan.json" ]; then
			ok "asan: $w (status $rc)"
		else
			not_ok "asan: $w: status $rc: $(grep -m1 'ERROR' "$T/asan.err")"
		fi
	done
else
	skip "asan" "no ASan build (make check builds one in build/asan)"
fi
