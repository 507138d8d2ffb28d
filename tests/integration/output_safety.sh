#!/bin/sh
# Output files are not a root file-replacement primitive (issue 13, part 1), for every output option: record -o,
# --report, --log; report -o; map -o and --save-db. As root, against entries owned by `nobody` in /tmp (sticky,
# world-writable), in a world-writable directory without the sticky bit (where fs.protected_symlinks would not
# help even when it is on) and in private directories: a link of another user is never followed, another
# user's file in a shared directory never replaced, special bits and other users' modes never copied, new files
# get 0644 (0600 for another user's workload) & ~umask; every path is checked before the workload runs.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "output safety" "needs root (the cases are root writing where another user can plant entries)"
	exit 0
fi
if ! id nobody >/dev/null 2>&1 || ! setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	skip "output safety" "no user nobody, or setpriv cannot become it"
	exit 0
fi
umask 022
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
SAMPLE="$KF_TOP/tests/fuzz/corpus/sample.json"
KTREE="$KF_TOP/tests/fixtures/ktree-basic"
chmod 755 "$T"
MARK="$T/ran"
# Where nobody plants entries: /tmp itself (sticky, 1777), a world-writable directory without the sticky bit,
# and a directory of nobody's own (0755: private, but not ours).
PUB=/tmp
WW="$T/ww"
NB="$T/nobodys"
mkdir "$WW" "$NB"
chmod 777 "$WW"
chown nobody:nogroup "$NB"
# Names in /tmp are unique per run and removed at exit along with $T.
tag=kf-os-$$
trap 'rm -rf "$T" /tmp/$tag.*' EXIT

# out OPTION PATH: runs the command that writes PATH through OPTION, with a workload that leaves $MARK.
# Its exit status, stdout and stderr are in $rc, $T/out and $T/err.
out() {
	rm -f "$MARK"
	case $1 in
	-o | --report | --log)
		"$KF" record -b ptrace -F csv "$1" "$2" -- sh -c "touch '$MARK'" >"$T/out" 2>"$T/err" ;;
	report) "$KF" report -F csv -o "$2" "$SAMPLE" >"$T/out" 2>"$T/err" ;;
	map) "$KF" map -o "$2" --no-running --syscalls read >"$T/out" 2>"$T/err" ;;
	save-db) "$KF" map --kernel-src "$KTREE" --no-cache --no-running --save-db "$2" >"$T/out" 2>"$T/err" ;;
	esac
	rc=$?
}
OPTS="-o --report --log report map save-db"
# refused NAME WANT: the last out failed with one line containing WANT, before its workload ran.
refused() {
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "$2" "$T/err" && [ ! -e "$MARK" ]; then
		ok "$1"
	else
		not_ok "$1: exit $rc, workload ran: $([ -e "$MARK" ] && echo yes || echo no), stderr: $(head -c 300 "$T/err")"
	fi
}
# written NAME: the last out succeeded, one line at most on stderr (the record report goes there with -F csv).
written() {
	if [ "$rc" -eq 0 ]; then ok "$1"; else not_ok "$1: exit $rc: $(head -c 300 "$T/err")"; fi
}
state() { stat -c '%U %a %s %F' "$1" 2>&1; }

# --- a link of nobody to a root-owned victim: never followed, never replaced -------------------------------------
echo "root's secret" >"$T/victim"
chmod 600 "$T/victim"
for dir in "$PUB" "$WW" "$NB"; do
	where=$([ "$dir" = "$PUB" ] && echo "sticky /tmp" || { [ "$dir" = "$WW" ] && echo "world-writable dir" || echo "nobody's own dir"; })
	for opt in $OPTS; do
		link="$dir/$tag.link.$(echo "$opt" | tr -d -)"
		as_nobody ln -s "$T/victim" "$link"
		out "$opt" "$link"
		refused "$where, $opt: a link of nobody is refused before the run" "symbolic link of nobody"
		eq "$where, $opt: the victim is untouched" "root 600 14 regular file|root's secret" \
			"$(state "$T/victim")|$(cat "$T/victim")"
		eq "$where, $opt: the link stays nobody's link" "nobody 777" "$(stat -c '%U %a' "$link")"
		rm -f "$link"
	done
done
# a link in the middle of the path too
as_nobody ln -s "$T" "$WW/$tag.dirlink"
out -o "$WW/$tag.dirlink/victim"
refused "a link of nobody on the way to the file is refused" "'$WW/$tag.dirlink' is a symbolic link of nobody"
eq "on the way: the victim is untouched" "root's secret" "$(cat "$T/victim")"

# --- a setuid/setgid world-writable file of nobody ------------------------------------------------------------
for opt in $OPTS; do
	f="$PUB/$tag.suid.$(echo "$opt" | tr -d -)"
	as_nobody sh -c "touch '$f' && chmod 6777 '$f'"
	out "$opt" "$f"
	refused "sticky /tmp, $opt: nobody's 6777 file is not replaced" "a file of nobody .* not replaced"
	eq "sticky /tmp, $opt: it stays nobody's, empty" "nobody 6777 0 regular empty file" "$(state "$f")"
	# where nobody cannot plant entries, replacing it is safe: the new file is root's, with our mode
	f2="$T/$tag.suid.$(echo "$opt" | tr -d -)"
	touch "$f2" && chown nobody:nogroup "$f2" && chmod 6777 "$f2"
	out "$opt" "$f2"
	written "private dir, $opt: nobody's 6777 file is replaced"
	eq "private dir, $opt: by a root file, 0644, not setuid" "root 644" "$(stat -c '%U %a' "$f2")"
done

# --- modes of new files and replaced ones ------------------------------------------------------------------------
for um in 022 077 027 002; do
	for opt in $OPTS; do
		f="$T/new.$um.$(echo "$opt" | tr -d -)"
		(umask "$um" && out "$opt" "$f" && [ "$rc" -eq 0 ]) || not_ok "umask $um, $opt: the run failed"
		eq "umask $um, $opt: a new file is 0644 & ~umask" "$(printf '%o' $((0644 & ~0$um)))" "$(stat -c '%a' "$f")"
	done
done
# another user's workload: its command lines and paths are not for all to read
for opt in -o --report --log; do
	f="$T/u.$(echo "$opt" | tr -d -)"
	(umask 022 && "$KF" record -b ptrace -u nobody -F csv "$opt" "$f" -- true >/dev/null 2>&1)
	eq "-u nobody, $opt: 0600" 600 "$(stat -c '%a' "$f")"
done
chmod 600 "$T/u.o"
(umask 022 && "$KF" report -F text -o "$T/u.txt" "$T/u.o" && "$KF" map -o "$T/u.map" "$T/u.o") 2>/dev/null
eq "report -o and map -o of a 0600 footprint: 0600 too" "600 600" "$(stat -c '%a' "$T/u.txt" "$T/u.map" | tr '\n' ' ' | sed 's/ $//')"
# a file of ours keeps its permissions, never its special bits
printf 'old\n' >"$T/mine.json"
chmod 640 "$T/mine.json"
out -o "$T/mine.json"
eq "our own file keeps its mode" "root 640" "$(stat -c '%U %a' "$T/mine.json")"
chmod 4755 "$T/mine.json"
out -o "$T/mine.json"
eq "our own setuid file loses the setuid bit" "root 755" "$(stat -c '%U %a' "$T/mine.json")"
# a link of ours is followed: its target gets the content, the link stays
printf 'old\n' >"$T/real.json"
ln -s real.json "$T/mylink.json"
out -o "$T/mylink.json"
eq "a link of ours: followed, the link kept" "symbolic link|kfootprint/1" \
	"$(stat -c '%F' "$T/mylink.json")|$(jget "$T/real.json" "d['schema']")"

# --- a bad path fails before the workload runs, with one line -------------------------------------------------
mkdir "$T/adir"
mkdir "$T/rootonly" && chmod 755 "$T/rootonly"
for opt in $OPTS; do
	out "$opt" "$T/no/such/dir/f"
	refused "$opt into a missing directory: refused before the run" "No such file or directory"
	out "$opt" "$T/adir"
	refused "$opt onto a directory: refused before the run" "Is a directory"
done
# what nobody may not write: refused before the run, not after it (ptrace needs no privilege)
for opt in -o --report --log; do
	rm -f "$MARK"
	as_nobody "$KF" record -b ptrace -F csv "$opt" "$T/rootonly/f" -- sh -c "touch '$T/nobodys/ran'" >/dev/null 2>"$T/err"
	rc=$?
	eq "$opt as nobody into a directory of root: one line, the workload did not run" "1 1 no" \
		"$rc $(wc -l <"$T/err") $([ -e "$T/nobodys/ran" ] && echo yes || echo no)"
	rm -f "$T/nobodys/ran"
done
# report and map check -o before reading anything: the -o error, not the input's
"$KF" report -o "$T/no/dir/r.txt" "$T/missing.json" 2>"$T/err"
eq "report: -o is checked before the footprint is read" "kfootprint: '$T/no/dir/r.txt': No such file or directory" "$(cat "$T/err")"
"$KF" map -o "$T/no/dir/m.txt" --kernel-src "$T/no-tree" --syscalls read 2>"$T/err"
eq "map: -o is checked before the tree is indexed" "kfootprint: '$T/no/dir/m.txt': No such file or directory" "$(cat "$T/err")"
eq "nothing left behind by the refused runs" "" "$(find "$T/adir" "$T/rootonly" -mindepth 1)"

# --- an entry nobody plants during the run is not replaced at the end --------------------------------------------
late="$PUB/$tag.late.json"
"$KF" record -b ptrace --report /dev/null -o "$late" -- setpriv --reuid=nobody --regid=nogroup --clear-groups \
	sh -c "echo nobody > '$late'" >/dev/null 2>"$T/err"
rc=$?
kept=$(sed -n "s/.*the output is in '\(.*\)'$/\1/p" "$T/err")
eq "planted during the run: not replaced, one line" "1 1 nobody" "$rc $(wc -l <"$T/err") $(cat "$late")"
if [ -n "$kept" ] && [ -f "$kept" ]; then
	eq "planted during the run: the footprint is kept where the message says" "kfootprint/1 root" \
		"$(jget "$kept" "d['schema']") $(stat -c %U "$kept")"
	rm -f "$kept"
else
	not_ok "planted during the run: the footprint is kept where the message says: $(cat "$T/err")"
fi

# --- /dev/null, /dev/stdout and '-' still work for every option ------------------------------------------------
for opt in $OPTS; do
	for dev in /dev/null /dev/stdout -; do
		[ "$opt" = save-db ] && [ "$dev" != /dev/null ] && continue # the database on stdout: tested in map_formats
		out "$opt" "$dev"
		case $opt:$dev in
		*:/dev/null) written "$opt $dev" ;;
		-o:*) eq "$opt $dev: the footprint on stdout" "0 kfootprint/1" "$rc $(python3 -c 'import json,sys; print(json.load(sys.stdin)["schema"])' <"$T/out" 2>&1)" ;;
		# a recording has the reached column; the saved sample footprint that `report` reads has none
		--report:*) eq "$opt $dev: the csv report on stdout" "0 abi,name,nr,calls,errors,time_s,class,reached" "$rc $(head -n1 "$T/out")" ;;
		report:*) eq "$opt $dev: the csv report on stdout" "0 abi,name,nr,calls,errors,time_s,class" "$rc $(head -n1 "$T/out")" ;;
		--log:*) eq "$opt $dev: the log on stdout" "0 execve" "$rc $(head -n1 "$T/out" | sed 's/^[0-9]* \([a-z0-9_]*\)(.*/\1/')" ;;
		map:*) eq "$opt $dev: the map on stdout" "0 kfootprint map of syscall read, x86_64" "$rc $(head -n1 "$T/out")" ;;
		esac
	done
done
stat -c '%F' /dev/null | grep -q 'character special' && ok "/dev/null is still a device" || not_ok "/dev/null was replaced"
# a FIFO: written in place
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.out" &
out --report "$T/fifo"
wait
eq "--report into a FIFO: written in place" "0 abi,name,nr,calls,errors,time_s,class,reached" "$rc $(head -n1 "$T/fifo.out")"
# a FIFO of nobody in sticky /tmp is not written into (what the report holds is not nobody's to read)
as_nobody mkfifo "$PUB/$tag.fifo"
out --report "$PUB/$tag.fifo"
refused "a FIFO of nobody in /tmp is not written into" "FIFO of nobody"
