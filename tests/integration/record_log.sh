#!/bin/sh
# --log: one line per call (plus one "+++ exited" line per task), errors decoded, open paths quoted;
# -u USER: the workload runs as that user while kfootprint traces it as root; and the CPU placement of a
# started command (it shares the tracer's CPU, yet sees the mask it would have untraced).
. "$(dirname "$0")/../lib.sh"

if [ ! -x "$WL/wl_errors" ]; then
	skip log "workloads not built: run make workloads"
	exit 0
fi
"$KF" record -b ptrace --log "$T/log" -F json --report /dev/null -o "$T/l.json" -- "$WL/wl_errors" "$T/scratch"
eq "log: exit status" 0 "$?"
total=$(jget "$T/l.json" "sum(s['calls'] for s in d['syscalls'])")
eq "log: one line per call" "$total" "$(grep -vc '+++' "$T/log")"
eq "log: one exit line" 1 "$(grep -c '^[0-9]* +++ exited with 0 +++$' "$T/log")"
eq "log: failed opens, decoded" 7 \
	"$(grep -c '^[0-9]* openat(-100, "/nonexistent/kf-missing", 0, .*) = -1 ENOENT (No such file or directory)$' "$T/log")"
eq "log: EBADF lines" 5 "$(grep -c '^[0-9]* close(999, .* = -1 EBADF (Bad file descriptor)$' "$T/log")"
eq "log: exit_group never returns" 1 "$(grep -c '^[0-9]* exit_group(0, .*) = ?$' "$T/log")"
eq "log: the first line is the workload's execve" execve "$(head -n 1 "$T/log" | sed 's/^[0-9]* \([a-z_0-9]*\)(.*/\1/')"
eq "log: every line starts with a pid" 0 "$(grep -vc '^[0-9][0-9]* ' "$T/log")"

# Threads: the lines carry each task's own tid.
"$KF" record -b ptrace --log "$T/log2" -F json --report /dev/null -o "$T/t.json" -- "$WL/wl_threads"
eq "log: threads, getppid lines" 42 "$(grep -c '^[0-9]* getppid(' "$T/log2")"
eq "log: threads, 5 distinct tids" 5 "$(sed 's/ .*//' "$T/log2" | sort -u | wc -l)"

# --- -u USER ---
if [ "$(id -u)" != 0 ]; then
	skip "user" "-u needs root"
elif ! id nobody >/dev/null 2>&1; then
	skip "user" "no user 'nobody' on this machine"
else
	"$KF" record -b ptrace -u nobody -F json --report /dev/null -o "$T/u.json" -- sh -c 'id -u; id -g; id -G' >"$T/u.out"
	eq "user: exit status" 0 "$?"
	eq "user: uid, gid, groups of nobody" "$(id -u nobody) $(id -g nobody) $(id -G nobody)" "$(tr '\n' ' ' <"$T/u.out" | sed 's/ $//')"
	eq "user: recorded" nobody "$(jget "$T/u.json" "d['workload']['user']")"
	eq "user: its calls traced (sh and 3 id)" 4 "$(jget "$T/u.json" "sum(s['calls'] for s in d['syscalls'] if s['name'] == 'execve')")"
	"$KF" record -b ptrace -u 4242 -F json --report /dev/null -- sh -c 'id -u' >"$T/u2.out" 2>/dev/null
	eq "user: numeric uid without a passwd entry" 4242 "$(cat "$T/u2.out")"
	if "$KF" record -b ptrace -u no-such-user-kf -- true 2>"$T/u3.err"; then
		not_ok "user: unknown user refused"
	else
		ok "user: unknown user refused"
	fi
	eq "user: one-line error" 1 "$(grep -c "^kfootprint: .*'no-such-user-kf'" "$T/u3.err")"
fi

# --- CPU placement ---
if [ "$(nproc)" -lt 2 ]; then
	skip "pin" "one CPU: nothing is pinned"
else
	"$KF" record -b ptrace -F json --report /dev/null -- \
		sh -c 'nproc; taskset -c 0 nproc; grep Cpus_allowed_list /proc/self/status' >"$T/pin.out"
	eq "pin: nproc as untraced" "$(nproc)" "$(sed -n 1p "$T/pin.out")"
	eq "pin: a mask the command set itself is shown as it is" 1 "$(sed -n 2p "$T/pin.out")"
	eq "pin: the command runs on one CPU" 1 "$(sed -n 3p "$T/pin.out" | awk '{print $2}' | tr ',' '\n' | grep -vc -- -)"
	"$KF" record -b ptrace --no-pin -F json --report /dev/null -- grep Cpus_allowed_list /proc/self/status >"$T/nopin.out"
	eq "pin: --no-pin leaves the mask alone" "$(grep Cpus_allowed_list /proc/self/status)" "$(cat "$T/nopin.out")"
fi
