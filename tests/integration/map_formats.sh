#!/bin/sh
# The four map formats on a real recorded footprint: json (parsed), text, rst (docutils, warnings are errors),
# kconfig (parsed back, and merged by the kernel's own scripts/kconfig/merge_config.sh when the linux-source-6.1
# tarball is installed).
. "$(dirname "$0")/../lib.sh"

"$KF" record -b ptrace -F json --report /dev/null -o "$T/fp.json" -- sh -c 'ls / | wc -l' >/dev/null 2>"$T/rec.err"
eq "record a footprint" 0 $?
for f in $(kf_names map_formats); do
	[ "$f" = lcov ] && continue # a footprint's kernel lines with --vmlinux: tests/integration/kernel_lines.sh
	"$KF" map -F "$f" -o "$T/map.$f" "$T/fp.json" >"$T/$f.out" 2>"$T/$f.err"
	eq "$f: exit 0" 0 $?
	eq "$f: nothing on stdout with -o" "" "$(cat "$T/$f.out")"
	eq "$f: nothing on stderr" "" "$(cat "$T/$f.err")"
done

# json: every syscall of the footprint once, with its calls; the roll-up's needed_by are required rows
eq "json: schema" "kfootprint-map/1" "$(jget "$T/map.json" "d['schema']")"
eq "json: the footprint's x86_64 syscalls, same counts" \
	"$(jget "$T/fp.json" "sorted((s['name'], s['calls']) for s in d['syscalls'] if s['abi'] == 'x86_64')")" \
	"$(jget "$T/map.json" "sorted((s['name'], s['calls']) for s in d['syscalls'])")"
eq "json: needed_by only names required rows (syscalls, and what their calls reached)" "True" \
	"$(jget "$T/map.json" "all(n in {r['name'] for r in d['syscalls'] if r['required']} | {r['kind'] + ' ' + r['value'] for r in d['reached'] if r['required']} for c in d['configs'] for n in c['needed_by'])")"
eq "json: every option on a required row's path is rolled up" "True" \
	"$(jget "$T/map.json" "all(o.lstrip('!') in {c['name'] for c in d['configs']} for r in d['syscalls'] if r['required'] for o in r['kernel']['configs'] if o.replace('_', '').replace('!', '').isalnum())")"
eq "json: execve is in fs/exec.c" "fs/exec.c" "$(jget "$T/map.json" "[r['kernel']['file'] for r in d['syscalls'] if r['name'] == 'execve'][0]")"
eq "json: execve maintained by EXEC & BINFMT API" "True" \
	"$(jget "$T/map.json" "any(m.startswith('EXEC & BINFMT API') for r in d['syscalls'] if r['name'] == 'execve' for m in r['kernel']['maintainers'])")"

# text: one block per syscall, headed by its name and its call count
eq "text: a block per syscall" "$(jget "$T/map.json" "len(d['syscalls'])")" "$(grep -cE '^[a-z_0-9]+  calls [0-9]+' "$T/map.text")"
eq "text: execve's calls" "$(jget "$T/fp.json" "[s['calls'] for s in d['syscalls'] if s['name'] == 'execve'][0]")" \
	"$(sed -n 's/^execve  calls \([0-9]*\).*/\1/p' "$T/map.text")"
eq "text: roll-up lists CONFIG_MMU" 1 "$(grep -c '^CONFIG_MMU  running:' "$T/map.text")"
# text: the answer first: the needed options with their running values and the syscalls needing them, as the JSON
eq "text: the answer comes before the first syscall block" "needs" \
	"$(sed -n '/^needs [0-9]* option/{s/ .*//p;q}; /^[a-z_0-9]*  calls [0-9]/{s/.*/a block came first/p;q}' "$T/map.text")"
eq "text: the answer's options, values and needing syscalls are the JSON's" \
	"$(jget "$T/map.json" "'|'.join('CONFIG_%s %s %s' % (c['name'], c['running'] or 'unknown', ', '.join(c['needed_by'])) for c in d['configs'] if c['needed_by'])")" \
	"$(sed -n '/^needs /,/^$/{s/^  \(CONFIG_[A-Z0-9_]*\) *\([a-z]*\) *\(.*\)/\1 \2 \3/p}' "$T/map.text" | sed 's/ absent / n /' | paste -sd'|')"
eq "text: the answer counts the needed options" "$(jget "$T/map.json" "len([c for c in d['configs'] if c['needed_by']])")" \
	"$(sed -n 's/^needs \([0-9]*\) option.*/\1/p' "$T/map.text")"

# rst: valid for docutils, with warnings as errors; the tables have a row per syscall, per refinement (when the
# footprint has any) and per option
rst=$(python3 - "$T/map.rst" <<'PY' 2>&1
import sys
import docutils.core
src = open(sys.argv[1]).read()
doc = docutils.core.publish_doctree(src, settings_overrides={"halt_level": 2, "report_level": 1})
tables = [t for t in doc.traverse() if t.tagname == "table"]
rows = [len([r for r in t.traverse() if r.tagname == "row"]) - 1 for t in tables]
print(" ".join(map(str, rows)))
PY
)
eq "rst: docutils parses it; rows of the tables" \
	"$(jget "$T/map.json" "' '.join(str(len(d[k])) for k in ('syscalls', 'reached', 'configs') if d[k] or k != 'reached')")" "$rst"

# kconfig: parsed back
kc=$T/map.kconfig
eq "kconfig: only comments, blank lines and CONFIG_X=y" "" "$(grep -vE '^(#.*|CONFIG_[A-Z0-9_]+=y|)$' "$kc")"
eq "kconfig: no comment merge_config.sh would read as 'is not set', but for one" 0 \
	"$(grep '^# CONFIG_' "$kc" | grep -vcE '^# CONFIG_[A-Z0-9_]+ is not set$')"
# the blocks of the items: "# X: needed by a, b", optional indented notes, then CONFIG_X=y; the closure's: "# X: for Y"
needed() { awk '/^# [A-Z0-9_]+: needed by / { keep = 1 } /^$/ { keep = 0 } keep && /^CONFIG_/' "$kc"; }
eq "kconfig: the CONFIG lines of the items are the needed options the running kernel has" \
	"$(jget "$T/map.json" "' '.join(sorted(c['name'] for c in d['configs'] if c['needed_by'] and c['running'] != 'n'))")" \
	"$(needed | sed -n 's/^CONFIG_\([A-Z0-9_]*\)=y$/\1/p' | sort | tr '\n' ' ' | sed 's/ $//')"
bad=$(awk '/^CONFIG_/ { n = substr($0, 8); sub(/=y$/, "", n); if (head !~ "^# " n ": (needed by [a-z]|for [A-Z0-9_]+ \\()") print n }
	/^# [A-Z0-9_]+: / { head = $0 } /^$/ { head = "" }' "$kc")
eq "kconfig: each CONFIG line is under a comment naming its syscalls, or the option that needs it" "" "$bad"
eq "kconfig: the closure's lines come after the items'" 1 "$(grep -c '^# what the options above need on allnoconfig' "$kc")"
eq "kconfig: MMU needed by mmap" 1 "$(grep -c '^# MMU: needed by .*mmap' "$kc")"

tarball=/usr/src/linux-source-6.1.tar.xz
if [ -f "$tarball" ] && [ -r /proc/config.gz ]; then
	# the kernel's own merge: base = the running configuration, fragment = ours; -m merges without make
	tar -xJf "$tarball" -C "$T" linux-source-6.1/scripts/kconfig/merge_config.sh
	zcat /proc/config.gz >"$T/base.config"
	mkdir -p "$T/out"
	(cd "$T" && sh linux-source-6.1/scripts/kconfig/merge_config.sh -m -O out base.config map.kconfig) >"$T/merge.out" 2>&1
	eq "merge_config.sh -m: exit 0" 0 $?
	bad=$(python3 - "$T/base.config" "$T/out/.config" "$kc" <<'PY'
import re, sys
def load(p):
    v = {}
    for l in open(p):
        m = re.match(r"^(CONFIG_\w+)=(.*)$", l) or re.match(r"^# (CONFIG_\w+) is not set$", l)
        if m:
            v[m.group(1)] = m.group(2) if m.lastindex == 2 else "n"
    return v
base, merged, frag = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
bad = [k for k in frag if merged.get(k) != "y"]
bad += [k for k in base if k not in frag and merged.get(k) != base[k]]
print(" ".join(bad))
PY
)
	eq "merge_config.sh: fragment set, nothing else changed" "" "$bad"
else
	skip "merge_config.sh -m" "$tarball (linux-source-6.1) or /proc/config.gz missing"
fi

# rst of the whole tables: every real prompt, depends and section name of 6.1 through docutils
for abi in x86_64 i386; do
	"$KF" map -F rst --all-syscalls --abi "$abi" >"$T/all-$abi.rst"
	out=$(python3 -c "
import sys, docutils.core
docutils.core.publish_doctree(open(sys.argv[1]).read(), settings_overrides={'halt_level': 2, 'report_level': 1})
print('valid')" "$T/all-$abi.rst" 2>&1 | tail -n 3)
	eq "rst: the whole $abi table is valid" "valid" "$out"
done

# a workload whose argv holds a newline and markup: the header stays one line, the rst stays valid
"$KF" record -b ptrace -F json --report /dev/null -o "$T/odd.json" -- sh -c 'true' 'a
*b_`' >/dev/null 2>&1
"$KF" map -F rst "$T/odd.json" >"$T/odd.rst"
out=$(python3 -c "
import sys, docutils.core
docutils.core.publish_doctree(open(sys.argv[1]).read(), settings_overrides={'halt_level': 2, 'report_level': 1})
print('valid')" "$T/odd.rst" 2>&1 | tail -n 3)
eq "rst: odd argv, still valid" "valid" "$out"
eq "text: odd argv, header on one line" 1 "$("$KF" map "$T/odd.json" | grep -c "^kfootprint map of footprint '$T/odd.json' (sh -c true a \*b_\`), x86_64$")"
