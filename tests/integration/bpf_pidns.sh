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
# hosts FILE: whether every process has a host_pid, and none equals its pid.
hosts() { jget "$1" "all(p.get('host_pid', p['pid']) != p['pid'] for p in d['processes'])"; }

# --- kfootprint in a new namespace (pid 1 there), with its own /proc ---
for b in bpf ptrace; do
	unshare -fp --mount-proc "$KF" record -b "$b" -F tree --report "$T/ns.$b.tree" -o "$T/ns.$b.json" -- \
		sh -c 'ls / >/dev/null; true'
done
eq "unshare -fp --mount-proc: bpf records the namespace's pids, ls under sh" "2:1:sh 3:2:ls" "$(procs "$T/ns.bpf.json")"
eq "unshare -fp --mount-proc: the same tree as ptrace" "$(procs "$T/ns.ptrace.json")" "$(procs "$T/ns.bpf.json")"
eq "unshare -fp --mount-proc: the tree shows ls under sh" "2 sh|  3 ls" \
	"$(sed -n 's/^ \( *\)\([0-9]*\) *\([a-z]*\) .*/\1\2 \3/p' "$T/ns.bpf.tree" | tr '\n' '|' | sed 's/|$//')"
eq "unshare -fp --mount-proc: bpf gives each its host pid beside" "True" "$(hosts "$T/ns.bpf.json")"
eq "unshare -fp --mount-proc: exe and argv of ls" "/usr/bin/ls ['ls', '/']" \
	"$(jget "$T/ns.bpf.json" "'%s %s' % (d['processes'][1]['exe'], d['processes'][1]['argv'])")"

# --- a new namespace, but the host's /proc: pids still the namespace's, exe still right ---
unshare -fp "$KF" record -b bpf --report /dev/null -o "$T/nsh.json" -- sh -c 'ls / >/dev/null; true'
eq "unshare -fp (host /proc): namespace pids, exe from the right process" "2:1:sh:/usr/bin/dash 3:2:ls:/usr/bin/ls" \
	"$(jget "$T/nsh.json" "' '.join('%d:%d:%s:%s' % (p['pid'], p['ppid'], p['comm'], p['exe']) for p in d['processes'])")"

# --- the workload makes its own namespace: its pids as kfootprint (here: the host) sees them ---
"$KF" record -b bpf --report /dev/null -o "$T/wl.json" -- unshare -fp --mount-proc sh -c 'ls / >/dev/null; true'
eq "workload's own namespace: unshare, sh, ls, each the child of the one before" "unshare sh ls True" \
	"$(jget "$T/wl.json" "' '.join([p['comm'] for p in d['processes']] + [str(all(d['processes'][i]['ppid'] == d['processes'][i - 1]['pid'] for i in (1, 2)))])")"
eq "workload's own namespace: host pids (none is 1), no host_pid field" "True" \
	"$(jget "$T/wl.json" "all(p['pid'] > 1 and 'host_pid' not in p for p in d['processes'])")"

# --- both: kfootprint in a namespace, the workload in one more ---
unshare -fp --mount-proc "$KF" record -b bpf --report /dev/null -o "$T/nest.json" -- \
	unshare -fp --mount-proc sh -c 'ls / >/dev/null; true'
eq "nested namespaces: kfootprint's level, ls under sh under unshare" "2:1:unshare 3:2:sh 4:3:ls" "$(procs "$T/nest.json")"
eq "nested namespaces: host pids beside" "True" "$(hosts "$T/nest.json")"

# --- -d in a namespace: SIGTERM goes to the workload's sleep, by the pid the namespace knows ---
unshare -fp --mount-proc "$KF" record -b bpf -d 0.5 --report /dev/null -o "$T/d.json" -- sh -c 'sleep 30; true'
eq "-d in a namespace: sh and sleep ended by kfootprint's SIGTERM" "SIGTERM SIGTERM" \
	"$(jget "$T/d.json" "' '.join(str(p['exit'].get('signal')) for p in d['processes'])")"
