#!/bin/sh
# PID namespaces: pids are recorded as kfootprint's own namespace sees them (as ptrace's waitpid gives
# them), with the initial namespace's pid beside them (host_pid) where they differ; the same tree as
# ptrace; and -d's signals reach the workload's processes, not whatever has their numbers elsewhere.
. "$(dirname "$0")/../lib.sh"

if ! out=$("$KF" record -b bpf --report /dev/null -- true 2>&1); then
	skip bpf_pidns "bpf backend cannot run here: $out"
	exit 0
fi
if ! unshare -fp --mount-proc true 2>/dev/null; then
	skip bpf_pidns "cannot create a pid namespace here (unshare -fp --mount-proc)"
	exit 0
fi
# procs FILE: "pid:ppid:comm" of every process, in order.
procs() { jget "$1" "' '.join('%d:%d:%s' % (p['pid'], p['ppid'], p['comm']) for p in d['processes'])"; }
# shape FILE: "comm<parent" of every process (the parent's comm, or its pid when it is not recorded), then
# "small" when every pid is a namespace's (the guardian of the workload's containment takes one pid too, so
# the exact numbers are not asserted).
shape() { jget "$1" "' '.join('%s<%s' % (p['comm'], next((q['comm'] for q in d['processes'] if q['pid'] == p['ppid']), p['ppid'])) for p in d['processes']) + (' small' if all(p['pid'] < 100 for p in d['processes']) else ' host')"; }
# hosts FILE: whether every process has a host_pid, and none equals its pid.
hosts() { jget "$1" "all(p.get('host_pid', p['pid']) != p['pid'] for p in d['processes'])"; }

# --- kfootprint in a new namespace (pid 1 there), with its own /proc ---
for b in bpf ptrace; do
	unshare -fp --mount-proc "$KF" record -b "$b" -v -F tree --report "$T/ns.$b.tree" -o "$T/ns.$b.json" -- \
		sh -c 'ls / >/dev/null; true' 2>"$T/ns.$b.err"
done
eq "unshare -fp --mount-proc: bpf records the namespace's pids, ls under sh" "sh<1 ls<sh small" "$(shape "$T/ns.bpf.json")"
# kfootprint's own tasks take pids of the namespace too: the guardian under either backend and, where bpf loads
# its programs on two CPUs (KF_BPF_SPLIT=1; -v says so), the loading thread, made after the command was forked: every later
# process has the next pid.
late=0
grep -q "more on the other CPU" "$T/ns.bpf.err" && late=1
eq "unshare -fp --mount-proc: the same tree as ptrace (+$late for the loading thread)" \
	"$(jget "$T/ns.ptrace.json" "' '.join('%d:%d:%s' % (p['pid'] + $late * (p['pid'] > r), p['ppid'] + $late * (p['ppid'] > r), p['comm']) for r in [d['processes'][0]['pid']] for p in d['processes'])")" \
	"$(procs "$T/ns.bpf.json")"
eq "unshare -fp --mount-proc: the tree shows ls under sh" "$(jget "$T/ns.bpf.json" "'%d sh|  %d ls' % (d['processes'][0]['pid'], d['processes'][1]['pid'])")" \
	"$(sed -n 's/^ \( *\)\([0-9]*\) *\([a-z]*\) .*/\1\2 \3/p' "$T/ns.bpf.tree" | tr '\n' '|' | sed 's/|$//')"
eq "unshare -fp --mount-proc: bpf gives each its host pid beside" "True" "$(hosts "$T/ns.bpf.json")"
eq "unshare -fp --mount-proc: exe and argv of ls" "/usr/bin/ls ['ls', '/']" \
	"$(jget "$T/ns.bpf.json" "'%s %s' % (d['processes'][1]['exe'], d['processes'][1]['argv'])")"

# --- a new namespace, but the host's /proc: pids still the namespace's, exe still right ---
unshare -fp "$KF" record -b bpf --report /dev/null -o "$T/nsh.json" -- sh -c 'ls / >/dev/null; true'
eq "unshare -fp (host /proc): namespace pids, exe from the right process" "sh<1 ls<sh small /usr/bin/dash /usr/bin/ls" \
	"$(shape "$T/nsh.json") $(jget "$T/nsh.json" "' '.join(p['exe'] for p in d['processes'])")"

# --- the workload makes its own namespace: its pids as kfootprint (here: the host) sees them ---
"$KF" record -b bpf --report /dev/null -o "$T/wl.json" -- unshare -fp --mount-proc sh -c 'ls / >/dev/null; true'
eq "workload's own namespace: unshare, sh, ls, each the child of the one before" "unshare sh ls True" \
	"$(jget "$T/wl.json" "' '.join([p['comm'] for p in d['processes']] + [str(all(d['processes'][i]['ppid'] == d['processes'][i - 1]['pid'] for i in (1, 2)))])")"
eq "workload's own namespace: host pids (none is 1), no host_pid field" "True" \
	"$(jget "$T/wl.json" "all(p['pid'] > 1 and 'host_pid' not in p for p in d['processes'])")"

# --- both: kfootprint in a namespace, the workload in one more ---
unshare -fp --mount-proc "$KF" record -b bpf --report /dev/null -o "$T/nest.json" -- \
	unshare -fp --mount-proc sh -c 'ls / >/dev/null; true'
eq "nested namespaces: kfootprint's level, ls under sh under unshare" "unshare<1 sh<unshare ls<sh small" "$(shape "$T/nest.json")"
eq "nested namespaces: host pids beside" "True" "$(hosts "$T/nest.json")"

# --- -d in a namespace: SIGTERM goes to the workload's sleep, by the pid the namespace knows ---
unshare -fp --mount-proc "$KF" record -b bpf -d 0.5 --report /dev/null -o "$T/d.json" -- sh -c 'sleep 30; true'
eq "-d in a namespace: sh and sleep ended by kfootprint's SIGTERM" "SIGTERM SIGTERM" \
	"$(jget "$T/d.json" "' '.join(str(p['exit'].get('signal')) for p in d['processes'])")"
