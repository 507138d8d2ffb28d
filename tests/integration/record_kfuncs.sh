#!/bin/sh
# record --kernel-functions on the host: where the kernel refuses function tracing (this project's machines), one
# line says why and the syscalls are still recorded; auto then samples kernel stacks, which find the functions of
# a read loop (vfs_read, ksys_read under read) and say "sampled, not exhaustive" in the JSON and the report; the
# tracing state (tracefs instances and knobs, BPF programs) is the same before and after a run, a Ctrl-C, a -d
# expiry and a SIGKILL of kfootprint, and a tracing instance a killed kfootprint left is removed by the next run.
# The exhaustive tracers run in the QEMU guest: tests/guest/t/kfuncs_*.sh.
# tracefs is not mounted on a fresh machine: mount it in a mount namespace of the test's own, so that the host is
# left as it was found (the suite runs two tests at a time, so unmounting afterwards could pull it from another).
if [ "$(id -u)" -eq 0 ] && [ ! -d /sys/kernel/tracing/instances ] && [ -z "${KF_KFUNCS_MNTNS:-}" ] &&
	command -v unshare >/dev/null; then
	KF_KFUNCS_MNTNS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"

TR=/sys/kernel/tracing
if [ "$(id -u)" -ne 0 ]; then
	skip kfuncs "not root: tracefs and perf events need it"
	exit 0
fi
if ! bpf_or_skip "kfuncs: sampled stacks need BPF"; then
	exit 0
fi
[ -d $TR/instances ] || mount -t tracefs nodev $TR 2>/dev/null

# A 64 MB file read in a loop: the kernel's read path is most of the time.
head -c 67108864 /dev/zero >"$T/big"
reads="for i in 1 2 3 4 5 6; do cat $T/big >/dev/null; done"

# kf_pid FILE KFOOTPRINT-ARGS...: runs kfootprint with its pid written to FILE first.
kf_pid() {
	f=$1
	shift
	sh -c 'echo $$ >"$0"; exec "$@"' "$f" "$KF" "$@"
}
# state PID: what kfootprint PID could have left: its tracing instance, its BPF programs, and the global tracing
# knobs (other kfootprints running at the same time have instances and programs of their own, named by their pid).
# The top buffer, allocated small at boot, is expanded by the kernel the first time any tracer or instance is used
# ("7 (expanded: 1408)" becomes "1410"): compared in 16 KB units.
state() {
	ls $TR/instances | grep -x "kfootprint-$1"
	bpftool prog show 2>/dev/null | grep -c "kfootprint($1)"
	printf 'buffer_size_kb: %s\n' "$(sed 's/.*(expanded: \([0-9]*\))/\1/' $TR/buffer_size_kb | awk '{ print int(($1 + 8) / 16) * 16 }')"
	for f in current_tracer set_ftrace_pid set_event_pid tracing_on trace_clock set_ftrace_filter \
		set_ftrace_notrace set_event options/function-fork options/event-fork; do
		printf '%s: %s\n' "$f" "$(head -c 400 $TR/$f 2>&1 | tr '\n' ' ')"
	done
}
before=$(state none)
fn_under() { jget "$1" "' '.join(str(f.get('under', {}).get('$3', 0)) for f in d['kernel_functions']['functions'] if f['name'] == '$2') or 'absent'"; }

# --- usage ---
out=$("$KF" --kernel-functions=bogus -- true 2>&1)
eq "usage: an unknown mode" "kfootprint: unknown --kernel-functions mode 'bogus': expected one of auto, graph, function, sampled 1" "$out $?"
out=$("$KF" --kernel-buffer-kb 4096 -- true 2>&1)
eq "usage: a buffer size without --kernel-functions" \
	"kfootprint: --kernel-buffer-kb sizes the buffer of --kernel-functions: give --kernel-functions too 1" "$out $?"

# --- the refusal: one line, the recording still complete ---
"$KF" -q --kernel-functions=function -o "$T/refused.json" --report /dev/null -- sh -c 'cat /proc/version >/dev/null' 2>"$T/refused.err"
rc=$?
if [ $rc -eq 0 ] && grep -q "refuses function tracing" "$T/refused.err"; then
	eq "refusal: one line on stderr" 1 "$(wc -l <"$T/refused.err")"
	check "refusal: says why and what instead" grep -q "^kfootprint: kernel functions: function: the kernel refuses function tracing (tracefs .*); recording syscalls only (--kernel-functions=sampled samples kernel stacks instead)$" "$T/refused.err"
	eq "refusal: footprint complete, why_not kept, no functions" "True True 0" \
		"$(jget "$T/refused.json" "d['complete'], bool(d['kernel_functions']['why_not']), len(d['kernel_functions']['functions'])" | tr -d '(),')"
	eq "refusal: syscalls recorded" True "$(jget "$T/refused.json" "any(s['name'] == 'execve' for s in d['syscalls'])")"
	check "refusal: the report says why" sh -c "'$KF' report '$T/refused.json' | grep -q '^kernel functions: not recorded: the kernel refuses function tracing'"
elif [ $rc -eq 0 ] && [ "$(jget "$T/refused.json" "len(d['kernel_functions']['functions'])")" -gt 0 ]; then
	skip "refusal" "this kernel allows function tracing ($(uname -r)): tests/guest/t covers the tracers"
else
	not_ok "refusal: kfootprint exited $rc: $(cat "$T/refused.err")"
fi

# --- auto: sampled kernel stacks, labelled so ---
kf_pid "$T/auto.pid" -q --kernel-functions -o "$T/auto.json" --report "$T/auto.txt" -- sh -c "$reads" 2>"$T/auto.err"
eq "sampled: exit status" 0 "$?"
if grep -q "refuses function tracing" "$T/auto.err"; then
	check "sampled: one line says it samples instead" grep -qx "kfootprint: kernel functions: the kernel refuses function tracing (tracefs .*): sampling kernel stacks instead (sampled, not exhaustive)" "$T/auto.err"
	eq "sampled: method sampled, not exhaustive" "sampled False" "$(jget "$T/auto.json" "d['kernel_functions']['method'], d['kernel_functions']['exhaustive']" | tr -d "(),'")"
	for f in vfs_read ksys_read; do
		n=$(fn_under "$T/auto.json" $f read)
		if [ "$n" != absent ] && [ "$n" -ge 5 ]; then ok "sampled: $f under read ($n samples)"; else not_ok "sampled: $f under read: $n"; fi
	done
	check "sampled: the text report says sampled, not exhaustive" grep -q "^kernel functions: .*(sampled kernel stacks: sampled, not exhaustive), [0-9]* lost$" "$T/auto.txt"
	check "sampled: read reached vfs_read in the report" grep -q "^  read: .* vfs_read [0-9]" "$T/auto.txt"
else
	skip "sampled" "function tracing works here: auto traced ($(head -1 "$T/auto.err"))"
fi
eq "sampled: nothing left behind" "$before" "$(state "$(cat "$T/auto.pid")")"

# sha256sum of the big file, as -u nobody under ptrace: the workload's reads, sampled, as its user
chmod 755 "$T"
chmod 644 "$T/big"
"$KF" -q -b ptrace -u nobody --kernel-functions=sampled -o "$T/sha.json" --report /dev/null -- sha256sum "$T/big" "$T/big" "$T/big" "$T/big" >/dev/null 2>"$T/sha.err"
eq "sha256sum -u nobody: exit status, user" "0 nobody" "$? $(jget "$T/sha.json" "d['workload']['user']")"
n=$(fn_under "$T/sha.json" vfs_read read)
if [ "$n" != absent ] && [ "$n" -ge 1 ]; then ok "sha256sum: vfs_read under read ($n samples)"; else not_ok "sha256sum: vfs_read under read: $n ($(cat "$T/sha.err"))"; fi

# stress-ng --cpu: user-space work, sampled without a complaint
if command -v stress-ng >/dev/null; then
	"$KF" -q --kernel-functions=sampled -o "$T/cpu.json" --report /dev/null -- stress-ng --cpu 1 --timeout 1 -q 2>"$T/cpu.err"
	eq "stress-ng --cpu: exit status, complete, sampled" "0 True sampled" "$? $(jget "$T/cpu.json" "d['complete'], d['kernel_functions']['method']" | tr -d "(),'")"
else
	skip "stress-ng" "stress-ng is not installed (make deps)"
fi

# -p: the attached process's threads, from when kfootprint attached
sh -c "while :; do cat $T/big >/dev/null; done" &
loop=$!
"$KF" -q -p $loop -d 1 --kernel-functions=sampled -o "$T/att.json" --report /dev/null 2>"$T/att.err"
kill $loop
n=$(fn_under "$T/att.json" vfs_read read)
if [ "$n" != absent ] && [ "$n" -ge 5 ]; then ok "-p: vfs_read under read ($n samples)"; else not_ok "-p: vfs_read under read: $n ($(cat "$T/att.err"))"; fi

# --- the way out: Ctrl-C, -d, SIGKILL ---
kf_pid "$T/int.pid" -q --kernel-functions --report /dev/null -- sleep 30 2>/dev/null &
sleep 1.5
kill -INT "$(cat "$T/int.pid")"
wait $!
eq "Ctrl-C: nothing left behind" "$before" "$(state "$(cat "$T/int.pid")")"
kf_pid "$T/d.pid" -q -d 1 --kernel-functions -o "$T/d.json" --report /dev/null -- sleep 30 2>/dev/null
eq "-d: incomplete by duration, kernel functions saved" "False sampled" "$(jget "$T/d.json" "d['complete'], d['kernel_functions']['method']" | tr -d "(),'")"
eq "-d: nothing left behind" "$before" "$(state "$(cat "$T/d.pid")")"
kf_pid "$T/k.pid" -q --kernel-functions --report /dev/null -- sleep 30 2>/dev/null &
sleep 1.5
kill -KILL "$(cat "$T/k.pid")"
wait $! 2>/dev/null
sleep 0.5
eq "SIGKILL: nothing left behind (the kernel drops the BPF programs with the process)" "$before" "$(state "$(cat "$T/k.pid")")"

# a tracing instance of a kfootprint that is gone: removed by the next run, which says so
sh -c 'exit 0' &
dead=$!
wait $dead
if mkdir "$TR/instances/kfootprint-$dead" 2>/dev/null; then
	"$KF" -q --kernel-functions --report /dev/null -- true 2>"$T/stale.err"
	check "stale instance: said" grep -qx "kfootprint: kernel functions: removed the tracing instance 'kfootprint-$dead' of a kfootprint that is gone (pid $dead)" "$T/stale.err"
	if [ -d "$TR/instances/kfootprint-$dead" ]; then
		not_ok "stale instance: removed"
		rmdir "$TR/instances/kfootprint-$dead"
	else
		ok "stale instance: removed"
	fi
else
	skip "stale instance" "cannot make a tracefs instance here"
fi

# --- round trips: report and merge keep the label ---
"$KF" merge -o "$T/m.json" "$T/auto.json" "$T/sha.json" 2>"$T/m.err"
eq "merge: method and exhaustive kept" "sampled False" "$(jget "$T/m.json" "d['kernel_functions']['method'], d['kernel_functions']['exhaustive']" | tr -d "(),'")"
check "merge: the report says sampled" sh -c "'$KF' report '$T/m.json' | grep -q 'sampled, not exhaustive'"
