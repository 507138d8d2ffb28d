#!/usr/bin/env python3
"""Runs a fuzz harness once on each input of two sizes of the same shapes and prints one TAP line per shape:
ok when it ran clean (no crash, leak or sanitizer report) and its CPU time and peak RSS (the child's, from
wait4) grew at most 8 times from the size N to 4N (twice the linear 4; a quadratic cost grows 16 times).
Each run is bounded: 60 s of CPU, libFuzzer's -rss_limit_mb=2048 and -timeout=60.

    shape_cost.py NAME HARNESS SMALL-DIR LARGE-DIR    (the same file names in both)
"""
import os
import resource
import sys

name, harness, small, large = sys.argv[1:5]


def run(path):
    pid = os.fork()
    if pid == 0:
        resource.setrlimit(resource.RLIMIT_CPU, (60, 60))
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execv(harness, [harness, "-rss_limit_mb=2048", "-timeout=60", path])
    _, status, ru = os.wait4(pid, 0)
    return status, ru.ru_utime + ru.ru_stime, ru.ru_maxrss


for shape in sorted(os.listdir(small)):
    got = [run(os.path.join(d, shape)) for d in (small, large)]
    bad = [s for s, _, _ in got if s]
    (_, t1, m1), (_, t4, m4) = got
    if bad:
        print("not ok %s: %s: the harness failed (status %#x): run it on %s" % (name, shape, bad[0], large))
        continue
    tr, mr = t4 / max(t1, 0.05), m4 / m1
    figures = "CPU %.2f s -> %.2f s (x%.1f), RSS %d -> %d MB (x%.1f)" % (t1, t4, tr, m1 >> 10, m4 >> 10, mr)
    verdict = "ok" if tr <= 8 and mr <= 8 else "not ok"
    print("%s %s: %s, N -> 4N: %s" % (verdict, name, shape, figures))
