#!/bin/sh
# The include graph of src/ between folders, from the #include "folder/file.h" lines: no cycle (tsort finds
# one when there is), and the layering DESIGN.md asks for: the footprint model includes no kernel knowledge
# (kernel/, ktree/, kmap/) and nothing above it; abi/ and util/ stand on util/ alone. The check runs on a made-up
# tree with a cycle first, so that it is known to fail when it should.
. "$(dirname "$0")/../lib.sh"

# edges DIR: "from to" for every include of another folder's header in DIR/src/*/*.[ch] and DIR/src/*.c
edges() {
	for f in "$1"/src/*/*.[ch] "$1"/src/*.c; do
		[ -f "$f" ] || continue
		from=$(basename "$(dirname "$f")")
		[ "$from" = src ] && from=main
		sed -n 's/^#[ \t]*include[ \t]*"\([a-z_0-9]*\)\/[^"]*".*/\1/p' "$f" | while read -r to; do
			[ "$to" != "$from" ] && [ -d "$1/src/$to" ] && echo "$from $to"
		done
	done | sort -u
}
# no_cycle DIR: tsort prints the folders in an order where each comes after what it includes; a loop fails it
no_cycle() {
	edges "$1" | tsort >/dev/null 2>"$T/tsort.err" && ! grep -q loop "$T/tsort.err"
}

mkdir -p "$T/cyc/src/a" "$T/cyc/src/b" "$T/cyc/src/c"
printf '#include "b/y.h"\n' >"$T/cyc/src/a/x.h"
printf '#include "c/z.h"\n' >"$T/cyc/src/b/y.h"
printf '#include "a/x.h"\n' >"$T/cyc/src/c/z.h"
if no_cycle "$T/cyc"; then
	not_ok "the check finds the cycle a -> b -> c -> a of a made-up tree"
else
	ok "the check finds the cycle a -> b -> c -> a of a made-up tree"
fi

edges "$KF_TOP" >"$T/edges"
check "src/ has include edges between folders" test -s "$T/edges"
if no_cycle "$KF_TOP"; then
	ok "no include cycle between the folders of src/"
else
	not_ok "an include cycle between folders of src/: $(cat "$T/tsort.err" | tr '\n' ' ')"
fi
echo "# layers, lowest first: $(tsort <"$T/edges" 2>/dev/null | tac | tr "\n" " ")"

# allowed FOLDER DEPS...: the folder includes headers of those folders only
allowed() {
	folder=$1
	shift
	bad=$(awk -v f="$folder" -v ok=" $* " '$1 == f && index(ok, " " $2 " ") == 0 { print $1 " -> " $2 }' "$T/edges")
	eq "$folder/ includes only: $*" "" "$bad"
}
allowed util
allowed abi util
allowed bpf
allowed footprint abi util
allowed kernel abi util
allowed ktree abi util
allowed kdwarf util
allowed kmap footprint kernel ktree kdwarf abi util # kdwarf: --vmlinux resolves kernel functions
allowed report inventory kmap footprint kernel ktree abi util
allowed inventory kmap footprint kernel ktree kdwarf abi util
allowed trace footprint bpf abi util
