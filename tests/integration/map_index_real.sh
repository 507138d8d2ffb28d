#!/bin/sh
# The kernel tree index on the real Debian linux-source-6.1 tree: eventfd2, futex, socket, membarrier and the count
# of x86_64 rows resolved to a full chain (checked by build/tests/test_ktree_real with KF_KSRC set).
# The tree is extracted once, by whichever test needs it first (ksrc_tree in tests/lib.sh).
. "$(dirname "$0")/../lib.sh"

bin="$KF_TOP/$KF_BUILD/tests/test_ktree_real"

if [ ! -x "$bin" ]; then
	not_ok "map_index_real: $bin is not built (make unit)"
	exit 0
fi
if ! src=$(ksrc_tree); then
	if [ -r "$KSRC_TARBALL" ]; then
		not_ok "map_index_real: no linux-source-* tree extracted from $KSRC_TARBALL"
	else
		skip map_index_real "$KSRC_TARBALL is missing (apt-get install linux-source-6.1)"
	fi
	exit 0
fi
KF_KSRC=$src KF_KTREE_MAINT="$T/maint.tsv" CMOCKA_MESSAGE_OUTPUT=TAP "$bin" >"$T/out" 2>&1
rc=$?
sed -e 's/^\(not \)\{0,1\}ok [0-9]* - /&real_/' -e '/^1\.\./d' "$T/out"
[ "$rc" -eq 0 ] || not_ok "map_index_real: test_ktree_real exited with status $rc"

# MAINTAINERS sections of every definition file against the tree's own scripts/get_maintainer.pl (as sets: the
# order of equally deep sections is Perl hash order there)
if ! command -v perl >/dev/null 2>&1 || [ ! -f "$src/scripts/get_maintainer.pl" ]; then
	skip "real_maintainers_match_get_maintainer.pl" "perl or scripts/get_maintainer.pl missing"
	exit 0
fi
sort -u "$T/maint.tsv" >"$T/ours"
for f in $(cut -f1 "$T/ours" | sort -u); do
	(cd "$src" && perl scripts/get_maintainer.pl --nol --nor --subsystem --no-rolestats --no-git --no-git-fallback \
		--no-keywords --no-tree -f "$f" 2>/dev/null) | grep -v '@' | sed "s|^|$f	|"
done | sort -u >"$T/theirs"
n=$(cut -f1 "$T/ours" | sort -u | wc -l)
if [ "$n" -gt 80 ] && cmp -s "$T/ours" "$T/theirs"; then
	ok "real_maintainers_match_get_maintainer.pl ($n files)"
else
	not_ok "real_maintainers_match_get_maintainer.pl ($n files)"
	diff "$T/ours" "$T/theirs" | head -n 20 | sed 's/^/#   /'
fi
