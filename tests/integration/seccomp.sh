#!/bin/sh
# kfootprint seccomp on real footprints: what the profile allows, denies and names as architectures, its
# validity against the OCI runtime-spec schema Debian ships, and one clear line for each bad input.
# seccomp_runc.sh runs a profile under runc.
. "$(dirname "$0")/../lib.sh"

SCHEMA=/usr/share/gocode/src/github.com/opencontainers/runtime-spec/schema
# validate FILE: the profile as the linux.seccomp of a whole `runc spec` config, against config-schema.json.
validate() {
	python3 - "$1" "$SCHEMA" "$T/config.json" <<'EOF'
import json, sys, jsonschema
prof, schema_dir, spec = sys.argv[1:]
schema = json.load(open(schema_dir + "/config-schema.json"))
config = json.load(open(spec))
config["linux"]["seccomp"] = json.load(open(prof))
resolver = jsonschema.RefResolver("file://" + schema_dir + "/", schema)
jsonschema.Draft4Validator(schema, resolver=resolver).validate(config)
EOF
}
# names FILE ACTION: the names of the profile's rule with that action, one a line, sorted
names() { jget "$1" "'\n'.join(sorted(n for r in d['syscalls'] if r['action'] == '$2' for n in r['names']))"; }
# fp_names FILE: the syscall names of a footprint that did not only fail with ENOSYS
fp_names() {
	jget "$1" "'\n'.join(sorted(set(s['name'] for s in d['syscalls'] if list(s['errnos']) != ['ENOSYS'] or s['errors'] < s['calls'])))"
}
# one_line NAME CMD...: exit status 1 and exactly one line on stderr, "kfootprint: ..."; prints it for more checks
one_line() {
	name=$1; shift
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ "$rc" -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^kfootprint: ' "$T/err" && [ ! -s "$T/out" ]; then
		ok "$name"
	else
		not_ok "$name: status $rc, stderr: $(head -c 400 "$T/err"), stdout: $(head -c 100 "$T/out")"
	fi
}

(cd "$T" && runc spec) || not_ok "runc spec"
"$KF" record -b ptrace -o "$T/ls.json" -- ls / >/dev/null 2>"$T/rec.err" || not_ok "record ls: $(cat "$T/rec.err")"
check "seccomp ls" sh -c "'$KF' seccomp '$T/ls.json' >'$T/ls.prof'"
eq "default action" "SCMP_ACT_ERRNO 38" "$(jget "$T/ls.prof" "d['defaultAction'], d['defaultErrnoRet']" | tr -d "(),'")"
eq "architectures: the one ABI used" "['SCMP_ARCH_X86_64']" "$(jget "$T/ls.prof" "d['architectures']")"
missing=$(fp_names "$T/ls.json" | comm -23 - "$(names "$T/ls.prof" SCMP_ACT_ALLOW >"$T/allow"; echo "$T/allow")")
eq "every call of the footprint allowed" "" "$missing"
eq "the runtime's exec allowed" "execve" "$(grep -x execve "$T/allow")"
check "schema: ls profile" validate "$T/ls.prof"

# --no-runtime: exactly the footprint's calls
"$KF" seccomp --no-runtime "$T/ls.json" >"$T/bare.prof"
eq "--no-runtime: exactly the footprint's calls" "$(fp_names "$T/ls.json")" "$(names "$T/bare.prof" SCMP_ACT_ALLOW)"
eq "runtime set adds fstatfs (runc's init checks /proc)" "fstatfs" "$(names "$T/bare.prof" SCMP_ACT_ALLOW | comm -13 - "$T/allow" | grep -x fstatfs)"

# -o: the same bytes as standard output, written atomically
check "-o" "$KF" seccomp -o "$T/ls.out" "$T/ls.json"
check "-o writes what stdout gets" cmp "$T/ls.out" "$T/ls.prof"

# --default-errno EPERM
"$KF" seccomp --default-errno EPERM "$T/ls.json" >"$T/eperm.prof"
eq "--default-errno EPERM" "1" "$(jget "$T/eperm.prof" "d['defaultErrnoRet']")"

# ENOSYS probes (wl_enosys: uselib, compiled out of this kernel, and number 400, which has no name)
"$KF" record -b ptrace -o "$T/enosys.json" -- "$WL/wl_enosys" 2>/dev/null
eq "footprint: uselib only failed with ENOSYS" "['ENOSYS']" \
	"$(jget "$T/enosys.json" "[list(s['errnos']) for s in d['syscalls'] if s['name'] == 'uselib'][0]")"
"$KF" seccomp "$T/enosys.json" >"$T/enosys.prof" 2>"$T/enosys.err"
eq "probe not allowed" "" "$(names "$T/enosys.prof" SCMP_ACT_ALLOW | grep -x uselib)"
eq "ENOSYS default: no rule needed for probes" "SCMP_ACT_ALLOW" "$(jget "$T/enosys.prof" "' '.join(r['action'] for r in d['syscalls'])")"
eq "ENOSYS default: an unnamed probe is not worth a warning" "" "$(cat "$T/enosys.err")"
"$KF" seccomp --default-errno EPERM "$T/enosys.json" >"$T/enosys-eperm.prof" 2>"$T/enosys.err"
eq "EPERM default: probes keep ENOSYS" "uselib 38" \
	"$(jget "$T/enosys-eperm.prof" "' '.join(' '.join(r['names']) + ' ' + str(r['errnoRet']) for r in d['syscalls'] if r['action'] == 'SCMP_ACT_ERRNO')")"
eq "EPERM default: an unnamed number is said" \
	"kfootprint: warning: '$T/enosys.json': x86_64 syscall 400 has no name a profile can hold: it fails with the default errno" \
	"$(cat "$T/enosys.err")"
check "schema: probe rule with errnoRet" validate "$T/enosys-eperm.prof"

# two ABIs in one process: both architectures, names of both
"$KF" record -b ptrace -o "$T/mix.json" -- "$WL/wl_abi_mix" 2>/dev/null
"$KF" seccomp "$T/mix.json" >"$T/mix.prof"
eq "architectures of an ABI mix" "['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86']" "$(jget "$T/mix.prof" "d['architectures']")"
eq "i386 getpid and x86_64 getppid allowed" "getpid getppid" "$(names "$T/mix.prof" SCMP_ACT_ALLOW | grep -x 'getp\?pid' | tr '\n' ' ' | sed 's/ $//')"
check "schema: ABI mix" validate "$T/mix.prof"

# the schema check can fail
jedit "$T/ls.prof" "$T/bogus.prof" "d['syscalls'][0]['action'] = 'SCMP_ACT_MAYBE'"
if validate "$T/bogus.prof" >/dev/null 2>&1; then not_ok "schema refuses an unknown action"; else ok "schema refuses an unknown action"; fi

# bad inputs: one line each, status 1
python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
d['syscalls']=[]
for p in d['processes']: p['syscalls']={}
json.dump(d,open(sys.argv[2],'w'))
d=json.load(open(sys.argv[1])); d['syscalls'][0]['abi']='mips'; json.dump(d,open(sys.argv[3],'w'))
d=json.load(open(sys.argv[1])); d['syscalls'].append({'name':'getppid','abi':'aarch64','nr':173,'calls':1}); json.dump(d,open(sys.argv[4],'w'))
" "$T/ls.json" "$T/empty.json" "$T/mips.json" "$T/arm.json"
one_line "empty footprint" "$KF" seccomp "$T/empty.json"
eq "empty footprint: why" "kfootprint: '$T/empty.json': no syscalls recorded: a profile from it would deny everything" "$(cat "$T/err")"
one_line "an ABI seccomp cannot name" "$KF" seccomp "$T/mips.json"
check "... says which" grep -q "unknown ABI 'mips'" "$T/err"
one_line "ABIs of two machines" "$KF" seccomp "$T/arm.json"
check "... says which" grep -q "different machines (x86_64 and aarch64)" "$T/err"
: >"$T/zero.json"
one_line "an empty file" "$KF" seccomp "$T/zero.json"
one_line "not a footprint" "$KF" seccomp /etc/passwd
echo '[1, 2]' >"$T/array.json"
one_line "a JSON array" "$KF" seccomp "$T/array.json"
one_line "no such file" "$KF" seccomp "$T/nonexistent.json"
one_line "no operand" "$KF" seccomp
one_line "two operands" "$KF" seccomp "$T/ls.json" "$T/ls.json"
one_line "--default-errno EINVAL" "$KF" seccomp --default-errno EINVAL "$T/ls.json"
one_line "-o into a missing directory" "$KF" seccomp -o "$T/no/such/dir/p.json" "$T/ls.json"
one_line "-o: a bad footprint leaves no file" "$KF" seccomp -o "$T/left.json" "$T/empty.json"
eq "... nothing left behind" "" "$(ls "$T" | grep '^left')"

# under ASan/UBSan (make check builds it): every profile above and every bad input, the same bytes and messages
if [ -n "$KF_ASAN_BIN" ]; then
	for args in "$T/ls.json" "--no-runtime $T/ls.json" "--default-errno EPERM $T/enosys.json" "$T/mix.json"; do
		# shellcheck disable=SC2086
		"$KF" seccomp $args >"$T/plain.out" 2>"$T/plain.err"; rc1=$?
		# shellcheck disable=SC2086
		"$KF_ASAN_BIN" seccomp $args >"$T/asan.out" 2>"$T/asan.err"; rc2=$?
		if [ "$rc1" = "$rc2" ] && cmp -s "$T/plain.out" "$T/asan.out" && cmp -s "$T/plain.err" "$T/asan.err"; then
			ok "asan: seccomp ${args#"$T"/}"
		else
			not_ok "asan: seccomp $args: status $rc2, $(head -c 400 "$T/asan.err")"
		fi
	done
	for f in empty mips arm zero array nonexistent; do
		one_line "asan: bad input $f" "$KF_ASAN_BIN" seccomp "$T/$f.json"
	done
else
	skip "asan: seccomp" "no ASan build given (KF_ASAN, as make check sets it)"
fi

# the output rule (docs/output.md, "Output files"): -o is checked before the input is read, and a profile of a footprint
# others cannot read is not readable by them either
"$KF" seccomp -o "$T/no/dir/p.json" "$T/nonexistent.json" 2>"$T/err"
check "-o checked before the input" grep -q "'$T/no/dir/p.json'" "$T/err"
cp "$T/ls.json" "$T/private.json" && chmod 600 "$T/private.json"
(umask 022 && "$KF" seccomp -o "$T/private.prof" "$T/private.json")
eq "profile of a 0600 footprint: 0600" "600" "$(stat -c %a "$T/private.prof")"
chmod 644 "$T/ls.json"
(umask 022 && "$KF" seccomp -o "$T/public.prof" "$T/ls.json")
eq "profile of a readable footprint: 644" "644" "$(stat -c %a "$T/public.prof")"
