#!/bin/sh
# 32-bit calls where the kernel runs them: the host's refuses them (IA-32 emulation off), so the i386 checks of
# tests/integration/record_workloads.sh, bpf_compare.sh and map_builtin.sh skip there and run here, on Debian's
# 6.1 kernel (CONFIG_IA32_EMULATION=y): int 0x80 from a 64-bit process and a 32-bit static binary, named from
# the i386 table by both backends, and the map's running status of i386 entries read from kallsyms.
. "$(dirname "$0")/../../lib.sh"

if [ ! -x "$WL/wl_abi_mix" ] || [ ! -x "$WL/wl_i386_m32" ]; then
	skip "i386" "workloads not built (make workloads; wl_i386_m32 needs gcc-multilib)"
	exit 0
fi
calls() { # calls FILE NAME [ABI]: "calls errors" of NAME in ABI (default x86_64)
	jget "$1" "' '.join(str(sum(s[k] for s in d['syscalls'] if s['name'] == '$2' and s['abi'] == '${3:-x86_64}')) for k in ('calls', 'errors'))"
}
check "int 0x80 runs untraced here" "$WL/wl_abi_mix"
"$WL/wl_i386_m32" >/dev/null 2>&1
eq "the 32-bit binary runs untraced here (exit 5)" 5 $?

for b in ptrace bpf; do
	if [ "$b" = bpf ] && ! bpf_or_skip "i386 with bpf"; then continue; fi
	"$KF" record -b $b -F json --report /dev/null -o "$T/m.json" -- "$WL/wl_abi_mix" >/dev/null 2>&1
	eq "$b abi-mix: getppid x86_64 3" "3 0" "$(calls "$T/m.json" getppid)"
	eq "$b abi-mix: getpid from the i386 table 2" "2 0" "$(calls "$T/m.json" getpid i386)"
	"$KF" record -b $b -F json --report /dev/null -o "$T/i.json" -- "$WL/wl_i386_m32" >/dev/null 2>&1
	eq "$b i386: exit code 5" 5 $?
	eq "$b i386: getppid 5 from the i386 table" "5 0" "$(calls "$T/i.json" getppid i386)"
	eq "$b i386: open ENOENT x2 from the i386 table" "2 2" "$(calls "$T/i.json" open i386)"
	eq "$b i386: exit_group from the i386 table" "1 0" "$(calls "$T/i.json" exit_group i386)"
	cp "$T/i.json" "$T/i.$b.json"
done
if [ -s "$T/i.bpf.json" ]; then
	diff=$(python3 "$KF_TOP/tests/fp_compare.py" "$T/i.ptrace.json" "$T/i.bpf.json" --ignore futex)
	if [ -z "$diff" ]; then ok "i386 binary: bpf's footprint equals ptrace's"; else not_ok "i386 binary: bpf differs from ptrace"; printf '%s\n' "$diff" | head -n 10 | sed 's/^/#   /'; fi
fi

# The map's running status of i386 entries: a 64-bit kernel runs syscall_32.tbl's compat entry point.
"$KF" map -F json --all-syscalls --abi i386 >"$T/i386.json" 2>"$T/i386.err"
eq "map --abi i386: exit 0" 0 $?
if grep -q ' __ia32_sys_' /proc/kallsyms; then
	for pair in stat64:ia32_stat64 mmap:ia32_mmap fcntl:fcntl64 read:; do
		name=${pair%%:*} compat=${pair#*:}
		if [ -n "$compat" ]; then sym="__ia32_compat_sys_$compat"; else sym="__ia32_sys_$name"; fi
		want=$(awk -v s="$sym" '$3 == s { print ($2 == "T" || $2 == "t") ? "built-in" : ($2 == "W" ? "stub" : "absent"); f = 1 } END { if (!f) print "absent" }' /proc/kallsyms)
		eq "map i386 $name: running status of $sym ($want)" "$want" "$(jget "$T/i386.json" "[r['running'] for r in d['syscalls'] if r['name'] == '$name'][0]")"
	done
	eq "map i386 read: built-in here" built-in "$(jget "$T/i386.json" "[r['running'] for r in d['syscalls'] if r['name'] == 'read'][0]")"
	eq "map i386 vm86: sys_ni_syscall on a 64-bit kernel, absent" absent "$(jget "$T/i386.json" "[r['running'] for r in d['syscalls'] if r['name'] == 'vm86'][0]")"
else
	not_ok "no __ia32_sys_ symbols in kallsyms on $(uname -r), which has IA-32 emulation"
fi
