#!/bin/sh
# record --call-sites (ptrace): the user-space stacks of each (syscall, errno), unwound by libdw at the call's stop.
# A workload built here with -g (tests/workloads/csite/) calls eventfd from main and from a function of a shared
# library it links, and fails eventfd with EINVAL from main: each call site found, with its function and line
# (the lines marked KF-CSITE-* in the sources), and its counts; the same binary stripped still gets its module and
# offset; the saved member read back, rendered and merged; the refusals (NO_BPF, the depth); -b bpf is record_csites_bpf.sh's.
. "$(dirname "$0")/../lib.sh"

SRC="$KF_TOP/tests/workloads/csite"
if ! command -v gcc >/dev/null 2>&1; then
	skip csites "no gcc to build the workload"
	exit 0
fi
# -O0: one call instruction per call site (-O1 may peel a loop into two)
gcc -O0 -g -fPIC -shared -o "$T/libkfcsite.so" "$SRC/lib.c" &&
	gcc -O0 -g -o "$T/csite" "$SRC/main.c" -L"$T" -lkfcsite -Wl,-rpath,"$T" || {
	not_ok "csites: the workload builds"
	exit 0
}
line() { grep -n "$1" "$SRC/$2" | cut -d: -f1; }
L_MAIN=$(line KF-CSITE-MAIN main.c)
L_EINVAL=$(line KF-CSITE-EINVAL main.c)
L_LIB=$(line KF-CSITE-LIB lib.c)

"$KF" record -b ptrace --call-sites -o "$T/c.json" --report "$T/c.txt" -- "$T/csite"
eq "csites: exit status" 0 "$?"
# each stack of eventfd2 as "calls frame1 frame2" with a frame as function@file:line
stacks() { # FILE ERRNO (or ''): the stacks of eventfd2, frames 2 and 3 (frame 1 is libc's eventfd)
	python3 - "$1" "$2" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
for k in d["call_sites"]["keys"]:
    if k["syscall"] != "eventfd2" or k.get("errno", "") != sys.argv[2]:
        continue
    for s in sorted(k["stacks"], key=lambda s: -s["calls"]):
        f = s["frames"]
        def name(x):
            r = "%s+%d:%s" % (os.path.basename(x["module"]), x["offset"], x.get("function", "?"))
            return r + ("@%s:%d" % (os.path.basename(x["file"]), x["line"]) if "file" in x else "")
        print(s["calls"], " ".join(name(x) for x in f[:3]))
PY
}
stacks "$T/c.json" "" >"$T/ok"
stacks "$T/c.json" EINVAL >"$T/einval"
eq "csites: two stacks of eventfd2, as called" 2 "$(wc -l <"$T/ok")"
eq "csites: the library's, 3 calls, its function and line, from main" 1 \
	"$(grep -c "^3 libc.so.6+[0-9]*:[a-z_]*eventfd[^ ]* libkfcsite.so+[0-9]*:kf_csite_lib_eventfd@lib.c:$L_LIB csite+[0-9]*:main@main.c:" "$T/ok")"
eq "csites: main's own, 2 calls, its line" 1 \
	"$(grep -c "^2 libc.so.6+[0-9]*:[a-z_]*eventfd[^ ]* csite+[0-9]*:main@main.c:$L_MAIN " "$T/ok")"
eq "csites: the EINVAL key apart, 4 calls from its line" 1 \
	"$(grep -c "^4 libc.so.6+[0-9]*:[a-z_]*eventfd[^ ]* csite+[0-9]*:main@main.c:$L_EINVAL " "$T/einval")"
eq "csites: depth 8 by default" "8 8" "$(jget "$T/c.json" "'%d %d' % (d['call_sites']['depth'], max(len(s['frames']) for k in d['call_sites']['keys'] for s in k['stacks']))")"
# every call that returned has its key: all of a syscall's, less those that never return (exit_group)
eq "csites: each key's calls, the syscall's (errno's) calls" "" "$(jget "$T/c.json" "' '.join(s['name'] for s in d['syscalls'] for e in [None] + list(s.get('errnos', {})) if s['name'] != 'exit_group' and sum(k['calls'] for k in d['call_sites']['keys'] if k['syscall'] == s['name'] and k.get('errno') == e) != (s['errnos'][e] if e else s['calls'] - s.get('errors', 0)))")"
# what a call reached is part of its key: read's keys that say it are the calls its refinements count
eq "csites: read's keys by what it reached" "$(jget "$T/c.json" "sum(r['calls'] for s in d['syscalls'] if s['name'] == 'read' for r in s.get('reached', []))")" \
	"$(jget "$T/c.json" "sum(k['calls'] for k in d['call_sites']['keys'] if k['syscall'] == 'read' and k.get('reached', '').startswith('fd '))")"
eq "csites: exit_group never returns: no key" 0 "$(jget "$T/c.json" "sum(k['syscall'] == 'exit_group' for k in d['call_sites']['keys'])")"
eq "csites: the text report names both call sites" 2 \
	"$(grep -c "kf_csite_lib_eventfd (lib.c:$L_LIB)\|main (main.c:$L_MAIN)" "$T/c.txt")"
# The offset is what addr2line -e MODULE takes.
off=$(sed -n 's/^2 [^ ]* csite+\([0-9]*\):.*/\1/p' "$T/ok")
if command -v addr2line >/dev/null 2>&1; then
	eq "csites: the offset is addr2line's address" "main.c:$L_MAIN" \
		"$(addr2line -e "$T/csite" "$(printf '0x%x' "$off")" | sed 's/.*\///; s/ .*//')"
fi

# Stripped: no symbol of main, no line; its module and offset still there, the same offset.
cp "$T/csite" "$T/csite-stripped" && strip --strip-all "$T/csite-stripped"
"$KF" record -b ptrace --call-sites -o "$T/s.json" --report /dev/null -- "$T/csite-stripped"
stacks "$T/s.json" "" >"$T/s"
eq "csites: stripped, main's frame by module and offset only" 1 "$(grep -c "^2 [^ ]* csite-stripped+$off:? " "$T/s")"

# Read back, rendered the same, merged (counts doubled), depth honoured.
"$KF" report -F json "$T/c.json" >"$T/c2.json"
eq "csites: the member read back as written" \
	"$(jget "$T/c.json" "json.dumps(d['call_sites'], sort_keys=True)")" \
	"$(jget "$T/c2.json" "json.dumps(d['call_sites'], sort_keys=True)")"
"$KF" merge -o "$T/m.json" "$T/c.json" "$T/s.json" 2>"$T/err"
eq "csites: merge: 3 + 3 calls from the library" 6 \
	"$(jget "$T/m.json" "[k['calls'] - k.get('errno', 0) * 0 for k in d['call_sites']['keys'] if k['syscall'] == 'eventfd2' and 'errno' not in k][0] - 4")"
"$KF" record -b ptrace --call-sites --call-site-depth 2 -o "$T/d.json" --report /dev/null -- "$T/csite"
eq "csites: --call-site-depth 2" "2 2" "$(jget "$T/d.json" "'%d %d' % (d['call_sites']['depth'], max(len(s['frames']) for k in d['call_sites']['keys'] for s in k['stacks']))")"
"$KF" record -b ptrace -o "$T/n.json" --report /dev/null -- "$T/csite"
eq "csites: off by default, no member" False "$(jget "$T/n.json" "'call_sites' in d")"

# Refusals, one line each.
"$KF" record --call-sites -o "$T/a.json" --report /dev/null -- true 2>"$T/err"
eq "csites: auto records with ptrace" "ptrace" "$(jget "$T/a.json" "d['backend']")"
case $(cat "$T/err") in
'' | "kfootprint: backend auto: using ptrace, --call-sites needs each call's stop") ok "csites: auto says why, in one line" ;;
*) not_ok "csites: auto says why, in one line: got '$(cat "$T/err")'" ;;
esac
"$KF" record --call-site-depth 3 -- true 2>"$T/err"
eq "csites: a depth without --call-sites" "1 kfootprint: --call-site-depth is the depth of --call-sites: give --call-sites too" "$? $(cat "$T/err")"
"$KF" record --call-sites --call-site-depth 33 -- true 2>"$T/err"
eq "csites: a depth past 32" "1 1" "$? $(wc -l <"$T/err")"
NB="$KF_TOP/$KF_BUILD/nobpf/kfootprint"
if [ -x "$NB" ]; then
	"$NB" record --call-sites -- true 2>"$T/err"
	eq "csites: NO_BPF refuses" "1 kfootprint: --call-sites: a NO_BPF=1 build has no libdw to unwind user stacks: build without NO_BPF" "$? $(cat "$T/err")"
else
	skip "csites: NO_BPF refuses" "$NB is not built"
fi

# Code no file maps (a JIT's): its frame is "[anon]" at its address, the stack kept as far as libdw gets.
if [ "$(uname -m)" = x86_64 ] && gcc -O0 -g -o "$T/jit" "$SRC/jit.c"; then
	"$KF" record -b ptrace --call-sites -o "$T/j.json" --report /dev/null -- "$T/jit"
	eq "csites: jit: exit status" 0 "$?"
	eq "csites: jit: getpid's 3 calls from one [anon] frame" "3 1 [anon]" \
		"$(jget "$T/j.json" "' '.join('%d %d %s' % (k['calls'], len(k['stacks']), k['stacks'][0]['frames'][0]['module']) for k in d['call_sites']['keys'] if k['syscall'] == 'getpid')")"
else
	skip "csites: jit" "not x86_64, or no gcc"
fi

# A real interpreter: Python's socket.socket() made by libc's __socket, called from python3's own frames (named
# by its exported symbols where Debian's binary has no debug information).
"$KF" record -b ptrace --call-sites -o "$T/py.json" --report /dev/null -- "$PY" -c 'import socket; socket.socket()'
eq "csites: python: socket from libc's __socket, from the interpreter's evaluation loop" "__socket True" \
	"$(jget "$T/py.json" "' '.join('%s %s' % (s['frames'][0].get('function'), any(f.get('function', '').startswith('_PyEval_EvalFrame') or f.get('function', '').startswith('PyEval') for f in s['frames'])) for k in d['call_sites']['keys'] if k['syscall'] == 'socket' for s in k['stacks'])")"

# -e chooses what the report shows, the call sites too; the saved footprint keeps them all.
"$KF" record -b ptrace -q --call-sites -e status=failed -o "$T/e.json" --report "$T/e.txt" -- "$T/csite"
eq "csites: -e status=failed: only the failed calls' keys in the report" "eventfd2 EINVAL" \
	"$(sed -n '/^call sites/,$p' "$T/e.txt" | grep '^  eventfd2' | sed 's/^  \([a-z0-9]*\) \([A-Z]*\):.*/\1 \2/')"
eq "csites: -e: the footprint keeps every key" 1 \
	"$(jget "$T/e.json" "sum(k['syscall'] == 'eventfd2' and 'errno' not in k for k in d['call_sites']['keys'])")"
