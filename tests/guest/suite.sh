#!/bin/sh
# The guest-side suite: runs in the QEMU guest (tests/integration/guest.sh boots it once for all of them) every
# tests/guest/t/*.sh, or the scripts named, each with a time limit, and prints their TAP lines with the script's
# name in front ("ok guest/bpf61: ..."), so the host's runner counts and shows them as its own.
# A script that ends non-zero without a "not ok", runs past its limit or prints no TAP line is a failure.
# KF_GUEST_ONLY=pattern runs only the scripts whose name contains pattern.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
: "${KF_BUILD:=build}"
export KF_BUILD KF_TOP="$top"
limit=${KF_GUEST_SCRIPT_TIMEOUT:-600}
# The system's python3, not a version manager's shim from the host's PATH: pyenv's is a bash script that runs ~250
# programs, 8 to 14 s a start under TCG against 0.5 s for /usr/bin/python3 (what a fresh machine has anyway)
py=$(command -v python3)
if [ -n "$py" ] && [ "$py" != /usr/bin/python3 ] && [ -x /usr/bin/python3 ] && ! head -c 4 "$py" | grep -q ELF; then
	pydir=$(mktemp -d /tmp/kf-guest-py.XXXXXX) && ln -s /usr/bin/python3 "$pydir/python3" && PATH=$pydir:$PATH
	export PATH
fi
[ $# -gt 0 ] || set -- tests/guest/t/*.sh
out=$(mktemp /tmp/kf-guest-suite.XXXXXX)
failed=0
echo "# guest: $(uname -sr) $(uname -m), $(nproc) CPUs"
for t in "$@"; do
	[ -f "$t" ] || continue
	name=guest/$(basename "$t" .sh)
	case $name in *"${KF_GUEST_ONLY:-}"*) ;; *) continue ;; esac
	start=$(date +%s)
	timeout -k 5 "$limit" sh "$t" >"$out" 2>&1 </dev/null
	rc=$?
	# TAP lines get the script's name; everything else is a comment line for the failure's context
	grep -q '^not ok ' "$out" && failed=1
	sed -e "s|^ok |ok $name: |" -e "s|^not ok |not ok $name: |" -e '/^\(not \)\{0,1\}ok /!s/^/# /' "$out"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "not ok $name: ran past its limit of $limit s"
		failed=1
	elif [ "$rc" -ne 0 ] && ! grep -q '^not ok ' "$out"; then
		echo "not ok $name: exited with status $rc"
		failed=1
	elif ! grep -qE '^(not )?ok ' "$out"; then
		echo "not ok $name: ran no test"
		failed=1
	fi
	echo "# $name: $(($(date +%s) - start)) s"
done
rm -f "$out"
[ -z "${pydir:-}" ] || rm -rf "$pydir"
exit $failed
