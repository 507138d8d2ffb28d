#!/bin/sh
# The closure of needed options over a real Kconfig (Debian's linux-source-6.1), judged by the kernel's own tools:
# every option the built-in x86_64 database maps to (its "options", all asked for on, after 64BIT) is closed by
# build/tests/test_kconfig_real into a fragment; the kernel's scripts/kconfig/merge_config.sh -n (allnoconfig
# plus the fragment, then its own check of each requested value) must find every value it was given, and the
# resulting .config must hold every value the closure computed, for the options it brought in as well. The same
# options as a bare fragment (no closure) lose some: that is what the closure is for. What the closure calls
# unmet must be off in that .config too.
#
# The tree is read only: merge_config.sh runs in a build directory of the test's (O=, its make run with -C on the
# tree), which keeps the kernel's kconfig tools built between runs ($KF_KCONF_CACHE, default
# /var/tmp/kfootprint-kconf, under a lock).
. "$(dirname "$0")/../lib.sh"

bin="$KF_TOP/$KF_BUILD/tests/test_kconfig_real"
db="$KF_TOP/data/mapdb-6.1-x86_64.json"

[ -x "$bin" ] || { not_ok "kconfig_closure: $bin is not built (make unit)"; exit 0; }
if ! src=$(ksrc_tree); then
	skip kconfig_closure "$KSRC_TARBALL is missing (apt-get install linux-source-6.1)"
	exit 0
fi
kconfig_tools_or_skip kconfig_closure || exit 0

{ echo 64BIT; "$PY" -c 'import json, sys
for o in json.load(open(sys.argv[1]))["options"]:
    if o["name"] != "64BIT": print(o["name"])' "$db"; } >"$T/want" || { not_ok "kconfig_closure: cannot read $db"; exit 0; }
nwant=$(wc -l <"$T/want")

KF_KSRC=$src KF_KCONFIG_WANT="$T/want" KF_KCONFIG_FRAG="$T/frag" KF_KCONFIG_EXPECT="$T/expect" \
	CMOCKA_MESSAGE_OUTPUT=TAP "$bin" >"$T/closure.out" 2>&1
rc=$?
sed -e '/^1\.\./d' -e 's/^\(not \)\{0,1\}ok [0-9]* - /&kconfig_/' "$T/closure.out" | grep -v '^# unmet'
[ "$rc" -eq 0 ] || { not_ok "kconfig_closure: test_kconfig_real exited $rc"; exit 0; }

# merge DIR FRAGMENT: the kernel's own script (tests/lib.sh), writing only into DIR
merge() { kconfig_merge "$src" "$1" "$2"; }
kconfig_lock || { not_ok "kconfig_closure: cannot lock the kconfig tools' cache"; exit 0; }
merge "$kconf/closure" "$T/frag" >"$T/merge.out" 2>&1 || { not_ok "kconfig_closure: merge_config.sh failed"; tail -n 20 "$T/merge.out" | sed 's/^/#   /'; }
lost=$(grep -c 'not in final' "$T/merge.out")
eq "kconfig_closure: merge_config.sh keeps every value of the closure's fragment ($(grep -c '^CONFIG_' "$T/frag") set)" 0 "$lost"
grep -A2 'not in final' "$T/merge.out" | head -n 12 | sed 's/^/#   /'

# every option of the closure, those it brought in and the hidden ones too, has the value it computed
bad=0
while read -r opt want _; do
	got=$(sed -n "s/^CONFIG_$opt=//p" "$kconf/closure/.config")
	[ "${got:-n}" = "$want" ] || { bad=$((bad + 1)); echo "#   CONFIG_$opt: closure $want, .config ${got:-n}"; }
done <"$T/expect"
eq "kconfig_closure: the .config agrees with the closure on all $(wc -l <"$T/expect") options ($nwant asked)" 0 "$bad"

# what it calls unmet cannot be on
wrong=0
for opt in $(sed -n 's/^# unmet \([A-Z0-9_]*\):.*/\1/p' "$T/closure.out"); do
	grep -q "^CONFIG_$opt=[ym]" "$kconf/closure/.config" && { wrong=$((wrong + 1)); echo "#   unmet CONFIG_$opt is on"; }
done
nunmet=$(grep -c '^# unmet' "$T/closure.out")
eq "kconfig_closure: the $nunmet options called unmet are off" 0 "$wrong"

# the same options bare: the kernel drops those whose dependencies nobody asked for
sed 's/^\(.*\)$/CONFIG_\1=y/' "$T/want" >"$T/bare"
merge "$kconf/bare" "$T/bare" >"$T/bare.out" 2>&1
bare_lost=$(grep -c 'not in final' "$T/bare.out")
if [ "$bare_lost" -gt "$nunmet" ]; then
	ok "kconfig_closure: without the closure the kernel drops $bare_lost of $nwant ($nunmet of them unmet)"
else
	not_ok "kconfig_closure: a bare fragment should lose more than the $nunmet unmet options; it lost $bare_lost"
fi
kconfig_unlock
# nothing written into the tree
if [ -e "$src/.config" ] || [ -e "$src/scripts/kconfig/conf" ] || ls -a "$src" | grep -q '^\.tmp\.config'; then
	not_ok "kconfig_closure: the tree $src was written to"
else
	ok "kconfig_closure: the tree stays as extracted"
fi
