#!/usr/bin/env python3
# tailor_baselet.py NAME MAP-JSON BASELET: TAP lines holding kfootprint tailor's baselet (BASELET: the lines of
# `tailor --baselet`, OPTION TAB boot|table TAB EVIDENCE-or-WHY-NOT TAB WHY) to a recorded boot (MAP-JSON: `kfootprint map
# -F json` of it): what the boot shows of an option is its mapping's items that need it (needed_by) and the
# kernel functions defined in its files. A 'boot' row must name one of those; a 'table' row's option must be
# absent from the boot, else the boot says it and the row should be derived.
import json
import sys

name, map_path, baselet_path = sys.argv[1:4]
m = json.load(open(map_path))
shown = {}
for c in m.get("configs", []):
    for item in c.get("needed_by") or []:
        shown.setdefault(c["name"], set()).add(item)
for f in (m.get("kernel_functions") or {}).get("functions", []):
    for o in (f.get("kernel") or {}).get("configs") or []:
        shown.setdefault(o, set()).add(f["name"])
rows = [line.rstrip("\n").split("\t") for line in open(baselet_path) if line.strip()]
print(("ok" if len(rows) >= 10 else "not ok") + f" {name}: the baselet has its rows ({len(rows)})")
nboot = 0
for opt, how, evidence, _why in rows:
    if how == "boot":
        nboot += 1
        seen = evidence in shown.get(opt, set())
        print(("ok" if seen else "not ok") + f" {name}: {opt}: the boot shows '{evidence}'" +
              ("" if seen else f" (it shows: {', '.join(sorted(shown.get(opt, set()))[:5]) or 'nothing of it'})"))
    elif how == "table":
        if len(evidence) < 20:
            print(f"not ok {name}: {opt}: table-driven without saying why a boot cannot show it ('{evidence}')")
        absent = opt not in shown
        print(("ok" if absent else "not ok") + f" {name}: {opt}: table-driven, and the boot shows nothing of it" +
              ("" if absent else f" (it shows {', '.join(sorted(shown[opt])[:5])}: derive the row)"))
    else:
        print(f"not ok {name}: {opt}: '{how}' is neither boot nor table")
print(("ok" if nboot else "not ok") + f" {name}: {nboot} of {len(rows)} rows from the boot")
