#!/bin/sh
# The QEMU guest (tests/guest/run): Debian's 6.1 kernel on the host's own root. One boot runs the whole guest-side
# suite (tests/guest/suite.sh: the bpf backend on 6.1, the i386 tests the host's kernel refuses, tracefs, kernel
# functions recorded and mapped), whose TAP lines are this script's; the same boot checks the harness itself: CMD's
# exit status, stdout and stderr kept apart, the current directory writable. The harness's failures cost no boot:
# a timeout, QEMU missing, a bad option. Where the guest cannot run at all (not root, no QEMU, no static busybox,
# no kernel package), a skip says why. Each boot costs 5 to 10 s on an idle machine (more on a busy one): keep
# guest tests in that one.
# kf-test: first 151: the longest (one boot runs the whole guest suite): started first, the pool ends sooner
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1
run=tests/guest/run

# The harness's own errors: one line each, exit 125, no boot.
out=$(KF_GUEST_QEMU=/nonexistent/qemu-system-x86_64 $run -- true 2>&1)
rc=$?
eq "no QEMU: exit 125 and one line naming the package" "125 1 1" \
	"$rc $(printf '%s\n' "$out" | wc -l) $(printf '%s\n' "$out" | grep -c '^kfootprint: guest: .*qemu-system-x86')"
out=$($run --bogus -- true 2>&1)
eq "unknown option: exit 125, said" "125 1" "$? $(printf '%s\n' "$out" | grep -c "unknown option '--bogus'")"
out=$($run --timeout x -- true 2>&1)
eq "--timeout x: exit 125, one line" "125 1" "$? $(printf '%s\n' "$out" | grep -c "^kfootprint: guest: --timeout 'x': ")"

# Whether the guest can run here at all: a skip with the reason where it cannot.
why=
if [ "$(id -u)" -ne 0 ]; then
	why="not root (the guest exports / over 9p with the host's owners)"
elif ! command -v qemu-system-x86_64 >/dev/null; then
	why="qemu-system-x86_64 is not installed (make deps installs qemu-system-x86)"
elif [ "$(dpkg-query -W -f='${Status}' busybox-static 2>/dev/null)" != "install ok installed" ]; then
	why="busybox-static is not installed (make deps)"
fi
if [ -z "$why" ]; then
	# --timeout 1 kills QEMU long before the guest boots: the timeout path, and the kernel prepared, for one boot
	out=$($run --timeout 1 -- true 2>&1)
	rc=$?
	case $out in
	*"no kernel package"*) why=$(printf '%s\n' "$out" | tail -n1) ;;
	*) eq "--timeout 1: exit 124 and one line" "124 1" \
		"$rc $(printf '%s\n' "$out" | grep -c '^kfootprint: guest: timeout: CMD did not end within 1 s')" ;;
	esac
fi
if [ -n "$why" ]; then
	skip "guest" "$why"
	exit 0
fi

# A second binary with the guest kernel's minimal BTF (make btf-build BTF_KERNELS=its vmlinux: the loader and the
# link only, seconds), which tests/guest/t/bpf61.sh runs against the default one in the same boot.
vmlinux=$(ls "${KF_GUEST_CACHE:-/var/cache/kfootprint/guest}"/kernel-6.1.*/vmlinux 2>/dev/null | sort -V | tail -n1)
rm -rf "$KF_BUILD/btf61"
if [ -z "$vmlinux" ]; then
	skip "make btf-build BTF_KERNELS=the guest's vmlinux" "no cached 6.1 vmlinux (tests/guest/run keeps one)"
else
	check "make btf-build BTF_KERNELS=$vmlinux: a binary with 6.1's minimal BTF" \
		make --no-print-directory -s BUILD="$KF_BUILD" BTF_BUILD="$KF_BUILD/btf61" BTF_KERNELS="$vmlinux" btf-build
fi

# The boot: the suite's TAP lines on stdout, then the harness's checks.
mkdir -p "$KF_BUILD/guest"
rm -f "$KF_BUILD/guest/suite.rc"
start=$(date +%s)
# shellcheck disable=SC2016
$run --timeout "${KF_GUEST_TIMEOUT:-1800}" -v -- sh -c 'sh tests/guest/suite.sh; echo $? >"$KF_BUILD/guest/suite.rc"
	echo "kf-guest-stderr-check" >&2; exit 42' >"$T/out" 2>"$T/err"
rc=$?
cat "$T/out"
boot=$(sed -n 's/.*kernel time at CMD \([0-9.]*\) s, wall \([0-9.]*\) s/\1 \2/p' "$T/err")
echo "# guest boot: kernel time at CMD ${boot% *} s; the boot and suite took $(($(date +%s) - start)) s"
eq "the guest's status is CMD's (42)" 42 "$rc"
eq "CMD's stderr on the host's stderr only" "1 0" "$(grep -c '^kf-guest-stderr-check$' "$T/err") $(grep -c 'kf-guest-stderr-check' "$T/out")"
# (the suite's own failures are its TAP lines above)
check "the current directory is writable in the guest: the suite's status was written there" \
	grep -qx '[0-9]*' "$KF_BUILD/guest/suite.rc"
if [ "$rc" -ne 42 ]; then
	grep -E '^kfootprint: guest:|KF-GUEST|Kernel panic' "$T/err" | head -n 5 | sed 's/^/#   /'
fi
