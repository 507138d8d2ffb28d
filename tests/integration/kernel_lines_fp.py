import json, subprocess, sys
elf, out, slide, bid = sys.argv[1], sys.argv[2], int(sys.argv[3], 0), sys.argv[4]
syms = {}
for l in subprocess.check_output(["nm", "-S", elf], text=True).splitlines():
    p = l.split()
    if len(p) == 4:
        syms[p[3]] = (int(p[0], 16), int(p[1], 16))
text = syms["kl_covered"][0] if "_text" not in syms else int(subprocess.check_output(["nm", elf], text=True).split("_text")[0].split()[-2], 16)
a, n = syms["kl_covered"]
pcs = [{"pc": hex(a + i + 1 + slide), "hits": 2} for i in range(n)]
b, bn = syms["kl_error_path"]
pcs.append({"pc": hex(b + 1 + slide), "hits": 1})
pcs.append({"pc": hex(b + bn + slide), "hits": 1})  # its last byte: the function's end, not its branches
fp = {"schema": "kfootprint/1", "label": out, "command": ["wl"],
      "syscalls": [{"name": "read", "abi": "x86_64", "nr": 0, "calls": 1, "errors": 0, "errnos": {}, "time_s": 0.0}],
      "kernel_lines": {"method": "kcov", "whole_guest": False, "build_id": bid,
      "runtime_text": hex(text + slide), "text_offset": "0x0", "lost": 3,
      "tasks": [{"tid": 10, "tgid": 10, "comm": "wl", "covered": True, "pcs": n + 1, "lost": 3},
                {"tid": 11, "tgid": 10, "comm": "wl", "covered": False, "why_not": "started before kcov was enabled", "pcs": 0, "lost": 0}],
      "pcs": sorted(pcs, key=lambda p: int(p["pc"], 16)), "lines": []}}
json.dump(fp, open(out, "w"), indent=1)
