#!/bin/sh
# Who to ask, judged by the kernel's own scripts/get_maintainer.pl: for the file of each syscall's chain (a spread
# of subsystems: VFS, futex, networking, memory, x86, BPF, io_uring, keys, timers, IPC, ...) and of what calls
# reach (ext4, AF_INET, eventfd), map's "get_maintainer" lines (M:, R:, L: as the script prints them, with their
# roles) are the script's own for that file, run in the tree with --nogit --nogit-fallback --nokeywords (K:
# keywords match the file's text, which map does not read). Then the same from the built-in database, and the
# text's summary of sections with counts.
. "$(dirname "$0")/../lib.sh"

if ! src=$(ksrc_tree); then
	skip map_maintainers "$KSRC_TARBALL is missing (apt-get install linux-source-6.1)"
	exit 0
fi
command -v perl >/dev/null || { skip map_maintainers "no perl: get_maintainer.pl cannot run"; exit 0; }
sys=read,futex,eventfd2,socket,mmap,brk,io_uring_setup,bpf,perf_event_open,keyctl,mount,inotify_init1,epoll_create1
sys=$sys,timerfd_create,clock_gettime,rseq,memfd_create,landlock_create_ruleset,seccomp,userfaultfd,pidfd_open
sys=$sys,fanotify_init,quotactl,acct,kexec_load,reboot,sched_setattr,mq_open,msgget,ptrace,getrandom,flock,uname
"$KF" map --no-running --kernel-src "$src" -F json --syscalls "$sys" >"$T/tree.json" 2>"$T/tree.err" ||
	{ not_ok "map_maintainers: map --kernel-src failed"; sed 's/^/#   /' "$T/tree.err"; exit 0; }
"$KF" map --no-running -F json --syscalls "$sys" >"$T/db.json" 2>"$T/db.err" ||
	{ not_ok "map_maintainers: map (built-in database) failed"; sed 's/^/#   /' "$T/db.err"; exit 0; }
# one line a file: FILE<TAB>who (role)|who (role)|...
rows() {
	"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
for r in d["syscalls"]:
    k = r["kernel"]
    if k and k["file"]:
        print(k["file"] + "\t" + "|".join(sorted("%s (%s)" % (p["who"], p["role"]) for p in k["get_maintainer"])))' "$1"
}
rows "$T/tree.json" | sort -u >"$T/tree.rows"
rows "$T/db.json" | sort -u >"$T/db.rows"
n=$(wc -l <"$T/tree.rows")
[ "$n" -ge 25 ] || not_ok "map_maintainers: only $n files with a chain"

# script FILE [SEED]: what the script says of FILE, sorted, one line. It reads MAINTAINERS (and .mailmap) from the
# tree it runs in: the tree, read only. Sections matching at the same depth come in Perl's hash order, which varies
# from run to run (fs/locks.c: FILE LOCKING or VFS first, so the first role of linux-fsdevel changes): an answer
# is the script's when one of its orders gives it, tried with a few hash seeds.
script() {
	(cd "$src" && PERL_HASH_SEED=${2:-} PERL_PERTURB_KEYS=${2:+0} \
		perl scripts/get_maintainer.pl --nogit --nogit-fallback --nokeywords -f "$1" 2>/dev/null | sort | paste -sd'|')
}
script_says() {
	[ "$2" = "$(script "$1")" ] && return 0
	for seed in 1 2 3 4 5 6 7 8; do
		[ "$2" = "$(script "$1" $seed)" ] && return 0
	done
	return 1
}
bad=0
while IFS='	' read -r file ours; do
	if ! script_says "$file" "$ours"; then
		theirs=$(script "$file")
		bad=$((bad + 1))
		echo "#   $file: map: $ours"
		echo "#   $file: get_maintainer.pl: $theirs"
	fi
done <"$T/tree.rows"
eq "map_maintainers: get_maintainer.pl names the same people and lists with the same roles for all $n files" 0 "$bad"
eq "map_maintainers: the built-in database says the same as the tree" "" "$(diff "$T/tree.rows" "$T/db.rows")"

# what calls reach: their targets' files too
"$KF" record -b ptrace -q -o "$T/fp.json" --report /dev/null -- sh -c "cat /etc/hostname >$T/x" >/dev/null 2>&1
"$KF" map --no-running --kernel-src "$src" -F json "$T/fp.json" >"$T/fp.map.json" 2>/dev/null
bad=0 m=0
"$PY" -c 'import json, sys
for r in json.load(open(sys.argv[1]))["reached"]:
    k = r["kernel"]
    if k and k["file"]:
        print(k["file"] + "\t" + "|".join(sorted("%s (%s)" % (p["who"], p["role"]) for p in k["get_maintainer"])))' \
	"$T/fp.map.json" | sort -u >"$T/reach.rows"
while IFS='	' read -r file ours; do
	m=$((m + 1))
	script_says "$file" "$ours" ||
		{ bad=$((bad + 1)); echo "#   $file: map: $ours"; echo "#   $file: script: $(script "$file")"; }
done <"$T/reach.rows"
[ "$m" -ge 2 ] || not_ok "map_maintainers: only $m refinements with a target's file"
eq "map_maintainers: and for the $m files of what the calls reached" 0 "$bad"

# the text: each chain's lines under "maintainers", and the summary: sections with their counts and options
"$KF" map --no-running --kernel-src "$src" --syscalls futex,eventfd2,read,write >"$T/map.txt" 2>/dev/null
eq "map_maintainers: text: futex's people as the script names them" \
	"$(cd "$src" && perl scripts/get_maintainer.pl --nogit --nogit-fallback --nokeywords -f kernel/futex/syscalls.c | head -n 1)" \
	"$(sed -n '/^futex /,/^[a-z]/{s/^    maintainers //p}' "$T/map.txt")"
eq "map_maintainers: text: the summary counts the sections of the 4 syscalls" \
	"who to ask: 2 MAINTAINERS sections, the most specific of each of 4 required items" \
	"$(grep '^who to ask:' "$T/map.txt")"
eq "map_maintainers: text: VFS has 3 of them, futex 1 with its option" "3 FILESYSTEMS|1 FUTEX|FUTEX" \
	"$(sed -n '/^who to ask/,/^$/{s/^  \([0-9][0-9]*\) *\([A-Z]*\) .*/\1 \2/p;s/^      options: \(FUTEX\)$/\1/p}' "$T/map.txt" | paste -sd'|')"
eq "map_maintainers: json: who_to_ask has the same" "3 FILESYSTEMS (VFS and infrastructure)|1 FUTEX SUBSYSTEM" \
	"$("$KF" map --no-running --kernel-src "$src" -F json --syscalls futex,eventfd2,read,write 2>/dev/null |
		"$PY" -c 'import json, sys; print("|".join("%d %s" % (s["items"], s["section"]) for s in json.load(sys.stdin)["who_to_ask"]))')"
