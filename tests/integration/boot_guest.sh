#!/bin/sh
# kfootprint boot as the REAL init of a booted kernel (tests/integration/boot.sh runs it as PID 1 of a pid
# namespace): the QEMU guest (Debian's 6.1) with `tests/guest/run --as-init`, whose CMD sets /etc/inittab (an
# overlay on the read-only root's /etc) and execs kfootprint boot as the kernel's PID 1, which execs busybox init.
# Two boots of ~10-20 s each:
#   A. options from the kernel command line (kfootprint_until_file=), the default output under /var/log on the
#      read-only root: rcS makes a tree, ends the recording, waits, then bind-mounts a writable directory on
#      /var/log; the footprint must appear there (kept in memory meanwhile), with exactly rcS's tree. The init
#      kfootprint execs is first_init (tests/guest/first_init.c), whose first instruction makes the boot's only
#      getcpu before it execs busybox init: the footprint must hold that first call.
#   B. a recorder that cannot run (kfootprint_backend= of no backend): init still runs as PID 1, the guest
#      powers off normally.
# kf-test: first 28: among the longest
. "$(dirname "$0")/../lib.sh"

guest_usable "boot_guest" || exit 0
cd "$KF_TOP" || exit 1
# under the current directory: the guest's only writable 9p export, so the host reads what it wrote
D=$(mktemp -d "$KF_TOP/$KF_BUILD/.boot_guest.XXXXXX") || exit 1
trap 'rm -rf "$T" "$D"' EXIT

# guest NAME APPEND [INIT]: boots with kfootprint boot as PID 1 and busybox init after it (through INIT, which
# gets busybox init's command line), rcS being $D/NAME/rcS. CMD (PID 1 until it execs kfootprint) gives /etc an
# overlay holding the inittab; on failure it powers off at once.
guest() {
	name=$1 append=$2 init=${3:-}
	d=$D/$name
	echo "::sysinit:/bin/busybox sh $d/rcS" >"$d/inittab"
	tests/guest/run --as-init --timeout 300 --append "$append" -- /bin/sh -c '
		off() { echo "boot_guest: $*" >&2; /bin/busybox poweroff -f; }
		grep -qw overlay /proc/filesystems || modprobe -d "$KF_GUEST_KERNEL_DIR" overlay || off "no overlayfs"
		mkdir -p /tmp/etc/up /tmp/etc/wk && cp "$1/inittab" /tmp/etc/up/inittab || off "no inittab"
		mount -t overlay overlay -o lowerdir=/etc,upperdir=/tmp/etc/up,workdir=/tmp/etc/wk /etc || off "no overlay"
		exec "$2" boot --init "${3:-/bin/busybox}" -- ${3:+/bin/busybox} init' sh "$d" "$KF" "$init" >"$d/out" 2>"$d/err"
	echo $? >"$d/rc"
}
# the tree of rcS: the first commands of both boots (explicit paths: the exec names do not depend on PATH)
tree_cmds='read up _ </proc/uptime; echo $up >$d/uptime
echo $$ $PPID >$d/rcs-pids
/bin/sleep 0.1
/bin/sh -c "exit 3"
/bin/sh -c "/bin/true; /bin/false; exit 4"'
# after the recording: what init and rcS see from inside, then the power off (its status is not init's)
inside='cat /proc/1/comm >$d/pid1-comm
tr "\0" " " </proc/1/cmdline >$d/pid1-cmdline
echo ran >$d/ran
/bin/busybox poweroff -f'

# --- A: the tree, written once /var/log becomes writable -------------------------------------------------
d=$D/a
mkdir -p "$d/varlog"
{
	echo "d=$d"
	printf "%s\n" "$tree_cmds"
	# the end condition (kfootprint_until_file=); then 3 s of builtins only, in which the recording ends
	echo ': >/tmp/kf-done'
	echo 'read -t 3 x </dev/console'
	# the root is read-only: nothing can have been written yet
	echo 'ls /var/log/kfootprint/boot-*.json >$d/early 2>&1'
	echo 'mount --bind $d/varlog /var/log'
	echo 'n=0; until ls $d/varlog/kfootprint/boot-*.json >/dev/null 2>&1 || [ $n -ge 300 ]; do /bin/sleep 0.1; n=$((n + 1)); done'
	printf "%s\n" "$inside"
} >"$d/rcS"
gcc -static -nostdlib -O1 -fno-stack-protector -fno-pie -no-pie -o "$D/first_init" tests/guest/first_init.c ||
	not_ok "A: tests/guest/first_init.c does not build"
guest a "kfootprint_until_file=/tmp/kf-done" "$D/first_init"
eq "A: the guest powered off normally" "0" "$(cat "$d/rc")"
eq "A: busybox init is PID 1 (its /proc/1/comm and cmdline)" "busybox|/bin/busybox init " \
	"$(cat "$d/pid1-comm" 2>&1)|$(cat "$d/pid1-cmdline" 2>&1)"
eq "A: rcS is init's child" "1" "$(cut -d' ' -f2 "$d/rcs-pids" 2>&1)"
check "A: nothing written while /var/log was read-only" grep -q 'No such file' "$d/early"
json=$(ls "$d"/varlog/kfootprint/boot-*.json 2>/dev/null | head -n1)
if [ -n "$json" ]; then
	ok "A: the footprint written at the default path once /var/log was writable"
	check "A: said on stderr" grep -q "^kfootprint: boot: footprint written to /var/log/kfootprint/boot-" "$d/err"
	got=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = {p["pid"]: i + 1 for i, p in enumerate(d["processes"])}
for p in d["processes"]:
    e = p.get("exit") or {}
    print(n[p["pid"]], n.get(p["ppid"], 0), p["pid"] if p["ppid"] == 0 else "", p["comm"], e.get("code", e.get("signal", "-")))
p = d["processes"][0]
print("pid1", p["execs"], p["exe"], " ".join(p["argv"]), d["backend"], d["complete"], d.get("incomplete_why"))
print("getcpu", p["syscalls"].get("getcpu", {}).get("calls", 0), sum(q["syscalls"].get("getcpu", {}).get("calls", 0) for q in d["processes"]))
' "$json" 2>&1)
	# PID 1 itself, rcS, its 5 processes; nothing after the end condition (the read, ls, mount, poweroff)
	want="1 0 1 busybox -
2 1  busybox -
3 2  sleep 0
4 2  sh 3
5 2  sh 4
6 5  true 0
7 5  false 1
pid1 2 $(readlink -f /bin/busybox) /bin/busybox init bpf False file /tmp/kf-done appeared
getcpu 1 1"
	eq "A: the tree: PID 1 execs first_init, its first call (getcpu) recorded, then busybox init; rcS's 5 processes, parentage, exit codes, bpf, ended by the file" \
		"$want" "$got"
else
	not_ok "A: no footprint in $d/varlog: $(tail -n3 "$d/err" | tr '\n' ' ')"
fi

# --- B: a recorder that cannot run ---------------------------------------------------------------------
d=$D/b
mkdir -p "$d"
{
	echo "d=$d"
	printf "%s\n" "$tree_cmds"
	printf "%s\n" "$inside"
} >"$d/rcS"
guest b "kfootprint_backend=nonesuch"
eq "B: bad backend: the guest powered off normally" "0" "$(cat "$d/rc")"
eq "B: bad backend: busybox init is PID 1, rcS its child, rcS ran" "busybox 1 ran" \
	"$(cat "$d/pid1-comm" 2>&1) $(cut -d' ' -f2 "$d/rcs-pids" 2>&1) $(cat "$d/ran" 2>&1)"
check "B: bad backend: said in one line, init unrecorded" grep -q "^kfootprint: boot: bad options: init runs unrecorded" \
	"$d/err"

# the guest kernel's clock when rcS started (kernel start to rcS): recorded (A) and with the recorder failing (B)
echo "# kernel start to rcS: A (recorded) $(cat "$D/a/uptime" 2>/dev/null) s, B (recorder failed) $(cat "$D/b/uptime" 2>/dev/null) s"

# the harness's own failure: a PID 1 that exits instead of powering off is the kernel's panic, quoted
out=$(tests/guest/run --as-init --timeout 300 -- /bin/sh -c 'exit 7' 2>&1)
eq "--as-init: PID 1 exiting: exit 125, the panic quoted in one line" "125 1" \
	"$? $(printf '%s\n' "$out" | grep -c "^kfootprint: guest: the guest ended without powering off: .*Attempted to kill init")"
