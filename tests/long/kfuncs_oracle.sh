#!/bin/sh
# make check-long: record --kernel-functions against trace-cmd's function_graph (the seed's oracle) on ls /,
# sh -c 'cat /proc/version | wc -c' and an AF_UNIX socketpair, in the QEMU guest, whose 6.1 kernel traces
# functions (this host's refuses): tests/guest/long/kfuncs_oracle.sh, in one boot of its own (5 to 15 minutes
# under TCG). Its TAP lines are this script's.
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1
if [ "$(id -u)" -ne 0 ] || ! command -v qemu-system-x86_64 >/dev/null; then
	skip kfuncs_oracle "the guest cannot run here (root and qemu-system-x86 needed: tests/guest/README.md)"
	exit 0
fi
tests/guest/run --timeout 3000 -- sh tests/guest/long/kfuncs_oracle.sh
rc=$?
[ $rc -ne 125 ] || not_ok "kfuncs_oracle: the guest could not run it"
exit $rc
