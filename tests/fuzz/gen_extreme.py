#!/usr/bin/env python3
"""Footprints (schema kfootprint/1) at the edges of size and range, for the tests of cost and of counts:

    gen_extreme.py chain N      a process chain N deep (each process the child of the one before)
    gen_extreme.py rows N       N syscall rows (numbers past the x86_64 table: unknown calls, named by the file)
    gen_extreme.py count V      counts of V (2^63-1, 2^64, ...) in the calls, errors and errnos of two rows

Deterministic; the layout `kfootprint record -o` writes.
"""
import sys

mode, n = sys.argv[1], int(sys.argv[2])
w = sys.stdout.write
w('{\n  "schema": "kfootprint/1",\n  "tool": "kfootprint 0.1.0",\n')
w('  "host": {"kernel": "6.18.44", "arch": "x86_64"},\n')
w('  "workload": {"argv": ["sh", "-c", "%s %d"], "attached_pids": [], "label": null, "user": "root"},\n' % (mode, n))
w('  "backend": "ptrace",\n  "started_at": "2026-11-29T10:00:00Z",\n  "elapsed_s": 1.000000000,\n')
w('  "exit": {"code": 0},\n  "complete": true,\n  "lost_events": 0,\n  "syscalls": [\n')


def row(name, nr, calls, errors, errnos, last):
    w('    {"name": "%s", "abi": "x86_64", "nr": %d, "calls": %d, "errors": %d, "errnos": %s, '
      '"time_s": 0.000001000}%s\n' % (name, nr, calls, errors, errnos, "" if last else ","))


def proc(pid, ppid, syscalls, last):
    w('    {"pid": %d, "ppid": %d, "threads": 1, "execs": 1, "attached": false, "comm": "p%d", '
      '"exe": "/bin/true", "argv": ["true"], "start_s": 0.000000000, "end_s": 0.500000000, '
      '"exit": {"code": 0}, "opens_read": 0, "opens_write": 0, "open_errors": 0, "files": [], "syscalls": {%s}}%s\n'
      % (pid, ppid, pid, ", ".join('"%s": {"calls": %d, "errors": %d, "time_s": 0.000000000}' % s for s in syscalls),
         "" if last else ","))


if mode == "chain":
    row("read", 0, n, 0, "{}", True)
    w('  ],\n  "processes": [\n')
    for i in range(n):
        proc(1000 + i, 1000 + i - 1 if i else 1, [("read", 1, 0)], i + 1 == n)
elif mode == "rows":
    for i in range(n):
        row("unknown_%d" % i, 100000 + i, 1 + i % 7, i % 2, '{"ENOENT": 1}' if i % 2 else "{}", i + 1 == n)
    w('  ],\n  "processes": [\n')
    proc(1000, 1, [("unknown_%d" % i, 1 + i % 7, i % 2) for i in range(n)], True)
elif mode == "count":
    row("read", 0, n, n, '{"ENOENT": %d}' % n, False)
    row("write", 1, n, 0, "{}", True)
    w('  ],\n  "processes": [\n')
    proc(1000, 1, [("read", n, n), ("write", n, 0)], True)
else:
    sys.exit("gen_extreme.py: unknown mode '%s'" % mode)
w('  ]\n}\n')
