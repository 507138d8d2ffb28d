#!/bin/sh
# bpffs where none is mounted (src/trace/bpffs.c, docs/bpf.md#the-cache): from nothing at /sys/fs/bpf, the first
# -b bpf run mounts bpffs there (root's, 0700, nosuid/nodev/noexec) and pins its programs, the next takes them
# from the cache, and both footprints agree; two first runs at once make one mount, not two; KF_BPF_CACHE=0 mounts
# nothing; where no mount can be made the run says why with -v and loads as without a cache.
# Every case runs in a mount namespace of its own (unshare -m, propagation private): any bpffs there is unmounted
# in that namespace alone, what kfootprint mounts dies with it, and other runs on the machine keep theirs.
# Its runs use a cache of their own (KF_BPF_CACHE=NAME): the first run must take that cache's lock, which another
# test's bpf run of this build (the default cache) never holds.
. "$(dirname "$0")/../lib.sh"
KF_BPF_CACHE="kf-test bpffs_mount $KF_TOP"
export KF_BPF_CACHE

bpf_or_skip bpffs_mount || exit 0
if ! unshare -m --propagation private true 2>/dev/null; then
	skip bpffs_mount "unshare -m cannot make a mount namespace here"
	exit 0
fi

# fresh SCRIPT: SCRIPT in a new mount namespace where nothing is mounted at /sys/fs/bpf (its output)
fresh() {
	unshare -m --propagation private sh -c '
		while [ "$(stat -f -c %T /sys/fs/bpf)" = bpf_fs ]; do umount /sys/fs/bpf || exit 9; done
		'"$1"
}
kf() { # NAME [ENV...]: -b bpf -v -- ls /, its footprint in $T/NAME.json and -v in $T/NAME.err
	n=$1; shift
	echo "env $* '$KF' record -b bpf -q -v -F json --report /dev/null -o '$T/$n.json' -- ls / >/dev/null 2>'$T/$n.err'; echo \"$n \$?\""
}

res=$(fresh "stat -f -c 'before %T' /sys/fs/bpf
	$(kf first)
	$(kf second)
	stat -f -c 'after %T' /sys/fs/bpf
	stat -c 'root %u %a' /sys/fs/bpf
	awk '\$5 == \"/sys/fs/bpf\" { print \"options\", \$6; print \"id\", \$1 }' /proc/self/mountinfo
	awk '\$5 == \"/sys/fs/bpf\" { n++ } END { print \"mounts\", n + 0 }' /proc/self/mountinfo")
v() { printf "%s\n" "$res" | sed -n "s/^$1 //p" | head -1; }
eq "from nothing mounted: /sys/fs/bpf is not a bpffs before the run" sysfs "$(v before)"
eq "first run: exit 0, says it mounted bpffs" "0 1" "$(v first) $(grep -c 'mounted bpffs at /sys/fs/bpf' "$T/first.err")"
check "first run: loads and pins for the next run" grep -q 'none yet for this key: loading, pinned there at the end' "$T/first.err"
eq "second run: exit 0, programs from the cache, no mount" "0 1 0" \
	"$(v second) $(grep -c 'programs from the cache' "$T/second.err") $(grep -c 'mounted bpffs' "$T/second.err")"
eq "after: a bpffs at /sys/fs/bpf, one mount, root's 0700 (and the sticky bit bpffs gives its root)" \
	"bpf_fs 1 0 1700" "$(v after) $(v mounts) $(v root)"
eq "mounted nosuid, nodev, noexec" "nosuid nodev noexec" \
	"$(v options | tr , '\n' | grep -xE 'nosuid|nodev|noexec' | tr '\n' ' ' | sed 's/ $//')"
d=$(python3 "$KF_TOP/tests/fp_compare.py" "$T/first.json" "$T/second.json")
if [ -z "$d" ]; then ok "the cached run's footprint is the fresh load's"; else not_ok "cached and fresh footprints differ"; printf '%s\n' "$d" | head -n 10 | sed 's/^/#   /'; fi
# the mount was the namespace's: the initial namespace (PID 1's) has no mount of that id
id=$(v id)
check "the mount is the namespace's alone (id $id is not in PID 1's mountinfo)" sh -c "[ -n '$id' ] && ! awk '{ print \$1 }' /proc/1/mountinfo | grep -qx '$id'"

# --- two first runs at once: one mount (the lock), both right ---
res=$(fresh "$(kf a) &
	$(kf b)
	wait
	awk '\$5 == \"/sys/fs/bpf\" { n++ } END { print \"mounts\", n + 0 }' /proc/self/mountinfo")
eq "two first runs at once: both exit 0, one mount between them" "0 0 1" "$(v a) $(v b) $(v mounts)"
eq "two first runs at once: one of them mounted" 1 "$(cat "$T/a.err" "$T/b.err" | grep -c 'mounted bpffs at /sys/fs/bpf')"

# --- KF_BPF_CACHE=0: nothing mounted ---
res=$(fresh "$(kf off KF_BPF_CACHE=0)
	stat -f -c 'after %T' /sys/fs/bpf")
eq "KF_BPF_CACHE=0: exit 0, nothing mounted" "0 sysfs 0" "$(v off) $(v after) $(grep -c 'mounted bpffs' "$T/off.err")"

# --- nowhere to mount (a read-only tmpfs over /sys/fs: no /sys/fs/bpf): one line of -v, a run as without a cache ---
res=$(fresh "mount -t tmpfs -o ro,size=4k none /sys/fs || exit 9
	$(kf nomount)")
eq "no mount possible: exit 0" 0 "$(v nomount)"
check "no mount possible: -v says why, loads privately" grep -q 'no program cache [0-9a-f]*: no bpffs at /sys/fs/bpf, and mounting one: No such file or directory: loading privately' "$T/nomount.err"
d=$(python3 "$KF_TOP/tests/fp_compare.py" "$T/first.json" "$T/nomount.json")
if [ -z "$d" ]; then ok "no mount possible: the footprint is the cached run's"; else not_ok "no mount possible: footprints differ"; printf '%s\n' "$d" | head -n 10 | sed 's/^/#   /'; fi
