#!/bin/sh
# Which argument of each syscall is a path the kernel looks up, from the SYSCALL_DEFINEn signatures of a kernel
# tree; writes data/syscalls/pathargs.tsv ("def<TAB>index<TAB>argname": def is the definition name, the entry
# point without sys_/compat_sys_, as the tables' entry column names it). Run on Debian's linux-source-6.1:
#   sh data/gen-pathargs.sh /var/tmp/kf/linux-source-6.1 data/syscalls
#
# The rule: the first argument of type `(const) char __user *` whose name says it is a path (filename, pathname,
# path, oldname, newname, specialfile, library, new_root, dir_name, from_pathname). symlink's oldname is the link's
# content, never looked up, so symlink/symlinkat take newname; `name` is a path only for acct, umount, oldumount and
# name_to_handle_at (elsewhere it names an xattr, a module, a key). Definitions newer than the tree are listed by hand
# at the end (their upstream signatures, Linux 6.6 to 6.17), as newer.tsv lists their numbers.
set -eu
[ $# -eq 2 ] || { echo "usage: gen-pathargs.sh KERNEL_SRC SYSCALLS_DIR" >&2; exit 2; }
src=$1 dir=$2
[ -r "$src/Makefile" ] || { echo "gen-pathargs: '$src': not a kernel tree" >&2; exit 1; }
ver=$(awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3} END{print v"."p"."s}' "$src/Makefile")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# One line per definition: the macro's text from "SYSCALL_DEFINEn(" to its closing parenthesis.
find "$src" -name '*.c' -not -path '*/tools/*' -not -path '*/Documentation/*' -print0 |
	xargs -0 awk '
		/^(COMPAT_)?SYSCALL_DEFINE[1-6]\(/ { s = $0; on = 1 }
		on && !/^(COMPAT_)?SYSCALL_DEFINE/ { s = s " " $0 }
		on && s ~ /\)/ { sub(/\).*/, "", s); gsub(/[ \t]+/, " ", s); print s; on = 0 }' >"$t/defs"
awk '
	{
		sub(/^(COMPAT_)?SYSCALL_DEFINE[1-6]\( ?/, "")
		n = split($0, f, / ?, ?/)
		def = f[1]
		if (def in seen) next
		for (i = 2; i + 1 <= n; i += 2) {
			type = f[i]; name = f[i + 1]
			if (type !~ /char __user \*$/) continue
			if (name !~ /^(filename|pathname|path|oldname|newname|specialfile|library|new_root|dir_name|from_pathname|name)$/) continue
			if (name == "oldname" && def ~ /^symlink/) continue
			if (name == "name" && def !~ /^(acct|umount|oldumount|name_to_handle_at)$/) continue
			seen[def] = 1
			printf "%s\t%d\t%s\n", def, (i - 2) / 2, name
			break
		}
	}' "$t/defs" | LC_ALL=C sort -u >"$t/out"
{
	printf '# def\tindex\targname: the path argument of each syscall definition, from the SYSCALL_DEFINEn of Linux %s\n' "$ver"
	echo '# by data/gen-pathargs.sh; newer definitions at the end from their upstream signatures. Do not edit.'
	cat "$t/out"
	printf '%s\n' 'fchmodat2	1	filename' 'setxattrat	1	pathname' 'getxattrat	1	pathname' 'listxattrat	1	pathname' \
		'removexattrat	1	pathname' 'open_tree_attr	1	filename' 'file_getattr	1	filename' 'file_setattr	1	filename'
} >"$dir/pathargs.tsv"
