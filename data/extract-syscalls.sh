#!/bin/sh
# Extracts the syscall tables of a kernel source tree into data/syscalls/<abi>.tsv ("nr<TAB>name<TAB>entry",
# entry "-" when the table names none). Run on Debian's linux-source-6.1:
#   sh data/extract-syscalls.sh /path/to/linux-source-6.1 data/syscalls
# Rows newer than that tree come from data/syscalls/newer.tsv (see data/README.md).
set -eu
[ $# -eq 2 ] || { echo "usage: extract-syscalls.sh KERNEL_SRC OUT_DIR" >&2; exit 2; }
src=$1 out=$2
tbl64=$src/arch/x86/entry/syscalls/syscall_64.tbl
tbl32=$src/arch/x86/entry/syscalls/syscall_32.tbl
for f in "$tbl64" "$tbl32"; do [ -r "$f" ] || { echo "extract-syscalls: '$f': not readable" >&2; exit 1; }; done
mkdir -p "$out"
ver=$(awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3} END{print v"."p"."s}' "$src/Makefile")
hdr() { printf '# %s syscall table, extracted from %s of Linux %s by data/extract-syscalls.sh\n' "$1" "$2" "$ver"; }
# <nr> <abi> <name> [<entry point> [<compat entry point>]]; x86_64 = common + 64, x32 = common + x32.
{ hdr x86_64 syscall_64.tbl; awk '!/^#/ && NF >= 3 && ($2 == "common" || $2 == "64") { printf "%s\t%s\t%s\n", $1, $3, (NF >= 4 ? $4 : "-") }' "$tbl64"; } >"$out/x86_64.tsv"
{ hdr x32 syscall_64.tbl; awk '!/^#/ && NF >= 3 && ($2 == "common" || $2 == "x32") { printf "%s\t%s\t%s\n", $1, $3, (NF >= 4 ? $4 : "-") }' "$tbl64"; } >"$out/x32.tsv"
# i386 rows name the native entry point; "__ia32_" prefixes and compat entries are the kernel's business.
{ hdr i386 syscall_32.tbl; awk '!/^#/ && NF >= 3 && $2 == "i386" { printf "%s\t%s\t%s\n", $1, $3, (NF >= 4 ? $4 : "-") }' "$tbl32"; } >"$out/i386.tsv"

# aarch64 has no .tbl in 6.1: its table is include/uapi/asm-generic/unistd.h as arm64 sees it. Rather than
# re-implement the header's #if logic, run the preprocessor on arm64's own uapi <asm/unistd.h> (which sets the
# __ARCH_WANT_* it wants, then includes the generic header; <asm/bitsperlong.h> gives __BITS_PER_LONG 64, so
# __SC_3264/__SC_COMP_3264 pick the 64-bit entry) exactly as arch/arm64/kernel/sys.c does to build
# sys_call_table. The kernel-internal arch/arm64/include/asm/unistd.h adds only __ARCH_WANT_* that the generic
# header never tests (SYS_CLONE, COMPAT_*, ...), so the uapi header is the whole story for the native table.
# Pass 1 emits "nr entry" per __SYSCALL; pass 2 evaluates every __NR_<name> macro (the 64-bit __NR_fcntl is
# __NR3264_fcntl, ...) so each number gets its user-visible name.
gen=$src/include/uapi/asm-generic/unistd.h
arm=$src/arch/arm64/include/uapi/asm/unistd.h
for f in "$gen" "$arm"; do [ -r "$f" ] || { echo "extract-syscalls: '$f': not readable" >&2; exit 1; }; done
command -v cpp >/dev/null || { echo "extract-syscalls: cpp: not found (install gcc)" >&2; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
armcpp() { cpp -P -nostdinc -undef -I "$src/arch/arm64/include/uapi" -I "$src/include/uapi" "$@"; }
echo '#include <asm/unistd.h>' >"$t/u.h"
armcpp '-D__SYSCALL(nr,sym)=KFROW nr sym' "$t/u.h" | awk '$1 == "KFROW" { print $2 "\t" $3 }' >"$t/rows"
armcpp -dM "$t/u.h" | awk '$1 == "#define" && $2 ~ /^__NR_/ && $2 != "__NR_syscalls" { print $2 }' |
	sort -u | awk '{ n = substr($1, 6); print "KFNAME " n " " $1 }' >"$t/names.in"
{ cat "$t/u.h"; cat "$t/names.in"; } >"$t/n.h"
armcpp "$t/n.h" | awk '$1 == "KFNAME" && $3 ~ /^[0-9]+$/ { print $3 "\t" $2 }' | sort -k1,1n >"$t/names"
# Every number with an entry must have exactly one name; a clash or a hole means the header changed shape.
awk -F'\t' 'NR == FNR { if ($1 in nm) { print "extract-syscalls: aarch64: two names for " $1 ": " nm[$1] ", " $2 > "/dev/stderr"; bad = 1 } nm[$1] = $2; next }
	!($1 in nm) { print "extract-syscalls: aarch64: no __NR_ name for " $1 " (" $2 ")" > "/dev/stderr"; bad = 1 }
	END { exit bad }' "$t/names" "$t/rows"
{
	hdr aarch64 "include/uapi/asm-generic/unistd.h (via arch/arm64/include/uapi/asm/unistd.h)"
	awk -F'\t' 'NR == FNR { nm[$1] = $2; next } { print $1 "\t" nm[$1] "\t" $2 }' "$t/names" "$t/rows" | sort -k1,1n
} >"$out/aarch64.tsv"
