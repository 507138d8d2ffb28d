#!/bin/sh
# make check-long: the baselet's recorded boot afresh (issue 19). The re-test's own /init (build/kfootprint-init)
# in an initramfs tree of its own (busybox-static, a #! script that lists / and reads /proc and /sys, run as
# nobody through /kf/uid), started as PID 1 of new pid and mount namespaces chrooted there, recorded with
# ptrace and --kernel-functions in Debian's 6.1 guest (tests/guest/run); its reboot(RB_AUTOBOOT) ends the
# namespace, not the guest. Its map is held to `tailor --baselet` by the check of make check
# (tests/integration/tailor_baselet.py), which runs on tests/fixtures/tailor-boot.json: KF_TAILOR_BOOT_SAVE=FILE
# keeps the recording to refresh that fixture. About 40 s.
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1
guest_usable tailor_boot || exit 0
[ -x /bin/busybox ] || { skip tailor_boot "no /bin/busybox (make deps: busybox-static)"; exit 0; }
# the guest writes only under the current directory: the tree and the recording are made in a directory here
w=$(realpath "$(mktemp -d "$KF_TOP/$KF_BUILD/tailor-boot.XXXXXX")")
trap '[ -n "${KF_KEEP:-}" ] || rm -rf "$T" "$w"' EXIT
r=$w/root
mkdir -p "$r/kf" "$r/bin" "$r/dev" "$r/proc" "$r/sys"
cp "$KF_TOP/$KF_BUILD/kfootprint-init" "$r/init" && cp /bin/busybox "$r/bin/busybox" || exit 1
printf '#!/bin/busybox sh\n/bin/busybox ls / >/dev/null\n/bin/busybox cat /proc/self/status /sys/kernel/uevent_seqnum >/dev/null\n' >"$r/kf/run.sh"
chmod 755 "$r/kf/run.sh"
printf '/kf/run.sh\0' >"$r/kf/cmd"
echo "65534 65534" >"$r/kf/uid"
cat >"$w/in-guest.sh" <<EOS
"$KF" -q -b ptrace --kernel-functions -o "$w/boot.json" --report /dev/null -- unshare -p -f -m chroot "$r" /init
EOS
(cd "$w" && "$KF_TOP/tests/guest/run" --timeout 300 -- sh "$w/in-guest.sh") >"$w/guest.out" 2>&1
check "the /init's recording in the guest was written" test -s "$w/boot.json" || sed 's/^/#   /' "$w/guest.out"
"$KF" tailor --baselet >"$T/baselet"
"$KF" map -F json -o "$T/boot.map.json" "$w/boot.json"
eq "map of the boot recorded now: exit 0" 0 $?
$PY "$KF_TOP/tests/integration/tailor_baselet.py" "baselet vs a boot recorded now" "$T/boot.map.json" "$T/baselet"
[ -z "${KF_TAILOR_BOOT_SAVE:-}" ] || cp "$w/boot.json" "$KF_TAILOR_BOOT_SAVE"
