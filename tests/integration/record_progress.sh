#!/bin/sh
# The live status line: on a terminal (a pty here) a recording longer than a second shows it on stderr, and
# erases it before the report; never with -q, never when stderr is a file, never in the report or the JSON.
# kf-test: waits: 18 s wall, 1.5 CPU s in a measured make check: recordings kept longer than the status line's second
. "$(dirname "$0")/../lib.sh"

# on_pty CMD...: runs CMD with a pseudo-terminal as stdin, stdout and stderr; prints what it wrote, repr()'d.
on_pty() {
	timeout 60 python3 -c '
import os, pty, select, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
while select.select([fd], [], [], 30)[0]:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
os.waitpid(pid, 0)
print(repr(out))' "$@"
}

for b in $(kf_names backends); do
	[ "$b" = auto ] && continue
	if [ "$b" = bpf ] && ! bpf_or_skip "progress: bpf"; then continue; fi
	out=$(on_pty "$KF" record -b "$b" -d 2 -o "$T/p.json" --report "$T/p.txt" -- sleep 5)
	case $out in
	*'kfootprint: 1.'*' calls/s, 1 process alive, 0 lost'*) ok "progress $b: the status line on a terminal" ;;
	*) not_ok "progress $b: no status line on a terminal: $out" ;;
	esac
	case $out in
	*'\r\x1b[K'"'") ok "progress $b: erased at the end" ;;
	*) not_ok "progress $b: the line was not erased last: $out" ;;
	esac
	check "progress $b: not in the report" sh -c "! grep -q 'calls/s' '$T/p.txt'"
	check "progress $b: not in the JSON" sh -c "! grep -q 'calls/s' '$T/p.json'"
	out=$(on_pty "$KF" record -b "$b" -q -d 2 --report /dev/null -- sleep 5)
	case $out in
	*calls/s*) not_ok "progress $b: -q still shows the line: $out" ;;
	*) ok "progress $b: none with -q" ;;
	esac
	# the report on the terminal: the line is gone before it starts
	out=$(on_pty "$KF" record -b "$b" -d 2 -- sleep 5)
	case $out in
	*'\r\x1b[Kfootprint:    INCOMPLETE'*) ok "progress $b: erased before the report" ;;
	*) not_ok "progress $b: the report does not follow the erased line: $(printf '%.300s' "$out")" ;;
	esac
	"$KF" record -b "$b" -d 2 --report /dev/null -- sleep 5 2>"$T/err"
	check "progress $b: none when stderr is a file" sh -c "! grep -q 'calls/s' '$T/err'"
	out=$(on_pty "$KF" record -b "$b" --report /dev/null -- true)
	case $out in
	*calls/s*) not_ok "progress $b: a run shorter than 1 s showed the line: $out" ;;
	*) ok "progress $b: none for a run shorter than 1 s" ;;
	esac
done
