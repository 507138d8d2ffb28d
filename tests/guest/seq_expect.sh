# Sourced by tests/integration/qemu.sh and tests/long/qemu_arm64.sh: what tests/guest/seq_init.c makes as PID 1.
# seq_calls_of_pid1 FILE [ABI]: PID 1's calls, each "name calls errors errno...", sorted, then the processes line.
# A process keys calls of an ABI other than the host one as "ABI:NAME"; ABI picks the syscall rows for errnos.
seq_calls_of_pid1() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
abi = sys.argv[2] if len(sys.argv) > 2 else None
p = [p for p in d["processes"] if p["pid"] == 1][0]
g = {s["name"]: s for s in d["syscalls"] if abi is None or s["abi"] == abi}
for n, s in sorted((n.split(":")[-1], s) for n, s in p["syscalls"].items()):
    e = ",".join(sorted(g[n].get("errnos", {}).keys()))
    print(n, s["calls"], s.get("errors", 0), e or "-")
print("procs", len(d["processes"]), "comm", p.get("comm"), "complete", d["complete"], d.get("incomplete_why") or "")
' "$@"
}
SEQ_WANT="getpid 3 0 -
getppid 1 0 -
openat 1 1 ENOENT
reboot 1 0 -
syscall_1000 1 1 ENOSYS
uname 2 0 -
procs 1 comm init complete True "
