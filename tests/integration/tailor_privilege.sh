#!/bin/sh
# kfootprint tailor runs the tree's code (conf, make and what they run) as the build user, never as root
# (src/tailor/spawn.c, docs/tailor.md "Privilege"). A tree of a few lines stands in for the kernel's: its
# Makefile's allnoconfig writes the .config, its bzImage says who it runs as and tries what root could do (write
# into the tree and into the cache above its build directory, read /root), then leaves a bzImage that is a file,
# or a link to a file of root's, or under a directory that is a link. Root must take the first, refuse the others
# with one line, and never follow them. No kernel is built and no guest boots to the end (garbage bzImage).
. "$(dirname "$0")/../lib.sh"
if [ "$(id -u)" -ne 0 ]; then
	skip tailor_privilege "not root: there is no privilege to drop"
	exit 0
fi
bu=${KF_TAILOR_USER:-nobody}
buid=$(id -u "$bu") || { not_ok "tailor_privilege: no user $bu"; exit 0; }
chmod 0711 "$T" # the build user passes through to the cache and the tree, as through /var/cache and /var/tmp
tree=$T/tree
mkdir -p "$tree/kernel" "$tree/arch/x86"
printf 'config 64BIT\n\tbool "64-bit kernel"\n' >"$tree/Kconfig"
printf 'SYSCALL_DEFINE0(getpid)\n{\n\treturn 0;\n}\n' >"$tree/kernel/sys.c"
cat >"$tree/Makefile" <<'EOM'
VERSION = 6
PATCHLEVEL = 1
SUBLEVEL = 0
allnoconfig:
	printf '# a stand-in\nCONFIG_64BIT=y\n' >$(KCONFIG_CONFIG)
	id -u >$$(dirname $(KCONFIG_CONFIG))/conf-uid
bzImage:
	id -u >$(O)/who.uid; id -G >$(O)/who.groups
	grep -E '^(CapEff|CapPrm|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status >$(O)/who.status
	touch $(CURDIR)/written-by-the-build 2>/dev/null || echo refused >$(O)/tree.write
	touch $(O)/../../written-by-the-build 2>/dev/null || echo refused >$(O)/cache.write
	ls /root >/dev/null 2>&1 || echo refused >$(O)/root.read
	mkdir -p $(O)/arch/x86/boot
	case "$$FAKE" in \
	link) ln -sf /etc/shadow $(O)/arch/x86/boot/bzImage ;; \
	dirlink) rm -rf $(O)/arch; ln -s /etc $(O)/arch; echo x >$(O)/vmlinux ;; \
	*) echo not-a-kernel >$(O)/arch/x86/boot/bzImage ;; \
	esac
	echo not-an-elf >$(O)/vmlinux
EOM
"$KF" -q -b ptrace -o "$T/true.json" --report /dev/null -- true || not_ok "tailor_privilege: recording true"
run() { # NAME FAKE [CACHE]: tailor with its own cache (or CACHE's); stderr in $T/NAME.err
	FAKE=$2 KF_GUEST_CACHE=/nonexistent KF_TAILOR_CACHE=$T/cache-${3:-$1} "$KF" tailor -o "$T/out-$1" --timeout 20 \
		--kernel-src "$tree" "$T/true.json" >/dev/null 2>"$T/$1.err"
	echo $? >"$T/$1.rc"
}
run plain plain
b=$(ls -d "$T"/cache-plain/build/????????????????)
eq "conf ran as the build user" "$buid" "$(cat "$b/conf-uid" 2>/dev/null)"
eq "make ran as the build user, in its group only" "$buid $(id -g "$bu")" \
	"$(cat "$b/who.uid" 2>/dev/null) $(cat "$b/who.groups" 2>/dev/null)"
eq "make had no capability (effective, permitted, bounding, ambient) and no new privileges" \
	"CapPrm:0 CapEff:0 CapBnd:0 CapAmb:0 NoNewPrivs:1" \
	"$(awk '{ sub(/^0+/, "", $2); printf "%s%s%s", n++ ? " " : "", $1, ($2 == "" ? 0 : $2) }' "$b/who.status")"
eq "the build could not write into the tree" "refused" "$(cat "$b/tree.write" 2>/dev/null)"
check "... and nothing was written there" test ! -e "$tree/written-by-the-build"
eq "the build could not write into the cache above its directory" "refused" "$(cat "$b/cache.write" 2>/dev/null)"
eq "the build could not read /root" "refused" "$(cat "$b/root.read" 2>/dev/null)"
eq "the build directory is the build user's" "$buid" "$(stat -c %u "$b")"
eq "the cache's own directories are root's, 0711" "0:711 0:711 0:711" \
	"$(stat -c %u:%a "$T/cache-plain" "$T/cache-plain/build" "$T/cache-plain/kernels" | tr '\n' ' ' | sed 's/ $//')"
k=$T/cache-plain/kernels/$(basename "$b")
eq "root took the outputs out of the build, as its own files" "0 0 0 0" \
	"$(stat -c %u "$k/bzImage" "$k/vmlinux" "$k/.config" "$k/.kf-complete" | tr '\n' ' ' | sed 's/ $//')"
eq "... the bzImage as the build wrote it" "not-a-kernel" "$(cat "$k/bzImage")"
check "a garbage bzImage is a re-test that fails, not a crash" sh -c "test \"\$(cat '$T/plain.rc')\" = 1"

# a cache an older kfootprint made as root: an unfinished build is given to the build user and carried on; a
# complete one is taken as it is
key=$(basename "$b")
rm -rf "$k" && chown -R 0:0 "$b" && touch "$b/made-by-root"
run older-unfinished plain plain
eq "an older root build, unfinished: given to the build user, carried on" "$buid $buid plain" \
	"$(stat -c %u "$b" "$b/made-by-root" | tr '\n' ' ')plain"
check "... and built: its outputs taken" test -s "$k/bzImage"
rm -rf "$k" && chown -R 0:0 "$b" && touch "$b/.kf-complete" && rm -f "$b/who.uid"
run older-complete plain plain
check "an older root build, complete: its outputs taken, make not run again" sh -c \
	"test -s '$k/bzImage' && test ! -e '$b/who.uid'"

for fake in link dirlink; do
	run "$fake" "$fake"
	eq "$fake: tailor exits 1" 1 "$(cat "$T/$fake.rc")"
	check "$fake: one line says the bzImage is not a regular file reached without a link" \
		grep -q "^kfootprint: tailor: the build's 'arch/x86/boot/bzImage' (a regular file, reached without a link)" \
		"$T/$fake.err"
	eq "$fake: nothing taken, no build marked complete" "" \
		"$(find "$T/cache-$fake/kernels" -name bzImage -o -name .kf-complete 2>/dev/null)"
done
check "link: /etc/shadow's text is nowhere in -o" sh -c "! grep -rqs '^root:' '$T/out-link'"

# a tree the build user cannot read (under a directory of mode 0700, as /root is): one line, nothing built
mkdir -p "$T/closed" && chmod 0700 "$T/closed" && cp -r "$tree" "$T/closed/tree"
FAKE=plain KF_GUEST_CACHE=/nonexistent KF_TAILOR_CACHE=$T/cache-closed "$KF" tailor -o "$T/out-closed" \
	--kernel-src "$T/closed/tree" "$T/true.json" >/dev/null 2>"$T/closed.err"
eq "a tree the build user cannot read: exit 1" 1 "$?"
check "... one line that says so" grep -q "^kfootprint: tailor: the build user $bu cannot read the tree" "$T/closed.err"
eq "... and one line only" 1 "$(wc -l <"$T/closed.err")"
