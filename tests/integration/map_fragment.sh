#!/bin/sh
# map -F kconfig on real workloads, judged by the kernel's own scripts/kconfig/merge_config.sh: a TCP server and
# its client, Python's HTTP server fetched with curl, files written and read on ext4. Each fragment (the built-in
# database's) merged onto allnoconfig keeps every value it sets: it carries what its options depend on (BLOCK for
# EXT4_FS, 64BIT for the x86_64 ABI), each marked with what needs it. The same options without the closure lose
# some; so do the fragments of the whole x86_64 and i386 tables. With the source tree instead of the database, the closure (the same solver, reading the tree's Kconfig
# rather than the facts the database carries) sets the same options.
. "$(dirname "$0")/../lib.sh"

if ! src=$(ksrc_tree); then
	skip map_fragment "$KSRC_TARBALL is missing (apt-get install linux-source-6.1)"
	exit 0
fi
kconfig_tools_or_skip map_fragment || exit 0
debconfig=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz

port=$((20000 + $$ % 20000))
mkdir -p "$T/www" && echo hello >"$T/www/index.txt"

# record NAME COMMAND: a footprint of a shell running COMMAND, with what its calls reached
record() {
	"$KF" record -b ptrace -q -o "$T/$1.json" --report /dev/null -- sh -c "$2" >"$T/$1.out" 2>"$T/$1.err" ||
		{ not_ok "map_fragment: $1: record failed"; sed 's/^/#   /' "$T/$1.err" | tail -n 5; }
}
record tcp "$PY $KF_TOP/tests/workloads/tcp_pair.py server $T/port & $PY $KF_TOP/tests/workloads/tcp_pair.py client $T/port; wait"
eq "map_fragment: tcp: the client got its answer" PING "$(cat "$T/tcp.out")"
record http "$PY -m http.server --bind 127.0.0.1 -d $T/www $port >/dev/null 2>&1 & p=\$!;
	curl -s --retry 50 --retry-delay 1 --retry-connrefused http://127.0.0.1:$port/index.txt; kill \$p; wait"
eq "map_fragment: http: curl fetched the file" hello "$(cat "$T/http.out")"
record ext4 "cd $T && echo data >a && cp a b && cat b >c && mv c d && cat d && rm a b d"

kconfig_lock || { not_ok "map_fragment: cannot lock the kconfig tools' cache"; exit 0; }
for w in tcp http ext4; do
	"$KF" map --no-running -F kconfig "$T/$w.json" >"$T/$w.kconfig" 2>"$T/$w.merr" ||
		{ not_ok "map_fragment: $w: map failed"; sed 's/^/#   /' "$T/$w.merr"; continue; }
	n=$(grep -c '^CONFIG_' "$T/$w.kconfig")
	kconfig_merge "$src" "$kconf/fragment" "$T/$w.kconfig" >"$T/$w.merge" 2>&1 ||
		{ not_ok "map_fragment: $w: merge_config.sh failed"; tail -n 20 "$T/$w.merge" | sed 's/^/#   /'; continue; }
	eq "map_fragment: $w: merge_config.sh onto allnoconfig keeps all $n options the fragment sets" 0 \
		"$(grep -c 'not in final' "$T/$w.merge")"
	grep -A2 'not in final' "$T/$w.merge" | head -n 12 | sed 's/^/#   /'
	lost=""
	for o in $(sed -n 's/^CONFIG_\([A-Z0-9_]*\)=y$/\1/p' "$T/$w.kconfig"); do
		grep -q "^CONFIG_$o=y" "$kconf/fragment/.config" || lost="$lost $o"
	done
	eq "map_fragment: $w: the merged .config has each of them =y" "" "$lost"
	# every line the closure added is under a comment saying what needs it, and what does is in the fragment
	bad=$(awk '/^# [A-Z0-9_]+: for [A-Z0-9_]+ \(/ { split($0, a, " "); need[a[4]] = 1 }
		/^CONFIG_/ { n = substr($0, 8); sub(/=y$/, "", n); set[n] = 1 }
		END { for (x in need) if (!(x in set) && !(x in hidden)) print x }
		/^#   hidden:/ { hidden[last] = 1 } /^# [A-Z0-9_]+: / { last = substr($2, 1, length($2) - 1) }' "$T/$w.kconfig")
	eq "map_fragment: $w: what needs each option brought in is in the fragment" "" "$bad"
	# the same closure from the source tree, its chains evaluated with the database's own configuration
	if [ -f "$debconfig" ]; then
		xz -dc "$debconfig" >"$T/debian.config"
		"$KF" map --no-running --kernel-src "$src" --kernel-config "$T/debian.config" -F kconfig "$T/$w.json" \
			>"$T/$w.tree.kconfig" 2>"$T/$w.terr"
		eq "map_fragment: $w: the tree's closure sets the same options as the database's" \
			"$(grep '^CONFIG_' "$T/$w.kconfig" | sort | tr '\n' ' ')" \
			"$(grep '^CONFIG_' "$T/$w.tree.kconfig" | sort | tr '\n' ' ')"
	else
		skip "map_fragment: $w: tree and database agree" "$debconfig missing (apt-get install linux-config-6.1)"
	fi
done

# the whole tables, x86_64 and i386 (whose rows the database maps as a 64-bit kernel runs them): every value kept;
# a comment never names CONFIG_X (merge_config.sh takes any line naming it for X's requested value)
for abi in x86_64 i386; do
	"$KF" map --no-running --all-syscalls --abi $abi -F kconfig >"$T/$abi.kconfig" 2>"$T/$abi.err"
	kconfig_merge "$src" "$kconf/fragment" "$T/$abi.kconfig" >"$T/$abi.merge" 2>&1
	eq "map_fragment: every $abi syscall: merge_config.sh keeps all $(grep -c '^CONFIG_' "$T/$abi.kconfig") options set" 0 \
		"$(grep -c 'not in final' "$T/$abi.merge")"
	grep -A2 'not in final' "$T/$abi.merge" | head -n 12 | sed 's/^/#   /'
	eq "map_fragment: every $abi syscall: no comment names an option the fragment sets as CONFIG_X" "" \
		"$(grep '^#' "$T/$abi.kconfig" | grep -v '^# CONFIG_[A-Z0-9_]* is not set$' | grep -oE 'CONFIG_[A-Z0-9_]+' |
			sort -u | while read -r c; do grep -q "^$c=" "$T/$abi.kconfig" && echo "$c"; done)"
done

# the closure's own marks: EXT4_FS brings BLOCK, X86_64 (mmap's, the ABI's) 64BIT
eq "map_fragment: ext4: BLOCK set for EXT4_FS" 1 \
	"$(grep -A1 '^# BLOCK: for EXT4_FS (depends on' "$T/ext4.kconfig" | grep -c '^CONFIG_BLOCK=y')"
eq "map_fragment: tcp: 64BIT set, marked" 1 "$(grep -A2 '^# 64BIT: ' "$T/tcp.kconfig" | grep -c '^CONFIG_64BIT=y')"
eq "map_fragment: tcp: INET and NET set for the TCP socket" "CONFIG_INET=y CONFIG_NET=y " \
	"$(grep -E '^CONFIG_(INET|NET)=y' "$T/tcp.kconfig" | sort | tr '\n' ' ')"

# without the closure (the options the items name, alone) the kernel drops some: what the closure is for
awk '/^# [A-Z0-9_]+: needed by / { keep = 1 } /^$/ { keep = 0 } keep && /^CONFIG_/' "$T/ext4.kconfig" >"$T/bare"
kconfig_merge "$src" "$kconf/fragment" "$T/bare" >"$T/bare.merge" 2>&1
n=$(grep -c 'not in final' "$T/bare.merge")
if [ "$n" -gt 0 ]; then
	ok "map_fragment: ext4: without the closure merge_config.sh drops $n of $(wc -l <"$T/bare")"
else
	not_ok "map_fragment: ext4: a bare fragment should lose some options (EXT4_FS without BLOCK)"
fi
kconfig_unlock
