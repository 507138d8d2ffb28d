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
check "int 0x80 runs untraced here" "$WL/wl_abi_mix"
"$WL/wl_i386_m32" >/dev/null 2>&1
eq "the 32-bit binary runs untraced here (exit 5)" 5 $?

for b in ptrace bpf; do
	if [ "$b" = bpf ] && ! bpf_or_skip "i386 with bpf"; then continue; fi
	"$KF" record -b $b -F json --report /dev/null -o "$T/m.$b.json" -- "$WL/wl_abi_mix" >/dev/null 2>&1
	"$KF" record -b $b -F json --report /dev/null -o "$T/i.$b.json" -- "$WL/wl_i386_m32" >/dev/null 2>&1
	echo "$b $?" >>"$T/status"
done
"$KF" map -F json --all-syscalls --abi i386 >"$T/i386.json" 2>"$T/i386.err"
eq "map --abi i386: exit 0" 0 $?

# Every figure from one python3 (each start costs seconds under TCG), as lines "KEY VALUE", then checked here.
python3 - "$T" "$KF_TOP/tests" >"$T/v" 2>&1 <<'PY'
import contextlib, io, json, os, sys
sys.path.insert(0, sys.argv[2])
import fp_compare
T = sys.argv[1]
def load(f):
    try:
        return json.load(open(os.path.join(T, f)))
    except (OSError, ValueError):
        return {"syscalls": []}
for b in ("ptrace", "bpf"):
    for w in ("m", "i"):
        d = load("%s.%s.json" % (w, b))
        for name in ("getppid", "getpid", "open", "exit_group"):
            for abi in ("x86_64", "i386"):
                rows = [s for s in d["syscalls"] if s["name"] == name and s["abi"] == abi]
                print("%s.%s.%s.%s %d %d" % (w, b, name, abi, sum(s["calls"] for s in rows), sum(s["errors"] for s in rows)))
if os.path.exists(os.path.join(T, "i.bpf.json")):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fp_compare.main(["fp_compare", os.path.join(T, "i.ptrace.json"), os.path.join(T, "i.bpf.json"), "--ignore", "futex"])
    print("i.diff " + " | ".join(out.getvalue().splitlines()))
m = load("i386.json")
for r in m["syscalls"]:
    if r["name"] in ("stat64", "mmap", "fcntl", "read", "vm86"):
        print("map.%s %s" % (r["name"], r.get("running")))
PY
v() { sed -n "s/^$1 //p" "$T/v"; }
for b in $(cut -d' ' -f1 "$T/status"); do
	eq "$b abi-mix: getppid x86_64 3" "3 0" "$(v m.$b.getppid.x86_64)"
	eq "$b abi-mix: getpid from the i386 table 2" "2 0" "$(v m.$b.getpid.i386)"
	eq "$b i386: exit code 5" 5 "$(sed -n "s/^$b //p" "$T/status")"
	eq "$b i386: getppid 5 from the i386 table" "5 0" "$(v i.$b.getppid.i386)"
	eq "$b i386: open ENOENT x2 from the i386 table" "2 2" "$(v i.$b.open.i386)"
	eq "$b i386: exit_group from the i386 table" "1 0" "$(v i.$b.exit_group.i386)"
done
if grep -q '^bpf ' "$T/status"; then
	eq "i386 binary: bpf's footprint equals ptrace's" "" "$(v i.diff)"
fi

# The map's running status of i386 entries: a 64-bit kernel runs syscall_32.tbl's compat entry point.
if grep -q ' __ia32_sys_' /proc/kallsyms; then
	for pair in stat64:ia32_stat64 mmap:ia32_mmap fcntl:fcntl64 read:; do
		name=${pair%%:*} compat=${pair#*:}
		if [ -n "$compat" ]; then sym="__ia32_compat_sys_$compat"; else sym="__ia32_sys_$name"; fi
		want=$(awk -v s="$sym" '$3 == s { print ($2 == "T" || $2 == "t") ? "built-in" : ($2 == "W" ? "stub" : "absent"); f = 1 } END { if (!f) print "absent" }' /proc/kallsyms)
		eq "map i386 $name: running status of $sym ($want)" "$want" "$(v map.$name)"
	done
	eq "map i386 read: built-in here" built-in "$(v map.read)"
	eq "map i386 vm86: sys_ni_syscall on a 64-bit kernel, absent" absent "$(v map.vm86)"
else
	not_ok "no __ia32_sys_ symbols in kallsyms on $(uname -r), which has IA-32 emulation"
fi
