#!/bin/sh
# Gives every syscall definition of a kernel tree its argument count, which arguments are paths or directory
# fds, fds it reaches, and the one path it looks up, and writes data/syscalls/args.tsv
# ("definition<TAB>nargs<TAB>kinds<TAB>lookup<TAB>source"): kinds has one letter per argument, p for a path string,
# d for a directory fd (AT_FDCWD), f for an fd whose file the call reaches (what it reached: abi/reach.h), - for
# anything else; lookup is the index (from 0) of the path argument the call
# looks up, or -. The --log writer shows a call's real arguments only, and every path argument as a string, from
# nargs and kinds; the error sources name the looked-up path (KF_SC_PATH, path_arg). Run on Debian's
# linux-source-6.1:
#   sh data/gen-args.sh /var/tmp/kf/linux-source-6.1 data/syscalls
#
# How: every native SYSCALL_DEFINEn(name, type, arg, ...) of the directories gen-classes.sh scans; n is the
# count. An argument is a path when its type is a (const) char __user * and its name is one the kernel gives
# paths (filename, pathname, path, oldname, ... below), or "name" in the few definitions where it is a path
# (acct, umount, name_to_handle_at); a directory fd is an int named dfd, olddfd, newdfd, from_dfd or to_dfd.
# The looked-up path is the first path argument named filename, pathname, path, oldname, newname, specialfile,
# library, new_root, dir_name, from_pathname (or that "name"): not mount's dev_name, which a filesystem may not
# look up, nor the second path of a rename or link; symlink's oldname is the link's content, never looked up, so
# symlink and symlinkat take newname.
# An fd the call reaches is an int or unsigned long (mmap's) named fd, fd_in, fd_out, in_fd, out_fd, fdin or fdout:
# so epoll_ctl's target fd but not its epfd, sendfile's and splice's two, mmap's fd (the tracer leaves out a
# MAP_ANONYMOUS one); not close and close_range, whose fd is let go of, nor dup's (oldfd, fildes), nor execveat's
# (a directory, or the program: binfmt says what ran) and pidfd_getfd's (another process's fd).
# Where a name has several definitions that disagree (clone, sigsuspend), the one x86 builds wins: the one
# under CONFIG_CLONE_BACKWARDS or CONFIG_OLD_SIGSUSPEND3, which x86 selects. The script fails on any other
# disagreement, so a newer tree cannot silently pick one. Definitions newer than the tree (newer.tsv's rows that
# take a path) are listed by hand at the end from their upstream signatures (Linux 6.6 to 6.17): nargs and kinds
# -, as the tree does not have them (the --log writer shows six arguments), only the looked-up path.
set -eu
[ $# -eq 2 ] || { echo "usage: gen-args.sh KERNEL_SRC SYSCALLS_DIR" >&2; exit 2; }
src=$1 dir=$2
[ -r "$src/Makefile" ] || { echo "gen-args: '$src': not a kernel tree" >&2; exit 1; }
ver=$(awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3} END{print v"."p"."s}' "$src/Makefile")
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

(cd "$src" && grep -rlE --include='*.c' '^[[:space:]]*SYSCALL_DEFINE[0-6]\(' \
	fs mm kernel net ipc security io_uring block drivers/char drivers/pci arch/x86 arch/arm64 |
	grep -v '^arch/x86/um/' | LC_ALL=C sort) >"$t/files"
[ -s "$t/files" ] || { echo "gen-args: no SYSCALL_DEFINE found under '$src'" >&2; exit 1; }

# One line per definition: file:line, the config of the #if/#elif right above it, name, n, then type|name pairs.
(cd "$src" && xargs awk '
	FNR == 1 { acc = ""; cond = "" }
	acc == "" && /^#(if|elif|ifdef)/ { cond = $0 }
	acc == "" && /^#endif/ { cond = "" }
	acc == "" && /^[[:space:]]*SYSCALL_DEFINE[0-6]\(/ { acc = $0; at = FNR; atcond = cond; next_ok = 1 }
	acc != "" && at != FNR { acc = acc " " $0 }
	acc != "" {
		s = acc; depth = 0; end = 0
		for (i = 1; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "(") depth++
			else if (c == ")" && --depth == 0) { end = i; break }
		}
		if (!end) next
		s = substr(s, 1, end); acc = ""
		sub(/^[[:space:]]*SYSCALL_DEFINE/, "", s); n = substr(s, 1, 1) + 0
		sub(/^[^(]*\(/, "", s); sub(/\)$/, "", s); gsub(/[[:space:]]+/, " ", s)
		k = split(s, f, ",")
		name = f[1]; gsub(/ /, "", name)
		m = atcond; sub(/^[^C]*/, "", m); sub(/[^A-Z0-9_].*/, "", m)
		out = FILENAME ":" at "\t" (m == "" ? "-" : m) "\t" name "\t" n
		for (j = 2; j + 1 <= k; j += 2) {
			ty = f[j]; a = f[j + 1]; gsub(/^ | $/, "", ty); gsub(/^ | $/, "", a)
			out = out "\t" ty "|" a
		}
		print out
	}' <"$t/files") >"$t/defs"

awk -F'\t' -v OFS='\t' '
	BEGIN {
		split("filename pathname path oldname newname specialfile special library dev_name dir_name new_root " \
		      "put_old from_pathname to_pathname", p, " ")
		for (i in p) path[p[i]] = 1
		split("acct umount oldumount name_to_handle_at", q, " ")
		for (i in q) name_is_path[q[i]] = 1
		split("dfd olddfd newdfd from_dfd to_dfd", d, " ")
		for (i in d) dirfd[d[i]] = 1
		split("fd fd_in fd_out in_fd out_fd fdin fdout", f, " ")
		for (i in f) fdarg[f[i]] = 1
		split("close close_range execveat pidfd_getfd", nf, " ")
		for (i in nf) not_reached[nf[i]] = 1
		split("filename pathname path oldname newname specialfile library new_root dir_name from_pathname", l, " ")
		for (i in l) lookup[l[i]] = 1
		x86["CONFIG_CLONE_BACKWARDS"] = x86["CONFIG_OLD_SIGSUSPEND3"] = 1
	}
	{
		kinds = ""; look = "-"
		for (i = 5; i <= NF; i++) {
			ty = $i; sub(/\|.*/, "", ty); a = $i; sub(/.*\|/, "", a)
			if (ty ~ /^(const )?char __user \*$/ && (a in path || (a == "name" && $3 in name_is_path))) {
				kinds = kinds "p"
				if (look == "-" && (a in lookup || a == "name") && !(a == "oldname" && $3 ~ /^symlink/))
					look = i - 5
			} else if (ty ~ /^(unsigned )?int$/ && a in dirfd)
				kinds = kinds "d"
			else if (ty ~ /^(unsigned )?(int|long)$/ && a in fdarg && !($3 in not_reached))
				kinds = kinds "f"
			else
				kinds = kinds "-"
		}
		if (kinds == "")
			kinds = "-"
		key = $4 "\t" kinds "\t" look
		if (!($3 in seen)) { order[++n] = $3; seen[$3] = key; src[$3] = $1; pick[$3] = ($2 in x86) }
		else if (seen[$3] != key) {
			if ($2 in x86) { seen[$3] = key; src[$3] = $1; pick[$3] = 1 }
			else if (!pick[$3]) clash[$3] = 1
		}
	}
	END {
		for (c in clash) if (!pick[c]) { print "gen-args: " c ": definitions disagree and none is x86'"'"'s" > "/dev/stderr"; bad = 1 }
		if (bad) exit 1
		for (i = 1; i <= n; i++) print order[i], seen[order[i]], src[order[i]]
	}' "$t/defs" | LC_ALL=C sort -t '	' -k1,1 >"$t/args"

# Newer than the tree: the looked-up path of their upstream signatures (all take dfd, path).
for def in fchmodat2:fs/open.c setxattrat:fs/xattr.c getxattrat:fs/xattr.c listxattrat:fs/xattr.c \
	removexattrat:fs/xattr.c open_tree_attr:fs/namespace.c file_getattr:fs/file_attr.c file_setattr:fs/file_attr.c; do
	printf '%s\t-\t-\t1\tlinux-6.18:%s\n' "${def%%:*}" "${def#*:}"
done >"$t/newer"

{
	echo "# definition	nargs	kinds	lookup	source: generated by data/gen-args.sh from Linux $ver; do not edit"
	echo "# kinds: one letter per argument, p path string, d directory fd, f fd it reaches, - other; lookup: the looked-up path's index"
	echo "# nargs and kinds - (newer than the tree, source linux-6.18:FILE): the --log writer shows six arguments"
	cat "$t/args" "$t/newer"
} >"$dir/args.tsv"
echo "gen-args: $(wc -l <"$t/args") definitions from Linux $ver, $(wc -l <"$t/newer") newer by hand" >&2
