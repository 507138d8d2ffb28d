#!/bin/sh
# kfootprint boot as a real init: busybox init, whose rcS starts a tree of processes, run as PID 1 of a new pid
# namespace (unshare -p, the kernel's own init semantics: it reaps orphans, a poweroff ends the namespace) with
# /etc/inittab given by an overlay on /etc in a new mount namespace. The tree must be exactly rcS's: process
# count, parentage, programs, exit codes; PID 1 stays busybox's init; a recorder that fails does not stop it.
# kf-test: waits: 28 s wall, 7 CPU s in a measured make check (fresh clone, Debian 12, 2 CPUs)
. "$(dirname "$0")/../lib.sh"

out=$("$KF" boot 2>&1)
eq "not PID 1: exit 1 and one line" "1 1" "$? $(printf '%s\n' "$out" | grep -c "^kfootprint: boot: not PID 1: the kernel runs it as init")"
# --stop signals every recorder it sees: as root, in a pid namespace of its own, so that it neither finds nor ends
# the recorder of another run of this test on the machine (that made their -d case end "interrupted")
if [ "$(id -u)" -eq 0 ]; then out=$(unshare -pf --mount-proc "$KF" boot --stop 2>&1); else out=$("$KF" boot --stop 2>&1); fi
eq "--stop without a recorder: exit 1, said" "1 1" "$? $(printf '%s\n' "$out" | grep -c "^kfootprint: boot --stop: no kfootprint boot recorder is running")"

if [ "$(id -u)" -ne 0 ]; then
	skip "boot" "not root: a pid namespace and an overlay on /etc need root"
	exit 0
fi
busybox=/bin/busybox
if ! $busybox init --help >/dev/null 2>&1 && ! $busybox --list 2>/dev/null | grep -qx init; then
	skip "boot" "no busybox with init (make deps installs busybox-static)"
	exit 0
fi

# boot NAME RCS_TAIL KFOPTS...: runs busybox init under kfootprint boot; rcS makes the tree, then RCS_TAIL
# (how recording ends), then says it ran and powers off. $T/NAME/ holds rcS, inittab, ran, the footprint.
# INIT=PROGRAM: kfootprint boot execs PROGRAM with busybox init's command line as its arguments; PRE=COMMANDS:
# run in the new namespaces just before kfootprint boot. --init comes first: an option refused after it still
# leaves busybox the init that runs (not this machine's /sbin/init, in the namespace).
boot() {
	name=$1 tail=$2
	shift 2
	d=$T/$name
	mkdir -p "$d/up" "$d/wk"
	cat >"$d/rcS" <<EOS
echo \$\$ \$PPID >$d/rcs-pids
/bin/sleep 0.1
sh -c 'exit 3'
sh -c '/bin/true; /bin/false; exit 4'
$tail
echo ran >$d/ran
kill -USR2 1
EOS
	echo "::sysinit:/bin/sh $d/rcS" >"$d/up/inittab"
	# --kill-child: when timeout ends unshare, the namespace's init (and so all of it) ends too
	timeout -k 5 60 unshare -pfm --mount-proc --kill-child sh -c \
		"mount -t overlay overlay -o lowerdir=/etc,upperdir=$d/up,workdir=$d/wk /etc && ${PRE:-:} && exec \"\$@\"" sh \
		${WRAP:-} "$KF" boot --init "${INIT:-$busybox}" "$@" -- ${INIT:+$busybox} init </dev/null >"$d/out" 2>&1
}
# tree FILE: "pid ppid comm exit" of each process, and the first one's exec chain
tree() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
# the n-th process and the n of its parent (0: none): pids depend on the threads the recorder made first
n = {p["pid"]: i + 1 for i, p in enumerate(d["processes"])}
for p in d["processes"]:
    e = p.get("exit") or {}
    print(n[p["pid"]], n.get(p["ppid"], 0), p["comm"], e.get("code", e.get("signal", "-")))
p = d["processes"][0]
print("pid1 execs", p["execs"], "exe", p["exe"], "argv", " ".join(p["argv"]))
' "$1"
}

# Until a file appears: rcS makes it, then waits for the footprint (written once recording ended).
wait_json='while [ ! -e '$T/file/boot.json' ]; do :; done'
boot file ": >$T/file/done; $wait_json" -o "$T/file/boot.json" --until-file "$T/file/done"
if [ -s "$T/file/boot.json" ]; then
	got=$(tree "$T/file/boot.json")
	# in order of appearance: init (PID 1), rcS, then rcS's children (kfootprint's recorder is not in the tree)
	want="1 0 busybox -
2 1 sh -
3 2 sleep 0
4 2 sh 3
5 2 sh 4
6 5 true 0
7 5 false 1
pid1 execs 1 exe $(readlink -f $busybox) argv $busybox init"
	eq "until-file: the tree of rcS, exactly" "$want" "$got"
	eq "until-file: rcS ran as init's child, init is PID 1" "1" "$(cut -d' ' -f2 "$T/file/rcs-pids")"
	eq "until-file: the boot went on to its end" "ran" "$(cat "$T/file/ran" 2>/dev/null)"
	eq "until-file: incomplete, ended by the condition, which incomplete_why names" "False file $T/file/done appeared" \
		"$(jget "$T/file/boot.json" '"%s %s" % (d["complete"], d.get("incomplete_why"))')"
	check "the tree report renders it" sh -c "'$KF' report -F tree '$T/file/boot.json' | grep -q 'false.*exit 1'"
else
	not_ok "until-file: no footprint: $(cat "$T/file/out")"
fi

# The guest runs the tree case only (tests/guest/t/boot.sh: a minute under TCG for all of them)
[ -z "${KF_BOOT_TREE_ONLY:-}" ] || exit 0

# The first syscall of the init kfootprint boot execs is recorded: first_init (tests/guest/first_init.c) makes
# the boot's only getcpu as its first instruction, then execs busybox init.
if gcc -static -nostdlib -O1 -fno-stack-protector -fno-pie -no-pie -o "$T/first_init" \
	"$KF_TOP/tests/guest/first_init.c" 2>"$T/first_init.err"; then
	INIT=$T/first_init boot first ": >$T/first/done; n=0; until [ -e '$T/first/boot.json' ] || [ \$n -ge 300 ]; do sleep 0.1; n=\$((n + 1)); done" \
		-o "$T/first/boot.json" --until-file "$T/first/done"
	eq "first syscall: init's first call (getcpu) is PID 1's, once; PID 1 execs first_init then busybox" \
		"1 1 2 busybox" "$(jget "$T/first/boot.json" '" ".join(str(x) for x in (sum(p["syscalls"].get("getcpu", {}).get("calls", 0) for p in d["processes"]), d["processes"][0]["syscalls"].get("getcpu", {}).get("calls", 0), d["processes"][0]["execs"], d["processes"][0]["comm"]))' 2>&1)"
	eq "first syscall: the boot went on" "ran" "$(cat "$T/first/ran" 2>/dev/null)"
else
	not_ok "first syscall: first_init.c does not build: $(head -n1 "$T/first_init.err")"
fi

# No /proc and no /sys, as the kernel starts init without an initramfs: the recorder mounts its own in a mount
# namespace of its own (init must still find none), sees the end file and writes the footprint in a tmpfs that
# rcS mounted later, in init's namespace only.
late=$T/noproc/late
mkdir -p "$late"
PRE="umount -l /sys && while umount -l /proc 2>/dev/null; do :; done" boot noproc "mount -t tmpfs tmpfs $late && : >$late/done
n=0; until [ -e $late/boot.json ] || [ \$n -ge 300 ]; do sleep 0.1; n=\$((n + 1)); done
cp $late/boot.json $T/noproc/boot.json; test -e /proc/self/stat && echo mounted >$T/noproc/proc || echo none >$T/noproc/proc" \
	-o "$late/boot.json" --until-file "$late/done"
# rcS's tree and the mount before the end file (a sleep of the wait may follow)
eq "no /proc, /sys: rcS's tree recorded by bpf, written in the tmpfs of init's namespace" \
	"bpf busybox sh sleep sh sh true false mount" \
	"$(jget "$T/noproc/boot.json" '" ".join([d["backend"]] + [p["comm"] for p in d["processes"][:8]])' 2>&1)"
eq "no /proc, /sys: init still has no /proc, the boot went on" "none ran" \
	"$(cat "$T/noproc/proc" 2>&1) $(cat "$T/noproc/ran" 2>&1)"

# --ready-timeout 0.001: init runs at once, before the recorder could attach; the footprint must say so
boot late ": >$T/late/done; n=0; until [ -e '$T/late/boot.json' ] || [ \$n -ge 300 ]; do sleep 0.1; n=\$((n + 1)); done" \
	-o "$T/late/boot.json" \
	--ready-timeout 0.001 --until-file "$T/late/done"
eq "ready timeout: the footprint says init ran before recording was attached" \
	"False init ran before recording was attached" \
	"$(jget "$T/late/boot.json" 'str(d["complete"]) + " " + d["incomplete_why"].split(";")[0]' 2>&1)"
check "ready timeout: said in one line" grep -q "^kfootprint: warning: boot: init ran before the recorder attached" \
	"$T/late/out"
eq "ready timeout: the boot went on, init is PID 1" "ran 1" \
	"$(cat "$T/late/ran" 2>&1) $(cut -d' ' -f2 "$T/late/rcs-pids" 2>&1)"

# kfootprint boot --stop, from rcS
boot stop "'$KF' boot --stop; while [ ! -e '$T/stop/boot.json' ]; do :; done" -o "$T/stop/boot.json"
eq "--stop: the footprint written, with rcS's 7 processes and kfootprint boot --stop" "8 kfootprint" \
	"$(jget "$T/stop/boot.json" 'str(len(d["processes"])) + " " + d["processes"][-1]["comm"]' 2>&1)"
check "--stop: said" grep -q "recorder told to stop (1)" "$T/stop/out"

# --until-target of a unit no systemd reaches (here no systemd listens; on a systemd host, its bus says the unit
# is not found, never active): nothing hangs, -d ends the recording and says so
boot target "while [ ! -e '$T/target/boot.json' ]; do :; done" \
	-o "$T/target/boot.json" --until-target kf-nonesuch.target -d 5
eq "--until-target never reached: -d ended it, rcS's 7 processes in the footprint, the boot went on" \
	"False duration 7 ran" \
	"$(jget "$T/target/boot.json" '"%s %s %d" % (d["complete"], d.get("incomplete_why"), len(d["processes"]))' 2>&1) $(cat "$T/target/ran" 2>/dev/null)"

# A recorder that fails: the footprint cannot be written (a directory that cannot exist), then bpf refused
# (rcS waits up to 30 s for the recorder to give up, so that the poweroff does not kill it first)
boot unwritable ": >$T/unwritable/done; n=0; until grep -q 'not writable' $T/unwritable/out || [ \$n -ge 300 ]; do sleep 0.1; n=\$((n + 1)); done" \
	-o /proc/kfootprint/boot.json --write-timeout 1 \
	--until-file "$T/unwritable/done"
eq "unwritable output: the boot went on" "ran" "$(cat "$T/unwritable/ran" 2>/dev/null)"
check "unwritable output: said in one line" grep -q "^kfootprint: boot: '/proc/kfootprint/boot.json': not writable within 1 s" \
	"$T/unwritable/out"
if command -v setpriv >/dev/null; then
	# without CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN the bpf backend cannot load; init keeps CAP_SYS_BOOT
	WRAP="setpriv --bounding-set -bpf,-perfmon,-sys_admin --inh-caps -bpf,-perfmon,-sys_admin" \
		boot nobpf ": >$T/nobpf/done" -o "$T/nobpf/boot.json" -b bpf --until-file "$T/nobpf/done"
	eq "bpf refused: the boot went on" "ran" "$(cat "$T/nobpf/ran" 2>/dev/null)"
	check "bpf refused: said, nothing recorded" grep -q "^kfootprint: boot: nothing recorded: init runs untouched" \
		"$T/nobpf/out"
	eq "bpf refused: init is still PID 1's busybox" "1" "$(cut -d' ' -f2 "$T/nobpf/rcs-pids")"
	# -b auto: ptrace follows PID 1's tree instead
	WRAP="setpriv --bounding-set -bpf,-perfmon,-sys_admin --inh-caps -bpf,-perfmon,-sys_admin" \
		boot auto ": >$T/auto/done; while [ ! -e '$T/auto/boot.json' ]; do :; done" -o "$T/auto/boot.json" \
		--until-file "$T/auto/done"
	eq "bpf refused, -b auto: ptrace recorded rcS's tree" "ptrace 7" \
		"$(jget "$T/auto/boot.json" 'd["backend"] + " " + str(len(d["processes"]))' 2>&1)"
else
	skip "bpf refused" "no setpriv (util-linux)"
fi
