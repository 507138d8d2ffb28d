#!/bin/sh
# make check-long: kfootprint tailor end to end (issue 19), on the kernels it builds (cached by configuration in
# /var/cache/kfootprint/tailor: the first run builds each, minutes each; a rerun takes seconds): record a
# workload on this host, tailor it, and hold that the re-test equals the original within the rounds, that the
# report says so, and that the tailored kernel also boots a user's own gzip'd initramfs. Workloads: ls /; an
# AF_UNIX socketpair with UNIX left out by hand (the loop must find and put it back: round 1 differs, round 2
# equal); stress-ng --netdev; paxtest kiddie; busybox httpd and wget over loopback in the same guest; two of
# them as several footprints in one kernel; cat of a file relative to the directory it was run in.
. "$(dirname "$0")/../lib.sh"
cd "$KF_TOP" || exit 1
if [ "$(id -u)" -ne 0 ] || ! command -v qemu-system-x86_64 >/dev/null || [ ! -r /usr/src/linux-source-6.1.tar.xz ]; then
	skip tailor_long "root, qemu-system-x86 and linux-source-6.1 are needed (make deps)"
	exit 0
fi

# KF_TAILOR_CASES="ls unix netdev pax http both cwd" (the default: all) picks the cases to tailor; their
# footprints are recorded all the same (both takes ls's and unix's). Each case is a cold build on a fresh cache.
case_on() { case " ${KF_TAILOR_CASES:-ls unix netdev pax http both cwd} " in *" $1 "*) return 0 ;; esac; return 1; }
# Each tailor run, a build and its boots, takes KF_KBUILD_LOCK (tests/lib.sh) and runs at nice 10.
# tailored NAME TAILOR-ARGS...: tailor into $T/NAME; its stderr in $T/NAME.err, its wall seconds in $T/NAME.secs
# (its own variable names: again() calls it and goes on with its own n)
tailored() {
	tn=$1
	shift
	t0=$(date +%s)
	flock "$KF_KBUILD_LOCK" nice -n 10 "$KF" tailor -o "$T/$tn" "$@" >"$T/$tn.out" 2>"$T/$tn.err"
	echo $? >"$T/$tn.rc"
	echo $(($(date +%s) - t0)) >"$T/$tn.secs"
	echo "# $tn: tailor took $(cat "$T/$tn.secs") s"
	[ -z "${KF_TAILOR_KEEP:-}" ] || { mkdir -p "$KF_TAILOR_KEEP" && cp -r "$T/$tn" "$T/$tn.err" "$T/$tn.secs" "$KF_TAILOR_KEEP/"; }
}
# equal_in NAME ROUNDS: exit 0, the report says passed within ROUNDS rounds, every re-test of the last ended with
# the original's exit status
equal_in() {
	n=$1 want=$2
	eq "$n: tailor exit 0" 0 "$(cat "$T/$n.rc")" || tail -n 30 "$T/$n.err" | sed 's/^/#   /'
	[ -f "$T/$n/report.json" ] || { not_ok "$n: no report.json"; return; }
	eq "$n: the report: passed within $want round(s)" "True True" \
		"$(jget "$T/$n/report.json" "d['passed'], len(d['rounds']) <= $want")"
	eq "$n: standard output as the reference run's on Debian's kernel (where there is one)" "True" \
		"$(jget "$T/$n/report.json" "all(r['stdout_same'] is not False for r in d['rounds'][-1]['runs'])")"
	if grep -q 'booted beside round 1' "$T/$n.err"; then
		eq "$n: the reference run, booted beside round 1, ended and its standard output is the re-test's" "True" \
			"$(jget "$T/$n/report.json" "all(r['stdout_same'] is True for r in d['rounds'][-1]['runs'])")"
	fi
	echo "# $n: $(jget "$T/$n/report.json" "len(d['rounds'])") round(s)"
	eq "$n: the last round's re-tests ended with the original exit status" "True" \
		"$(jget "$T/$n/report.json" "all(r['ended'] and r['exit'] == r['original_exit'] for r in d['rounds'][-1]['runs'])")"
}

# again NAME ARGS...: the same tailor once more, from the caches (the build, the reference run, the figures'
# boots): it boots only the re-test, gives the same figures, and says how long it took
again() {
	n=$1
	shift
	tailored "$n-again" "$@"
	eq "$n again: tailor exit 0" 0 "$(cat "$T/$n-again.rc")"
	eq "$n again: the kernel from the cache, the reference run and the figures' boots kept" "True 1" \
		"$(jget "$T/$n-again/report.json" "all(r['cached'] for r in d['rounds'])") $(grep -c 'kept from an earlier boot' "$T/$n-again.err")"
	eq "$n again: the same figures" \
		"$(jget "$T/$n/report.json" "[(k.get('bzimage_bytes'), k.get('boot_to_init_icount_s'), k.get('sloc')) for k in d['kernels']]")" \
		"$(jget "$T/$n-again/report.json" "[(k.get('bzimage_bytes'), k.get('boot_to_init_icount_s'), k.get('sloc')) for k in d['kernels']]")"
	eq "$n again: each round's kernel step (conf's kept answer, the build from the cache) within 5 s" "True" \
		"$(jget "$T/$n-again/report.json" "all(r['kernel_s'] <= 5 for r in d['rounds'])")"
	echo "# $n again: $(cat "$T/$n-again.secs") s, the kernel step $(jget "$T/$n-again/report.json" "[r['kernel_s'] for r in d['rounds']]") s (the target: 5 s)"
}

# 1. ls /: the smallest, and the report's figures
"$KF" -q -o "$T/ls.json" --report /dev/null -- ls / >/dev/null
if case_on ls; then
	tailored ls "$T/ls.json"
	equal_in ls 1
	for f in .config fragment bzImage vmlinux retest.json report.text; do
		check "ls: -o holds $f" test -s "$T/ls/$f"
	done
	eq "ls: the report has the tailored kernel's sizes, boot, compiled files and SLOC" "True True True True True" \
		"$(jget "$T/ls/report.json" "d['kernels'][0]['bzimage_bytes'] > 0, d['kernels'][0]['vmlinux_text_bytes'] > 0, d['kernels'][0]['boot_to_init_icount_s'] > 0, d['kernels'][0]['compiled_files'] > 0, d['kernels'][0]['sloc'] > 0")"
	eq "ls: beside it Debian's and tinyconfig's, each with figures or why not" "3 True" \
		"$(jget "$T/ls/report.json" "len(d['kernels']), all('bzimage_bytes' in k or 'unavailable' in k for k in d['kernels'])")"
	sed 's/^/# /' "$T/ls/report.text"
	again ls "$T/ls.json"
fi

# 2. the user's own initramfs: a static /init, cpio | gzip, booted by the tailored kernel as the issue says
if [ -s "$T/ls/bzImage" ]; then
	mkdir -p "$T/uinit/dev" && gcc -static -O2 -o "$T/uinit/init" tests/long/user_init.c &&
		(cd "$T/uinit" && find . | cpio -o -H newc --quiet | gzip -9) >"$T/user.cpio.gz"
	timeout 120 qemu-system-x86_64 -kernel "$T/ls/bzImage" -initrd "$T/user.cpio.gz" -append console=ttyS0 \
		-nographic -no-reboot -accel tcg </dev/null >"$T/user.log" 2>&1
	check "the tailored kernel boots a user's own gzip'd initramfs (its /init's line on ttyS0)" \
		grep -q 'user-init: hello' "$T/user.log"
fi

# 3. a needed option removed by hand: the re-test catches it, the loop puts it back
"$KF" -q -b ptrace -o "$T/unix.json" --report /dev/null -- "$WL/wl_kpaths" unix 3
if case_on unix; then
	tailored unix --without UNIX "$T/unix.json"
	equal_in unix 2
	eq "unix: two rounds" 2 "$(jget "$T/unix/report.json" "len(d['rounds'])")"
	eq "unix: round 1 differed on socketpair and added UNIX" "False True" \
		"$(jget "$T/unix/report.json" "d['rounds'][0]['equal'], any(a.startswith('UNIX:') for a in d['rounds'][0]['added'])")"
fi

# 4. real programs: stress-ng's netdev stressor (ioctls on an AF_INET socket), paxtest kiddie
if ! case_on netdev; then
	:
elif command -v stress-ng >/dev/null; then
	"$KF" -q -o "$T/netdev.json" --report /dev/null -- stress-ng --netdev 1 -t 2 >/dev/null 2>&1
	tailored netdev "$T/netdev.json"
	equal_in netdev 1
else
	skip "tailor: stress-ng" "stress-ng is not installed (make deps)"
fi
if ! case_on pax; then
	:
elif command -v paxtest >/dev/null; then
	"$KF" -q -o "$T/pax.json" --report /dev/null -- paxtest kiddie /tmp/kf-tailor-pax.log >/dev/null 2>&1
	rm -f /tmp/kf-tailor-pax.log
	# under TCG its re-test under ptrace takes 43 to 51 minutes, the reference run beside it (docs/tailor.md)
	# paxtest guesses its randomization bits from samples: 28 on one run, 30 (or 29) on the next, on any kernel
	tailored pax --timeout 7200 --stdout-mask '[0-9]+ (quality )?bits' "$T/pax.json"
	equal_in pax 3
else
	skip "tailor: paxtest" "paxtest is not installed (make deps)"
fi

# 5. an HTTP server and its client over loopback in the same guest (busybox httpd and wget)
if ! case_on http; then
	:
elif [ -x /bin/busybox ]; then
	mkdir -p "$T/www" && echo "tailored page" >"$T/www/index.html"
	cat >"$T/http.sh" <<EOS
/bin/busybox httpd -f -p 127.0.0.1:18080 -h $T/www &
s=\$!
n=0
until /bin/busybox wget -q -O - http://127.0.0.1:18080/index.html || [ \$n -ge 50 ]; do /bin/busybox sleep 0.1; n=\$((n + 1)); done
kill \$s
EOS
	"$KF" -q -o "$T/http.json" --report /dev/null -- /bin/sh "$T/http.sh" >"$T/http.host" 2>&1
	check "http: the page came on the host" grep -q 'tailored page' "$T/http.host"
	tailored http "$T/http.json"
	equal_in http 3
	check "http: the page came in the guest" grep -q 'tailored page' "$T"/http/round*/retest.stdout
else
	skip "tailor: busybox httpd" "busybox is not installed (make deps: busybox-static)"
fi

# 6. several footprints, one kernel: ls and the unix workload together, one boot each
if case_on both; then
	tailored both "$T/ls.json" "$T/unix.json"
	equal_in both 1
	eq "both: two re-tests in the round" 2 "$(jget "$T/both/report.json" "len(d['rounds'][-1]['runs'])")"
fi

# 7. a command run in a directory of its own, opening a file relative to it: the initramfs carries the file
# under the cwd the ptrace recorder kept, and /init runs the command there
if case_on cwd; then
	mkdir -p "$T/proj/data" && echo "relative bytes" >"$T/proj/data/in.txt"
	(cd "$T/proj" && "$KF" -q -b ptrace -o "$T/cwd.json" --report /dev/null -- cat data/in.txt >/dev/null)
	tailored cwd "$T/cwd.json"
	equal_in cwd 1
	check "cwd: the relative file's bytes came in the guest" grep -q 'relative bytes' "$T"/cwd/round1/retest.stdout
fi
