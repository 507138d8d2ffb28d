#!/bin/sh
# The include graph of src/ between folders, from the #include "folder/file.h" lines, against the table of
# docs/architecture.md ("Folders and their layering"), whose last column names every folder a folder may include:
# the tree must include exactly what the table allows (an include it does not allow fails, and so does an allowed
# folder the tree never includes), every folder of src/ must have a row and every row a folder, and no two
# folders may include each other in a cycle (tsort finds one when there is). The checks run on made-up trees
# first, so that each is known to fail when it should.
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
# folders DIR: every folder of DIR/src, and main for DIR/src/main.c
folders() {
	for d in "$1"/src/*/; do basename "$d"; done
	[ -f "$1/src/main.c" ] && echo main
}
# rules DOC: "folder allowed..." per row of the document's folder table ("| `kmap/` | ... | `footprint`, `abi` |",
# "—" for none; main.c is main)
rules() {
	awk '/^## Folders and their layering/ { on = 1; next } on && /^## / { on = 0 }
	on && /^\| `/ {
		n = split($0, cell, "|")
		folder = cell[2]; gsub(/[ `]/, "", folder); sub(/\/$/, "", folder); sub(/\.c$/, "", folder)
		deps = cell[n - 1]; gsub(/[`,—]/, " ", deps); gsub(/  +/, " ", deps); sub(/^ /, "", deps); sub(/ $/, "", deps)
		print folder (deps == "" ? "" : " " deps)
	}' "$1"
}
# violations DIR DOC: one line per disagreement of DIR's tree with DOC's table
violations() {
	rules "$2" >"$T/rules"
	edges "$1" >"$T/edges.v"
	folders "$1" >"$T/folders"
	awk 'FILENAME == ARGV[1] { row[$1] = 1; for (i = 2; i <= NF; i++) ok[$1 " " $i] = 1; next }
	FILENAME == ARGV[2] { have[$1] = 1; if (!($1 in row)) print "src/" $1 ": no row in the table"; next }
	{ used[$1 " " $2] = 1; if (!(($1 " " $2) in ok)) print $1 " -> " $2 ": not allowed by the table" }
	END {
		for (r in row) if (!(r in have)) print r ": a row, but no such folder in src/"
		for (e in ok) if (!(e in used)) {
			split(e, p, " ")
			if (p[1] in have) print p[1] " -> " p[2] ": allowed, but never included"
		}
	}' "$T/rules" "$T/folders" "$T/edges.v" | sort
}

# Made-up trees: a cycle; an include the table does not allow, an allowance never used, a folder without a row
mkdir -p "$T/cyc/src/a" "$T/cyc/src/b" "$T/cyc/src/c"
printf '#include "b/y.h"\n' >"$T/cyc/src/a/x.h"
printf '#include "c/z.h"\n' >"$T/cyc/src/b/y.h"
printf '#include "a/x.h"\n' >"$T/cyc/src/c/z.h"
if no_cycle "$T/cyc"; then
	not_ok "the check finds the cycle a -> b -> c -> a of a made-up tree"
else
	ok "the check finds the cycle a -> b -> c -> a of a made-up tree"
fi
mkdir -p "$T/bad/src/util" "$T/bad/src/model" "$T/bad/src/view" "$T/bad/src/extra"
printf '#include "util/u.h"\n#include "view/v.h"\n' >"$T/bad/src/model/m.c"
printf '#include "model/m.h"\n' >"$T/bad/src/view/v.c"
printf 'int main(void) { return 0; }\n' >"$T/bad/src/main.c"
cat >"$T/bad/arch.md" <<'EOF'
## Folders and their layering

| folder | holds | includes |
|---|---|---|
| `util/` | helpers | — |
| `model/` | the model | `util` |
| `view/` | renderers | `model`, `util` |
| `main.c` | main | — |
| `gone/` | a folder removed | `util` |

## Next
| `util/` | not the table | `view` |
EOF
violations "$T/bad" "$T/bad/arch.md" >"$T/bad.out"
eq "a made-up tree: each disagreement with its table found" "gone: a row, but no such folder in src/
model -> view: not allowed by the table
src/extra: no row in the table
view -> util: allowed, but never included" "$(cat "$T/bad.out")"

edges "$KF_TOP" >"$T/edges"
check "src/ has include edges between folders" test -s "$T/edges"
if no_cycle "$KF_TOP"; then
	ok "no include cycle between the folders of src/"
else
	not_ok "an include cycle between folders of src/: $(cat "$T/tsort.err" | tr '\n' ' ')"
fi
echo "# layers, lowest first: $(tsort <"$T/edges" 2>/dev/null | tac | tr "\n" " ")"
rules "$KF_TOP/docs/architecture.md" >"$T/rules.top"
check "docs/architecture.md has a row for each of util/, footprint/, boot/, qemu/, cmd/, main.c" \
	sh -c "for f in util footprint boot qemu cmd main; do grep -q \"^\$f\\b\" '$T/rules.top' || exit 1; done"
violations "$KF_TOP" "$KF_TOP/docs/architecture.md" >"$T/top.out"
eq "src/ includes exactly what docs/architecture.md allows" "" "$(cat "$T/top.out")"
