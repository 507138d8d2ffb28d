# Sourced by tests/integration/*.sh. Each check prints one TAP line; the runner counts them.
#   ok NAME | not ok NAME | ok NAME # SKIP why
set -u
: "${KF_BUILD:=build}"
: "${KF_TOP:=$(cd "$(dirname "$0")/../.." && pwd)}"
KF="$KF_TOP/$KF_BUILD/kfootprint"
KF_ASAN_BIN="${KF_ASAN:+$KF_TOP/$KF_ASAN/kfootprint}"
WL="$KF_TOP/$KF_BUILD/workloads"
# The lock every kernel build of the long tests and benches takes (flock), so that two never run at once on 2 CPUs.
: "${KF_KBUILD_LOCK:=/var/tmp/kf-kbuild.lock}"
# Debian's python3 as a workload: the one in PATH may be a wrapper script (pyenv's shims are bash scripts that
# start more programs, which look up users and so try nscd's socket).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
T=$(mktemp -d /tmp/kf-it.XXXXXX)
trap 'rm -rf "$T"' EXIT

ok() { echo "ok $*"; }
not_ok() { echo "not ok $*"; }
# skip NAME WHY: a skip states why, or it is a failure
skip() {
	if [ -n "${2:-}" ]; then echo "ok $1 # SKIP $2"; else not_ok "$1: skipped without a reason"; fi
}
# bpf_or_skip NAME: true when the bpf backend runs here. Otherwise a skip with its reason where this machine
# cannot run it (KF_NO_BPF=reason, a build without it, not root, no kernel BTF, a kernel older than 5.11), and a
# failure where it should: as root on a kernel with BTF, a load failure is a bug, never a skip.
bpf_or_skip() {
	if [ -n "${KF_NO_BPF:-}" ]; then
		skip "$1" "KF_NO_BPF: $KF_NO_BPF"
		return 1
	fi
	if bpf_out=$("$KF" record -b bpf --report /dev/null -- true 2>&1); then
		return 0
	fi
	kver=$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')
	case $bpf_out in
	*"unknown backend 'bpf'"*) skip "$1" "kfootprint was built without the bpf backend (NO_BPF=1)" ;;
	*) if [ "$(id -u)" -ne 0 ]; then
		skip "$1" "not root: $bpf_out"
	elif [ ! -r /sys/kernel/btf/vmlinux ]; then
		skip "$1" "no kernel BTF (/sys/kernel/btf/vmlinux): $bpf_out"
	elif [ "$kver" -lt 5011 ]; then
		skip "$1" "kernel $(uname -r) has no BPF task storage (5.11): $bpf_out"
	else
		not_ok "$1: the bpf backend fails as root on a kernel with BTF: $bpf_out"
	fi ;;
	esac
	return 1
}
# check NAME COMMAND...: ok when the command succeeds; its output is shown on failure.
check() {
	name=$1; shift
	if out=$("$@" 2>&1); then ok "$name"; else not_ok "$name"; printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'; fi
}
# eq NAME EXPECTED ACTUAL
eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1: expected '$2', got '$3'"; fi
}
# kf_names REGISTRY: the names a registry of kfootprint lists in its "expected one of ..." message, space-separated:
# formats (report -F), map_formats (map -F), backends (record -b). Tests take their lists from here, never by hand.
kf_names() {
	case $1 in
	formats) "$KF" report -F '?' /dev/null ;;
	map_formats) "$KF" map -F '?' --syscalls read ;;
	backends) "$KF" record -b '?' -- true ;;
	esac 2>&1 | sed -n 's/.*expected one of //p' | tr -d ','
}
# jq-free JSON queries through python3 (installed by make deps): jget FILE EXPR, EXPR over `d`.
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# jedit IN OUT CODE: IN's JSON as `d`, changed by the python statements CODE, written to OUT (json.dump's layout):
# the edited inputs that tests feed kfootprint.
jedit() {
	python3 -c "import json,sys
d = json.load(open(sys.argv[1]))
$3
json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"
}

# guest_usable NAME: whether tests/guest/run can boot here; if not, says why as NAME's skip (the caller exits 0)
guest_usable() {
	if [ "$(id -u)" -ne 0 ]; then
		skip "$1" "not root: the guest harness exports / over 9p, which needs root"
		return 1
	fi
	for t in qemu-system-x86_64 busybox; do
		if ! command -v $t >/dev/null; then
			skip "$1" "no $t (make deps installs qemu-system-x86 and busybox-static)"
			return 1
		fi
	done
}

# workload_or_skip NAME FILE: true when the test workload FILE is built, else one skip line that says so
workload_or_skip() {
	[ -x "$2" ] && return 0
	skip "$1" "workloads not built: run make workloads"
	return 1
}

# for_others FILE: prints the path of a copy of FILE that any user can run, in $T made traversable: what a test runs
# as another user (-u nobody, setpriv) must not be the clone's own file, which sits under a directory that user
# may not enter (root's home is 0700, and so is a mktemp -d directory)
for_others() {
	mkdir -p "$T/others" && chmod go+x "$T" && chmod 755 "$T/others" && cp "$1" "$T/others/" &&
		chmod 755 "$T/others/${1##*/}" && echo "$T/others/${1##*/}"
}

# ksrc_tree: prints the directory of Debian's linux-source-6.1 tree, extracted from KSRC_TARBALL (apt package
# linux-source-6.1, in the Makefile's APT_MAP) into $KF_KSRC_CACHE (default /var/tmp/kfootprint-ksrc) by whichever
# test needs it first, whatever the order, under a lock (tests run two at a time, and checkouts share the cache);
# extracted beside it and renamed, so an interrupted run never leaves half a tree. Nothing, and false, without it.
: "${KSRC_TARBALL:=/usr/src/linux-source-6.1.tar.xz}"
ksrc_tree() {
	_kc=${KF_KSRC_CACHE:-/var/tmp/kfootprint-ksrc}
	if [ ! -f "$_kc/.kf-complete" ] && [ -r "$KSRC_TARBALL" ]; then
		mkdir -p "${_kc%/*}" && (
			flock 8 || exit 1
			[ -f "$_kc/.kf-complete" ] && exit 0
			rm -rf "$_kc.tmp" && mkdir -p "$_kc.tmp" && tar -xJf "$KSRC_TARBALL" -C "$_kc.tmp" &&
				rm -rf "$_kc" && mv "$_kc.tmp" "$_kc" && touch "$_kc/.kf-complete" && exit 0
			rm -rf "$_kc.tmp"
			echo "ksrc_tree: cannot extract $KSRC_TARBALL into $_kc" >&2
			exit 1
		) 8>>"$_kc.lock"
	fi
	[ -f "$_kc/.kf-complete" ] && find "$_kc" -mindepth 1 -maxdepth 1 -type d -name 'linux-source-*' | head -n 1 | grep .
}

# kconfig_merge TREE DIR FRAGMENT: the kernel's own scripts/kconfig/merge_config.sh -n (allnoconfig plus FRAGMENT,
# then its check of each value requested) with its make run with -C on the read-only TREE, writing only into DIR
# (its cwd and an absolute -O), where the kernel's kconfig tools stay built between runs. DIR is shared between
# runs: take kconfig_lock first. It says "Value requested for CONFIG_X not in final .config" for each value lost.
kconfig_merge() {
	mkdir -p "$T/kmake" "$2" || return 1
	printf '#!/bin/sh\nexec /usr/bin/make -s -C "%s" "$@"\n' "$1" >"$T/kmake/make" && chmod +x "$T/kmake/make" &&
		(cd "$2" && PATH="$T/kmake:$PATH" sh "$1/scripts/kconfig/merge_config.sh" -n -O "$2" "$3")
}
# kconfig_lock: the cache of built kconfig tools ($KF_KCONF_CACHE, default /var/tmp/kfootprint-kconf) is one per
# machine: held on fd 9 until kconfig_unlock or the end of the test. Sets $kconf to the cache's directory (not in
# a $(...): the lock is the shell's own).
kconfig_lock() {
	kconf=${KF_KCONF_CACHE:-/var/tmp/kfootprint-kconf}
	mkdir -p "$kconf" && exec 9>"$kconf/.lock" && flock 9
}
kconfig_unlock() { flock -u 9; }
# kconfig_tools_or_skip NAME: true when the kernel's kconfig tools can be built here, else a skip that says why
kconfig_tools_or_skip() {
	for _t in flex bison make gcc; do
		command -v $_t >/dev/null || { skip "$1" "no $_t: the kernel's kconfig tools cannot be built"; return 1; }
	done
}

# waitfor FILE PATTERN: until FILE has a line matching PATTERN, at most 20 s
waitfor() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# attach_trigger PREFIX "RECORD-OPTIONS" WORKLOAD...: starts WORKLOAD (its output in PREFIX.out: first its pid, then
# it waits for SIGUSR1), records it with -v -p from outside (-v into PREFIX.err, the footprint into PREFIX.json), and
# sends SIGUSR1 once kfootprint says it is attached; returns kfootprint's exit status, the workload's pid in $wpid.
attach_trigger() {
	_p=$1 _o=$2
	shift 2
	"$@" >"$_p.out" &
	wpid=$!
	waitfor "$_p.out" '^[0-9]'
	# shellcheck disable=SC2086 # the options are words
	"$KF" record $_o -v -p "$wpid" -F json --report /dev/null -o "$_p.json" 2>"$_p.err" &
	_k=$!
	waitfor "$_p.err" 'attached to'
	kill -USR1 "$wpid"
	wait "$_k"
}

# left ERR-FILE: the pid kfootprint said it left running (--keep-running), from its stderr
left() { sed -n 's/.*keeps running, untraced (--keep-running): pid \([0-9]*\).*/\1/p' "$1" | head -1; }
