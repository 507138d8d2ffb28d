#!/bin/sh
# What calls reached that their name does not say (issue 25), on both backends: wl_reach_args (netlink protocols,
# misc devices and their ioctls, fcntl commands that reach optional code, the seccomp filter mode, a tmpfs mount
# with options, a pipe and a socket behind Filesystem syscalls) decoded alike by ptrace and bpf, and mapped with the
# built-in database to the code the tree says handles each; `ip link` (NETLINK_ROUTE) and `ss` (NETLINK_SOCK_DIAG)
# as real programs; the summary's classes on stress-ng's netdev stressor; and the map's self-check against the
# running kernel, which must find no contradiction over the workloads of tests/workloads/ and the real programs.
. "$(dirname "$0")/../lib.sh"

workload_or_skip reach_args "$WL/wl_reach_args" || exit 0

backends=ptrace
if bpf_or_skip "reach_args: bpf"; then backends="ptrace bpf"; fi

# rec BACKEND OUT -- COMMAND...: a footprint into OUT; the exit status
rec() {
	b=$1 out=$2
	shift 3
	"$KF" record -b "$b" -q --report /dev/null -o "$out" -- "$@" >/dev/null 2>"$out.err"
}

# rows FILE: "kind value[ on fd] calls errors" of the workload-wide refinements, by syscall, one a line
rows() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["syscalls"]:
    for r in s.get("reached", []):
        print("%s: %s %s%s %d %d" % (s["name"], r["kind"], r["value"], " on " + r["fd"] if "fd" in r else "",
                                     r["calls"], r["errors"]))
PY
}

# has NAME FILE LINE...: every LINE is one of FILE's lines
has() {
	hn=$1 hf=$2
	shift 2
	miss=
	for l in "$@"; do
		grep -qxF "$l" "$hf" || miss="$miss|$l"
	done
	if [ -z "$miss" ]; then ok "$hn"; else not_ok "$hn: missing ${miss#|}"; sed "s/^/#   /" "$hf" | head -n 40; fi
}

# targets MAPJSON: "kind value -> target file [configs] required" of the map's reached rows
targets() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["reached"]:
    k = r["kernel"] or {}
    print("%s %s -> %s %s [%s]%s" % (r["kind"], r["value"], r["target"], k.get("file"),
                                     " ".join(k.get("configs", [])), "" if r["required"] else " not-required"))
PY
}

# selfcheck NAME MAPJSON: the map's self-check ran and found no contradiction
selfcheck() {
	got=$(jget "$2" '"%s %s" % (d["self_check"]["state"], " ".join("%s:%s" % (c["by"], c["option"]) for c in d["self_check"]["contradictions"]) or "none")')
	eq "$1: self-check against the running kernel: no contradiction" "checked none" "$got"
}

for b in $backends; do
	rm -rf "$T/args" && mkdir -p "$T/args"
	rec "$b" "$T/$b.json" -- "$WL/wl_reach_args" "$T/args"
	eq "$b: wl_reach_args recorded" 0 $?
	rows "$T/$b.json" >"$T/$b.rows"
	has "$b: netlink sockets by protocol" "$T/$b.rows" \
		"socket: socket AF_NETLINK:SOCK_RAW:NETLINK_ROUTE 1 0" \
		"socket: socket AF_NETLINK:SOCK_DGRAM:NETLINK_SOCK_DIAG 1 0" \
		"socket: socket AF_NETLINK:SOCK_DGRAM:NETLINK_KOBJECT_UEVENT 1 0"
	has "$b: misc devices and the ioctl of /dev/fuse by name" "$T/$b.rows" \
		"fstat: fd chr:10:229 1 0" "ioctl: ioctl FUSE_DEV_IOC_CLONE on chr:10:229 1 1" "fstat: fd chr:10:237 1 0"
	has "$b: fcntl commands" "$T/$b.rows" \
		"fcntl: fcntl F_NOTIFY 2 0" "fcntl: fcntl F_SETLEASE 2 0" "fcntl: fcntl F_GETLEASE 1 0" \
		"fcntl: fcntl F_ADD_SEALS 1 0" "fcntl: fcntl F_GET_SEALS 1 0"
	has "$b: the seccomp operation, of seccomp(2) and of prctl(PR_SET_SECCOMP)" "$T/$b.rows" \
		"seccomp: seccomp SECCOMP_GET_ACTION_AVAIL 1 0" "seccomp: seccomp SECCOMP_SET_MODE_FILTER 1 0" \
		"prctl: seccomp SECCOMP_SET_MODE_FILTER 1 0" "prctl: prctl PR_SET_SECCOMP 1 0"
	has "$b: a tmpfs mount, a pipe's write and read, an ioctl on a socket" "$T/$b.rows" \
		"mount: fstype tmpfs 1 0" "mount: fsopts tmpfs 1 0" "write: fd pipe 1 0" "read: fd pipe 1 0" \
		"ioctl: ioctl FIONREAD on socket:AF_INET:SOCK_DGRAM:IPPROTO_UDP 1 0"

	"$KF" map -F json -o "$T/$b.map.json" "$T/$b.json"
	eq "$b: map -F json exits 0" 0 $?
	targets "$T/$b.map.json" >"$T/$b.targets"
	has "$b: mapped from the tree: netlink_kernel_create()'s protocol, misc_register()'s minor, do_fcntl()'s and do_seccomp()'s cases" \
		"$T/$b.targets" \
		"socket AF_NETLINK:SOCK_RAW:NETLINK_ROUTE -> netlink NETLINK_ROUTE net/core/rtnetlink.c [NET]" \
		"socket AF_NETLINK:SOCK_DGRAM:NETLINK_SOCK_DIAG -> netlink NETLINK_SOCK_DIAG net/core/sock_diag.c [NET]" \
		"fd chr:10:229 -> chr 10:229 fs/fuse/dev.c [FUSE_FS]" \
		"fd chr:10:237 -> chr 10:237 drivers/block/loop.c [BLK_DEV_LOOP]" \
		"fcntl F_NOTIFY -> fcntl F_NOTIFY fs/notify/dnotify/dnotify.c [DNOTIFY]" \
		"fcntl F_SETLEASE -> fcntl F_SETLEASE fs/locks.c [FILE_LOCKING]" \
		"fcntl F_GETLEASE -> fcntl F_GETLEASE fs/locks.c [FILE_LOCKING]" \
		"fcntl F_ADD_SEALS -> fcntl F_ADD_SEALS mm/memfd.c [MEMFD_CREATE]" \
		"seccomp SECCOMP_SET_MODE_FILTER -> seccomp SECCOMP_SET_MODE_FILTER kernel/seccomp.c [SECCOMP_FILTER SECCOMP]" \
		"seccomp SECCOMP_GET_ACTION_AVAIL -> seccomp SECCOMP_GET_ACTION_AVAIL kernel/seccomp.c [SECCOMP]" \
		"fsopts tmpfs -> fsopts tmpfs mm/shmem.c [TMPFS SHMEM]" "fstype tmpfs -> fs tmpfs mm/shmem.c [SHMEM]"
	has "$b: /dev/fuse's ioctl: fuse_dev_ioctl() (reviewed table), not required (its call failed)" "$T/$b.targets" \
		"ioctl FUSE_DEV_IOC_CLONE -> ioctl FUSE_DEV_IOC_* fs/fuse/dev.c [FUSE_FS] not-required"
	selfcheck "$b: wl_reach_args" "$T/$b.map.json"
done
if [ "$backends" = "ptrace bpf" ]; then
	out=$(python3 "$KF_TOP/tests/reach_compare.py" "$T/ptrace.json" "$T/bpf.json" 2>&1)
	eq "wl_reach_args: ptrace and bpf say the same of what every call reached" "" "$out"
fi

# real programs: iproute2's ip (rtnetlink) and ss (sock_diag), on both backends
for b in $backends; do
	for prog in "ip link show" "ss -t -a"; do
		name=$(echo "$prog" | cut -d' ' -f1)
		# shellcheck disable=SC2086
		rec "$b" "$T/$b.$name.json" -- $prog
		eq "$b: $prog recorded" 0 $?
		"$KF" map -F json -o "$T/$b.$name.map.json" "$T/$b.$name.json"
		targets "$T/$b.$name.map.json" >"$T/$b.$name.targets"
		case $name in
		ip) want="socket AF_NETLINK:SOCK_RAW:NETLINK_ROUTE -> netlink NETLINK_ROUTE net/core/rtnetlink.c [NET]" ;;
		ss) want="socket AF_NETLINK:SOCK_RAW:NETLINK_SOCK_DIAG -> netlink NETLINK_SOCK_DIAG net/core/sock_diag.c [NET]" ;;
		esac
		has "$b: $prog: its netlink protocol mapped" "$T/$b.$name.targets" "$want"
		selfcheck "$b: $prog" "$T/$b.$name.map.json"
	done
	# every call of the netdev stressor is an ioctl on an AF_INET socket: network code, so the summary says
	rec "$b" "$T/$b.netdev.json" -- stress-ng --netdev 1 -t 1 -q
	"$KF" report "$T/$b.netdev.json" >"$T/$b.netdev.txt"
	eq "$b: stress-ng --netdev: the summary's first class is Network (what the ioctls reached)" "Network" \
		"$(sed -n 's/^top classes:  \([A-Za-z]*\) .*/\1/p' "$T/$b.netdev.txt")"
	"$KF" report --by-class "$T/$b.netdev.json" | grep -q '^ioctl .*Filesystem' &&
		ok "$b: stress-ng --netdev: --by-class keeps ioctl's class" || not_ok "$b: --by-class keeps ioctl's class"
done

# the self-check over the other workloads of tests/workloads/ and the real programs the tests use (ptrace)
rm -rf "$T/s" && mkdir -p "$T/s"
n=0
for w in "wl_reach $T/s" "wl_reach_bpf $T/s" "wl_errors $T/s/err" wl_forkexec wl_threads wl_signals wl_abi_mix \
	"wl_kpaths eventfd" "wl_kpaths unix" "wl_seccomp errno" wl_enosys wl_fork200; do
	set -- $w
	[ -x "$WL/$1" ] || continue
	prog=$WL/$1
	shift
	rec ptrace "$T/w$n.json" -- "$prog" "$@"
	"$KF" map -F json -o "$T/w$n.map.json" "$T/w$n.json" 2>/dev/null
	selfcheck "$(basename "$prog")${1:+ ${1##*/}}" "$T/w$n.map.json"
	n=$((n + 1))
done
for cmd in "ls -la /" "tar -cf \$T/s.tar -C \$KF_TOP/src abi" "$PY -c pass" "sh -c 'echo x | cat'"; do
	eval "rec ptrace \"\$T/w\$n.json\" -- $cmd"
	"$KF" map -F json -o "$T/w$n.map.json" "$T/w$n.json" 2>/dev/null
	selfcheck "$cmd" "$T/w$n.map.json"
	n=$((n + 1))
done
