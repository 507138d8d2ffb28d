#!/bin/sh
# Probes (every call failed with ENOSYS: shown, never required) and syscalls newer than the source tree (shown as
# such, never guessed), from real recordings and from a footprint edited to hold the cases this kernel lacks.
. "$(dirname "$0")/../lib.sh"

# row FILE NAME EXPR: a python expression over r, the row of syscall NAME in a map JSON
row() { jget "$1" "[(lambda r: $3)(r) for r in d['syscalls'] if r['name'] == '$2'][0]"; }

if [ ! -x "$WL/wl_enosys" ]; then
	skip "probe workload" "workloads not built: run make workloads"
else
	# wl_enosys: 3 calls of number 400 (no row in the x86_64 table) and 2 of uselib
	"$KF" record -b ptrace -F json --report /dev/null -o "$T/en.json" -- "$WL/wl_enosys" >/dev/null 2>&1
	eq "record wl_enosys" 0 $?
	"$KF" map -F json "$T/en.json" >"$T/en.map" 2>"$T/en.err"
	eq "map wl_enosys: exit 0" 0 $?
	uselib_enosys=$(jget "$T/en.json" "[s['errnos'].get('ENOSYS', 0) for s in d['syscalls'] if s['name'] == 'uselib'][0]")
	if [ "$uselib_enosys" = 2 ]; then
		eq "uselib: a probe, not required" "True False" "$(row "$T/en.map" uselib "'%s %s' % (r['probe'], r['required'])")"
		# x86_64 never had uselib: its row has no entry point, so calls reach sys_ni_syscall whatever the config
		eq "uselib: no entry point, absent from the running kernel" "None absent" \
			"$(row "$T/en.map" uselib "'%s %s' % (r['entry'], r['running'])")"
		"$KF" map -F kconfig "$T/en.json" >"$T/en.kconfig"
		eq "kconfig: uselib commented as a probe" 1 "$(grep -c '^# uselib: probe: every call failed with ENOSYS' "$T/en.kconfig")"
		"$KF" map "$T/en.json" >"$T/en.txt"
		eq "text: uselib marked a probe" 1 "$(grep -c '^uselib  calls 2 (errors 2) .*(probe, not required)' "$T/en.txt")"
	else
		skip "uselib probe" "uselib does not fail with ENOSYS on this kernel"
	fi
	eq "number 400: a probe, and no row of the tree" "True True False" \
		"$(row "$T/en.map" syscall_400 "'%s %s %s' % (r['probe'], r['newer'], r['required'])")"
	eq "number 400: said to be outside the tree's table, not guessed" "True None" \
		"$(row "$T/en.map" syscall_400 "'%s %s' % (r['note'].startswith('not in the x86_64 table of the source tree (6.1)'), r['kernel'])")"
fi

# A real syscall newer than 6.1: cachestat (451, Linux 6.5), called by perl with a bad fd
if grep -q ' T __x64_sys_cachestat$' /proc/kallsyms 2>/dev/null && command -v perl >/dev/null; then
	"$KF" record -b ptrace -F json --report /dev/null -o "$T/cs.json" -- perl -e 'syscall(451, -1, 0, 0, 0)' >/dev/null 2>&1
	name=$(jget "$T/cs.json" "[s['name'] for s in d['syscalls'] if s['nr'] == 451][0]")
	"$KF" map -F json "$T/cs.json" >"$T/cs.map"
	eq "451 ($name): newer than the source tree, not required" "True False" \
		"$(row "$T/cs.map" "$name" "'%s %s' % (r['newer'], r['required'])")"
	eq "451 ($name): the note says so" "newer than the source tree (6.1)" "$(row "$T/cs.map" "$name" "r['note']")"
	eq "451 ($name): no kernel chain guessed" "None" "$(row "$T/cs.map" "$name" "r['kernel']")"
	eq "451 ($name): built into the running kernel" "built-in" "$(row "$T/cs.map" "$name" "r['running']")"
	"$KF" map --syscalls cachestat >"$T/cs.txt" 2>&1
	eq "--syscalls cachestat: shown as newer" 1 "$(grep -c 'note        newer than the source tree (6.1)' "$T/cs.txt")"
else
	skip "newer syscall cachestat" "the running kernel has no cachestat (older than 6.5) or no perl"
fi

# An edited footprint: kexec_load failing only with ENOSYS (a probe), futex_waitv with some ENOSYS among other
# results (not a probe), and a row from beyond the tree's table.
"$KF" record -b ptrace -F json --report /dev/null -o "$T/base.json" -- true >/dev/null 2>&1
jedit "$T/base.json" "$T/edit.json" '
d["syscalls"] += [
    {"name": "kexec_load", "abi": "x86_64", "nr": 246, "calls": 4, "errors": 4, "errnos": {"ENOSYS": 4},
     "time_s": 0.0, "class": "System"},
    {"name": "futex_waitv", "abi": "x86_64", "nr": 449, "calls": 3, "errors": 3, "errnos": {"ENOSYS": 1, "EINVAL": 2},
     "time_s": 0.0, "class": "Futex"},
    {"name": "frobnicate", "abi": "x86_64", "nr": 999, "calls": 1, "errors": 0, "errnos": {}, "time_s": 0.0,
     "class": "Not implemented"},
]
'
"$KF" map -F json "$T/edit.json" >"$T/edit.map" 2>"$T/edit.err"
eq "edited footprint: exit 0" 0 $?
eq "kexec_load all ENOSYS: probe" "True False 4" "$(row "$T/edit.map" kexec_load "'%s %s %s' % (r['probe'], r['required'], r['enosys'])")"
eq "futex_waitv some ENOSYS: required" "False True" "$(row "$T/edit.map" futex_waitv "'%s %s' % (r['probe'], r['required'])")"
eq "KEXEC not needed, probed by kexec_load" "[] ['kexec_load']" \
	"$(jget "$T/edit.map" "'%s %s' % [(c['needed_by'], c['probed_by']) for c in d['configs'] if c['name'] == 'KEXEC'][0]")"
eq "nr 999: newer than the source tree" "newer than the source tree (6.1)" "$(row "$T/edit.map" frobnicate "r['note']")"
"$KF" map -F kconfig "$T/edit.json" >"$T/edit.kconfig"
eq "kconfig: no CONFIG_KEXEC=y for a probe" 0 "$(grep -c '^CONFIG_KEXEC=' "$T/edit.kconfig")"
eq "kconfig: KEXEC commented: only probes need it" 1 "$(grep -c '^# KEXEC: only probes need it: kexec_load' "$T/edit.kconfig")"
eq "kconfig: frobnicate said to be newer" 1 "$(grep -c '^# frobnicate: newer than the source tree (6.1), not required' "$T/edit.kconfig")"
