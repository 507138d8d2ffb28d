#!/usr/bin/env python3
"""Compares a footprint recorded with ptrace (the reference) with one recorded with bpf.

    python3 tests/fp_compare.py PTRACE.json BPF.json [--ignore "NAME ..."] [--ignore-in COMM:NAME,...[;...]]

Prints nothing when they are equal, else one line per difference: calls and errors per (ABI, syscall)
and errno, the process tree (names by path from the root, threads, exit, exe, argv, opens, files), the
workload's exit, and that the bpf run is complete with nothing lost.

Left out, because timing decides them and not the backend: ERESTART* errors (a call restarted after a
signal exists only when the signal lands during the call), the syscalls named by --ignore (default futex:
whether a waiter sleeps depends on how fast the other thread runs), and the syscalls of --ignore-in made by
processes with that comm (tee:read,write: how a pipe's data is cut into reads). Process trees are compared
with each process's counts left out, so that the same calls are not left out in one place and not another.
"""
import bisect
import json
import sys


def main(argv):
    args = argv[1:]
    ignore, ignore_in, files = {"futex"}, {}, []
    while args:
        a = args.pop(0)
        if a == "--ignore":
            ignore = set(args.pop(0).replace(",", " ").split())
        elif a == "--ignore-in":
            for spec in args.pop(0).split(";"):
                comm, names = spec.split(":")
                ignore_in[comm] = set(names.split(","))
        else:
            files.append(a)
    a, b = (json.load(open(f)) for f in files)

    def calls(d):
        out = {}
        less = {}
        for p in d["processes"]:
            for key, v in p.get("syscalls", {}).items():
                abi, name = key.split(":") if ":" in key else ("x86_64", key)
                if name in ignore_in.get(p["comm"], ()):
                    less[(abi, name)] = less.get((abi, name), 0) + v["calls"]
        for s in d["syscalls"]:
            if s["name"] in ignore:
                continue
            restarts = sum(n for e, n in s.get("errnos", {}).items() if e.startswith("ERESTART"))
            errnos = tuple(sorted((e, n) for e, n in s.get("errnos", {}).items() if not e.startswith("ERESTART")))
            n = s["calls"] - restarts - less.get((s["abi"], s["name"]), 0)
            if n or errnos:
                # at_attach: the calls -p found in progress, which both backends count and mark alike
                out[(s["abi"], s["name"])] = (n, s["errors"] - restarts, errnos, s.get("at_attach", 0))
        return out

    def tree(d):
        procs = d["processes"]
        # A parent is the latest earlier process with the child's ppid (pids are reused): by bisection.
        bypid = {}
        for i, p in enumerate(procs):
            bypid.setdefault(p["pid"], []).append(i)
        paths = []
        for i, p in enumerate(procs):
            earlier = bypid.get(p["ppid"], [])
            k = bisect.bisect_left(earlier, i)
            paths.append((paths[earlier[k - 1]] + "/" if k else "") + p["comm"])
        return sorted((paths[i], p["threads"], json.dumps(p.get("exit")), p.get("exe"), json.dumps(p.get("argv")),
                       p.get("opens_read"), p.get("opens_write"),
                       json.dumps(sorted((f["path"], f.get("opens_read", 0), f.get("opens_write", 0), f["errors"])
                                         for f in p.get("files", []))))
                      for i, p in enumerate(procs))

    ca, cb = calls(a), calls(b)
    for k in sorted(set(ca) | set(cb)):
        if ca.get(k) != cb.get(k):
            print("%s/%s: ptrace %s, bpf %s" % (k[0], k[1], ca.get(k), cb.get(k)))
    ta, tb = tree(a), tree(b)
    if len(ta) != len(tb):
        print("processes: ptrace %d, bpf %d" % (len(ta), len(tb)))
    for x in sorted(set(ta) ^ set(tb))[:20]:
        print("process only in %s: %s" % ("ptrace" if x in ta else "bpf", x[:5]))
    if a["exit"] != b["exit"]:
        print("exit: ptrace %s, bpf %s" % (a["exit"], b["exit"]))
    if b["backend"] != "bpf" or not b["complete"] or b["lost_events"]:
        print("bpf run: backend %s, complete %s, lost %s" % (b["backend"], b["complete"], b["lost_events"]))


if __name__ == "__main__":
    main(sys.argv)
