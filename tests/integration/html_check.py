#!/usr/bin/env python3
# html_check.py NAME CDP-RESULT FOOTPRINT MAP-JSON MAP-KCONFIG MAPDB-JSON TEXT-REPORT WAITS...: TAP lines comparing what
# html_workloads.js read in Chromium from a page with what the other outputs say of the same footprint: the map's
# JSON (options and their labels, sections, what the calls reached) and Kconfig fragment (what the closure
# brought in), the database file (each section's M:, R: and L:
# lines), the text summary (its kconfig: and maintainers: counts) and the footprint itself (calls and time per
# class, processes). WAITS: syscalls whose time must be charted as waiting, apart from work.
import json
import re
import sys

name, cdp, fp_path, map_path, frag_path, mapdb_path, text_path = sys.argv[1:8]
waits_expected = sys.argv[8:]
res = json.load(open(cdp))
fp, mp, db = json.load(open(fp_path)), json.load(open(map_path)), json.load(open(mapdb_path))
text = open(text_path, encoding="utf-8", errors="replace").read()
failed = 0


def eq(what, want, got):
    global failed
    if want == got:
        print("ok html %s: %s" % (name, what))
    else:
        failed += 1
        print("not ok html %s: %s: expected %r, got %r" % (name, what, want, got))


def check(what, cond, detail=""):
    eq(what, True, bool(cond)) if not detail or cond else eq(what, "", detail)


eq("no console errors", [], res["errors"])
page = json.loads(res["results"][0]) if res["results"] and res["results"][0] else {}

# the options, each with its label, as the map's roll-up says
want = {"y": [], "off": [], "probe": []}
for c in mp["configs"]:
    key = "y" if c["needed_by"] else "off" if c["off_for"] else "probe"
    want[key].append("CONFIG_" + c["name"])
for key, label in (("y", "needed"), ("off", "only needed off"), ("probe", "probed")):
    eq("options %s: as map -F json says" % label, sorted(want[key]), page.get("opt_" + key))
    eq("options %s: each labelled '%s'" % (label, label), [label] if want[key] else [], page.get("label_" + key))
check("some option is only needed off or probed (the labels are tested)", want["off"] or want["probe"])
# what the closure brought in: the fragment's "# NAME: for OTHER (depends on ...)" lines after "need on allnoconfig"
frag = open(frag_path).read()
tail = frag.split("need on allnoconfig", 1)[1] if "need on allnoconfig" in frag else ""
brought = sorted("CONFIG_" + n for n in re.findall(r"^# (\w+): for \w+ \(", tail, re.M))
eq("options brought in by the closure: as map -F kconfig says", brought, page.get("opt_closure"))
eq("options brought in: each labelled 'brought in'", ["brought in"] if brought else [], page.get("label_closure"))
check("the closure brought some option in (the label is tested)", brought)
eq("options for the ABI: each labelled 'for the ABI'", ["for the ABI"] if page.get("opt_abi") else [],
   page.get("label_abi"))

# the MAINTAINERS sections: the best of each required syscall and refinement, THE REST left out, by calls
secs = {}
for row in mp["syscalls"] + mp["reached"]:
    k = row.get("kernel") or {}
    best = (k.get("maintainers") or [None])[0]
    if row["required"] and best and best != "THE REST":
        secs[best] = secs.get(best, 0) + row["calls"]
order = sorted(secs.items(), key=lambda s: (-s[1], s[0]))
eq("sections and their calls, as map -F json's chains say", order,
   [(s["name"], s["calls"]) for s in page.get("sections", [])])
dbsec = {s["name"]: s for s in db["sections"]}
eq("each section's M: lines, as the database has them",
   [["M: " + m for m in dbsec[s].get("maintainers", [])] for s, _ in order], [s["m"] for s in page.get("sections", [])])
eq("each section's R: lines, as the database has them",
   [["R: " + m for m in dbsec[s].get("reviewers", [])] for s, _ in order], [s["r"] for s in page.get("sections", [])])
check("some section has reviewers (R: lines are tested)", any(s["r"] for s in page.get("sections", [])))
eq("each section's L: lines, as the database has them",
   [["L: " + m for m in dbsec[s].get("lists", [])] for s, _ in order], [s["l"] for s in page.get("sections", [])])
check("the sections have maintainers to write to", all(s["m"] or s["l"] for s in page.get("sections", [])))

# what the calls reached
eq("what the calls reached, as map -F json says", sorted(r["kind"] + " " + r["value"] for r in mp["reached"]),
   page.get("reached"))

# the summary says what the text summary says
def first_int(s):
    m = re.match(r"(\d+) ", s or "")
    return m and m.group(1)


m = re.search(r"^kconfig: +(\d+) options? needed", text, re.M)
eq("the summary's options count is the text summary's", m and m.group(1), first_int(page.get("sum_kconfig")))
m = re.search(r"^maintainers: +(\d+) sections?", text, re.M)
eq("the summary's sections count is the text summary's", m and m.group(1), first_int(page.get("sum_sections")))

# the answer first, then the charts, then the detail
tops = dict(page.get("order", []))
seq = ["summary", "options", "sections", "reached", "classes", "times", "timeline", "syscalls", "sources", "files"]
eq("every part is on the page", [], [i for i in seq if tops.get(i) is None])
eq("the answer before the charts, the charts before the tables", seq,
   sorted((i for i in seq if tops.get(i) is not None), key=lambda i: tops[i]))

# the class chart: calls, the most first, each class's calls as the footprint's
calls = {}
for s in fp["syscalls"]:
    calls[s["class"]] = calls.get(s["class"], 0) + s["calls"]
eq("the class chart charts calls, the most first",
   sorted(calls.items(), key=lambda c: (-c[1], c[0])), [tuple(c) for c in page.get("classes", [])])
# time: working per class, and the waiting calls apart, on their own
ns = lambda s: round(s["time_s"] * 1e9)
total = sum(ns(s) for s in fp["syscalls"])
got = sum(v for _, v in page.get("works", [])) + sum(v for _, v in page.get("waits", []))
check("working and waiting times add up to the footprint's (%d ns, %d ns)" % (total, got),
      abs(total - got) <= len(fp["syscalls"]))
waits = dict(page.get("waits", []))
for w in waits_expected:
    t = sum(ns(s) for s in fp["syscalls"] if s["name"] == w)
    check("%s's %.3f ms is charted apart, as waiting" % (w, t / 1e6), w in waits and abs(waits[w] - t) <= 1)
work_classes = [c for c, _ in page.get("works", [])]
eq("the work chart has only classes", [], [c for c in work_classes if c not in calls])

# the timeline: lanes that hold their labels
procs = fp["processes"]
if len(procs) > 16:
    names = []
    for p in procs:
        n = p.get("comm") or (p.get("exe") or "?").rsplit("/", 1)[-1]
        if n not in names:
            names.append(n)
    eq("the timeline has a lane per program name", ["name", len(names)], [page.get("lanes_by"), page.get("lanes")])
else:
    eq("the timeline has a lane per process", ["process", len(procs)], [page.get("lanes_by"), page.get("lanes")])
eq("the timeline has a bar per process", len(procs), page.get("bars"))
check("the lanes are at least 18 px high (%s)" % page.get("lane_h"), (page.get("lane_h") or 0) >= 18)
eq("no label overflows its lane, its column or the chart", [], page.get("overflow"))
sys.exit(0)
