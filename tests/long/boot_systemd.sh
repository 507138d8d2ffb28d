#!/bin/sh
# kfootprint boot before a real systemd: the QEMU guest (Debian's 6.1) boots with kfootprint boot as the kernel's
# PID 1 (tests/guest/run --as-init, CMD tests/guest/systemd_init.sh), which execs this machine's own systemd 252
# on the read-only 9p root, to basic.target (systemd.unit=basic.target), the recording ending there
# (kfootprint_until_target=basic.target on the kernel command line: systemd's private bus says when). Asserted:
# systemd stays PID 1; the footprint holds the boot up to the target and is written after it, not before (the
# exit of kf-hold.service's `/bin/sleep 2.1`, the last unit before basic.target, is in it; journald and the
# generators with their exec names and parentage); the end reason names the target; the guest powers off
# (kf-check.service, after the target, waits for the footprint, then `systemctl poweroff -f`).
# One boot: ~35 s of wall time on the 2-vCPU VM at load 5.
# make check-long: one systemd boot under TCG, 60 CPU s (a tenth of make check on 2 CPUs); make check tests the boot
# recorder as the real PID 1 with busybox init (boot_guest.sh)
. "$(dirname "$0")/../lib.sh"

guest_usable "boot_systemd" || exit 0
if [ ! -x /lib/systemd/systemd ]; then
	skip "boot_systemd" "no /lib/systemd/systemd on this root (the guest boots the host's own systemd)"
	exit 0
fi
cd "$KF_TOP" || exit 1
# under the current directory: the guest's only writable 9p export, so the host reads what it wrote
d=$(mktemp -d "$KF_TOP/$KF_BUILD/.boot_systemd.XXXXXX") || exit 1
trap 'rm -rf "$T" "$d"' EXIT

t0=$(date +%s.%N)
tests/guest/run -v --as-init --timeout 400 \
	--append "systemd.unit=basic.target systemd.show_status=1 kfootprint_until_target=basic.target" \
	-- /bin/sh tests/guest/systemd_init.sh "$d" "$KF" >"$d/out" 2>"$d/err"
rc=$?
wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
eq "the guest powered off (systemctl poweroff -f after the target)" "0" "$rc"
eq "systemd is PID 1 after the target, and says basic.target is active" "systemd active" \
	"$(cat "$d/pid1-comm" 2>&1) $(cat "$d/basic-state" 2>&1)"
check "the recorder said why it ended" grep -q "^kfootprint: boot: recording ended: target basic.target reached" "$d/err"
check "no footprint yet when kf-check.service started after the target" test ! -e "$d/early"
if [ ! -s "$d/boot.json" ]; then
	not_ok "no footprint in $d: $(grep '^kfootprint' "$d/err" | tail -n3 | tr '\n' ' ')"
	grep -v '^guest: .*\(OK\|Starting\|Mounting\)' "$d/err" | tail -n 20 | sed 's/^/#   /'
	exit 0
fi
systemd=$(readlink -f /lib/systemd/systemd)
got=$("$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
ps = d["processes"]
by = {p["pid"]: p for p in ps}
p1 = ps[0]
print("end", d["backend"], d["complete"], d.get("incomplete_why"), d["lost_events"])
print("pid1", p1["pid"], p1["ppid"], p1["comm"], p1["exe"], p1["execs"])
j = [p for p in ps if p["exe"] == "/usr/lib/systemd/systemd-journald"]
print("journald", len(j), j and j[0]["ppid"], j and j[0]["argv"][0])
# the generators: children of a systemd that PID 1 forked, each exec name under system-generators/
g = [p for p in ps if p["exe"].startswith("/usr/lib/systemd/system-generators/")]
runner = {p["ppid"] for p in g}
print("generators", len(g) >= 5, all((p.get("exit") or {}).get("code") == 0 for p in g),
      [(by[r]["exe"], by[r]["ppid"]) for r in runner])
h = [p for p in ps if p["argv"] == ["/bin/sleep", "2.1"]]
print("hold", len(h), h and h[0]["ppid"], h and h[0].get("exit"))
print("shutdown", [p["pid"] for p in ps if "systemd-shutdown" in p["exe"] or "poweroff" in p["argv"]])
' "$d/boot.json" 2>&1)
want="end bpf False target basic.target reached 0
pid1 1 0 systemd $systemd 1
journald 1 1 /lib/systemd/systemd-journald
generators True True [('$systemd', 1)]
hold 1 1 {'code': 0}
shutdown []"
eq "the footprint: bpf, ended by the target; PID 1 kfootprint then systemd; journald and the generators (exec names, parents, exits); kf-hold's sleep ended before the target; nothing of the shutdown" \
	"$want" "$got"
check "report -F tree renders it, journald in it" sh -c '"$1" report -F tree "$2" 2>&1 | grep -q "systemd-journal"' sh "$KF" "$d/boot.json"

# figures: the boot, the target (systemd's monotonic clock = the guest kernel's uptime), the footprint's write
echo "# one boot: wall $wall s; basic.target reached at $(sed -n 's/.*=\([0-9]*\)[0-9]\{3\}$/\1/p' "$d/basic-when" 2>/dev/null) ms of guest uptime; kf-check.service at $(cat "$d/check-uptime" 2>/dev/null) s, footprint seen at $(cat "$d/written-uptime" 2>/dev/null) s"
echo "# $(grep -o "processes\": \[" "$d/boot.json" >/dev/null && "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(len(d["processes"]), "processes,", sum(s["calls"] for s in d["syscalls"]), "calls, elapsed", round(d["elapsed_s"], 1), "s")' "$d/boot.json")"
echo "# $(sed -n 's/^kfootprint: debug: \(boot: systemd.s bus: .*\)/\1/p' "$d/err")"
echo "# failed units: $(cut -d' ' -f1 "$d/failed" 2>/dev/null | tr '\n' ' ')"
