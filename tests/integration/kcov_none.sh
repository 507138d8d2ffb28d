#!/bin/sh
# record --kernel-lines where the kernel has no kcov (this host's: CONFIG_KCOV off; debugfs mounted or not): one
# line `kfootprint: kernel lines: ...`, and the rest of the recording as without it; what is asked of it wrongly
# (the bpf backend, its sub-options alone or with gcov) refused in one line before anything runs; nothing left mounted.
. "$(dirname "$0")/../lib.sh"
if [ -e /sys/kernel/debug/kcov ]; then
	skip kcov_none "this kernel has kcov: tests/long/kcov_guest.sh records with it"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || { skip kcov_none "debugfs is root's: run as root"; exit 0; }
mounts_before=$(grep -c . /proc/self/mounts)
"$KF" -q -b ptrace --kernel-lines --kernel-lines-pcs "$T/p.txt" -o "$T/k.json" --report /dev/null -- "$WL/wl_kpaths" eventfd 3 \
	>/dev/null 2>"$T/k.err"
eq "no kcov: exit 0" 0 $?
eq "no kcov: one line on stderr" 1 "$(grep -c . "$T/k.err")"
check "no kcov: it says kernel lines and why" grep -q '^kfootprint: kernel lines: .*kcov.*recording the rest$' "$T/k.err"
"$KF" -q -b ptrace -o "$T/plain.json" --report /dev/null -- "$WL/wl_kpaths" eventfd 3 >/dev/null 2>&1
eq "no kcov: the syscalls as without --kernel-lines" \
	"$(jget "$T/plain.json" "sorted((s['name'], s['calls']) for s in d['syscalls'])")" \
	"$(jget "$T/k.json" "sorted((s['name'], s['calls']) for s in d['syscalls'])")"
check "no kcov: --kernel-lines-pcs says why not, no tasks" sh -c "grep -q '^# .*why not: ' '$T/p.txt' && ! grep -q '^task ' '$T/p.txt'"
eq "no kcov: no mount left behind (debugfs mounted privately, if at all)" "$mounts_before" "$(grep -c . /proc/self/mounts)"
check "no kcov: no temporary directory left" sh -c '! ls -d /tmp/kfootprint-debugfs.* 2>/dev/null'
# gcov: this kernel has none either (no CONFIG_GCOV_KERNEL): one line, the rest recorded, the footprint says why
if [ ! -e /sys/kernel/debug/gcov ]; then
	"$KF" -q -b ptrace --kernel-lines=gcov -o "$T/g.json" --report /dev/null -- "$WL/wl_kpaths" eventfd 3 \
		>/dev/null 2>"$T/g.err"
	eq "no gcov: exit 0" 0 $?
	eq "no gcov: one line on stderr" 1 "$(grep -c . "$T/g.err")"
	check "no gcov: it says kernel lines and why" grep -q '^kfootprint: kernel lines: .*gcov.*recording the rest$' "$T/g.err"
	eq "no gcov: the syscalls as without --kernel-lines" \
		"$(jget "$T/plain.json" "sorted((s['name'], s['calls']) for s in d['syscalls'])")" \
		"$(jget "$T/g.json" "sorted((s['name'], s['calls']) for s in d['syscalls'])")"
	eq "no gcov: the footprint's kernel lines are gcov's, whole guest, with why not" "gcov True True" \
		"$(jget "$T/g.json" "' '.join(str(x) for x in (d['kernel_lines']['method'], d['kernel_lines']['whole_guest'], bool(d['kernel_lines'].get('why_not'))))")"
	eq "no gcov: no mount left behind" "$mounts_before" "$(grep -c . /proc/self/mounts)"
	check "no gcov: no temporary directory left" sh -c '! ls -d /tmp/kfootprint-debugfs.* /tmp/kfootprint-gcov.* 2>/dev/null'
fi
"$KF" -q --kernel-lines=gcov --kernel-lines-area 512 -- true >/dev/null 2>"$T/ga.err"
eq "--kernel-lines=gcov --kernel-lines-area: refused (exit 1, one line)" "1 1" "$? $(grep -c . "$T/ga.err")"
"$KF" -q --kernel-lines=gcovv -- true >/dev/null 2>"$T/gv.err"
eq "--kernel-lines=gcovv: refused (exit 1, one line)" "1 1" "$? $(grep -c . "$T/gv.err")"
"$KF" -q -b bpf --kernel-lines -- true >/dev/null 2>"$T/b.err"
eq "-b bpf --kernel-lines: refused, naming ptrace" "1 1" "$? $(grep -c 'use -b ptrace' "$T/b.err")"
"$KF" -q --kernel-lines-area 64 -- true >/dev/null 2>"$T/a.err"
eq "--kernel-lines-area alone: refused" "1 1" "$? $(grep -c 'give --kernel-lines' "$T/a.err")"
"$KF" -q --kernel-lines --kernel-lines-area 0 -- true >/dev/null 2>"$T/s.err"
eq "--kernel-lines-area 0: out of range" 1 $?
