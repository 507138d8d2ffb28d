#!/bin/sh
# Extracts the syscall tables of a kernel source tree into data/syscalls/<abi>.tsv ("nr<TAB>name<TAB>entry",
# entry "-" when the table names none). Run on Debian's linux-source-6.1:
#   sh data/extract-syscalls.sh /path/to/linux-source-6.1 data/syscalls
# Rows newer than that tree come from data/syscalls/newer.tsv (see data/README.md).
set -eu
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
