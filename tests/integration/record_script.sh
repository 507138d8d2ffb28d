#!/bin/sh
# A COMMAND found in PATH that is a script (a shim) is said once on stderr: its interpreter's processes are in the
# footprint (issue 23). zcat, a shell script around gzip on Debian, is the real one; a shim of our own, the same;
# not with -q, not for a COMMAND given by its path, not for a program, not for -p.
. "$(dirname "$0")/../lib.sh"

zc=$(command -v zcat)
echo hello | gzip >"$T/h.gz"
if [ -n "$zc" ] && [ "$(head -c 2 "$zc")" = "#!" ]; then
	"$KF" record -b ptrace -o "$T/z.json" --report /dev/null -- zcat "$T/h.gz" >"$T/z.out" 2>"$T/z.err"
	eq "zcat: its output and exit status" "hello 0" "$(cat "$T/z.out") $?"
	eq "zcat: the note, one line" \
		"kfootprint: note: $zc is a script ($(head -n 1 "$zc")): its interpreter's processes are in the footprint" \
		"$(cat "$T/z.err")"
	# the shell runs first, then execs gzip: one process whose exec chain holds both
	eq "zcat: the interpreter, then gzip, in the footprint" "$(readlink -f /bin/sh) $(readlink -f "$(command -v gzip)")" \
		"$(jget "$T/z.json" "' '.join(d['processes'][0]['exec_chain'])")"
else
	skip "zcat" "no zcat script here"
fi

mkdir -p "$T/bin"
printf '#!/bin/sh -e\nexec true "$@"\n' >"$T/bin/shim"
chmod +x "$T/bin/shim"
PATH="$T/bin:$PATH" "$KF" record -b ptrace --report /dev/null -- shim 2>"$T/s.err"
eq "a shim of our own: exit 0, the note" \
	"0 kfootprint: note: $T/bin/shim is a script (#!/bin/sh -e): its interpreter's processes are in the footprint" \
	"$? $(cat "$T/s.err")"
PATH="$T/bin:$PATH" "$KF" record -b ptrace -q --report /dev/null -- shim 2>"$T/q.err"
eq "-q: no note" "0 " "$? $(cat "$T/q.err")"
"$KF" record -b ptrace --report /dev/null -- "$T/bin/shim" 2>"$T/p.err"
eq "given by its path: no note" "0 " "$? $(cat "$T/p.err")"
"$KF" record -b ptrace --report /dev/null -- true 2>"$T/t.err"
eq "a program: no note" "0 " "$? $(cat "$T/t.err")"
sh -c 'sleep 0.5; exec true' &
spid=$!
"$KF" record -b ptrace -p "$spid" --report /dev/null 2>"$T/a.err"
eq "-p: no note" "kfootprint: attached to $spid (sh), thread $spid" "$(cat "$T/a.err")"
wait "$spid" || :
