#!/bin/sh
# Usage errors on every command (the list comes from `kfootprint --help`, i.e. kf_commands[]): an unknown
# option, a short one, a missing value, a value for an option that takes none, an ambiguous abbreviation.
# Each is one line in kfootprint's voice naming the command's --help, exit status 1 (strace's convention),
# nothing on standard output and nothing run. --help is exit 0 on standard output.
. "$(dirname "$0")/../lib.sh"

commands=$("$KF" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
check "kfootprint --help lists the commands" test -n "$commands"

# usage NAME EXPECTED-STDERR ARGS...: exit $urc (1; diff's errors are 2, diff(1)'s convention), one line,
# stdout empty
urc=1
usage() {
	name=$1 want=$2
	shift 2
	timeout 10 "$KF" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -eq "$urc" ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "$want" ]; then
		ok "$name"
	else
		not_ok "$name: exit $rc, stdout $(head -c 100 "$T/out"), stderr: $(head -c 300 "$T/err")"
	fi
}
for c in $commands; do
	case $c in diff) urc=2 ;; *) urc=1 ;; esac
	see="see 'kfootprint $c --help'"
	usage "$c --bogus" "kfootprint: unknown option '--bogus': $see" "$c" --bogus -- true
	usage "$c -Z" "kfootprint: unknown option '-Z': $see" "$c" -Z -- true
	usage "$c --help=x" "kfootprint: option '--help' takes no value: $see" "$c" --help=x
	usage "$c -o without a value" "kfootprint: option '-o' needs a value: $see" "$c" -o
	usage "$c --output without a value" "kfootprint: option '--output' needs a value: $see" "$c" --output
	"$KF" "$c" --help >"$T/help" 2>"$T/err"
	eq "$c --help: exit 0, on stdout only" "0 1" "$? $(grep -c "^usage: kfootprint.* $c\|^usage: kfootprint \[$c\]" "$T/help")$(cat "$T/err")"
done
# no command means record, options and usage errors included
urc=1
usage "no command: --bogus" "kfootprint: unknown option '--bogus': see 'kfootprint record --help'" --bogus -- true
usage "no command, no argument" "kfootprint: nothing to do: see 'kfootprint --help'"
usage "record: an ambiguous abbreviation" \
	"kfootprint: ambiguous option '--no' (--no-pin, --no-time, --no-reach): see 'kfootprint record --help'" record --no -- true
# getopt's habits kept: abbreviations, --opt=value, options after the footprint (report, map)
"$KF" report --form=csv "$KF_TOP/tests/fuzz/corpus/sample.json" >"$T/csv" 2>&1
eq "report: an unambiguous abbreviation is taken" "abi,name,nr,calls,errors,time_s,class" "$(head -n1 "$T/csv")"
"$KF" report "$KF_TOP/tests/fuzz/corpus/sample.json" -F tree >"$T/tree" 2>&1
eq "report: options after the file" "1" "$(grep -c '^ 100  sh ' "$T/tree")"
# record: options end at the workload, whose own options are its own
"$KF" record -b ptrace --report /dev/null -- sh -c 'exit 3' --bogus
eq "record: the workload's options are not kfootprint's" 3 $?
# the names of -b and -F come from the registries, in the error and in --help alike
for reg in backends formats map_formats; do
	names=$(kf_names "$reg")
	check "the $reg registry names something" test -n "$names"
done
eq "record -b: auto, then the registry" "auto" "$(kf_names backends | cut -d' ' -f1)"
"$KF" record --help >"$T/rhelp"
eq "record --help lists the backends of the registry" 1 \
	"$(grep -c -- "--backend NAME *$(kf_names backends | sed 's/ /, /g'):" "$T/rhelp")"

# The man page's EXIT STATUS names every command (one entry, or a shared one where the statuses agree), and the
# usage-error statuses it gives are the ones seen above (diff 2, the others 1).
sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$KF_TOP/man/kfootprint.1" >"$T/exit.man"
for c in $commands; do
	eq "man EXIT STATUS: an entry for $c" 1 "$(grep -cE "^\.B (.*\\\\fB)?$c(\\\\fR|\$)" "$T/exit.man")"
done
eq "man EXIT STATUS: diff's usage errors are 2" 1 "$(grep -c '2 on any error, usage errors included' "$T/exit.man")"
if command -v groff >/dev/null; then
	eq "the man page renders without warnings" "" "$(groff -man -Tutf8 -ww -z "$KF_TOP/man/kfootprint.1" 2>&1)"
fi
