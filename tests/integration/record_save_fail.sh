#!/bin/sh
# The workload's exit status is never lost (issue 24): when an output cannot be written after the run (a full
# disk: a small tmpfs mounted here, filled, unmounted at exit whatever happens), one line says how the workload
# ended, what could not be written and why, and which status kfootprint returns: the workload's, or 1 when it
# exited 0. With both backends.
. "$(dirname "$0")/../lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "save failure" "needs root to mount a tmpfs"
	exit 0
fi
FULL="$T/full"
mkdir "$FULL"
if ! mount -t tmpfs -o size=64k kf-full "$FULL" 2>"$T/mount.err"; then
	skip "save failure" "cannot mount a tmpfs: $(cat "$T/mount.err")"
	exit 0
fi
trap 'umount "$FULL" 2>/dev/null || umount -l "$FULL"; rm -rf "$T"' EXIT
# full: no block left (a new file may still be created: the inode limit is not reached)
dd if=/dev/zero of="$FULL/fill" bs=4k 2>/dev/null
[ "$(df --output=avail "$FULL" | tail -1 | tr -d ' ')" = 0 ] || not_ok "the tmpfs is not full: $(df "$FULL")"

backends=ptrace
if bpf_or_skip "bpf: save failure"; then backends="ptrace bpf"; fi
for b in $backends; do
	# fails CASE WANT-STATUS WANT-TEXT OPTION: record OPTION into the full tmpfs; one line, the status, nothing left
	fails() {
		"$KF" record -b "$b" $4 -- sh -c "$5" >"$T/out" 2>"$T/err"
		eq "$b: $1: exit status" "$2" "$?"
		if [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "$3" "$T/err" && grep -q 'No space left on device' "$T/err"; then
			ok "$b: $1: one line says it"
		else
			not_ok "$b: $1: stderr: $(cat "$T/err")"
		fi
		eq "$b: $1: no half-written file" "fill" "$(ls -A "$FULL")"
	}
	fails "-o, the workload exited 0" 1 \
		"^kfootprint: the workload exited 0; the footprint could not be written (exit status 1): writing '$FULL/f.json'" \
		"-o $FULL/f.json --report /dev/null" "exit 0"
	fails "-o, the workload exited 3" 3 \
		"^kfootprint: the workload exited 3; the footprint could not be written (exit status 3): " \
		"-o $FULL/f.json --report /dev/null" "exit 3"
	fails "-o, the workload killed by SIGKILL" 137 \
		"^kfootprint: the workload was killed by signal 9 (Killed); the footprint could not be written (exit status 137): " \
		"-o $FULL/f.json --report /dev/null" 'kill -9 $$'
	fails "--report, the workload exited 0" 1 \
		"^kfootprint: the workload exited 0; the report could not be written (exit status 1): " \
		"--report $FULL/r.txt" "exit 0"
	# and the footprint saved elsewhere in the same run is whole
	fails "--report fails, -o elsewhere" 5 "the report could not be written (exit status 5)" \
		"-o $T/ok.json --report $FULL/r.txt" "exit 5"
	eq "$b: the footprint saved elsewhere is whole" "5" "$(jget "$T/ok.json" "d['exit']['code']")"
done
