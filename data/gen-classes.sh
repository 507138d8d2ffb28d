#!/bin/sh
# Gives every syscall name of data/syscalls/*.tsv a subsystem class, derived from WHERE the kernel implements
# it, and writes data/syscalls/classes.tsv ("name<TAB>CLASS<TAB>source"; CLASS is an enum kf_class token
# without its KF_CLASS_ prefix; source is file:line of the definition in the scanned tree, "linux-X.Y:file"
# for rows of newer.tsv, or "-" for calls the kernel does not implement). Run on Debian's linux-source-6.1:
#   sh data/gen-classes.sh /var/tmp/kf/linux-source-6.1 data/syscalls
#
# How: every (COMPAT_)SYSCALL_DEFINEn in the tree is a candidate definition; each table row's entry point
# (sys_X, compat_sys_X) names the definition X it calls; the definition's file picks the class through the
# ordered PATH RULES below; the NAME OVERRIDES fix the few calls whose file holds several subsystems (kernel/sys.c
# is the big one). The script fails when a row resolves to nothing, to two classes, or to a file no rule knows,
# so a newer tree cannot silently produce "unknown".
set -eu
[ $# -eq 2 ] || { echo "usage: gen-classes.sh KERNEL_SRC SYSCALLS_DIR" >&2; exit 2; }
src=$1 dir=$2
[ -r "$src/Makefile" ] || { echo "gen-classes: '$src': not a kernel tree" >&2; exit 1; }
ver=$(awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3} END{print v"."p"."s}' "$src/Makefile")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# Ordered path rules: first prefix that matches the definition's file wins.
cat >"$t/paths" <<'EOF'
fs/aio.c			ASYNCIO		POSIX-style aio sits in fs/ but is asynchronous I/O, with io_uring
io_uring/			ASYNCIO
fs/				FS
mm/				MM
net/				NET
ipc/				IPC
block/				BLOCK		ioprio_get/ioprio_set: I/O scheduler priorities
security/			SECURITY	keys, landlock, LSM attributes
drivers/char/random.c		SYSTEM		getrandom: the kernel's entropy service
drivers/			SYSTEM
kernel/signal.c			SIGNAL
kernel/time/			TIME
kernel/futex/			FUTEX
kernel/sched/			SCHED		includes membarrier.c (built through build_utility.c)
kernel/rseq.c			SCHED		restartable sequences: notified on preemption and migration
kernel/capability.c		CAPABILITY
kernel/seccomp.c		SECURITY
kernel/module/			MODULE
kernel/events/			TRACE		perf_event_open
kernel/bpf/			TRACE
kernel/ptrace.c			TRACE
kernel/reboot.c			SYSTEM
kernel/kexec			SYSTEM		kexec.c, kexec_file.c
kernel/printk/			SYSTEM		syslog
kernel/acct.c			PROCESS		BSD process accounting
kernel/fork.c			PROCESS
kernel/exit.c			PROCESS
kernel/pid.c			PROCESS		pidfd_open, pidfd_getfd
kernel/sys.c			PROCESS		ids, rlimits, prctl; the exceptions are NAME OVERRIDES
kernel/groups.c			PROCESS		supplementary groups (credentials, like setuid)
kernel/uid16.c			PROCESS		16-bit uid calls of i386; chown16 & co. are overrides
kernel/nsproxy.c		PROCESS		setns
kernel/kcmp.c			PROCESS
kernel/exec_domain.c		PROCESS		personality
kernel/compat.c			PROCESS		compat-only wrappers; never chosen while a native definition exists
arch/x86/kernel/sys_x86_64.c	MM		mmap: a wrapper around ksys_mmap_pgoff() in mm/mmap.c
arch/arm64/kernel/sys.c		MM		mmap (as above); arm64_personality is an override
arch/x86/kernel/signal.c	SIGNAL
arch/x86/ia32/ia32_signal.c	SIGNAL
arch/arm64/kernel/signal	SIGNAL
arch/				ARCH		arch_prctl, iopl, ioperm, modify_ldt, *_thread_area, vm86
EOF

# Name overrides, by DEFINITION name (the X of SYSCALL_DEFINEn(X)), for files that hold several subsystems.
cat >"$t/names" <<'EOF'
newuname	SYSTEM		kernel/sys.c: uname reports the kernel, not the process
uname		SYSTEM		kernel/sys.c: old uname (i386 olduname)
olduname	SYSTEM		kernel/sys.c: oldest uname (i386 oldolduname)
sethostname	SYSTEM		kernel/sys.c: UTS name of the system
gethostname	SYSTEM		kernel/sys.c: UTS name of the system
setdomainname	SYSTEM		kernel/sys.c: UTS name of the system
sysinfo		SYSTEM		kernel/sys.c: system-wide memory, load and uptime
umask		FS		kernel/sys.c: the file-creation mask, used only by the VFS
setpriority	SCHED		kernel/sys.c: nice values are the scheduler's weights
getpriority	SCHED		kernel/sys.c: nice values are the scheduler's weights
getcpu		SCHED		kernel/sys.c: which CPU/node the scheduler put the task on
chown16		FS		kernel/uid16.c: file ownership, wraps ksys_fchownat()
lchown16	FS		kernel/uid16.c: file ownership, wraps ksys_fchownat()
fchown16	FS		kernel/uid16.c: file ownership, wraps ksys_fchown()
arm64_personality PROCESS	arch/arm64/kernel/sys.c: wraps ksys_personality()
ia32_mmap	MM		arch/x86/kernel/sys_ia32.c: wraps ksys_mmap_pgoff()
EOF

# Definitions without a file in the 6.1 tree: newer rows (see newer.tsv), from their upstream implementation
# file (Linux 6.18), classified with the same path rules. Format: definition name, file.
cat >"$t/newer" <<'EOF'
cachestat		mm/filemap.c
fchmodat2		fs/open.c
map_shadow_stack	arch/x86/kernel/shstk.c		MM	shadow-stack memory mapping (shares the mmap code path)
futex_wake		kernel/futex/syscalls.c
futex_wait		kernel/futex/syscalls.c
futex_requeue		kernel/futex/syscalls.c
statmount		fs/namespace.c
listmount		fs/namespace.c
lsm_get_self_attr	security/lsm_syscalls.c
lsm_set_self_attr	security/lsm_syscalls.c
lsm_list_modules	security/lsm_syscalls.c
mseal			mm/mseal.c
setxattrat		fs/xattr.c
getxattrat		fs/xattr.c
listxattrat		fs/xattr.c
removexattrat		fs/xattr.c
open_tree_attr		fs/namespace.c
file_getattr		fs/file_attr.c
file_setattr		fs/file_attr.c
uretprobe		arch/x86/kernel/uprobes.c	TRACE	return-probe trampoline of uprobes
uprobe			arch/x86/kernel/uprobes.c	TRACE	uprobe trampoline
EOF

# Every definition: file<TAB>line<TAB>kind (sys|compat)<TAB>name. drivers/char and drivers/pci are the only
# driver directories with syscalls (getrandom, pciconfig_*); arch/x86/um is user-mode Linux, not x86.
(cd "$src" && grep -rnE --include='*.c' '^[[:space:]]*(COMPAT_)?SYSCALL_DEFINE[0-6]\(' \
	fs mm kernel net ipc security io_uring block drivers/char drivers/pci arch/x86 arch/arm64) |
	grep -v '^arch/x86/um/' |
	sed -nE 's/^([^:]+):([0-9]+):[[:space:]]*(COMPAT_)?SYSCALL_DEFINE[0-6]\(([A-Za-z0-9_]+).*/\1\t\2\t\3\t\4/p' |
	awk -F'\t' '{ print $1 "\t" $2 "\t" ($3 == "" ? "sys" : "compat") "\t" $4 }' >"$t/defs"
[ -s "$t/defs" ] || { echo "gen-classes: no SYSCALL_DEFINE found under '$src'" >&2; exit 1; }

# Table rows: abi<TAB>name<TAB>entry, x86_64 first so its definition is the one shown for shared names.
for abi in x86_64 i386 x32 aarch64; do
	[ -f "$dir/$abi.tsv" ] || continue
	grep -v '^#' "$dir/$abi.tsv" | awk -F'\t' -v abi="$abi" 'NF >= 3 { print abi "\t" $2 "\t" $3 }'
done >"$t/rows"
[ -f "$dir/newer.tsv" ] && grep -v '^#' "$dir/newer.tsv" | awk -F'\t' 'NF >= 3 { print "newer\t" $2 "\t" $3 }' >>"$t/rows"

LC_ALL=C awk -F'\t' -v ver="$ver" -v pathsf="$t/paths" -v namesf="$t/names" -v newerf="$t/newer" -v defsf="$t/defs" '
function fail(msg) { print "gen-classes: " msg > "/dev/stderr"; bad = 1 }
function split_ws(line, a) { return split(line, a, /[ \t]+/) }
function path_class(file,   i) {
	for (i = 1; i <= npath; i++)
		if (index(file, ppre[i]) == 1)
			return pcls[i]
	return ""
}
# Which definitions an ABI can reach: a 64-bit x86 kernel serves x86_64, x32 and i386; arm64 serves aarch64.
function usable(abi, file) {
	if (file ~ /^arch\/x86\//) return abi != "aarch64"
	if (file ~ /^arch\/arm64\//) return abi == "aarch64"
	return 1
}
# Lower is better: the variant a 64-bit MMU kernel with POSIX timers builds.
function rank(file) {
	if (file ~ /mm\/nommu\.c$|kernel\/time\/posix-stubs\.c$|arch\/x86\/kernel\/process_32\.c$/) return 2
	return 1
}
# The definition an entry point calls: "file:line", or "" when none.
function resolve(abi, def, kind,   best, br, j, k, r, key) {
	best = ""; br = 99
	for (k = 0; k < 2; k++) {
		key = (k == 0 ? kind : (kind == "sys" ? "compat" : "sys")) SUBSEP def
		for (j = 1; j <= cnt[key]; j++) {
			if (!usable(abi, dfile[key, j])) continue
			r = rank(dfile[key, j])
			# clone: kernel/fork.c has 4 variants under CONFIG_CLONE_BACKWARDS*; x86 and arm64 build the
			# last (#else) one, so a later definition of equal rank wins.
			if (r < br || (r == br && def == "clone")) { best = dfile[key, j] ":" dline[key, j]; br = r }
		}
		if (best != "") return best
	}
	return ""
}
function def_class(def, file,   c, inner, loc) {
	if (def in ncls) return ncls[def]
	# 32-bit argument wrappers (64-bit values split in two registers): the class of the call they wrap.
	if (file ~ /^arch\/x86\/kernel\/sys_ia32\.c$|^arch\/arm64\/kernel\/sys32\.c$/) {
		inner = def; sub(/^(ia32|aarch32)_/, "", inner)
		loc = resolve("x86_64", inner, "sys")
		if (loc == "") { fail("wrapper " def " in " file ": no definition of " inner); return "" }
		split(loc, a, ":")
		return def_class(inner, a[1])
	}
	c = path_class(file)
	if (c == "") fail("no path rule for " file " (" def ")")
	return c
}
BEGIN {
	while ((getline l < pathsf) > 0) { split_ws(l, a); npath++; ppre[npath] = a[1]; pcls[npath] = a[2] }
	while ((getline l < namesf) > 0) { split_ws(l, a); ncls[a[1]] = a[2] }
	while ((getline l < newerf) > 0) { k = split_ws(l, a); nfile[a[1]] = a[2]; if (k >= 3) nforce[a[1]] = a[3] }
	while ((getline l < defsf) > 0) {
		split(l, a, "\t"); key = a[3] SUBSEP a[4]; cnt[key]++
		dfile[key, cnt[key]] = a[1]; dline[key, cnt[key]] = a[2]
	}
	# What the kernel does not implement (entry "-" or sys_ni_syscall) is NONE; this list only documents
	# the names seen so far so a surprise shows up in review.
}
{
	abi = $1; name = $2; entry = $3
	if (entry == "-" || entry == "sys_ni_syscall") { cls = "NONE"; src = "-" }
	else if (abi == "newer") {
		def = entry; sub(/^(compat_)?sys_/, "", def)
		if (!(def in nfile)) { fail("newer row " name ": no implementation file listed in gen-classes.sh"); next }
		cls = (def in nforce) ? nforce[def] : path_class(nfile[def])
		if (cls == "") { fail("no path rule for " nfile[def] " (" def ")"); next }
		src = "linux-6.18:" nfile[def]
	} else {
		kind = (entry ~ /^compat_sys_/) ? "compat" : "sys"
		def = entry; sub(/^(compat_)?sys_/, "", def)
		loc = resolve(abi, def, kind)
		if (loc == "") {
			# lookup_dcookie: still in the tables and in kernel/sys_ni.c, but 6.1 has no definition left.
			cls = "NONE"; src = "-"
		} else {
			split(loc, a, ":"); cls = def_class(def, a[1]); src = loc
		}
	}
	if (name in out) {
		# A real definition beats "not implemented" on another ABI (i386 rows that are sys_ni_syscall, ...).
		if (out[name] == "NONE" && cls != "NONE") { out[name] = cls; osrc[name] = src }
		else if (cls != "NONE" && out[name] != cls)
			fail(name ": class " out[name] " (" osrc[name] ") vs " cls " (" abi ": " src ")")
		next
	}
	out[name] = cls; osrc[name] = src; order[++n] = name
}
END {
	for (i = 1; i <= n; i++) print order[i] "\t" out[order[i]] "\t" osrc[order[i]]
	exit bad
}' "$t/rows" >"$t/classes"

{
	printf '# name\tclass\tsource: generated by data/gen-classes.sh from Linux %s (+ newer.tsv); do not edit\n' "$ver"
	LC_ALL=C sort -t '	' -k1,1 "$t/classes"
} >"$dir/classes.tsv"
