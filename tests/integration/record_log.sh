#!/bin/sh
# --log: one line per call (plus one "+++ exited" line per task) as strace -f writes it: real arguments, paths,
# flags, errors decoded, timestamps, -e filters, and the same paths and errnos as strace on the same workload;
# -u USER: the workload runs as that user while kfootprint traces it as root; and the CPU placement of a
# started command (it shares the tracer's CPU, yet sees the mask it would have untraced).
. "$(dirname "$0")/../lib.sh"

workload_or_skip log "$WL/wl_errors" || exit 0
"$KF" record -b ptrace --log "$T/log" -F json --report /dev/null -o "$T/l.json" -- "$WL/wl_errors" "$T/scratch"
eq "log: exit status" 0 "$?"
total=$(jget "$T/l.json" "sum(s['calls'] for s in d['syscalls'])")
eq "log: one line per call" "$total" "$(grep -vc '+++' "$T/log")"
eq "log: one exit line" 1 "$(grep -c '^[0-9]* +++ exited with 0 +++$' "$T/log")"
# Real arguments only (the SYSCALL_DEFINEn count), paths quoted, AT_FDCWD, symbolic flags, modes in octal.
eq "log: failed opens, decoded" 7 \
	"$(grep -c '^[0-9]* openat(AT_FDCWD, "/nonexistent/kf-missing", O_RDONLY) = -1 ENOENT (No such file or directory)$' "$T/log")"
eq "log: EBADF lines, one argument" 5 "$(grep -c '^[0-9]* close(999) = -1 EBADF (Bad file descriptor)$' "$T/log")"
eq "log: mkdirat, path and mode" 3 "$(grep -c '^[0-9]* mkdirat(AT_FDCWD, "/", 0755) = -1 EEXIST (File exists)$' "$T/log")"
eq "log: openat2, four arguments" 2 \
	"$(grep -c '^[0-9]* openat2(AT_FDCWD, "/nonexistent/kf-missing2", 0x[0-9a-f]*, 24) = -1 ENOENT (No such file or directory)$' "$T/log")"
eq "log: creat, path and mode" 1 "$(grep -c "^[0-9]* creat(\"$T/scratch\", 0600) = [0-9]*$" "$T/log")"
eq "log: open flags" 1 "$(grep -c "^[0-9]* openat(AT_FDCWD, \"$T/scratch\", O_WRONLY|O_TRUNC) = [0-9]*$" "$T/log")"
eq "log: exit_group never returns" 1 "$(grep -c '^[0-9]* exit_group(0) = ?$' "$T/log")"
eq "log: the first line is the workload's execve" execve "$(head -n 1 "$T/log" | sed 's/^[0-9]* \([a-z_0-9]*\)(.*/\1/')"
eq "log: execve's path" 1 "$(head -n 1 "$T/log" | grep -c "^[0-9]* execve(\"$WL/wl_errors\", 0x[0-9a-f]*, 0x[0-9a-f]*) = 0$")"
eq "log: every line starts with a pid" 0 "$(grep -vc '^[0-9][0-9]* ' "$T/log")"
eq "log: mmap prot and flags" 0 "$(grep '^[0-9]* mmap(' "$T/log" | grep -vc ', PROT_[A-Z_|]*, MAP_[A-Z_0-9|]*, -\{0,1\}[0-9]*, ')"
eq "log: mprotect prot" 0 "$(grep '^[0-9]* mprotect(' "$T/log" | grep -vc ', PROT_[A-Z_|]*) = ')"

# Timestamps as strace's -t, -tt, -ttt and -r.
for opt in t tt ttt r; do
	case $opt in
	t) re='^[0-9]* [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [a-z_0-9]*(' ;;
	tt) re='^[0-9]* [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9]\{6\} [a-z_0-9]*(' ;;
	ttt) re='^[0-9]* [0-9]\{10\}\.[0-9]\{6\} [a-z_0-9]*(' ;;
	r) re='^[0-9]* *[0-9]*\.[0-9]\{6\} [a-z_0-9]*(' ;;
	esac
	"$KF" record -b ptrace -$opt --log "$T/log.$opt" --report /dev/null -- "$WL/wl_errors" "$T/scratch"
	eq "log: -$opt on every call line" 0 "$(grep -v '+++' "$T/log.$opt" | grep -vc "$re")"
done
eq "log: -r, the first line is at 0" 1 "$(head -n 1 "$T/log.r" | grep -c '^[0-9]*      0\.000000 execve(')"
if "$KF" record -b ptrace -tt --report /dev/null -- true 2>"$T/t.err"; then
	not_ok "log: -tt without --log refused"
else
	eq "log: -tt without --log refused, one line" "kfootprint: -t, -tt and -r time the --log lines: give --log FILE" "$(cat "$T/t.err")"
fi

# -e filters the log (and the report) as strace's does; the saved footprint keeps every call.
"$KF" record -b ptrace -e trace=close,mkdirat -e status=failed --log "$T/log.e" -F json --report "$T/e.json" \
	-o "$T/all.json" -- "$WL/wl_errors" "$T/scratch"
eq "log: -e, only the failed close and mkdirat" "close 5
mkdirat 3" "$(grep -v '+++' "$T/log.e" | sed 's/^[0-9]* \([a-z_0-9]*\)(.*/\1/' | sort | uniq -c | awk '{print $2, $1}')"
eq "log: -e, the report too" "close 5 5, mkdirat 3 3" \
	"$(jget "$T/e.json" "', '.join('%s %d %d' % (s['name'], s['calls'], s['errors']) for s in sorted(d['syscalls'], key=lambda s: s['name']))")"
eq "log: -e, -o keeps every call" "$total" "$(jget "$T/all.json" "sum(s['calls'] for s in d['syscalls'])")"

# With the default backend, --log takes ptrace and says so when another backend comes first.
first=$(kf_names backends | awk '{print $2}')
"$KF" record --log "$T/log.auto" --report /dev/null -- true 2>"$T/auto.err"
if [ "$first" = ptrace ]; then
	eq "log: auto, ptrace first: nothing said" "" "$(cat "$T/auto.err")"
else
	eq "log: auto says it takes ptrace" "kfootprint: backend auto: using ptrace, --log needs each call's arguments" \
		"$(cat "$T/auto.err")"
fi

# The same workload under strace -f: every (syscall, path, errno) line of strace is in the log, and the reverse.
if ! command -v strace >/dev/null 2>&1; then
	skip "log: strace comparison" "strace is not installed (make deps installs it)"
else
	wl='cat /etc/hostname /nonexistent-kf; ls -d / /nonexistent-kf2; stat -c %n /etc/passwd'
	strace -f -qq -o "$T/strace.log" -- sh -c "$wl" >/dev/null 2>&1
	"$KF" record -b ptrace --log "$T/kf.log" --report /dev/null -- sh -c "$wl" >/dev/null 2>&1
	# strace splits a call that another task's line interrupts: join "<unfinished ...>" and its "resumed>"
	join_split() {
		awk '/<unfinished \.\.\.>$/ { sub(/ <unfinished \.\.\.>$/, ""); held[$1] = $0; next }
		     /<\.\.\. [a-z_0-9]* resumed>/ { rest = $0; sub(/^.*resumed>/, "", rest); print held[$1] rest; next }
		     { print }' "$1"
	}
	# The calls with a path argument, from the tables' SYSCALL_DEFINEn data (args.tsv: kind p).
	awk -F'\t' '!/^#/ && $3 ~ /p/ { print $1 }' "$KF_TOP/data/syscalls/args.tsv" >"$T/pathcalls"
	# "name path result": the first quoted string of a path call, and its errno name or ok
	keys() {
		join_split "$1" | grep -v '^[0-9]* +++' |
			sed -n 's/^[0-9]* *\([a-z_0-9]*\)([^"]*"\([^"]*\)".*) *= \(.*\)$/\1 \2 \3/p' |
			awk 'FILENAME == ARGV[1] { path[$1] = 1; next }
			     $1 in path { r = ($3 == "-1") ? $4 : "ok"; print $1, $2, r }' "$T/pathcalls" - | LC_ALL=C sort -u
	}
	keys "$T/strace.log" >"$T/strace.keys"
	keys "$T/kf.log" >"$T/kf.keys"
	check "log: strace saw path calls" test "$(wc -l <"$T/strace.keys")" -gt 20
	eq "log: strace's paths and errnos, all in the log" "" "$(LC_ALL=C comm -23 "$T/strace.keys" "$T/kf.keys")"
	eq "log: the log's paths and errnos, all in strace's" "" "$(LC_ALL=C comm -13 "$T/strace.keys" "$T/kf.keys")"
fi

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
