#!/bin/sh
# What tests/workloads/wl_reach reaches, for every backend's test to hold a footprint against (sourced, after
# lib.sh; not a test itself: run.sh runs this file too, and it then only checks that its table is well formed).
#
# reach_expect: the table, one refinement a line, tab-separated:
#   TAG  SYSCALL  KIND  VALUE  FD  CALLS
# TAG names the object wl_reach says it "made" (a row of an object it could not make is left out); "-" always.
# FD is "-" but for ioctl. {ROOTFS} is the filesystem type of the scratch directory, {PIDFD} a pidfd's kind (file:pidfs
# since Linux 6.9, anon:[pidfd] before). For each SYSCALL of the table the footprint's workload-wide refinements must
# be exactly these rows: those calls are made by wl_reach only, never by the C library's start-up.
# REACH_OPTIONAL: tags the kernel may refuse here (a skip, with wl_reach's reason); any other must be made.
REACH_OPTIONAL="loop0 cgroup2_dir fanotify io_uring bpf_map bpf_prog perf_event userfaultfd packet fsopen"

reach_expect() {
	cat <<'EOT'
rootfs_file	fstatfs	fd	file:{ROOTFS}	-	1
pipe	fstatfs	fd	pipe	-	1
fifo	fstatfs	fd	fifo:tmpfs	-	1
tmpfs_file	fstatfs	fd	file:tmpfs	-	1
tmpfs_dir	fstatfs	fd	dir:tmpfs	-	1
proc_file	fstatfs	fd	file:proc	-	1
proc_dir	fstatfs	fd	dir:proc	-	1
sysfs_file	fstatfs	fd	file:sysfs	-	1
sysfs_dir	fstatfs	fd	dir:sysfs	-	1
devtmpfs_dir	fstatfs	fd	dir:devtmpfs	-	1
cgroup2_dir	fstatfs	fd	dir:cgroup2	-	1
null	fstatfs	fd	chr:1:3	-	1
loop0	fstatfs	fd	blk:7:0	-	1
nsfs	fstatfs	fd	file:nsfs	-	1
memfd	fstatfs	fd	memfd	-	1
ptmx	fstatfs	fd	chr:5:2	-	1
unix_stream	fstatfs	fd	socket:AF_UNIX:SOCK_STREAM:0	-	1
unix_dgram	fstatfs	fd	socket:AF_UNIX:SOCK_DGRAM:0	-	1
inet_tcp	fstatfs	fd	socket:AF_INET:SOCK_STREAM:IPPROTO_TCP	-	1
inet_udp	fstatfs	fd	socket:AF_INET:SOCK_DGRAM:IPPROTO_UDP	-	1
inet6_tcp	fstatfs	fd	socket:AF_INET6:SOCK_STREAM:IPPROTO_TCP	-	1
netlink_route	fstatfs	fd	socket:AF_NETLINK:SOCK_RAW:NETLINK_ROUTE	-	1
packet	fstatfs	fd	socket:AF_PACKET:SOCK_RAW:0	-	1
eventfd	fstatfs	fd	anon:[eventfd]	-	1
eventpoll	fstatfs	fd	anon:[eventpoll]	-	1
timerfd	fstatfs	fd	anon:[timerfd]	-	1
signalfd	fstatfs	fd	anon:[signalfd]	-	1
inotify	fstatfs	fd	anon:inotify	-	1
fanotify	fstatfs	fd	anon:[fanotify]	-	1
io_uring	fstatfs	fd	anon:[io_uring]	-	1
bpf_map	fstatfs	fd	anon:bpf-map	-	1
bpf_prog	fstatfs	fd	anon:bpf-prog	-	1
perf_event	fstatfs	fd	anon:[perf_event]	-	1
userfaultfd	fstatfs	fd	anon:[userfaultfd]	-	1
pidfd	fstatfs	fd	{PIDFD}	-	1
-	ioctl	fd	pipe	-	1
-	ioctl	ioctl	FIONREAD	pipe	1
-	ioctl	fd	chr:5:2	-	1
-	ioctl	ioctl	TCGETS	chr:5:2	1
-	ioctl	fd	socket:AF_INET:SOCK_DGRAM:IPPROTO_UDP	-	1
-	ioctl	ioctl	SIOCGIFCONF	socket:AF_INET:SOCK_DGRAM:IPPROTO_UDP	1
-	openat	oflag	O_TMPFILE	-	1
-	openat	oflag	O_PATH	-	1
-	openat	oflag	O_DIRECT	-	1
-	socket	socket	AF_UNIX:SOCK_DGRAM:0	-	1
-	socket	socket	AF_INET:SOCK_STREAM:IPPROTO_TCP	-	1
-	socket	socket	AF_INET:SOCK_DGRAM:IPPROTO_UDP	-	1
-	socket	socket	AF_INET6:SOCK_STREAM:IPPROTO_TCP	-	1
-	socket	socket	AF_NETLINK:SOCK_RAW:NETLINK_ROUTE	-	1
packet	socket	socket	AF_PACKET:SOCK_RAW:0	-	1
-	socketpair	socket	AF_UNIX:SOCK_STREAM:0	-	1
-	socketpair	socket	AF_UNIX:SOCK_DGRAM:0	-	1
-	connect	fd	socket:AF_UNIX:SOCK_DGRAM:0	-	1
-	connect	af	AF_UNIX	-	1
-	sendmsg	fd	socket:AF_UNIX:SOCK_DGRAM:0	-	2
-	sendmsg	af	AF_UNIX	-	1
-	recvmsg	fd	socket:AF_UNIX:SOCK_DGRAM:0	-	1
-	sendto	fd	socket:AF_INET:SOCK_DGRAM:IPPROTO_UDP	-	1
-	sendto	af	AF_INET	-	1
-	bind	fd	socket:AF_INET6:SOCK_STREAM:IPPROTO_TCP	-	1
-	bind	af	AF_INET6	-	1
-	bind	fd	socket:AF_NETLINK:SOCK_RAW:NETLINK_ROUTE	-	1
-	bind	af	AF_NETLINK	-	1
-	epoll_ctl	fd	anon:[eventfd]	-	1
-	lseek	fd	anon:[eventfd]	-	1
-	lseek	fd	chr:1:3	-	1
-	fsync	fd	memfd	-	1
-	bpf	bpf_cmd	BPF_MAP_CREATE	-	1
-	bpf	bpf_cmd	BPF_PROG_LOAD	-	1
-	bpf	bpf_cmd	BPF_MAP_GET_NEXT_ID	-	1
-	bpf	bpf_map	BPF_MAP_TYPE_ARRAY	-	1
-	bpf	bpf_prog	BPF_PROG_TYPE_SOCKET_FILTER	-	1
-	perf_event_open	perf_type	PERF_TYPE_SOFTWARE	-	1
-	prctl	prctl	PR_SET_NAME	-	1
-	keyctl	keyctl	KEYCTL_GET_KEYRING_ID	-	1
-	setns	fd	file:nsfs	-	1
-	setns	ns	CLONE_NEWUTS	-	1
-	fsopen	fstype	tmpfs	-	1
-	execve	binfmt	elf	-	1
EOT
}

# reach_check NAME FOOTPRINT MADE SCRATCH: TAP lines, one per syscall of the table (and one per optional object not
# made: a skip). MADE is wl_reach's stdout.
reach_check() {
	rc_name=$1 rc_json=$2 rc_made=$3 rc_scratch=$4
	rc_rootfs=$(findmnt -n -o FSTYPE -T "$rc_scratch" 2>/dev/null | head -n1)
	rc_kver=$(uname -r | awk -F. '{ print $1 * 1000 + $2 }')
	if [ "$rc_kver" -ge 6009 ]; then rc_pidfd=file:pidfs; else rc_pidfd='anon:[pidfd]'; fi
	for tag in $(reach_expect | cut -f1 | sort -u); do
		[ "$tag" = - ] && continue
		if ! grep -qx "made $tag" "$rc_made"; then
			case " $REACH_OPTIONAL " in
			*" $tag "*) skip "$rc_name: $tag" "$(grep "^skip $tag" "$rc_made" | head -n1)" ;;
			*) not_ok "$rc_name: wl_reach could not make $tag: $(grep "^skip $tag" "$rc_made" | head -n1)" ;;
			esac
		fi
	done
	reach_expect | sed -e "s/{ROOTFS}/$rc_rootfs/" -e "s/{PIDFD}/$rc_pidfd/" >"$T/reach.expect"
	python3 - "$rc_json" "$T/reach.expect" "$rc_made" "$rc_name" <<'PY'
import json, sys
fp = json.load(open(sys.argv[1]))
made = {l.split()[1] for l in open(sys.argv[3]) if l.startswith("made ")}
want = {}
for line in open(sys.argv[2]):
    tag, sc, kind, value, fd, calls = line.rstrip("\n").split("\t")
    want.setdefault(sc, [])
    if tag == "-" or tag in made:
        want[sc].append("%s %s%s %s" % (kind, value, "" if fd == "-" else " on " + fd, calls))
got = {s["name"]: ["%s %s%s %d" % (r["kind"], r["value"], " on " + r["fd"] if "fd" in r else "", r["calls"])
                   for r in s.get("reached", [])] for s in fp["syscalls"]}
for sc in sorted(want):
    w, g = sorted(want[sc]), sorted(got.get(sc, []))
    if w == g:
        print("ok %s: %s reached exactly what wl_reach made it reach" % (sys.argv[4], sc))
    else:
        print("not ok %s: %s: expected %s, got %s" % (sys.argv[4], sc, w, g))
PY
}

# Run as a test (tests/run.sh runs every script here): the table's rows are well formed.
case $0 in
*reach_expect.sh)
	. "$(dirname "$0")/../lib.sh"
	bad=$(reach_expect | awk -F'\t' 'NF != 6 || $6 !~ /^[0-9]+$/')
	eq "reach_expect: every row has six fields and a count" "" "$bad"
	;;
esac
