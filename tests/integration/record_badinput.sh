#!/bin/sh
# Bad input to record: each a one-line "kfootprint: ..." error and a non-zero exit, never a crash or a hang.
. "$(dirname "$0")/../lib.sh"

# bad NAME EXPECTED-TEXT ARGS...
bad() {
	name=$1 text=$2
	shift 2
	timeout 10 "$KF" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	lines=$(wc -l <"$T/err")
	if [ "$rc" -ne 0 ] && [ "$rc" -lt 124 ] && [ "$lines" -eq 1 ] && grep -q "^kfootprint: .*$text" "$T/err"; then
		ok "bad input: $name"
	else
		not_ok "bad input: $name (status $rc, stderr: $(head -c 300 "$T/err"))"
	fi
}
bad "missing command" "command not found" record -b ptrace -- kf-no-such-command-xyz
bad "missing command path" "No such file" record -b ptrace -- /nonexistent/kf-cmd
bad "-d abc" "abc" record -b ptrace -d abc -- true
bad "-d -1" "duration" record -b ptrace -d -1 -- true
bad "-p of no process" "process" record -b ptrace -p 999999999 -d 1
bad "-p abc" "abc" record -b ptrace -p abc -d 1
bad "nothing to trace" "no command" record -b ptrace
bad "--keep-running without -d" "keep-running" record -b ptrace --keep-running -- true
bad "--log to an unwritable place" "nonexistent" record -b ptrace --log /nonexistent/dir/log -- true
if [ "$(id -u)" = 0 ]; then
	bad "-u unknown user" "no-such-user-kf" record -b ptrace -u no-such-user-kf -- true
fi
