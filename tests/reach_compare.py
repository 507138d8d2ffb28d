#!/usr/bin/env python3
"""Compares what calls reached (syscalls[].reached, processes[].syscalls.NAME.reached) in two footprints.

    python3 tests/reach_compare.py A.json B.json [--ignore "NAME ..."]

Prints nothing when they are equal, else one line per difference. Both must say "reached": true. Refinements are
compared with their calls and errors, per (ABI, syscall) over the workload and per process; processes are matched
by their name, argv and place in the tree (the names from the root), not by pid. The syscalls named by --ignore
are left out (calls whose count depends on timing, as tests/fp_compare.py says of futex).
"""
import json
import sys


def rows(reached):
    return sorted((r["kind"], r["value"], r.get("fd") or "", r["calls"], r["errors"]) for r in reached)


def wide(d, ignore):
    out = {}
    for s in d.get("syscalls", []):
        if s["name"] in ignore:
            continue
        if s.get("reached") or s.get("reached_other"):
            out[(s["abi"], s["name"])] = (rows(s.get("reached", [])), s.get("reached_other", 0))
    return out


def per_proc(d, ignore):
    procs = {p["pid"]: p for p in d.get("processes", [])}

    def path(p):
        names = []
        seen = set()
        while p and p["pid"] not in seen:
            seen.add(p["pid"])
            names.append(p.get("comm", "?"))
            p = procs.get(p.get("ppid"))
        return "/".join(reversed(names))

    out = []
    for p in d.get("processes", []):
        tab = {}
        for name, v in p.get("syscalls", {}).items():
            if name.split(":")[-1] not in ignore and v.get("reached"):
                tab[name] = rows(v["reached"])
        out.append((path(p), " ".join(p.get("argv", [])), json.dumps(tab, sort_keys=True)))
    return sorted(out)


def main(argv):
    args, files, ignore = argv[1:], [], set()
    while args:
        a = args.pop(0)
        if a == "--ignore":
            ignore = set(args.pop(0).replace(",", " ").split())
        else:
            files.append(a)
    a, b = (json.load(open(f)) for f in files)
    for f, d in zip(files, (a, b)):
        if not d.get("reached"):
            print(f"{f}: records nothing of what calls reached")
            return 1
    wa, wb = wide(a, ignore), wide(b, ignore)
    diffs = 0
    for key in sorted(set(wa) | set(wb)):
        if wa.get(key) != wb.get(key):
            diffs += 1
            print(f"{key[0]} {key[1]}: {wa.get(key)} != {wb.get(key)}")
    pa, pb = per_proc(a, ignore), per_proc(b, ignore)
    if pa != pb:
        for x, y in zip(pa + [None] * len(pb), pb + [None] * len(pa)):
            if x != y:
                diffs += 1
                print(f"process {x} != {y}")
                break
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
