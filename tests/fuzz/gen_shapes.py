#!/usr/bin/env python3
"""Inputs at the edges of size and range for the fuzz harnesses' bounded runs (tests/integration/report_fuzz.sh,
ktree_fuzz.sh): deep nesting, wide tables, extreme numbers, for each reader.

    gen_shapes.py DIR N     writes DIR/kconfig/*, DIR/kbuild/*, DIR/maintainers/* (N: depth and width)

Footprints of those shapes come from gen_extreme.py. Deterministic.
"""
import os
import sys

out, n = sys.argv[1], int(sys.argv[2])
BIG = "18446744073709551616"  # 2^64
shapes = {
    "kconfig": {
        "deep-if": "".join("if S%d\n" % i for i in range(n)) + "config DEEP\n\tbool\n" + "endif\n" * n,
        "deep-menu": "".join('menu "m%d"\n' % i for i in range(n)) + "config DEEPM\n\tbool\n" + "endmenu\n" * n,
        "deep-parens": "config PARENS\n\tbool\n\tdepends on " + "(" * n + "A" + ")" * n + "\n",
        "deep-not": "config NOTS\n\tbool\n\tdepends on " + "!" * n + "A\n",
        "long-and": "config ANDS\n\tbool\n\tdepends on " + " && ".join("S%d" % i for i in range(n)) + "\n",
        "wide": "".join("config W%d\n\tbool \"w%d\"\n\tdefault y if W%d\n\n" % (i, i, i - 1) for i in range(n)),
        "counts": "config C1\n\tint\n\trange 0 %s\n\tdefault %s\nconfig C2\n\thex\n\trange 0x0 0x%s\n"
                  "\tdefault 0x%s\nconfig C3\n\tint\n\trange -%s %s\n\tdefault -9223372036854775809\n"
                  % (BIG, BIG, "f" * 40, "f" * 40, BIG, BIG),
    },
    "kbuild": {
        "deep-ifeq": "".join("ifeq ($(CONFIG_S%d),y)\n" % i for i in range(n)) + "obj-y += deep.o\n" + "endif\n" * n,
        "deep-call": "obj-y += " + "$(if $(CONFIG_A)," * n + "x.o" + ")" * n + "\n",
        "long-line": "obj-y := " + " \\\n\t".join("f%d.o" % i for i in range(n)) + "\n",
        "wide": "".join("obj-$(CONFIG_W%d) += w%d.o\nw%d-y := a%d.o b%d.o\n" % (i, i, i, i, i) for i in range(n)),
        "deep-dirs": "obj-y += " + "/".join("d%d" % i for i in range(n)) + "/\n",
    },
    "maintainers": {
        "wide": "".join("SECTION %d\nM:\tA <a%d@x>\nS:\tMaintained\nF:\tdrivers/w%d/\n\n" % (i, i, i) for i in range(n)),
        "long-section": "ONE SECTION\nM:\tA <a@x>\n" + "".join("F:\tdir%d/*/x%d.c\n" % (i, i) for i in range(n)),
        "deep-path": "DEEP\nF:\t" + "/".join("p%d" % i for i in range(n)) + "/\n",
    },
}
for reader, files in shapes.items():
    os.makedirs(os.path.join(out, reader), exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(out, reader, name), "w") as f:
            f.write(text)
