#!/bin/sh
# Renderers only render: annotate completes before any of them runs (docs/architecture.md). No file of
# src/report/ includes a header of the tree index (src/ktree/) or calls a resolver: the tree index's readers,
# the databases' lookups and chains, the builders of mappings and of needs, the annotate stage itself, the
# running kernel's loader. Reading what those left (kfdb_file(), kmap_row_where(), annotate_maps(), ...) is
# rendering. The check runs on a made-up renderer first, so that it is known to fail when it should.
. "$(dirname "$0")/../lib.sh"

RESOLVERS='kt_(index|fdefs|config|compiled|reach|read|cache)_[a-z_]*|kfdb_(chain|find|option|add_file|file_index|from_tree|builtin|parse|save)|kfmap_build|kmap_build|kmap_add_reach|kmap_inputs_footprint|kneeds_build|mapdb_(builtin|parse|from_index|save|has_builtin)|annotate_(kernel|kfuncs|builtin|classes)|kf_running__load'

# impure DIR: "file:line: text" for each include of ktree/ or call of a resolver in DIR/*.[ch] (comments aside)
impure() {
	grep -nE "^#[ \t]*include[ \t]*\"ktree/" "$1"/*.[ch] 2>/dev/null
	grep -nE "(^|[^a-z_])($RESOLVERS)[ \t]*\(" "$1"/*.[ch] 2>/dev/null | grep -vE '^[^:]*:[0-9]+:[ \t]*(/?\*|//)'
}

mkdir -p "$T/fake"
printf '#include "ktree/ktree.h"\n' >"$T/fake/a.c"
printf 'static int f(void) { return kfdb_chain(db, 0) != 0; }\n' >"$T/fake/b.c"
printf 'static int g(void) { return my_kfdb_chain_count + kfdb_file(db, 0) != 0; }\n/* kfdb_chain() made it */\n' >"$T/fake/c.c"
eq "the check finds an include and a call in a made-up renderer, and not a mere name" \
	"a.c b.c" "$(impure "$T/fake" | cut -d: -f1 | xargs -n1 basename | sort -u | tr '\n' ' ' | sed 's/ $//')"

check "src/report/ has renderers" test -f "$KF_TOP/src/report/map_kconfig.c"
eq "no renderer includes the tree index or calls a resolver" "" "$(impure "$KF_TOP/src/report")"
