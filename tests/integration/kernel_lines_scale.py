#!/usr/bin/env python3
"""A kernel-lines input at two sizes, for kernel_lines_scale.sh: DIR/N/scale.c (N functions, each with an #ifdef
block and an error path never taken), built -O0 -g as DIR/N/wl, and DIR/N/fp.json, a gcov footprint naming
every compiled line of the file (count 0 for those not run, as gcov does). Then it runs each `kfootprint map`
given after the sizes on both, and prints one TAP line per map: its CPU time (the child's, from wait4) may grow
at most 8 times for 4 times the input, and the JSON map's blocks and error paths are checked (a quadratic cost grows 16 times; the cubic error-path search of session
23 grew 64 times, and took over 18 minutes on a real gcov footprint).

    kernel_lines_scale.py KF DIR N -- MAP-ARGS... [-- MAP-ARGS...]   ({wl}, {src}, {fp} replaced per size)
"""
import json
import os
import re
import subprocess
import sys

kf, top, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs, cur = [], None
for a in sys.argv[4:]:
    if a == "--":
        cur = []
        runs.append(cur)
    else:
        cur.append(a)


def make(d, n):
    os.makedirs(d, exist_ok=True)
    src, lines = ["#define EINVAL 22", ""], []  # lines: (line, count, function)
    for i in range(n):
        f = "kl_scale_%d" % i
        at = len(src) + 1
        src += ["int %s(int x)" % f, "{", "\tif (x > %d)" % (i + 1), "\t\treturn -EINVAL;", "\tx += %d;" % i,
                "#ifdef CONFIG_KL_SCALE_%d" % i, "\tx *= 2;", "#endif", "\treturn x;", "}", ""]
        # the opening line, the test, the error path (0), the sum, the return, the end
        lines += [(at, 1, f), (at + 2, 1, f), (at + 3, 0, f), (at + 4, 1, f), (at + 8, 1, f), (at + 9, 1, f)]
    src += ["int main(void)", "{", "\tint s = 0;"] + ["\ts += kl_scale_%d(0);" % i for i in range(n)] + \
           ["\treturn s & 1;", "}"]
    with open(os.path.join(d, "scale.c"), "w") as f:
        f.write("\n".join(src) + "\n")
    subprocess.check_call(["gcc", "-O0", "-g", "-o", os.path.join(d, "wl"), "scale.c"], cwd=d)
    fp = {"schema": "kfootprint/1", "label": "scale", "command": ["wl"],
          "syscalls": [{"name": "read", "abi": "x86_64", "nr": 0, "calls": 1, "errors": 0, "errnos": {},
                        "time_s": 0.0}],
          "kernel_lines": {"method": "gcov", "whole_guest": True, "lost": 0, "tasks": [], "pcs": [],
                           "lines": [{"file": "scale.c", "line": l, "count": c, "function": f}
                                     for l, c, f in lines]}}
    with open(os.path.join(d, "fp.json"), "w") as f:
        json.dump(fp, f)


def run(argv):
    pid = os.fork()
    if pid == 0:
        import resource
        resource.setrlimit(resource.RLIMIT_CPU, (120, 120))
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.execv(kf, [kf] + argv)
    _, status, ru = os.wait4(pid, 0)
    return status, ru.ru_utime + ru.ru_stime


sizes = {s: os.path.join(top, str(s)) for s in (n, 4 * n)}
for s, d in sizes.items():
    make(d, s)
for argv in runs:
    got = []
    for s, d in sizes.items():
        a = [x.replace("{wl}", d + "/wl").replace("{src}", d).replace("{fp}", d + "/fp.json")
             .replace("{out}", d + "/out") for x in argv]
        got.append(run(a))
    name = "kernel lines at scale: %s" % " ".join(re.sub(r"\{(\w+)\}", r"\1", x) for x in argv)
    (s1, t1), (s4, t4) = got
    if s1 or s4:
        print("not ok %s: exit status %#x, %#x" % (name, s1, s4))
        continue
    r = t4 / max(t1, 0.05)
    print("%s %s: %d -> %d functions, CPU %.2f s -> %.2f s (x%.1f)" % ("ok" if r <= 8 else "not ok", name, n,
                                                                         4 * n, t1, t4, r))
    if "json" in argv:  # what was timed did the work: a block and an error path per function
        k = json.load(open(os.path.join(sizes[4 * n], "out")))["kernel_lines"]
        got = (len(k["blocks"]), len(k["error_paths_not_taken"]))
        print("%s kernel lines at scale: %d #ifdef blocks and error paths found, of %d each: %s" %
              ("ok" if got == (4 * n, 4 * n) else "not ok", 4 * n, 4 * n, got))
