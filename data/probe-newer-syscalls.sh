#!/bin/sh
# Derives the syscall rows newer than the extracted tree (data/syscalls/newer.tsv) from the RUNNING x86_64
# kernel, as root:
#   sh data/probe-newer-syscalls.sh data/syscalls
#
# How: a throwaway child per number makes that one syscall with every argument -1 (bad fd, pointer into the
# non-canonical top page, all flag bits set: each candidate fails its argument checks, no call can act), while
# a private tracefs instance records raw_syscalls:sys_enter and every syscalls:* event for this
# script's process tree only. The event that fires with the raw number names the call's DEFINITION
# (sys_enter_newstat for stat; every newer row has table name == definition name). Cross-checks:
#   - every name must be a text symbol __x64_sys_<name> in /proc/kallsyms;
#   - the numbers 424..450 (already in the tree's table) are probed too and must come out identical to
#     x86_64.tsv: that is the self-check of the method;
#   - i386: the same numbers through int $0x80. Syscall events ignore compat calls (ARCH_TRACE_IGNORE_COMPAT_
#     SYSCALLS), so a number is i386 when the call does not fail with ENOSYS and __ia32_sys_<name> exists.
# Numbers whose call is a weak ENOSYS stub in this kernel's config have no event and cannot be named by
# probing; they come from STUBS below, each accepted only if kallsyms has the matching weak (W) __x64_sys_ symbol
# and the probe saw ENOSYS. x32 (CONFIG_X86_X32_ABI is usually off) and aarch64 cannot be probed here: since
# Linux 5.1 new calls take one number on every ABI but alpha, so the rows that are i386 too are given to x32
# and aarch64 as well; calls that are x86_64 only (syscall_64.tbl abi "64": uretprobe, uprobe) get x86_64 only.
# tracefs is mounted if needed and unmounted again; the instance is removed on exit.
set -eu
[ $# -eq 1 ] || { echo "usage: probe-newer-syscalls.sh SYSCALLS_DIR" >&2; exit 2; }
dir=$1
base64=$dir/x86_64.tsv
for f in "$base64" "$dir/i386.tsv"; do [ -r "$f" ] || { echo "probe-newer-syscalls: '$f': not readable" >&2; exit 1; }; done
[ "$(id -u)" = 0 ] || { echo "probe-newer-syscalls: needs root (tracefs, kallsyms)" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || { echo "probe-newer-syscalls: runs on x86_64 only" >&2; exit 1; }
command -v cc >/dev/null || { echo "probe-newer-syscalls: cc: not found" >&2; exit 1; }

# Numbers past the tree's table: x86_64 332..340 (uretprobe/uprobe live at 335/336) and 424..480.
OLD_FIRST=424 OLD_LAST=450
RANGES="332-340 424-480"
# Weak-stub rows named by hint (see header): nr name abis reason.
STUBS='453	map_shadow_stack	x86_64,i386,aarch64	CONFIG_X86_USER_SHADOW_STACK off: a weak stub; abis as in syscall_32.tbl and asm-generic since 6.10'

t=$(mktemp -d)
tfs=/sys/kernel/tracing
mounted=
inst=
cleanup() {
	if [ -n "$inst" ] && [ -d "$inst" ]; then
		echo 0 >"$inst/tracing_on" 2>/dev/null || :
		echo >"$inst/set_event" 2>/dev/null || :
		rmdir "$inst" 2>/dev/null || echo "probe-newer-syscalls: cannot remove '$inst'" >&2
	fi
	[ -z "$mounted" ] || umount "$tfs" 2>/dev/null || echo "probe-newer-syscalls: cannot unmount '$tfs'" >&2
	rm -rf "$t"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

cat >"$t/probe.c" <<'EOF'
/* One child per number: syscall(nr, -1, ...) natively or through int $0x80; prints "abi nr pid outcome". */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static long call(int i386, long nr)
{
	long r;

	if (!i386)
		return syscall(nr, -1L, -1L, -1L, -1L, -1L, -1L) < 0 ? -errno : 0;
	__asm__ volatile("int $0x80" : "=a"(r) : "a"(nr), "b"(-1), "c"(-1), "d"(-1), "S"(-1), "D"(-1) : "memory");
	return r;
}

int main(int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		int i386 = !strcmp(argv[1], "i386"), st;
		long nr = strtol(argv[i], NULL, 10);
		pid_t pid;

		fflush(stdout);
		pid = fork();
		if (pid < 0)
			return perror("probe: fork"), 1;
		if (!pid) {
			long r = call(i386, nr);
			/* The exit code carries the errno (0..255), so the child needs no other syscall. */
			syscall(SYS_exit_group, r < 0 && r > -256 ? (int)-r : 0);
		}
		if (waitpid(pid, &st, 0) < 0)
			return perror("probe: waitpid"), 1;
		if (WIFSIGNALED(st))
			printf("%s %ld %d sig%d\n", argv[1], nr, pid, WTERMSIG(st));
		else
			printf("%s %ld %d %s\n", argv[1], nr, pid, WEXITSTATUS(st) == ENOSYS ? "ENOSYS" : "ok");
	}
	return 0;
}
EOF
cc -O1 -o "$t/probe" "$t/probe.c"

nums=$(for r in $RANGES; do seq "${r%-*}" "${r#*-}"; done)
if [ ! -d "$tfs/instances" ]; then
	mount -t tracefs nodev "$tfs" && mounted=1
fi
inst=$tfs/instances/kfprobe-$$
mkdir "$inst"
echo 0 >"$inst/tracing_on"
echo 1 >"$inst/options/event-fork"
# raw_syscalls first: its probe then runs before the per-call one, so each raw record precedes its event.
echo 1 >"$inst/events/raw_syscalls/sys_enter/enable"
echo 1 >"$inst/events/syscalls/enable"
echo 1 >"$inst/tracing_on"
# The subshell puts its own pid in set_event_pid, then becomes the probe: its children are followed by event-fork.
sh -c 'echo $$ >"$1/set_event_pid" && exec "$2" x86_64 $3' sh "$inst" "$t/probe" "$nums" >"$t/out64"
sh -c 'echo $$ >"$1/set_event_pid" && exec "$2" i386 $3' sh "$inst" "$t/probe" "$nums" >"$t/out32"
echo 0 >"$inst/tracing_on"
cat "$inst/trace" >"$t/trace"
grep -E ' [TW] __(x64|ia32)_sys_' /proc/kallsyms | awk '{ print $2, $3 }' >"$t/ksyms"
kver=$(uname -r)

awk -v old_first="$OLD_FIRST" -v old_last="$OLD_LAST" -v stubs="$STUBS" -v kver="$kver" \
	-v base="$base64" -v base32f="$dir/i386.tsv" -v out64="$t/out64" -v out32="$t/out32" -v ksyms="$t/ksyms" '
function fail(m) { print "probe-newer-syscalls: " m > "/dev/stderr"; bad = 1 }
BEGIN {
	while ((getline l < base) > 0) if (l !~ /^#/) { split(l, a, "\t"); basename[a[1]] = a[2]; baseentry[a[1]] = a[3] }
	while ((getline l < base32f) > 0) if (l !~ /^#/) { split(l, a, "\t"); base32[a[1]] = 1 }
	while ((getline l < out64) > 0) { split(l, a, " "); pid64[a[3]] = a[2]; res64[a[2]] = a[4]; nums[++nn] = a[2] }
	while ((getline l < out32) > 0) { split(l, a, " "); res32[a[2]] = a[4] }
	while ((getline l < ksyms) > 0) { split(l, a, " "); ks[a[2]] = a[1] }
	ns = split(stubs, sl, "\n")
	for (i = 1; i <= ns; i++) { split(sl[i], a, "\t"); stubname[a[1]] = a[2]; stubabis[a[1]] = a[3] }
}
# "comm-PID [cpu] flags ts: event..." : the pid is the digits after the last "-" before " [".
{
	if ($0 ~ /^#/) next
	head = $0; sub(/ +\[[0-9]+\].*/, "", head); pid = head; sub(/.*-/, "", pid)
	if (!(pid in pid64)) next
	body = $0; sub(/^.*[0-9]: /, "", body)
	if (body ~ /^sys_enter: NR /) { split(body, a, " "); last[pid] = a[3]; next }
	if (body ~ /^sys_[a-z0-9_]+\(/) {
		name = body; sub(/\(.*/, "", name); sub(/^sys_/, "", name)
		if (last[pid] == pid64[pid]) { if (ev[pid64[pid]] != "" && ev[pid64[pid]] != name) fail("two events for " pid64[pid]); ev[pid64[pid]] = name }
		else if (last[pid] == "") fail("event " name " before any raw record (probe order?)")
		last[pid] = ""
	}
}
END {
	if (nn == 0) fail("the probe made no calls")
	for (i = 1; i <= nn; i++) {
		nr = nums[i]; name = ev[nr]
		# i386 numbers below 451 belong to other, older i386 calls (335 is rt_tgsigqueueinfo on i386): only a free
		# i386 number can carry the new call.
		is32 = (res32[nr] != "ENOSYS" && !(nr in base32))
		if (name != "") {
			if (ks["__x64_sys_" name] != "T") fail(nr " " name ": no T __x64_sys_" name " in kallsyms")
			if (is32 && !(("__ia32_sys_" name) in ks)) fail(nr " " name ": i386 call works but no __ia32_sys_" name)
		}
		if (nr >= old_first + 0 && nr <= old_last + 0) {
			want = baseentry[nr]; sub(/^sys_/, "", want)
			if (name != want) fail("self-check: " nr " is " basename[nr] " (" baseentry[nr] ") in the table but the probe saw \"" name "\"")
			else checked++
			# The same numbers are i386 calls too: they must not be missing there (unless a weak stub).
			if ((nr in base32) && res32[nr] == "ENOSYS" && ks["__ia32_sys_" want] != "W")
				fail("self-check: i386 " nr " (" want ") failed with ENOSYS")
			continue
		}
		if (nr in basename) continue
		if (name == "" && (nr in stubname)) {
			if (res64[nr] != "ENOSYS" || ks["__x64_sys_" stubname[nr]] != "W") { fail(nr " " stubname[nr] ": not a weak stub here"); continue }
			rows[nr] = nr "\t" stubname[nr] "\tsys_" stubname[nr] "\t" stubabis[nr]
			continue
		}
		if (name == "") {
			if (res64[nr] != "ENOSYS") fail(nr ": no event, but the call did not fail with ENOSYS (" res64[nr] ")")
			continue
		}
		abis = is32 ? "x86_64,i386,x32,aarch64" : "x86_64"
		rows[nr] = nr "\t" name "\tsys_" name "\t" abis
	}
	if (checked != old_last - old_first + 1) fail("self-check: " checked + 0 " of " old_last - old_first + 1 " old rows matched")
	if (bad) exit 1
	print "# nr\tname\tentry\tabis: rows newer than the extracted tree, probed from the running kernel " kver
	print "# by data/probe-newer-syscalls.sh (tracefs raw_syscalls + syscalls:sys_enter_* events, /proc/kallsyms);"
	print "# " checked " numbers that the tree already has (" old_first ".." old_last ") came out identical. Do not edit."
	for (nr = 0; nr < 1024; nr++) if (nr in rows) print rows[nr]
}' "$t/trace" >"$t/newer.tsv"
mv "$t/newer.tsv" "$dir/newer.tsv"
echo "probe-newer-syscalls: $(grep -vc '^#' "$dir/newer.tsv") rows written to $dir/newer.tsv" >&2
