#!/bin/sh
# record --call-sites on the inputs that break unwinders: a binary built without frame pointers and stripped (its
# frames by module and offset, found by CFI), a process that execs between its calls (the exec's exit stop is in
# the new image: no stack for it, and the new program's calls named by its own modules, not the old ones), debug
# information found by build-id in /usr/lib/debug/.build-id (Debian's -dbgsym files) and in debuginfod's cache,
# and Python's socket.socket() down through its interpreter into libc.
. "$(dirname "$0")/../lib.sh"

SRC="$KF_TOP/tests/workloads/csite"
if ! command -v gcc >/dev/null 2>&1; then
	skip "csite inputs" "no gcc to build the workloads"
	exit 0
fi
gcc -O0 -g -fPIC -shared -o "$T/libkfcsite.so" "$SRC/lib.c" &&
	gcc -O0 -g -o "$T/csite" "$SRC/main.c" -L"$T" -lkfcsite -Wl,-rpath,"$T" || {
	not_ok "csite inputs: the workload builds"
	exit 0
}
line() { grep -n "$1" "$SRC/$2" | cut -d: -f1; }
# frames FILE SYSCALL [ERRNO]: each stack of the key, its frames as module-basename:function@file:line
frames() {
	python3 - "$@" <<'PY'
import json, os, sys
d = json.load(open(sys.argv[1]))
for k in d["call_sites"]["keys"]:
    if k["syscall"] != sys.argv[2] or k.get("errno", "") != (sys.argv[3] if len(sys.argv) > 3 else ""):
        continue
    for s in sorted(k["stacks"], key=lambda s: -s["calls"]):
        print(s["calls"], " ".join("%s+%d:%s@%s:%s" % (os.path.basename(f["module"]), f["offset"], f.get("function", "?"),
              os.path.basename(f.get("file", "?")), f.get("line", "?")) for f in s["frames"]))
PY
}

# No frame pointers, no symbols: libdw unwinds by .eh_frame, each of main's frames is the binary and an offset,
# the offset where addr2line of the unstripped binary finds main.
gcc -O2 -g -fomit-frame-pointer -o "$T/nofp" "$SRC/main.c" -L"$T" -lkfcsite -Wl,-rpath,"$T" &&
	cp "$T/nofp" "$T/nofp-stripped" && strip --strip-all "$T/nofp-stripped"
"$KF" record -q -b ptrace --call-sites -o "$T/nofp.json" --report /dev/null -- "$T/nofp-stripped"
eq "csite inputs: no frame pointers, stripped: exit status" 0 "$?"
frames "$T/nofp.json" eventfd2 >"$T/nofp.f"
# -O2 unrolls main's loop of 2: its calls come from 2 places; each stack reaches the binary, unnamed
eq "csite inputs: stripped: all 5 calls of eventfd2 reach the binary, unnamed" 5 \
	"$(awk '/ nofp-stripped\+[0-9]*:\?@\?:\?/ { n += $1 } END { print n }' "$T/nofp.f")"
eq "csite inputs: stripped: the library's frame still named (its own symbols)" 1 \
	"$(grep -c ' libkfcsite.so+[0-9]*:kf_csite_lib_eventfd@lib.c:' "$T/nofp.f")"
if command -v addr2line >/dev/null 2>&1; then
	# the first frame of the binary in each stack: main, where addr2line of the unstripped binary looks
	offs=$(sed 's/ nofp-stripped+\([0-9]*\):.*/ @\1/; s/.* @//' "$T/nofp.f")
	eq "csite inputs: stripped: each stack's offset in the binary is main's" "3 main" \
		"$(for o in $offs; do addr2line -f -e "$T/nofp" "$(printf '0x%x' "$o")" | head -1; done | sort | uniq -c |
			awk '{ print $1, $2 }' | paste -sd' ')"
fi

# Exec between calls: the failed execve's stack is the old program's main, at its line; the successful one has
# none (its exit stop is in the new image); the new program's eventfd2 calls are named by the new binary.
gcc -O0 -g -o "$T/execer" "$SRC/exec.c"
"$KF" record -q -b ptrace --call-sites -o "$T/exec.json" --report /dev/null -- "$T/execer" "$T/csite"
eq "csite inputs: exec: exit status" 0 "$?"
eq "csite inputs: exec: the failed execve from the old program's main, its line" 1 \
	"$(frames "$T/exec.json" execve ENOENT | grep -c "^1 [^ ]* execer+[0-9]*:main@exec.c:$(line KF-CSITE-EXEC-FAIL exec.c) ")"
# two: the exec of execer itself (its first call, made by kfootprint's child) and the exec into csite
eq "csite inputs: exec: the successful execves: 2 calls, no stack" "2 2 0" \
	"$(jget "$T/exec.json" "' '.join('%d %d %d' % (k['calls'], k.get('unwound_none', 0), len(k['stacks'])) for k in d['call_sites']['keys'] if k['syscall'] == 'execve' and 'errno' not in k)")"
frames "$T/exec.json" eventfd2 >"$T/exec.f"
eq "csite inputs: exec: the new program's calls named by its own binary and library" 2 \
	"$(grep -c " csite+[0-9]*:main@main.c:" "$T/exec.f")"
eq "csite inputs: exec: no stack names the old program after the exec" 0 "$(grep -c "execer" "$T/exec.f")"

# Debug information by build-id. The library built with -g, its DWARF split off (objcopy --only-keep-debug) and
# stripped from it: its function stays (.symtab), its lines are gone, and come back where the debug file is.
mkdir -p "$T/dbg"
gcc -O0 -g -fPIC -shared -Wl,--build-id -o "$T/dbg/libkfcsite.so" "$SRC/lib.c" &&
	gcc -O0 -g -o "$T/dbg/csite" "$SRC/main.c" -L"$T/dbg" -lkfcsite -Wl,-rpath,"$T/dbg" &&
	objcopy --only-keep-debug "$T/dbg/libkfcsite.so" "$T/dbg/lib.debug" &&
	strip --strip-debug "$T/dbg/libkfcsite.so" || not_ok "csite inputs: the split library builds"
bid=$(readelf -n "$T/dbg/libkfcsite.so" | sed -n 's/.*Build ID: //p')
L_LIB=$(line KF-CSITE-LIB lib.c)
libline() { frames "$1" eventfd2 | grep -o " libkfcsite.so+[0-9]*:kf_csite_lib_eventfd@[^ ]*" | sed 's/.*@//'; }
env -u DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH="$T/empty" \
	"$KF" record -q -b ptrace --call-sites -o "$T/nodbg.json" --report /dev/null -- "$T/dbg/csite"
eq "csite inputs: split: without its debug file, the function and no line" "?:?" "$(libline "$T/nodbg.json")"
mkdir -p "$T/cache/$bid" && cp "$T/dbg/lib.debug" "$T/cache/$bid/debuginfo"
env -u DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH="$T/cache" \
	"$KF" record -q -b ptrace --call-sites -o "$T/cache.json" --report /dev/null -- "$T/dbg/csite"
eq "csite inputs: split: its line from debuginfod's cache (no DEBUGINFOD_URLS)" "lib.c:$L_LIB" "$(libline "$T/cache.json")"
D=/usr/lib/debug/.build-id/$(echo "$bid" | cut -c1-2)
F=$D/$(echo "$bid" | cut -c3-).debug
if [ -n "$bid" ] && [ ! -e "$F" ] && mkdir -p "$D" 2>/dev/null && cp "$T/dbg/lib.debug" "$F" 2>/dev/null; then
	env -u DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH="$T/empty" \
		"$KF" record -q -b ptrace --call-sites -o "$T/bid.json" --report /dev/null -- "$T/dbg/csite"
	rm -f "$F"
	rmdir "$D" 2>/dev/null
	eq "csite inputs: split: its line from /usr/lib/debug/.build-id" "lib.c:$L_LIB" "$(libline "$T/bid.json")"
else
	skip "csite inputs: split: /usr/lib/debug/.build-id" "cannot place a file there (not root, or it exists)"
fi

# Python's socket.socket(): libc's __socket, called from the _socket module's sock_initobj, called from the
# interpreter. Debian's python3.11 links libpython statically and builds _socket in: those frames are the
# python3.11 binary's, sock_initobj unnamed (a static function; the binary keeps only its exported symbols), the
# interpreter's named by them. A Python with libpython3.11.so and _socket as an extension (pyenv's) names both.
pysock() { # PYTHON: the modules (basenames, each once, in order) and functions of the socket call's stacks
	"$KF" record -q -b ptrace --call-sites -o "$T/py.json" --report /dev/null -- "$1" -c 'import socket; socket.socket()'
	frames "$T/py.json" socket | head -1 | cut -d' ' -f2-
}
s=$(pysock /usr/bin/python3.11)
case $s in
libc.so.6+*:__socket@*" python3.11+"*":?@"*"python3.11+"*":_PyEval_EvalFrameDefault@"*) ok "csite inputs: python: Debian's: __socket, then python3.11's frames (its _socket built in)" ;;
*) not_ok "csite inputs: python: Debian's: got '$s'" ;;
esac
P=$(command -v python3)
if [ "$(readlink -f "$P")" != /usr/bin/python3.11 ] && "$P" -c 'import _socket; _socket.__file__' 2>/dev/null; then
	s=$(pysock "$P")
	case $s in
	libc.so.6+*:__socket@*" _socket.cpython-"*":sock_initobj@"*" libpython3"*":_PyEval_EvalFrameDefault@"*) ok "csite inputs: python: $P: __socket, _socket's sock_initobj, libpython's frames" ;;
	*) not_ok "csite inputs: python: $P: got '$s'" ;;
	esac
else
	skip "csite inputs: python with a shared libpython" "no python3 in PATH with _socket as an extension"
fi
