#!/bin/sh
# What each call reached, ptrace backend: wl_reach's objects and calls held against tests/integration/reach_expect.sh
# (the table the bpf test reads too), then real programs: namespaces through unshare(1), a tmpfs mount inside
# unshare -m, binary formats (ELF, a #! script, 32-bit ELF), TCGETS on a pty, stress-ng's netdev stressor (SIOCGIF*
# on an AF_INET socket); --no-reach; the text and CSV reports; a saved footprint read back byte for byte.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/reach_expect.sh"

workload_or_skip record_reach "$WL/wl_reach" || exit 0
# reached FILE SYSCALL [KIND]: "kind value[ on fd] calls" of a syscall's workload-wide refinements, sorted, one a line
reached() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["syscalls"]:
    if s["name"] != sys.argv[2]:
        continue
    out = ["%s %s%s %d" % (r["kind"], r["value"], " on " + r["fd"] if "fd" in r else "", r["calls"])
           for r in s.get("reached", []) if len(sys.argv) < 4 or r["kind"] == sys.argv[3]]
    print("\n".join(sorted(out)))
PY
}

mkdir -p "$T/scratch"
"$KF" record -b ptrace -o "$T/wl.json" --report "$T/wl.txt" -- "$WL/wl_reach" "$T/scratch" >"$T/made" 2>"$T/wl.err"
eq "ptrace: wl_reach recorded" 0 $?
eq "ptrace: the footprint says it recorded what calls reached" True "$(jget "$T/wl.json" 'd.get("reached")')"
reach_check ptrace "$T/wl.json" "$T/made" "$T/scratch"
# the per-process view: the child that got the memfd over the socket fsynced it, and only it did
eq "ptrace: the SCM_RIGHTS child reached the memfd, per process" "fsync memfd 1" "$(python3 - "$T/wl.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for p in d["processes"]:
    for r in p["syscalls"].get("fsync", {}).get("reached", []):
        print("fsync %s %d" % (r["value"], r["calls"]))
PY
)"
# a closed fd: the call counts (EBADF), reaches nothing
eq "ptrace: lseek on a closed fd counts, reaches nothing" "3 1" \
	"$(jget "$T/wl.json" '" ".join(str(s[k] if k == "calls" else s["errnos"].get("EBADF", 0)) for s in d["syscalls"] if s["name"] == "lseek" for k in ("calls", "errnos"))')"

# --- the reports ---
check "text: the reached section names the fd kinds per syscall" grep -q '^  lseek: 1 anon:\[eventfd\], 1 chr:1:3$' "$T/wl.txt"
check "text: an ioctl with the fd kind it was made on" grep -q 'ioctl 1 FIONREAD on pipe' "$T/wl.txt"
"$KF" report -F csv "$T/wl.json" >"$T/wl.csv"
eq "csv: a reached column" "abi,name,nr,calls,errors,time_s,class,reached" "$(head -n1 "$T/wl.csv")"
check "csv: the refinements of a row" grep -q '^x86_64,lseek,8,3,1,[0-9.]*,Filesystem,fd:anon:\[eventfd\]=1;fd:chr:1:3=1$' "$T/wl.csv"
"$KF" report -F json "$T/wl.json" >"$T/back.json"
check "json: read back and written again, byte for byte" cmp "$T/wl.json" "$T/back.json"

# --- -e status=: what the failed calls reached, and what the successful ones did ---
"$KF" report -F json -e status=failed "$T/wl.json" >"$T/failed.json"
"$KF" report -F json -e status=successful "$T/wl.json" >"$T/ok.json"
eq "-e status=failed: sendmsg's failed call, to the address of a missing socket" "af AF_UNIX 1
fd socket:AF_UNIX:SOCK_DGRAM:0 1" "$(reached "$T/failed.json" sendmsg)"
eq "-e status=successful: sendmsg's successful call (SCM_RIGHTS, no address)" "fd socket:AF_UNIX:SOCK_DGRAM:0 1" \
	"$(reached "$T/ok.json" sendmsg)"

# --- merge: two recordings' refinements add up; with one that has none, the merged footprint says it has none ---
"$KF" record -b ptrace -o "$T/wl2.json" --report /dev/null -- "$WL/wl_reach" "$T/scratch" >/dev/null 2>&1
"$KF" merge -o "$T/merged.json" "$T/wl.json" "$T/wl2.json" 2>/dev/null
eq "merge: the refinements of two recordings add up" "True
fd anon:[eventfd] 2
fd chr:1:3 2" "$(jget "$T/merged.json" 'd.get("reached")'; reached "$T/merged.json" lseek)"

# --- --no-reach ---
"$KF" record -b ptrace --no-reach -o "$T/none.json" --report /dev/null -- "$WL/wl_reach" "$T/scratch" >/dev/null 2>&1
eq "--no-reach: nothing reached is recorded" "False 0" \
	"$(jget "$T/none.json" '"%s %d" % (d.get("reached", False), sum(len(s.get("reached", [])) for s in d["syscalls"]))')"
"$KF" merge -o "$T/merged2.json" "$T/wl.json" "$T/none.json" 2>/dev/null
eq "merge with a footprint without refinements: not said to have them" "False" \
	"$(jget "$T/merged2.json" 'd.get("reached", False)')"

# --- namespaces, mounts: real programs ---
if unshare -n -m true 2>/dev/null; then
	"$KF" record -b ptrace -o "$T/ns.json" --report /dev/null -- unshare -n -m true 2>/dev/null
	eq "unshare -n -m: one unshare reached CLONE_NEWNET and CLONE_NEWNS" "ns CLONE_NEWNET 1
ns CLONE_NEWNS 1" "$(reached "$T/ns.json" unshare)"
	mkdir -p "$T/mnt"
	"$KF" record -b ptrace -o "$T/mount.json" --report /dev/null -- \
		unshare -m sh -c "mount -t tmpfs kf-reach '$T/mnt' && umount '$T/mnt'" 2>/dev/null
	eq "mount -t tmpfs inside unshare -m: the filesystem type" "fstype tmpfs 1" \
		"$(reached "$T/mount.json" mount fstype; reached "$T/mount.json" fsopen fstype)"
else
	skip "unshare: namespaces" "unshare -n -m fails here (no root, or namespaces disabled)"
fi

# --- binary formats ---
printf '#!/bin/sh\n/bin/true\n' >"$T/script.sh"
chmod +x "$T/script.sh"
"$KF" record -b ptrace -o "$T/script.json" --report /dev/null -- "$T/script.sh" 2>/dev/null
eq "binfmt: a #! script, then the ELF it runs" "binfmt elf 1
binfmt script 1" "$(reached "$T/script.json" execve)"
if [ -x "$WL/wl_i386_m32" ]; then
	"$KF" record -b ptrace -o "$T/m32.json" --report /dev/null -- "$WL/wl_i386_m32" >/dev/null 2>&1
	eq "binfmt: a 32-bit ELF is compat_elf" "binfmt compat_elf 1" "$(reached "$T/m32.json" execve)"
else
	skip "binfmt: compat_elf" "wl_i386_m32 not built (gcc-multilib)"
fi

# --- a pty: stty's TCGETS on the terminal script(1) gives it (bsdutils, essential in Debian) ---
if ! command -v script >/dev/null; then
	skip "pty: TCGETS on a pty" "no script(1) here"
else
	"$KF" record -b ptrace -o "$T/pty.json" --report /dev/null -- script -q -c 'stty size >/dev/null' /dev/null \
		>/dev/null 2>&1 </dev/null
	eq "pty: TCGETS on a pty (chr:136:N)" yes "$(jget "$T/pty.json" '"yes" if any(r["value"] == "TCGETS" and r.get("fd", "").startswith("chr:136:") for s in d["syscalls"] if s["name"] == "ioctl" for r in s.get("reached", [])) else "no"')"
fi

# --- stress-ng --netdev: SIOCGIF* on an AF_INET socket, every one by name ---
if command -v stress-ng >/dev/null; then
	"$KF" record -b ptrace -o "$T/netdev.json" --report /dev/null -- stress-ng --netdev 1 -t 2 -q >/dev/null 2>&1
	eq "stress-ng --netdev: its socket is AF_INET" "yes" "$(jget "$T/netdev.json" '"yes" if any(r["value"].startswith("AF_INET:") for s in d["syscalls"] if s["name"] == "socket" for r in s.get("reached", [])) else "no"')"
	eq "stress-ng --netdev: SIOCGIF* ioctls on an AF_INET socket, all decoded" "yes 0" \
		"$(jget "$T/netdev.json" '"%s %d" % ("yes" if sum(1 for s in d["syscalls"] if s["name"] == "ioctl" for r in s.get("reached", []) if r["kind"] == "ioctl" and r["value"].startswith("SIOCGIF") and r.get("fd", "").startswith("socket:AF_INET:")) >= 5 else "no", sum(1 for s in d["syscalls"] if s["name"] == "ioctl" for r in s.get("reached", []) if r["kind"] == "ioctl" and r["value"].startswith("0x") and r.get("fd", "").startswith("socket:")))')"
else
	skip "stress-ng --netdev" "stress-ng is not installed (make deps)"
fi
