#!/usr/bin/env python3
"""A large synthetic footprint (schema kfootprint/1) for measuring `kfootprint report`: many processes, each
with many files and syscalls, in the layout `kfootprint record -o` writes.

    python3 bench/gen_footprint.py PROCS FILES SYSCALLS [SEED] > big.json

PROCS processes, each with FILES distinct files and SYSCALLS distinct x86_64 syscalls (names and numbers from
data/syscalls/x86_64.tsv). 50000 20 25 gives about 250 MB. Deterministic for a given SEED.
"""
import os
import random
import sys

procs, nfiles, nsys = (int(a) for a in sys.argv[1:4])
rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
table = []
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "syscalls", "x86_64.tsv")) as f:
    for line in f:
        if line.startswith("#"):
            continue
        nr, name = line.split("\t")[:2]
        table.append((int(nr), name))
table = table[: max(nsys, 1) * 4]
out = sys.stdout
w = out.write
totals = {}
# The workload-wide list first (as the writer does), so the totals are computed beforehand.
choices = [rng.sample(table, min(nsys, len(table))) for _ in range(min(procs, 64))]
for p in range(procs):
    for nr, name in choices[p % len(choices)]:
        t = totals.setdefault((nr, name), [0, 0])
        t[0] += 3 + p % 7
        t[1] += p % 2
w('{\n  "schema": "kfootprint/1",\n  "tool": "kfootprint 0.1.0",\n')
w('  "host": {"kernel": "6.18.44", "arch": "x86_64"},\n')
w('  "workload": {"argv": ["sh", "-c", "synthetic"], "attached_pids": [], "label": null, "user": "root"},\n')
w('  "backend": "ptrace",\n  "started_at": "2026-11-29T10:00:00Z",\n  "elapsed_s": 12.500000000,\n')
w('  "exit": {"code": 0},\n  "complete": true,\n  "lost_events": 0,\n  "syscalls": [\n')
rows = sorted(totals.items(), key=lambda kv: (-kv[1][0], kv[0][1]))
for i, ((nr, name), (calls, errors)) in enumerate(rows):
    errnos = '{"ENOENT": %d}' % errors if errors else "{}"
    w('    {"name": "%s", "abi": "x86_64", "nr": %d, "calls": %d, "errors": %d, "errnos": %s, '
      '"time_s": %d.%09d, "class": "Filesystem"}%s\n'
      % (name, nr, calls, errors, errnos, calls // 1000000, calls % 1000000 * 1000, "," if i + 1 < len(rows) else ""))
w('  ],\n  "processes": [\n')
for p in range(procs):
    pid = 1000 + p
    w('    {\n      "pid": %d,\n      "ppid": %d,\n      "threads": 1,\n      "execs": 1,\n'
      '      "attached": false,\n      "comm": "worker%d",\n      "exe": "/usr/lib/synthetic/bin/worker",\n'
      '      "argv": ["worker", "--job", "%d", "--input", "/srv/data/job-%d/input.dat"],\n'
      '      "start_s": %d.%09d,\n      "end_s": %d.%09d,\n      "exit": {"code": 0},\n'
      '      "opens_read": %d,\n      "opens_write": %d,\n      "open_errors": 0,\n      "files": [\n'
      % (pid, 1000 + (p - 1) // 8 if p else 999, p % 1000, p, p, p // 10000, p % 10000 * 1000,
         p // 10000 + 1, p % 10000 * 1000, nfiles, nfiles // 4))
    for i in range(nfiles):
        mode, r, wr = ("w", 0, 1) if i % 4 == 0 else ("r", 1, 0)
        w('        {"path": "/srv/data/job-%d/part-%05d/file-%08x.dat", "mode": "%s", "opens": 1, "errors": 0, '
          '"opens_read": %d, "opens_write": %d}%s\n'
          % (p, i // 100, rng.getrandbits(32), mode, r, wr, "," if i + 1 < nfiles else ""))
    w('      ],\n      "syscalls": {\n')
    mine = choices[p % len(choices)]
    for i, (nr, name) in enumerate(mine):
        w('        "%s": {"calls": %d, "errors": %d, "time_s": 0.%09d}%s\n'
          % (name, 3 + p % 7, p % 2, (3 + p % 7) * 1000, "," if i + 1 < len(mine) else ""))
    w('      }\n    }%s\n' % ("," if p + 1 < procs else ""))
w('  ]\n}\n')
