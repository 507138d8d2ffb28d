#!/bin/sh
# What each call reached, recorded by the bpf backend (src/bpf/kfreach.bpf.h, src/trace/bpf_reach.c): wl_reach
# against the table every backend is held to (reach_expect.sh), and wl_reach_bpf (a dup2 over an fd, a closed fd, an
# fd received over SCM_RIGHTS, a memfd, O_TMPFILE...) asserted exactly, in both bpf modes (with time and --no-time,
# which must agree); the
# same `reached` as ptrace on that workload and on real programs (tests/reach_compare.py); stress-ng's netdev
# stressor (SIOCGIF* ioctls on an AF_INET socket); the binary format of ELF, #! and 32-bit programs; the map
# drained of ended processes on a long run; and --no-reach, which records none of it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/reach_expect.sh"

bpf_or_skip reach_bpf || exit 0

# rec FILE [OPTIONS] -- COMMAND...: a bpf footprint into FILE.
rec() {
	out=$1; shift
	"$KF" record -b bpf -q --report /dev/null -o "$out" "$@" >/dev/null 2>"$T/err"
}

# expect NAME FILE PYTHON: PYTHON's checks over `wide` ((abi name) -> sorted (kind, value, fd, calls, errors)), one
# TAP line; each check appends to `bad`.
expect() {
	name=$1 file=$2 code=$3
	if out=$(python3 - "$file" <<EOF 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
wide = {s["name"]: sorted((r["kind"], r["value"], r.get("fd"), r["calls"], r["errors"]) for r in s.get("reached", []))
        for s in d["syscalls"]}
bad = []
def exact(name, want):
    if wide.get(name, []) != sorted(want):
        bad.append(f"{name}: expected {sorted(want)}, got {wide.get(name, [])}")
def has(name, want):
    for w in want:
        if w not in wide.get(name, []):
            bad.append(f"{name}: no {w} in {wide.get(name, [])}")
if not d.get("reached"):
    bad.append('no "reached": true')
if not d.get("complete"):
    bad.append(f'incomplete: {d.get("incomplete")}')
$code
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
	); then ok "$name"; else not_ok "$name"; printf '%s\n' "$out" | head -n 20 | sed 's/^/#   /'; fi
}

# wl_reach, held against the one table every backend is held against (reach_expect.sh), in both bpf modes
if [ -x "$WL/wl_reach" ]; then
	for flag in "" --no-time; do
		rm -rf "$T/scratch"
		mkdir -p "$T/scratch"
		"$KF" record -b bpf $flag -q -o "$T/wl.json" --report /dev/null -- "$WL/wl_reach" "$T/scratch" >"$T/made" 2>"$T/wl.err"
		eq "bpf ${flag:-timed}: wl_reach recorded" 0 $?
		reach_check "bpf ${flag:-timed}" "$T/wl.json" "$T/made" "$T/scratch"
	done
else
	skip "bpf: wl_reach" "workloads not built: run make workloads"
fi

# the O_TMPFILE is made in a tmpfs: a directory in /dev/shm, the same for every run (it is in argv)
shm=$(mktemp -d /dev/shm/kf-reach.XXXXXX 2>/dev/null) || shm=
trap 'rm -rf "$T" ${shm:+"$shm"}' EXIT
[ -n "$shm" ] && [ "$(stat -f -c %T "$shm")" = tmpfs ] || shm=
if [ -x "$WL/wl_reach_bpf" ] && [ -n "$shm" ]; then
	for mode in time no-time; do
		flag=; [ "$mode" = no-time ] && flag=--no-time
		rec "$T/$mode.json" $flag -- "$WL/wl_reach_bpf" "$shm"
		expect "wl_reach_bpf ($mode): each fd kind, socket, address family, ioctl, option and namespace exactly" \
			"$T/$mode.json" '
exact("write", [("fd", "pipe", None, 2, 0), ("fd", "chr:1:3", None, 1, 0), ("fd", "file:tmpfs", None, 1, 0),
                ("fd", "memfd", None, 1, 0), ("fd", "anon:[eventfd]", None, 1, 0)])
has("read", [("fd", "pipe", None, 1, 0), ("fd", "file:proc", None, 1, 0), ("fd", "file:sysfs", None, 1, 0),
             ("fd", "anon:[eventfd]", None, 1, 0)])
exact("ioctl", [("fd", "pipe", None, 1, 0), ("ioctl", "FIONREAD", "pipe", 1, 0), ("fd", "chr:1:3", None, 1, 1),
                ("ioctl", "TCGETS", "chr:1:3", 1, 1)])
exact("epoll_ctl", [("fd", "anon:[eventfd]", None, 1, 0)])
exact("fstat", [("fd", "anon:[eventfd]", None, 1, 0)])
exact("fcntl", [("fd", "anon:[timerfd]", None, 1, 0), ("fd", "anon:[signalfd]", None, 1, 0),
               ("fcntl", "F_GETFL", None, 2, 0)])
exact("socket", [("socket", "AF_INET:SOCK_DGRAM:IPPROTO_UDP", None, 1, 0),
                 ("socket", "AF_NETLINK:SOCK_RAW:NETLINK_ROUTE", None, 1, 0), ("socket", "AF_UNIX:SOCK_STREAM:0", None, 1, 0)])
exact("socketpair", [("socket", "AF_UNIX:SOCK_STREAM:0", None, 1, 0)])
udp = ("fd", "socket:AF_INET:SOCK_DGRAM:IPPROTO_UDP", None, 1, 0)
exact("bind", [("af", "AF_INET", None, 1, 0), udp])
exact("getsockname", [udp])
exact("sendto", [("af", "AF_INET", None, 1, 0), udp])
exact("sendmsg", [("af", "AF_INET", None, 1, 0), udp, ("fd", "socket:AF_UNIX:SOCK_STREAM:0", None, 1, 0)])
exact("recvmsg", [("fd", "socket:AF_UNIX:SOCK_STREAM:0", None, 1, 0)])
exact("recvfrom", [("fd", "socket:AF_INET:SOCK_DGRAM:IPPROTO_UDP", None, 2, 0)])
exact("connect", [("af", "AF_UNIX", None, 1, 1), ("fd", "socket:AF_UNIX:SOCK_STREAM:0", None, 1, 1)])
exact("openat", [("oflag", "O_PATH", None, 1, 0), ("oflag", "O_TMPFILE", None, 1, 0)])
exact("prctl", [("prctl", "PR_SET_NAME", None, 1, 0), ("prctl", "PR_GET_NAME", None, 1, 0)])
exact("bpf", [("bpf_cmd", "BPF_MAP_CREATE", None, 1, 0), ("bpf_map", "BPF_MAP_TYPE_HASH", None, 1, 0)])
exact("perf_event_open", [("perf_type", "PERF_TYPE_SOFTWARE", None, 1, 0)])
if [r[:3] for r in wide.get("keyctl", [])] != [("keyctl", "KEYCTL_GET_KEYRING_ID", None)]:
    bad.append("keyctl: %s" % wide.get("keyctl"))
exact("unshare", [("ns", "CLONE_NEWNS", None, 1, 0), ("ns", "CLONE_NEWUTS", None, 1, 0)])
exact("mount", [("fstype", "tmpfs", None, 1, 0)])
exact("execve", [("binfmt", "elf", None, 1, 0)])
'
	done
	check "wl_reach_bpf: --no-time reaches what the timed mode does" \
		python3 "$KF_TOP/tests/reach_compare.py" "$T/time.json" "$T/no-time.json"
else
	skip wl_reach_bpf "workloads not built (make workloads), or no tmpfs at /dev/shm"
fi

# The same as ptrace, where ptrace records it too.
"$KF" record -b ptrace -q --report /dev/null -o "$T/probe.json" -- true >/dev/null 2>&1
if [ "$(jget "$T/probe.json" 'd.get("reached", False)' 2>/dev/null)" != True ]; then
	skip "bpf reaches what ptrace does" "the ptrace backend of this build records nothing of what calls reached"
else
	# same NAME COMMAND...: ptrace, bpf and bpf --no-time on COMMAND; one TAP line per bpf mode
	same() {
		sname=$1; shift
		"$KF" record -b ptrace -q --report /dev/null -o "$T/p.json" -- "$@" >/dev/null 2>"$T/p.err"
		for flag in "" --no-time; do
			rec "$T/b.json" $flag -- "$@"
			check "$sname (bpf ${flag:-timed}): reached what ptrace says" \
				python3 "$KF_TOP/tests/reach_compare.py" --ignore futex "$T/p.json" "$T/b.json"
		done
	}
	[ -x "$WL/wl_reach_bpf" ] && [ -n "$shm" ] && same wl_reach_bpf "$WL/wl_reach_bpf" "$shm"
	if [ -x "$WL/wl_reach" ]; then
		rm -rf "$T/scratch"
		mkdir -p "$T/scratch"
		same wl_reach "$WL/wl_reach" "$T/scratch"
	fi
	same "ls" ls -la /usr /dev/null
	same "sh pipeline" sh -c 'ls /usr | sort | wc -l; cat /etc/hostname /proc/version >/dev/null'
	same "tar" tar cf /dev/null /usr/include/linux
fi

# Binary formats: a #! script, and a 32-bit ELF (compat_elf) where the i386 workload was built.
printf '#!/bin/sh\nexit 0\n' >"$T/script.sh"
chmod +x "$T/script.sh"
rec "$T/s.json" -- "$T/script.sh"
expect "binfmt: a #! script is script" "$T/s.json" 'exact("execve", [("binfmt", "script", None, 1, 0)])'
if [ -x "$WL/wl_i386_m32" ]; then
	rec "$T/m32.json" -- "$WL/wl_i386_m32"
	expect "binfmt: a 32-bit ELF is compat_elf" "$T/m32.json" 'exact("execve", [("binfmt", "compat_elf", None, 1, 0)])'
else
	skip "binfmt: compat_elf" "the i386 workload was not built (gcc-multilib)"
fi

# stress-ng's netdev stressor: SIOCGIF* ioctls on an AF_INET socket.
if command -v stress-ng >/dev/null; then
	rec "$T/netdev.json" -- stress-ng --netdev 1 -t 2 --quiet
	expect "stress-ng --netdev: SIOCGIF* ioctls on an AF_INET datagram socket" "$T/netdev.json" '
sio = [r for r in wide.get("ioctl", []) if r[0] == "ioctl" and r[1].startswith("SIOCGIF")]
if len({r[1] for r in sio}) < 3 or any(not (r[2] or "").startswith("socket:AF_INET:SOCK_DGRAM:") for r in sio):
    bad.append("ioctl: %s" % wide.get("ioctl"))
if not any(r[1].startswith("AF_INET:SOCK_DGRAM:") for r in wide.get("socket", [])):
    bad.append("socket: %s" % wide.get("socket"))
'
else
	skip "stress-ng --netdev" "stress-ng is not installed (make deps)"
fi

# A run with more refinements than half the kernel's map: those of ended processes are moved out while it runs
# (bpf_read_reach), and every exec still has its binary format, every mmap of a file its fd kind.
n=2000
rec "$T/many.json" -v -- sh -c "i=0; while [ \$i -lt $n ]; do /bin/true; i=\$((i+1)); done"
expect "a long run: refinements moved out of the kernel while it runs lose nothing" "$T/many.json" "
execs = [s for s in d['syscalls'] if s['name'] == 'execve'][0]
if [r[3] for r in wide['execve'] if r[1] == 'elf'] != [execs['calls']] or execs['calls'] != $n + 1:
    bad.append(f\"execve {execs['calls']} calls: {wide['execve']}\")
"
if grep -q "refinements of ended processes out of the kernel" "$T/err"; then ok "a long run: the map was drained while it ran"
else not_ok "a long run: the map was never drained"; tail -n 5 "$T/err" | sed 's/^/#   /'; fi

# --no-reach: nothing of it.
rec "$T/none.json" --no-reach -- sh -c 'cat /proc/version >/dev/null'
eq "--no-reach: no reached member" "False 0" \
	"$(jget "$T/none.json" '"%s %d" % (d.get("reached", False), sum(len(s.get("reached", [])) for s in d["syscalls"]))')"
