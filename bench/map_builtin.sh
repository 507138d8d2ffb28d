#!/bin/sh
# The built-in map database's speed (part of `make bench`): `kfootprint map --all-syscalls` (every x86_64 syscall,
# Linux 6.1's built-in database: no tree, no index), CPU time (user+sys: the machine may be shared, the work is
# not), the median of KF_BENCH_REPS (default 5). Target: under 1000 ms. Not a test: it prints figures and exits 0
# (tests/integration/map_builtin.sh checks what it maps).
#   sh bench/map_builtin.sh [BUILD-DIR]
set -u
build=${1:-build}
kf=$build/kfootprint
[ -x "$kf" ] || { echo "bench: $kf not built (make)" >&2; exit 1; }
exec python3 - "$kf" "${KF_BENCH_REPS:-5}" <<'PY'
import os, statistics, sys

kf, reps = sys.argv[1], int(sys.argv[2])
ms = []
for _ in range(reps):
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execv(kf, [kf, "map", "--all-syscalls"])
    _, status, ru = os.wait4(pid, 0)
    if status:
        print(f"map --all-syscalls (built-in database): failed (status {status})")
        sys.exit(0)
    ms.append((ru.ru_utime + ru.ru_stime) * 1000)
print(f"map --all-syscalls (built-in database): {statistics.median(ms):.0f} ms of CPU, median of {reps} (target < 1000)")
PY
