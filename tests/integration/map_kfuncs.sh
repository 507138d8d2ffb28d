#!/bin/sh
# kfootprint map of a footprint's kernel functions: duplicate static names in a fixture tree (tests/fixtures/map-tree
# plus fs/dup_*.c made here) resolved by DWARF (an ELF built here with gcc -g from those files) and by symbol order
# (its nm listing as a kallsyms), counted ambiguous without either; then the built-in database and the real
# Debian 6.1 tree: eventfd_write -> fs/eventfd.c -> EVENTFD, unix_stream_sendmsg -> net/unix/af_unix.c -> UNIX,
# and m_show (fs/namespace.c and kernel/module/procfs.c in 6.1) resolved by the order of this host's kallsyms.
# A real 6.1 kernel's kallsyms and record --kernel-functions --map there: in the guest suite's one boot
# (tests/guest/t/kfuncs_paths.sh).
. "$(dirname "$0")/../lib.sh"

export XDG_CACHE_HOME="$T/cache" # the index caches of this test only
tree=$T/tree
cp -r "$KF_TOP/tests/fixtures/map-tree" "$tree"
printf 'obj-y += dup_a.o dup_b.o\n' >>"$tree/fs/Makefile"
# dup_a.c and dup_b.c both define the statics dup_show, dup_open and dup_both; dup_c.c defines dup_open too but
# is not built into the ELF (as a driver the configuration leaves out). In the ELF, dup_b.c's dup_show is
# inlined everywhere (no code of its own): only dup_a.c's can be what a tracer saw under that name.
cat >"$tree/fs/dup_a.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#define noinline __attribute__((noinline))
int alpha_one(int x);
int alpha_two(int x);

int alpha_one(int x)
{
	return x + 1;
}

static noinline int dup_show(int x)
{
	return x * 3 + alpha_one(x);
}

static noinline int dup_open(int x)
{
	return x * 5;
}

static noinline int dup_both(int x)
{
	return x * 7;
}

int alpha_two(int x)
{
	return dup_show(x) + dup_open(x) + dup_both(x);
}
EOF
cat >"$tree/fs/dup_b.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#define noinline __attribute__((noinline))
#define __always_inline inline __attribute__((always_inline))
int beta_one(int x);
int beta_two(int x);

int beta_one(int x)
{
	return x - 1;
}

static __always_inline int dup_show(int x)
{
	return x * 11;
}

static noinline int dup_both(int x)
{
	return x * 13;
}

int beta_two(int x)
{
	return dup_show(x) + dup_both(x) + beta_one(x);
}
EOF
cat >"$tree/fs/dup_c.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
static int dup_open(int x)
{
	return x;
}
EOF
printf 'int alpha_two(int);\nint beta_two(int);\nint main(int c, char **v)\n{\n\treturn alpha_two(c) + beta_two(c);\n}\n' \
	>"$T/main.c"
(cd "$tree" && gcc -g -O2 -o "$T/vmlinux" fs/dup_a.c fs/dup_b.c "$T/main.c") || not_ok "map_kfuncs: gcc cannot build the test ELF"
# the ELF's symbol order, as System.map and kallsyms write it
nm -n "$T/vmlinux" >"$T/kallsyms"

# a footprint with kernel functions (the spec's JSON), built on a real recording
"$KF" record -q -o "$T/base.json" -- true
jedit "$T/base.json" "$T/kf.json" '
d["kernel_functions"] = {"method": "function_graph", "exhaustive": True, "lost": 0, "functions": [
    {"name": n, "hits": h} for n, h in [("alpha_one", 4), ("dup_show.isra.0", 3), ("dup_open", 2), ("dup_both", 1),
                                        ("eventfd_write", 3), ("unix_stream_sendmsg", 4), ("m_show", 1),
                                        ("carrier_show", 1), ("no_such_function_xyz", 1)]]}
'
fn() { jget "$1" "[(lambda k: $3)(f['kernel']) for f in d['kernel_functions']['functions'] if f['name'] == '$2'][0]"; }
sum() { jget "$1" "' '.join('%s=%s' % kv for kv in sorted(d['kernel_functions']['summary']['resolved'].items()))"; }

# 1. the fixture tree, no DWARF, no symbol order: the three duplicates are ambiguous, with their candidates
"$KF" map --kernel-src "$tree" --no-running -F json "$T/kf.json" >"$T/none.json" 2>"$T/none.err"
eq "fixture: exit 0, nothing on stderr" "0 " "$? $(cat "$T/none.err")"
eq "fixture: counts without DWARF or symbol order" \
	"ambiguous=3 dwarf=0 kallsyms=0 unique=1 unknown=5" "$(sum "$T/none.json")"
eq "fixture: dup_show's candidates" "['fs/dup_a.c:11', 'fs/dup_b.c:12']" "$(fn "$T/none.json" dup_show.isra.0 "k['candidates']")"
eq "fixture: alpha_one, unique, fs/dup_a.c:6, built by fs/Makefile:4" "unique fs/dup_a.c 6 fs/Makefile:4" \
	"$(fn "$T/none.json" alpha_one "' '.join(str(k[x]) for x in ('resolved_by', 'file', 'line', 'makefile'))")"
"$KF" map --kernel-src "$tree" --no-running "$T/kf.json" >"$T/none.txt"
check "fixture text: the counts line" grep -q '^9 functions: 1 with one definition, 0 resolved by DWARF, 0 by symbol order, 3 ambiguous, 5 not in the source tree$' "$T/none.txt"

# 2. DWARF: dup_show has code only in dup_a.c, dup_open only dup_a.c's is built; dup_both is built twice
"$KF" map --kernel-src "$tree" --no-running --vmlinux "$T/vmlinux" -F json "$T/kf.json" >"$T/dw.json"
eq "dwarf: dup_show -> fs/dup_a.c:11 (dup_b.c's is inlined only)" "dwarf fs/dup_a.c 11" \
	"$(fn "$T/dw.json" dup_show.isra.0 "' '.join(str(k[x]) for x in ('resolved_by', 'file', 'line'))")"
eq "dwarf: dup_open -> fs/dup_a.c (dup_c.c is not built)" "dwarf fs/dup_a.c" \
	"$(fn "$T/dw.json" dup_open "k['resolved_by'] + ' ' + k['file']")"
eq "dwarf: dup_both has code in both: ambiguous, said" "ambiguous built 2 times with code of its own (DWARF)" \
	"$(fn "$T/dw.json" dup_both "k['resolved_by'] + ' ' + k['note']")"
eq "dwarf: the vmlinux is named" "$T/vmlinux" "$(jget "$T/dw.json" "d['kernel_functions']['summary']['vmlinux']")"
strip -o "$T/stripped" "$T/vmlinux"
"$KF" map --kernel-src "$tree" --no-running --vmlinux "$T/stripped" -F json "$T/kf.json" >"$T/st.json"
eq "dwarf: a stripped file is said, nothing resolved by it" "True 0" \
	"$(jget "$T/st.json" "'%s %s' % ('stripped' in d['kernel_functions']['summary']['vmlinux_note'] or 'DWARF' in d['kernel_functions']['summary']['vmlinux_note'], d['kernel_functions']['summary']['resolved']['dwarf'])")"

# 3. symbol order: dup_show's out-of-line copy sits among dup_a.c's functions; dup_both is listed twice
"$KF" map --kernel-src "$tree" --kallsyms "$T/kallsyms" -F json "$T/kf.json" >"$T/ks.json"
eq "kallsyms: dup_show -> fs/dup_a.c" "kallsyms fs/dup_a.c" "$(fn "$T/ks.json" dup_show.isra.0 "k['resolved_by'] + ' ' + k['file']")"
eq "kallsyms: dup_open -> fs/dup_a.c" "kallsyms fs/dup_a.c" "$(fn "$T/ks.json" dup_open "k['resolved_by'] + ' ' + k['file']")"
eq "kallsyms: dup_both built twice: ambiguous" "ambiguous" "$(fn "$T/ks.json" dup_both "k['resolved_by']")"
eq "kallsyms: roll-up per directory" "fs 3 9" \
	"$(jget "$T/ks.json" "' '.join('%s %s %s' % (c['directory'], c['functions'], c['hits']) for c in d['kernel_functions']['summary']['directories'])")"
"$KF" map --kernel-src "$tree" --kallsyms /nonexistent "$T/kf.json" >"$T/bad.txt" 2>&1
eq "kallsyms: a missing file is said in the map, exit 0" "0 1" "$? $(grep -c "^symbol order:   not used: --kallsyms '/nonexistent'" "$T/bad.txt")"

# 4. the built-in database (Linux 6.1): the known paths, the options roll-up, -F kconfig
"$KF" map --no-running -F json "$T/kf.json" >"$T/bi.json"
eq "built-in: eventfd_write -> fs/eventfd.c -> EVENTFD" "fs/eventfd.c fs/eventfd.o ['EVENTFD']" \
	"$(fn "$T/bi.json" eventfd_write "' '.join(str(k[x]) for x in ('file', 'object', 'configs'))")"
eq "built-in: unix_stream_sendmsg -> net/unix/af_unix.c -> UNIX" "net/unix/af_unix.c net/unix/unix.o ['UNIX', 'NET']" \
	"$(fn "$T/bi.json" unix_stream_sendmsg "' '.join(str(k[x]) for x in ('file', 'object', 'configs'))")"
eq "built-in: m_show is ambiguous without a symbol order" "ambiguous ['fs/namespace.c:1402', 'kernel/module/procfs.c:65']" \
	"$(fn "$T/bi.json" m_show "k['resolved_by'] + ' ' + str(k['candidates'])")"
"$KF" map --no-running -F kconfig "$T/kf.json" >"$T/bi.config"
check "built-in kconfig: CONFIG_EVENTFD=y and CONFIG_UNIX=y from the functions" \
	sh -c "grep -q '^# EVENTFD: 1 kernel function' '$T/bi.config' && grep -qx CONFIG_EVENTFD=y '$T/bi.config' && grep -qx CONFIG_UNIX=y '$T/bi.config'"
"$KF" map --no-running -F rst "$T/kf.json" >"$T/bi.rst"
check "built-in rst: a Kernel functions part docutils accepts" sh -c \
	"grep -q '^Kernel functions per option' '$T/bi.rst' && python3 -c 'import docutils.core,sys; docutils.core.publish_string(open(sys.argv[1]).read(), writer_name=\"null\", settings_overrides={\"halt_level\": 2})' '$T/bi.rst'"

# 5. this host's kallsyms (its kernel is not 6.1: the order is a guide, and the map says so). m_show: this
# kernel's only copy is fs/namespace.c's when it is built without modules; carrier_show: net/core/net-sysfs.c
if [ "$(grep -c ' t m_show$' /proc/kallsyms 2>/dev/null)" = 1 ] && [ "$(awk 'NR==1 { print $1 }' /proc/kallsyms)" != 0000000000000000 ]; then
	cp /proc/kallsyms "$T/host.kallsyms"
	"$KF" map --kallsyms "$T/host.kallsyms" -F json "$T/kf.json" >"$T/host.json"
	eq "host kallsyms: m_show -> fs/namespace.c" "kallsyms fs/namespace.c" "$(fn "$T/host.json" m_show "k['resolved_by'] + ' ' + k['file']")"
	eq "host kallsyms: carrier_show -> net/core/net-sysfs.c" "kallsyms net/core/net-sysfs.c" \
		"$(fn "$T/host.json" carrier_show "k['resolved_by'] + ' ' + k['file']")"
	"$KF" map -F json "$T/kf.json" >"$T/run.json"
	case $(uname -r) in
	6.1.*) eq "running kallsyms: no caveat on a 6.1 kernel" "None" "$(jget "$T/run.json" "d['kernel_functions']['summary']['kallsyms_note']")" ;;
	*) check "running kallsyms: the version caveat" grep -q "is not the tree's 6.1.192" "$T/run.json" ;;
	esac
else
	skip "host kallsyms: m_show" "this kernel's /proc/kallsyms has no single m_show with an address (modules built in, or kptr_restrict)"
fi

# 6. the real 6.1 tree (ksrc_tree: extracted once into the shared cache): the same answers from --kernel-src
if src=$(ksrc_tree); then
	"$KF" map -v --kernel-src "$src" --no-running -F json "$T/kf.json" >"$T/real.json" 2>"$T/real.err"
	eq "real tree: eventfd_write -> fs/eventfd.c:272 -> EVENTFD" "fs/eventfd.c 272 ['EVENTFD']" \
		"$(fn "$T/real.json" eventfd_write "' '.join(str(k[x]) for x in ('file', 'line', 'configs'))")"
	eq "real tree: unix_stream_sendmsg -> net/unix/af_unix.c -> UNIX" "net/unix/af_unix.c ['UNIX', 'NET']" \
		"$(fn "$T/real.json" unix_stream_sendmsg "k['file'] + ' ' + str(k['configs'])")"
	eq "real tree: m_show ambiguous without a symbol order" "ambiguous" "$(fn "$T/real.json" m_show "k['resolved_by']")"
	grep 'function definitions' "$T/real.err" | sed 's/^/# /'
else
	skip "real tree: eventfd_write" "no linux-source-6.1 tree ($KSRC_TARBALL missing: apt-get install linux-source-6.1)"
fi

# 7. this host: record --kernel-functions --map (sampled stacks where the kernel refuses function tracing): every
# function of the saved footprint is mapped, and the map says how it was recorded
if bpf_or_skip "host record --kernel-functions --map"; then
	"$KF" record -q --kernel-functions --map --map-output "$T/hrec.map" --report /dev/null -o "$T/hrec.json" -- \
		"$WL/wl_kpaths" eventfd 20000 2>"$T/hrec.err"
	eq "host record: exit 0" 0 $?
	eq "host record: every function of the saved footprint has its kernel object" "True" \
		"$(jget "$T/hrec.json" "len(d['kernel_functions']['functions']) > 0 and all('kernel' in f for f in d['kernel_functions']['functions'])")"
	eq "host record: the roll-up counts every function" "True" \
		"$(jget "$T/hrec.json" "sum(d['kernel_functions_map']['resolved'].values()) == len(d['kernel_functions']['functions'])")"
	method=$(jget "$T/hrec.json" "d['kernel_functions']['method']")
	case $method in
	sampled) check "host record: the map says sampled, not exhaustive" grep -q '^Kernel functions (sampled, not exhaustive' "$T/hrec.map" ;;
	*) check "host record: the map says $method, exhaustive" grep -q "^Kernel functions ($method, exhaustive" "$T/hrec.map" ;;
	esac
fi
