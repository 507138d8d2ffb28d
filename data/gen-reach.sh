#!/bin/sh
# Writes the name tables of what calls reach (data/reach/TABLE.tsv, "value<TAB>NAME", one table per file) from a
# kernel tree, so that no list of names is kept by hand (docs/reach.md). Run on Debian's linux-source-6.1:
#   sh data/gen-reach.sh /var/tmp/kf/linux-source-6.1 data/reach
#
# Tables and where their names come from (the tree's uapi headers unless said):
#   af          AF_* of include/linux/socket.h (not uapi: glibc copies it); AF_LOCAL and AF_MAX left out
#   sock        the enum sock_type of include/linux/net.h (SOCK_STREAM ...)
#   ipproto     the IPPROTO_* enum of linux/in.h (IPPROTO_MAX left out)
#   netlink     NETLINK_ROUTE to NETLINK_SMC of linux/netlink.h (the protocols, not the socket options after)
#   ethp        ETH_P_* of linux/if_ether.h (the protocol of AF_PACKET sockets, host order)
#   prctl       PR_* that kernel/sys.c's prctl() switch has a case for: the options, not their arguments
#   fcntl       F_* that fs/fcntl.c's do_fcntl() switch has a case for (linux/fcntl.h, asm-generic/fcntl.h)
#   seccomp     SECCOMP_* operations that kernel/seccomp.c's do_seccomp() switch has a case for (linux/seccomp.h)
#   arch_prctl  ARCH_* of x86's asm/prctl.h (every one is an option)
#   bpf_cmd, bpf_prog, bpf_map   the enums bpf_cmd, bpf_prog_type, bpf_map_type of linux/bpf.h (no __MAX_*)
#   perf_type   the enum perf_type_id of linux/perf_event.h (no PERF_TYPE_MAX)
#   keyctl      KEYCTL_* operations of linux/keyctl.h (not the KEYCTL_CAPS*, KEYCTL_SUPPORTS_* and flag bits)
#   clone_ns    CLONE_NEW* of linux/sched.h
#   ioctl       the commands of the common families, computed by the C compiler from the tree's own _IO/_IOR/
#               _IOW/_IOWR macros and structs: terminal (TC*, TIO*, FIO* of asm-generic/ioctls.h), socket
#               (SIOC* of linux/sockios.h and asm-generic/sockios.h), file (FS_IOC_*, FI*, BLK* of linux/fs.h),
#               loop (LOOP_* of linux/loop.h), random (RND* of linux/random.h), KVM (KVM_* of linux/kvm.h with
#               an _IO* value), /dev/fuse (FUSE_DEV_IOC_* of linux/fuse.h). Where two families share a number,
#               the first in that order names it (a refinement also says the fd kind it was made on).
# Values are the compiler's, for x86_64, from a program that includes the tree's uapi headers (with the
# asm-generic wrappers `make headers_install` would generate), so an enum or macro is evaluated as the kernel does.
set -eu
[ $# -eq 2 ] || { echo "usage: gen-reach.sh KERNEL_SRC OUT_DIR" >&2; exit 2; }
src=$1 out=$2
[ -r "$src/Makefile" ] || { echo "gen-reach: '$src': not a kernel tree" >&2; exit 1; }
ver=$(awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3} END{print v"."p"."s}' "$src/Makefile")
u=$src/include/uapi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/inc" "$out"

# The uapi headers as `make headers_install` prepares them (scripts/headers_install.sh's edits; #ifdef
# __KERNEL__ parts are left to the preprocessor), with an asm/X.h for each mandatory header x86 takes from
# asm-generic.
cp -R "$u/." "$src/arch/x86/include/uapi/." "$t/inc/"
find "$t/inc" -name '*.h' -exec sed -E -i -e '
	s/([[:space:](])(__user|__force|__iomem)[[:space:]]/\1/g
	s/__attribute_const__([[:space:]]|$)/\1/g
	s@^#include <linux/compiler(|_types).h>@@
	s/(^|[^a-zA-Z0-9])__packed([^a-zA-Z0-9_]|$)/\1__attribute__((packed))\2/g
	s/(^|[[:space:](])(inline|asm|volatile)([[:space:](]|$)/\1__\2__\3/g
	s@#(ifndef|define|endif[[:space:]]*/[*])[[:space:]]*_UAPI@#\1 @
' {} +
sed -n 's/^mandatory-y += \(.*\)\.h$/\1/p' "$u/asm-generic/Kbuild" | while read -r h; do
	[ -f "$t/inc/asm/$h.h" ] || echo "#include <asm-generic/$h.h>" >"$t/inc/asm/$h.h"
done

# NAME lines of one header: `#define NAME value` (value given by pattern), or the members of an enum.
defines() { # header name-regex
	sed -n "s/^#define[[:space:]]\{1,\}\($2\)[[:space:]].*/\1/p" "$1"
}
enum_members() { # header enum-name
	awk -v e="$2" '
		$0 ~ "^enum " e "[[:space:]]*[{]?[[:space:]]*$" { in_e = 1; next }
		in_e && /^}/ { exit }
		in_e { sub(/\/\*.*\*\//, ""); if (match($0, /^[[:space:]]*[A-Z_][A-Z0-9_]*/)) { s = substr($0, RSTART, RLENGTH); gsub(/[[:space:]]/, "", s); print s } }
	' "$1"
}

# Plain numbers from kernel-internal headers, read directly (simple "#define NAME number" and "NAME = number,").
defines "$src/include/linux/socket.h" 'AF_[A-Z0-9_]*' | grep -vx 'AF_LOCAL\|AF_MAX' >"$t/af.names"
awk '/^#define[ \t]+AF_[A-Z0-9_]+[ \t]+[0-9]+/ { print $3 "\t" $2 }' "$src/include/linux/socket.h" |
	grep -v 'AF_LOCAL$\|AF_MAX$' >"$t/af.tsv"
awk '/^enum sock_type/ { e = 1; next } e && /^}/ { exit } e && /SOCK_[A-Z]+[ \t]*=/ { gsub(/[,\t ]/, ""); split($0, a, "="); print a[2] "\t" a[1] }' \
	"$src/include/linux/net.h" >"$t/sock.tsv"

# Everything else is compiled: "table name" lines, one program.
{
	awk '/IPPROTO_[A-Z0-9]+[ \t]*=[ \t]*[0-9]+/ { gsub(/[,\t ]/, ""); split($0, a, "="); print "ipproto " a[1] }' "$u/linux/in.h" |
		grep -v 'IPPROTO_MAX$'
	awk '/^#define[ \t]+NETLINK_ROUTE/ { on = 1 } on && /^#define[ \t]+NETLINK_[A-Z0-9_]+[ \t]+[0-9]+/ { print "netlink " $2 } /^#define[ \t]+NETLINK_SMC/ { exit }' \
		"$u/linux/netlink.h"
	awk '/^#define[ \t]+ETH_P_[A-Z0-9_]+[ \t]+0x[0-9A-Fa-f]+/ { print "ethp " $2 }' "$u/linux/if_ether.h"
	# prctl's options: the cases of its switch (kernel/sys.c), whose values the uapi header gives
	awk '/^SYSCALL_DEFINE5\(prctl/ { on = 1 } on && /^}/ { exit } on && /^\tcase PR_[A-Z0-9_]+:/ { sub(/^\tcase /, ""); sub(/:.*/, ""); print "prctl " $0 }' \
		"$src/kernel/sys.c" | sort -u
	awk '/^static long do_fcntl\(/ { on = 1 } on && /^}/ { exit } on && /^\tcase F_[A-Z0-9_]+:/ { sub(/^\tcase /, ""); sub(/:.*/, ""); print "fcntl " $0 }' \
		"$src/fs/fcntl.c" | sort -u
	awk '/^static long do_seccomp\(/ { on = 1 } on && /^}/ { exit } on && /^\tcase SECCOMP_[A-Z0-9_]+:/ { sub(/^\tcase /, ""); sub(/:.*/, ""); print "seccomp " $0 }' \
		"$src/kernel/seccomp.c" | sort -u
	awk '/^#define[ \t]+ARCH_[A-Z0-9_]+[ \t]+0x[0-9a-fA-F]+/ { print "arch_prctl " $2 }' "$src/arch/x86/include/uapi/asm/prctl.h"
	enum_members "$u/linux/bpf.h" bpf_cmd | grep -v '^__' | sed 's/^/bpf_cmd /'
	enum_members "$u/linux/bpf.h" bpf_prog_type | grep -v '^__' | sed 's/^/bpf_prog /'
	enum_members "$u/linux/bpf.h" bpf_map_type | grep -v '^__' | sed 's/^/bpf_map /'
	enum_members "$u/linux/perf_event.h" perf_type_id | grep -v '_MAX$' | sed 's/^/perf_type /'
	awk '/^#define[ \t]+KEYCTL_[A-Z0-9_]+[ \t]+[0-9]+[ \t]*(\/\*.*)?$/ { print "keyctl " $2 }' "$u/linux/keyctl.h" |
		grep -v 'CAPS\|SUPPORTS_\|_EXCL$'
	defines "$u/linux/sched.h" 'CLONE_NEW[A-Z]*' | sed 's/^/clone_ns /'
	# ioctl families, in the order that names a shared number
	defines "$u/asm-generic/ioctls.h" '\(TC\|TIO\|FIO\)[A-Z0-9_]*' | sed 's/^/ioctl /'
	defines "$u/linux/sockios.h" 'SIOC[A-Z0-9_]*' | sed 's/^/ioctl /'
	defines "$u/asm-generic/sockios.h" '\(SIOC\|FIO\)[A-Z0-9_]*' | sed 's/^/ioctl /'
	defines "$u/linux/fs.h" '\(FS_IOC\|FI\|BLK\)[A-Z0-9_]*' | sed 's/^/ioctl /'
	defines "$u/linux/loop.h" 'LOOP_[A-Z0-9_]*' | sed 's/^/ioctl /'
	defines "$u/linux/random.h" 'RND[A-Z0-9_]*' | sed 's/^/ioctl /'
	awk '/^#define[ \t]+KVM_[A-Z0-9_]+[ \t]+_IO/ { print "ioctl " $2 }' "$u/linux/kvm.h"
	defines "$u/linux/fuse.h" 'FUSE_DEV_IOC_[A-Z0-9_]*' | grep -v '_MAGIC$' | sed 's/^/ioctl /'
} | grep -v '^$' >"$t/names"

# One printf per name; a name the compiler refuses (a macro that is not a number in user space) is dropped and
# the program built again, so the list is what the headers really define.
headers='linux/in.h linux/netlink.h linux/if_ether.h linux/prctl.h asm/prctl.h linux/bpf.h linux/perf_event.h
	linux/keyctl.h linux/sched.h asm/ioctls.h linux/sockios.h asm/sockios.h linux/fs.h linux/loop.h linux/random.h
	linux/kvm.h linux/termios.h linux/fcntl.h linux/seccomp.h linux/fuse.h'
for round in 1 2 3 4 5 6 7 8; do
	{
		echo '#include <stdio.h>'
		for h in $headers; do echo "#include <$h>"; done
		echo 'int main(void) {'
		awk '{ printf "\tprintf(\"%s\\t%%lld\\t%s\\n\", (long long)(%s));\n", $1, $2, $2 }' "$t/names"
		echo '\treturn 0; }'
	} >"$t/p.c"
	if gcc -w -I"$t/inc" -o "$t/p" "$t/p.c" 2>"$t/err"; then
		break
	fi
	# drop the names on the lines the errors point at
	grep -o 'p\.c:[0-9]*:' "$t/err" | sed 's/p\.c:\([0-9]*\):/\1/' | sort -un >"$t/bad"
	[ -s "$t/bad" ] || { cat "$t/err" >&2; exit 1; }
	first=$(awk '/int main/ { print NR; exit }' "$t/p.c")
	awk -v first="$first" 'NR == FNR { bad[$1 - first] = 1; next } !(FNR in bad)' "$t/bad" "$t/names" >"$t/names2"
	mv "$t/names2" "$t/names"
done
"$t/p" >"$t/values"

hdr() { # table source
	printf '# value\tname: generated by data/gen-reach.sh from Linux %s (%s); do not edit\n' "$ver" "$2"
}
emit() { # table source file
	{
		hdr "$1" "$2"
		# first name of a value wins; then by value
		awk -F'\t' '!seen[$1]++' "$3" | sort -t '	' -k1,1n
	} >"$out/$1.tsv"
}
emit af include/linux/socket.h "$t/af.tsv"
emit sock include/linux/net.h "$t/sock.tsv"
for tb in ipproto netlink ethp prctl fcntl seccomp arch_prctl bpf_cmd bpf_prog bpf_map perf_type keyctl clone_ns ioctl; do
	awk -F'\t' -v tb="$tb" '$1 == tb { print $2 "\t" $3 }' "$t/values" >"$t/$tb.tsv"
	case $tb in
	ipproto) s=include/uapi/linux/in.h ;; netlink) s=include/uapi/linux/netlink.h ;;
	ethp) s=include/uapi/linux/if_ether.h ;; prctl) s="kernel/sys.c, include/uapi/linux/prctl.h" ;;
	fcntl) s="fs/fcntl.c, include/uapi/linux/fcntl.h, include/uapi/asm-generic/fcntl.h" ;;
	seccomp) s="kernel/seccomp.c, include/uapi/linux/seccomp.h" ;;
	arch_prctl) s=arch/x86/include/uapi/asm/prctl.h ;; bpf_*) s=include/uapi/linux/bpf.h ;;
	perf_type) s=include/uapi/linux/perf_event.h ;; keyctl) s=include/uapi/linux/keyctl.h ;;
	clone_ns) s=include/uapi/linux/sched.h ;;
	ioctl) s="asm-generic/ioctls.h, linux/sockios.h, asm-generic/sockios.h, linux/fs.h, linux/loop.h, linux/random.h, linux/kvm.h, linux/fuse.h" ;;
	esac
	[ -s "$t/$tb.tsv" ] || { echo "gen-reach: no $tb names found in '$src'" >&2; exit 1; }
	emit "$tb" "$s" "$t/$tb.tsv"
done
