#!/bin/sh
# make check-long: in the QEMU guest, whose 6.1 kernel traces functions (this host's refuses), in one boot of its
# own (5 to 25 minutes under TCG, with the machine shared): tests/guest/long/kfuncs_stop.sh (the tracing state
# after a Ctrl-C and a -d expiry) and tests/guest/long/kfuncs_oracle.sh (record --kernel-functions against
# trace-cmd's function_graph, the seed's oracle, on ls /, sh -c 'cat /proc/version | wc -c' and an AF_UNIX
# socketpair). Their TAP lines are this script's.
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1
if [ "$(id -u)" -ne 0 ] || ! command -v qemu-system-x86_64 >/dev/null; then
	skip kfuncs_guest "the guest cannot run here (root and qemu-system-x86 needed: tests/guest/README.md)"
	exit 0
fi
tests/guest/run --timeout 3000 -- sh -c 'sh tests/guest/long/kfuncs_stop.sh; sh tests/guest/long/kfuncs_oracle.sh'
rc=$?
[ $rc -ne 125 ] || not_ok "kfuncs_guest: the guest could not run them"
exit $rc
