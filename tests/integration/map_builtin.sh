#!/bin/sh
# kfootprint map with the built-in database (Linux 6.1 from Debian's linux-source-6.1): the known chains of the
# issue, the whole tables against data/syscalls/, and the running kernel's values against /proc read by other
# tools (python's gzip, a grep of kallsyms).
# Its speed is bench/map_builtin.sh's (make bench), not a timed check here.
. "$(dirname "$0")/../lib.sh"

"$KF" map -F json --syscalls eventfd2,futex,socket,membarrier,mmap,stat >"$T/m.json" 2>"$T/m.err"
eq "named: exit 0" 0 $?
eq "named: nothing on stderr" "" "$(cat "$T/m.err")"
# row NAME EXPR: a python expression over r (the syscall's row) and k (its kernel part)
row() { jget "$T/m.json" "[(lambda r, k: $2)(r, r['kernel']) for r in d['syscalls'] if r['name'] == '$1'][0]"; }
eq "eventfd2 -> fs/eventfd.c" "fs/eventfd.c" "$(row eventfd2 "k['file']")"
eq "eventfd2 -> EVENTFD" "['EVENTFD']" "$(row eventfd2 "k['configs']")"
eq "eventfd2 built by fs/Makefile" "fs/Makefile" "$(row eventfd2 "k['makefile'].split(':')[0]")"
eq "futex -> kernel/futex/syscalls.c" "kernel/futex/syscalls.c" "$(row futex "k['file']")"
eq "futex -> FUTEX (by directory)" "True" "$(row futex "'FUTEX' in k['configs'] and any(c['kind'] == 'makefile-dir' and c['option'] == 'FUTEX' for c in k['conditions'])")"
eq "futex -> FUTEX SUBSYSTEM first" "FUTEX SUBSYSTEM" "$(row futex "k['maintainers'][0]")"
eq "socket -> NET (by directory)" "True" "$(row socket "'NET' in k['configs'] and any(c['kind'] == 'makefile-dir' and c['option'] == 'NET' for c in k['conditions'])")"
eq "membarrier -> MEMBARRIER through the include" "kernel/sched/build_utility.c MEMBARRIER" "$(row membarrier "k['included_by'] + ' ' + ' '.join(k['configs'])")"
eq "mmap -> ksys_mmap_pgoff in mm/mmap.c" "ksys_mmap_pgoff mm/mmap.c" "$(row mmap "k['implementation'] + ' ' + k['implementation_at'].split(':')[0]")"
eq "stat -> newstat" "newstat" "$(row stat "k['definition']")"
eq "THE REST is last" "THE REST" "$(row futex "k['maintainers'][-1]")"
eq "options rolled up" "EVENTFD FUTEX MEMBARRIER MMU NET X86_64" "$(jget "$T/m.json" "' '.join(c['name'] for c in d['configs'])")"
eq "EVENTFD defined in init/Kconfig" "init/Kconfig" "$(jget "$T/m.json" "[c['defined_at'].split(':')[0] for c in d['configs'] if c['name'] == 'EVENTFD'][0]")"

# --- the running kernel, read by other means ---
if [ -r /proc/config.gz ]; then
	bad=$(python3 - "$T/m.json" <<'PY'
import gzip, json, sys
cfg = {}
for l in gzip.open("/proc/config.gz", "rt"):
    if l.startswith("CONFIG_"):
        k, v = l.rstrip("\n").split("=", 1)
        cfg[k[7:]] = v
d = json.load(open(sys.argv[1]))
print(" ".join(c["name"] for c in d["configs"] if c["running"] != cfg.get(c["name"], "n")))
PY
)
	eq "running option values = /proc/config.gz" "" "$bad"
else
	skip "running option values = /proc/config.gz" "no /proc/config.gz (CONFIG_IKCONFIG_PROC off)"
fi

"$KF" map -F json --all-syscalls >"$T/all.json" 2>"$T/all.err"
eq "all x86_64: exit 0" 0 $?
eq "all x86_64: one row per table row of the tree" \
	"$(grep -vc '^#' "$KF_TOP/data/syscalls/x86_64.tsv")" "$(jget "$T/all.json" "len(d['syscalls'])")"
n=$(jget "$T/all.json" "sum(1 for r in d['syscalls'] if r['kernel']['complete'])")
if [ "$n" -ge 340 ]; then ok "all x86_64: $n rows with a full chain (>= 340)"; else not_ok "all x86_64: only $n rows with a full chain"; fi
if grep -q ' __x64_sys_' /proc/kallsyms 2>/dev/null; then
	# every row's running status, against a plain reading of kallsyms
	bad=$(python3 - "$T/all.json" <<'PY'
import json, sys
t = {}
for l in open("/proc/kallsyms"):
    f = l.split()
    if len(f) >= 3 and f[2].startswith("__x64_sys_"):
        t[f[2][len("__x64_"):]] = f[1]
d = json.load(open(sys.argv[1]))
out = []
for r in d["syscalls"]:
    e = r["entry"]
    want = "absent" if not e else {"T": "built-in", "t": "built-in", "W": "stub"}.get(t.get(e), "absent")
    if r["running"] != want:
        out.append("%s:%s!=%s" % (r["name"], r["running"], want))
print(" ".join(out))
PY
)
	eq "all x86_64: running status = /proc/kallsyms" "" "$bad"
	eq "eventfd2 built-in here" "built-in" "$(jget "$T/all.json" "[r['running'] for r in d['syscalls'] if r['name'] == 'eventfd2'][0]")"
else
	skip "all x86_64: running status = /proc/kallsyms" "kallsyms lists no __x64_sys_ symbols here"
fi

"$KF" map -F json --all-syscalls --abi i386 >"$T/i386.json" 2>"$T/i386.err"
eq "all i386: exit 0" 0 $?
eq "all i386: one row per table row of the tree" \
	"$(grep -vc '^#' "$KF_TOP/data/syscalls/i386.tsv")" "$(jget "$T/i386.json" "len(d['syscalls'])")"
if grep -q ' __ia32_sys_' /proc/kallsyms 2>/dev/null; then
	# a 64-bit kernel runs the compat entry of syscall_32.tbl's last column: checked by a grep of kallsyms
	for pair in stat64:ia32_stat64 mmap:ia32_mmap fcntl:fcntl64 read:; do
		name=${pair%%:*} compat=${pair#*:}
		if [ -n "$compat" ]; then sym="__ia32_compat_sys_$compat"; else sym="__ia32_sys_$name"; fi
		want=$(awk -v s="$sym" '$3 == s { print ($2 == "T" || $2 == "t") ? "built-in" : ($2 == "W" ? "stub" : "absent"); f = 1 } END { if (!f) print "absent" }' /proc/kallsyms)
		eq "i386 $name: running status of $sym" "$want" "$(jget "$T/i386.json" "[r['running'] for r in d['syscalls'] if r['name'] == '$name'][0]")"
	done
	eq "i386 vm86: sys_ni_syscall on a 64-bit kernel, absent" "absent" "$(jget "$T/i386.json" "[r['running'] for r in d['syscalls'] if r['name'] == 'vm86'][0]")"
else
	skip "i386 running status" "no IA32 emulation symbols in kallsyms"
fi
eq "i386 stat -> newstat in fs/stat.c" "fs/stat.c" "$(jget "$T/i386.json" "[r['kernel']['file'] for r in d['syscalls'] if r['name'] == 'stat'][0]")"

# --- the header: the tree's version, and a mismatch with the running kernel said once ---
"$KF" map --syscalls eventfd2 >"$T/h.txt" 2>&1
running=$(uname -r | cut -d. -f1,2)
if [ "$running" = 6.1 ]; then
	eq "no mismatch with a 6.1 kernel" 0 "$(grep -c 'mismatch' "$T/h.txt")"
else
	eq "mismatch 6.1 vs $running said once" 1 "$(grep -c 'mismatch' "$T/h.txt")"
	eq "mismatch names both" 1 "$(grep 'mismatch' "$T/h.txt" | grep -c "6.1.*$(uname -r)")"
fi
eq "header names the tree" 1 "$(grep -c '^source tree: *Linux 6\.1\.[0-9]* (built-in database' "$T/h.txt")"

# --- a footprint with i386 rows (int 0x80 from a 64-bit process): --abi i386 maps them, the default says so ---
"$KF" record -b ptrace -F json --report /dev/null -o "$T/base.json" -- true >/dev/null 2>&1
jedit "$T/base.json" "$T/mix.json" '
d["syscalls"] += [
    {"name": "stat", "abi": "i386", "nr": 106, "calls": 2, "errors": 0, "errnos": {}, "time_s": 0.0},
    {"name": "socketcall", "abi": "i386", "nr": 102, "calls": 1, "errors": 0, "errnos": {}, "time_s": 0.0},
]
'
"$KF" map -F json "$T/mix.json" >"$T/mix64.json" 2>"$T/mix.err"
eq "mixed ABIs: x86_64 by default" "x86_64" "$(jget "$T/mix64.json" "d['abi']")"
eq "mixed ABIs: the other rows are named in a warning" "kfootprint: warning: '$T/mix.json': 2 syscalls of other ABIs are not mapped (see --abi)" "$(cat "$T/mix.err")"
"$KF" map -F json --abi i386 "$T/mix.json" >"$T/mix32.json" 2>/dev/null
eq "--abi i386: the two i386 rows" "socketcall stat" "$(jget "$T/mix32.json" "' '.join(sorted(r['name'] for r in d['syscalls']))")"
# a 64-bit kernel runs i386 socketcall as compat_sys_socketcall: net/compat.c, under COMPAT and NET
eq "--abi i386: socketcall in net/compat.c under COMPAT and NET" "net/compat.c COMPAT_SYSCALL_DEFINE2 True" \
	"$(jget "$T/mix32.json" "[(r['kernel']['file'] + ' ' + r['kernel']['macro'] + ' ' + str({'COMPAT', 'NET'} <= set(r['kernel']['configs']))) for r in d['syscalls'] if r['name'] == 'socketcall'][0]")"

# --- --no-running: nothing read from /proc, so no running values, no status and no mismatch ---
"$KF" map -F json --no-running --syscalls eventfd2,socket >"$T/nr.json"
eq "--no-running: status unknown, values null, no mismatch" "['unknown', 'unknown'] [None, None] None" \
	"$(jget "$T/nr.json" "'%s %s %s' % ([r['running'] for r in d['syscalls']], [c['running'] for c in d['configs']], d['running']['mismatch'])")"

# --- a footprint of i386 calls only (a 32-bit program): mapped as i386 without --abi ---
jedit "$T/mix.json" "$T/only32.json" '
d["syscalls"] = [s for s in d["syscalls"] if s["abi"] == "i386"]
'
"$KF" map -F json "$T/only32.json" >"$T/only32.map" 2>"$T/only32.err"
eq "i386-only footprint: mapped as i386, silently" "i386 2" "$(jget "$T/only32.map" "'%s %d' % (d['abi'], len(d['syscalls']))")$(cat "$T/only32.err")"
