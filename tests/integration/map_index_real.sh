#!/bin/sh
# The kernel tree index on the real Debian linux-source-6.1 tree: eventfd2, futex, socket, membarrier and the count
# of x86_64 rows resolved to a full chain (checked by build/tests/test_ktree_real with KF_KSRC set).
# The tree is extracted once from /usr/src/linux-source-6.1.tar.xz (apt package linux-source-6.1, in the
# Makefile's APT_MAP) into $KF_KSRC_CACHE (default /var/tmp/kfootprint-ksrc) and reused afterwards.
. "$(dirname "$0")/../lib.sh"

tarball=/usr/src/linux-source-6.1.tar.xz
cache=${KF_KSRC_CACHE:-/var/tmp/kfootprint-ksrc}
bin="$KF_TOP/$KF_BUILD/tests/test_ktree_real"

if [ ! -x "$bin" ]; then
	not_ok "map_index_real: $bin is not built (make unit)"
	exit 0
fi
if [ ! -f "$cache/.kf-complete" ]; then
	if [ ! -r "$tarball" ]; then
		skip map_index_real "$tarball is missing (apt-get install linux-source-6.1)"
		exit 0
	fi
	# extract next to the cache and rename, so an interrupted run never leaves half a tree behind
	rm -rf "$cache.tmp" && mkdir -p "$cache.tmp" || { not_ok "map_index_real: cannot create $cache.tmp"; exit 0; }
	if ! tar -xJf "$tarball" -C "$cache.tmp"; then
		rm -rf "$cache.tmp"
		not_ok "map_index_real: cannot extract $tarball"
		exit 0
	fi
	rm -rf "$cache" && mv "$cache.tmp" "$cache" && touch "$cache/.kf-complete"
fi
src=$(find "$cache" -mindepth 1 -maxdepth 1 -type d -name 'linux-source-*' | head -n 1)
if [ -z "$src" ]; then
	not_ok "map_index_real: no linux-source-* directory in $cache"
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
