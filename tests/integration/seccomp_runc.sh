#!/bin/sh
# A generated seccomp profile, for real: runc runs a busybox-static rootfs with it and the workload succeeds;
# without one call the workload needs (newfstatat, which busybox stat makes), it fails the way the profile says
# (ENOSYS, or EPERM); without the runtime's own set, runc's init fails before the workload starts.
#
# The workload is recorded in the shape runc runs it: runc's init execs the process args themselves, so the
# footprint is of `busybox sh -c ...` (the same static binary, its applets standalone: no host program runs),
# not of runc.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "seccomp under runc" "not root: runc needs root to create a container here"
	exit 0
fi
BB=/bin/busybox
if ! ldd "$BB" 2>&1 | grep -q 'not a dynamic executable'; then
	not_ok "busybox-static: $BB is not a static binary (install list: busybox-static)"
	exit 0
fi

B=$T/bundle
mkdir -p "$B/rootfs/bin" && cp "$BB" "$B/rootfs/bin/busybox"
(cd "$B" && runc spec) || not_ok "runc spec"
SCRIPT='stat -c %s /bin/busybox && ls /bin'
"$KF" record -b ptrace -o "$T/fp.json" -- "$B/rootfs/bin/busybox" sh -c "$SCRIPT" >"$T/host.out" 2>"$T/rec.err" ||
	not_ok "record: $(cat "$T/rec.err")"
eq "recorded: only the rootfs's busybox ran" "$B/rootfs/bin/busybox" \
	"$(jget "$T/fp.json" "' '.join(sorted(set(p['exe'] for p in d['processes'])))")"
eq "recorded: the workload uses newfstatat" "1" "$(jget "$T/fp.json" "sum(1 for s in d['syscalls'] if s['name'] == 'newfstatat')")"

n=0
# run NAME PROFILE [EDIT]: runc runs the workload with PROFILE (after the python statement EDIT on `p`) as
# linux.seccomp; its output in $T/NAME.out, its status in $rc
run() {
	n=$((n + 1))
	python3 - "$B/config.json" "$2" "$SCRIPT" "${3:-pass}" <<'EOF'
import json, sys
conf, prof, script, edit = sys.argv[1:]
c = json.load(open(conf))
p = json.load(open(prof))
exec(edit)
c["process"]["terminal"] = False
c["process"]["args"] = ["/bin/busybox", "sh", "-c", script]
c["root"]["readonly"] = True
c["linux"]["seccomp"] = p
json.dump(c, open(conf, "w"), indent=1)
EOF
	(cd "$B" && timeout 60 runc --root "$T/runc" run "kf-seccomp-$$-$n" </dev/null >"$T/$1.out" 2>&1)
	rc=$?
	runc --root "$T/runc" delete -f "kf-seccomp-$$-$n" >/dev/null 2>&1
}
unallow() { echo "p['syscalls'][0]['names'].remove('$1')"; }

"$KF" seccomp -o "$T/prof.json" "$T/fp.json"
run allowed "$T/prof.json"
eq "runc with the profile: the workload succeeds" "0" "$rc"
eq "... and prints what it printed untraced" "$(stat -c %s "$BB") busybox" "$(tr '\n' ' ' <"$T/allowed.out" | sed 's/ $//')"

run no-stat "$T/prof.json" "$(unallow newfstatat)"
if [ "$rc" -ne 0 ] && grep -q "stat: can't stat '/bin/busybox': Function not implemented" "$T/no-stat.out"; then
	ok "without newfstatat: the workload fails with ENOSYS"
else
	not_ok "without newfstatat: status $rc, output: $(head -c 300 "$T/no-stat.out")"
fi

"$KF" seccomp --default-errno EPERM -o "$T/prof-eperm.json" "$T/fp.json"
run eperm "$T/prof-eperm.json"
eq "runc with --default-errno EPERM: the workload succeeds" "0 $(stat -c %s "$BB")" "$rc $(head -n 1 "$T/eperm.out")"
run eperm-no-stat "$T/prof-eperm.json" "$(unallow newfstatat)"
if [ "$rc" -ne 0 ] && grep -q "stat: can't stat '/bin/busybox': Operation not permitted" "$T/eperm-no-stat.out"; then
	ok "without newfstatat, EPERM default: the workload fails with EPERM"
else
	not_ok "without newfstatat, EPERM default: status $rc, output: $(head -c 300 "$T/eperm-no-stat.out")"
fi

# the runtime's set is needed: runc's init checks /proc/self/fd with fstatfs after loading the filter
"$KF" seccomp --no-runtime -o "$T/prof-bare.json" "$T/fp.json"
run bare "$T/prof-bare.json"
if [ "$rc" -ne 0 ] && ! grep -q busybox "$T/bare.out"; then
	ok "--no-runtime under runc: runc's init fails before the workload"
else
	not_ok "--no-runtime under runc: status $rc, output: $(head -c 300 "$T/bare.out")"
fi

# With call sites (record --call-sites): a rule per call sited, its "comment" naming them; runc reads past the
# member runtime-spec does not have, and the workload runs as with the one rule; the calls are the same.
"$KF" record -b ptrace --call-sites -o "$T/cs.json" -- "$B/rootfs/bin/busybox" sh -c "$SCRIPT" >/dev/null 2>"$T/rec.err" ||
	not_ok "record --call-sites: $(cat "$T/rec.err")"
"$KF" seccomp -o "$T/prof-cs.json" "$T/cs.json"
eq "call sites: the same calls allowed as without" \
	"$(jget "$T/prof.json" "' '.join(sorted(n for r in d['syscalls'] if r['action'] == 'SCMP_ACT_ALLOW' for n in r['names']))")" \
	"$(jget "$T/prof-cs.json" "' '.join(sorted(n for r in d['syscalls'] if r['action'] == 'SCMP_ACT_ALLOW' for n in r['names']))")"
eq "call sites: newfstatat's rule names busybox's frames" "newfstatat from busybox" \
	"$(jget "$T/prof-cs.json" "[r['comment'][:23] for r in d['syscalls'] if r['names'] == ['newfstatat']][0]")"
eq "call sites: every rule has a comment" 0 "$(jget "$T/prof-cs.json" "sum('comment' not in r for r in d['syscalls'])")"
run sited "$T/prof-cs.json"
eq "runc with the commented profile: the workload succeeds" "0 $(stat -c %s "$BB")" "$rc $(head -n 1 "$T/sited.out")"
