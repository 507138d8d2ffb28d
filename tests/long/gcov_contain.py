#!/usr/bin/env python3
# gcov_contain.py KCOV-SYM.json GCOV.json SRCROOT: how much of kcov's line set gcov's counts contain, for
# tests/long/gcov_guest.sh. kcov's lines (map --vmlinux --save-lines) are split into:
#   UNINST   in files gcov has no counters for at all (objects built with GCOV_PROFILE := n);
#   LISTED   on lines gcov has a counter for: RUN (count > 0) or ZERO;
#   UNLISTED on lines gcov has no counter for in an instrumented file: gcc's gcov puts a function's entry on its
#            declaration line, and folds `return X;` and `}` blocks into the exit block before instrumenting, so
#            they get no line of their own. A kcov line that is a lone `{` (the prologue's PC) is read at the
#            nearest line above that gcov lists, the declaration: that is where gcov counts the same entry.
# The same by function: kcov's (file, function) pairs that gcov lists, and of those the ones with a line run.
# Prints "KCOV UNINST LISTED RUN ZERO UNLISTED RATIO FUNCS FLISTED FRUN FRATIO" (RATIO = RUN / LISTED, FRATIO =
# FRUN / FLISTED), then the ZERO lines, then the UNLISTED lines' files, most first, then the functions not run.
import collections
import json
import os
import sys


def source_lines(root, path, cache):
    if path not in cache:
        try:
            with open(os.path.join(root, path), errors="replace") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = None
    return cache[path]


def main():
    kc_path, gc_path, root = sys.argv[1:4]
    kl = json.load(open(kc_path))["kernel_lines"]["lines"]
    kc = {(l["file"], l["line"]) for l in kl}
    counts = {}
    by_file = collections.defaultdict(list)
    fn_listed, fn_run = set(), set()
    for l in json.load(open(gc_path))["kernel_lines"]["lines"]:
        counts[(l["file"], l["line"])] = l["count"]
        by_file[l["file"]].append(l["line"])
        fn_listed.add((l["file"], l.get("function")))
        if l["count"] > 0:
            fn_run.add((l["file"], l.get("function")))
    kfn = {(l["file"], l.get("function")) for l in kl} & fn_listed
    for lines in by_file.values():
        lines.sort()
    src = {}
    uninst = run = zero = 0
    zeros, unlisted = [], collections.Counter()
    for f, n in sorted(kc):
        if f not in by_file:
            uninst += 1
            continue
        at = (f, n)
        if at not in counts:
            text = source_lines(root, f, src)
            if text and 0 < n <= len(text) and text[n - 1].strip() == "{":
                above = [x for x in by_file[f] if n - 20 <= x < n]
                if above:
                    at = (f, above[-1])
        if at not in counts:
            unlisted[f] += 1
        elif counts[at] > 0:
            run += 1
        else:
            zero += 1
            zeros.append("%s:%d" % (f, n))
    listed = run + zero
    print(len(kc), uninst, listed, run, zero, sum(unlisted.values()), "%.4f" % (run / max(1, listed)),
          len({(l["file"], l.get("function")) for l in kl}), len(kfn), len(kfn & fn_run),
          "%.4f" % (len(kfn & fn_run) / max(1, len(kfn))))
    print(" ".join(zeros[:40]))
    print(" ".join("%s(%d)" % fc for fc in unlisted.most_common(12)))
    print(" ".join("%s:%s" % x for x in sorted(kfn - fn_run, key=str)[:20]))


main()
