#!/bin/sh
# Never destroy an input (issue 24): with every command, an output that is the same file as an input or as
# another output (the same path, another spelling of it, a link, a hard link, standard input redirected from it,
# a path not there yet given twice) is refused before any work, in one line, and every file is left as it was.
. "$(dirname "$0")/../lib.sh"

SAMPLE="$KF_TOP/tests/fuzz/corpus/sample.json"
KTREE="$KF_TOP/tests/fixtures/ktree-basic"
W="$T/w" # the files of the cases; what the commands print goes beside it
mkdir "$W" && cd "$W" || exit 1
MARK="$T/ran"

# refused NAME WANT COMMAND...: COMMAND fails with one line that contains WANT; no file of $T changed, no workload ran
refused() {
	name=$1 want=$2
	shift 2
	rm -f "$MARK"
	before=$(ls -l --time-style=+%s.%N "$W" | sha256sum)
	sums=$(cat "$W"/* | sha256sum)
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "$want" "$T/err" && [ ! -e "$MARK" ] &&
		[ "$before" = "$(ls -l --time-style=+%s.%N "$W" | sha256sum)" ] &&
		[ "$sums" = "$(cat "$W"/* | sha256sum)" ]; then
		ok "$name"
	else
		not_ok "$name: exit $rc, workload ran: $([ -e "$MARK" ] && echo yes || echo no), files: $(ls "$W" | tr '\n' ' ')stderr: $(head -c 400 "$T/err")"
	fi
}
IN="the same file as the input"
OUT="the same file as the output"
cp "$SAMPLE" a.json
cp "$SAMPLE" b.json
ln -s a.json link.json
ln a.json hard.json
mkdir sub
echo "CONFIG_64BIT=y" >c.cfg
wl="sh -c 'touch $MARK'"

# --- record: its outputs one with another, before the workload runs -------------------------------------------
refused "record -o X --report X (X not there yet)" "'new.json': $OUT 'new.json'" \
	sh -c "exec '$KF' record -b ptrace -o new.json --report new.json -- $wl"
refused "record -o X --report X (X there)" "$OUT" sh -c "exec '$KF' record -b ptrace -o a.json --report a.json -- $wl"
refused "record -o X --log sub/../X" "'sub/../n.json': $OUT 'n.json'" \
	sh -c "exec '$KF' record -b ptrace -o n.json --log sub/../n.json -- $wl"
refused "record --report X --map-output ./X" "$OUT" \
	sh -c "exec '$KF' record -b ptrace --report r.txt --map --map-output ./r.txt -- $wl"
refused "record -o a link --report its target" "$OUT" \
	sh -c "exec '$KF' record -b ptrace -o link.json --report a.json -- $wl"

# --- every command with an input ----------------------------------------------------------------------------
refused "report -o X X" "'a.json': $IN 'a.json'" "$KF" report -o a.json a.json
refused "report -o X \$PWD/X" "$IN" "$KF" report -o a.json "$W/a.json"
refused "report -o a hard link of the input" "'hard.json': $IN 'a.json'" "$KF" report -o hard.json a.json
refused "report -o a link to the input" "'link.json': $IN" "$KF" report -o link.json a.json
refused "report -o X - <X" "'a.json': $IN 'standard input'" sh -c "exec '$KF' report -o a.json - <a.json"
refused "map -o X X" "$IN" "$KF" map --no-running -o a.json a.json
refused "map --save-db X --kernel-config X" "'c.cfg': $IN 'c.cfg'" \
	"$KF" map --kernel-src "$KTREE" --kernel-config c.cfg --no-cache --no-running --save-db c.cfg
refused "map -o X --save-db ./X" "$OUT" \
	"$KF" map --kernel-src "$KTREE" --no-cache --no-running -o m.json --save-db ./m.json --syscalls read
refused "seccomp -o X X" "$IN" "$KF" seccomp -o a.json a.json
refused "diff -o X X other" "'a.json': $IN 'a.json'" "$KF" diff -o a.json a.json b.json
refused "diff -o Y X Y" "'b.json': $IN 'b.json'" "$KF" diff -o b.json a.json b.json
refused "merge -o X other X" "$IN" "$KF" merge -o a.json b.json a.json
refused "merge -o a link of an input" "$IN" "$KF" merge -o link.json b.json a.json
refused "inventory --config X -o X" "'c.cfg': $IN 'c.cfg'" "$KF" inventory --kernel-src "$KTREE" --config c.cfg -o c.cfg
echo kernel >k.img
echo initrd >i.img
refused "qemu --initrd X -o X" "'i.img': $IN 'i.img'" "$KF" qemu --kernel k.img --initrd i.img -o i.img
refused "qemu --kernel X --report X" "'k.img': $IN 'k.img'" "$KF" qemu --kernel k.img --initrd i.img --report k.img
refused "qemu -o X --report ./X" "$OUT" "$KF" qemu --kernel k.img --initrd i.img -o q.json --report ./q.json

# --- what is no file of the rule still works: /dev/null twice, "-", distinct files -----------------------------
check "record -o /dev/null --report /dev/null: allowed" "$KF" record -b ptrace -o /dev/null --report /dev/null -- true
check "report -o - X: allowed" "$KF" report -F csv -o - a.json
check "report -o Y X: allowed" "$KF" report -o y.txt a.json
cmp -s "$SAMPLE" a.json && ok "the input is intact after it all" || not_ok "a.json changed"
