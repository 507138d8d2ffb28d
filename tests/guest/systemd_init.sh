#!/bin/sh
# tests/long/boot_systemd.sh's CMD: the guest's PID 1 (tests/guest/run --as-init) until it execs kfootprint boot,
# which execs the host's own systemd 252 as PID 1, on the read-only 9p root. systemd.unit=basic.target (kernel
# command line) keeps the boot to what basic.target needs; two units of the test's, in /run/systemd/system (a
# tmpfs the harness mounted, which systemd keeps and reads as a unit directory):
#   kf-hold.service  the last unit before basic.target: `/bin/sleep 2.1`, whose exit the footprint must hold
#                    (a recording ended before the target would not have it);
#   kf-check.service after basic.target: waits for the footprint, writes what PID 1 is and what systemd says of
#                    the target and of its failed units into D, then `systemctl poweroff -f`.
# Usage: systemd_init.sh D KFOOTPRINT|none   (none: systemd without kfootprint, to time the same boot plain)
d=$1 kf=$2
off() {
	echo "boot_systemd: $*" >&2
	exec /bin/busybox poweroff -f
}
# The host's root has /.dockerenv (this VM runs in a container), which systemd 252 takes for "docker" and then
# reads its kernel command line from /proc/1/cmdline, so systemd.unit= would be ignored. An empty $container is
# what systemd's own detection calls "no container", the truth in the guest.
export container=
u=/run/systemd/system
mkdir -p $u/basic.target.wants || off "cannot make $u"
cat >$u/kf-hold.service <<EOT || off "cannot write kf-hold.service"
[Unit]
Description=kfootprint test: the last unit before basic.target
DefaultDependencies=no
After=sysinit.target sockets.target timers.target paths.target slices.target
Before=basic.target
[Service]
Type=oneshot
ExecStart=/bin/sleep 2.1
EOT
cat >$u/kf-check.sh <<EOT || off "cannot write kf-check.sh"
read up _ </proc/uptime; echo \$up >$d/check-uptime
[ ! -e $d/boot.json ] || echo there >$d/early
n=0
while [ "$kf" != none ] && [ ! -s $d/boot.json ] && [ \$n -lt 600 ]; do /bin/sleep 0.1; n=\$((n + 1)); done
read up _ </proc/uptime; echo \$up >$d/written-uptime
cat /proc/1/comm >$d/pid1-comm
systemctl is-active basic.target >$d/basic-state 2>&1
systemctl show -p ActiveEnterTimestampMonotonic basic.target >$d/basic-when 2>&1
systemctl list-units --failed --plain --no-legend --no-pager >$d/failed 2>&1
systemctl poweroff -f
EOT
cat >$u/kf-check.service <<EOT || off "cannot write kf-check.service"
[Unit]
Description=kfootprint test: after basic.target, check and power off
After=basic.target
[Service]
Type=oneshot
ExecStart=/bin/sh $u/kf-check.sh
EOT
ln -s ../kf-hold.service ../kf-check.service $u/basic.target.wants/ || off "cannot link the units"
[ "$kf" != none ] || exec /lib/systemd/systemd
exec "$kf" boot -v --init /lib/systemd/systemd -o "$d/boot.json" -d 300
