#!/bin/sh
# What the calls reached, mapped (issue 8): the hand-written footprint tests/fixtures/reach/footprint.json (every
# kind of refinement) with the built-in database and with the real linux-source-6.1 tree (--kernel-src), in every
# map format; build/tests/test_reach_map on the real tree; one end-to-end record --map of a pipe and a pty.
# The tree is extracted once, by whichever test needs it first (ksrc_tree in tests/lib.sh).
. "$(dirname "$0")/../lib.sh"

fp="$KF_TOP/tests/fixtures/reach/footprint.json"
# kind value -> "target configs" of the map JSON's "reached" rows, one line each, sorted
reached() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in sorted(d['reached'], key=lambda r: (r['kind'], r['value'])):
    k = r['kernel'] or {}
    print('%s %s -> %s [%s]%s' % (r['kind'], r['value'], r['target'], ' '.join(k.get('configs', [])),
                                  '' if r['required'] else ' not-required'))
PY
}
# NAME KIND VALUE OPTION: the refinement's row names OPTION among its configs
needs() {
	if grep -q "^$2 $3 -> .*[[ ]$4[] ]" "$T/builtin.txt"; then ok "$1"; else
		not_ok "$1: $(grep "^$2 $3 " "$T/builtin.txt" || echo "no row for $2 $3")"
	fi
}

"$KF" map --no-running -F json -o "$T/builtin.json" "$fp"
eq "built-in database: map -F json exits 0" 0 $?
reached "$T/builtin.json" >"$T/builtin.txt"
eq "every refinement of the footprint has a row" \
	"$(jget "$fp" "len(set((r['kind'], r['value']) for s in d['syscalls'] for r in s['reached']))")" \
	"$(wc -l <"$T/builtin.txt")"
needs "AF_UNIX needs UNIX" socket AF_UNIX:SOCK_STREAM:0 UNIX
needs "AF_INET needs INET" socket AF_INET:SOCK_DGRAM:IPPROTO_UDP INET
needs "AF_INET6 needs IPV6" socket AF_INET6:SOCK_STREAM:IPPROTO_TCP IPV6
needs "AF_PACKET needs PACKET" socket AF_PACKET:SOCK_RAW:768 PACKET
eq "a TCP socket of IPv6 reaches its protocol: tcpv6_prot in net/ipv6/tcp_ipv6.c" \
	"proto AF_INET6:SOCK_STREAM:IPPROTO_TCP net/ipv6/tcp_ipv6.c tcpv6_prot" \
	"$(jget "$T/builtin.json" "' '.join('%s %s %s' % (r['target'], r['kernel']['file'], r['kernel']['definition']) for r in d['reached'] if r['value'] == 'AF_INET6:SOCK_STREAM:IPPROTO_TCP')")"
eq "a UDP socket of IPv4: net/ipv4/udp.c" "net/ipv4/udp.c" \
	"$(jget "$T/builtin.json" "' '.join(r['kernel']['file'] for r in d['reached'] if r['value'] == 'AF_INET:SOCK_DGRAM:IPPROTO_UDP')")"
eq "NETLINK_ROUTE: the kernel socket net/core/rtnetlink.c makes, always built under net/, so NET alone" \
	"socket AF_NETLINK:SOCK_RAW:NETLINK_ROUTE -> netlink NETLINK_ROUTE [NET] net/core/rtnetlink.c" \
	"$(grep '^socket AF_NETLINK' "$T/builtin.txt") $(jget "$T/builtin.json" "[r['kernel']['file'] for r in d['reached'] if r['value'] == 'AF_NETLINK:SOCK_RAW:NETLINK_ROUTE'][0]")"
needs "ext4 needs EXT4_FS" fd file:ext4 EXT4_FS
needs "tmpfs needs SHMEM" fd file:tmpfs SHMEM
needs "a pty needs UNIX98_PTYS" fd chr:136:0 UNIX98_PTYS
eq "/dev/null: drivers/char/mem.c, always built" "fd chr:1:3 -> chr 1 []" "$(grep '^fd chr:1:3' "$T/builtin.txt")"
eq "a pipe: fs/pipe.c's pipefs, always built" "fd pipe -> fs pipefs []" "$(grep '^fd pipe' "$T/builtin.txt")"
needs "CLONE_NEWNET needs NET_NS" ns CLONE_NEWNET NET_NS
needs "timerfd needs TIMERFD" fd 'anon:\[timerfd\]' TIMERFD
needs "eventfd needs EVENTFD" fd 'anon:\[eventfd\]' EVENTFD
needs "signalfd needs SIGNALFD" fd 'anon:\[signalfd\]' SIGNALFD
needs "eventpoll needs EPOLL" fd 'anon:\[eventpoll\]' EPOLL
needs "inotify needs INOTIFY_USER" fd anon:inotify INOTIFY_USER
needs "fanotify needs FANOTIFY" fd 'anon:\[fanotify\]' FANOTIFY
needs "io_uring needs IO_URING" fd 'anon:\[io_uring\]' IO_URING
needs "bpf-map needs BPF_SYSCALL" fd anon:bpf-map BPF_SYSCALL
needs "perf_event needs PERF_EVENTS" fd 'anon:\[perf_event\]' PERF_EVENTS
needs "userfaultfd needs USERFAULTFD" fd 'anon:\[userfaultfd\]' USERFAULTFD
needs "memfd needs MEMFD_CREATE" fd memfd MEMFD_CREATE
needs "binfmt script needs BINFMT_SCRIPT" binfmt script BINFMT_SCRIPT
needs "SIOCGIFCONF needs INET (net/ipv4/devinet.c's inet_gifconf)" ioctl SIOCGIFCONF INET
needs "SIOCGIFCONF needs NET" ioctl SIOCGIFCONF NET
needs "TCGETS needs TTY" ioctl TCGETS TTY
needs "BPF_MAP_TYPE_HASH needs BPF_SYSCALL" bpf_map BPF_MAP_TYPE_HASH BPF_SYSCALL
needs "PERF_TYPE_TRACEPOINT needs EVENT_TRACING" perf_type PERF_TYPE_TRACEPOINT EVENT_TRACING
needs "KEYCTL_DH_COMPUTE needs KEY_DH_OPERATIONS" keyctl KEYCTL_DH_COMPUTE KEY_DH_OPERATIONS
eq "a family every call failed to open: on the path, not required" \
	"socket AF_PACKET:SOCK_RAW:768 -> af AF_PACKET [PACKET NET] not-required" "$(grep '^socket AF_PACKET' "$T/builtin.txt")"
eq "pidfs (newer than 6.1): no target, never guessed" \
	"fd file:pidfs -> None [] not-required|nothing in the source tree (6.1) registers it" \
	"$(grep '^fd file:pidfs' "$T/builtin.txt")|$(jget "$T/builtin.json" "[r['note'] for r in d['reached'] if r['value'] == 'file:pidfs'][0]")"
eq "the roll-up names the refinement: EVENTFD needed by fd anon:[eventfd]" "['fd anon:[eventfd]']" \
	"$(jget "$T/builtin.json" "[c['needed_by'] for c in d['configs'] if c['name'] == 'EVENTFD'][0]")"
eq "options of not-required refinements only are probed, not needed: PACKET" "[] ['socket AF_PACKET:SOCK_RAW:768']" \
	"$(jget "$T/builtin.json" "' '.join(str(c[k]) for c in d['configs'] if c['name'] == 'PACKET' for k in ('needed_by', 'probed_by'))")"

# the other formats say the same
"$KF" map --no-running -F kconfig "$fp" >"$T/k.config"
eq "kconfig: CONFIG_EVENTFD=y under the refinement that needs it" "# EVENTFD: needed by fd anon:[eventfd]|CONFIG_EVENTFD=y" \
	"$(grep -A1 '^# EVENTFD:' "$T/k.config" | paste -sd'|')"
eq "kconfig: an option only failed calls need is left out, saying so" \
	"# PACKET: only failed calls need it: socket AF_PACKET:SOCK_RAW:768 (every call of each failed), so it is left out" \
	"$(grep '^# PACKET:' "$T/k.config")"
eq "kconfig: every needed option set, under what needs it" \
	"$(jget "$T/builtin.json" "len([c for c in d['configs'] if c['needed_by']])")" \
	"$(awk '/^# [A-Z0-9_]+: needed by / { keep = 1 } /^$/ { keep = 0 } keep && /^CONFIG_.*=y$/' "$T/k.config" | wc -l)"
"$KF" map --no-running "$fp" >"$T/map.text"
eq "text: a block per refinement" "$(wc -l <"$T/builtin.txt")" \
	"$(grep -cE '^[a-z_]+ [^ ]+  calls [0-9]+ \(errors [0-9]+\)' "$T/map.text")"
eq "text: the pty's target" "    target      chr 136: tty_driver major at drivers/tty/pty.c:910" \
	"$(sed -n '/^fd chr:136:0  calls/,/^[a-z]/{/^    target/p}' "$T/map.text")"
"$KF" map --no-running -F rst "$fp" >"$T/map.rst"
rst=$(python3 - "$T/map.rst" <<'PY' 2>&1
import sys
from docutils.core import publish_doctree
doc = publish_doctree(open(sys.argv[1]).read(), settings_overrides={'halt_level': 2, 'report_level': 2})
tables = [t for t in doc.traverse() if t.tagname == 'table']
print(len(tables), sum(len(t.traverse(lambda n: n.tagname == 'row')) - 1 for t in tables[1:2]))
PY
)
eq "rst: valid for docutils, a table of what the calls reached with a row per refinement" \
	"3 $(wc -l <"$T/builtin.txt")" "$rst"

# the real tree says what the built-in database says
if ! src=$(ksrc_tree); then
	skip "real tree" "no linux-source-6.1 tree ($KSRC_TARBALL missing: apt-get install linux-source-6.1)"
else
	debconfig=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
	set --
	if [ -f "$debconfig" ]; then
		xz -dc "$debconfig" >"$T/config"
		set -- --kernel-config "$T/config"
	fi
	"$KF" map --no-running --kernel-src "$src" "$@" -F json -o "$T/tree.json" "$fp"
	eq "--kernel-src: map -F json exits 0" 0 $?
	reached "$T/tree.json" >"$T/tree.txt"
	if cmp -s "$T/builtin.txt" "$T/tree.txt"; then ok "--kernel-src: every refinement's target and options as the built-in database's"
	else not_ok "--kernel-src: targets differ from the built-in database's"; diff "$T/builtin.txt" "$T/tree.txt" | head | sed 's/^/#   /'; fi
	KF_KSRC=$src CMOCKA_MESSAGE_OUTPUT=TAP "$KF_TOP/$KF_BUILD/tests/test_reach_map" >"$T/unit" 2>&1
	rc=$?
	sed -n 's/^\(not \)\{0,1\}ok [0-9]* - test_real/&_tree/p' "$T/unit" | sed 's/ - / /'
	[ "$rc" -eq 0 ] || not_ok "test_reach_map on the real tree exited with status $rc"
fi

# end to end: a pipe and a pty recorded by ptrace, mapped with the built-in database into the saved footprint
"$KF" record -b ptrace -q --map-output "$T/e2e.map" -o "$T/e2e.json" --report /dev/null -- \
	python3 -c 'import os, pty; r, w = os.pipe(); os.write(w, b"x"); os.read(r, 1); m, s = pty.openpty(); os.write(s, b"y")' 2>"$T/e2e.err"
eq "record --map: exit 0" "0" "$?$(cat "$T/e2e.err")"
if [ "$(jget "$T/e2e.json" "d.get('reached', False)")" != True ]; then
	skip "record --map: refinements" "the ptrace backend of this build records no refinement"
else
	eq "record --map -o: a pipe's read reached fs pipefs, always built" "fs pipefs []" \
		"$(jget "$T/e2e.json" "' '.join('%s %s' % (r['kernel']['target'], r['kernel']['configs']) for s in d['syscalls'] if s['name'] == 'read' for r in s['reached'] if r['value'] == 'pipe')")"
	eq "record --map -o: the pty's write reached chr 136, UNIX98_PTYS" "chr 136 ['UNIX98_PTYS']" \
		"$(jget "$T/e2e.json" "' '.join('%s %s' % (r['kernel']['target'], r['kernel']['configs']) for s in d['syscalls'] if s['name'] == 'write' for r in s['reached'] if r['value'].startswith('chr:136:'))")"
	eq "record --map -o: the roll-up lists UNIX98_PTYS, needed by the pty" "True" \
		"$(jget "$T/e2e.json" "any(c['name'] == 'UNIX98_PTYS' and any(n.startswith('fd chr:136:') for n in c['needed_by']) for c in d['configs'])")"
	eq "record --map: the map text shows the pty" 1 "$(grep -c '^fd chr:136:[0-9]*  calls' "$T/e2e.map")"
fi
