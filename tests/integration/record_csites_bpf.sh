#!/bin/sh
# record -b bpf --call-sites: kfcsite.bpf.c sends each call's user registers and a copy of the top of its user
# stack, and libdw unwinds it with the modules' CFI (src/trace/bpf_csite.c). The workload of record_csites.sh
# (tests/workloads/csite/), built with -g, then without frame pointers (-O0: one call instruction per call site): both call sites of eventfd2 and the EINVAL
# one found with their functions and lines, the same stacks as ptrace's; the counts exact below the sampling
# threshold, sampled (and said so) above it; nothing loaded without --call-sites. The workload exits at once, and
# short-lived children of a shell are gone before their events are read: their maps come from perf's mmap records
# (bpf_cmaps.c), not from /proc/PID/maps, and their stacks are still ptrace's. What each call reached is in its key,
# as ptrace's: the backend's sys_exit leaves it for the sampler.
. "$(dirname "$0")/../lib.sh"

bpf_or_skip record_csites_bpf || exit 0
SRC="$KF_TOP/tests/workloads/csite"
if ! command -v gcc >/dev/null 2>&1; then
	skip csites_bpf "no gcc to build the workload"
	exit 0
fi
gcc -O0 -g -fPIC -shared -o "$T/libkfcsite.so" "$SRC/lib.c" &&
	gcc -O0 -g -o "$T/csite" "$SRC/main.c" -L"$T" -lkfcsite -Wl,-rpath,"$T" &&
	gcc -O0 -g -fomit-frame-pointer -o "$T/csite-nofp" "$SRC/main.c" -L"$T" -lkfcsite -Wl,-rpath,"$T" || {
	not_ok "csites_bpf: the workload builds"
	exit 0
}
line() { grep -n "$1" "$SRC/$2" | cut -d: -f1; }
L_MAIN=$(line KF-CSITE-MAIN main.c)
L_EINVAL=$(line KF-CSITE-EINVAL main.c)
L_LIB=$(line KF-CSITE-LIB lib.c)

stacks() { # FILE ERRNO (or ''): the stacks of eventfd2, frames 1 to 3, as "calls module:function@file:line ..."
	python3 - "$1" "$2" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
for k in d["call_sites"]["keys"]:
    if k["syscall"] != "eventfd2" or k.get("errno", "") != sys.argv[2]:
        continue
    for s in sorted(k["stacks"], key=lambda s: -s["calls"]):
        def name(x):
            r = "%s:%s" % (os.path.basename(x["module"]), x.get("function", "?"))
            return r + ("@%s:%d" % (os.path.basename(x["file"]), x["line"]) if "file" in x else "")
        print(s["calls"], " ".join(name(x) for x in s["frames"][:3]))
PY
}

for w in csite csite-nofp; do
	"$KF" record -b bpf -v --call-sites -o "$T/$w.json" --report "$T/$w.txt" -- "$T/$w" 2>"$T/$w.err"
	eq "$w: exit status" 0 "$?"
	stacks "$T/$w.json" "" >"$T/$w.ok"
	stacks "$T/$w.json" EINVAL >"$T/$w.einval"
	eq "$w: the library's call site, 3 calls, its function and line, from main" 1 \
		"$(grep -c "^3 libc.so.6:[a-z_]*eventfd[^ ]* libkfcsite.so:kf_csite_lib_eventfd@lib.c:$L_LIB $w:main@main.c:" "$T/$w.ok")"
	eq "$w: main's own, 2 calls, its line" 1 "$(grep -c "^2 libc.so.6:[a-z_]*eventfd[^ ]* $w:main@main.c:$L_MAIN\( \|\$\)" "$T/$w.ok")"
	eq "$w: the EINVAL key, 4 calls from its line" 1 \
		"$(grep -c "^4 libc.so.6:[a-z_]*eventfd[^ ]* $w:main@main.c:$L_EINVAL\( \|\$\)" "$T/$w.einval")"
	eq "$w: its images known from perf's records" 1 "$(grep -c 'call sites (bpf): [1-9][0-9]* events of images known from [1-9][0-9]* perf records$' "$T/$w.err")"
	eq "$w: unwound by CFI, none without a stack" "0" \
		"$(sed -n 's/.*call sites (bpf): .* \([0-9]*\) not (.*/\1/p' "$T/$w.err")"
	eq "$w: nothing sampled away (under 32 calls a key)" 0 \
		"$(jget "$T/$w.json" "sum(k.get('unsampled', 0) for k in d['call_sites']['keys'])")"
done

# The same stacks as ptrace's for eventfd2 (module, function, line of every frame kept).
"$KF" record -b ptrace --call-sites -o "$T/p.json" --report /dev/null -- "$T/csite"
full() { jget "$1" "'\n'.join(sorted('%d %s' % (s['calls'], ' '.join('%s+%d' % (f['module'], f['offset']) for f in s['frames'])) for k in d['call_sites']['keys'] if k['syscall'] == 'eventfd2' for s in k['stacks']))"; }
eq "the stacks of eventfd2, as ptrace unwinds them" "$(full "$T/p.json")" "$(full "$T/csite.json")"

# Five processes one after the other, each gone before the ring is read (/proc/PID/maps then empty: before perf's
# records, 443 of 551 events of ten such went without a stack): the same stacks and counts as ptrace's (under 32
# calls a key, nothing sampled away), none without a stack.
loop="for i in 1 2 3 4 5; do $T/csite; done"
"$KF" record -b bpf -v --call-sites -o "$T/loop.json" --report /dev/null -- sh -c "$loop" 2>"$T/loop.err"
"$KF" record -b ptrace --call-sites -o "$T/ploop.json" --report /dev/null -- sh -c "$loop"
eq "short-lived: the stacks of eventfd2 of the five, as ptrace's" "$(full "$T/ploop.json")" "$(full "$T/loop.json")"
eq "short-lived: 25 calls of eventfd2 found in the library's and main's stacks" "15 10" \
	"$(jget "$T/loop.json" "' '.join(str(sum(s['calls'] for s in k['stacks'] if any(f.get('function') == fn for f in s['frames'][1:2]))) for k in d['call_sites']['keys'] if k['syscall'] == 'eventfd2' and 'errno' not in k for fn in ('kf_csite_lib_eventfd', 'main'))")"
eq "short-lived: none without a stack" "0" "$(sed -n 's/.*call sites (bpf): .* \([0-9]*\) not (.*/\1/p' "$T/loop.err")"

# What each call reached is part of its key, as with ptrace: the backend's sys_exit leaves it in the task's storage
# for kfcsite.bpf.c (struct kf_reach_last). Every key of the five, with its calls, as ptrace's (but rt_sigreturn,
# whose orig_ax is -1 at its exit: the sampler leaves it out).
keys() { jget "$1" "'\n'.join(sorted('%s %s [%s] %d' % (k['syscall'], k.get('errno', '-'), k.get('reached', ''), k['calls']) for k in d['call_sites']['keys'] if k['syscall'] != 'rt_sigreturn'))"; }
eq "reached: every key of the five and its calls, as ptrace's" "$(keys "$T/ploop.json")" "$(keys "$T/loop.json")"
eq "reached: the execs' binary format and the libraries' mmaps among them" 2 \
	"$(keys "$T/loop.json" | grep -c '^execve - \[binfmt elf\] 6$\|^mmap - \[fd file:[a-z0-9]*\] [1-9]')"
sock='import socket; socket.socket(); socket.socketpair()'
"$KF" record -b bpf --call-sites -o "$T/sock.json" --report /dev/null -- "$PY" -c "$sock"
eq "reached: Python's sockets, by family, in the keys" "socket [socket AF_INET:SOCK_STREAM:IPPROTO_TCP] 1
socketpair [socket AF_UNIX:SOCK_STREAM:0] 1" \
	"$(jget "$T/sock.json" "'\n'.join(sorted('%s [%s] %d' % (k['syscall'], k.get('reached', ''), k['calls']) for k in d['call_sites']['keys'] if k['syscall'] in ('socket', 'socketpair')))")"
"$KF" record -b bpf --call-sites --no-reach -o "$T/noreach.json" --report /dev/null -- "$PY" -c "$sock"
eq "reached: none with --no-reach" 0 "$(jget "$T/noreach.json" "sum(1 for k in d['call_sites']['keys'] if k.get('reached'))")"

# An exec between calls, read once the process is gone: the old image's calls named by the old program (the failed
# execve from its main), the new image's by the new one, never the other way (perf's exec record splits them).
gcc -O0 -g -o "$T/execer" "$SRC/exec.c" || not_ok "exec: the workload builds"
"$KF" record -b bpf -v --call-sites -o "$T/exec.json" --report /dev/null -- "$T/execer" "$T/csite" 2>"$T/exec.err"
eq "exec: the failed execve from the old program's main" "execer:main" \
	"$(jget "$T/exec.json" "' '.join('%s:%s' % (f['module'].split('/')[-1], f.get('function')) for k in d['call_sites']['keys'] if k['syscall'] == 'execve' and k.get('errno') == 'ENOENT' for s in k['stacks'] for f in s['frames'][1:2])")"
eq "exec: the new program's eventfd2 stacks, as with no exec before" "$(full "$T/csite.json")" "$(full "$T/exec.json")"
eq "exec: no call of the new program named by the old" 0 \
	"$(jget "$T/exec.json" "sum(1 for k in d['call_sites']['keys'] if k['syscall'] not in ('execve',) for s in k['stacks'] for f in s['frames'] if 'execer' in f['module'] and k['syscall'] in ('eventfd2', 'close'))")"

# Past 32 calls of a key, one in 16 is unwound: the others counted as unsampled, the key's calls still exact.
"$KF" record -b bpf --call-sites -o "$T/many.json" --report "$T/many.txt" -- "$PY" -c '
import os
for i in range(1000): os.getppid()'
eq "sampled: getppid's 1000 calls, 32 + 61 unwound (32, 48 ... 992), 907 unsampled" "1000 907 93" \
	"$(jget "$T/many.json" "' '.join('%d %d %d' % (k['calls'], k.get('unsampled', 0), sum(s['calls'] for s in k['stacks']) + k.get('unwound_none', 0) + k.get('other', 0)) for k in d['call_sites']['keys'] if k['syscall'] == 'getppid')")"
eq "sampled: the text report says so" 1 "$(grep -c '^  getppid: 1000 calls.*sampled: 907 not looked at' "$T/many.txt")"
"$KF" report -F json "$T/many.json" >"$T/many2.json"
eq "sampled: unsampled read back" "$(jget "$T/many.json" "json.dumps(d['call_sites'], sort_keys=True)")" \
	"$(jget "$T/many2.json" "json.dumps(d['call_sites'], sort_keys=True)")"

# Its programs only with --call-sites; the verifier's walk of its sys_exit stays small.
"$KF" record -b bpf -vv --call-sites --report /dev/null -- true >/dev/null 2>"$T/vv"
most=$(sed -n "/prog 'kfc_sys_exit': -- BEGIN/,/END PROG LOAD LOG/s/^processed \([0-9]*\) insns.*/\1/p" "$T/vv")
if [ -n "$most" ] && [ "$most" -le 2000 ]; then ok "kfc_sys_exit: the verifier walks $most instructions"; else not_ok "kfc_sys_exit: the verifier walked '$most' instructions"; fi
"$KF" record -b bpf -vv --report /dev/null -- true >/dev/null 2>"$T/vv0"
eq "without --call-sites: none of them" 0 "$(grep -c "prog 'kfc_" "$T/vv0")"
