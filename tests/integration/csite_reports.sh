#!/bin/sh
# The reports of call sites (record --call-sites), from a workload with known call sites (tests/workloads/csite/:
# eventfd from a library's function and from main, and failing with EINVAL from main): map names the stacks that
# needed EVENTFD (text and JSON), seccomp comments eventfd2's rule with them, diff lists new keys and stacks,
# merge sums them.
. "$(dirname "$0")/../lib.sh"

SRC="$KF_TOP/tests/workloads/csite"
if ! command -v gcc >/dev/null 2>&1; then
	skip "csite reports" "no gcc to build the workload"
	exit 0
fi
gcc -O0 -g -fPIC -shared -o "$T/libkfcsite.so" "$SRC/lib.c" &&
	gcc -O0 -g -o "$T/csite" "$SRC/main.c" -L"$T" -lkfcsite -Wl,-rpath,"$T" || {
	not_ok "csite reports: the workload builds"
	exit 0
}
"$KF" record -q -b ptrace --call-sites -o "$T/c.json" --report /dev/null -- "$T/csite"
eq "csite reports: recorded" 0 "$?"

# map -F text: EVENTFD <- eventfd2, then its stacks, most calls first, innermost frame first
"$KF" map -o "$T/m.txt" "$T/c.json"
sed -n '/^call sites of /,$p' "$T/m.txt" >"$T/sites"
check "csite reports: map's section" grep -q '^call sites of [0-9]* options: OPTION <- what needed it' "$T/sites"
eq "csite reports: map: EVENTFD <- eventfd2, its 5 calls" 1 "$(grep -c '^  EVENTFD <- eventfd2: 5 calls$' "$T/sites")"
eq "csite reports: map: the library's stack first (3 calls), then main's (2)" \
	"3 libkfcsite.so kf_csite_lib_eventfd <- csite main|2 csite main <- libc.so.6 __libc_start_call_main" \
	"$(sed -n '/^  EVENTFD <- eventfd2: /,/^  [A-Z]/p' "$T/sites" | sed -n 's/^    \([0-9]*\) <- libc.so.6 [a-z_]*eventfd <- \([^<]*<- [^ ]* [^ ]*\).*/\1 \2/p' | sed 's/ *$//' | paste -sd'|')"
eq "csite reports: map: the EINVAL key apart" 1 "$(grep -c '^  EVENTFD <- eventfd2 EINVAL: 4 calls$' "$T/sites")"
eq "csite reports: map: a refinement's need names the key's syscall" 1 \
	"$(grep -c '^  EXT4_FS <- fd file:ext4 <- mmap: ' "$T/sites")"
"$KF" map -F json -o "$T/m.json" "$T/c.json"
eq "csite reports: map JSON: EVENTFD's keys, as the footprint's" \
	"$(jget "$T/c.json" "json.dumps([k for k in d['call_sites']['keys'] if k['syscall'] == 'eventfd2'], sort_keys=True)")" \
	"$(jget "$T/m.json" "json.dumps([k for o in d['call_sites']['options'] if o['option'] == 'EVENTFD' for n in o['needed_by'] if n['by'] == 'eventfd2' for k in n['keys']], sort_keys=True)")"
eq "csite reports: map JSON: every option of call_sites is a needed one" "" \
	"$(jget "$T/m.json" "' '.join(o['option'] for o in d['call_sites']['options'] if not any(c['name'] == o['option'] and c['needed_by'] for c in d['configs']))")"
"$KF" record -q -b ptrace -o "$T/n.json" --report /dev/null -- "$T/csite"
"$KF" map -F json -o "$T/mn.json" "$T/n.json"
eq "csite reports: map JSON without call sites: no member" False "$(jget "$T/mn.json" "'call_sites' in d")"
"$KF" map -o "$T/mn.txt" "$T/n.json"
eq "csite reports: map text without call sites: no section" 0 "$(grep -c '^call sites of' "$T/mn.txt")"

# seccomp: eventfd2's rule of its own, commented with its stacks; every call still allowed
"$KF" seccomp -o "$T/s.json" "$T/c.json"
"$KF" seccomp -o "$T/sn.json" "$T/n.json"
eq "csite reports: seccomp: eventfd2's rule names the library's function and main" "1 1" \
	"$(jget "$T/s.json" "' '.join(str(int(x in c)) for c in [[r['comment'] for r in d['syscalls'] if r['names'] == ['eventfd2']][0]] for x in ['libkfcsite.so kf_csite_lib_eventfd <- csite main', '(4 calls failing with EINVAL)'])")"
eq "csite reports: seccomp: the calls allowed, as without call sites" \
	"$(jget "$T/sn.json" "sorted(n for r in d['syscalls'] for n in r['names'])")" \
	"$(jget "$T/s.json" "sorted(n for r in d['syscalls'] for n in r['names'])")"
eq "csite reports: seccomp without call sites: one rule, no comment" "1 False" \
	"$(jget "$T/sn.json" "'%d %s' % (len(d['syscalls']), 'comment' in d['syscalls'][0])")"

# diff: a workload calling more (sh, then the same program) has new keys and stacks; one without call sites
# compares none of them
"$KF" record -q -b ptrace --call-sites -o "$T/c2.json" --report /dev/null -- sh -c "$T/csite; true"
"$KF" diff -F json -o "$T/d.json" "$T/c.json" "$T/c2.json"
eq "csite reports: diff: wait4's key added" 1 \
	"$(jget "$T/d.json" "sum(i['kind'] == 'call_site_key' and i['key'] == 'wait4' and i['change'] == 'added' for i in d['items'])")"
eq "csite reports: diff: a stack of the shell's added, none of eventfd2's" "True 0" \
	"$(jget "$T/d.json" "'%s %d' % (any(i['kind'] == 'call_site' and i['key'].startswith('wait4: ') for i in d['items']), sum(i['kind'] == 'call_site' and i['key'].startswith('eventfd2') for i in d['items']))")"
"$KF" diff -F json -o "$T/dn.json" "$T/n.json" "$T/c2.json"
eq "csite reports: diff against a footprint without call sites: none compared" 0 \
	"$(jget "$T/dn.json" "sum(i['kind'].startswith('call_site') for i in d['items'])")"

# merge: the keys of both, calls summed per stack
"$KF" merge -o "$T/mg.json" "$T/c.json" "$T/c2.json" 2>/dev/null
eq "csite reports: merge: the library's stack, 3 + 3 calls" 6 \
	"$(jget "$T/mg.json" "[s['calls'] for k in d['call_sites']['keys'] if k['syscall'] == 'eventfd2' and 'errno' not in k for s in k['stacks'] if any(f.get('function') == 'kf_csite_lib_eventfd' for f in s['frames'])][0]")"
eq "csite reports: merge: wait4's key from the second" True \
	"$(jget "$T/mg.json" "any(k['syscall'] == 'wait4' for k in d['call_sites']['keys'])")"
